"""Decoding, metrics, queries, tokenization, corpora and features on hand-made cases."""
import pytest
import torch

from bioner_mrc.corpus import CorpusSpec, Sentence, read_iob
from bioner_mrc.decode import Scores, decode_spans, prf
from bioner_mrc.features import collate, make_examples
from bioner_mrc.mrc import context_mask
from bioner_mrc.queries import build_queries
from bioner_mrc.wordpiece import WordPieceTokenizer

from conftest import write_tokenizer


# --- decode_spans -------------------------------------------------------------------------

@pytest.mark.parametrize("starts, ends, spans", [
    ([1, 0, 0, 0], [0, 1, 0, 1], [(0, 1)]),  # nearest end wins
    ([1, 0, 1, 0], [0, 1, 0, 1], [(0, 1), (2, 3)]),  # two separate spans
    ([1, 0, 1, 0], [0, 0, 0, 1], [(2, 3)]),  # overlap: the earlier span is dropped
    ([1, 1, 1], [0, 0, 1], [(2, 2)]),  # three starts, one end: only the nearest survives
    ([0, 0, 1], [1, 0, 0], []),  # start without an end after it
    ([0, 0, 0], [1, 1, 1], []),  # ends without starts
    ([1, 0, 1], [1, 0, 1], [(0, 0), (2, 2)]),  # single-piece spans at both edges
    ([1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [(0, 4)]),  # a span covering everything
    ([], [], []),
])
def test_decode_spans(starts, ends, spans):
    assert decode_spans(starts, ends) == spans


def test_scores_and_prf():
    s = Scores()
    s.add("a/x", [(0, 3), (5, 7)], [(0, 3), (9, 12)])
    s.add("a/x", [], [(1, 2)])
    s.add("b/y", [(1, 2), (1, 2)], [])  # duplicates count once
    assert (s.tp["a/x"], s.fp["a/x"], s.fn["a/x"]) == (1, 1, 2)
    p, r, f = s.prf("a/x")
    assert p == 0.5 and r == pytest.approx(1 / 3) and f == pytest.approx(0.4)
    assert s.prf("b/y") == (0.0, 0.0, 0.0)
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    t = s.table()
    assert list(t) == ["a/x", "b/y"]
    assert t["a/x"] == {"precision": 50.0, "recall": 33.33, "f1": 40.0, "tp": 1, "fp": 1, "fn": 2}


# --- queries ------------------------------------------------------------------------------

def sentences_with(mentions):
    text = " ".join(mentions)
    spans, pos = [], 0
    for m in mentions:
        spans.append((pos, pos + len(m)))
        pos += len(m) + 1
    return [Sentence(text, {"chemical": spans})]


MENTIONS = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10", "k11", "l12"]


def test_paper_queries_frequent_with_alphabetical_ties():
    sents = sentences_with(["zinc", "zinc", "zinc", "iron", "iron", "lead", "copper", "copper", "gold"])
    q = build_queries(sents, ["chemical"], "paper", "frequent")
    assert q == {"chemical": "Can you detect chemical entities like zinc or copper or iron ?"}


def test_example_queries_name_the_most_frequent_mention_only():
    sents = sentences_with(["zinc", "zinc", "zinc", "iron", "iron", "lead", "copper", "copper", "gold"])
    assert build_queries(sents, ["chemical"], "example") == {"chemical": "Can you detect chemical entities like zinc ?"}
    assert build_queries(sents, ["chemical"], "example", language="es") == {
        "chemical": "¿ Puedes detectar entidades de sustancias químicas como zinc ?"}
    assert build_queries(sentences_with(["gold"]), ["chemical"], "example")["chemical"].endswith("like gold ?")
    with pytest.raises(ValueError, match="the example query needs 1"):
        build_queries(sentences_with([]), ["chemical"], "example")


def test_random_queries_are_deterministic_under_a_seed():
    sents = sentences_with(MENTIONS)
    a = build_queries(sents, ["chemical"], "paper", "random", seed=1)
    assert a == build_queries(sents, ["chemical"], "paper", "random", seed=1)
    variants = {build_queries(sents, ["chemical"], "paper", "random", seed=s)["chemical"] for s in range(6)}
    assert len(variants) > 1
    assert a["chemical"].startswith("Can you detect chemical entities like ")


def test_simple_and_guideline_queries():
    assert build_queries([], ["gene"], "simple") == {"gene": "Can you detect gene or protein entities ?"}
    g = build_queries([], ["disease", "novel"], "guideline")
    assert g["disease"] == ("Can you detect disease entities ? They are diseases, disorders, syndromes, "
                            "symptoms and abnormal conditions .")
    assert g["novel"] == "Can you detect novel entities ? They are novel ."


def test_query_errors():
    with pytest.raises(ValueError, match="unknown query style 'fancy'"):
        build_queries([], ["gene"], "fancy")
    with pytest.raises(ValueError, match="unknown example selection"):
        build_queries(sentences_with(MENTIONS), ["chemical"], "paper", "most")
    with pytest.raises(ValueError, match="the paper query needs 3"):
        build_queries(sentences_with(["a", "b"]), ["chemical"], "paper")


# --- wordpiece ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tok(tokenizer_path):
    return WordPieceTokenizer(tokenizer_path)


def pieces(tok, text):
    inv = {v: k for k, v in tok.vocab.items()}
    return [(inv[p.id], text[p.start:p.end]) for p in tok.tokenize(text)]


def test_accents_are_stripped_with_original_offsets(tok):
    assert pieces(tok, "Café-au-lait") == [("cafe", "Café"), ("-", "-"), ("au", "au"), ("-", "-"), ("lait", "lait")]
    assert pieces(tok, "naïve Sjögren's") == [("naive", "naïve"), ("sj", "Sj"), ("##ogren", "ögren"), ("'", "'"),
                                              ("s", "s")]


def test_greek_letters_and_punctuation(tok):
    assert pieces(tok, "α-synuclein (TNF-Β)") == [
        ("α", "α"), ("-", "-"), ("syn", "syn"), ("##uc", "uc"), ("##lein", "lein"), ("(", "("), ("tnf", "TNF"),
        ("-", "-"), ("β", "Β"), (")", ")")]
    assert pieces(tok, "NF-κB;") == [("nf", "NF"), ("-", "-"), ("[UNK]", "κB"), (";", ";")]


def test_unknown_words_whitespace_and_controls(tok):
    assert pieces(tok, "  xyzzy\taspirin\u200b\n") == [("[UNK]", "xyzzy"), ("aspirin", "aspirin")]
    assert pieces(tok, "BRCA1") == [("brca", "BRCA"), ("##1", "1")]
    assert tok.tokenize("") == []


def test_no_lowercase_keeps_case_and_accents(tmp_path):
    t = WordPieceTokenizer(write_tokenizer(tmp_path / "t.json", lowercase=False))
    assert [p.id for p in t.tokenize("Aspirin aspirin")] == [t.vocab["[UNK]"], t.vocab["aspirin"]]
    t = WordPieceTokenizer(write_tokenizer(tmp_path / "u.json", lowercase=True, strip_accents=False))
    assert [p.id for p in t.tokenize("café")] == [t.vocab["[UNK]"]]


def test_encode_pair(tok):
    ctx = tok.tokenize("aspirin")
    ids, segs = tok.encode_pair(ctx, [tok.vocab["can"]])
    assert ids == [tok.cls_id, tok.vocab["aspirin"], tok.sep_id, tok.vocab["can"], tok.sep_id]
    assert segs == [0, 0, 0, 1, 1]


def test_bad_tokenizer_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        WordPieceTokenizer(str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="is not WordPiece"):
        WordPieceTokenizer(write_tokenizer(tmp_path / "bpe.json", model_type="BPE"))


# --- corpora and features -----------------------------------------------------------------

def test_read_iob_spans(tmp_path):
    p = tmp_path / "x.tsv"
    p.write_text("Severe\tO\nbreast\tB-Disease\ncancer\tI-Disease\nand\tO\nlithium\tI-Chemical\n"
                 "toxicity\tB-Disease\n\n\nA\tB-GENE\n", encoding="utf-8")
    s = read_iob(str(p), {"Disease": "disease", "Chemical": "chemical"})
    assert len(s) == 2
    assert s[0].text == "Severe breast cancer and lithium toxicity"
    assert [s[0].text[a:b] for a, b in s[0].entities["disease"]] == ["breast cancer", "toxicity"]
    assert [s[0].text[a:b] for a, b in s[0].entities["chemical"]] == ["lithium"]  # a stray I- opens a mention
    assert s[1].entities == {"disease": [], "chemical": []}  # unmapped tags are O


def test_iob_errors(tmp_path):
    p = tmp_path / "bad.tsv"
    p.write_text("aspirin\tB-Chemical\nno tab here\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.tsv:2: expected token<TAB>tag"):
        read_iob(str(p), {"Chemical": "chemical"})
    with pytest.raises(FileNotFoundError, match="IOB file not found"):
        read_iob(str(tmp_path / "nope.tsv"), {})


@pytest.mark.parametrize("spec", ["just-a-dir", "dir:", "dir:Chemical", "dir:=chemical", "dir:A=a,B"])
def test_malformed_corpus_spec(spec):
    with pytest.raises(ValueError, match="corpus"):
        CorpusSpec.parse(spec)


def test_corpus_spec():
    s = CorpusSpec.parse("../data/BC5CDR-IOB/:Chemical=chemical,Disease=disease")
    assert (s.name, s.directory, s.tags) == ("BC5CDR-IOB", "../data/BC5CDR-IOB/",
                                             {"Chemical": "chemical", "Disease": "disease"})


def test_make_examples_labels_and_truncation(tok):
    s = Sentence("aspirin and heart failure", {"chemical": [(0, 7)], "disease": [(12, 25)]})
    q = {"chemical": "Can you detect chemical entities ?", "disease": "Can you detect disease entities ?"}
    ex = make_examples("c", [s], ["chemical", "disease"], q, tok, 64)
    assert [e.etype for e in ex] == ["chemical", "disease"]
    d = ex[1]
    assert d.starts[:6] == [-100, 0, 0, 1, 0, -100] and d.ends[:6] == [-100, 0, 0, 0, 1, -100]
    assert all(v == -100 for v in d.starts[5:])
    short = make_examples("c", [s], ["disease"], q, tok, 3 + len(tok.tokenize(q["disease"])) + 3)[0]
    # a mention cut by truncation is labelled up to the cut (gold keeps the full span)
    assert len(short.pieces) == 3 and short.starts[3] == 1 and short.ends[3] == 1 and short.gold == [(12, 25)]
    with pytest.raises(ValueError, match="leaves no room"):
        make_examples("c", [s], ["disease"], q, tok, 5)
    b = collate(ex)
    m = context_mask(b["attention_mask"], b["token_type_ids"])
    assert m[0].tolist()[:6] == [False, True, True, True, True, False]
    assert b["input_ids"].dtype == torch.long


# --- make_tokenizer -----------------------------------------------------------------------

def test_make_tokenizer_from_vocab_txt(tmp_path, tok):
    from bioner_mrc import make_tokenizer

    words = sorted(tok.vocab, key=tok.vocab.get)
    (tmp_path / "vocab.txt").write_text("".join(w + "\n" for w in words), encoding="utf-8")
    out = tmp_path / "tokenizer.json"
    assert make_tokenizer.main(["--vocab", str(tmp_path / "vocab.txt"), "--uncased", "--out", str(out)]) == 0
    made = WordPieceTokenizer(str(out))
    text = "Sjögren's α-synuclein, BRCA1 and xyzzy"
    assert made.tokenize(text) == tok.tokenize(text)
    assert made.vocab == tok.vocab
    (tmp_path / "bad.txt").write_text("a\nb\n", encoding="utf-8")
    assert make_tokenizer.main(["--vocab", str(tmp_path / "bad.txt"), "--cased", "--out", str(out)]) == 2


def test_epoch_sample_keeps_every_positive_and_a_fresh_share_of_negatives():
    from types import SimpleNamespace
    from bioner_mrc.train import batches_for_epoch, epoch_sample
    examples = [SimpleNamespace(gold=[(0, 1)] if i % 4 == 0 else [], ids=[0] * (i % 7 + 3)) for i in range(100)]
    positives = {i for i, e in enumerate(examples) if e.gold}
    first = epoch_sample(examples, 0.5, seed=1, epoch=0)
    second = epoch_sample(examples, 0.5, seed=1, epoch=1)
    assert positives <= set(first) and positives <= set(second)
    assert len(first) == len(second) == 25 + round(75 * 0.5)
    assert set(first) != set(second)  # another draw of negatives each epoch
    assert first == epoch_sample(examples, 0.5, seed=1, epoch=0)  # resumable: the same draw again
    assert sorted(epoch_sample(examples, 1.0, seed=1, epoch=0)) == list(range(100))
    batches = batches_for_epoch(examples, 8, seed=1, epoch=0, negative_rate=0.5)
    assert sorted(i for b in batches for i in b) == sorted(first)


def test_spanish_queries_in_each_style():
    sents = sentences_with(["zinc", "zinc", "zinc", "iron", "iron", "lead", "copper", "copper", "gold"])
    assert build_queries(sents, ["chemical"], "paper", "frequent", language="es") == {
        "chemical": "¿ Puedes detectar entidades de sustancias químicas como zinc o copper o iron ?"}
    assert build_queries(sents, ["protein"], "simple", language="es") == {
        "protein": "¿ Puedes detectar entidades de proteínas y genes ?"}
    assert build_queries(sents, ["normalizable"], "guideline", language="es")["normalizable"].startswith(
        "¿ Puedes detectar entidades de sustancias químicas normalizables ? Son fármacos")
    with pytest.raises(ValueError, match="unknown query language"):
        build_queries(sents, ["chemical"], "simple", language="fr")


def test_definition_queries_state_what_the_type_is():
    sents = sentences_with(MENTIONS)
    q = build_queries(sents, ["chemical", "species"], "definition")
    assert q["chemical"] == ("Can you detect chemical entities ? By definition , a chemical is a substance with a "
                             "definite composition, such as an element, a compound or a drug .")
    assert q["species"].startswith("Can you detect species entities ? By definition , a species is")
    with pytest.raises(ValueError, match="no definition for type 'drug'"):
        build_queries(sents, ["drug"], "definition")
