"""The fixture sentences of a bundle (``fixtures.json``): their inputs and the PyTorch logits that the
Java parity tests compare ONNX Runtime with, and the padding and logits helpers they are made with."""
import os
import tempfile
from typing import Dict, List, Optional

import numpy as np
import torch

from . import syntax
from .mrc import GatedMrc, SyntaxMrc
from .onnx_graph import INPUTS, PRESENCE
from .queries import tagged
from .wordpiece import WordPieceTokenizer

# Parity sentences (Greek letters, accents, punctuation), with the type each one is asked about.
FIXTURE_SENTENCES = [
    ("Treatment with α-interferon (IFN-α) induced severe hepatotoxicity in 12 patients.", "chemical"),
    ("Sjögren's syndrome and café-au-lait spots were seen after naloxone-induced seizures.", "disease"),
    ("Mutations of BRCA1 and TNF-β/NF-κB signalling were studied in Mus musculus.", "gene"),
    ("Infection of mice, rats and Saccharomyces cerevisiae by Plasmodium falciparum ; naïve hosts.", "species"),
]

def encode(tok: WordPieceTokenizer, text: str, query: str, max_len: int):
    pieces = tok.tokenize(text)
    query_ids = [p.id for p in tok.tokenize(query)]
    budget = max_len - len(query_ids) - 3
    ctx = pieces[:max(1, budget)]
    ids, segments = tok.encode_pair(ctx, query_ids)
    return ctx, ids, segments


def input_names(meta: Dict) -> List[str]:
    """The graph's inputs: the ids, then each syntax kind's positions and labels."""
    return list(INPUTS) + (syntax.input_names(meta["syntax"]) if meta.get("syntax") else [])


def pad_batch(rows: List[Dict], names=INPUTS) -> Dict[str, np.ndarray]:
    """Inputs padded with zeros to the longest row ([batch, seq], syntax [batch, seq, width])."""
    n = max(len(r["input_ids"]) for r in rows)

    def pad(values):
        fill = [0] * len(values[0]) if values and isinstance(values[0], list) else 0
        return values + [fill] * (n - len(values))

    return {k: np.array([pad(r[k]) for r in rows], dtype=np.int64) for k in names}


def torch_logits(model, feeds: Dict[str, np.ndarray], names=INPUTS):
    """The model's outputs (start, end[, presence]) as arrays."""
    with torch.no_grad():
        return tuple(o.numpy() for o in model(*(torch.from_numpy(feeds[k]) for k in names)))


def annotate_fixtures(tokenizer: str) -> syntax.Annotations:
    """The job's annotator run on the fixture sentences (given to it as an IOB file, all tags O)."""
    with tempfile.TemporaryDirectory() as tmp:
        iob = os.path.join(tmp, "fixtures.tsv")
        with open(iob, "w", encoding="utf-8") as f:
            f.write("\n\n".join("\n".join(w + "\tO" for w in text.split(" ")) for text, _ in FIXTURE_SENTENCES))
        return syntax.annotate([iob], tokenizer)


def fixture_syntax(meta: Dict, tok: WordPieceTokenizer) -> Optional[syntax.SyntaxInputs]:
    """The fixture sentences' syntax inputs, for a model that reads syntax."""
    return syntax.SyntaxInputs(meta["syntax"], annotate_fixtures(tok.path)) if meta.get("syntax") else None


def fixtures(model, tok: WordPieceTokenizer, meta: Dict) -> List[Dict]:
    """The fixture sentences with their inputs (a type's question as the job asks it: in its default
    corpus tag for a model trained with corpus tags) and PyTorch's logits."""
    types = meta["types"]
    names = input_names(meta)
    annotated = fixture_syntax(meta, tok)
    runnable = SyntaxMrc(model) if annotated else model
    rows = []
    for i, (text, preferred) in enumerate(FIXTURE_SENTENCES):
        etype = preferred if preferred in types else types[i % len(types)]
        query = meta["queries"][etype]
        if meta.get("corpus_tags"):
            query = tagged(query, meta["corpus_tags"]["defaults"][etype])
        ctx, ids, segments = encode(tok, text, query, meta["max_len"])
        row = {"text": text, "type": etype, "query": query, "input_ids": ids, "attention_mask": [1] * len(ids),
               "token_type_ids": segments, "context_offsets": [[p.start, p.end] for p in ctx]}
        if annotated:
            row.update(zip(names[len(INPUTS):], (part for pair in annotated.encode(text, len(ctx), len(ids))
                                                  for part in pair)))
        s, e = torch_logits(runnable, pad_batch([row], names), names)[:2]
        row["start_logits"] = s[0].tolist()
        row["end_logits"] = e[0].tolist()
        rows.append(row)
    return rows


def gate_fixtures(model: GatedMrc, tok: WordPieceTokenizer, max_len: int) -> List[Dict]:
    """The fixture sentences read alone (``[CLS] sentence [SEP]``, the gate's pass) and their presence logits."""
    rows = []
    for text, _ in FIXTURE_SENTENCES:
        ctx = tok.tokenize(text)[:max_len - 2]
        ids = [tok.cls_id] + [p.id for p in ctx] + [tok.sep_id]
        row = {"text": text, "input_ids": ids, "attention_mask": [1] * len(ids), "token_type_ids": [0] * len(ids),
               "context_offsets": [[p.start, p.end] for p in ctx]}
        row[PRESENCE] = torch_logits(model, pad_batch([row]))[2][0].tolist()
        rows.append(row)
    return rows


