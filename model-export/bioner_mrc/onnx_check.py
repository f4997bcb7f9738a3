"""Runs an exported ONNX model and compares its logits with the PyTorch ones.

ONNX Runtime is used when it can be imported. Otherwise a small NumPy interpreter evaluates
the graph: it covers the operators that ``torch.onnx.export`` emits for our BERT-MRC model
(plus a few neighbours) and raises on any other operator, naming it, rather than guessing.
"""
import functools
import math
from typing import Dict, List, Optional, Sequence

import numpy as np

_TENSOR_TYPES = {
    1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
    9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64,
}

_erf = np.frompyfunc(math.erf, 1, 1)


class UnsupportedOperator(NotImplementedError):
    pass


def _attrs(node) -> Dict[str, object]:
    from onnx import helper

    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _axes(node, inputs, attrs, index=1) -> Optional[List[int]]:
    """Axes from the attribute (older opsets) or from an optional input (newer opsets)."""
    if "axes" in attrs:
        return [int(a) for a in attrs["axes"]]
    if len(inputs) > index and inputs[index] is not None:
        return [int(a) for a in np.asarray(inputs[index]).reshape(-1)]
    return None


def _unsqueeze(x, axes):
    rank = x.ndim + len(axes)
    for a in sorted(a + rank if a < 0 else a for a in axes):
        x = np.expand_dims(x, a)
    return x


def _slice(x, starts, ends, axes, steps):
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = a + x.ndim if a < 0 else a
        dim = x.shape[a]
        # ONNX clamps out-of-range bounds (INT64_MAX / INT64_MIN are common sentinels)
        s = max(-dim - 1, min(dim, int(s)))
        e = max(-dim - 1, min(dim, int(e)))
        index[a] = slice(s, e if not (st < 0 and e < -dim) else None, int(st))
    return x[tuple(index)]


def _softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def _reduce(fn, node, inputs, attrs):
    axes = _axes(node, inputs, attrs)
    keep = bool(attrs.get("keepdims", 1))
    x = inputs[0]
    if axes is None or len(axes) == 0:
        if attrs.get("noop_with_empty_axes", 0):
            return x
        axes = list(range(x.ndim))
    return fn(x, axis=tuple(axes), keepdims=keep).astype(x.dtype)


def _gemm(inputs, attrs):
    a, b = inputs[0], inputs[1]
    if attrs.get("transA", 0):
        a = a.T
    if attrs.get("transB", 0):
        b = b.T
    y = attrs.get("alpha", 1.0) * (a @ b)
    if len(inputs) > 2 and inputs[2] is not None:
        y = y + attrs.get("beta", 1.0) * inputs[2]
    return y.astype(a.dtype)


def _layer_norm(inputs, attrs):
    x, scale = inputs[0], inputs[1]
    axis = attrs.get("axis", -1)
    axes = tuple(range(axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + attrs.get("epsilon", 1e-5)) * scale
    if len(inputs) > 2 and inputs[2] is not None:
        y = y + inputs[2]
    return y.astype(x.dtype)


def _div(a, b):
    if np.issubdtype(a.dtype, np.integer):  # ONNX integer division truncates toward zero
        return (np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b)).astype(a.dtype)
    return np.divide(a, b).astype(a.dtype)


def _binary(fn):
    return lambda node, inputs, attrs: fn(inputs[0], inputs[1])


def _same_type(fn):
    def run(node, inputs, attrs):
        a, b = inputs[0], inputs[1]
        return np.asarray(fn(a, b)).astype(np.result_type(a, b) if a.dtype == b.dtype else a.dtype)
    return run


def _constant(node, inputs, attrs):
    from onnx import numpy_helper

    if "value" in attrs:
        return numpy_helper.to_array(attrs["value"])
    for key, dtype in (("value_float", np.float32), ("value_int", np.int64),
                       ("value_floats", np.float32), ("value_ints", np.int64)):
        if key in attrs:
            return np.array(attrs[key], dtype=dtype)
    raise UnsupportedOperator(f"Constant node {node.name!r} with attributes {sorted(attrs)}")


def _constant_of_shape(node, inputs, attrs):
    from onnx import numpy_helper

    value = numpy_helper.to_array(attrs["value"]) if "value" in attrs else np.zeros(1, np.float32)
    return np.full(tuple(int(d) for d in inputs[0]), value.reshape(-1)[0], dtype=value.dtype)


def _reshape(node, inputs, attrs):
    x, shape = inputs[0], [int(d) for d in inputs[1]]
    if not attrs.get("allowzero", 0):
        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
    return x.reshape(shape)


