r"""Tiny bundles for the Java tests: one with a presence gate (the gate's ONNX Runtime path) and its
int8 twin, one with syntax and corpus tags (combined feature attention over the job's annotator,
tagged questions).

    python3 -m bioner_mrc.tiny_bundle --out ../job/src/test/resources/bundles/tiny-gated \
        --int8-out ../job/src/test/resources/bundles/tiny-gated-int8
    python3 -m bioner_mrc.tiny_bundle --syntax --out ../job/src/test/resources/bundles/tiny-syntax

The syntax bundle runs the job's annotator (``../bioner annotate``) on the fixture sentences, for
its label vocabulary and its fixtures, and records its evaluation on 40 short NCBI-disease test
sentences (``SYNTAX_EVALUATION``), which the Java engine must reproduce count for count.

A randomly initialised 2-layer, 16-wide BERT-MRC over a small vocabulary (the words of the export's
fixture sentences and queries), with random gate probes and a made-up measured table (marked so in
the manifest): its weights mean nothing. What matters is that its ``fixtures.json`` holds the
start, end and presence logits PyTorch computes, which the Java session must reproduce. Exported by
``bioner_mrc.export`` like any bundle, so the file is the real format, a few kilobytes large.
``--int8-out`` also writes it through ``bioner_mrc.quantize``: the Java tests open the int8 graph in
ONNX Runtime and compare it with the ONNX reference interpreter's logits and with the float bundle's.
"""
import argparse
import json
import os
import re
import sys
import tempfile

import torch

from . import bundle_writer, export, fixtures, quantize, queries, syntax
from .bert import BertConfig, BertEncoder
from .mrc import BertMrc

TYPES = {"chemical": "Can you detect chemical entities like cocaine ?",
         "disease": "Can you detect disease entities like seizures ?"}
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


CORPORA = {"chemical": "BC5CDR", "disease": "NCBI-disease"}  # the syntax bundle's default corpus per type
SYNTAX_KINDS = ["pos", "chunk", "dep"]
SYNTAX_EVALUATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "job", "src", "test",
                                 "resources", "corpora", "NCBI-disease-IOB") + ":Disease=disease"


def vocabulary(corpus_tags: bool = False):
    tagged = [queries.tagged(q, c) for q in TYPES.values() for c in CORPORA.values()] if corpus_tags else []
    text = " ".join([t for t, _ in fixtures.FIXTURE_SENTENCES] + list(TYPES.values()) + tagged).lower()
    words = re.findall(r"\w+|[^\w\s]", text)
    return {w: i for i, w in enumerate(dict.fromkeys(SPECIAL + words))}


def tokenizer_spec(vocab, specials: bool = False):
    """``specials``: declare [CLS], [SEP]... as added tokens, as real tokenizers do, so the Java engine
    (which looks their ids up by encoding them) builds its own windows from raw text."""
    added = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for t in SPECIAL] if specials else []
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
            "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                           "strip_accents": None, "lowercase": True},
            "pre_tokenizer": {"type": "BertPreTokenizer"}, "post_processor": None,
            "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100, "vocab": vocab}}


def tiny(vocab, syntax_spec=None):
    """The random tiny model and its checkpoint meta."""
    torch.manual_seed(7)
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=64, hidden_dropout_prob=0.0)
    model = BertMrc(BertEncoder(config), "eq6", 16, syntax=syntax_spec)
    meta = {"base_encoder": "random tiny BERT (tests only)", "encoder_config": config.to_dict(), "end_head": "eq6",
            "types": list(TYPES), "queries": TYPES, "max_len": 64 if syntax_spec else 48, "corpora": [], "args": {}}
    return model, meta


def write_syntax(out: str):
    """The tiny model with CFA over every syntax kind and corpus tags; labels from the fixture sentences."""
    vocab = vocabulary(corpus_tags=True)
    with tempfile.TemporaryDirectory() as tmp:
        tok = os.path.join(tmp, "tokenizer.json")
        with open(tok, "w", encoding="utf-8") as f:
            json.dump(tokenizer_spec(vocab, specials=True), f)
        texts = [t for t, _ in fixtures.FIXTURE_SENTENCES]
        spec = syntax.spec(fixtures.annotate_fixtures(tok), texts, SYNTAX_KINDS)
        model, meta = tiny(vocab, spec)
        meta.update(syntax=spec, corpus_tags={"corpora": sorted(set(CORPORA.values())), "defaults": CORPORA})
        checkpoint = os.path.join(tmp, "tiny.pt")
        torch.save({"model": model.state_dict(), "meta": meta, "step": 0}, checkpoint)
        return export.export_bundle(checkpoint, tok, out, "tiny-syntax", "0.0.1", evaluate=[SYNTAX_EVALUATION])


def write(out: str):
    vocab = vocabulary()
    model, meta = tiny(vocab)
    types = meta["types"]
    made_up = {"TINY/chemical": 50.0, "TINY/disease": 50.0}
    gate = {"weight": torch.randn(len(types), 16), "bias": torch.randn(len(types)), "types": types, "split": "test",
            "measured": [{"threshold": None, "passes": 8, "saved": 0.0, "f1": made_up},
                         {"threshold": 0.5, "passes": 6, "saved": 25.0, "f1": made_up}]}
    with tempfile.TemporaryDirectory() as tmp:
        checkpoint, gate_pt, tok = (os.path.join(tmp, n) for n in ("tiny.pt", "gate.pt", "tokenizer.json"))
        torch.save({"model": model.state_dict(), "meta": meta, "step": 0}, checkpoint)
        torch.save(gate, gate_pt)
        with open(tok, "w", encoding="utf-8") as f:
            json.dump(tokenizer_spec(vocab), f)
        manifest = export.export_bundle(checkpoint, tok, out, "tiny-gated", "0.0.1", gate=gate_pt)
    manifest["gate"]["measured_on"] = "nothing: a made-up table for tests"
    return bundle_writer.write(out, manifest)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--int8-out", help="also write the bundle's int8 quantization (bioner_mrc.quantize) here")
    p.add_argument("--syntax", action="store_true", help="the syntax and corpus-tags bundle instead of the gated one")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    (write_syntax if args.syntax else write)(args.out)
    print(f"tiny {'syntax' if args.syntax else 'gated'} bundle written to {args.out}", flush=True)
    if args.int8_out:
        quantize.quantize_bundle(args.out, args.int8_out)
        print(f"its int8 quantization written to {args.int8_out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
