"""Combined feature attention and corpus tags (seed 003) in training, evaluation and export.

The job's annotator is Java (``../bioner annotate``); here a stand-in script writes annotations in
its format, so these tests need no JVM. The Java side checks its own annotator against the fixtures
of a real syntax bundle (``OrtSyntaxSessionTest``)."""
import json
import os
import sys
import textwrap

import onnx
import pytest
import torch

from bioner_mrc import export, syntax, train
from bioner_mrc.mrc import CombinedFeatureAttention
from bioner_mrc.queries import questions

FAKE_ANNOTATOR = textwrap.dedent('''
    import json, sys
    from bioner_mrc.corpus import read_iob
    from bioner_mrc.wordpiece import WordPieceTokenizer
    args = sys.argv[2:]
    tok = WordPieceTokenizer(args[args.index("--tokenizer") + 1])
    texts = [s.text for i, a in enumerate(args) if a == "--iob" for s in read_iob(args[i + 1], {})]
    with open(args[args.index("--out") + 1], "w", encoding="utf-8") as f:
        for text in dict.fromkeys(texts):
            n = len(tok.tokenize(text))
            row = {"text": text,
                   "pos": [[[p, "P%d" % (p % 3)], [max(0, p - 1), "P%d" % (max(0, p - 1) % 3)]] for p in range(n)],
                   "chunk": [[[p, "C"], [0, "C"]] for p in range(n)],
                   "dep": [[[p, "D%d" % (p % 2)]] + [[q, "D%d" % (q % 2)] for q in range(n) if q != p][:9] for p in range(n)]}
            f.write(json.dumps(row) + "\\n")
''')


@pytest.fixture
def fake_annotator(tmp_path, monkeypatch):
    script = tmp_path / "bioner"
    script.write_text(f"#!{sys.executable}\n" + FAKE_ANNOTATOR)
    script.chmod(0o755)
    monkeypatch.setenv("BIONER", str(script))
    monkeypatch.setenv("BIONER_ANNOTATIONS", str(tmp_path / "annotations"))
    monkeypatch.setenv("PYTHONPATH", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return script


def test_inputs_keep_contexts_inside_the_context_up_to_the_width_with_training_label_ids():
    annotations = {"a b c": {"pos": [[(0, "X"), (2, "Y")], [(1, "Z"), (0, "X"), (2, "X")], [(2, "Y")]],
                             "chunk": [[]] * 3, "dep": [[]] * 3}}
    spec = {"kinds": [{"kind": "pos", "width": 2, "labels": ["X", "Y"]}]}
    (positions, labels), = syntax.SyntaxInputs(spec, annotations).encode("a b c", 2, 6)
    assert positions == [[0, 0], [1, 0], [2, 1], [0, 0], [0, 0], [0, 0]]  # piece 2 was cut off
    assert labels == [[0, 0], [2, 0], [1, 2], [0, 0], [0, 0], [0, 0]]  # Z unseen in training: 1
    with pytest.raises(KeyError, match="no syntax annotation"):
        syntax.SyntaxInputs(spec, annotations).encode("unknown", 1, 3)


def test_attention_is_zero_without_context_and_padding_changes_nothing():
    torch.manual_seed(0)
    cfa = CombinedFeatureAttention(8, 3).eval()
    h = torch.randn(1, 4, 8)
    positions = torch.tensor([[[0, 0], [1, 2], [3, 0], [0, 0]]])
    labels = torch.tensor([[[0, 0], [1, 3], [2, 0], [0, 0]]])
    out = cfa(h, positions, labels)
    assert torch.all(out[0, 0] == 0) and torch.all(out[0, 3] == 0)
    padded = cfa(torch.cat([h, torch.randn(1, 2, 8)], 1), torch.cat([positions, torch.zeros(1, 2, 2).long()], 1),
                 torch.cat([labels, torch.zeros(1, 2, 2).long()], 1))
    assert torch.allclose(padded[:, :4], out, atol=1e-6)


def test_questions_carry_the_corpus_tag_or_the_types_default():
    meta = {"queries": {"disease": "Q ?"}, "corpus_tags": {"corpora": ["BC5CDR", "NCBI-disease"],
                                                            "defaults": {"disease": "BC5CDR"}}}
    assert questions(meta, "NCBI-disease-IOB", ["disease"]) == {"disease": "<NCBI-disease> Q ? </NCBI-disease>"}
    assert questions(meta, "other-IOB", ["disease"]) == {"disease": "<BC5CDR> Q ? </BC5CDR>"}
    assert questions({"queries": {"disease": "Q ?"}}, "NCBI-disease-IOB", ["disease"]) == {"disease": "Q ?"}


def test_a_syntax_model_with_corpus_tags_trains_evaluates_and_exports(fake_annotator, plain_bert_dir, tokenizer_path,
                                                                      corpus_dir, tmp_path, capsys):
    from bioner_mrc import evaluate
    out = str(tmp_path / "run")
    corpus = f"{corpus_dir}:Chemical=chemical,Disease=disease"
    rc = train.main(["--hf-checkpoint", plain_bert_dir, "--tokenizer", tokenizer_path, "--corpus", corpus,
                     "--out", out, "--epochs", "1", "--max-steps", "4", "--batch-size", "8", "--max-len", "48",
                     "--threads", "1", "--checkpoint-every", "1000", "--syntax", "pos,dep", "--corpus-tags"])
    torch.set_num_threads(1)
    assert rc == 0
    meta = torch.load(os.path.join(out, "best.pt"), map_location="cpu")["meta"]
    assert [k["kind"] for k in meta["syntax"]["kinds"]] == ["pos", "dep"]
    assert meta["syntax"]["kinds"][0]["labels"] == ["P0", "P1", "P2"]
    assert meta["corpus_tags"] == {"corpora": ["TINY"], "defaults": {"chemical": "TINY", "disease": "TINY"}}

    assert evaluate.main(["--checkpoint", os.path.join(out, "best.pt"), "--corpus", corpus, "--threads", "1"]) == 0
    assert "TINY-IOB/chemical" in capsys.readouterr().out

    bundle = str(tmp_path / "bundle")
    manifest = export.export_bundle(os.path.join(out, "best.pt"), tokenizer_path, bundle, "tiny-cfa", "0.0.1",
                                    evaluate=[corpus])
    assert manifest["syntax"] == meta["syntax"] and manifest["corpus_tags"] == meta["corpus_tags"]
    graph = onnx.load(os.path.join(bundle, "model.onnx")).graph
    assert [i.name for i in graph.input] == ["input_ids", "attention_mask", "token_type_ids",
                                             "syntax_pos_positions", "syntax_pos_labels",
                                             "syntax_dep_positions", "syntax_dep_labels"]
    with open(os.path.join(bundle, "fixtures.json"), encoding="utf-8") as f:
        row = json.load(f)["sentences"][0]
    assert row["query"].startswith("<TINY> ") and row["query"].endswith(" </TINY>")
    assert len(row["syntax_dep_positions"]) == len(row["input_ids"]) and len(row["syntax_dep_positions"][0]) == 8
