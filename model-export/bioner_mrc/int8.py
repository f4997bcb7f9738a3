"""Dynamic int8 quantization: the weight format of an int8 bundle, and ONNX Runtime's arithmetic in torch.

An int8 bundle (``bioner_mrc.quantize``) stores each encoder Linear weight as int8, symmetric, one
scale per output column, in 7 bits ([-64, 64]). Its activations are quantized at run time one token
at a time: symmetric, scale = max|x| / 127 over the token's own hidden vector, stored as uint8 around
a fixed zero point of 128, multiplied by ``MatMulInteger`` in int32, then scaled back to float.

Per token, not per tensor: ``DynamicQuantizeLinear`` (one scale for the whole input tensor, i.e. the
whole padded batch, as ONNX Runtime's own quantizer writes it) made a sentence's entities depend on
which other sentences shared its batch (issue 38: 69 spans of 60 abstracts changed between batch 32
and batch 8). A token's quantization now reads that token alone, so a sentence gives the same
integers alone, padded, or beside any neighbours; the fixed zero point keeps ``MatMulInteger``'s
zero-point input a scalar, the form ONNX Runtime's kernels accept.

7-bit weights, as ONNX Runtime's own quantizer writes them with ``reduce_range``: CPUs without
AVX-512 VNNI multiply uint8 x int8 with ``vpmaddubsw``, which saturates a pair of products at
32767; 255 * 64 * 2 = 32640 never does, so every CPU computes the same integers, and this module
computes them too.

``QuantLinear`` computes what ONNX Runtime computes for one such MatMul, so a model whose encoder
Linears are replaced by it (``emulate``) scores an int8 bundle as the Java job runs it: the
evaluation recorded in an int8 bundle's ``bundle.json`` is that of the shipped graph.
"""
from typing import Dict, Tuple

import numpy as np
import torch
from torch import nn

WEIGHT_QMAX = 64  # symmetric 7-bit weights: [-64, 64]
ACTIVATION_QMAX = 127  # symmetric activations: [-127, 127] around the zero point
ACTIVATION_ZERO_POINT = 128  # stored as uint8 [1, 255]
MIN_RANGE = 1e-30  # an all-zero token: any scale gives zeros; this one avoids dividing by zero
CONSTANT_PREFIX = "per_token_"  # the int8 graph's own constants (127, MIN_RANGE, 128, shapes): no model parameter


def quantized_name(weight: str) -> str:
    """The int8 initializer of float weight ``weight`` in an int8 graph."""
    return weight + "_quantized"


def weight_scale_name(weight_q: str) -> str:
    """The per-column scales of int8 initializer ``weight_q``."""
    return weight_q[:-len("_quantized")] + "_scale"


def weight_zero_point_name(weight_q: str) -> str:
    """The (all-zero, symmetric) zero points of int8 initializer ``weight_q``."""
    return weight_q[:-len("_quantized")] + "_zero_point"


def quantize_weight(w: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """A MatMul weight [in, out] as int8 values and one float32 scale per output column."""
    scale = (np.abs(w).max(axis=0) / WEIGHT_QMAX).astype(np.float32)
    scale[scale == 0] = 1.0  # an all-zero column: any scale gives zeros
    q = np.clip(np.rint(w / scale), -WEIGHT_QMAX, WEIGHT_QMAX).astype(np.int8)
    return q, scale


def per_token_quantize(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """The int8 graph's activation quantization of float32 ``x`` [..., hidden]: the signed values
    (as float, zero point removed) and the scale [..., 1] of each token.

    scale = max(max|x|, MIN_RANGE) / 127 in float32; values round(x / scale) half to even, which
    ``QuantizeLinear`` (scale 1, zero point 128) then saturates to [0, 255].
    """
    scale = torch.clamp(x.abs().amax(dim=-1, keepdim=True), min=MIN_RANGE) / float(ACTIVATION_QMAX)
    q = torch.clamp(torch.round(x / scale) + ACTIVATION_ZERO_POINT, 0, 255) - ACTIVATION_ZERO_POINT
    return q, scale


class QuantLinear(nn.Module):
    """Per-token quantization -> ``MatMulInteger`` -> column scales -> token scales -> bias, as in the int8 graph."""

    def __init__(self, weight_q: np.ndarray, weight_scale: np.ndarray, bias: torch.Tensor):
        super().__init__()
        # float64 holds every int32 sum of int8 x uint8 products exactly (float32 would not past 2^24); the
        # scales' float32 values are kept in float64 too, so that --fp16 rounding (float32 tensors only)
        # leaves both alone
        self.register_buffer("weight_q", torch.from_numpy(weight_q.astype(np.float64)))
        self.register_buffer("weight_scale", torch.from_numpy(weight_scale.astype(np.float32).astype(np.float64)))
        self.bias = None if bias is None else nn.Parameter(bias.detach().clone(), requires_grad=False)

    def forward(self, x):
        q, scale = per_token_quantize(x)
        acc = torch.matmul(q.double(), self.weight_q)
        # the graph's order: int32 -> float32, times the column scales, times the token scales, each rounded to float32
        y = (acc.float() * self.weight_scale.float()) * scale
        return y if self.bias is None else y + self.bias


def emulate(model: nn.Module, quantized: Dict[str, Tuple[np.ndarray, np.ndarray]]) -> nn.Module:
    """Replaces each named Linear of ``model`` by a QuantLinear over its int8 weight ``[in, out]`` and scales."""
    for name, (weight_q, weight_scale) in quantized.items():
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name)
        linear = getattr(parent, child)
        if not isinstance(linear, nn.Linear) or tuple(linear.weight.shape) != weight_q.T.shape:
            raise ValueError(f"{name}: the int8 weight {weight_q.shape} does not fit the model's {linear}")
        setattr(parent, child, QuantLinear(weight_q, weight_scale, linear.bias))
    return model
