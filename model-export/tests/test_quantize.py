"""int8 bundles: the graph rewrite of bioner_mrc.quantize and the torch emulation of its arithmetic."""
import json
import os

import numpy as np
import onnx
import pytest
import torch
from onnx import numpy_helper

from bioner_mrc import bundle_writer, export, fixtures, int8, onnx_check, quantize
from bioner_mrc.checkpoint import load_checkpoint

MAX_F1_LOSS = 0.3  # issue 22: what an int8 bundle may lose per corpus/type


@pytest.fixture(scope="module")
def bundles(trained, tokenizer_path, corpus_dir, tmp_path_factory):
    """The trained tiny model exported (float16 storage, scored on its test split) and quantized."""
    root = tmp_path_factory.mktemp("int8")
    corpus = f"{corpus_dir}:Chemical=chemical,Disease=disease"
    source = str(root / "fp16")
    export.export_bundle(os.path.join(trained[0], "best.pt"), tokenizer_path, source, "tiny", "0.0.1",
                         evaluate=[corpus])
    out = str(root / "int8")
    manifest = quantize.quantize_bundle(source, out, evaluate=[corpus])
    torch.set_num_threads(1)
    return source, out, manifest


def test_each_token_is_quantized_by_its_own_range_in_both_implementations():
    x = np.array([[0, 2, -3, -2.5, 1.34, 0.5], [0.25, -1, 0, 0, 0, 0.75], [0, 0, 0, 0, 0, 0]], dtype=np.float32)
    q, scale = int8.per_token_quantize(torch.from_numpy(x))
    assert scale[:, 0].tolist() == pytest.approx([3 / 127, 1 / 127, int8.MIN_RANGE / 127])
    assert q[0].tolist() == [0, 85, -127, -106, 57, 21] and q[1].tolist() == [32, -127, 0, 0, 0, 95]
    assert q[2].tolist() == [0] * 6  # an all-zero token stays zero
    rows = onnx_check._quantize_linear([x, scale[:, 0].numpy(), np.full(3, 128, np.uint8)], {"axis": 0})
    assert rows.dtype == np.uint8 and (rows.astype(int) - 128).tolist() == q.int().tolist()
    alone = int8.per_token_quantize(torch.from_numpy(x[1:2]))[0]
    assert alone.tolist() == q[1:2].tolist()  # a token's integers do not depend on the other rows


def test_weights_are_symmetric_7_bit_per_output_column():
    w = np.array([[0.5, -0.02, 0.0], [-1.0, 0.01, 0.0]], dtype=np.float32)
    q, scale = int8.quantize_weight(w)
    assert q.dtype == np.int8 and q.tolist() == [[32, -64, 0], [-64, 32, 0]]
    assert scale.tolist() == pytest.approx([1 / 64, 0.02 / 64, 1.0])


def test_the_encoder_keeps_no_float_matmul_with_a_weight(bundles):
    _, out, manifest = bundles
    graph = onnx.load(os.path.join(out, "model.onnx")).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    layers = manifest["encoder_config"]["num_hidden_layers"]
    ops = [n.op_type for n in graph.node]
    assert ops.count("MatMulInteger") == 6 * layers and ops.count("QuantizeLinear") == 4 * layers
    assert "DynamicQuantizeLinear" not in ops  # one scale for the whole batch: results changed with the batch
    float_matmuls = [n for n in graph.node if n.op_type == "MatMul"]
    encoder = [n.name for n in float_matmuls if "/layer." in n.name]
    assert len(encoder) == 2 * layers and all(n.endswith(("/self/MatMul", "/self/MatMul_1")) for n in encoder)
    assert not any(i in inits for n in float_matmuls if "/layer." in n.name for i in n.input)
    assert sorted(n.name for n in float_matmuls if "/layer." not in n.name) == [
        "/end_fc/dense_0/MatMul", "/end_fc/dense_1/MatMul", "/start_fc/dense/MatMul"]  # the heads stay float
    for n in graph.node:
        if n.op_type == "MatMulInteger":
            w = inits[n.input[1]]
            assert w.dtype == np.int8 and np.abs(w).max() <= int8.WEIGHT_QMAX
    assert manifest["version"] == "0.0.1-int8" and len(manifest["quantization"]["modules"]) == 6 * layers
    assert manifest["files"]["model.onnx"] == bundle_writer.sha256(os.path.join(out, "model.onnx"))


