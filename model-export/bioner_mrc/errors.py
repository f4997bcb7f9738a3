r"""Error analysis: every false positive and false negative of a checkpoint, by kind, per corpus/type.

    python3 -m bioner_mrc.errors --checkpoint runs/default/best.pt \
        --tokenizer encoders/all-minilm-l6-v2-tokenizer.json \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease \
        --corpus ../corpora/NCBI-disease-IOB:Disease=disease [--fp16] [--json errors.json]

Spans are predicted exactly as ``bioner_mrc.evaluate`` predicts them (same examples, same
truncation, same decoding), so TP/FP/FN equal its counts. Spans are character spans of the
sentence text (tokens joined by single spaces); "overlap" means sharing at least one character.
The kinds are mutually exclusive, tested in the order listed, so they add up to FP and to FN.

False positives (a predicted span of type A that is not a gold span of type A):

* ``long``: it overlaps a gold A span and contains one (too long, or two mentions merged);
* ``short``: it overlaps a gold A span and lies inside one (too short);
* ``shifted``: it overlaps a gold A span otherwise (one boundary too early, the other too late);
* ``type_exact``: it equals a gold span of another type B of the same corpus in the sentence;
* ``type_overlap``: it overlaps a gold span of another type B;
* ``spurious_abbr``: no overlap with any gold span, and its text is abbreviation-like;
* ``spurious_other``: no overlap with any gold span, other text.

False negatives (a gold span of type A that is not predicted as type A):

* ``truncated``: it ends past the part of the sentence the model saw (context cut to max length);
* ``boundary``: a predicted A span overlaps it;
* ``type``: a predicted span of another type B overlaps it (the model found it under B);
* ``abbr_seen`` / ``abbr_unseen``: nothing overlaps it, its text is abbreviation-like, and it
  does / does not occur (case-insensitively) as a gold A mention of the training splits
  (train and devel, minus the evaluated split) of the given corpora;
* ``other_seen`` / ``other_unseen``: the same for texts that are not abbreviation-like.

Type confusion can only be measured in corpora annotated with several types (BC5CDR: chemical
and disease); in a single-type corpus there is no gold of another type, and the table says n/a.

Two further counts cut across the kinds: FP in sentences without any gold A mention
(``fp_no_gold``), and FN in sentences where the model predicted no A span at all
(``fn_silent``). (An FN always lies in a sentence with gold, an FP is either kind.)

Abbreviation-like: at most 3 tokens, 2 to 10 characters without the spaces, at least one
upper-case letter, and upper-case letters plus digits are more than half of its letters and
digits ("DM", "5 - FU", "NSAID", "IL - 2", "mRNA"; not "Ca", "aspirin", "IFN - gamma").
"""
import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .corpus import CorpusSpec, mention_counts
from .decode import Scores, prf
from .evaluate import add_model_arguments, is_truncated, load_model_and_examples
from .features import Example
from .predict import predict_spans

Span = Tuple[int, int]

FP_KINDS = ("long", "short", "shifted", "type_exact", "type_overlap", "spurious_abbr", "spurious_other")
FN_KINDS = ("truncated", "boundary", "type", "abbr_seen", "abbr_unseen", "other_seen", "other_unseen")
TYPE_KINDS = {"type_exact", "type_overlap", "type"}  # n/a in single-type corpora


def is_abbreviation(text: str) -> bool:
    """Short, mostly upper-case letters and digits (see the module docstring)."""
    if len(text.split()) > 3:
        return False
    compact = "".join(text.split())
    if not 2 <= len(compact) <= 10 or not any(c.isupper() for c in compact):
        return False
    alnum = [c for c in compact if c.isalnum()]
    return 2 * sum(c.isupper() or c.isdigit() for c in alnum) > len(alnum)


def overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def fp_kind(p: Span, gold: Set[Span], other_gold: Set[Span], text: str) -> str:
    same = [g for g in gold if overlaps(p, g)]
    if same:
        if any(p[0] <= g[0] and g[1] <= p[1] for g in same):
            return "long"
        if any(g[0] <= p[0] and p[1] <= g[1] for g in same):
            return "short"
        return "shifted"
    if p in other_gold:
        return "type_exact"
    if any(overlaps(p, g) for g in other_gold):
        return "type_overlap"
    return "spurious_abbr" if is_abbreviation(text[p[0]:p[1]]) else "spurious_other"


def fn_kind(g: Span, predicted: Set[Span], other_predicted: Set[Span], text: str, seen: Set[str],
            context_end: Optional[int]) -> str:
    if context_end is not None and g[1] > context_end:
        return "truncated"
    if any(overlaps(g, p) for p in predicted):
        return "boundary"
    if any(overlaps(g, p) for p in other_predicted):
        return "type"
    mention = text[g[0]:g[1]]
    kind = "abbr" if is_abbreviation(mention) else "other"
    return f"{kind}_{'seen' if mention.lower() in seen else 'unseen'}"


