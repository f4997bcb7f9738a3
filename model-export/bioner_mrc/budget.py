r"""Comparisons of training recipes: several variants on one budget, one table.

    python3 -m bioner_mrc.budget --out RUNS/budget-bc5cdr \
        --variant "paper=" --variant "bcls=--sentence-task 0.5" --variant "simple=--query-style simple" \
        --encoder-onnx encoders/all-minilm-l6-v2.onnx --tokenizer encoders/all-minilm-l6-v2-tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease --epochs 1 --threads 2

    python3 -m bioner_mrc.budget --full --out RUNS/full-budget --parallel 6 \
        --variant "plain=" --variant "tags=--corpus-tags" --variant "tags-pos=--corpus-tags --syntax pos" \
        --encoder-onnx encoders/bge-small-en-v1.5.onnx --tokenizer encoders/bge-small-en-v1.5-tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease ... --device cuda --threads 2

Every option that is not the comparison's (``--out``, ``--variant``, ``--full``, ``--parallel``)
goes to ``bioner_mrc.train``, for every variant; a variant ``NAME=OPTIONS`` adds its own options
after them. Nothing is done twice: a finished variant is read back, an interrupted one continues
from its ``last.pt``, so the same command resumes the whole comparison (which is what
``train-background.sh --module budget`` gives).

Without ``--full`` the budget is the options given: each variant trains once, one after another in
this process, in ``OUT/NAME``, and its ``best.pt`` is scored on the test split of the same corpora;
the table (test P / R / F1) goes to stdout and ``OUT/budget.md``.

With ``--full`` every variant trains the two stages that made the default (docs/experiments.md, *The
default model's recipe, and why*): 2 epochs from the encoder at the default rates, then 2 more from
stage 1's best model at half the rates with a 2% warm-up, negative rate 0.5 in both; the seed, and
so the held-out tenth, is the default's. Variants run as ``--parallel`` child processes (a GPU has
room for several small encoders; on 2 CPU cores keep 1), each in ``OUT/NAME/stage1`` and
``OUT/NAME/stage2``. The table (held-out F1 per corpus/type and pooled, of each variant's kept
model) goes to stdout and ``OUT/full-budget.md``; test splits are left alone, so that only the model
chosen here is ever scored on them.

A variant that fails is reported after the table of the others, and the exit status is 1.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from . import evaluate, train

SCORES = "test-scores.json"
COMPARISON_OPTIONS = ("--out", "--resume")
STAGES = (
    ["--epochs", "2", "--negative-rate", "0.5"],
    ["--epochs", "2", "--lr", "5e-5", "--head-lr", "5e-4", "--warmup", "0.02", "--negative-rate", "0.5"],
)
# What the full recipe sets itself (stage 2's --init-from replaces the encoder option).
RECIPE_OPTIONS = ("--init-from", "--epochs", "--lr", "--head-lr", "--warmup")
ENCODER_OPTIONS = ("--encoder-onnx", "--hf-checkpoint")


def parse_variant(text: str) -> Tuple[str, List[str]]:
    name, eq, options = text.partition("=")
    name = name.strip()
    if not eq or not name or not all(c.isalnum() or c in "-_." for c in name):
        raise ValueError(f"--variant {text!r}: expected NAME=OPTIONS with a NAME of letters, digits, '-', '_', '.'")
    return name, shlex.split(options)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="folder of the comparison: one folder per variant")
    p.add_argument("--variant", action="append", required=True, metavar="NAME=OPTIONS",
                   help="a recipe: its name and the train options it adds (repeatable; 'NAME=' for none)")
    p.add_argument("--full", action="store_true",
                   help="train every variant with the default's two stages and table held-out scores "
                        "(the test splits are not scored)")
    p.add_argument("--parallel", type=int, default=1, help="variants trained at once, with --full (default 1)")
    p.add_argument("--resume", action="store_true", help="accepted for train-background.sh; runs always resume")
    args, shared = p.parse_known_args(argv)
    variants = [parse_variant(v) for v in args.variant]
    names = [n for n, _ in variants]
    if len(set(names)) != len(names):
        raise ValueError(f"variant names must differ: {names}")
    for options in [shared] + [o for _, o in variants]:
        for option in COMPARISON_OPTIONS:
            if option in options:
                raise ValueError(f"{option} belongs to the comparison, not to a variant")
        for option in RECIPE_OPTIONS if args.full else ():
            if option in options:
                raise ValueError(f"{option} is the recipe's (--full), not an option to give")
    if args.full:
        encoder = [i for i, a in enumerate(shared) if a in ENCODER_OPTIONS]
        if len(encoder) != 1 or encoder[0] + 1 >= len(shared):
            raise ValueError("give the encoder once: --encoder-onnx FILE or --hf-checkpoint DIR")
    elif args.parallel != 1:
        # Without --full each variant trains in this process, and two trainings cannot share one.
        raise ValueError("--parallel goes with --full")
    args.parallel = max(1, args.parallel)
    return args, variants, shared


def train_and_score(out: str, name: str, shared: List[str], options: List[str]) -> Dict:
    """Trains (or finishes training) one variant in this process and scores it on the test split."""
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


def stage_argv(shared: List[str], options: List[str], run: str, stage: int) -> List[str]:
    """bioner_mrc.train's options for one stage: stage 2 starts from stage 1's best model, not the encoder."""
    if stage == 0:
        base = shared
    else:
        i = next(i for i, a in enumerate(shared) if a in ENCODER_OPTIONS)
        base = shared[:i] + ["--init-from", os.path.join(run, "stage1", "best.pt")] + shared[i + 2:]
    return base + options + STAGES[stage] + ["--out", os.path.join(run, f"stage{stage + 1}"), "--resume"]


def train_two_stages(out: str, name: str, shared: List[str], options: List[str]) -> Dict:
    """Trains (or finishes) a variant's two stages in child processes, logging to ``OUT/NAME/train.log``.

    Child processes, because parallel variants would otherwise share one interpreter's lock and
    torch's one thread count."""
    run = os.path.join(out, name)
    os.makedirs(run, exist_ok=True)
    started = time.time()
    for stage in range(len(STAGES)):
        if os.path.isfile(os.path.join(run, f"stage{stage + 1}", "training.json")):
            continue
        argv = stage_argv(shared, options, run, stage)
        with open(os.path.join(run, "train.log"), "a", encoding="utf-8") as log:
            log.write(f"== stage {stage + 1}: {' '.join(shlex.quote(a) for a in argv)}\n")
            log.flush()
            code = subprocess.call([sys.executable, "-u", "-m", "bioner_mrc.train", *argv], stdout=log,
                                   stderr=subprocess.STDOUT, env=child_env())
        if code != 0:
            raise RuntimeError(f"variant {name}: stage {stage + 1} failed (exit {code}); see {run}/train.log")
        print(f"{name}: stage {stage + 1} done after {(time.time() - started) / 60:.1f} min", flush=True)
    with open(os.path.join(run, "stage2", "training.json"), encoding="utf-8") as f:
        trained = json.load(f)
    return {"name": name, "options": options, "holdout_f1": trained["holdout_f1"],
            "scores": trained.get("holdout_scores", {})}


