"""(sentence, type) -> model inputs and word-piece start/end labels."""
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import torch

from .corpus import Sentence
from .wordpiece import Piece, WordPieceTokenizer


@dataclass
class Example:
    corpus: str
    etype: str
    text: str
    pieces: List[Piece]  # context pieces (after truncation)
    ids: List[int]
    segments: List[int]
    starts: List[int]  # per position; -100 outside the context
    ends: List[int]
    gold: List[Tuple[int, int]]  # char spans of the type in ``text``
    syntax: Optional[list] = None  # per syntax kind (positions, labels) [len(ids)][width], see syntax.SyntaxInputs


def make_examples(corpus: str, sentences: List[Sentence], types: List[str], queries: Dict[str, str],
                  tok: WordPieceTokenizer, max_len: int, syntax=None) -> List[Example]:
    """One example per (sentence, type); ``syntax`` (a ``syntax.SyntaxInputs``) adds the CFA inputs."""
    query_ids = {t: [p.id for p in tok.tokenize(queries[t])] for t in types}
    out = []
    for s in sentences:
        pieces = tok.tokenize(s.text)
        for t in types:
            budget = max_len - len(query_ids[t]) - 3
            if budget < 1:
                raise ValueError(f"query for {t!r} leaves no room for context at max length {max_len}")
            ctx = pieces[:budget]
            ids, segs = tok.encode_pair(ctx, query_ids[t])
            starts = [-100] * len(ids)
            ends = [-100] * len(ids)
            for i in range(len(ctx)):
                starts[i + 1] = ends[i + 1] = 0
            for a, b in s.entities.get(t, []):
                covered = [i for i, p in enumerate(ctx) if p.start >= a and p.end <= b]
                if covered:
                    starts[covered[0] + 1] = 1
                    ends[covered[-1] + 1] = 1
            out.append(Example(corpus, t, s.text, ctx, ids, segs, starts, ends, list(s.entities.get(t, [])),
                               syntax.encode(s.text, len(ctx), len(ids)) if syntax else None))
    return out


def collate(batch: List[Example], pad_id: int = 0):
    n = max(len(e.ids) for e in batch)

    def pad(rows, value):
        return torch.tensor([r + [value] * (n - len(r)) for r in rows], dtype=torch.long)

    out = {
        "input_ids": pad([e.ids for e in batch], pad_id),
        "attention_mask": pad([[1] * len(e.ids) for e in batch], 0),
        "token_type_ids": pad([e.segments for e in batch], 0),
        "start_labels": pad([e.starts for e in batch], -100),
        "end_labels": pad([e.ends for e in batch], -100),
    }
    if batch[0].syntax is not None:
        out["syntax"] = [pad_rows([e.syntax[k][part] for e in batch], n)
                         for k in range(len(batch[0].syntax)) for part in (0, 1)]
    return out


def pad_rows(rows: List[List[List[int]]], n: int) -> torch.Tensor:
    """[batch, n, width] with zero rows (no context) after each example's positions."""
    width = len(rows[0][0])
    return torch.tensor([r + [[0] * width] * (n - len(r)) for r in rows], dtype=torch.long)
