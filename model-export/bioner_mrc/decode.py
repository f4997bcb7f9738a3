"""Span decoding (argmax start/end, nearest match, overlap rule) and entity-level metrics."""
from collections import defaultdict
from typing import Dict, Iterable, List, Sequence, Tuple


def decode_spans(start_pred: Sequence[int], end_pred: Sequence[int]) -> List[Tuple[int, int]]:
    """Piece spans (inclusive) from 0/1 start and end predictions over the context positions.

    Each start i is matched with the nearest end j >= i. When two spans overlap the earlier
    one is dropped, so an end closes only its nearest start.
    """
    ends = [j for j, e in enumerate(end_pred) if e == 1]
    spans: List[Tuple[int, int]] = []
    k = 0
    for i, s in enumerate(start_pred):
        if s != 1:
            continue
        while k < len(ends) and ends[k] < i:
            k += 1
        if k == len(ends):
            break
        span = (i, ends[k])
        if spans and spans[-1][1] >= span[0]:
            spans.pop()
        spans.append(span)
    return spans


class Scores:
    """Entity-level exact-match counts per key (e.g. corpus/type)."""

    def __init__(self):
        self.tp = defaultdict(int)
        self.fp = defaultdict(int)
        self.fn = defaultdict(int)

    def add(self, key: str, predicted: Iterable[Tuple[int, int]], gold: Iterable[Tuple[int, int]]):
        p, g = set(predicted), set(gold)
        self.tp[key] += len(p & g)
        self.fp[key] += len(p - g)
        self.fn[key] += len(g - p)

    def prf(self, key: str) -> Tuple[float, float, float]:
        return prf(self.tp[key], self.fp[key], self.fn[key])

    def keys(self):
        return sorted(set(self.tp) | set(self.fp) | set(self.fn))

    def table(self) -> Dict[str, Dict[str, float]]:
        out = {}
        for k in self.keys():
            p, r, f = self.prf(k)
            out[k] = {"precision": round(100 * p, 2), "recall": round(100 * r, 2), "f1": round(100 * f, 2),
                      "tp": self.tp[k], "fp": self.fp[k], "fn": self.fn[k]}
        return out


def prf(tp: int, fp: int, fn: int) -> Tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f
