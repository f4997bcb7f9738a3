"""Comparisons of recipes: each variant trained once and scored on the test split, or (--full) trained
with the default's two stages and scored on the held-out tenth; one table either way."""
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
    assert not (tmp_path / "full-budget.md").exists() and not (tmp_path / "paper" / "stage1").exists()


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
    (["--parallel", "2"], "--parallel goes with --full"),
    (["--full"], "--epochs is the recipe's"),
])
def test_bad_variants_are_refused(argv, extra, message, capsys):
    assert budget.main(argv + extra) == 2
    assert message in capsys.readouterr().err


def full_shared(plain_bert_dir, tokenizer_path, corpus_dir):
    return ["--hf-checkpoint", plain_bert_dir, "--tokenizer", tokenizer_path,
            "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--batch-size", "8", "--max-len", "48",
            "--threads", "1", "--checkpoint-every", "1000", "--seed", "3"]


def test_two_variants_train_both_stages_in_parallel_and_share_one_table(plain_bert_dir, tokenizer_path, corpus_dir,
                                                                       tmp_path, capsys):
    out = str(tmp_path / "fb")
    argv = ["--full", "--out", out, "--parallel", "2", "--variant", "plain=", "--variant", "tags=--corpus-tags",
            *full_shared(plain_bert_dir, tokenizer_path, corpus_dir)]
    assert budget.main(argv) == 0
    printed = capsys.readouterr().out
    with open(os.path.join(out, "full-budget.md"), encoding="utf-8") as f:
        text = f.read()
    assert text in printed
    assert "| variant | options | TINY-IOB/chemical | TINY-IOB/disease | pooled |" in text
    assert "| plain | (none) |" in text and "| tags | `--corpus-tags` |" in text

    for name in ("plain", "tags"):
        with open(os.path.join(out, name, "stage1", "training.json"), encoding="utf-8") as f:
            first = json.load(f)
        with open(os.path.join(out, name, "stage2", "training.json"), encoding="utf-8") as f:
            second = json.load(f)
        assert first["args"]["lr"] == 1e-4 and first["args"]["epochs"] == 2 and first["args"]["negative_rate"] == 0.5
        assert second["args"]["lr"] == 5e-5 and second["args"]["head_lr"] == 5e-4 and second["args"]["warmup"] == 0.02
        assert second["args"]["init_from"].endswith(os.path.join(name, "stage1", "best.pt"))
        assert 0 < second["init_from"]["training"]["steps"] <= first["steps"]  # stage 1's best epoch
        assert set(second["holdout_scores"]) == {"all", "TINY-IOB/chemical", "TINY-IOB/disease"}
        assert f"**{second['holdout_f1']:.2f}**" in text
        assert ("corpus_tags" in second) == (name == "tags")
        assert not os.path.exists(os.path.join(out, name, budget.SCORES))  # the test split is left alone
    assert not os.path.exists(os.path.join(out, "budget.md"))

    # Nothing is trained twice: the same command reads the finished runs back.
    stamp = os.path.getmtime(os.path.join(out, "plain", "stage2", "best.pt"))
    assert budget.main(argv) == 0
    assert os.path.getmtime(os.path.join(out, "plain", "stage2", "best.pt")) == stamp


def test_a_failed_variant_is_reported_and_the_others_still_make_the_table(plain_bert_dir, tokenizer_path, corpus_dir,
                                                                          tmp_path, capsys):
    out = str(tmp_path / "fb")
    rc = budget.main(["--full", "--out", out, "--variant", "plain=", "--variant", "bad=--query-style nonsense",
                      *full_shared(plain_bert_dir, tokenizer_path, corpus_dir)])
    assert rc == 1
    captured = capsys.readouterr()
    assert "| plain | (none) |" in captured.out and "| bad |" not in captured.out
    assert "variant bad: stage 1 failed" in captured.err and os.path.join(out, "bad", "train.log") in captured.err


@pytest.mark.parametrize("argv, message", [
    (["--variant", "a=--epochs 3"], "--epochs is the recipe's"),
    (["--variant", "a=", "--lr", "1e-3"], "--lr is the recipe's"),
    (["--variant", "a=", "--variant", "a=--corpus-tags"], "variant names must differ"),
    (["--variant", "a="], "give the encoder once"),
    (["--variant", "a=--out elsewhere"], "--out belongs to the comparison"),
])
def test_recipe_options_and_bad_variants_are_refused(argv, message, tmp_path, capsys):
    assert budget.main(["--full", "--out", str(tmp_path), *argv, "--tokenizer", "t.json", "--corpus", "c:X=x"]) == 2
    assert message in capsys.readouterr().err
