"""The BioBERT-MRC network: BERT encoder, start head, end head fed with the start distribution."""
import torch
from torch import nn

from .bert import BertEncoder

LAMBDA = 0.5  # weight of the end loss: total = (1 - lambda) * start + lambda * end


class StartHead(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.dense = nn.Linear(hidden, 2)

    def forward(self, h):
        return self.dense(h)


class EndHead(nn.Module):
    """Eq. 6: Linear(d+2, w) -> tanh -> LayerNorm(w) -> Linear(w, 2) over concat(H, P)."""

    def __init__(self, hidden: int, width: int):
        super().__init__()
        self.dense_0 = nn.Linear(hidden + 2, width)
        self.activation = nn.Tanh()
        self.LayerNorm = nn.LayerNorm(width)
        self.dense_1 = nn.Linear(width, 2)

    def forward(self, h, p):
        a = self.activation(self.dense_0(torch.cat([h, p], -1)))
        if a.dtype != self.LayerNorm.weight.dtype:  # bf16 autocast on CPU leaves LayerNorm to its caller
            a = a.to(self.LayerNorm.weight.dtype)
        return self.dense_1(self.LayerNorm(a))


class LinearEndHead(nn.Module):
    """Eq. 5: the end head sees only H."""

    def __init__(self, hidden: int):
        super().__init__()
        self.dense = nn.Linear(hidden, 2)

    def forward(self, h, p):
        return self.dense(h)


LABEL_DIM = 32  # d2 of seed 003: the syntax label embedding width


class CombinedFeatureAttention(nn.Module):
    """Seed 003's CFA for one syntax kind. Each position attends over its context words: a context
    word is embedded by its own hidden state concatenated with its label's embedding, projected to
    the hidden width (eq. 4); the weights are the scaled dot products with the position's hidden
    state (eq. 6); the output is their weighted sum (eq. 7), zero where a position has no context.

    Inputs ``positions`` and ``labels`` are int64 [batch, seq, width]; label 0 marks an unused slot."""

    def __init__(self, hidden: int, labels: int):
        super().__init__()
        self.label_embeddings = nn.Embedding(labels + 2, LABEL_DIM)  # 0 none, 1 unseen label
        self.project = nn.Linear(hidden + LABEL_DIM, hidden)

    def forward(self, h, positions, labels):
        b, n, d = h.shape
        # a batched gather as one flat Gather (ONNX Runtime and the NumPy check both run it)
        flat = positions + (torch.arange(b, device=h.device) * n).view(b, 1, 1)
        words = h.reshape(b * n, d)[flat]
        e = self.project(torch.cat([words, self.label_embeddings(labels)], -1))  # [b, n, width, d]
        scores = torch.matmul(e, h.unsqueeze(-1)).squeeze(-1) / d ** 0.5
        used = labels > 0
        weights = scores.masked_fill(~used, -1e4).softmax(-1) * used.to(h.dtype)
        return (weights.unsqueeze(-1) * e).sum(-2)


class BertMrc(nn.Module):
    """Outputs start and end logits [batch, seq, 2] for ``[CLS] context [SEP] query [SEP]``.

    With ``sentence_head`` it also has MT-BioNER's sentence-level task (bCLS): one logit from the
    [CLS] state for "the sentence holds an entity of the asked type", trained beside the spans and
    returned only by ``with_presence``, so the exported graph (``forward``) keeps its two outputs.

    With ``syntax`` (the manifest's syntax section) each kind's CFA output is concatenated to the
    hidden states before the heads, which then read ``d * (1 + kinds)`` features; ``forward`` takes
    the kinds' (positions, labels) tensors in order as ``syntax``.
    """

    def __init__(self, bert: BertEncoder, end_head: str = "eq6", end_width: int = None, sentence_head: bool = False,
                 syntax: dict = None):
        super().__init__()
        d = bert.config.hidden_size
        self.bert = bert
        self.syntax = nn.ModuleList(CombinedFeatureAttention(d, len(k["labels"])) for k in (syntax or {}).get("kinds", []))
        d *= 1 + len(self.syntax)
        self.end_head = end_head
        self.dropout = nn.Dropout(bert.config.hidden_dropout_prob)
        self.start_fc = StartHead(d)
        if end_head == "eq6":
            self.end_fc = EndHead(d, end_width or d)
        elif end_head == "eq5":
            self.end_fc = LinearEndHead(d)
        else:
            raise ValueError(f"unknown end head {end_head!r}: use eq6 or eq5")
        # MT-BioNER's sentence task reads the encoder's [CLS], without the syntax features
        self.sentence_fc = nn.Linear(bert.config.hidden_size, 1) if sentence_head else None

    def forward(self, input_ids, attention_mask, token_type_ids, start_labels=None, syntax=None):
        """Start and end logits. Only tensors or None here: the ONNX export traces this method with its
        defaults filled in as tensors, so a flag would become a Python ``if`` on a tensor."""
        _, start, end = self.heads(input_ids, attention_mask, token_type_ids, start_labels, syntax)
        return start, end

    def with_presence(self, input_ids, attention_mask, token_type_ids, start_labels=None, syntax=None):
        """``forward``'s logits and the sentence task's logit per sequence."""
        if self.sentence_fc is None:
            raise ValueError("this model has no sentence head: train it with --sentence-task")
        h, start, end = self.heads(input_ids, attention_mask, token_type_ids, start_labels, syntax)
        return start, end, self.sentence_fc(h[:, 0]).squeeze(-1)

    def heads(self, input_ids, attention_mask, token_type_ids, start_labels, syntax):
        """The encoder's final states, then the start and end logits."""
        h = self.dropout(self.bert(input_ids, attention_mask, token_type_ids))
        start, end = self.spans(self.with_syntax(h, syntax), start_labels)
        return h, start, end

    def with_syntax(self, h, syntax):
        """The heads' input: ``h``, then each syntax kind's attention output."""
        if not self.syntax:
            return h
        if syntax is None or len(syntax) != 2 * len(self.syntax):
            raise ValueError(f"this model reads {len(self.syntax)} syntax kind(s): give their positions and labels")
        return torch.cat([h] + [cfa(h, syntax[2 * k], syntax[2 * k + 1]) for k, cfa in enumerate(self.syntax)], -1)

    def spans(self, h, start_labels=None):
        """Start and end logits from the encoder's final states ``h``."""
        start = self.start_fc(h)
        if start_labels is not None and self.training:
            p = nn.functional.one_hot(start_labels.clamp(min=0), 2).to(h.dtype)
        else:
            p = start.softmax(-1)
        return start, self.end_fc(h, p)


class SyntaxMrc(nn.Module):
    """A BertMrc with syntax as a graph of plain inputs: ids, mask, segments, then each kind's
    positions and labels (the export's input order)."""

    def __init__(self, mrc: BertMrc):
        super().__init__()
        self.mrc = mrc

    def forward(self, input_ids, attention_mask, token_type_ids, *syntax):
        return self.mrc(input_ids, attention_mask, token_type_ids, syntax=list(syntax))


class GatedMrc(nn.Module):
    """BertMrc plus the presence gate's probes over the same final states (see ``bioner_mrc.gate``):
    one graph with three outputs, start and end logits [batch, seq, 2] and presence logits
    [batch, seq, types]. The job reads the presence output of a query-free pass
    (``[CLS] sentence [SEP]``) to skip the types a sentence lacks, and start/end of the MRC passes."""

    def __init__(self, mrc: BertMrc, probe: nn.Linear):
        super().__init__()
        self.mrc = mrc
        self.probe = probe

    def forward(self, input_ids, attention_mask, token_type_ids):
        h = self.mrc.bert(input_ids, attention_mask, token_type_ids)
        start, end = self.mrc.spans(h)
        return start, end, self.probe(h)


def context_mask(attention_mask, token_type_ids):
    """Positions that may hold an answer: segment 0, unmasked, not [CLS] nor the first [SEP]."""
    m = (token_type_ids == 0) & (attention_mask == 1)
    m[:, 0] = False
    lengths = m.sum(1)  # [CLS] + context + [SEP] -> last one is the [SEP]
    m[torch.arange(m.shape[0], device=m.device), lengths] = False
    return m


def mrc_loss(start, end, start_labels, end_labels, mask, lam: float = LAMBDA):
    ce = nn.functional.cross_entropy
    s = ce(start[mask], start_labels[mask])
    e = ce(end[mask], end_labels[mask])
    return (1 - lam) * s + lam * e


def presence_loss(presence_logits, start_labels, mask):
    """bCLS: binary cross-entropy of "the context holds a mention of the asked type"."""
    has = ((start_labels == 1) & mask).any(1).to(presence_logits.dtype)
    return nn.functional.binary_cross_entropy_with_logits(presence_logits, has)
