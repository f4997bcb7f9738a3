"""Training a tiny model, exporting it, and ONNX/PyTorch parity."""
import gzip
import hashlib
import json
import os
import re

import numpy as np
import onnx
import pytest
import torch
from onnx import TensorProto, helper, numpy_helper

from bioner_mrc import evaluate as evaluate_cli
from bioner_mrc import export, fixtures, onnx_check, onnx_graph, parity, stored_predictions
from bioner_mrc.checkpoint import load_checkpoint, round_fp16

from conftest import tiny_train_argv, write_hf_dir


def losses(log):
    return [float(m) for m in re.findall(r"^step \d+/\d+ epoch \S+ loss (\S+)", log, re.M)]


def test_training_loss_goes_down(trained):
    out, log = trained
    ls = losses(log)
    assert len(ls) == 40
    first, last = np.mean(ls[:5]), np.mean(ls[-5:])
    assert last < 0.6 * first, (first, last)
    assert os.path.isfile(os.path.join(out, "best.pt"))
    assert os.path.isfile(os.path.join(out, "training.json"))


def test_checkpoint_loads_with_meta(trained):
    loaded = load_checkpoint(os.path.join(trained[0], "best.pt"))
    assert loaded.meta["types"] == ["chemical", "disease"]
    assert loaded.meta["queries"]["chemical"].startswith("Can you detect chemical entities like ")
    assert not loaded.model.training
    assert loaded.info["step"] in (14, 28, 40)


@pytest.fixture(scope="module")
def bundle(trained, tokenizer_path, corpus_dir, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("bundle"))
    manifest = export.export_bundle(os.path.join(trained[0], "best.pt"), tokenizer_path, out, "tiny", "0.0.1",
                                    evaluate=[f"{corpus_dir}:Chemical=chemical,Disease=disease"])
    return out, manifest


