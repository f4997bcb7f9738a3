"""Dynamic int8 quantization: the weight format of an int8 bundle, and ONNX Runtime's arithmetic in torch.

An int8 bundle (``bioner_mrc.quantize``) stores each encoder Linear weight as int8, symmetric, one
scale per output column, in 7 bits ([-64, 64]). Its activations are quantized at run time by
``DynamicQuantizeLinear`` (uint8, one scale and zero point for the whole input tensor, i.e. the whole
padded batch) and multiplied by ``MatMulInteger`` in int32, then scaled back to float.

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
ACTIVATION_QMAX = 255  # uint8 activations


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


def dynamic_quantize(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """ONNX ``DynamicQuantizeLinear`` on float32 ``x``: uint8 values (as float), scale, zero point.

    The range always holds 0; scale = (max - min) / 255 (1 when the tensor is all zeros); zero point
    and values rounded half to even (``torch.round``), then saturated to [0, 255].
    """
    lo = torch.clamp(x.min(), max=0.0)
    hi = torch.clamp(x.max(), min=0.0)
    scale = (hi - lo) / float(ACTIVATION_QMAX)
    if scale.item() == 0:
        scale = torch.ones((), dtype=x.dtype)
    zero_point = torch.clamp(torch.round(0 - lo / scale), 0, ACTIVATION_QMAX)
    q = torch.clamp(torch.round(x / scale) + zero_point, 0, ACTIVATION_QMAX)
    return q, scale, zero_point


class QuantLinear(nn.Module):
    """``DynamicQuantizeLinear`` -> ``MatMulInteger`` -> float scales -> bias, as in the int8 graph."""

    def __init__(self, weight_q: np.ndarray, weight_scale: np.ndarray, bias: torch.Tensor):
        super().__init__()
        # float64 holds every int32 sum of int8 x uint8 products exactly (float32 would not past 2^24); the
        # scales' float32 values are kept in float64 too, so that --fp16 rounding (float32 tensors only)
        # leaves both alone
        self.register_buffer("weight_q", torch.from_numpy(weight_q.astype(np.float64)))
        self.register_buffer("weight_scale", torch.from_numpy(weight_scale.astype(np.float32).astype(np.float64)))
        self.bias = None if bias is None else nn.Parameter(bias.detach().clone(), requires_grad=False)

    def forward(self, x):
        q, scale, zero_point = dynamic_quantize(x)
        acc = torch.matmul((q - zero_point).double(), self.weight_q)
        # a product of two float32 values is exact in float64: rounding it once gives the float32 product
        y = acc.float() * (scale.double() * self.weight_scale).float()
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