def child_env() -> Dict[str, str]:
    """This environment, with this package importable from any working directory."""
    home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": home + (os.pathsep + path if path else "")}


def markdown(title: str, columns: List[str], body: List[List[str]]) -> str:
    lines = [title, "", "| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines) + "\n"


def options_cell(options: List[str]) -> str:
    return f"`{' '.join(options)}`" if options else "(none)"


def table_of_test_scores(rows: List[Dict], shared: List[str]) -> str:
    keys = list(dict.fromkeys(k for r in rows for k in r["scores"]))

    def prf(s: Optional[Dict]) -> str:
        return f"{s['precision']:.2f} / {s['recall']:.2f} / **{s['f1']:.2f}**" if s else "n/a"

    body = [[r["name"], options_cell(r["options"]), str(r["steps"]), f"{r['minutes']:.0f}",
             f"{r['holdout_f1']:.2f}"] + [prf(r["scores"].get(k)) for k in keys] for r in rows]
    return markdown(f"Budget: `{' '.join(shared)}`",
                    ["variant", "options", "steps", "minutes", "held-out F1"] + [f"{k} P / R / F1" for k in keys],
                    body)


def table_of_holdout_scores(rows: List[Dict], shared: List[str]) -> str:
    keys = [k for k in dict.fromkeys(k for r in rows for k in r["scores"]) if k != "all"]
    body = [[r["name"], options_cell(r["options"])]
            + [f"{r['scores'][k]['f1']:.2f}" if k in r["scores"] else "n/a" for k in keys]
            + [f"**{r['holdout_f1']:.2f}**"] for r in rows]
    return markdown(f"Recipe: the default's two stages; shared options `{' '.join(shared)}`",
                    ["variant", "options"] + keys + ["pooled"], body)


class Comparison(NamedTuple):
    train: Callable[[str, str, List[str], List[str]], Dict]
    table: Callable[[List[Dict], List[str]], str]
    file: str


ONE_STAGE = Comparison(train_and_score, table_of_test_scores, "budget.md")
FULL = Comparison(train_two_stages, table_of_holdout_scores, "full-budget.md")


def run_variants(work: Callable[[str, List[str]], Dict], variants: List[Tuple[str, List[str]]],
                 parallel: int) -> List[Tuple[Optional[Dict], Optional[str]]]:
    """Each variant's row, or why it has none, in the variants' order."""
    def attempt(variant):
        try:
            return work(*variant), None
        except RuntimeError as e:
            return None, str(e)

    if parallel == 1:
        # On this thread, where Ctrl-C stops an in-process training at once; a pool would wait for it.
        return [attempt(v) for v in variants]
    with ThreadPoolExecutor(parallel) as pool:
        return list(pool.map(attempt, variants))


def main(argv=None):
    try:
        args, variants, shared = parse_args(argv)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    comparison = FULL if args.full else ONE_STAGE
    os.makedirs(args.out, exist_ok=True)
    results = run_variants(lambda name, options: comparison.train(args.out, name, shared, options),
                           variants, args.parallel)
    text = comparison.table([row for row, _ in results if row], shared)
    with open(os.path.join(args.out, comparison.file), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, flush=True)
    failed = [message for _, message in results if message]
    for message in failed:
        print(f"error: {message}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