@dataclass
class TypeResult:
    """One sentence, one type: true positives and the classified errors."""
    tp: List[Span] = field(default_factory=list)
    fp: List[Tuple[str, Span]] = field(default_factory=list)  # (kind, span)
    fn: List[Tuple[str, Span]] = field(default_factory=list)


def classify_sentence(text: str, gold: Dict[str, Iterable[Span]], predicted: Dict[str, Iterable[Span]],
                      seen: Optional[Dict[str, Set[str]]] = None,
                      context_end: Optional[Dict[str, int]] = None) -> Dict[str, TypeResult]:
    """Classifies the errors of one sentence, for every type asked (the keys of ``predicted``).

    ``gold`` holds the gold spans of every type the corpus annotates (the other types' spans
    are what type confusion is measured against); ``seen`` maps a type to the lower-cased
    texts of its training mentions; ``context_end`` maps a type to the character offset where
    its truncated context ended (absent: not truncated).
    """
    seen, context_end = seen or {}, context_end or {}
    gold_sets = {t: set(v) for t, v in gold.items()}
    pred_sets = {t: set(v) for t, v in predicted.items()}
    out = {}
    for t, pred in pred_sets.items():
        g = gold_sets.get(t, set())
        other_gold = set().union(*[v for u, v in gold_sets.items() if u != t])
        other_pred = set().union(*[v for u, v in pred_sets.items() if u != t])
        r = TypeResult(tp=sorted(pred & g))
        r.fp = [(fp_kind(p, g, other_gold, text), p) for p in sorted(pred - g)]
        r.fn = [(fn_kind(x, pred, other_pred, text, seen.get(t, set()), context_end.get(t)), x)
                for x in sorted(g - pred)]
        out[t] = r
    return out


@dataclass
class Row:
    """Counts of one corpus/type."""
    multi_type: bool = False
    tp: int = 0
    fp: Counter = field(default_factory=Counter)  # kind -> count
    fn: Counter = field(default_factory=Counter)
    fp_no_gold: int = 0
    fn_silent: int = 0
    fp_texts: Counter = field(default_factory=Counter)
    fn_texts: Counter = field(default_factory=Counter)

    def add(self, text: str, result: TypeResult, n_gold: int, n_pred: int):
        self.tp += len(result.tp)
        for kind, (a, b) in result.fp:
            self.fp[kind] += 1
            self.fp_texts[text[a:b]] += 1
            self.fp_no_gold += n_gold == 0
        for kind, (a, b) in result.fn:
            self.fn[kind] += 1
            self.fn_texts[text[a:b]] += 1
            self.fn_silent += n_pred == 0

    def to_dict(self, top: int = 5) -> Dict:
        n_fp, n_fn = sum(self.fp.values()), sum(self.fn.values())
        fp = {k: self.fp[k] for k in FP_KINDS}
        fn = {k: self.fn[k] for k in FN_KINDS}
        assert sum(fp.values()) == n_fp and set(self.fp) <= set(FP_KINDS), (self.fp, n_fp)
        assert sum(fn.values()) == n_fn and set(self.fn) <= set(FN_KINDS), (self.fn, n_fn)
        assert self.fp_no_gold <= n_fp and self.fn_silent <= n_fn
        if not self.multi_type:
            assert not any(self.fp[k] or self.fn[k] for k in TYPE_KINDS)
        p, r, f = prf(self.tp, n_fp, n_fn)
        return {"tp": self.tp, "fp": n_fp, "fn": n_fn,
                "precision": round(100 * p, 2), "recall": round(100 * r, 2), "f1": round(100 * f, 2),
                "type_confusion_measurable": self.multi_type, "fp_kinds": fp, "fn_kinds": fn,
                "fp_no_gold": self.fp_no_gold, "fn_silent": self.fn_silent,
                "top_fp": most_common(self.fp_texts, top), "top_fn": most_common(self.fn_texts, top)}


