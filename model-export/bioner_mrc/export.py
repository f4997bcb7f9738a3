r"""Exports a trained BioBERT-MRC as a model bundle for the Java engine.

    python3 -m bioner_mrc.export --checkpoint runs/default/best.pt \
        --tokenizer encoders/all-minilm-l6-v2-tokenizer.json --out bundles/bioner-mrc-minilm \
        --name bioner-mrc-minilm --version 1.0.0 \
        --evaluate-corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease

The bundle folder holds ``model.onnx`` (inputs input_ids / attention_mask / token_type_ids
int64 [batch, seq]; outputs start_logits / end_logits float32 [batch, seq, 2]),
``tokenizer.json`` (padding and truncation off), ``bundle.json`` (the manifest) and
``fixtures.json`` (sentences with their inputs and logits, for the Java parity test).

With fp16 storage (the default) large weights are stored as float16 and cast back to float32
in the graph; the PyTorch model used for the parity check and the evaluation carries the same
rounded weights, so the reported scores are those of the shipped file.
"""
import argparse
import copy
import json
import os
import sys
import tempfile
from typing import Dict, List, Optional

import numpy as np
import torch
from torch import nn

from . import bundle_writer, onnx_check, syntax
from .checkpoint import FP16_MIN_ELEMENTS, load_checkpoint, round_fp16, training_record
from .corpus import CorpusSpec
from . import stored_predictions
from .evaluate import collect_examples, evaluate_examples, print_table, table_of
from .mrc import GatedMrc, SyntaxMrc
from .predict import predict_spans, score
from .queries import tagged
from .wordpiece import WordPieceTokenizer

OPSET = 14
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUTS = ("start_logits", "end_logits")
PRESENCE = "presence_logits"
ATOL = 1e-4
MAX_GATE_F1_LOSS = 0.2  # a gate is on by default only if no corpus/type loses more F1 than this

# Parity sentences (Greek letters, accents, punctuation), with the type each one is asked about.
FIXTURE_SENTENCES = [
    ("Treatment with α-interferon (IFN-α) induced severe hepatotoxicity in 12 patients.", "chemical"),
    ("Sjögren's syndrome and café-au-lait spots were seen after naloxone-induced seizures.", "disease"),
    ("Mutations of BRCA1 and TNF-β/NF-κB signalling were studied in Mus musculus.", "gene"),
    ("Infection of mice, rats and Saccharomyces cerevisiae by Plasmodium falciparum ; naïve hosts.", "species"),
]

def encode(tok: WordPieceTokenizer, text: str, query: str, max_len: int):
    pieces = tok.tokenize(text)
    query_ids = [p.id for p in tok.tokenize(query)]
    budget = max_len - len(query_ids) - 3
    ctx = pieces[:max(1, budget)]
    ids, segments = tok.encode_pair(ctx, query_ids)
    return ctx, ids, segments


def input_names(meta: Dict) -> List[str]:
    """The graph's inputs: the ids, then each syntax kind's positions and labels."""
    return list(INPUTS) + (syntax.input_names(meta["syntax"]) if meta.get("syntax") else [])


def pad_batch(rows: List[Dict], names=INPUTS) -> Dict[str, np.ndarray]:
    """Inputs padded with zeros to the longest row ([batch, seq], syntax [batch, seq, width])."""
    n = max(len(r["input_ids"]) for r in rows)

    def pad(values):
        fill = [0] * len(values[0]) if values and isinstance(values[0], list) else 0
        return values + [fill] * (n - len(values))

    return {k: np.array([pad(r[k]) for r in rows], dtype=np.int64) for k in names}


def torch_logits(model, feeds: Dict[str, np.ndarray], names=INPUTS):
    """The model's outputs (start, end[, presence]) as arrays."""
    with torch.no_grad():
        return tuple(o.numpy() for o in model(*(torch.from_numpy(feeds[k]) for k in names)))


def annotate_fixtures(tokenizer: str) -> syntax.Annotations:
    """The job's annotator run on the fixture sentences (given to it as an IOB file, all tags O)."""
    with tempfile.TemporaryDirectory() as tmp:
        iob = os.path.join(tmp, "fixtures.tsv")
        with open(iob, "w", encoding="utf-8") as f:
            f.write("\n\n".join("\n".join(w + "\tO" for w in text.split(" ")) for text, _ in FIXTURE_SENTENCES))
        return syntax.annotate([iob], tokenizer)


def fixture_syntax(meta: Dict, tok: WordPieceTokenizer) -> Optional[syntax.SyntaxInputs]:
    """The fixture sentences' syntax inputs, for a model that reads syntax."""
    return syntax.SyntaxInputs(meta["syntax"], annotate_fixtures(tok.path)) if meta.get("syntax") else None


