"""Error analysis: every FP/FN kind on hand-made spans, the sums, the table and the CLI."""
import json
import os
from collections import Counter

import pytest

from bioner_mrc import errors
from bioner_mrc import evaluate as evaluate_cli
from bioner_mrc.corpus import CorpusSpec
from bioner_mrc.errors import FN_KINDS, FP_KINDS, Row, classify_sentence, error_table, is_abbreviation
from bioner_mrc.features import Example

from conftest import write_iob

TEXT = ("Aspirin and lithium carbonate caused severe liver toxicity , DM , HBV , heart failure and acute renal "
        "failure after 5 - FU , MTX or cocaine in rats with NO seizures and morphine .")


def at(phrase, after=None):
    """Character span of ``phrase`` in TEXT (the first one after ``after``, a phrase, if given)."""
    start = TEXT.index(phrase, TEXT.index(after) if after else 0)
    return start, start + len(phrase)


GOLD = {
    "chemical": [at("Aspirin"), at("lithium carbonate"), at("5 - FU"), at("MTX"), at("cocaine"), at("morphine")],
    "disease": [at("liver toxicity"), at("DM"), at("HBV"), at("heart failure"), at("acute renal failure"),
                at("seizures")],
}
PREDICTED = {
    "chemical": [at("Aspirin"), at("5 - FU")],
    "disease": [
        at("severe liver toxicity"),  # long
        at("failure", after="heart"),  # short
        at("renal failure after"),  # shifted
        at("MTX"),  # a gold chemical: type_exact
        at("lithium"),  # inside the gold chemical "lithium carbonate": type_overlap
        at("NO"),  # spurious_abbr
        at("rats"),  # spurious_other
    ],
}
SEEN = {"chemical": {"aspirin"}, "disease": {"dm", "seizures"}}
CONTEXT_END = {"chemical": at("and morphine")[0]}  # the chemical context was cut before "morphine"


@pytest.mark.parametrize("text, expected", [
    ("DM", True), ("5 - FU", True), ("NSAID", True), ("IL - 2", True), ("mRNA", True), ("BRCA1", True),
    ("CO2", True), ("Ca", False), ("aspirin", False), ("Aspirin", False), ("IFN - gamma", False), ("12", False),
    ("A", False), ("ABCDEFGHIJK", False), ("A B C D", False), ("heart failure", False),
])
def test_is_abbreviation(text, expected):
    assert is_abbreviation(text) is expected


def test_every_kind_on_one_sentence():
    r = classify_sentence(TEXT, GOLD, PREDICTED, SEEN, CONTEXT_END)
    dis, chem = r["disease"], r["chemical"]
    assert dis.tp == []
    assert {TEXT[a:b]: k for k, (a, b) in dis.fp} == {
        "severe liver toxicity": "long", "failure": "short", "renal failure after": "shifted", "MTX": "type_exact",
        "lithium": "type_overlap", "NO": "spurious_abbr", "rats": "spurious_other"}
    assert {TEXT[a:b]: k for k, (a, b) in dis.fn} == {
        "liver toxicity": "boundary", "heart failure": "boundary", "acute renal failure": "boundary",
        "DM": "abbr_seen", "HBV": "abbr_unseen", "seizures": "other_seen"}
    assert [TEXT[a:b] for a, b in chem.tp] == ["Aspirin", "5 - FU"]
    assert chem.fp == []
    assert {TEXT[a:b]: k for k, (a, b) in chem.fn} == {
        "lithium carbonate": "type", "MTX": "type", "cocaine": "other_unseen", "morphine": "truncated"}
    kinds = {k for k, _ in dis.fp} | {k for k, _ in chem.fp}
    assert kinds == set(FP_KINDS)
    assert {k for k, _ in dis.fn} | {k for k, _ in chem.fn} == set(FN_KINDS)


