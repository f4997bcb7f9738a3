"""Fine-tunes a BioBERT-MRC model on one or more IOB corpora (the recipe of Sun et al. 2021, BioBERT-MRC).

    python3 -m bioner_mrc.train --encoder-onnx ENC.onnx --tokenizer tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease \
        --out runs/default --epochs 2

Train and devel are merged, 10% is held out to pick the best epoch (``--holdout 0`` trains on all of
it, once the recipe is fixed, and keeps the last epoch's model); checkpoints are written
every ``--checkpoint-every`` steps and at each epoch end, and ``--resume`` continues a run.
"""
import argparse
import json
import math
import os
import random
import sys
import time
from typing import NamedTuple

import torch

from . import compute as computing
from .bert import load_hf_checkpoint, load_onnx_encoder
from .checkpoint import Loaded, load_checkpoint, training_record
from .corpus import CorpusSpec
from .features import collate, make_examples
from .mrc import BertMrc, context_mask, mrc_loss, presence_loss
from .predict import evaluate
from . import syntax
from .queries import EXAMPLE_SELECTIONS, LANGUAGES, STYLES, build_queries, corpus_tags, questions
from .wordpiece import WordPieceTokenizer


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--encoder-onnx", help="BERT encoder exported to ONNX (e.g. all-minilm-l6-v2.onnx)")
    src.add_argument("--hf-checkpoint", help="directory with config.json + pytorch_model.bin")
    src.add_argument("--init-from", metavar="BUNDLE_OR_PT",
                     help="continue training a model: an exported bundle folder (its weights, heads and queries) "
                          "or a best.pt, with a new optimizer and schedule; a type it does not know gets a new query")
    p.add_argument("--tokenizer", required=True, help="tokenizer.json of the encoder")
    p.add_argument("--corpus", action="append", required=True, help="DIR:TAG=type[,TAG=type] (repeatable)")
    p.add_argument("--out", required=True, help="run directory (checkpoints, training.json)")
    p.add_argument("--query-style", default="paper", choices=STYLES)
    p.add_argument("--query-examples", default="frequent", choices=EXAMPLE_SELECTIONS)
    p.add_argument("--query-language", default="en", choices=LANGUAGES,
                   help="language of the queries: the corpus's (es for PharmaCoNER)")
    p.add_argument("--end-head", default="eq6", choices=["eq6", "eq5"])
    p.add_argument("--epochs", type=float, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--max-len", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-4, help="encoder learning rate")
    p.add_argument("--head-lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--warmup", type=float, default=0.06, help="fraction of steps")
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--holdout", type=float, default=0.1,
                   help="fraction of train+devel held out to pick the best epoch; 0: train on all, keep the last")
    p.add_argument("--negative-rate", type=float, default=1.0,
                   help="fraction of (sentence, type) examples without a mention of the type kept each epoch; "
                        "a fresh draw every epoch, so all of them are seen over several epochs")
    p.add_argument("--sentence-task", type=float, default=0.0, metavar="WEIGHT",
                   help="MT-BioNER's sentence-level auxiliary task (bCLS) with this loss weight (0: off)")
    p.add_argument("--syntax", metavar="KINDS",
                   help="seed 003's combined feature attention over these syntax kinds (comma-separated: pos, chunk, "
                        "dep), annotated by the job's annotator (../bioner annotate, kept in ~/.cache/bioner-stream/annotations)")
    p.add_argument("--corpus-tags", action="store_true",
                   help="seed 003's dataset tags: each question in its corpus's tag pair, <BC5CDR> ... </BC5CDR>")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    computing.add_arguments(p)
    p.add_argument("--checkpoint-every", type=int, default=200)
    p.add_argument("--max-steps", type=int, default=0, help="stop after this many steps (0: all)")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--log-every", type=int, default=20)
    return p.parse_args(argv)


