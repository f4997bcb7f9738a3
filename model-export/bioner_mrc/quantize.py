r"""Turns an exported bundle into an int8 bundle: dynamically quantized encoder, for CPUs.

    python3 -m bioner_mrc.quantize --bundle ../job/src/main/resources/bundles/default --out /tmp/int8-default \
        --evaluate-corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease

Every MatMul of the encoder layers that multiplies by a weight (query, key, value, attention output,
intermediate, output: 6 per layer) becomes dynamic quantization with one scale per token:

    X [..., K] -> ReduceMax, ReduceMin (last axis) -> max|x| -> Max(MIN_RANGE) / 127 -> scale [..., 1]
    X as [tokens, K] -> QuantizeLinear(scale per row, zero point 128, axis 0) -> Xq (uint8)   one per distinct input
    MatMulInteger(Xq, Wq, 128, Wzero) -> Cast(float) -> Mul(Wscale) -> Mul(scale) -> [..., N]   the MatMul's output

Not ONNX Runtime's own pattern (``DynamicQuantizeLinear``, one scale for the whole batch tensor): with
it a sentence's entities depended on its batch neighbours and padding (``bioner_mrc.int8`` says more).
Standard ONNX operators only (opset 13+), so any runtime and ``onnx_check`` run the same graph. Seen
as a matrix of tokens, the per-row scales are ``QuantizeLinear``'s per-axis form, one fused pass
instead of a division and a rounding over the whole activation (about 8% of the int8 graph's time).

The new bundle keeps the tokenizer, the manifest (with a ``quantization`` section, a ``-int8``
version unless ``--version`` says otherwise, and new checksums) and the fixture inputs, with the
logits of the quantized graph computed by the ONNX reference interpreter (``onnx_check``). With
``--evaluate-corpus`` its evaluation is that of the int8 arithmetic (``bioner_mrc.int8`` emulates
ONNX Runtime in torch), ``int8_f1_delta`` compares it with the source bundle's, and
``int8_logit_check`` compares the two models' logits on the first ``--compare-windows`` test windows.
"""
import argparse
import json
import os
import shutil
import sys
from typing import Dict, List, Tuple

import numpy as np
import torch

from . import int8, onnx_check
from .checkpoint import linear_module, load_checkpoint
from .corpus import CorpusSpec
from .evaluate import collect_examples, evaluate_examples, print_table
from . import bundle_writer
from .fixtures import pad_batch, torch_logits
from .onnx_graph import INPUTS, PRESENCE
from .features import collate
from .wordpiece import WordPieceTokenizer

OPS = ("ReduceMax", "ReduceMin", "QuantizeLinear", "MatMulInteger")
P = int8.CONSTANT_PREFIX
QMAX, MIN_RANGE, ZERO_POINT, FLAT, COLUMN, LEAD = (P + n for n in ("qmax", "min_range", "zero_point", "flat", "column",
                                                                   "lead"))


def is_encoder_linear(node, weights: Dict[str, np.ndarray]) -> bool:
    """A MatMul of an encoder layer whose right-hand side is a weight (not attention's Q.K or P.V)."""
    module = linear_module(node.name)
    return (node.op_type == "MatMul" and module is not None and ".encoder.layer." in module
            and node.input[1] in weights)


def float_weights(graph) -> Tuple[Dict[str, np.ndarray], Dict[str, object]]:
    """Float32 value of every weight a node can read (float16 storage read through its Cast), and
    those Casts by output name."""
    from onnx import numpy_helper

    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    values = {k: v for k, v in inits.items() if v.dtype == np.float32}
    casts = {}
    for node in graph.node:
        if node.op_type == "Cast" and node.input[0] in inits and inits[node.input[0]].dtype == np.float16:
            values[node.output[0]] = inits[node.input[0]].astype(np.float32)
            casts[node.output[0]] = node
    return values, casts


def constants() -> List:
    """The constants every per-token quantization reads."""
    from onnx import numpy_helper

    return [numpy_helper.from_array(np.array(int8.ACTIVATION_QMAX, np.float32), QMAX),
            numpy_helper.from_array(np.array(int8.MIN_RANGE, np.float32), MIN_RANGE),
            numpy_helper.from_array(np.array(int8.ACTIVATION_ZERO_POINT, np.uint8), ZERO_POINT),
            numpy_helper.from_array(np.array([-1], np.int64), FLAT),
            numpy_helper.from_array(np.array([-1, 1], np.int64), COLUMN),
            numpy_helper.from_array(np.array([0], np.int64), LEAD + "_start"),
            numpy_helper.from_array(np.array([-1], np.int64), LEAD + "_end")]


