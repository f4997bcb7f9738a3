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
        return self.dense_1(self.LayerNorm(self.activation(self.dense_0(torch.cat([h, p], -1)))))


class LinearEndHead(nn.Module):
    """Eq. 5: the end head sees only H."""

    def __init__(self, hidden: int):
        super().__init__()
        self.dense = nn.Linear(hidden, 2)

    def forward(self, h, p):
        return self.dense(h)


class BertMrc(nn.Module):
    """Outputs start and end logits [batch, seq, 2] for ``[CLS] context [SEP] query [SEP]``.

    With ``sentence_head`` it also has MT-BioNER's sentence-level task (bCLS): one logit from the
    [CLS] state for "the sentence holds an entity of the asked type", trained beside the spans and
    returned only when asked (``presence=True``), so the exported graph keeps its two outputs.
    """

    def __init__(self, bert: BertEncoder, end_head: str = "eq6", end_width: int = None, sentence_head: bool = False):
        super().__init__()
        d = bert.config.hidden_size
        self.bert = bert
        self.end_head = end_head
        self.dropout = nn.Dropout(bert.config.hidden_dropout_prob)
        self.start_fc = StartHead(d)
        if end_head == "eq6":
            self.end_fc = EndHead(d, end_width or d)
        elif end_head == "eq5":
            self.end_fc = LinearEndHead(d)
        else:
            raise ValueError(f"unknown end head {end_head!r}: use eq6 or eq5")
        self.sentence_fc = nn.Linear(d, 1) if sentence_head else None

    def forward(self, input_ids, attention_mask, token_type_ids, start_labels=None, presence=False):
        h = self.dropout(self.bert(input_ids, attention_mask, token_type_ids))
        start, end = self.spans(h, start_labels)
        if presence:
            if self.sentence_fc is None:
                raise ValueError("this model has no sentence head: train it with --sentence-task")
            return start, end, self.sentence_fc(h[:, 0]).squeeze(-1)
        return start, end

    def spans(self, h, start_labels=None):
        """Start and end logits from the encoder's final states ``h``."""
        start = self.start_fc(h)
        if start_labels is not None and self.training:
            p = nn.functional.one_hot(start_labels.clamp(min=0), 2).to(h.dtype)
        else:
            p = start.softmax(-1)
        return start, self.end_fc(h, p)


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
    m[torch.arange(m.shape[0]), lengths] = False
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
