"""Where training and evaluation run, and in what arithmetic: ``--device`` and ``--bf16``.

bfloat16 autocast halves a training step's time on CPUs with AMX or AVX512_BF16 (measured in
docs/experiments.md, *bfloat16 training*) and is the GPU's fast path; the master weights, the
optimizer state and the exported ONNX stay float32 (float16 storage in the bundle, as before).
Elsewhere bf16 is refused rather than emulated: emulated bf16 on a CPU without those instructions is
slower than float32.
"""
import argparse
import contextlib
from dataclasses import dataclass
from typing import Dict

import torch

BF16_CPU_FLAGS = ("amx_bf16", "avx512_bf16")


def cpu_flags(path: str = "/proc/cpuinfo") -> set:
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def add_arguments(p: argparse.ArgumentParser):
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda", "auto"],
                   help="where to run: cpu, cuda (a GPU, refused where none is), auto (cuda when present)")
    p.add_argument("--bf16", action="store_true",
                   help="bfloat16 autocast (CPUs with AMX or AVX512_BF16, or a GPU); weights stay float32")


@dataclass(frozen=True)
class Compute:
    device: torch.device
    bf16: bool = False

    @staticmethod
    def of(args, flags: set = None) -> "Compute":
        """The device and arithmetic that ``--device`` and ``--bf16`` ask for; ValueError with the reason
        where this machine cannot give them."""
        name = getattr(args, "device", "cpu")
        if name == "auto":
            name = "cuda" if torch.cuda.is_available() else "cpu"
        if name == "cuda" and not torch.cuda.is_available():
            raise ValueError("--device cuda: torch sees no GPU here (torch.cuda.is_available() is false)")
        bf16 = bool(getattr(args, "bf16", False))
        if bf16 and name == "cpu":
            flags = cpu_flags() if flags is None else flags
            if not flags & set(BF16_CPU_FLAGS):
                raise ValueError("--bf16: this CPU has neither AMX nor AVX512_BF16 (no 'amx_bf16' or 'avx512_bf16' "
                                 "in /proc/cpuinfo), where bfloat16 is emulated and slower than float32; "
                                 "train without --bf16")
        if bf16 and name == "cuda" and not torch.cuda.is_bf16_supported():
            raise ValueError("--bf16: this GPU has no bfloat16 arithmetic")
        return Compute(torch.device(name), bf16)

    def autocast(self):
        if not self.bf16:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, dtype=torch.bfloat16)

    def to(self, batch: Dict) -> Dict:
        """A collated batch on this device (syntax inputs are a list of tensors)."""
        return {k: ([t.to(self.device, non_blocking=True) for t in v] if isinstance(v, list)
                    else v.to(self.device, non_blocking=True)) for k, v in batch.items()}

    def describe(self) -> str:
        return f"{self.device.type}{' bf16 autocast' if self.bf16 else ' float32'}"


CPU = Compute(torch.device("cpu"))
