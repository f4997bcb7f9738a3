r"""Presence gate: one query-free pass over a sentence says which types it may hold, so that the
(sentence, type) passes of the types it almost certainly lacks can be skipped.

MRC asks one question per (sentence, type): with four types, four passes per sentence. The gate
reads the sentence once, alone (``[CLS] sentence [SEP]``), through the fine-tuned encoder, frozen
(the shipped MRC weights stay exactly as they are), and scores every word piece with one linear
probe per type: "this piece belongs to a mention of T". A sentence's score for T is its highest
piece score; a type scoring below the threshold is not asked, so a sentence with k of K types kept
costs 1 + k passes instead of K.

    python3 -m bioner_mrc.gate --checkpoint RUN/best.pt --fp16 --threads 2 \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease \
        --corpus ../corpora/NCBI-disease-IOB:Disease=disease ... --out RUN/gate.pt

trains the probes on train+devel (each corpus labels only the types it annotates; the others are
left out of its loss), then prints for each threshold the passes saved on the test splits and the
F1 of every corpus/type with the gate, beside the F1 without it.
"""
import argparse
import json
import os
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

import torch
from torch import nn

from .corpus import CorpusSpec, Sentence
from .decode import Scores
from .evaluate import add_model_arguments, load_model_and_examples
from .onnx_graph import PRESENCE
from .predict import predict_spans
from .wordpiece import WordPieceTokenizer

THRESHOLDS = (0.5, 0.2, 0.1, 0.05, 0.02, 0.01)


@dataclass
class Labelled:
    """The frozen encoder's states of one sentence's word pieces, and what the gate must learn."""

    states: torch.Tensor  # [pieces, hidden], float16 to keep a corpus in memory
    labels: torch.Tensor  # [pieces, types]: 1 inside a mention of the type
    known: torch.Tensor  # [types]: whether the sentence's corpus annotates the type


class PresenceGate(nn.Module):
    def __init__(self, hidden: int, types: int):
        super().__init__()
        self.probe = nn.Linear(hidden, types)

    def forward(self, states):
        return self.probe(states)

    def sentence_probabilities(self, states: torch.Tensor) -> torch.Tensor:
        """[types]: the highest piece probability of each type (0 for an empty sentence)."""
        if states.shape[0] == 0:
            return torch.zeros(self.probe.out_features)
        with torch.no_grad():
            return torch.sigmoid(self(states.float())).max(0).values


def piece_states(model, tok: WordPieceTokenizer, texts: Sequence[str], max_len: int, batch_size: int = 64):
    """The encoder's state of every context piece of each text read alone, cut at ``max_len``."""
    model.eval()
    pieces = [tok.tokenize(t)[:max_len - 2] for t in texts]
    order = sorted(range(len(texts)), key=lambda i: len(pieces[i]))
    out: List[torch.Tensor] = [None] * len(texts)
    with torch.no_grad():
        for b in range(0, len(order), batch_size):
            idx = order[b:b + batch_size]
            n = max(len(pieces[i]) for i in idx) + 2
            ids = torch.zeros(len(idx), n, dtype=torch.long)
            mask = torch.zeros(len(idx), n, dtype=torch.long)
            for row, i in enumerate(idx):
                seq = [tok.cls_id] + [p.id for p in pieces[i]] + [tok.sep_id]
                ids[row, :len(seq)] = torch.tensor(seq)
                mask[row, :len(seq)] = 1
            h = model.bert(ids, mask, torch.zeros_like(ids))
            for row, i in enumerate(idx):
                out[i] = h[row, 1:len(pieces[i]) + 1].half()
    return pieces, out


def labelled(model, tok, spec: CorpusSpec, split: str, types: List[str], max_len: int) -> List[Labelled]:
    sentences: List[Sentence] = spec.split(split)
    pieces, states = piece_states(model, tok, [s.text for s in sentences], max_len)
    known = torch.tensor([float(t in spec.tags.values()) for t in types])
    out = []
    for s, ps, h in zip(sentences, pieces, states):
        labels = torch.zeros(len(ps), len(types))
        for k, t in enumerate(types):
            for a, z in s.entities.get(t, []):
                for i, p in enumerate(ps):
                    if p.start >= a and p.end <= z:
                        labels[i, k] = 1.0
        out.append(Labelled(h, labels, known))
    return out


