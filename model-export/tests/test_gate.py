import json
import os

import torch

from bioner_mrc import evaluate as evaluate_cli
from bioner_mrc import gate
from bioner_mrc.features import Example


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
