r"""The default model's full recipe for several variants side by side, scored on the same held-out.

    python3 -m bioner_mrc.full_budget --out RUNS/full-budget --parallel 6 \
        --variant "plain=" --variant "tags=--corpus-tags" --variant "tags-pos=--corpus-tags --syntax pos" \
        --encoder-onnx encoders/bge-small-en-v1.5.onnx --tokenizer encoders/bge-small-en-v1.5-tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease ... --device cuda --threads 2

Every variant trains the two stages that made the default (README, *The default model's recipe*):
2 epochs from the encoder at the default rates, then 2 more from stage 1's best model at half the
rates with a 2% warm-up, negative rate 0.5 in both; the seed, and so the held-out tenth, is the
default's. Variants run as ``--parallel`` processes (a GPU has room for several small encoders;
on 2 CPU cores keep 1), each in ``OUT/NAME/stage1`` and ``OUT/NAME/stage2``, and the same command
resumes an interrupted comparison. The table (held-out F1 per corpus/type and pooled, of each
variant's kept model) goes to stdout and ``OUT/full-budget.md``; test splits are left alone, so
that only the model chosen here is ever scored on them.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List

from .budget import parse_variant

STAGES = (
    ["--epochs", "2", "--negative-rate", "0.5"],
    ["--epochs", "2", "--lr", "5e-5", "--head-lr", "5e-4", "--warmup", "0.02", "--negative-rate", "0.5"],
)
ENCODER_OPTIONS = ("--encoder-onnx", "--hf-checkpoint")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="folder of the comparison: one folder per variant")
    p.add_argument("--variant", action="append", required=True, metavar="NAME=OPTIONS",
                   help="a recipe: its name and the train options it adds to both stages ('NAME=' for none)")
    p.add_argument("--parallel", type=int, default=1, help="variants trained at once (default 1)")
    p.add_argument("--resume", action="store_true", help="accepted for train-background.sh; runs always resume")
    args, shared = p.parse_known_args(argv)
    variants = [parse_variant(v) for v in args.variant]
    names = [n for n, _ in variants]
    if len(set(names)) != len(names):
        raise ValueError(f"variant names must differ: {names}")
    for options in [shared] + [o for _, o in variants]:
        for recipe in ("--out", "--resume", "--init-from", "--epochs", "--lr", "--head-lr", "--warmup"):
            if recipe in options:
                raise ValueError(f"{recipe} is the recipe's (or the comparison's), not an option to give")
    encoder = [i for i, a in enumerate(shared) if a in ENCODER_OPTIONS]
    if len(encoder) != 1 or encoder[0] + 1 >= len(shared):
        raise ValueError("give the encoder once: --encoder-onnx FILE or --hf-checkpoint DIR")
    return args, variants, shared


def stage_argv(shared: List[str], options: List[str], run: str, stage: int) -> List[str]:
    """bioner_mrc.train's options for one stage: stage 2 starts from stage 1's best model, not the encoder."""
    if stage == 0:
        base = shared
    else:
        i = next(i for i, a in enumerate(shared) if a in ENCODER_OPTIONS)
        base = shared[:i] + ["--init-from", os.path.join(run, "stage1", "best.pt")] + shared[i + 2:]
    return base + options + STAGES[stage] + ["--out", os.path.join(run, f"stage{stage + 1}"), "--resume"]


def train_variant(out: str, name: str, shared: List[str], options: List[str]) -> Dict:
    """Trains (or finishes) a variant's two stages in child processes, logging to ``OUT/NAME/train.log``."""
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
    return row(out, name, options)


def child_env() -> Dict[str, str]:
    """This environment, with this package importable from any working directory."""
    home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": home + (os.pathsep + path if path else "")}


def row(out: str, name: str, options: List[str]) -> Dict:
    with open(os.path.join(out, name, "stage2", "training.json"), encoding="utf-8") as f:
        trained = json.load(f)
    return {"name": name, "options": options, "holdout_f1": trained["holdout_f1"],
            "scores": trained.get("holdout_scores", {})}


def table(rows: List[Dict], shared: List[str]) -> str:
    keys = [k for k in dict.fromkeys(k for r in rows for k in r["scores"]) if k != "all"]
    lines = [f"Recipe: the default's two stages; shared options `{' '.join(shared)}`", "",
             "| variant | options | " + " | ".join(keys) + " | pooled |", "|" + " --- |" * (3 + len(keys))]
    for r in rows:
        cells = [r["name"], f"`{' '.join(r['options'])}`" if r["options"] else "(none)"]
        cells += [f"{r['scores'][k]['f1']:.2f}" if k in r["scores"] else "n/a" for k in keys]
        cells.append(f"**{r['holdout_f1']:.2f}**")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    try:
        args, variants, shared = parse_args(argv)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    with ThreadPoolExecutor(max(1, args.parallel)) as pool:
        futures = [pool.submit(train_variant, args.out, name, shared, options) for name, options in variants]
        rows, failed = [], []
        for (name, _), future in zip(variants, futures):
            try:
                rows.append(future.result())
            except RuntimeError as e:
                failed.append(str(e))
    text = table(rows, shared)
    with open(os.path.join(args.out, "full-budget.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, flush=True)
    for message in failed:
        print(f"error: {message}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