def fixtures(model, tok: WordPieceTokenizer, meta: Dict) -> List[Dict]:
    """The fixture sentences with their inputs (a type's question as the job asks it: in its default
    corpus tag for a model trained with corpus tags) and PyTorch's logits."""
    types = meta["types"]
    names = input_names(meta)
    annotated = fixture_syntax(meta, tok)
    runnable = SyntaxMrc(model) if annotated else model
    rows = []
    for i, (text, preferred) in enumerate(FIXTURE_SENTENCES):
        etype = preferred if preferred in types else types[i % len(types)]
        query = meta["queries"][etype]
        if meta.get("corpus_tags"):
            query = tagged(query, meta["corpus_tags"]["defaults"][etype])
        ctx, ids, segments = encode(tok, text, query, meta["max_len"])
        row = {"text": text, "type": etype, "query": query, "input_ids": ids, "attention_mask": [1] * len(ids),
               "token_type_ids": segments, "context_offsets": [[p.start, p.end] for p in ctx]}
        if annotated:
            row.update(zip(names[len(INPUTS):], (part for pair in annotated.encode(text, len(ctx), len(ids))
                                                  for part in pair)))
        s, e = torch_logits(runnable, pad_batch([row], names), names)[:2]
        row["start_logits"] = s[0].tolist()
        row["end_logits"] = e[0].tolist()
        rows.append(row)
    return rows


def gate_fixtures(model: GatedMrc, tok: WordPieceTokenizer, max_len: int) -> List[Dict]:
    """The fixture sentences read alone (``[CLS] sentence [SEP]``, the gate's pass) and their presence logits."""
    rows = []
    for text, _ in FIXTURE_SENTENCES:
        ctx = tok.tokenize(text)[:max_len - 2]
        ids = [tok.cls_id] + [p.id for p in ctx] + [tok.sep_id]
        row = {"text": text, "input_ids": ids, "attention_mask": [1] * len(ids), "token_type_ids": [0] * len(ids),
               "context_offsets": [[p.start, p.end] for p in ctx]}
        row[PRESENCE] = torch_logits(model, pad_batch([row]))[2][0].tolist()
        rows.append(row)
    return rows