def shape_constant(dims: List[int]):
    """A Reshape/Concat shape [d...] as an initializer, named by its values."""
    from onnx import numpy_helper

    return numpy_helper.from_array(np.array(dims, np.int64), P + "shape_" + "_".join(str(d) for d in dims))


def per_token_quantization(activation: str, hidden: int) -> List:
    """``activation`` [..., hidden] as uint8 rows [tokens, hidden], each token's scale as a column
    [tokens, 1], and its leading dimensions, from that token alone."""
    from onnx import TensorProto, helper

    a = activation
    rows = shape_constant([-1, hidden]).name
    return [
        helper.make_node("ReduceMax", [a], [a + "_max"], name=a + "_max", axes=[-1], keepdims=1),
        helper.make_node("ReduceMin", [a], [a + "_min"], name=a + "_min", axes=[-1], keepdims=1),
        helper.make_node("Neg", [a + "_min"], [a + "_neg_min"], name=a + "_neg_min"),
        helper.make_node("Max", [a + "_max", a + "_neg_min", MIN_RANGE], [a + "_range"], name=a + "_range"),
        helper.make_node("Div", [a + "_range", QMAX], [a + "_scale"], name=a + "_scale"),
        helper.make_node("Reshape", [a, rows], [a + "_rows"], name=a + "_rows"),
        helper.make_node("Reshape", [a + "_scale", FLAT], [a + "_row_scales"], name=a + "_row_scales"),
        helper.make_node("Shape", [a + "_row_scales"], [a + "_tokens"], name=a + "_tokens"),
        helper.make_node("ConstantOfShape", [a + "_tokens"], [a + "_row_zero_points"], name=a + "_row_zero_points",
                         value=helper.make_tensor("zero_point", TensorProto.UINT8, [1], [int8.ACTIVATION_ZERO_POINT])),
        helper.make_node("QuantizeLinear", [a + "_rows", a + "_row_scales", a + "_row_zero_points"], [a + "_quantized"],
                         name=a + "_QuantizeLinear", axis=0),
        helper.make_node("Reshape", [a + "_scale", COLUMN], [a + "_scale_column"], name=a + "_scale_column"),
        helper.make_node("Shape", [a], [a + "_shape"], name=a + "_shape"),
        helper.make_node("Slice", [a + "_shape", LEAD + "_start", LEAD + "_end"], [a + "_lead"], name=a + "_lead"),
    ]


def quantized_nodes(matmul, activation: str, weight_q: str, outputs: int) -> List:
    """MatMulInteger and its float scaling for one MatMul, reading the activation's per-token quantization."""
    from onnx import TensorProto, helper

    name, out = matmul.name + "_quant", matmul.output[0]
    return [
        helper.make_node("MatMulInteger", [activation + "_quantized", weight_q, ZERO_POINT,
                                           int8.weight_zero_point_name(weight_q)], [out + "_quantized"], name=name),
        helper.make_node("Cast", [out + "_quantized"], [out + "_quantized_cast"], name=name + "_cast",
                         to=TensorProto.FLOAT),
        helper.make_node("Mul", [out + "_quantized_cast", int8.weight_scale_name(weight_q)], [out + "_column_scaled"],
                         name=name + "_column_scale_mul"),
        helper.make_node("Mul", [out + "_column_scaled", activation + "_scale_column"], [out + "_rows"],
                         name=name + "_token_scale_mul"),
        helper.make_node("Concat", [activation + "_lead", shape_constant([outputs]).name], [out + "_shape"],
                         name=name + "_shape", axis=0),
        helper.make_node("Reshape", [out + "_rows", out + "_shape"], [out], name=name + "_reshape"),
    ]


