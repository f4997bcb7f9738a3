import json
import os

import numpy as np
import onnx
import pytest
import torch

from bioner_mrc import evaluate as evaluate_cli
from bioner_mrc import export, gate
from bioner_mrc.checkpoint import load_checkpoint, round_fp16
from bioner_mrc.features import Example
from bioner_mrc.wordpiece import WordPieceTokenizer


def example(text, etype, gold):
    return Example("C", etype, text, [], [], [], [], [], gold)


def test_gate_table_counts_passes_and_drops_the_spans_of_skipped_types():
    examples = [example("s0", "chemical", [(0, 1)]), example("s0", "disease", [(2, 3)]),
                example("s1", "chemical", []), example("s1", "disease", [(4, 5)])]
    spans = [[(0, 1)], [(2, 3)], [(7, 8)], [(4, 5)]]
    probabilities = torch.tensor([[0.9, 0.01], [0.3, 0.6]])
    rows = gate.gate_table(examples, spans, [0, 0, 1, 1], probabilities, ["chemical", "disease"], (0.5, 0.2))
    none, half, fifth = rows
    assert none["threshold"] is None and none["passes"] == 4 and none["saved"] == 0.0
    assert none["f1"] == {"C/chemical": 66.67, "C/disease": 100.0}
    # 0.5 keeps chemical in s0 and disease in s1: 2 sentence passes + 2 questions; s0's disease is lost
    assert half["passes"] == 4 and half["saved"] == 0.0
    assert half["f1"] == {"C/chemical": 100.0, "C/disease": 66.67}
    # 0.2 also keeps s1's chemical, whose false positive comes back; the gate costs a pass more than none
    assert fifth["passes"] == 5 and fifth["saved"] == -25.0
    assert fifth["f1"]["C/chemical"] == 66.67


def test_a_type_the_corpus_does_not_annotate_teaches_the_gate_nothing():
    torch.manual_seed(0)
    states = torch.randn(400, 8)
    labels = torch.stack([(states[:, 0] > 0.5).float(), torch.ones(400)], 1)
    data = [gate.Labelled(states[i:i + 20].half(), labels[i:i + 20], torch.tensor([1.0, 0.0]))
            for i in range(0, 400, 20)]
    torch.manual_seed(42)
    untrained = gate.PresenceGate(8, 2).probe.weight.detach().clone()
    trained = gate.train_gate(data, 8, 2, epochs=60, lr=0.05, batch_pieces=100)
    assert torch.equal(trained.probe.weight[1], untrained[1])
    p = torch.sigmoid(trained(states))[:, 0]
    assert p[states[:, 0] > 1.0].min() > 0.5 > p[states[:, 0] < 0.0].max()
    assert trained.sentence_probabilities(states[:0].half()).tolist() == [0.0, 0.0]


def test_gate_cli_reports_the_ungated_f1_of_evaluate(trained, tokenizer_path, corpus_dir, tmp_path, capsys):
    best = os.path.join(trained[0], "best.pt")
    common = ["--checkpoint", best, "--tokenizer", tokenizer_path, "--threads", "1",
              "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease"]
    assert evaluate_cli.main(common + ["--json", str(tmp_path / "scores.json")]) == 0
    assert gate.main(common + ["--out", str(tmp_path / "gate.pt")]) == 0
    assert "| no gate | 0.0% |" in capsys.readouterr().out
    with open(tmp_path / "scores.json", encoding="utf-8") as f:
        scores = json.load(f)["scores"]
    saved = torch.load(tmp_path / "gate.pt")
    assert saved["types"] == ["chemical", "disease"] and saved["weight"].shape[0] == 2
    rows = saved["measured"]
    assert [r["threshold"] for r in rows] == [None, *gate.THRESHOLDS]
    assert rows[0]["f1"] == {k: v["f1"] for k, v in scores.items()}
    assert all(r["passes"] <= 12 * 3 for r in rows[1:])  # 12 test sentences: at most 1 + 2 passes each


def rows_of(base, *measured):
    """Measured-table rows: the ungated F1s, then (threshold, saved %, F1s) per threshold."""
    return {"measured": [{"threshold": None, "saved": 0.0, "f1": base}]
            + [{"threshold": t, "saved": s, "f1": f} for t, s, f in measured], "split": "test"}


def test_the_gate_is_on_at_the_most_saving_threshold_within_the_allowed_loss():
    saved = rows_of({"a/x": 90.0, "b/y": 80.0},
                    (0.5, 60.0, {"a/x": 89.0, "b/y": 80.0}),   # loses 1.0: too much
                    (0.2, 50.0, {"a/x": 89.85, "b/y": 79.9}),  # loses 0.15: the pick
                    (0.1, 40.0, {"a/x": 90.0, "b/y": 80.0}))
    spec = gate.choose_gate(saved)
    assert (spec["threshold"], spec["enabled"], spec["max_f1_loss"], spec["passes_saved_percent"]) == (0.2, True, 0.15, 50.0)
    assert spec["output"] == "presence_logits" and spec["measured"] == saved["measured"]
    forced = gate.choose_gate(saved, 0.5)
    assert (forced["threshold"], forced["enabled"], forced["max_f1_loss"]) == (0.5, False, 1.0)
    with pytest.raises(ValueError, match="was not measured"):
        gate.choose_gate(saved, 0.3)