def load_model(args, init, syntax_spec=None):
    if init:
        model = init.model
        model.dropout.p = args.dropout
        for m in model.bert.modules():
            if isinstance(m, torch.nn.Dropout):
                m.p = args.dropout
        if args.sentence_task > 0 and model.sentence_fc is None:
            raise SystemExit("--sentence-task needs a model trained with it; --init-from's model has no sentence head")
        return model, init.meta.get("base_encoder") or os.path.basename(os.path.normpath(args.init_from))
    if args.encoder_onnx:
        bert, extra, base = load_onnx_encoder(args.encoder_onnx, args.dropout), {}, args.encoder_onnx
    else:
        bert, extra = load_hf_checkpoint(args.hf_checkpoint, args.dropout)
        base = args.hf_checkpoint
    width = extra["end_fc.dense_0.weight"].shape[0] if "end_fc.dense_0.weight" in extra else None
    model = BertMrc(bert, args.end_head, width, sentence_head=args.sentence_task > 0, syntax=syntax_spec)
    if extra:
        missing = model.load_state_dict({**model.state_dict(), **extra}, strict=True)
        print(f"loaded MRC heads from checkpoint: {sorted(extra)[:4]}... {missing}", flush=True)
    return model, os.path.basename(os.path.normpath(base))


def continued_model(init: Loaded) -> dict:
    """What --init-from continued, for the bundle's training record: a bundle's name, version and
    training (itself with the model it continued), or a training checkpoint's training record.

    Recorded at training time because the path may name another model by export time (the shipped
    default folder is replaced by the model continued from it)."""
    return init.meta.get("origin") or {"training": training_record(init)}


def training_data(args, tok, init):
    specs = [CorpusSpec.parse(c) for c in args.corpus]
    rng = random.Random(args.seed)
    train, held = [], []
    pooled = []
    for spec in specs:
        sents = spec.split("train") + spec.split("devel")
        rng.shuffle(sents)
        cut = int(len(sents) * args.holdout)
        types = list(dict.fromkeys(spec.tags.values()))
        pooled.append((spec, types, sents[cut:], sents[:cut]))
    all_types = list(dict.fromkeys(t for _, types, _, _ in pooled for t in types))
    by_type = [s for _, _, tr, _ in pooled for s in tr]
    # A continued model keeps the questions it learnt to answer. A type it never learnt gets a new
    # question: the MRC heads hold nothing per type, so a model trained on English types can be
    # taught others (e.g. Spanish ones) from where it stands.
    known = init.meta["queries"] if init else {}
    new = [t for t in all_types if t not in known]
    built = build_queries(by_type, new, args.query_style, args.query_examples, args.seed,
                          getattr(args, "query_language", "en")) if new else {}
    queries = {t: known.get(t) or built[t] for t in all_types}
    extra = {}
    inputs = None
    if getattr(args, "syntax", None):
        if init and not init.meta.get("syntax"):
            raise SystemExit("--syntax: --init-from's model reads no syntax; start from an encoder instead")
        files = [os.path.join(spec.directory, f"{split}.tsv") for spec in specs for split in ("train", "devel")]
        annotations = syntax.annotate(files, args.tokenizer)
        extra["syntax"] = (init.meta["syntax"] if init else
                           syntax.spec(annotations, [s.text for _, _, tr, _ in pooled for s in tr],
                                       syntax.parse_kinds(args.syntax)))
        inputs = syntax.SyntaxInputs(extra["syntax"], annotations)
    if getattr(args, "corpus_tags", False):
        extra["corpus_tags"] = corpus_tags([spec.name for spec in specs],
                                           {spec.name: types for spec, types, _, _ in pooled})
    for spec, types, tr, ho in pooled:
        asked = questions({"queries": queries, **extra}, spec.name, types)
        train += make_examples(spec.name, tr, types, asked, tok, args.max_len, inputs)
        held += make_examples(spec.name, ho, types, asked, tok, args.max_len, inputs)
    return specs, all_types, queries, train, held, extra


def epoch_sample(examples, negative_rate, seed, epoch):
    """Every example with a mention, and ``negative_rate`` of the others, drawn anew each epoch.

    The count kept is the same every epoch, so the step count of a run is known in advance and a
    resumed run lands on the same batch."""
    positives = [i for i, e in enumerate(examples) if e.gold]
    negatives = [i for i, e in enumerate(examples) if not e.gold]
    random.Random(seed * 7919 + epoch).shuffle(negatives)
    return positives + negatives[:round(len(negatives) * negative_rate)]


