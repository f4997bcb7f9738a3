"""The exported graph: its input and output names, the ONNX export itself and float16 storage."""
import os
import tempfile
from typing import Dict

import numpy as np
import torch

from .checkpoint import FP16_MIN_ELEMENTS

OPSET = 14
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUTS = ("start_logits", "end_logits")
PRESENCE = "presence_logits"


def convert_fp16(model_proto, min_elements: int = FP16_MIN_ELEMENTS) -> int:
    """Stores float32 initializers with >= min_elements values as float16 behind a Cast to float32."""
    from onnx import TensorProto, helper, numpy_helper

    graph = model_proto.graph
    taken = {i.name for i in graph.initializer} | {o for n in graph.node for o in n.output}
    casts = []
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT:
            continue
        arr = numpy_helper.to_array(init)
        if arr.size < min_elements:
            continue
        half = arr.astype(np.float16)
        if not np.all(np.isfinite(half)):
            raise ValueError(f"initializer {init.name} overflows float16; export with --no-fp16")
        name, stored = init.name, init.name + "_fp16"
        while stored in taken:
            stored += "_"
        taken.add(stored)
        init.CopyFrom(numpy_helper.from_array(half, stored))
        casts.append(helper.make_node("Cast", [stored], [name], name=f"CastFp16_{len(casts)}", to=TensorProto.FLOAT))
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    converted = {c.output[0] for c in casts}
    kept_inputs = [i for i in graph.input if i.name not in converted]
    del graph.input[:]
    graph.input.extend(kept_inputs)
    return len(casts)


def export_onnx(model, feeds: Dict[str, np.ndarray], path: str, fp16: bool, outputs=OUTPUTS, names=INPUTS) -> Dict:
    import onnx

    dynamic = {k: {0: "batch", 1: "seq"} for k in tuple(names) + tuple(outputs)}
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "model.onnx")
        torch.onnx.export(model, tuple(torch.from_numpy(feeds[k]) for k in names), raw, input_names=list(names),
                          output_names=list(outputs), dynamic_axes=dynamic, opset_version=OPSET,
                          do_constant_folding=True)
        model.eval()  # export may leave the module in training mode
        proto = onnx.load(raw)
    converted = convert_fp16(proto) if fp16 else 0
    proto.producer_name = "bioner_mrc.export"
    onnx.checker.check_model(proto)
    onnx.save(proto, path)
    ops = sorted({n.op_type for n in proto.graph.node})
    return {"fp16_initializers": converted, "ops": ops}


def manifest_outputs(gated: bool) -> Dict[str, str]:
    return {"start": OUTPUTS[0], "end": OUTPUTS[1], **({"presence": PRESENCE} if gated else {})}

