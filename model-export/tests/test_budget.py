"""Fixed-budget comparisons: each variant trained and scored once, one table."""
import json
import os

import pytest
import torch

from bioner_mrc import budget


@pytest.fixture
def argv(tmp_path, plain_bert_dir, tokenizer_path, corpus_dir):
    return ["--out", str(tmp_path), "--variant", "paper=", "--variant", "simple=--query-style simple",
            "--hf-checkpoint", plain_bert_dir, "--tokenizer", tokenizer_path,
            "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--epochs", "1", "--batch-size", "8",
            "--max-len", "48", "--threads", "1", "--log-every", "100", "--seed", "3"]


def test_every_variant_is_trained_with_its_options_scored_and_tabulated(argv, tmp_path, capsys):
    assert budget.main(argv) == 0
    torch.set_num_threads(1)
    table = (tmp_path / "budget.md").read_text(encoding="utf-8")
    assert "| paper | (none) | 14 |" in table
    assert "| simple | `--query-style simple` | 14 |" in table
    assert "TINY-IOB/chemical P / R / F1" in table and "TINY-IOB/disease P / R / F1" in table
    assert table.startswith("Budget: `--hf-checkpoint ")
    queries = {}
    for name in ("paper", "simple"):
        with open(tmp_path / name / "training.json", encoding="utf-8") as f:
            queries[name] = json.load(f)["queries"]["chemical"]
        with open(tmp_path / name / budget.SCORES, encoding="utf-8") as f:
            assert set(json.load(f)["scores"]) == {"TINY-IOB/chemical", "TINY-IOB/disease"}
    assert queries["simple"] == "Can you detect chemical entities ?"
    assert queries["paper"].startswith("Can you detect chemical entities like ")
    assert table in capsys.readouterr().out


def test_the_same_command_again_trains_nothing(argv, tmp_path, capsys):
    assert budget.main(argv) == 0
    best = os.path.getmtime(tmp_path / "paper" / "best.pt")
    first = (tmp_path / "budget.md").read_text(encoding="utf-8")
    capsys.readouterr()
    assert budget.main(argv) == 0
    torch.set_num_threads(1)
    assert "== paper" not in capsys.readouterr().out
    assert os.path.getmtime(tmp_path / "paper" / "best.pt") == best
    assert (tmp_path / "budget.md").read_text(encoding="utf-8") == first


@pytest.mark.parametrize("extra, message", [
    (["--variant", "paper=--epochs 2"], "variant names must differ"),
    (["--variant", "bad name=--epochs 2"], "expected NAME=OPTIONS"),
    (["--variant", "noequals"], "expected NAME=OPTIONS"),
    (["--variant", "x=--out elsewhere"], "--out belongs to the comparison"),
    (["--variant", "x=--resume"], "--resume belongs to the comparison"),
])
def test_bad_variants_are_refused(argv, extra, message, capsys):
    assert budget.main(argv + extra) == 2
    assert message in capsys.readouterr().err
