"""BERT WordPiece tokenization read from a HuggingFace ``tokenizer.json``.

The Java job tokenizes with DJL's binding of the Rust ``tokenizers`` library. Training must
see exactly the ids the job will see, so this module re-implements the three stages that
``tokenizer.json`` declares for BERT (BertNormalizer, BertPreTokenizer, WordPiece) and keeps,
for every word piece, the character offsets into the original text.
"""
import json
import unicodedata
from dataclasses import dataclass
from typing import List, Tuple


@dataclass(frozen=True)
class Piece:
    id: int
    start: int  # character offset into the original text, inclusive
    end: int  # exclusive


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_whitespace(ch: str) -> bool:
    # Rust's char::is_whitespace is the Unicode White_Space property.
    return ch in "\t\n\r " or unicodedata.category(ch) == "Zs" or ch in (
        "\u000b\u000c\u0085\u2028\u2029"
    )


def _is_control(ch: str) -> bool:
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf", "Cn", "Co", "Cs")


def _is_chinese(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B920 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


class WordPieceTokenizer:
    """Tokenizes text into BERT word pieces with character offsets."""

    def __init__(self, tokenizer_json: str):
        self.path = tokenizer_json  # the Java annotator tokenizes with the same file
        with open(tokenizer_json, encoding="utf-8") as f:
            spec = json.load(f)
        model = spec.get("model") or {}
        if model.get("type") != "WordPiece":
            raise ValueError(f"{tokenizer_json}: model type {model.get('type')!r} is not WordPiece")
        norm = spec.get("normalizer") or {}
        if norm.get("type") != "BertNormalizer":
            raise ValueError(f"{tokenizer_json}: normalizer {norm.get('type')!r} is not BertNormalizer")
        self.vocab = model["vocab"]
        self.unk = model.get("unk_token", "[UNK]")
        self.prefix = model.get("continuing_subword_prefix", "##")
        self.max_chars = model.get("max_input_chars_per_word", 100)
        self.lowercase = norm.get("lowercase", True)
        accents = norm.get("strip_accents")
        self.strip_accents = self.lowercase if accents is None else accents
        self.clean_text = norm.get("clean_text", True)
        self.chinese = norm.get("handle_chinese_chars", True)
        self.cls_id = self.vocab["[CLS]"]
        self.sep_id = self.vocab["[SEP]"]
        self.pad_id = self.vocab.get("[PAD]", 0)

    def _normalize(self, text: str) -> Tuple[str, List[int]]:
        """Returns the normalized text and, per normalized char, its original index."""
        out: List[str] = []
        align: List[int] = []
        for i, ch in enumerate(text):
            if self.clean_text:
                if ch == "\0" or ch == "\ufffd" or _is_control(ch):
                    continue
                if _is_whitespace(ch):
                    ch = " "
            chars = ch
            if self.chinese and _is_chinese(ord(ch)):
                chars = " " + ch + " "
            for c in chars:
                if self.strip_accents:
                    c = "".join(
                        d for d in unicodedata.normalize("NFD", c) if unicodedata.category(d) != "Mn"
                    )
                if self.lowercase:
                    c = c.lower()
                for d in c:
                    out.append(d)
                    align.append(i)
        return "".join(out), align

    def _words(self, norm: str) -> List[Tuple[int, int]]:
        """BertPreTokenizer: split on whitespace, isolate punctuation; spans in normalized text."""
        words = []
        start = None
        for i, ch in enumerate(norm):
            if _is_whitespace(ch):
                if start is not None:
                    words.append((start, i))
                    start = None
            elif _is_punctuation(ch):
                if start is not None:
                    words.append((start, i))
                    start = None
                words.append((i, i + 1))
            elif start is None:
                start = i
        if start is not None:
            words.append((start, len(norm)))
        return words

    def _word_pieces(self, word: str) -> List[Tuple[int, int, int]]:
        """Greedy longest-match-first; (id, start, end) relative to the word."""
        if len(word) > self.max_chars:
            return [(self.vocab[self.unk], 0, len(word))]
        pieces = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                sub = word[start:end]
                if start > 0:
                    sub = self.prefix + sub
                if sub in self.vocab:
                    found = self.vocab[sub]
                    break
                end -= 1
            if found is None:
                return [(self.vocab[self.unk], 0, len(word))]
            pieces.append((found, start, end))
            start = end
        return pieces

    def tokenize(self, text: str) -> List[Piece]:
        norm, align = self._normalize(text)
        pieces = []
        for ws, we in self._words(norm):
            for pid, ps, pe in self._word_pieces(norm[ws:we]):
                pieces.append(Piece(pid, align[ws + ps], align[ws + pe - 1] + 1))
        return pieces

    def encode_pair(self, context: List[Piece], query_ids: List[int]):
        """``[CLS] context [SEP] query [SEP]`` ids and segment ids (0 for the context part)."""
        ids = [self.cls_id] + [p.id for p in context] + [self.sep_id]
        segments = [0] * len(ids)
        ids += query_ids + [self.sep_id]
        segments += [1] * (len(query_ids) + 1)
        return ids, segments