def quantize_graph(proto) -> List[str]:
    """Rewrites the encoder's weight MatMuls of ``proto`` in place; returns the quantized modules."""
    from onnx import numpy_helper

    graph = proto.graph
    weights, casts = float_weights(graph)
    nodes, modules, quantized_inputs, new_inits = [], [], set(), constants()
    for node in graph.node:
        if not is_encoder_linear(node, weights):
            nodes.append(node)
            continue
        activation, weight = node.input[0], node.input[1]
        hidden, outputs = weights[weight].shape
        if activation not in quantized_inputs:  # Q, K and V share their input's quantization
            quantized_inputs.add(activation)
            nodes.extend(per_token_quantization(activation, hidden))
        weight_q = int8.quantized_name(weight)
        q, scale = int8.quantize_weight(weights[weight])
        new_inits += [numpy_helper.from_array(q, weight_q),
                      numpy_helper.from_array(scale, int8.weight_scale_name(weight_q)),
                      numpy_helper.from_array(np.zeros_like(scale, dtype=np.int8),
                                              int8.weight_zero_point_name(weight_q))]
        nodes.extend(quantized_nodes(node, activation, weight_q, outputs))
        new_inits += [shape_constant([-1, hidden]), shape_constant([outputs])]
        modules.append(linear_module(node.name))
    read = {i for n in nodes for i in n.input} | {o.name for o in graph.output}
    nodes = [n for n in nodes if not (n.output[0] in casts and n.output[0] not in read)]  # the replaced weights' Casts
    read = {i for n in nodes for i in n.input}
    kept = [i for i in graph.initializer if i.name in read]
    new_inits = list({i.name: i for i in new_inits}.values())  # a shape constant once, however many MatMuls read it
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept + new_inits)
    return modules


def fixture_logits(model_path: str, fixtures: Dict) -> Dict:
    """The fixtures with the quantized graph's logits (ONNX reference interpreter), each sentence alone."""
    out = dict(fixtures)
    out["sentences"] = [dict(row, **dict(zip(("start_logits", "end_logits"),
                                             (a[0].tolist() for a in onnx_check.run_numpy(
                                                 model_path, pad_batch([row]), ["start_logits", "end_logits"])))))
                        for row in fixtures["sentences"]]
    if "gate" in fixtures:
        out["gate"] = [dict(row, **{PRESENCE: onnx_check.run_numpy(model_path, pad_batch([row]), [PRESENCE])[0][0]
                                    .tolist()}) for row in fixtures["gate"]]
    return out


def emulation_parity(bundle: str, model, fixtures: Dict) -> float:
    """Largest difference between the torch emulation ``model`` of ``bundle`` and the reference
    interpreter, fixtures padded together."""
    feeds = pad_batch(fixtures["sentences"])
    expected = onnx_check.run_numpy(os.path.join(bundle, "model.onnx"), feeds, ["start_logits", "end_logits"])
    got = torch_logits(model, feeds)[:2]
    return float(max(np.max(np.abs(g - e)) for g, e in zip(got, expected)))


def compare_logits(source: str, int8_model, examples: List, batch_size: int = 32) -> Dict:
    """The int8 arithmetic against the source bundle's on ``examples`` (the first test windows), in
    batches as the job runs them: largest start/end logit difference over the context positions, and
    the share of those positions whose argmax (the decoded tag) changes."""
    fp = load_checkpoint(source)
    worst, changed, positions = 0.0, 0, 0
    for b in range(0, len(examples), batch_size):
        batch = collate(examples[b:b + batch_size])
        feeds = {k: batch[k].numpy() for k in INPUTS}
        context = (batch["start_labels"] != -100).numpy()  # the context pieces, where spans are decoded
        for f, g in zip(torch_logits(fp.model, feeds)[:2], torch_logits(int8_model, feeds)[:2]):
            worst = max(worst, float(np.abs(f - g)[context].max()))
            changed += int((f.argmax(-1) != g.argmax(-1))[context].sum())
            positions += int(context.sum())
    print(f"int8 vs source logits on {len(examples)} test windows: max |diff| {worst:.3f}, "
          f"{changed} of {positions} start/end tags changed", flush=True)
    return {"windows": len(examples), "max_abs_diff": round(worst, 4), "tags_changed": changed,
            "tags": positions}


def evaluate_int8(int8_model, source_evaluation: Dict, examples: List, truncated: Dict, batch_size: int) -> Tuple:
    """Test-split scores of the int8 arithmetic, and their F1 change against the source bundle's."""
    print(f"evaluating {len(examples)} test examples with int8 arithmetic", flush=True)
    table = evaluate_examples(int8_model, examples, batch_size)
    print_table(table, truncated)
    delta = {k: {"f1_int8": row["f1"], "f1_source": source_evaluation[k]["f1"],
                 "delta": round(row["f1"] - source_evaluation[k]["f1"], 2)}
             for k, row in table.items() if k in source_evaluation}
    return table, delta


def quantization_record(source: Dict, modules: List[str]) -> Dict:
    return {"method": "dynamic-per-token", "ops": list(OPS),
            "weights": f"int8, symmetric, one scale per output column, 7 bits ([-{int8.WEIGHT_QMAX}, "
                       f"{int8.WEIGHT_QMAX}])",
            "activations": "int8, symmetric, one scale per token (max |x| / 127 over its own hidden vector), "
                           "stored as uint8 around zero point 128, computed at run time",
            "modules": modules,
            "kept_float": "embeddings, attention scores, LayerNorms, MRC heads and presence probe",
            "source": {"name": source["name"], "version": source["version"],
                       "model_sha256": source["files"]["model.onnx"]}}