def test_every_fn_kind_and_the_priorities():
    text = "DM and X1 and gout and IL - 2 in mice and dogs"
    g = lambda s: (text.index(s), text.index(s) + len(s))  # noqa: E731
    gold = {"disease": [g("DM"), g("X1"), g("gout"), g("IL - 2"), g("mice"), g("dogs")]}
    pred = {"disease": [g("IL - 2 in")]}  # overlaps IL - 2: boundary beats abbreviation
    r = classify_sentence(text, gold, pred, {"disease": {"dm", "gout"}}, {"disease": g("dogs")[0]})["disease"]
    assert {text[a:b]: k for k, (a, b) in r.fn} == {
        "DM": "abbr_seen", "X1": "abbr_unseen", "gout": "other_seen", "IL - 2": "boundary",
        "mice": "other_unseen", "dogs": "truncated"}
    assert [k for k, _ in r.fp] == ["long"]
    # without seen mentions everything is unseen; with no other types there is no type confusion
    r = classify_sentence(text, gold, {"disease": []})["disease"]
    assert Counter(k for k, _ in r.fn) == {"abbr_unseen": 3, "other_unseen": 3}


def test_a_span_over_two_mentions_is_long_and_both_are_boundary_misses():
    text = "heart and liver failure"
    gold = {"disease": [(0, 5), (10, 23)]}
    r = classify_sentence(text, gold, {"disease": [(0, 23)]})["disease"]
    assert r.fp == [("long", (0, 23))]
    assert [k for k, _ in r.fn] == ["boundary", "boundary"]


def example(corpus, etype, text, gold):
    return Example(corpus, etype, text, [], [], [], [], [], list(gold))


def test_error_table_sums_rows_and_markdown():
    examples, predicted = [], []
    # a two-type corpus: the sentence above, chemical then disease (the order collect_examples uses)
    for t in ("chemical", "disease"):
        examples.append(example("CDR", t, TEXT, GOLD[t]))
        predicted.append(PREDICTED[t])
    # the same text again, a second sentence: everything right
    for t in ("chemical", "disease"):
        examples.append(example("CDR", t, TEXT, GOLD[t]))
        predicted.append(GOLD[t])
    # a single-type corpus: a sentence without gold and one FP, one with gold and nothing predicted
    examples += [example("ONE", "disease", "no sign of DM", []),
                 example("ONE", "disease", "gout and DM", [(0, 4), (9, 11)])]
    predicted += [[(11, 13)], []]
    context_end = [CONTEXT_END["chemical"], None, None, None, None, None]
    assert [len(g) for g in errors.sentence_groups(examples)] == [2, 2, 1, 1]
    rows = error_table(examples, predicted, {"CDR": ["chemical", "disease"], "ONE": ["disease"]}, SEEN, context_end)
    table = {k: r.to_dict() for k, r in rows.items()}
    assert list(table) == ["CDR/chemical", "CDR/disease", "ONE/disease"]
    chem, dis, one = table["CDR/chemical"], table["CDR/disease"], table["ONE/disease"]
    assert (chem["tp"], chem["fp"], chem["fn"]) == (2 + 6, 0, 4)
    assert chem["fn_kinds"] == {"truncated": 1, "boundary": 0, "type": 2, "abbr_seen": 0, "abbr_unseen": 0,
                                "other_seen": 0, "other_unseen": 1}
    assert (dis["tp"], dis["fp"], dis["fn"]) == (6, 7, 6)
    assert dis["fp_kinds"] == dict.fromkeys(FP_KINDS, 1)
    assert dis["fn_kinds"]["boundary"] == 3 and dis["fp_no_gold"] == 0 and dis["fn_silent"] == 0
    assert chem["fn_silent"] == 0
    assert dis["type_confusion_measurable"] and not one["type_confusion_measurable"]
    assert (one["tp"], one["fp"], one["fn"]) == (0, 1, 2)
    assert one["fp_kinds"]["spurious_abbr"] == 1 and one["fp_no_gold"] == 1
    assert one["fn_kinds"]["other_unseen"] == 1 and one["fn_kinds"]["abbr_seen"] == 1 and one["fn_silent"] == 2
    for d in table.values():  # the kinds add up
        assert sum(d["fp_kinds"].values()) == d["fp"] and sum(d["fn_kinds"].values()) == d["fn"]
    assert dis["top_fp"][0] == ("MTX", 1) and ("DM", 1) in dis["top_fn"]
    md = errors.markdown(table)
    lines = md.splitlines()
    assert lines[0].startswith("| corpus/type | TP | FP | FN |")
    one_fp = next(line for line in lines if line.startswith("| ONE/disease | 0 | 1 | 2 |"))
    assert one_fp.count("n/a") == 2 and "DM (1)" in one_fp
    one_fn = next(line for line in lines if line.startswith("| ONE/disease | 2 |"))
    assert one_fn.count("n/a") == 1
    assert all(line.count("|") == lines[0].count("|") for line in lines[:5])


