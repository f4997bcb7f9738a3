"""IOB corpora: sentences as text (tokens joined by single spaces) and typed entity char spans."""
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Tuple


@dataclass
class Sentence:
    text: str
    entities: Dict[str, List[Tuple[int, int]]] = field(default_factory=dict)  # type -> [(start, end)]


@dataclass
class CorpusSpec:
    """``DIR:TAG=type[,TAG=type]``, e.g. ``../corpora/BC5CDR-IOB:Chemical=chemical``."""

    name: str
    directory: str
    tags: Dict[str, str]

    @staticmethod
    def parse(spec: str) -> "CorpusSpec":
        directory, sep, mapping = spec.rpartition(":")
        if not sep or not mapping:
            raise ValueError(f"corpus {spec!r}: expected DIR:TAG=type[,TAG=type]")
        tags = {}
        for pair in mapping.split(","):
            tag, eq, etype = pair.partition("=")
            if not eq or not tag or not etype:
                raise ValueError(f"corpus {spec!r}: {pair!r} is not TAG=type")
            tags[tag] = etype
        return CorpusSpec(os.path.basename(os.path.normpath(directory)), directory, tags)

    def split(self, name: str) -> List[Sentence]:
        return read_iob(os.path.join(self.directory, name + ".tsv"), self.tags)


def read_iob(path: str, tags: Dict[str, str]) -> List[Sentence]:
    """Reads ``token<TAB>tag`` lines; tags outside ``tags`` are treated as O."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"IOB file not found: {path}")
    sentences, tokens, labels = [], [], []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                if tokens:
                    sentences.append(_sentence(tokens, labels, tags))
                tokens, labels = [], []
                continue
            parts = line.split("\t")
            if len(parts) < 2:
                raise ValueError(f"{path}:{lineno}: expected token<TAB>tag, got {line!r}")
            tokens.append(parts[0])
            labels.append(parts[-1])
    if tokens:
        sentences.append(_sentence(tokens, labels, tags))
    return sentences


def _sentence(tokens, labels, tags) -> Sentence:
    ents: Dict[str, list] = {t: [] for t in tags.values()}
    pos, cur = 0, None  # cur = [type, start, end] of the entity being read
    for tok, lab in zip(tokens, labels):
        start, end = pos, pos + len(tok)
        pos = end + 1
        prefix, _, tag = lab.partition("-")
        etype = tags.get(tag)
        if etype and (prefix == "B" or cur is None or cur[0] != etype):  # a stray I- opens one too
            cur = [etype, start, end]
            ents[etype].append(cur)
        elif etype:
            cur[2] = end
        else:
            cur = None
    return Sentence(" ".join(tokens), {t: [(s, e) for _, s, e in v] for t, v in ents.items()})


def mention_counts(sentences: List[Sentence], etype: str) -> Counter:
    return Counter(s.text[a:b] for s in sentences for a, b in s.entities.get(etype, []))