def train_gate(data: Sequence[Labelled], hidden: int, types: int, epochs: int = 4, lr: float = 1e-3,
               batch_pieces: int = 4096, seed: int = 42) -> PresenceGate:
    """Logistic regression per type over the pieces of the corpora that annotate that type."""
    torch.manual_seed(seed)
    states = torch.cat([d.states for d in data]).float()
    labels = torch.cat([d.labels for d in data])
    known = torch.cat([d.known.expand(d.labels.shape[0], -1) for d in data])
    gate = PresenceGate(hidden, types)
    opt = torch.optim.Adam(gate.parameters(), lr=lr)
    for _ in range(epochs):
        perm = torch.randperm(states.shape[0])
        for b in range(0, len(perm), batch_pieces):
            idx = perm[b:b + batch_pieces]
            loss = nn.functional.binary_cross_entropy_with_logits(gate(states[idx]), labels[idx], weight=known[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return gate


def sentences_of(specs: Sequence[CorpusSpec], split: str):
    """Every sentence of the split once, and for each example in ``collect_examples`` order (sentence
    by sentence, one example per type of its corpus) the number of its sentence."""
    texts, sentence_of = [], []
    for spec in specs:
        per_sentence = len(dict.fromkeys(spec.tags.values()))
        for s in spec.split(split):
            sentence_of += [len(texts)] * per_sentence
            texts.append(s.text)
    return texts, sentence_of


def gate_table(examples, spans, sentence_of: Sequence[int], probabilities: torch.Tensor, types: List[str],
               thresholds: Sequence[float] = THRESHOLDS) -> List[Dict]:
    """Per threshold (``None`` first: no gate): passes over the sentences, each asked every one of
    ``types`` as the job does, and F1 per corpus/type when a type below the threshold yields no span.
    ``probabilities`` is [sentences, types]."""
    n, k = probabilities.shape
    rows = []
    for th in (None, *thresholds):
        kept = torch.ones(n, k, dtype=torch.bool) if th is None else probabilities >= th
        scores = Scores()
        for ex, s, i in zip(examples, spans, sentence_of):
            scores.add(f"{ex.corpus}/{ex.etype}", s if kept[i, types.index(ex.etype)] else [], ex.gold)
        passes = n * k if th is None else n + int(kept.sum())
        rows.append({"threshold": th, "passes": passes, "saved": round(100 * (1 - passes / (n * k)), 1),
                     "f1": {key: v["f1"] for key, v in scores.table().items()}})
    return rows


def print_gate_table(rows: List[Dict], out=None):
    out = out or sys.stdout
    keys = list(rows[0]["f1"])
    print("| threshold | passes saved | " + " | ".join(keys) + " | largest F1 loss |", file=out)
    print("|---" * (len(keys) + 3) + "|", file=out)
    base = rows[0]["f1"]
    for r in rows:
        loss = max(base[k] - r["f1"][k] for k in keys)
        label = "no gate" if r["threshold"] is None else f"{r['threshold']:g}"
        print(f"| {label} | {r['saved']:.1f}% | " + " | ".join(f"{r['f1'][k]:.2f}" for k in keys)
              + f" | {loss:.2f} |", file=out)


# A gate is on by default only if no corpus/type loses more F1 than this: the bound the project holds
# every change of the default to (int8, a gate, new questions).
MAX_GATE_F1_LOSS = 0.3


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
    more than MAX_GATE_F1_LOSS F1 (on by default), else, when none saves passes within that loss, the
    one losing least (off by default);
    ``threshold`` picks a measured row instead."""
    rows = saved["measured"]
    base = rows[0]["f1"]

    def loss(r):
        return max(base[k] - r["f1"][k] for k in base)

    candidates = [r for r in rows if r["threshold"] is not None and threshold in (None, r["threshold"])]
    if not candidates:
        raise ValueError(f"--gate-threshold {threshold:g} was not measured; measured: "
                         f"{[r['threshold'] for r in rows if r['threshold'] is not None]}")
    # a gate is worth turning on only if it saves passes: its own pass per sentence can cost more than it skips
    good = [r for r in candidates if loss(r) <= MAX_GATE_F1_LOSS and r["saved"] > 0]
    pick = max(good, key=lambda r: r["saved"]) if good else min(candidates, key=loss)
    return {"output": PRESENCE, "threshold": pick["threshold"], "enabled": bool(good),
            "max_f1_loss": round(loss(pick), 2), "passes_saved_percent": pick["saved"],
            "criterion": f"on by default only if it saves passes and no corpus/type loses more than "
                         f"{MAX_GATE_F1_LOSS} F1",
            "measured_on": saved.get("split", "test"), "measured": rows}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(p)
    p.add_argument("--out", required=True, help="where to save the gate (probe weights, types, measured table)")
    p.add_argument("--epochs", type=int, default=4)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        loaded, tok, examples, _ = load_model_and_examples(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    model, types, max_len = loaded.model, loaded.meta["types"], loaded.meta["max_len"]
    specs = [CorpusSpec.parse(c) for c in args.corpus]
    data = [d for spec in specs for split in ("train", "devel") for d in labelled(model, tok, spec, split, types, max_len)]
    print(f"gate: {sum(d.states.shape[0] for d in data)} training pieces from {len(data)} sentences", flush=True)
    gate = train_gate(data, model.bert.config.hidden_size, len(types), args.epochs)
    texts, sentence_of = sentences_of(specs, args.split)
    assert len(sentence_of) == len(examples), "examples are not one per (sentence, type of its corpus)"
    _, states = piece_states(model, tok, texts, max_len)
    probabilities = torch.stack([gate.sentence_probabilities(h) for h in states])
    rows = gate_table(examples, predict_spans(model, examples, args.batch_size), sentence_of, probabilities, types)
    print_gate_table(rows)
    torch.save({"weight": gate.probe.weight.detach(), "bias": gate.probe.bias.detach(), "types": types,
                "measured": rows, "split": args.split}, args.out)
    print(json.dumps({"saved": args.out}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())



