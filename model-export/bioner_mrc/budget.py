r"""Fixed-budget comparisons: several training recipes, the same budget, one table of test scores.

    python3 -m bioner_mrc.budget --out RUNS/budget-bc5cdr \
        --variant "paper=" --variant "bcls=--sentence-task 0.5" --variant "simple=--query-style simple" \
        --encoder-onnx encoders/all-minilm-l6-v2.onnx --tokenizer encoders/all-minilm-l6-v2-tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease --epochs 1 --threads 2

Every option that is not ``--out`` or ``--variant`` goes to ``bioner_mrc.train``, for every variant;
a variant ``NAME=OPTIONS`` adds its own options after them. Variants run one after another, each in
``OUT/NAME``, and are scored on the test split of the same corpora with their ``best.pt``. Nothing is
done twice: a scored variant is skipped, an interrupted one continues from its ``last.pt`` (the
same command resumes the whole comparison, which is what ``train-background.sh --module budget``
gives). The table goes to stdout and to ``OUT/budget.md``.
"""
import argparse
import json
import os
import shlex
import sys
import time
from typing import Dict, List, Tuple

from . import evaluate, train

SCORES = "test-scores.json"


def parse_variant(text: str) -> Tuple[str, List[str]]:
    name, eq, options = text.partition("=")
    name = name.strip()
    if not eq or not name or not all(c.isalnum() or c in "-_." for c in name):
        raise ValueError(f"--variant {text!r}: expected NAME=OPTIONS with a NAME of letters, digits, '-', '_', '.'")
    return name, shlex.split(options)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="folder of the comparison: one run folder per variant")
    p.add_argument("--variant", action="append", required=True, metavar="NAME=OPTIONS",
                   help="a recipe: its name and the train options it adds (repeatable; 'NAME=' for none)")
    p.add_argument("--resume", action="store_true", help="accepted for train-background.sh; runs always resume")
    args, shared = p.parse_known_args(argv)
    variants = [parse_variant(v) for v in args.variant]
    for options in [shared] + [o for _, o in variants]:
        for forbidden in ("--out", "--resume"):
            if forbidden in options:
                raise ValueError(f"{forbidden} belongs to the comparison, not to a variant")
    names = [n for n, _ in variants]
    if len(set(names)) != len(names):
        raise ValueError(f"variant names must differ: {names}")
    return args.out, variants, shared


def run_variant(out: str, name: str, shared: List[str], options: List[str]) -> Dict:
    """Trains (or finishes training) one variant and scores it; returns its row."""
    run = os.path.join(out, name)
    scores_path = os.path.join(run, SCORES)
    if not os.path.isfile(scores_path):
        argv = shared + options + ["--out", run, "--resume"]
        targs = train.parse_args(argv)
        os.makedirs(run, exist_ok=True)
        started = time.time()
        print(f"== {name}: train {' '.join(shlex.quote(a) for a in options)}", flush=True)
        if train.main(argv) != 0:
            raise RuntimeError(f"variant {name}: training failed")
        with open(os.path.join(run, "wall-seconds"), "a", encoding="utf-8") as f:
            f.write(f"{time.time() - started:.0f}\n")
        eval_argv = ["--checkpoint", os.path.join(run, "best.pt"), "--split", "test",
                     "--threads", str(targs.threads), "--json", scores_path]
        for c in targs.corpus:
            eval_argv += ["--corpus", c]
        if evaluate.main(eval_argv) != 0:
            raise RuntimeError(f"variant {name}: evaluation failed")
    with open(scores_path, encoding="utf-8") as f:
        scores = json.load(f)["scores"]
    with open(os.path.join(run, "training.json"), encoding="utf-8") as f:
        trained = json.load(f)
    with open(os.path.join(run, "wall-seconds"), encoding="utf-8") as f:
        wall = sum(float(x) for x in f.read().split())
    return {"name": name, "options": options, "steps": trained["steps"], "holdout_f1": trained["holdout_f1"],
            "minutes": wall / 60, "scores": scores}


def table(rows: List[Dict], shared: List[str]) -> str:
    keys = list(dict.fromkeys(k for r in rows for k in r["scores"]))
    head = "| variant | options | steps | minutes | held-out F1 | " + " | ".join(f"{k} P / R / F1" for k in keys)
    lines = [f"Budget: `{' '.join(shared)}`", "", head + " |", "|" + " --- |" * (5 + len(keys))]
    for r in rows:
        cells = [r["name"], f"`{' '.join(r['options'])}`" if r["options"] else "(none)", str(r["steps"]),
                 f"{r['minutes']:.0f}", f"{r['holdout_f1']:.2f}"]
        for k in keys:
            s = r["scores"].get(k)
            cells.append(f"{s['precision']:.2f} / {s['recall']:.2f} / **{s['f1']:.2f}**" if s else "n/a")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    try:
        out, variants, shared = parse_args(argv)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    rows = [run_variant(out, name, shared, options) for name, options in variants]
    text = table(rows, shared)
    with open(os.path.join(out, "budget.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
