"""--device and --bf16: what each machine is allowed, and a tiny bf16 run that exports a working bundle."""
import argparse
import os

import numpy as np
import pytest
import torch

from bioner_mrc import compute, export, fixtures, onnx_check, train
from bioner_mrc.checkpoint import load_checkpoint, round_fp16

from conftest import tiny_train_argv

HAS_BF16 = bool(compute.cpu_flags() & set(compute.BF16_CPU_FLAGS))


def args(**kw):
    return argparse.Namespace(**{"device": "cpu", "bf16": False, **kw})


def test_bf16_is_refused_on_a_cpu_without_amx_or_avx512_bf16():
    with pytest.raises(ValueError, match="neither AMX nor AVX512_BF16"):
        compute.Compute.of(args(bf16=True), flags={"avx2", "avx512f", "avx512_vnni"})


def test_bf16_is_accepted_with_either_instruction_set():
    for flag in compute.BF16_CPU_FLAGS:
        c = compute.Compute.of(args(bf16=True), flags={"avx2", flag})
        assert c.bf16 and c.device.type == "cpu"


def test_cuda_without_a_gpu_is_refused_and_auto_takes_what_there_is(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="no GPU"):
        compute.Compute.of(args(device="cuda"))
    assert compute.Compute.of(args(device="auto")).device.type == "cpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert compute.Compute.of(args(device="auto")).device.type == "cuda"


def test_cpu_flags_reads_the_flags_line(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 amx_bf16\n\nprocessor\t: 1\n")
    assert compute.cpu_flags(str(info)) == {"fpu", "avx2", "amx_bf16"}
    assert compute.cpu_flags(str(tmp_path / "absent")) == set()


def test_train_refuses_bf16_before_loading_anything_where_the_cpu_lacks_it(tmp_path, monkeypatch):
    monkeypatch.setattr(compute, "cpu_flags", lambda path="/proc/cpuinfo": {"avx2"})
    with pytest.raises(SystemExit, match="AVX512_BF16"):
        train.main(["--hf-checkpoint", str(tmp_path / "absent"), "--tokenizer", str(tmp_path / "absent.json"),
                    "--corpus", f"{tmp_path}:X=x", "--out", str(tmp_path / "run"), "--bf16"])


def test_a_bf16_run_learns_and_exports_a_float_bundle_that_matches_torch(plain_bert_dir, tokenizer_path, corpus_dir,
                                                                        tmp_path, capsys):
    out = str(tmp_path / "run")
    if not HAS_BF16:  # this CPU can only show the refusal
        with pytest.raises(SystemExit, match="neither AMX nor AVX512_BF16"):
            train.main(tiny_train_argv(plain_bert_dir, tokenizer_path, corpus_dir, out, "--bf16"))
        return
    rc = train.main(tiny_train_argv(plain_bert_dir, tokenizer_path, corpus_dir, out, "--bf16"))
    torch.set_num_threads(1)
    assert rc == 0
    log = capsys.readouterr().out
    assert "training on cpu bf16 autocast" in log
    import re
    ls = [float(m) for m in re.findall(r"^step \d+/\d+ epoch \S+ loss (\S+)", log, re.M)]
    assert np.mean(ls[-5:]) < 0.6 * np.mean(ls[:5]), ls
    loaded = load_checkpoint(os.path.join(out, "best.pt"))
    assert all(p.dtype == torch.float32 for p in loaded.model.parameters()), "master weights must stay float32"

    bundle = str(tmp_path / "bundle")
    export.export_bundle(os.path.join(out, "best.pt"), tokenizer_path, bundle, "tiny-bf16", "0.0.1",
                         evaluate=[f"{corpus_dir}:Chemical=chemical,Disease=disease"])
    # The bundle is float32 arithmetic over float16 storage, like any other: ONNX and the rounded model agree.
    round_fp16(loaded.model)
    ids = np.random.default_rng(0).integers(5, 60, size=(2, 9))
    feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": (np.arange(9) >= 5) * np.ones_like(ids)}
    s, e = fixtures.torch_logits(loaded.model, {k: v.astype(np.int64) for k, v in feeds.items()})
    assert onnx_check.verify(os.path.join(bundle, "model.onnx"), feeds, s, e, atol=1e-4) < 1e-4