def load_gate(path: str, meta: Dict, hidden: int):
    """The probes and measured table that ``bioner_mrc.gate`` saved, checked against the model."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"gate not found: {path}")
    saved = torch.load(path, map_location="cpu")
    if saved.get("types") != meta["types"]:
        raise ValueError(f"{path}: gate types {saved.get('types')} differ from the model's {meta['types']}: "
                         "measure the gate on this checkpoint (bioner_mrc.gate)")
    probe = nn.Linear(hidden, len(meta["types"]))
    if tuple(saved["weight"].shape) != tuple(probe.weight.shape):
        raise ValueError(f"{path}: gate weight {tuple(saved['weight'].shape)}, the model needs "
                         f"{tuple(probe.weight.shape)}")
    with torch.no_grad():
        probe.weight.copy_(saved["weight"])
        probe.bias.copy_(saved["bias"])
    return probe, saved


def choose_gate(saved: Dict, threshold: Optional[float] = None) -> Dict:
    """The manifest's gate: the measured threshold saving the most passes while no corpus/type loses
    more than MAX_GATE_F1_LOSS F1 (on by default), else the one losing least (off by default);
    ``threshold`` picks a measured row instead."""
    rows = saved["measured"]
    base = rows[0]["f1"]

    def loss(r):
        return max(base[k] - r["f1"][k] for k in base)

    candidates = [r for r in rows if r["threshold"] is not None and threshold in (None, r["threshold"])]
    if not candidates:
        raise ValueError(f"--gate-threshold {threshold:g} was not measured; measured: "
                         f"{[r['threshold'] for r in rows if r['threshold'] is not None]}")
    good = [r for r in candidates if loss(r) <= MAX_GATE_F1_LOSS]
    pick = max(good, key=lambda r: r["saved"]) if good else min(candidates, key=loss)
    return {"output": PRESENCE, "threshold": pick["threshold"], "enabled": bool(good),
            "max_f1_loss": round(loss(pick), 2), "passes_saved_percent": pick["saved"],
            "criterion": f"on by default only if no corpus/type loses more than {MAX_GATE_F1_LOSS} F1",
            "measured_on": saved.get("split", "test"), "measured": rows}


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


def clean_tokenizer(src: str, dst: str) -> Dict:
    with open(src, encoding="utf-8") as f:
        spec = json.load(f)
    spec["truncation"] = None
    spec["padding"] = None
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(spec, f, ensure_ascii=False, indent=2)
    return spec


def evaluate_specs(loaded, tok, specs: List[CorpusSpec], original_state: Optional[Dict], batch_size: int):
    """Test-split scores of the (rounded) model, F1 deltas against the unrounded weights, and the
    stored predictions of the Java parity test."""
    examples, truncated = collect_examples(specs, loaded.meta, tok, "test")
    print(f"evaluating {len(examples)} test examples ({sum(truncated.values())} truncated)", flush=True)
    spans = predict_spans(loaded.model, examples, batch_size)
    table = table_of(score(examples, spans))
    stored = stored_predictions.document(examples, spans, tok, loaded.meta["max_len"])
    print_table(table, truncated)
    delta = None
    if original_state is not None:
        rounded = copy.deepcopy(loaded.model.state_dict())
        loaded.model.load_state_dict(original_state)
        fp32 = evaluate_examples(loaded.model, examples, batch_size)
        loaded.model.load_state_dict(rounded)
        loaded.model.eval()
        delta = {k: {"f1_fp16": table[k]["f1"], "f1_fp32": fp32[k]["f1"],
                     "delta": round(table[k]["f1"] - fp32[k]["f1"], 2)} for k in table}
        print("fp16 - fp32 F1: " + ", ".join(f"{k} {v['delta']:+.2f}" for k, v in delta.items()), flush=True)
    return table, delta, truncated, stored


def export_bundle(checkpoint: str, tokenizer: str, out: str, name: str, version: str, fp16: bool = True,
                  evaluate: List[str] = (), queries: Optional[Dict[str, str]] = None, max_len: int = 256,
                  batch_size: int = 64, atol: float = ATOL, gate: Optional[str] = None,
                  gate_threshold: Optional[float] = None) -> Dict:
    """Writes the bundle into ``out`` and returns the manifest. Raises on any failed check."""
    specs = [CorpusSpec.parse(s) for s in evaluate]
    if not os.path.isfile(tokenizer):
        raise FileNotFoundError(f"tokenizer not found: {tokenizer}")
    tok = WordPieceTokenizer(tokenizer)
    loaded = load_checkpoint(checkpoint, queries, max_len)
    model, meta = loaded.model, loaded.meta
    vocab = model.bert.config.vocab_size
    if max(tok.vocab.values()) >= vocab:
        raise ValueError(f"{tokenizer}: token ids reach {max(tok.vocab.values())} but the encoder has {vocab} "
                         "embeddings: wrong tokenizer for this checkpoint")
    for spec in specs:
        unknown = sorted(set(spec.tags.values()) - set(meta["types"]))
        if unknown:
            raise ValueError(f"--evaluate-corpus {spec.name}: type(s) {unknown} unknown to the model, "
                             f"which knows {meta['types']}")
    gated = gate_spec = None
    if gate and meta.get("syntax"):
        raise ValueError("--gate: the presence gate's query-free pass has no syntax inputs; export a syntax model "
                         "without a gate")
    if gate:
        probe, saved = load_gate(gate, meta, model.bert.config.hidden_size)
        gate_spec = choose_gate(saved, gate_threshold)
        gated = GatedMrc(model, probe).eval()
    original = copy.deepcopy(model.state_dict()) if fp16 else None
    rounded = round_fp16(gated or model) if fp16 else []
    os.makedirs(out, exist_ok=True)

    rows = fixtures(model, tok, meta)
    names = input_names(meta)
    batch = pad_batch(rows, names)
    onnx_path = os.path.join(out, "model.onnx")
    outputs = OUTPUTS + ((PRESENCE,) if gated else ())
    graph = gated or (SyntaxMrc(model) if meta.get("syntax") else model)
    info = export_onnx(graph, batch, onnx_path, fp16, outputs, names)
    print(f"wrote {onnx_path} ({os.path.getsize(onnx_path) / 1e6:.1f} MB, {info['fp16_initializers']} float16 "
          f"initializers, {len(rounded)} rounded parameters); ops: {' '.join(info['ops'])}", flush=True)

    # Parity: the padded batch, and each fixture alone (no padding), within atol.
    gate_rows = gate_fixtures(gated, tok, meta["max_len"]) if gated else []
    try:
        worst = onnx_check.verify_outputs(onnx_path, batch, dict(zip(outputs, torch_logits(graph, batch, names))),
                                          atol)
        for row in rows:
            feeds = pad_batch([row], names)
            worst = max(worst, onnx_check.verify(onnx_path, feeds, [row["start_logits"]], [row["end_logits"]], atol))
        for row in gate_rows:
            worst = max(worst, onnx_check.verify_outputs(onnx_path, pad_batch([row]), {PRESENCE: [row[PRESENCE]]},
                                                         atol))
    except Exception:
        os.remove(onnx_path)  # never leave a model that failed its parity check in the bundle
        raise
    print(f"ONNX ({onnx_check.backend()}) matches PyTorch: max |diff| {worst:.2e} <= {atol:g}", flush=True)

    spec = clean_tokenizer(tokenizer, os.path.join(out, "tokenizer.json"))
    with open(os.path.join(out, "fixtures.json"), "w", encoding="utf-8") as f:
        json.dump({"atol": atol, "outputs": manifest_outputs(gated is not None), "sentences": rows,
                   **({"gate": gate_rows} if gated else {})}, f, ensure_ascii=False)

    manifest = {
        "format": 1,
        "name": name,
        "version": version,
        "max_sequence_length": meta["max_len"],
        "lowercase": bool((spec.get("normalizer") or {}).get("lowercase", True)),
        "base_encoder": meta.get("base_encoder"),
        "encoder_config": meta["encoder_config"],
        "end_head": meta["end_head"],
        "entity_types": [{"name": t, "query": meta["queries"][t]} for t in meta["types"]],
        "training": training_record(loaded),
        "weights": {"storage": "float16" if fp16 else "float32", "compute": "float32",
                    "float16_min_elements": FP16_MIN_ELEMENTS if fp16 else None},
        "parity": {"backend": onnx_check.backend(), "max_abs_diff": worst, "atol": atol},
        "outputs": manifest_outputs(gated is not None),
    }
    if gate_spec:
        manifest["gate"] = gate_spec
    for section in ("syntax", "corpus_tags"):
        if meta.get(section):
            manifest[section] = meta[section]
    if specs:
        table, delta, truncated, stored = evaluate_specs(loaded, tok, specs, original, batch_size)
        stored_predictions.write(os.path.join(out, stored_predictions.FILE), stored)
        manifest["evaluation"] = table
        manifest["evaluation_truncated_examples"] = truncated
        if delta is not None:
            manifest["fp16_f1_delta"] = delta
    return bundle_writer.write(out, manifest)


def _entity_types(pairs: List[str]) -> Dict[str, str]:
    out = {}
    for p in pairs or []:
        t, eq, q = p.partition("=")
        if not eq or not t.strip() or not q.strip():
            raise ValueError(f"--entity-type {p!r}: expected NAME=QUERY")
        out[t.strip()] = q.strip()
    return out


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--checkpoint", required=True,
                   help="best.pt from bioner_mrc.train, or an HF BioBERT-MRC directory (config.json + pytorch_model.bin)")
    p.add_argument("--tokenizer", required=True, help="tokenizer.json of the encoder")
    p.add_argument("--out", required=True, help="bundle directory to write")
    p.add_argument("--name", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--fp16", action=argparse.BooleanOptionalAction, default=True,
                   help="store weights with >= 1024 values as float16 (default on)")
    p.add_argument("--evaluate-corpus", action="append", default=[], metavar="DIR:TAG=type[,TAG=type]",
                   help="score the shipped weights on this corpus' test split (repeatable)")
    p.add_argument("--entity-type", action="append", metavar="NAME=QUERY",
                   help="HF checkpoint only: an entity type and its query, in output order (repeatable)")
    p.add_argument("--max-len", type=int, default=256, help="HF checkpoint only: max sequence length")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--atol", type=float, default=ATOL, help="ONNX vs PyTorch logits tolerance")
    p.add_argument("--gate", metavar="GATE.pt",
                   help="a presence gate measured on this checkpoint by bioner_mrc.gate: adds its output to the "
                        "graph and its threshold to the manifest (on by default only if it cost at most "
                        f"{MAX_GATE_F1_LOSS} F1 on every measured corpus/type)")
    p.add_argument("--gate-threshold", type=float,
                   help="with --gate: one of the measured thresholds instead of the automatic choice")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(max(1, args.threads))
    try:
        manifest = export_bundle(args.checkpoint, args.tokenizer, args.out, args.name, args.version, args.fp16,
                                 args.evaluate_corpus, _entity_types(args.entity_type), args.max_len,
                                 args.batch_size, args.atol, args.gate, args.gate_threshold)
    except (ValueError, FileNotFoundError, onnx_check.UnsupportedOperator) as e:
        print(f"export failed: {e}", file=sys.stderr)
        return 1
    print(f"bundle {manifest['name']} {manifest['version']} written to {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
