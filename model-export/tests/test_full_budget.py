"""The default's two-stage recipe for several variants at once, scored on the held-out tenth."""
import json
import os

import pytest

from bioner_mrc import full_budget


def shared(plain_bert_dir, tokenizer_path, corpus_dir):
    return ["--hf-checkpoint", plain_bert_dir, "--tokenizer", tokenizer_path,
            "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--batch-size", "8", "--max-len", "48",
            "--threads", "1", "--checkpoint-every", "1000", "--seed", "3"]


def test_two_variants_train_both_stages_in_parallel_and_share_one_table(plain_bert_dir, tokenizer_path, corpus_dir,
                                                                       tmp_path, capsys):
    out = str(tmp_path / "fb")
    argv = ["--out", out, "--parallel", "2", "--variant", "plain=", "--variant", "tags=--corpus-tags",
            *shared(plain_bert_dir, tokenizer_path, corpus_dir)]
    assert full_budget.main(argv) == 0
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

    # Nothing is trained twice: the same command reads the finished runs back.
    stamp = os.path.getmtime(os.path.join(out, "plain", "stage2", "best.pt"))
    assert full_budget.main(argv) == 0
    assert os.path.getmtime(os.path.join(out, "plain", "stage2", "best.pt")) == stamp


def test_a_failed_variant_is_reported_and_the_others_still_make_the_table(plain_bert_dir, tokenizer_path, corpus_dir,
                                                                          tmp_path, capsys):
    out = str(tmp_path / "fb")
    rc = full_budget.main(["--out", out, "--variant", "plain=", "--variant", "bad=--query-style nonsense",
                           *shared(plain_bert_dir, tokenizer_path, corpus_dir)])
    assert rc == 1
    captured = capsys.readouterr()
    assert "| plain | (none) |" in captured.out and "| bad |" not in captured.out
    assert "variant bad: stage 1 failed" in captured.err and os.path.join(out, "bad", "train.log") in captured.err


@pytest.mark.parametrize("argv, message", [
    (["--variant", "a=--epochs 3"], "--epochs is the recipe's"),
    (["--variant", "a=", "--lr", "1e-3"], "--lr is the recipe's"),
    (["--variant", "a=", "--variant", "a=--corpus-tags"], "variant names must differ"),
    (["--variant", "a="], "give the encoder once"),
])
def test_recipe_options_and_bad_variants_are_refused(argv, message, tmp_path, capsys):
    assert full_budget.main(["--out", str(tmp_path), *argv, "--tokenizer", "t.json", "--corpus", "c:X=x"]) == 2
    assert message in capsys.readouterr().err
