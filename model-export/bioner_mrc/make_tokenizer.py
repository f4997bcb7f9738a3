r"""Writes a BERT WordPiece ``tokenizer.json`` from a ``vocab.txt`` (e.g. BioBERT's).

    python3 -m bioner_mrc.make_tokenizer --vocab biobert-base-cased-v1.1/vocab.txt --cased \
        --out biobert-base-cased-v1.1/tokenizer.json

BioBERT and other original BERT checkpoints ship only ``vocab.txt``; training and the bundle
need the HuggingFace ``tokenizer.json`` form (BertNormalizer, BertPreTokenizer, WordPiece), which
is what this writes, with padding and truncation off.
"""
import argparse
import json
import os
import sys
from typing import Dict

SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def read_vocab(path: str) -> Dict[str, int]:
    if not os.path.isfile(path):
        raise FileNotFoundError(f"vocab file not found: {path}")
    vocab: Dict[str, int] = {}
    with open(path, encoding="utf-8") as f:
        for index, line in enumerate(f):  # id = line number; a repeated token keeps its last id, as HF does
            token = line.rstrip("\n").rstrip("\r")
            if token:
                vocab[token] = index
    missing = [t for t in SPECIALS[1:4] if t not in vocab]
    if missing:
        raise ValueError(f"{path}: special tokens {missing} are missing: not a BERT vocabulary")
    return vocab


def tokenizer_json(vocab: Dict[str, int], lowercase: bool) -> Dict:
    added = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for t in SPECIALS if t in vocab]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": lowercase},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {t: {"id": t, "ids": [vocab[t]], "tokens": [t]} for t in ("[CLS]", "[SEP]")},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab},
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vocab", required=True, help="vocab.txt, one token per line, id = line number")
    case = p.add_mutually_exclusive_group(required=True)
    case.add_argument("--cased", action="store_true", help="keep case and accents (BioBERT v1.1 is cased)")
    case.add_argument("--uncased", action="store_true", help="lowercase and strip accents")
    p.add_argument("--out", required=True, help="tokenizer.json to write")
    args = p.parse_args(argv)
    try:
        vocab = read_vocab(args.vocab)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(vocab, lowercase=args.uncased), f, ensure_ascii=False, indent=2)
    print(f"wrote {args.out} ({len(vocab)} tokens, {'uncased' if args.uncased else 'cased'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