def most_common(counts: Counter, n: int) -> List[Tuple[str, int]]:
    """The ``n`` most frequent texts, ties in alphabetical order."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def sentence_groups(examples: Sequence[Example]) -> List[List[int]]:
    """Indices of the examples of each sentence: ``collect_examples`` yields, per sentence,
    consecutive examples of one corpus and text with distinct types."""
    groups: List[List[int]] = []
    for i, ex in enumerate(examples):
        last = examples[groups[-1][0]] if groups else None
        if (last is None or last.corpus != ex.corpus or last.text != ex.text
                or any(examples[j].etype == ex.etype for j in groups[-1])):
            groups.append([i])
        else:
            groups[-1].append(i)
    return groups


def error_table(examples: Sequence[Example], predicted: Sequence[Sequence[Span]], corpus_types: Dict[str, List[str]],
                seen: Optional[Dict[str, Set[str]]] = None,
                context_end: Optional[Sequence[Optional[int]]] = None) -> Dict[str, Row]:
    """Rows per ``corpus/type`` from examples and their predicted spans (as ``predict_spans``).

    ``corpus_types`` lists the types each corpus annotates; ``context_end[i]`` is where example
    i's truncated context ends (None if not truncated). The TP/FP/FN totals are checked against
    ``decode.Scores``, the evaluation's own counting.
    """
    rows: Dict[str, Row] = {}
    scores = Scores()
    for group in sentence_groups(examples):
        first = examples[group[0]]
        gold = {examples[i].etype: examples[i].gold for i in group}
        pred = {examples[i].etype: list(predicted[i]) for i in group}
        ends = {examples[i].etype: context_end[i] for i in group if context_end and context_end[i] is not None}
        result = classify_sentence(first.text, gold, pred, seen, ends)
        for t, r in result.items():
            key = f"{first.corpus}/{t}"
            row = rows.setdefault(key, Row(multi_type=len(corpus_types.get(first.corpus, [])) > 1))
            row.add(first.text, r, len(set(gold[t])), len(set(pred[t])))
            scores.add(key, pred[t], gold[t])
    for key, row in rows.items():
        d = row.to_dict()
        assert (d["tp"], d["fp"], d["fn"]) == (scores.tp[key], scores.fp[key], scores.fn[key]), key
    return dict(sorted(rows.items()))


def seen_mentions(specs: Sequence[CorpusSpec], split: str) -> Dict[str, Set[str]]:
    """Lower-cased gold mention texts per type in the train and devel splits (minus ``split``)
    of all the corpora: the model is trained on them jointly."""
    seen: Dict[str, Set[str]] = {}
    for spec in specs:
        for name in ("train", "devel"):
            if name == split:
                continue
            sentences = spec.split(name)
            for t in dict.fromkeys(spec.tags.values()):
                seen.setdefault(t, set()).update(m.lower() for m in mention_counts(sentences, t))
    return seen


def _texts(pairs, n=3) -> str:
    return ", ".join(f"{_cell(t)} ({c})" for t, c in pairs[:n])


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def markdown(table: Dict[str, Dict]) -> str:
    """Two Markdown tables (false positives, false negatives), one row per corpus/type."""
    na = "n/a"

    def kind(d, side, k):
        return na if k in TYPE_KINDS and not d["type_confusion_measurable"] else str(d[side][k])

    fp_head = ["corpus/type", "TP", "FP", "FN", "P", "R", "F1", "FP long", "FP short", "FP shifted",
               "FP type exact", "FP type overlap", "FP spurious abbr", "FP spurious other",
               "FP in no-gold sentences", "most frequent FP"]
    fn_head = ["corpus/type", "FN", "FN truncated", "FN boundary", "FN type", "FN abbr seen", "FN abbr unseen",
               "FN other seen", "FN other unseen", "FN in silent sentences", "most frequent FN"]
    lines = ["| " + " | ".join(fp_head) + " |", "|" + " --- |" * len(fp_head)]
    for key, d in table.items():
        lines.append("| " + " | ".join([key, str(d["tp"]), str(d["fp"]), str(d["fn"]), f"{d['precision']:.2f}",
                                         f"{d['recall']:.2f}", f"{d['f1']:.2f}"]
                                        + [kind(d, "fp_kinds", k) for k in FP_KINDS]
                                        + [str(d["fp_no_gold"]), _texts(d["top_fp"])]) + " |")
    lines += ["", "| " + " | ".join(fn_head) + " |", "|" + " --- |" * len(fn_head)]
    for key, d in table.items():
        lines.append("| " + " | ".join([key, str(d["fn"])] + [kind(d, "fn_kinds", k) for k in FN_KINDS]
                                        + [str(d["fn_silent"]), _texts(d["top_fn"])]) + " |")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(p)
    p.add_argument("--top", type=int, default=5, help="most frequent FP/FN texts kept per row in the JSON "
                                                        "(the Markdown shows 3)")
    p.add_argument("--json", help="write the rows (counts per kind, most frequent texts) to this file")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        specs = [CorpusSpec.parse(c) for c in args.corpus]
        seen = seen_mentions(specs, args.split)
        loaded, tok, examples, truncated = load_model_and_examples(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    predicted = predict_spans(loaded.model, examples, args.batch_size)
    max_len = loaded.meta["max_len"]
    context_end = [ex.pieces[-1].end if is_truncated(ex, tok, max_len) else None for ex in examples]
    corpus_types = {s.name: list(dict.fromkeys(s.tags.values())) for s in specs}
    rows = error_table(examples, predicted, corpus_types, seen, context_end)
    table = {k: r.to_dict(args.top) for k, r in rows.items()}
    print(markdown(table))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"split": args.split, "fp16": args.fp16, "fp_kinds": FP_KINDS, "fn_kinds": FN_KINDS,
                       "rows": table, "truncated": truncated}, f, indent=2, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