def quantize_bundle(src: str, out: str, version: str = None, evaluate: List[str] = (), batch_size: int = 64,
                    compare_windows: int = 300) -> Dict:
    """Writes the int8 bundle of bundle folder ``src`` into ``out``; returns its manifest."""
    import onnx

    with open(os.path.join(src, "bundle.json"), encoding="utf-8") as f:
        source = json.load(f)
    if "quantization" in source:
        raise ValueError(f"{src} is already quantized ({source['version']})")
    proto = onnx.load(os.path.join(src, "model.onnx"))
    modules = quantize_graph(proto)
    if not modules:
        raise ValueError(f"{src}/model.onnx has no encoder MatMul with a weight: not a bundle of bioner_mrc.export")
    proto.producer_name = "bioner_mrc.quantize"
    onnx.checker.check_model(proto)
    os.makedirs(out, exist_ok=True)
    model_path = os.path.join(out, "model.onnx")
    onnx.save(proto, model_path)
    print(f"wrote {model_path} ({os.path.getsize(model_path) / 1e6:.1f} MB, {len(modules)} int8 MatMuls)", flush=True)
    shutil.copyfile(os.path.join(src, "tokenizer.json"), os.path.join(out, "tokenizer.json"))
    with open(os.path.join(src, "fixtures.json"), encoding="utf-8") as f:
        fixtures = fixture_logits(model_path, json.load(f))
    with open(os.path.join(out, "fixtures.json"), "w", encoding="utf-8") as f:
        json.dump(fixtures, f, ensure_ascii=False)

    manifest = {k: v for k, v in source.items()
                if k not in ("evaluation", "evaluation_truncated_examples", "fp16_f1_delta", "parity", "files")}
    manifest["version"] = version or source["version"] + "-int8"
    manifest["weights"] = {"storage": "int8 (encoder MatMuls) and " + source["weights"]["storage"],
                           "compute": "int8 x uint8 -> int32 (encoder MatMuls), float32 (the rest); "
                                      "each token's arithmetic reads that token alone"}
    manifest["quantization"] = quantization_record(source, modules)
    manifest = bundle_writer.write(out, manifest)  # the bundle is complete and readable from here on
    # read back once, for the checks below that run the emulation (a gated bundle does not read back)
    int8_loaded = load_checkpoint(out) if "gate" not in source or evaluate else None
    if "gate" not in source:
        worst = emulation_parity(out, int8_loaded.model, fixtures)
        print(f"torch int8 emulation vs the ONNX reference interpreter, fixtures padded together: "
              f"max |diff| {worst:.2e} (a float rounding difference can move an activation across a "
              "quantization step)", flush=True)
        manifest["parity"] = {"backend": "numpy", "torch_emulation_max_abs_diff": worst}
    if evaluate:
        tok = WordPieceTokenizer(os.path.join(out, "tokenizer.json"))
        examples, truncated = collect_examples([CorpusSpec.parse(s) for s in evaluate], int8_loaded.meta, tok, "test")
        if compare_windows:
            manifest["int8_logit_check"] = compare_logits(src, int8_loaded.model, examples[:compare_windows])
        table, delta = evaluate_int8(int8_loaded.model, source.get("evaluation", {}), examples, truncated,
                                     batch_size)
        manifest.update(evaluation=table, evaluation_truncated_examples=truncated, int8_f1_delta=delta)
    return bundle_writer.write(out, manifest)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundle", required=True, help="bundle folder written by bioner_mrc.export (float16 or float32)")
    p.add_argument("--out", required=True, help="int8 bundle folder to write")
    p.add_argument("--version", help="version of the int8 bundle (default: the source's with -int8)")
    p.add_argument("--evaluate-corpus", action="append", default=[], metavar="DIR:TAG=type[,TAG=type]",
                   help="score the int8 arithmetic on this corpus' test split (repeatable)")
    p.add_argument("--compare-windows", type=int, default=300,
                   help="with --evaluate-corpus: compare int8 and source logits on this many test windows (0: not)")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(max(1, args.threads))
    try:
        manifest = quantize_bundle(args.bundle, args.out, args.version, args.evaluate_corpus, args.batch_size,
                                   args.compare_windows)
    except (ValueError, FileNotFoundError) as e:
        print(f"quantize failed: {e}", file=sys.stderr)
        return 1
    print(f"bundle {manifest['name']} {manifest['version']} written to {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