def _split(node, inputs, attrs):
    x = inputs[0]
    axis = attrs.get("axis", 0)
    sizes = attrs.get("split")
    if sizes is None and len(inputs) > 1 and inputs[1] is not None:
        sizes = [int(s) for s in inputs[1]]
    if sizes is None:
        n = len(node.output)
        sizes = [x.shape[axis] // n] * n
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


def _quantize_linear(inputs, attrs):
    """x / scale rounded half to even, plus the zero point, saturated to its type (ONNX spec: per
    tensor, or per axis with 1-D scales and zero points)."""
    x, scale = inputs[0], inputs[1]
    zero_point = inputs[2] if len(inputs) > 2 and inputs[2] is not None else np.array(0, np.uint8)
    if scale.ndim == 1:
        along = [1] * x.ndim
        along[attrs.get("axis", 1) % x.ndim] = -1
        scale, zero_point = scale.reshape(along), zero_point.reshape(along)
    info = np.iinfo(zero_point.dtype)
    y = np.rint(x / scale) + zero_point.astype(np.float32)
    return np.clip(y, info.min, info.max).astype(zero_point.dtype)


def _matmul_integer(inputs):
    """int32 product of the zero-point-shifted operands (float64 holds these sums exactly, and is fast)."""
    a = inputs[0].astype(np.float64)
    b = inputs[1].astype(np.float64)
    if len(inputs) > 2 and inputs[2] is not None:
        a = a - inputs[2].astype(np.float64)
    if len(inputs) > 3 and inputs[3] is not None:
        b = b - inputs[3].astype(np.float64)
    return np.matmul(a, b).astype(np.int32)


def _squeeze(node, inputs, attrs):
    axes = _axes(node, inputs, attrs)
    x = inputs[0]
    return np.squeeze(x, axis=tuple(axes)) if axes else np.squeeze(x)


OPS = {
    "Identity": lambda n, i, a: i[0],
    "Constant": _constant,
    "ConstantOfShape": _constant_of_shape,
    "Shape": lambda n, i, a: np.array(i[0].shape[a.get("start", 0):a.get("end", None)], dtype=np.int64),
    "Size": lambda n, i, a: np.array(i[0].size, dtype=np.int64),
    "Cast": lambda n, i, a: i[0].astype(_TENSOR_TYPES[a["to"]]),
    "Gather": lambda n, i, a: np.take(i[0], i[1].astype(np.int64), axis=a.get("axis", 0)),
    "Unsqueeze": lambda n, i, a: _unsqueeze(i[0], _axes(n, i, a)),
    "Squeeze": _squeeze,
    "Reshape": _reshape,
    "Flatten": lambda n, i, a: i[0].reshape(int(np.prod(i[0].shape[:a.get("axis", 1)])), -1),
    "Transpose": lambda n, i, a: np.transpose(i[0], a.get("perm")),
    "Concat": lambda n, i, a: np.concatenate([x for x in i if x is not None], axis=a["axis"]),
    "Split": _split,
    "Slice": lambda n, i, a: _slice(i[0], i[1], i[2], None if len(i) < 4 or i[3] is None else list(i[3]),
                                    None if len(i) < 5 or i[4] is None else list(i[4])),
    "Expand": lambda n, i, a: np.broadcast_to(i[0], np.broadcast_shapes(i[0].shape, tuple(int(d) for d in i[1]))),
    "Range": lambda n, i, a: np.arange(i[0].item(), i[1].item(), i[2].item()).astype(i[0].dtype),
    "Where": lambda n, i, a: np.where(i[0], i[1], i[2]),
    "Add": _same_type(np.add),
    "Sub": _same_type(np.subtract),
    "Mul": _same_type(np.multiply),
    "Div": lambda n, i, a: _div(i[0], i[1]),
    "Pow": lambda n, i, a: np.power(i[0], i[1]).astype(i[0].dtype),
    "Min": lambda n, i, a: functools.reduce(np.minimum, i),
    "Max": lambda n, i, a: functools.reduce(np.maximum, i),
    "Equal": _binary(np.equal),
    "Less": _binary(np.less),
    "Greater": _binary(np.greater),
    "Not": lambda n, i, a: np.logical_not(i[0]),
    "And": _binary(np.logical_and),
    "Or": _binary(np.logical_or),
    "Neg": lambda n, i, a: np.negative(i[0]),
    "Abs": lambda n, i, a: np.abs(i[0]),
    "Sqrt": lambda n, i, a: np.sqrt(i[0]),
    "Exp": lambda n, i, a: np.exp(i[0]),
    "Log": lambda n, i, a: np.log(i[0]),
    "Reciprocal": lambda n, i, a: (1 / i[0]).astype(i[0].dtype),
    "Tanh": lambda n, i, a: np.tanh(i[0]),
    "Relu": lambda n, i, a: np.maximum(i[0], 0).astype(i[0].dtype),
    "Sigmoid": lambda n, i, a: (1 / (1 + np.exp(-i[0]))).astype(i[0].dtype),
    "Erf": lambda n, i, a: _erf(i[0].astype(np.float64)).astype(i[0].dtype),
    "MatMul": lambda n, i, a: np.matmul(i[0], i[1]),
    "Gemm": lambda n, i, a: _gemm(i, a),
    "QuantizeLinear": lambda n, i, a: _quantize_linear(i, a),
    "MatMulInteger": lambda n, i, a: _matmul_integer(i),
    "Softmax": lambda n, i, a: _softmax(i[0], a.get("axis", -1)),
    "ReduceMean": lambda n, i, a: _reduce(np.mean, n, i, a),
    "ReduceSum": lambda n, i, a: _reduce(np.sum, n, i, a),
    "ReduceMax": lambda n, i, a: _reduce(np.max, n, i, a),
    "ReduceMin": lambda n, i, a: _reduce(np.min, n, i, a),
    "LayerNormalization": lambda n, i, a: _layer_norm(i, a),
}


def run_numpy(model, feeds: Dict[str, np.ndarray], outputs: Optional[Sequence[str]] = None) -> List[np.ndarray]:
    """Evaluates ``model`` (an ``onnx.ModelProto`` or a path) on ``feeds`` with NumPy."""
    import onnx
    from onnx import numpy_helper

    if isinstance(model, str):
        model = onnx.load(model)
    graph = model.graph
    env: Dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for inp in graph.input:
        if inp.name in env:
            continue
        if inp.name not in feeds:
            raise ValueError(f"missing input {inp.name!r}; the model takes {[i.name for i in graph.input]}")
        env[inp.name] = np.asarray(feeds[inp.name])
    env[""] = None
    for node in graph.node:
        op = OPS.get(node.op_type)
        if op is None or node.domain not in ("", "ai.onnx"):
            raise UnsupportedOperator(f"ONNX operator {node.domain + '.' if node.domain else ''}{node.op_type} "
                                      f"(node {node.name!r}) is not supported by the NumPy interpreter")
        try:
            result = op(node, [env[name] for name in node.input], _attrs(node))
        except KeyError as e:
            raise ValueError(f"node {node.name!r} reads {e} before it is computed") from None
        if not isinstance(result, tuple):
            result = (result,)
        for name, value in zip(node.output, result):
            env[name] = np.asarray(value)
    names = list(outputs) if outputs else [o.name for o in graph.output]
    return [env[n] for n in names]


def run(model_path: str, feeds: Dict[str, np.ndarray], outputs: Sequence[str]) -> List[np.ndarray]:
    """Runs with ONNX Runtime when installed, otherwise with the NumPy interpreter."""
    try:
        import onnxruntime as ort
    except ImportError:
        return run_numpy(model_path, feeds, outputs)
    session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    return session.run(list(outputs), feeds)


def backend() -> str:
    try:
        import onnxruntime  # noqa: F401
        return "onnxruntime"
    except ImportError:
        return "numpy"


def verify(model_path: str, feeds: Dict[str, np.ndarray], expected_start, expected_end,
           atol: float = 1e-4, outputs=("start_logits", "end_logits")) -> float:
    """Checks the model's start/end logits against the expected ones; returns the max abs diff.

    Raises ValueError naming the worst output and its max abs difference past ``atol``.
    """
    return verify_outputs(model_path, feeds, dict(zip(outputs, (expected_start, expected_end))), atol)


def verify_outputs(model_path: str, feeds: Dict[str, np.ndarray], expected: Dict[str, object],
                   atol: float = 1e-4) -> float:
    """Checks each named output against its expected values; returns the max abs diff (see ``verify``)."""
    got = run(model_path, {k: np.asarray(v, dtype=np.int64) for k, v in feeds.items()}, list(expected))
    worst = 0.0
    for (name, e), g in zip(expected.items(), got):
        e = np.asarray(e, dtype=np.float32)
        if g.shape != e.shape:
            raise ValueError(f"{model_path}: {name} has shape {g.shape}, expected {e.shape}")
        if not np.all(np.isfinite(g)):
            raise ValueError(f"{model_path}: {name} contains non-finite values")
        diff = float(np.max(np.abs(g.astype(np.float64) - e))) if g.size else 0.0
        if diff > atol:
            raise ValueError(f"{model_path}: {name} differs from PyTorch by up to {diff:.3g} (tolerance {atol:g})")
        worst = max(worst, diff)
    return worst