def test_bundle_files_and_manifest(bundle, tokenizer_path):
    out, m = bundle
    assert sorted(os.listdir(out)) == ["bundle.json", "fixtures.json", "model.onnx", "predictions.json.gz",
                                       "tokenizer.json"]
    with open(os.path.join(out, "bundle.json"), encoding="utf-8") as f:
        assert json.load(f) == m
    assert m["format"] == 1 and m["name"] == "tiny" and m["version"] == "0.0.1"
    assert m["max_sequence_length"] == 48 and m["lowercase"] is True and m["end_head"] == "eq6"
    assert [t["name"] for t in m["entity_types"]] == ["chemical", "disease"]
    assert m["outputs"] == {"start": "start_logits", "end": "end_logits"}
    assert m["training"]["steps"] in (14, 28, 40) and m["training"]["corpora"][0]["name"] == "TINY-IOB"
    assert m["training"]["query_style"] == "paper"
    assert set(m["evaluation"]) == {"TINY-IOB/chemical", "TINY-IOB/disease"}
    assert set(m["evaluation"]["TINY-IOB/chemical"]) == {"precision", "recall", "f1", "tp", "fp", "fn"}
    assert set(m["fp16_f1_delta"]) == set(m["evaluation"])
    for name, digest in m["files"].items():
        with open(os.path.join(out, name), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest
    assert "/tmp" not in json.dumps(m)
    with open(os.path.join(out, "tokenizer.json"), encoding="utf-8") as f:
        tok = json.load(f)
    assert tok["truncation"] is None and tok["padding"] is None
    with open(tokenizer_path, encoding="utf-8") as f:
        assert tok["model"]["vocab"] == json.load(f)["model"]["vocab"]


def test_onnx_contract_and_fp16_storage(bundle):
    proto = onnx.load(os.path.join(bundle[0], "model.onnx"))
    g = proto.graph
    assert [i.name for i in g.input] == ["input_ids", "attention_mask", "token_type_ids"]
    assert [o.name for o in g.output] == ["start_logits", "end_logits"]
    for i in g.input:
        assert i.type.tensor_type.elem_type == TensorProto.INT64
        assert [d.dim_param for d in i.type.tensor_type.shape.dim] == ["batch", "seq"]
    for o in g.output:
        assert o.type.tensor_type.elem_type == TensorProto.FLOAT
    halves = [i for i in g.initializer if i.data_type == TensorProto.FLOAT16]
    assert halves and all(int(np.prod(i.dims)) >= 1024 for i in halves)
    assert all(int(np.prod(i.dims)) < 1024 for i in g.initializer if i.data_type == TensorProto.FLOAT)
    casts = {n.input[0] for n in g.node if n.op_type == "Cast" and n.input[0].endswith("_fp16")}
    assert casts == {i.name for i in halves}


def test_onnx_matches_rounded_torch_on_fresh_inputs(bundle, trained):
    loaded = load_checkpoint(os.path.join(trained[0], "best.pt"))
    round_fp16(loaded.model)
    rng = np.random.default_rng(0)
    ids = rng.integers(5, 60, size=(3, 11))
    mask = np.ones_like(ids)
    mask[1, 7:] = 0
    segments = np.zeros_like(ids)
    segments[:, 6:] = 1
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": segments}
    s, e = fixtures.torch_logits(loaded.model, {k: v.astype(np.int64) for k, v in feeds.items()})
    diff = onnx_check.verify(os.path.join(bundle[0], "model.onnx"), feeds, s, e, atol=1e-4)
    assert diff < 1e-4
    with pytest.raises(ValueError, match="differs from PyTorch by up to"):
        onnx_check.verify(os.path.join(bundle[0], "model.onnx"), feeds, s + 0.01, e, atol=1e-4)


def test_a_bundle_reads_back_as_the_shipped_model(bundle, trained, corpus_dir, capsys):
    shipped = load_checkpoint(os.path.join(trained[0], "best.pt"))
    round_fp16(shipped.model)
    back = load_checkpoint(bundle[0])
    assert back.info["source"] == "bundle" and back.info["step"] == shipped.info["step"]
    assert back.meta["types"] == shipped.meta["types"] and back.meta["queries"] == shipped.meta["queries"]
    assert back.meta["max_len"] == 48 and back.meta["end_head"] == "eq6"
    expected, actual = shipped.model.state_dict(), back.model.state_dict()
    assert set(actual) == set(expected)
    for k in expected:  # float16-stored weights come back exactly as the rounded model has them
        assert torch.equal(actual[k], expected[k]), k
    # the bundle's own tokenizer is the default: evaluate needs nothing but the bundle
    assert evaluate_cli.main(["--checkpoint", bundle[0], "--corpus", f"{corpus_dir}:Chemical=chemical",
                              "--threads", "1"]) == 0
    assert "TINY-IOB/chemical" in capsys.readouterr().out


def test_a_bundle_without_encoder_config_is_refused_with_the_reason(bundle, tmp_path):
    import shutil
    old = tmp_path / "old-bundle"
    shutil.copytree(bundle[0], old)
    manifest = json.loads((old / "bundle.json").read_text(encoding="utf-8"))
    del manifest["encoder_config"]
    (old / "bundle.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ValueError, match="no encoder_config"):
        load_checkpoint(str(old))


def test_fixtures_hold_inputs_and_logits(bundle):
    with open(os.path.join(bundle[0], "fixtures.json"), encoding="utf-8") as f:
        fx = json.load(f)
    rows = fx["sentences"]
    assert len(rows) == 4
    assert any("α" in r["text"] for r in rows) and any("ö" in r["text"] for r in rows)
    for r in rows:
        n = len(r["input_ids"])
        assert r["type"] in ("chemical", "disease")
        assert len(r["attention_mask"]) == len(r["token_type_ids"]) == len(r["start_logits"]) == n
        assert all(len(x) == 2 for x in r["end_logits"])
        onnx_check.verify(os.path.join(bundle[0], "model.onnx"),
                          {k: [r[k]] for k in ("input_ids", "attention_mask", "token_type_ids")},
                          [r["start_logits"]], [r["end_logits"]], atol=1e-4)


def test_export_without_fp16_matches_unrounded(trained, tokenizer_path, tmp_path):
    m = export.export_bundle(os.path.join(trained[0], "best.pt"), tokenizer_path, str(tmp_path), "t", "1", fp16=False)
    assert "fp16_f1_delta" not in m and "evaluation" not in m
    proto = onnx.load(str(tmp_path / "model.onnx"))
    assert all(i.data_type != TensorProto.FLOAT16 for i in proto.graph.initializer)
    loaded = load_checkpoint(os.path.join(trained[0], "best.pt"))
    with open(tmp_path / "fixtures.json", encoding="utf-8") as f:
        r = json.load(f)["sentences"][0]
    s, e = fixtures.torch_logits(loaded.model, fixtures.pad_batch([r]))
    np.testing.assert_allclose(s[0], r["start_logits"], atol=1e-6)


def test_export_of_hf_mrc_directory(trained, tokenizer_path, tmp_path):
    loaded = load_checkpoint(os.path.join(trained[0], "best.pt"))
    state = loaded.model.state_dict()
    hf = write_hf_dir(tmp_path / "hf", state, loaded.model.bert.config)
    argv = ["--checkpoint", hf, "--tokenizer", tokenizer_path, "--out", str(tmp_path / "b"), "--name", "hf",
            "--version", "1", "--entity-type", "disease=Can you detect disease entities ?",
            "--entity-type", "chemical=Can you detect chemical entities ?", "--max-len", "40"]
    assert export.main(argv) == 0
    with open(tmp_path / "b" / "bundle.json", encoding="utf-8") as f:
        m = json.load(f)
    assert [t["name"] for t in m["entity_types"]] == ["disease", "chemical"]
    assert m["max_sequence_length"] == 40 and m["training"]["steps"] is None


def test_export_fails_loudly(trained, tokenizer_path, plain_bert_dir, tmp_path, capsys):
    best = os.path.join(trained[0], "best.pt")
    base = ["--tokenizer", tokenizer_path, "--out", str(tmp_path / "x"), "--name", "n", "--version", "1"]
    assert export.main(["--checkpoint", str(tmp_path / "missing.pt")] + base) == 1
    assert "checkpoint not found" in capsys.readouterr().err
    assert export.main(["--checkpoint", plain_bert_dir, "--entity-type", "gene=Q ?"] + base) == 1
    assert "no MRC heads" in capsys.readouterr().err
    assert export.main(["--checkpoint", plain_bert_dir] + base) == 1
    assert "--entity-type" in capsys.readouterr().err
    assert export.main(["--checkpoint", best, "--evaluate-corpus", "somewhere:GENE=gene"] + base) == 1
    assert "unknown to the model" in capsys.readouterr().err
    assert export.main(["--checkpoint", best, "--evaluate-corpus", "no-mapping"] + base) == 1
    assert "DIR:TAG=type" in capsys.readouterr().err
    assert export.main(["--checkpoint", best, "--atol", "1e-12"] + base) == 1  # parity check cannot pass
    assert "differs from PyTorch by up to" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "x" / "model.onnx")


def test_wrong_shapes_in_checkpoint(trained, tmp_path):
    ckpt = torch.load(os.path.join(trained[0], "best.pt"))
    ckpt["model"]["bert.encoder.layer.0.attention.self.query.weight"] = torch.zeros(32, 16)
    torch.save(ckpt, tmp_path / "bad.pt")
    with pytest.raises(ValueError, match=r"query.weight has shape \(32, 16\)"):
        load_checkpoint(str(tmp_path / "bad.pt"))
    ckpt = torch.load(os.path.join(trained[0], "best.pt"))
    del ckpt["model"]["start_fc.dense.bias"]
    torch.save(ckpt, tmp_path / "bad2.pt")
    with pytest.raises(ValueError, match="missing.*start_fc.dense.bias"):
        load_checkpoint(str(tmp_path / "bad2.pt"))
    torch.save({"state": 1}, tmp_path / "bad3.pt")
    with pytest.raises(ValueError, match="not a bioner_mrc checkpoint"):
        load_checkpoint(str(tmp_path / "bad3.pt"))


def test_evaluate_cli(trained, tokenizer_path, corpus_dir, tmp_path, capsys):
    best = os.path.join(trained[0], "best.pt")
    out = tmp_path / "scores.json"
    rc = evaluate_cli.main(["--checkpoint", best, "--tokenizer", tokenizer_path, "--corpus",
                            f"{corpus_dir}:Disease=disease", "--fp16", "--json", str(out), "--threads", "1"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "TINY-IOB/disease" in text and "truncated" in text
    with open(out, encoding="utf-8") as f:
        assert set(json.load(f)["scores"]) == {"TINY-IOB/disease"}
    assert evaluate_cli.main(["--checkpoint", best, "--tokenizer", tokenizer_path, "--corpus",
                              f"{corpus_dir}:Disease=species"]) == 2
    assert "unknown to the model" in capsys.readouterr().err


def test_stored_predictions_are_the_shipped_models_on_every_fifth_sentence(bundle, corpus_dir, tokenizer_path,
                                                                          tmp_path):
    from bioner_mrc.corpus import CorpusSpec
    from bioner_mrc.evaluate import collect_examples
    from bioner_mrc.predict import predict_spans
    from bioner_mrc.wordpiece import WordPieceTokenizer

    stored = stored_predictions.read(os.path.join(bundle[0], stored_predictions.FILE))
    assert stored["split"] == "test" and stored["every"] == 5
    back = load_checkpoint(bundle[0])
    tok = WordPieceTokenizer(tokenizer_path)
    spec = CorpusSpec.parse(f"{corpus_dir}:Chemical=chemical,Disease=disease")
    sentences = spec.split("test")
    examples, _ = collect_examples([spec], back.meta, tok)
    predicted = predict_spans(back.model, examples)
    expected = [{"corpus": "TINY-IOB", "index": i, "text": s.text,
                 "spans": {t: [list(x) for x in predicted[2 * i + k]]
                           for k, t in enumerate(["chemical", "disease"])
                           if not evaluate_cli.is_truncated(examples[2 * i + k], tok, 48)}}
                for i, s in enumerate(sentences) if i % 5 == 0]
    assert stored["sentences"] == [e for e in expected if e["spans"]]
    assert len(stored["sentences"]) >= 2
    # the command writes the same file for a bundle exported before it existed
    out = tmp_path / "again.json.gz"
    assert stored_predictions.main(["--checkpoint", bundle[0], "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--out", str(out),
                                    "--threads", "1"]) == 0
    assert stored_predictions.read(str(out)) == stored


def test_truncation_is_detected(trained, tokenizer_path):
    from bioner_mrc.corpus import Sentence
    from bioner_mrc.features import make_examples
    from bioner_mrc.wordpiece import WordPieceTokenizer

    tok = WordPieceTokenizer(tokenizer_path)
    q = {"chemical": "Can you detect chemical entities ?"}
    long = Sentence(" ".join(["aspirin"] * 30), {"chemical": []})
    short = Sentence("aspirin and lithium", {"chemical": []})
    exs = make_examples("c", [long, short], ["chemical"], q, tok, 20)
    assert [evaluate_cli.is_truncated(e, tok, 20) for e in exs] == [True, False]


def test_interpreter_rejects_unknown_operator(tmp_path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("HardSwish", ["x"], ["y"])], "g", [x], [y])
    path = str(tmp_path / "m.onnx")
    onnx.save(helper.make_model(graph), path)
    with pytest.raises(onnx_check.UnsupportedOperator, match="HardSwish"):
        onnx_check.run_numpy(path, {"x": np.zeros(2, np.float32)})


def test_interpreter_basic_ops():
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])
    out = helper.make_tensor_value_info("out", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("Constant", [], ["axes"], value=numpy_helper.from_array(np.array([0], np.int64))),
        helper.make_node("Unsqueeze", ["a", "axes"], ["u"]),
        helper.make_node("Transpose", ["u"], ["t"], perm=[0, 2, 1]),
        helper.make_node("Softmax", ["t"], ["s"], axis=-1),
        helper.make_node("Erf", ["s"], ["e"]),
        helper.make_node("Shape", ["e"], ["shape"]),
        helper.make_node("ConstantOfShape", ["shape"], ["ones"],
                         value=numpy_helper.from_array(np.array([1.0], np.float32))),
        helper.make_node("Add", ["e", "ones"], ["out"]),
    ]
    model = helper.make_model(helper.make_graph(nodes, "g", [a], [out]))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (got,) = onnx_check.run_numpy(model, {"a": x})
    t = torch.from_numpy(x).unsqueeze(0).transpose(1, 2).softmax(-1)
    np.testing.assert_allclose(got, (torch.erf(t) + 1).numpy(), atol=1e-6)


