r"""Stores the spans a model predicts on a fixed part of each test split, for the Java parity test.

    python3 -m bioner_mrc.stored_predictions --checkpoint ../job/src/main/resources/bundles/default \
        --corpus ../corpora/BC5CDR-IOB:Chemical=chemical,Disease=disease \
        --corpus ../corpora/NCBI-disease-IOB:Disease=disease ... \
        --out ../job/src/main/resources/bundles/default/predictions.json.gz

``export --evaluate-corpus`` writes the same file into every bundle it scores. The Java engine
must predict exactly these spans on these sentences (``EvalParityITCase``): a span-level check,
stronger than equal F1 and a fifth of the cost of scoring every split.

The part is every ``--every``-th sentence of each split: a systematic sample that follows the
split's order of articles, so every article and type is represented in proportion and the part
does not change with the model. Sentences that model-export cuts to fit the model's length are
left out (the engine reads them in sliding windows instead, so their spans may differ by design).
"""
import argparse
import gzip
import json
import sys
from typing import Dict, List, Sequence, Tuple

from .evaluate import add_model_arguments, is_truncated, load_model_and_examples
from .features import Example
from .predict import predict_spans
from .wordpiece import WordPieceTokenizer

EVERY = 5
FILE = "predictions.json.gz"


def document(examples: Sequence[Example], spans: Sequence[List[Tuple[int, int]]], tok: WordPieceTokenizer,
             max_len: int, split: str = "test", every: int = EVERY) -> Dict:
    """The stored predictions of every ``every``-th sentence of each corpus. ``examples`` come as
    ``evaluate.collect_examples`` makes them: corpus by corpus, sentence by sentence, one example
    per type of the corpus; ``spans`` are their predictions in the same order."""
    sentences, position = [], {}
    by_corpus: Dict[str, List[int]] = {}
    for i, ex in enumerate(examples):
        by_corpus.setdefault(ex.corpus, []).append(i)
    for corpus, indices in by_corpus.items():
        types = list(dict.fromkeys(examples[i].etype for i in indices))
        for j, i in enumerate(indices):
            sentence, ex = j // len(types), examples[i]
            if sentence % every or is_truncated(ex, tok, max_len):
                continue
            key = (corpus, sentence)
            if key not in position:
                position[key] = len(sentences)
                sentences.append({"corpus": corpus, "index": sentence, "text": ex.text, "spans": {}})
            sentences[position[key]]["spans"][ex.etype] = [list(s) for s in spans[i]]
    return {"split": split, "every": every, "sentences": sentences}


def write(path: str, doc: Dict):
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))


def read(path: str) -> Dict:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(p)
    p.add_argument("--every", type=int, default=EVERY, help=f"keep every N-th sentence (default {EVERY})")
    p.add_argument("--out", required=True, help=f"file to write (a bundle's {FILE})")
    args = p.parse_args(argv)
    try:
        loaded, tok, examples, _ = load_model_and_examples(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    picked = document(examples, [[]] * len(examples), tok, loaded.meta["max_len"], args.split, args.every)
    wanted = {(s["corpus"], s["text"]) for s in picked["sentences"]}
    subset = [i for i, ex in enumerate(examples) if (ex.corpus, ex.text) in wanted]
    spans = [[] for _ in examples]
    for i, s in zip(subset, predict_spans(loaded.model, [examples[i] for i in subset], args.batch_size)):
        spans[i] = s
    doc = document(examples, spans, tok, loaded.meta["max_len"], args.split, args.every)
    write(args.out, doc)
    mentions = sum(len(v) for s in doc["sentences"] for v in s["spans"].values())
    print(f"wrote {args.out}: {len(doc['sentences'])} sentences, {mentions} predicted spans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
