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
from typing import Dict, List, Optional

import torch

from . import bundle_writer, onnx_check, stored_predictions
from .checkpoint import FP16_MIN_ELEMENTS, load_checkpoint, round_fp16, training_record
from .corpus import CorpusSpec
from .evaluate import collect_examples, evaluate_examples, print_table, table_of
from .fixtures import fixtures, gate_fixtures, input_names, pad_batch, torch_logits
from .gate import MAX_GATE_F1_LOSS, choose_gate, load_gate
from .mrc import GatedMrc, SyntaxMrc
from .onnx_graph import OUTPUTS, PRESENCE, export_onnx, manifest_outputs
from .predict import predict_spans, score
from .wordpiece import WordPieceTokenizer

ATOL = 1e-4


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
