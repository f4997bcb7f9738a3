r"""Writes word-piece ids and offsets of corpus sentences, for the Java tokenizer parity test.

    python3 -m bioner_mrc.parity --tokenizer encoders/all-minilm-l6-v2-tokenizer.json \
        --iob ../corpora/BC5CDR-IOB/test.tsv --iob ../corpora/NCBI-disease-IOB/test.tsv \
        --out ../job/src/test/resources/parity/wordpiece-ids.tsv.gz

One gzip TSV line per distinct sentence of each file (text = its tokens joined by single spaces):
``corpus<TAB>text<TAB>ids<TAB>offsets`` where ids are the context word-piece ids without
special tokens, space separated, and offsets are ``start:end`` character offsets (end
exclusive, in Unicode code points, which equal Java UTF-16 indices for text within the BMP, as
the corpora are) in the same order.
"""
import argparse
import gzip
import os
import sys
from typing import List

from .corpus import read_iob
from .wordpiece import WordPieceTokenizer


def corpus_name(path: str) -> str:
    """``.../BC5CDR-IOB/test.tsv`` -> ``BC5CDR-IOB``."""
    return os.path.basename(os.path.dirname(os.path.abspath(path))) or os.path.basename(path)


def lines_for(tok: WordPieceTokenizer, path: str) -> List[str]:
    name = corpus_name(path)
    out, seen = [], set()
    for s in read_iob(path, {}):
        if s.text in seen:  # repeated sentences (e.g. copyright lines) add nothing
            continue
        seen.add(s.text)
        if "\t" in s.text or "\n" in s.text:
            raise ValueError(f"{path}: a sentence contains a tab or newline, which the TSV cannot hold")
        pieces = tok.tokenize(s.text)
        ids = " ".join(str(p.id) for p in pieces)
        offsets = " ".join(f"{p.start}:{p.end}" for p in pieces)
        out.append(f"{name}\t{s.text}\t{ids}\t{offsets}\n")
    return out


def write(tokenizer: str, iob_files: List[str], out: str) -> int:
    tok = WordPieceTokenizer(tokenizer)
    lines = []
    for path in iob_files:
        lines += lines_for(tok, path)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    # mtime=0 keeps the file byte-identical across runs
    with open(out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
        f.write("".join(lines).encode("utf-8"))
    return len(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tokenizer", required=True, help="tokenizer.json (BERT WordPiece)")
    p.add_argument("--iob", action="append", required=True, help="IOB file (repeatable)")
    p.add_argument("--out", required=True, help="output .tsv.gz")
    args = p.parse_args(argv)
    try:
        n = write(args.tokenizer, args.iob, args.out)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {n} sentences to {args.out} ({os.path.getsize(args.out) / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
