"""The one manifest writer: format, file hashes, and the job's schema checked before anything is written."""
import json
import os

import pytest

from bioner_mrc import bundle_writer


def minimal(**kw):
    return {"name": "tiny", "version": "0.0.1", "max_sequence_length": 48,
            "entity_types": [{"name": "chemical", "query": "Can you detect chemical entities ?"}], **kw}


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "model.onnx").write_bytes(b"graph")
    (tmp_path / "tokenizer.json").write_text("{}")
    return tmp_path


def test_writes_the_format_and_the_hashes_of_the_files_now_in_the_folder(folder):
    written = bundle_writer.write(str(folder), minimal(files={"model.onnx": "stale"}))
    with open(folder / "bundle.json", encoding="utf-8") as f:
        assert json.load(f) == written
    assert written["format"] == 1
    assert written["files"] == {"model.onnx": bundle_writer.sha256(str(folder / "model.onnx")),
                                "tokenizer.json": bundle_writer.sha256(str(folder / "tokenizer.json"))}
    assert written["files"]["model.onnx"] != "stale"


@pytest.mark.parametrize("manifest, field", [
    (minimal(max_sequence_length=4), "max_sequence_length"),
    ({k: v for k, v in minimal().items() if k != "entity_types"}, "entity_types"),
    (minimal(entity_types=[{"name": "chemical"}]), "entity_types/0"),
])
def test_a_manifest_the_job_would_refuse_is_never_written(folder, manifest, field):
    with pytest.raises(bundle_writer.InvalidManifest, match=field.split("/")[0]):
        bundle_writer.write(str(folder), manifest)
    assert not os.path.exists(folder / "bundle.json")


def test_the_schema_is_the_repository_one():
    assert bundle_writer.SCHEMA.endswith(os.path.join("schemas", "bundle.schema.json"))
    assert os.path.isfile(bundle_writer.SCHEMA)
