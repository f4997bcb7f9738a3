"""Batched inference of a BertMrc over examples, decoded into character spans."""
from typing import List, Tuple

import torch

from .compute import CPU, Compute
from .decode import Scores, decode_spans
from .features import Example, collate


def predict_spans(model, examples: List[Example], batch_size: int = 64,
                  compute: Compute = CPU) -> List[List[Tuple[int, int]]]:
    """Character spans predicted for each example, in input order (the model on ``compute``'s device)."""
    model.eval()
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].ids))
    out: List[List[Tuple[int, int]]] = [[] for _ in examples]
    with torch.no_grad(), compute.autocast():
        for b in range(0, len(order), batch_size):
            idx = order[b:b + batch_size]
            batch = compute.to(collate([examples[i] for i in idx]))
            start, end = model(batch["input_ids"], batch["attention_mask"], batch["token_type_ids"],
                               syntax=batch.get("syntax"))
            s_pred, e_pred = start.argmax(-1).tolist(), end.argmax(-1).tolist()
            for row, i in enumerate(idx):
                ex = examples[i]
                n = len(ex.pieces)
                spans = decode_spans(s_pred[row][1:n + 1], e_pred[row][1:n + 1])
                out[i] = [(ex.pieces[a].start, ex.pieces[z].end) for a, z in spans]
    return out


def evaluate(model, examples: List[Example], batch_size: int = 64, compute: Compute = CPU) -> Scores:
    """Entity-level exact match per ``corpus/type`` and overall (``all``)."""
    return score(examples, predict_spans(model, examples, batch_size, compute))


def score(examples: List[Example], predicted: List[List[Tuple[int, int]]]) -> Scores:
    """Entity-level exact match of ``predicted`` (one span list per example) per ``corpus/type`` and
    overall (``all``)."""
    scores = Scores()
    for ex, spans in zip(examples, predicted):
        scores.add(f"{ex.corpus}/{ex.etype}", spans, ex.gold)
        scores.add("all", spans, ex.gold)
    return scores
