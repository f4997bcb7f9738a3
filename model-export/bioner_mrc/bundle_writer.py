"""The one writer of a bundle's manifest (``bundle.json``) for export, quantize and the tiny test bundles.

It stamps the format and the SHA-256 of the bundle's files, and checks the manifest against
``schemas/bundle.schema.json`` (the contract the Java job reads) before anything is written, so a
manifest the job would refuse never reaches a bundle folder.
"""
import hashlib
import json
import os
from typing import Dict

FORMAT = 1
FILES = ("model.onnx", "tokenizer.json")
SCHEMA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas",
                                       "bundle.schema.json"))


class InvalidManifest(ValueError):
    """The manifest does not meet ``schemas/bundle.schema.json``; the message names the field."""


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def validate(manifest: Dict, schema_path: str = SCHEMA):
    import jsonschema

    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(manifest), key=lambda e: list(e.path))
    if errors:
        where = "/".join(str(p) for p in errors[0].path) or "(top level)"
        raise InvalidManifest(f"bundle.json would not load in the job: {where}: {errors[0].message}"
                              + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""))


def write(out: str, manifest: Dict) -> Dict:
    """Writes ``out/bundle.json``: ``manifest`` with the format and the hashes of the files now in ``out``,
    validated first. Returns the manifest as written."""
    written = {"format": FORMAT, **{k: v for k, v in manifest.items() if k not in ("format", "files")},
               "files": {name: sha256(os.path.join(out, name)) for name in FILES}}
    validate(written)
    path = os.path.join(out, "bundle.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(written, f, ensure_ascii=False, indent=2)
    os.replace(path + ".tmp", path)
    return written
