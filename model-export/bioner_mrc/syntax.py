"""Syntax for combined feature attention (seed 003), from the same annotator the Java job runs.

The annotations come from ``../bioner annotate`` (Apache OpenNLP POS tagger and chunker, dependencies
by head rules over the chunks; see ``job/.../syntax``): for every sentence, per kind (``pos``,
``chunk``, ``dep``), each word piece's context pieces and their labels, the piece's own word first.
Only the step from those to the model inputs is done here, with the same rule as the Java
``SyntaxEncoder``: context piece ``c`` sits at position ``c + 1``; contexts outside the (truncated)
context are dropped; at most ``width`` per position, in order; label id 0 is "none", 1 a label not
seen in training, then the training labels in order.
"""
import hashlib
import json
import os
import subprocess
from typing import Dict, List, Sequence, Tuple

KINDS = ("pos", "chunk", "dep")
WIDTHS = {"pos": 3, "chunk": 8, "dep": 8}  # contexts per position: a 1-word window; a chunk, a governor and dependents
ANNOTATOR = "opennlp-2.5 en-pos-maxent-1.5 en-chunker-1.5 head-rules-1"  # OpenNlpAnnotator.NAME in the job
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

Annotations = Dict[str, Dict[str, List[List[Tuple[int, str]]]]]  # text -> kind -> per piece [(piece, label)]


def parse_kinds(text: str) -> List[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds or len(set(kinds)) != len(kinds):
        raise ValueError(f"--syntax {text!r}: give distinct kinds among {', '.join(KINDS)}, comma-separated")
    return kinds


def cache_dir() -> str:
    """Where annotations are kept: ``$BIONER_ANNOTATIONS``, default ``~/.cache/bioner-stream/annotations``."""
    return os.environ.get("BIONER_ANNOTATIONS", os.path.join(os.path.expanduser("~"), ".cache", "bioner-stream",
                                                             "annotations"))


def annotate(iob_files: Sequence[str], tokenizer: str, bioner: str = None) -> Annotations:
    """The annotations of the sentences of ``iob_files`` by sentence text, from the job's annotator.

    Annotating a corpus takes minutes, so the result is kept in ``cache_dir()`` under a digest of the
    annotator, the tokenizer and the files' contents: the variants of a comparison, their evaluations
    and later runs read it back."""
    digest = hashlib.sha256(ANNOTATOR.encode())
    for path in [tokenizer, *iob_files]:
        with open(path, "rb") as f:
            digest.update(hashlib.sha256(f.read()).digest())
    out = os.path.join(cache_dir(), digest.hexdigest()[:32] + ".jsonl")
    if not os.path.isfile(out):
        os.makedirs(cache_dir(), exist_ok=True)
        command = [bioner or os.environ.get("BIONER", os.path.join(REPO, "bioner")), "annotate",
                   "--tokenizer", tokenizer, "--out", out + ".tmp"]
        for f in iob_files:
            command += ["--iob", f]
        subprocess.run(command, check=True)
        os.replace(out + ".tmp", out)
    return read(out)


def read(path: str) -> Annotations:
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            out[row["text"]] = {k: [[(c, label) for c, label in piece] for piece in row[k]] for k in KINDS}
    return out


def spec(annotations: Annotations, texts: Sequence[str], kinds: Sequence[str]) -> Dict:
    """The manifest's ``syntax`` section: each kind's width and the labels seen in ``texts`` (training)."""
    out = []
    for k in kinds:
        labels = sorted({label for t in texts for piece in annotations[t][k] for _, label in piece})
        out.append({"kind": k, "width": WIDTHS[k], "labels": labels})
    return {"annotator": ANNOTATOR, "kinds": out}


class SyntaxInputs:
    """Model inputs of one (truncated) context from its sentence's annotations."""

    def __init__(self, syntax_spec: Dict, annotations: Annotations):
        self.kinds = syntax_spec["kinds"]
        self.ids = [{label: i + 2 for i, label in enumerate(k["labels"])} for k in self.kinds]
        self.annotations = annotations

    def encode(self, text: str, context_length: int, length: int) -> List[Tuple[List[List[int]], List[List[int]]]]:
        """Per kind, positions and labels ``[length][width]`` of ``[CLS] context(context_length) [SEP] ...``."""
        if text not in self.annotations:
            raise KeyError(f"no syntax annotation for the sentence {text[:80]!r}: annotate its corpus file")
        out = []
        for kind, ids in zip(self.kinds, self.ids):
            width = kind["width"]
            positions = [[0] * width for _ in range(length)]
            labels = [[0] * width for _ in range(length)]
            by_piece = self.annotations[text][kind["kind"]]
            for c in range(context_length):
                used = 0
                for piece, label in by_piece[c]:
                    if used < width and piece < context_length:
                        positions[c + 1][used] = piece + 1
                        labels[c + 1][used] = ids.get(label, 1)
                        used += 1
            out.append((positions, labels))
        return out


def input_names(syntax_spec: Dict) -> List[str]:
    """The graph inputs of the syntax kinds, as the Java ``BundleSyntax`` names them."""
    return [f"syntax_{k['kind']}_{part}" for k in syntax_spec["kinds"] for part in ("positions", "labels")]


