"""Writes the sample abstracts the job's demo and integration tests read.

    python3 -m bioner_mrc.sample --iob ../corpora/BC5CDR-IOB/test.tsv \
        --tags Chemical=chemical,Disease=disease \
        --out ../job/src/main/resources/samples/abstracts.jsonl

    python3 -m bioner_mrc.sample --iob ../corpora/PharmaCoNER-IOB/test.tsv \
        --tags NORMALIZABLES=normalizable,NOTNORMALIZABLES=non-normalizable,PROTEINAS=protein \
        --prefix PharmaCoNER-test --language spa --limit 20 --source "$PHARMACONER_SOURCE" \
        --out ../job/src/main/resources/samples/abstracts-es.jsonl

The IOB files list sentences in document order but do not mark where a document ends, so
consecutive sentences are grouped into pseudo-abstracts that usually span two documents: the
first sentence of a group stands as the title, the rest as the abstract. Each line also carries the gold spans (``gold``: field, type,
start, end), which the job ignores and the tests score against.
Data: BC5CDR (Li et al. 2016) via cambridgeltl/MTL-Bioinformatics-2016, CC BY 4.0; PharmaCoNER
(Gonzalez-Agirre et al. 2019) as tokenized by CongSun-dlut/PharmaCoNER, MIT (see corpora/README.md).
"""
import argparse
import json

from .corpus import CorpusSpec, read_iob

BC5CDR_SOURCE = "BC5CDR test split (Li et al. 2016; CC BY 4.0 via cambridgeltl/MTL-Bioinformatics-2016)"


def pseudo_abstracts(sentences, per_abstract, prefix, source, language):
    """Consecutive sentences grouped into records of the job's input format, gold spans attached."""
    for n, i in enumerate(range(0, len(sentences), per_abstract), 1):
        group = sentences[i:i + per_abstract]
        title, body = group[0], group[1:]
        gold = [{"field": "TITLE", "type": t, "start": a, "end": b}
                for t, spans in title.entities.items() for a, b in spans]
        offset = 0
        for s in body:
            gold += [{"field": "ABSTRACT", "type": t, "start": offset + a, "end": offset + b}
                     for t, spans in s.entities.items() for a, b in spans]
            offset += len(s.text) + 1
        yield {"id": f"{prefix}-{n:04d}", "title": title.text, "abstract": " ".join(s.text for s in body),
               "journal": None, "publicationDate": None, "source": source, "language": language,
               "gold": sorted(gold, key=lambda g: (g["field"] != "TITLE", g["start"], g["type"]))}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--iob", required=True)
    p.add_argument("--tags", required=True, help="TAG=type[,TAG=type]")
    p.add_argument("--out", required=True)
    p.add_argument("--sentences", type=int, default=10, help="sentences per pseudo-abstract")
    p.add_argument("--prefix", default="BC5CDR-test")
    p.add_argument("--source", default=BC5CDR_SOURCE, help="the records' source field: where the text comes from")
    p.add_argument("--language", default="eng", help="the records' language (ISO 639), which picks the model")
    p.add_argument("--limit", type=int, default=0, help="write at most this many records (0: all)")
    args = p.parse_args(argv)
    tags = CorpusSpec.parse("x:" + args.tags).tags
    docs = list(pseudo_abstracts(read_iob(args.iob, tags), args.sentences, args.prefix, args.source, args.language))
    if args.limit:
        docs = docs[:args.limit]
    with open(args.out, "w", encoding="utf-8") as f:
        for doc in docs:
            f.write(json.dumps(doc, ensure_ascii=False) + "\n")
    print(f"wrote {len(docs)} pseudo-abstracts to {args.out}")


if __name__ == "__main__":
    main()
