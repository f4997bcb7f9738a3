r"""Evaluates a trained BioBERT-MRC on the test split of IOB corpora (entity-level exact match).

    python3 -m bioner_mrc.evaluate --checkpoint runs/default/best.pt \
        --tokenizer encoders/all-minilm-l6-v2-tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease \
        --corpus ../corpora/NCBI-disease-IOB:Disease=disease [--fp16] [--json scores.json]

Each sentence is asked one question per type of its corpus, with the checkpoint's queries
and max length. A context longer than the budget is truncated here (its gold mentions past
the cut count as misses), whereas the Java engine reads long sentences in sliding windows;
the number of truncated examples is printed.
"""
import argparse
import json
import os
import sys
from typing import Dict, List, Sequence, Tuple

import torch

from . import compute as computing
from .checkpoint import Loaded, load_checkpoint, round_fp16
from .corpus import CorpusSpec
from .features import Example, make_examples
from . import syntax
from .predict import evaluate
from .queries import questions
from .wordpiece import WordPieceTokenizer


def corpus_examples(spec: CorpusSpec, meta: Dict, tok: WordPieceTokenizer, split: str = "test") -> List[Example]:
    """Examples of one corpus split, questioned with the checkpoint's queries (in the corpus's tag
    for a model trained with corpus tags), with the syntax inputs of a model that reads syntax."""
    types = list(dict.fromkeys(spec.tags.values()))
    unknown = [t for t in types if t not in meta["queries"]]
    if unknown:
        raise ValueError(f"corpus {spec.name}: type(s) {unknown} unknown to the model, which knows {meta['types']}")
    inputs = None
    if meta.get("syntax"):
        path = os.path.join(spec.directory, split + ".tsv")
        inputs = syntax.SyntaxInputs(meta["syntax"], syntax.annotate([path], tok.path))
    return make_examples(spec.name, spec.split(split), types, questions(meta, spec.name, types), tok, meta["max_len"],
                         inputs)


def is_truncated(ex: Example, tok: WordPieceTokenizer, max_len: int) -> bool:
    """Whether make_examples cut this example's context to fit ``max_len``."""
    budget = max_len - (len(ex.ids) - len(ex.pieces) - 3) - 3
    if not ex.pieces or len(ex.pieces) < budget:
        return False
    return bool(tok.tokenize(ex.text[ex.pieces[-1].end:]))


def collect_examples(specs: Sequence[CorpusSpec], meta: Dict, tok: WordPieceTokenizer,
                     split: str = "test") -> Tuple[List[Example], Dict[str, int]]:
    """Examples of every corpus split (sentence by sentence, one per type of the corpus, in the
    corpus's type order) and the number of truncated examples per ``corpus/type``."""
    examples, truncated = [], {}
    for spec in specs:
        exs = corpus_examples(spec, meta, tok, split)
        for ex in exs:
            key = f"{ex.corpus}/{ex.etype}"
            truncated[key] = truncated.get(key, 0) + is_truncated(ex, tok, meta["max_len"])
        examples += exs
    return examples, truncated


def evaluate_examples(model, examples: Sequence[Example], batch_size: int = 64,
                      compute: computing.Compute = computing.CPU) -> Dict[str, Dict]:
    """P/R/F1 table per ``corpus/type`` (without the pooled ``all`` row)."""
    return table_of(evaluate(model, list(examples), batch_size, compute))


def table_of(scores) -> Dict[str, Dict]:
    table = scores.table()
    table.pop("all", None)
    return table


def print_table(table: Dict[str, Dict], truncated: Dict[str, int] = None, out=None):
    truncated, out = truncated or {}, out or sys.stdout
    print(f"{'corpus/type':34} {'P':>6} {'R':>6} {'F1':>6} {'tp':>6} {'fp':>6} {'fn':>6} {'trunc':>6}", file=out)
    for key, row in table.items():
        print(f"{key:34} {row['precision']:6.2f} {row['recall']:6.2f} {row['f1']:6.2f} "
              f"{row['tp']:6d} {row['fp']:6d} {row['fn']:6d} {truncated.get(key, 0):6d}", file=out)


def add_model_arguments(p: argparse.ArgumentParser):
    """The checkpoint, tokenizer, corpus and inference options shared with ``bioner_mrc.errors``."""
    p.add_argument("--checkpoint", required=True,
                   help="best.pt / last.pt from bioner_mrc.train, or an exported bundle folder")
    p.add_argument("--tokenizer", help="tokenizer.json (default: the one recorded at training time)")
    p.add_argument("--corpus", action="append", required=True, help="DIR:TAG=type[,TAG=type] (repeatable)")
    p.add_argument("--split", default="test", help="split file name without .tsv (default test)")
    p.add_argument("--fp16", action="store_true", help="round weights through float16 as the export ships them")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--threads", type=int, default=os.cpu_count())


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(p)
    computing.add_arguments(p)
    p.add_argument("--json", help="write the table (and truncation counts) to this file")
    return p.parse_args(argv)


def resolve_tokenizer(given, meta) -> str:
    path = given or (meta.get("args") or {}).get("tokenizer")
    if not path:
        raise ValueError("no --tokenizer given and the checkpoint records none")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"tokenizer not found: {path}" + ("" if given else " (recorded in the checkpoint; "
                                                                  "pass --tokenizer)"))
    return path


def load_model_and_examples(args) -> Tuple[Loaded, WordPieceTokenizer, List[Example], Dict[str, int]]:
    """Sets the thread count, loads the checkpoint (float16-rounded with ``--fp16``) and its
    tokenizer, and builds the examples of ``--split`` for every ``--corpus``. Raises
    ValueError / FileNotFoundError on bad inputs."""
    torch.set_num_threads(max(1, args.threads))
    specs = [CorpusSpec.parse(c) for c in args.corpus]
    loaded = load_checkpoint(args.checkpoint)
    tok = WordPieceTokenizer(resolve_tokenizer(args.tokenizer, loaded.meta))
    if args.fp16:
        print(f"rounded {len(round_fp16(loaded.model))} tensors through float16", flush=True)
    examples, truncated = collect_examples(specs, loaded.meta, tok, args.split)
    print(f"{len(examples)} examples ({args.split} split); {sum(truncated.values())} truncated to "
          f"{loaded.meta['max_len']} tokens (the Java engine uses sliding windows instead)", flush=True)
    return loaded, tok, examples, truncated


def main(argv=None):
    args = parse_args(argv)
    try:
        compute = computing.Compute.of(args)
        loaded, _, examples, truncated = load_model_and_examples(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    table = evaluate_examples(loaded.model.to(compute.device), examples, args.batch_size, compute)
    print_table(table, truncated)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"split": args.split, "fp16": args.fp16, "bf16": args.bf16, "scores": table, "truncated": truncated}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