def test_row_refuses_unknown_kinds_and_type_confusion_in_single_type_corpora():
    r = Row()
    r.fp["boundary"] += 1
    with pytest.raises(AssertionError):
        r.to_dict()
    r = Row(multi_type=False)
    r.fn["type"] += 1
    with pytest.raises(AssertionError):
        r.to_dict()


def test_markdown_escapes_pipes():
    assert errors._texts([("a|b", 2), ("c", 1)]) == "a\\|b (2), c (1)"


def test_seen_mentions(tmp_path):
    d = tmp_path / "C-IOB"
    d.mkdir()
    write_iob(d / "train.tsv", [[("DM", "B-Disease"), ("and", "O"), ("Aspirin", "B-Chemical")]])
    write_iob(d / "devel.tsv", [[("heart", "B-Disease"), ("failure", "I-Disease")]])
    write_iob(d / "test.tsv", [[("gout", "B-Disease")]])
    spec = CorpusSpec.parse(f"{d}:Disease=disease,Chemical=chemical")
    assert errors.seen_mentions([spec], "test") == {"disease": {"dm", "heart failure"}, "chemical": {"aspirin"}}
    assert errors.seen_mentions([spec], "devel") == {"disease": {"dm"}, "chemical": {"aspirin"}}


def test_errors_cli_agrees_with_evaluate(trained, tokenizer_path, corpus_dir, tmp_path, capsys):
    best = os.path.join(trained[0], "best.pt")
    corpus = ["--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease"]
    common = ["--checkpoint", best, "--tokenizer", tokenizer_path, "--threads", "1", "--fp16"] + corpus
    assert evaluate_cli.main(common + ["--json", str(tmp_path / "scores.json")]) == 0
    assert errors.main(common + ["--json", str(tmp_path / "errors.json")]) == 0
    text = capsys.readouterr().out
    assert "| TINY-IOB/chemical |" in text and "| TINY-IOB/disease |" in text and "most frequent FN" in text
    with open(tmp_path / "scores.json", encoding="utf-8") as f:
        scores = json.load(f)["scores"]
    with open(tmp_path / "errors.json", encoding="utf-8") as f:
        rows = json.load(f)["rows"]
    assert set(rows) == set(scores) == {"TINY-IOB/chemical", "TINY-IOB/disease"}
    for key, row in rows.items():
        assert {k: row[k] for k in ("tp", "fp", "fn", "f1")} == {k: scores[key][k] for k in ("tp", "fp", "fn", "f1")}
        assert sum(row["fp_kinds"].values()) == row["fp"] and sum(row["fn_kinds"].values()) == row["fn"]
    assert errors.main(["--checkpoint", best, "--tokenizer", tokenizer_path, "--corpus",
                        f"{corpus_dir}:Disease=species"]) == 2
    assert "unknown to the model" in capsys.readouterr().err
    assert errors.main(["--checkpoint", best, "--corpus", f"{tmp_path}/missing:Disease=disease"]) == 2
    assert "not found" in capsys.readouterr().err