def test_parity_file(tokenizer_path, corpus_dir, tmp_path):
    out = tmp_path / "p" / "ids.tsv.gz"
    assert parity.main(["--tokenizer", tokenizer_path, "--iob", os.path.join(corpus_dir, "test.tsv"),
                        "--out", str(out)]) == 0
    with gzip.open(out, "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    from bioner_mrc.corpus import read_iob
    texts = [s.text for s in read_iob(os.path.join(corpus_dir, "test.tsv"), {})]
    assert [r[1] for r in rows] == list(dict.fromkeys(texts))  # distinct sentences, in file order
    from bioner_mrc.wordpiece import WordPieceTokenizer
    tok = WordPieceTokenizer(tokenizer_path)
    for corpus, text, ids, offsets in rows:
        assert corpus == "TINY-IOB"
        pieces = tok.tokenize(text)
        assert ids == " ".join(str(p.id) for p in pieces)
        assert offsets == " ".join(f"{p.start}:{p.end}" for p in pieces)
        assert tok.cls_id not in map(int, ids.split())


def test_sentence_task_trains_a_presence_head_that_export_leaves_out(plain_bert_dir, tokenizer_path, corpus_dir,
                                                                     tmp_path, capsys):
    from bioner_mrc import train
    from bioner_mrc.mrc import context_mask, presence_loss

    out = str(tmp_path / "run")
    rc = train.main(tiny_train_argv(plain_bert_dir, tokenizer_path, corpus_dir, out, "--max-steps", "30",
                                    "--sentence-task", "0.5"))
    torch.set_num_threads(1)
    assert rc == 0
    ls = losses(capsys.readouterr().out)
    assert np.mean(ls[-5:]) < 0.7 * np.mean(ls[:5])
    loaded = load_checkpoint(os.path.join(out, "last.pt"))
    assert loaded.model.sentence_fc is not None
    assert loaded.meta["args"]["sentence_task"] == 0.5

    # The head learned something: presence loss below chance (ln 2) on the tiny corpus's examples.
    from bioner_mrc.corpus import CorpusSpec
    from bioner_mrc.evaluate import collect_examples
    from bioner_mrc.features import collate
    from bioner_mrc.wordpiece import WordPieceTokenizer
    tok = WordPieceTokenizer(tokenizer_path)
    examples, _ = collect_examples([CorpusSpec.parse(f"{corpus_dir}:Chemical=chemical,Disease=disease")],
                                   loaded.meta, tok, "train")
    b = collate(examples[:32])
    with torch.no_grad():
        _, _, presence = loaded.model.with_presence(b["input_ids"], b["attention_mask"], b["token_type_ids"])
    mask = context_mask(b["attention_mask"], b["token_type_ids"])
    assert presence_loss(presence, b["start_labels"], mask).item() < 0.69

    bundle = str(tmp_path / "bundle")
    export.export_bundle(os.path.join(out, "last.pt"), tokenizer_path, bundle, "tiny-bcls", "0.0.1")
    graph = onnx.load(os.path.join(bundle, "model.onnx")).graph
    assert [o.name for o in graph.output] == list(onnx_graph.OUTPUTS)


def test_training_continues_from_a_bundle_with_its_queries(bundle, tokenizer_path, corpus_dir, tmp_path, trained):
    import contextlib
    import io

    from bioner_mrc import train

    out = str(tmp_path / "continued")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = train.main(["--init-from", bundle[0], "--tokenizer", tokenizer_path,
                         "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--out", out,
                         "--epochs", "1", "--max-steps", "5", "--batch-size", "8", "--lr", "1e-4",
                         "--head-lr", "1e-3", "--max-len", "48", "--threads", "1", "--log-every", "1", "--seed", "3"])
    torch.set_num_threads(1)
    assert rc == 0
    continued = load_checkpoint(os.path.join(out, "last.pt"))
    assert continued.meta["queries"] == {t["name"]: t["query"] for t in bundle[1]["entity_types"]}
    # the continued model's bundle names the model it continued, with that model's own training
    manifest = export.export_bundle(os.path.join(out, "last.pt"), tokenizer_path, str(tmp_path / "next"),
                                    "tiny-next", "0.0.2")
    origin = manifest["training"]["init_from"]
    assert (origin["name"], origin["version"]) == (bundle[1]["name"], bundle[1]["version"])
    assert origin["training"]["steps"] == bundle[1]["training"]["steps"] > 0
    assert manifest["training"]["steps"] == 5
    # a trained model starts where training left it, far below a random model's first losses
    assert np.mean(losses(buf.getvalue())[:3]) < 0.5 * np.mean(losses(trained[1])[:3])


def test_a_continued_model_learns_a_type_it_did_not_know_with_a_new_query(bundle, tokenizer_path, corpus_dir, tmp_path):
    from bioner_mrc import train

    out = str(tmp_path / "new-type")
    rc = train.main(["--init-from", bundle[0], "--tokenizer", tokenizer_path,
                     "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=illness", "--out", out,
                     "--epochs", "1", "--max-steps", "2", "--batch-size", "8", "--max-len", "48",
                     "--threads", "1", "--seed", "3"])
    torch.set_num_threads(1)
    assert rc == 0
    queries = load_checkpoint(os.path.join(out, "last.pt")).meta["queries"]
    shipped = {t["name"]: t["query"] for t in bundle[1]["entity_types"]}
    assert list(queries) == ["chemical", "illness"]
    assert queries["chemical"] == shipped["chemical"]
    assert queries["illness"].startswith("Can you detect illness entities like ")


def test_holdout_zero_trains_on_every_sentence_and_keeps_the_last_model(bundle, tokenizer_path, corpus_dir, tmp_path):
    import contextlib
    import io

    from bioner_mrc import train

    def run(name, *extra):
        out, buf = str(tmp_path / name), io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = train.main(["--init-from", bundle[0], "--tokenizer", tokenizer_path,
                             "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--out", out,
                             "--epochs", "1", "--max-steps", "2", "--batch-size", "8", "--max-len", "48",
                             "--threads", "1", "--seed", "3", *extra])
        torch.set_num_threads(1)
        assert rc == 0
        counts = re.search(r"(\d+) training and (\d+) held-out examples", buf.getvalue())
        return out, int(counts[1]), int(counts[2]), buf.getvalue()

    _, split_train, split_held, _ = run("split")
    out, all_train, all_held, log = run("all", "--holdout", "0")
    assert split_held > 0 and all_held == 0
    assert all_train == split_train + split_held
    assert "best.pt is the model after step 2" in log
    with open(os.path.join(out, "training.json"), encoding="utf-8") as f:
        assert json.load(f)["holdout_f1"] is None
    kept = load_checkpoint(os.path.join(out, "best.pt"))
    assert kept.info["step"] == 2 and kept.info["holdout_f1"] is None
    with pytest.raises(SystemExit, match="--holdout must be in"):
        train.main(["--init-from", bundle[0], "--tokenizer", tokenizer_path, "--corpus", f"{corpus_dir}:Chemical=chemical",
                    "--out", str(tmp_path / "bad"), "--holdout", "1"])