def test_torch_emulation_computes_what_the_onnx_reference_interpreter_computes(bundles):
    _, out, manifest = bundles
    with open(os.path.join(out, "fixtures.json"), encoding="utf-8") as f:
        stored = json.load(f)
    feeds = fixtures.pad_batch(stored["sentences"])  # padded together
    expected = onnx_check.run_numpy(os.path.join(out, "model.onnx"), feeds, ["start_logits", "end_logits"])
    got = fixtures.torch_logits(load_checkpoint(out).model, feeds)
    for g, e in zip(got, expected):
        assert np.allclose(g, e, atol=1e-4)
    assert manifest["parity"]["torch_emulation_max_abs_diff"] < 1e-4
    alone = stored["sentences"][0]  # and the fixtures are the graph's own, each sentence alone
    start = onnx_check.run_numpy(os.path.join(out, "model.onnx"), fixtures.pad_batch([alone]), ["start_logits"])[0]
    assert np.allclose(start[0], alone["start_logits"], atol=1e-6)
    # ... and the same padded in the batch: a sentence's result does not depend on its neighbours
    length = len(alone["start_logits"])
    assert np.allclose(expected[0][0][:length], alone["start_logits"], atol=1e-6)


def test_int8_arithmetic_is_not_the_float_one_and_loses_little_f1(bundles):
    source, out, manifest = bundles
    model = load_checkpoint(out).model
    assert isinstance(model.bert.encoder.layer[0].attention.self.query, int8.QuantLinear)
    with open(os.path.join(out, "fixtures.json"), encoding="utf-8") as f:
        quantized = json.load(f)["sentences"][0]["start_logits"]
    with open(os.path.join(source, "fixtures.json"), encoding="utf-8") as f:
        floating = json.load(f)["sentences"][0]["start_logits"]
    assert 0 < np.max(np.abs(np.array(quantized) - np.array(floating))) < 0.5
    for key, row in manifest["int8_f1_delta"].items():
        assert row["f1_int8"] == manifest["evaluation"][key]["f1"]
        assert row["delta"] >= -MAX_F1_LOSS, key


def test_training_continues_an_int8_bundle_from_its_dequantized_float_weights(bundles):
    source, out, _ = bundles
    query = load_checkpoint(out, int8_arithmetic=False).model.bert.encoder.layer[0].attention.self.query
    assert type(query) is torch.nn.Linear and query.weight.requires_grad
    floating = load_checkpoint(source).model.bert.encoder.layer[0].attention.self.query.weight.detach()
    weight_q, scale = int8.quantize_weight(floating.T.numpy())
    assert torch.allclose(query.weight.detach(), torch.from_numpy((weight_q * scale).T), atol=1e-7)
    assert not torch.equal(query.weight.detach(), floating)


def test_a_quantized_bundle_is_not_quantized_again(bundles):
    _, out, _ = bundles
    with pytest.raises(ValueError, match="already quantized"):
        quantize.quantize_bundle(out, out + "-again")


def test_the_tiny_int8_bundle_of_the_java_tests_is_what_tiny_bundle_writes(tmp_path):
    from bioner_mrc import tiny_bundle
    committed = os.path.join(os.path.dirname(__file__), "..", "..", "job", "src", "test", "resources", "bundles",
                             "tiny-gated-int8")
    tiny_bundle.main(["--out", str(tmp_path / "fp"), "--int8-out", str(tmp_path / "int8")])
    for name in ("model.onnx", "tokenizer.json"):
        assert bundle_writer.sha256(os.path.join(committed, name)) == bundle_writer.sha256(str(tmp_path / "int8" / name))
    with open(os.path.join(committed, "fixtures.json"), encoding="utf-8") as f:
        expected = json.load(f)
    with open(tmp_path / "int8" / "fixtures.json", encoding="utf-8") as f:
        got = json.load(f)
    for a, b in zip(expected["sentences"] + expected["gate"], got["sentences"] + got["gate"]):
        for key in ("start_logits", "end_logits", "presence_logits"):
            if key in a:
                assert np.allclose(a[key], b[key], atol=1e-5)
    torch.set_num_threads(1)
