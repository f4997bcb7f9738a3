import json
import os
import shutil

import pytest
import torch

from bioner_mrc import bundle_writer, gate_record

TINY_GATED = os.path.join(os.path.dirname(__file__), "..", "..", "job", "src", "test", "resources", "bundles",
                          "tiny-gated")


def measured(*rows):
    """A gate.pt's table: the ungated F1s first, then (threshold, saved %, F1s)."""
    base = {"a/x": 90.0, "b/y": 80.0}
    return {"measured": [{"threshold": None, "saved": 0.0, "f1": base}]
            + [{"threshold": t, "saved": s, "f1": f} for t, s, f in rows], "split": "test"}


@pytest.fixture
def ungated_bundle(tmp_path):
    """The tiny bundle as exported without --gate (its graph's presence output goes unused)."""
    out = tmp_path / "bundle"
    shutil.copytree(TINY_GATED, out)
    with open(out / "bundle.json", encoding="utf-8") as f:
        manifest = json.load(f)
    del manifest["gate"]
    return str(out), bundle_writer.write(str(out), manifest)


def test_a_gate_too_costly_everywhere_is_recorded_off_with_its_table(ungated_bundle, tmp_path):
    bundle, before = ungated_bundle
    saved = measured((0.5, 45.0, {"a/x": 85.0, "b/y": 80.0}), (0.05, 5.0, {"a/x": 89.0, "b/y": 80.0}),
                     (0.02, -5.0, {"a/x": 90.0, "b/y": 79.96}))
    path = tmp_path / "gate.pt"
    torch.save(saved, path)
    assert gate_record.main(["--gate", str(path), "--bundle", bundle, "--measured-with", "tiny:1 float32"]) == 0
    with open(os.path.join(bundle, "bundle.json"), encoding="utf-8") as f:
        after = json.load(f)
    section = after.pop(gate_record.SECTION)
    assert after == before
    # the least costly threshold, off: it saves no pass anyway
    assert (section["threshold"], section["enabled"], section["max_f1_loss"]) == (0.02, False, 0.04)
    assert section["measured"] == saved["measured"] and "output" not in section
    assert section["measured_with"] == "tiny:1 float32"
    bundle_writer.validate(dict(after, **{gate_record.SECTION: section}))


def test_a_gate_that_pays_is_refused_it_belongs_in_the_graph(ungated_bundle):
    bundle, _ = ungated_bundle
    with pytest.raises(ValueError, match="ship it"):
        gate_record.record(bundle, measured((0.2, 30.0, {"a/x": 89.9, "b/y": 80.0})), "tiny:1")


def test_a_bundle_whose_files_changed_is_refused(ungated_bundle):
    bundle, _ = ungated_bundle
    with open(os.path.join(bundle, "tokenizer.json"), "a", encoding="utf-8") as f:
        f.write(" ")
    with pytest.raises(ValueError, match="differ from the hashes"):
        gate_record.record(bundle, measured((0.5, 45.0, {"a/x": 85.0, "b/y": 80.0})), "tiny:1")