def batches_for_epoch(examples, batch_size, seed, epoch, negative_rate=1.0):
    kept = epoch_sample(examples, negative_rate, seed, epoch)
    order = sorted(kept, key=lambda i: (len(examples[i].ids), i))
    batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
    random.Random(seed * 1000 + epoch).shuffle(batches)
    return batches


def checked_args(argv):
    """The options, and the device they ask for; refused before the model and corpora are loaded,
    which takes minutes for a large encoder."""
    args = parse_args(argv)
    if not 0.0 <= args.holdout < 1.0:
        raise SystemExit(f"--holdout must be in [0, 1), got {args.holdout}")
    if not 0.0 < args.negative_rate <= 1.0:
        raise SystemExit(f"--negative-rate must be in (0, 1], got {args.negative_rate}")
    try:
        return args, computing.Compute.of(args)
    except ValueError as e:
        raise SystemExit(str(e))


def report_data(args, types, queries, train, held):
    print(f"types {types}; {len(train)} training and {len(held)} held-out examples", flush=True)
    print(f"{sum(1 for e in train if e.gold)} training examples hold a mention of their type; "
          f"negative rate {args.negative_rate}", flush=True)
    for t, q in queries.items():
        print(f"  query[{t}] = {q}", flush=True)


def optimizer(model, args):
    heads = [p for n, p in model.named_parameters() if not n.startswith("bert.")]
    no_decay = [p for n, p in model.bert.named_parameters() if n.endswith("bias") or "LayerNorm" in n]
    decay = [p for n, p in model.bert.named_parameters() if not (n.endswith("bias") or "LayerNorm" in n)]
    return torch.optim.AdamW([
        {"params": decay, "lr": args.lr, "weight_decay": args.weight_decay},
        {"params": no_decay, "lr": args.lr, "weight_decay": 0.0},
        {"params": heads, "lr": args.head_lr, "weight_decay": args.weight_decay},
    ])


class Steps(NamedTuple):
    per_epoch: int
    total: int


def steps(args, train) -> Steps:
    # The same count every epoch (epoch_sample), so a resumed run knows where it stands.
    per_epoch = math.ceil(len(epoch_sample(train, args.negative_rate, args.seed, 0)) / args.batch_size)
    total = math.ceil(per_epoch * args.epochs)
    return Steps(per_epoch, min(total, args.max_steps) if args.max_steps else total)


def schedule(opt, total: int, warmup: float):
    warm = max(1, int(total * warmup))
    return torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))


class Run:
    """What a checkpoint holds: the model, its optimizer and schedule, the step and the best held-out F1."""

    def __init__(self, out, model, opt, sched, meta):
        self.out, self.model, self.opt, self.sched, self.meta = out, model, opt, sched, meta
        self.step, self.best = 0, -1.0
        self.best_scores = None  # per corpus/type, when this session found the best model
        self.state_path = os.path.join(out, "last.pt")

    def resume(self, device, total: int):
        if not os.path.isfile(self.state_path):
            return
        st = torch.load(self.state_path, map_location=device)
        self.model.load_state_dict(st["model"])
        self.opt.load_state_dict(st["optimizer"])
        self.sched.load_state_dict(st["scheduler"])
        self.step, self.best = st["step"], st["best"]
        print(f"resumed at step {self.step}/{total} (best held-out F1 {self.best:.2f})", flush=True)

    def save(self):
        # Through a temporary file, so that a run killed while saving still has its previous last.pt.
        torch.save({"model": self.model.state_dict(), "optimizer": self.opt.state_dict(),
                    "scheduler": self.sched.state_dict(), "step": self.step, "best": self.best, "meta": self.meta},
                   self.state_path + ".tmp")
        os.replace(self.state_path + ".tmp", self.state_path)

    def keep(self, f1):
        torch.save({"model": self.model.state_dict(), "meta": self.meta, "step": self.step, "holdout_f1": f1},
                   os.path.join(self.out, "best.pt"))


def train_step(args, run: Run, compute, batch) -> torch.Tensor:
    b = compute.to(collate(batch))
    mask = context_mask(b["attention_mask"], b["token_type_ids"])
    model = run.model
    with compute.autocast():
        if args.sentence_task > 0:
            start, end, presence = model.with_presence(b["input_ids"], b["attention_mask"], b["token_type_ids"],
                                                       b["start_labels"], syntax=b.get("syntax"))
            loss = (mrc_loss(start, end, b["start_labels"], b["end_labels"], mask)
                    + args.sentence_task * presence_loss(presence, b["start_labels"], mask))
        else:
            start, end = model(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["start_labels"],
                               syntax=b.get("syntax"))
            loss = mrc_loss(start, end, b["start_labels"], b["end_labels"], mask)
    run.opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
    run.opt.step()
    run.sched.step()
    run.step += 1
    return loss