def test_a_gate_that_saves_no_pass_within_the_allowed_loss_is_shipped_off():
    # the default's measurement: only thresholds so low that the gate's own pass costs more than it skips
    saved = rows_of({"a/x": 90.0}, (0.5, 45.0, {"a/x": 85.0}), (0.02, -5.1, {"a/x": 89.96}),
                    (0.01, -11.4, {"a/x": 90.0}))
    spec = gate.choose_gate(saved)
    assert (spec["threshold"], spec["enabled"], spec["max_f1_loss"]) == (0.01, False, 0.0)


def test_a_gate_that_costs_too_much_everywhere_is_shipped_off_at_its_cheapest_threshold():
    saved = rows_of({"a/x": 90.0}, (0.5, 60.0, {"a/x": 85.0}), (0.1, 30.0, {"a/x": 89.5}))
    spec = gate.choose_gate(saved)
    assert (spec["threshold"], spec["enabled"], spec["max_f1_loss"]) == (0.1, False, 0.5)


def test_export_with_a_gate_adds_the_presence_output_and_keeps_the_spans(trained, tokenizer_path, corpus_dir,
                                                                          tmp_path, capsys):
    best = os.path.join(trained[0], "best.pt")
    gate_pt = str(tmp_path / "gate.pt")
    assert gate.main(["--checkpoint", best, "--tokenizer", tokenizer_path, "--threads", "1",
                      "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--out", gate_pt]) == 0
    plain = export.export_bundle(best, tokenizer_path, str(tmp_path / "plain"), "tiny", "0.0.1")
    m = export.export_bundle(best, tokenizer_path, str(tmp_path / "gated"), "tiny", "0.0.1", gate=gate_pt)
    assert m["outputs"] == {"start": "start_logits", "end": "end_logits", "presence": "presence_logits"}
    assert m["gate"]["output"] == "presence_logits" and m["gate"]["threshold"] in gate.THRESHOLDS
    assert m["gate"]["measured"] == torch.load(gate_pt)["measured"]
    assert "presence" not in plain["outputs"] and "gate" not in plain
    graph = onnx.load(str(tmp_path / "gated" / "model.onnx")).graph
    assert [o.name for o in graph.output] == ["start_logits", "end_logits", "presence_logits"]
    with open(tmp_path / "gated" / "fixtures.json", encoding="utf-8") as f:
        fx = json.load(f)
    with open(tmp_path / "plain" / "fixtures.json", encoding="utf-8") as f:
        assert json.load(f)["sentences"] == fx["sentences"]  # the MRC passes are the shipped model's, gate or not
    assert len(fx["gate"]) == 4
    row = fx["gate"][0]
    assert row["token_type_ids"] == [0] * len(row["input_ids"]) and len(row["presence_logits"][0]) == 2
    # the gate's probe over the query-free pass, as bioner_mrc.gate computes it
    loaded = load_checkpoint(best)
    round_fp16(loaded.model)
    states = gate.piece_states(loaded.model, WordPieceTokenizer(tokenizer_path), [row["text"]], 48)[1]
    probe = torch.load(gate_pt)
    expected = states[0].float() @ probe["weight"].T + probe["bias"]
    assert np.allclose(np.array(row["presence_logits"])[1:-1], expected.numpy(), atol=1e-2)
    with pytest.raises(ValueError, match="differ from the model's"):
        bad = torch.load(gate_pt)
        bad["types"] = ["chemical", "species"]
        torch.save(bad, tmp_path / "bad.pt")
        export.export_bundle(best, tokenizer_path, str(tmp_path / "bad"), "tiny", "0.0.1", gate=str(tmp_path / "bad.pt"))


def test_the_tiny_gated_bundle_of_the_java_tests_is_what_tiny_bundle_writes(tmp_path):
    from bioner_mrc import tiny_bundle
    committed = os.path.join(os.path.dirname(__file__), "..", "..", "job", "src", "test", "resources", "bundles",
                             "tiny-gated")
    m = tiny_bundle.write(str(tmp_path))
    with open(os.path.join(committed, "bundle.json"), encoding="utf-8") as f:
        shipped = json.load(f)
    assert m["gate"]["output"] == shipped["gate"]["output"] == "presence_logits"
    assert shipped["outputs"]["presence"] == "presence_logits" and shipped["gate"]["enabled"] is True
    with open(os.path.join(committed, "fixtures.json"), encoding="utf-8") as f:
        expected = json.load(f)
    with open(tmp_path / "fixtures.json", encoding="utf-8") as f:
        got = json.load(f)
    for a, b in zip(expected["gate"], got["gate"]):
        assert a["input_ids"] == b["input_ids"]
        assert np.allclose(a["presence_logits"], b["presence_logits"], atol=1e-4)
    torch.set_num_threads(1)