def end_epoch(run: Run, held, compute):
    """Scores the held-out examples and keeps the model as best.pt when it is the best so far."""
    f1 = None
    if held:
        scores = evaluate(run.model, held, compute=compute)
        table = scores.table()
        print(json.dumps(table, indent=None), flush=True)
        f1 = 100 * scores.prf("all")[2]
        print(f"held-out F1 after step {run.step}: {f1:.2f} (best {run.best:.2f})", flush=True)
    else:
        print(f"no held-out sentences (--holdout 0): best.pt is the model after step {run.step}", flush=True)
    if f1 is None or f1 > run.best:  # with nothing held out, the newest model is the one kept
        if f1 is not None:
            run.best, run.best_scores = f1, table
        run.keep(f1)
    run.save()


def train_loop(args, run: Run, train, held, compute, plan: Steps) -> float:
    """Trains from ``run.step`` to the plan's last step; returns this session's examples per second."""
    t0, seen = time.time(), 0
    while run.step < plan.total:
        epoch, offset = divmod(run.step, plan.per_epoch)
        run.model.train()
        for batch_idx in batches_for_epoch(train, args.batch_size, args.seed, epoch, args.negative_rate)[offset:]:
            if run.step >= plan.total:
                break
            loss = train_step(args, run, compute, [train[i] for i in batch_idx])
            seen += len(batch_idx)
            if run.step % args.log_every == 0:
                rate = seen / (time.time() - t0)
                eta = (plan.total - run.step) * args.batch_size / rate / 60
                print(f"step {run.step}/{plan.total} epoch {run.step / plan.per_epoch:.2f} loss {loss.item():.4f} "
                      f"{rate:.1f} ex/s eta {eta:.0f} min", flush=True)
            if run.step % args.checkpoint_every == 0:
                run.save()
        if run.step % plan.per_epoch == 0 or run.step >= plan.total:
            end_epoch(run, held, compute)
    return seen / max(1e-9, time.time() - t0)


def write_record(run: Run, plan: Steps, batch_size: int, rate: float):
    with open(os.path.join(run.out, "training.json"), "w", encoding="utf-8") as f:
        json.dump({**run.meta, "steps": run.step, "holdout_f1": run.best if run.best >= 0 else None,
                   # absent when the best model was kept by an earlier session of a resumed run
                   **({"holdout_scores": run.best_scores} if run.best_scores is not None else {}),
                   "examples_per_epoch": plan.per_epoch * batch_size,
                   "examples_per_second_this_session": round(rate, 2)}, f, indent=2)


def main(argv=None):
    args, compute = checked_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    tok = WordPieceTokenizer(args.tokenizer)
    init = load_checkpoint(args.init_from, int8_arithmetic=False) if args.init_from else None
    specs, types, queries, train, held, extra = training_data(args, tok, init)
    report_data(args, types, queries, train, held)
    model, base = load_model(args, init, extra.get("syntax"))
    model.to(compute.device)
    print(f"training on {compute.describe()}", flush=True)
    opt = optimizer(model, args)
    plan = steps(args, train)
    meta = {"base_encoder": base, "encoder_config": model.bert.config.to_dict(), "end_head": args.end_head,
            "types": types, "queries": queries, "max_len": args.max_len,
            "corpora": [{"name": s.name, "tags": s.tags} for s in specs], "args": vars(args), **extra,
            **({"init_from": continued_model(init)} if init else {})}
    run = Run(args.out, model, opt, schedule(opt, plan.total, args.warmup), meta)
    if args.resume:
        run.resume(compute.device, plan.total)
    rate = train_loop(args, run, train, held, compute, plan)
    write_record(run, plan, args.batch_size, rate)
    scored = f"best held-out F1 {run.best:.2f}" if held else "no held-out"
    print(f"done: {run.step} steps, {scored}; model in {args.out}/best.pt", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
