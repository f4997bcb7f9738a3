"""Loads a trained BioBERT-MRC for evaluation and export, with clear errors on bad inputs.

Three sources are accepted:

* a ``.pt`` file written by ``bioner_mrc.train`` (``best.pt`` or ``last.pt``): the state dict
  plus ``meta`` (encoder config, end head, entity types and their queries, max length);
* a HuggingFace-style directory (``config.json`` + ``pytorch_model.bin``) holding a fine-tuned
  BioBERT-MRC (keys ``bert.*``, ``start_fc.*``, ``end_fc.*``); its types and queries are not in
  the files and must be given by the caller;
* a bundle folder written by ``bioner_mrc.export`` (``bundle.json`` + ``model.onnx``): the shipped
  weights read back from the ONNX graph, so the shipped model can be evaluated, analysed and gated
  on any machine without its training run folder.
"""
import json
import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import torch

from . import int8
from .bert import BertConfig, BertEncoder, load_hf_checkpoint
from .mrc import BertMrc

REQUIRED_META = ("encoder_config", "end_head", "types", "queries", "max_len")
# Training arguments worth recording in a bundle (no file paths).
TRAINING_ARGS = ("query_style", "query_examples", "query_language", "sentence_task", "end_head", "epochs", "batch_size",
                 "max_len", "lr", "head_lr", "weight_decay", "warmup", "dropout", "clip", "holdout", "seed", "max_steps")
FP16_MIN_ELEMENTS = 1024  # float tensors at least this large are shipped as float16


@dataclass
class Loaded:
    model: BertMrc
    meta: Dict
    info: Dict = field(default_factory=dict)  # step, holdout_f1, source


def _build(config_dict: Dict, end_head: str, state: Dict[str, torch.Tensor], source: str,
           syntax: Optional[Dict] = None) -> BertMrc:
    try:
        config = BertConfig(**config_dict)
    except TypeError as e:
        raise ValueError(f"{source}: bad encoder_config in checkpoint meta: {e}") from None
    width = None
    if end_head == "eq6":
        w = state.get("end_fc.dense_0.weight")
        if w is None:
            raise ValueError(f"{source}: end head eq6 needs end_fc.dense_0.weight, absent from the checkpoint")
        if w.dim() != 2:
            raise ValueError(f"{source}: end_fc.dense_0.weight has shape {tuple(w.shape)}, expected [width, hidden+2]")
        width = w.shape[0]
    model = BertMrc(BertEncoder(config), end_head, width, sentence_head="sentence_fc.weight" in state, syntax=syntax)
    load_state(model, state, source)
    return model


def load_state(model: torch.nn.Module, state: Dict[str, torch.Tensor], source: str):
    """Strict load that names missing, unexpected and mis-shaped parameters."""
    expected = model.state_dict()
    missing = sorted(set(expected) - set(state))
    unexpected = sorted(set(state) - set(expected))
    if missing or unexpected:
        raise ValueError(f"{source}: checkpoint does not match the model: missing {missing[:4]}"
                         f"{'...' if len(missing) > 4 else ''}, unexpected {unexpected[:4]}"
                         f"{'...' if len(unexpected) > 4 else ''}")
    for k, v in expected.items():
        if tuple(state[k].shape) != tuple(v.shape):
            raise ValueError(f"{source}: parameter {k} has shape {tuple(state[k].shape)}, "
                             f"the model config implies {tuple(v.shape)}")
    model.load_state_dict(state)


def load_checkpoint(path: str, queries: Optional[Dict[str, str]] = None, max_len: int = 256,
                    int8_arithmetic: bool = True) -> Loaded:
    """Loads a ``.pt`` training checkpoint, a bundle folder or an HF BioBERT-MRC directory, in eval mode.

    ``queries`` (type -> query text, in output order) is required for an HF directory and
    ignored for a ``.pt`` checkpoint, which carries its own. An int8 bundle computes as ONNX Runtime
    does (``bioner_mrc.int8``), unless ``int8_arithmetic`` is off: then its Linears hold the
    dequantized weights as ordinary float parameters, which training can go on updating.
    """
    if os.path.isfile(os.path.join(path, "bundle.json")):
        return _load_bundle(path, int8_arithmetic)
    if os.path.isdir(path):
        return _load_hf(path, queries, max_len)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"checkpoint not found: {path}")
    try:
        ckpt = torch.load(path, map_location="cpu")
    except Exception as e:  # truncated or foreign file
        raise ValueError(f"{path}: cannot read checkpoint: {e}") from None
    if not isinstance(ckpt, dict) or "model" not in ckpt or "meta" not in ckpt:
        raise ValueError(f"{path}: not a bioner_mrc checkpoint (expected a dict with 'model' and 'meta')")
    meta = ckpt["meta"]
    absent = [k for k in REQUIRED_META if k not in meta]
    if absent:
        raise ValueError(f"{path}: checkpoint meta lacks {absent}")
    no_query = [t for t in meta["types"] if t not in meta["queries"]]
    if not meta["types"] or no_query:
        raise ValueError(f"{path}: checkpoint has types {meta['types']} but no query for {no_query}")
    model = _build(meta["encoder_config"], meta["end_head"], ckpt["model"], path, meta.get("syntax"))
    model.eval()
    holdout = ckpt.get("holdout_f1", ckpt.get("best"))  # last.pt keeps the best so far, -1 before any
    if holdout is not None and holdout < 0:
        holdout = None
    return Loaded(model, meta, {"step": ckpt.get("step"), "holdout_f1": holdout, "source": "train"})


def _load_hf(directory: str, queries: Optional[Dict[str, str]], max_len: int) -> Loaded:
    if not queries:
        raise ValueError(f"{directory}: an HF checkpoint does not record its entity types; "
                         "give each type with its query (--entity-type NAME=QUERY)")
    encoder, extra = load_hf_checkpoint(directory, dropout=0.0)
    if "start_fc.dense.weight" not in extra:
        raise ValueError(f"{directory}: no MRC heads (start_fc.*, end_fc.*) in pytorch_model.bin: this is a "
                         "plain BERT; fine-tune it first with bioner_mrc.train --hf-checkpoint")
    end_head = "eq6" if "end_fc.dense_0.weight" in extra else "eq5"
    state = {"bert." + k: v for k, v in encoder.state_dict().items()}
    state.update(extra)
    model = _build(encoder.config.to_dict(), end_head, state, directory)
    model.eval()
    meta = {"base_encoder": os.path.basename(os.path.normpath(directory)),
            "encoder_config": encoder.config.to_dict(), "end_head": end_head, "types": list(queries),
            "queries": dict(queries), "max_len": max_len, "corpora": [], "args": {}}
    return Loaded(model, meta, {"step": None, "holdout_f1": None, "source": "hf"})


# torch.onnx.export folds each Linear weight into an unnamed, transposed MatMul input; the MatMul's
# node name is the module path ("/bert/layer.3/attention/self/query/MatMul", "/start_fc/dense/MatMul").
# An int8 bundle's MatMulInteger keeps that name with "_quant" appended (bioner_mrc.quantize).
_LINEAR_MATMUL = re.compile(r"^/(.+)/MatMul(_quant)?$")


def linear_module(node_name: str) -> Optional[str]:
    """The torch module path of the Linear an exported MatMul node computes, or None for another node."""
    m = _LINEAR_MATMUL.match(node_name)
    if not m:
        return None
    module = m.group(1).replace("/", ".")
    return "bert.encoder." + module[len("bert."):] if module.startswith("bert.layer.") else module


def _onnx_state(path: str):
    """The parameters of an exported BertMrc, by their torch names, from its ONNX graph, and the int8
    weights ``{module: (int8 [in, out], scales)}`` of an int8 graph's quantized Linears."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:  # float16 storage: Cast(NAME_fp16) -> NAME, the value the graph computes with
        if node.op_type == "Cast" and node.input[0] in values:
            values[node.output[0]] = values.pop(node.input[0]).astype("float32")
    state = {k: torch.from_numpy(v.copy()) for k, v in values.items()
             if not k.startswith(("onnx::", int8.CONSTANT_PREFIX))}
    quantized = {}
    for node in graph.node:
        module = linear_module(node.name)
        weight = node.input[1] if len(node.input) > 1 and node.input[1].startswith("onnx::") else None
        if module is None or weight not in values:
            continue
        if node.op_type == "MatMul":
            state[module + ".weight"] = torch.from_numpy(values[weight].T.copy())
        elif node.op_type == "MatMulInteger":
            weight_q, scale = values[weight], values[int8.weight_scale_name(weight)]
            quantized[module] = (weight_q, scale)
            state[module + ".weight"] = torch.from_numpy((weight_q.astype("float32") * scale).T.copy())
    return state, quantized


def _load_bundle(directory: str, int8_arithmetic: bool) -> Loaded:
    with open(os.path.join(directory, "bundle.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    config = manifest.get("encoder_config")
    if not config:
        raise ValueError(f"{directory}: bundle.json has no encoder_config (bundles exported before it was "
                         "recorded cannot be read back; use the training checkpoint)")
    types = [t["name"] for t in manifest["entity_types"]]
    state, quantized = _onnx_state(os.path.join(directory, "model.onnx"))
    model = _build(config, manifest["end_head"], state, directory)
    if int8_arithmetic:
        model = int8.emulate(model, quantized)
    model.eval()
    training = manifest.get("training") or {}
    meta = {"base_encoder": manifest.get("base_encoder"), "encoder_config": config, "end_head": manifest["end_head"],
            "types": types, "queries": {t["name"]: t["query"] for t in manifest["entity_types"]},
            "max_len": manifest["max_sequence_length"], "corpora": training.get("corpora", []),
            "args": {"tokenizer": os.path.join(directory, "tokenizer.json")},
            "origin": {"name": manifest.get("name"), "version": manifest.get("version"), "training": training}}
    return Loaded(model, meta, {"step": training.get("steps"), "holdout_f1": training.get("holdout_f1"),
                                "source": "bundle"})


def fp16_names(model: torch.nn.Module, min_elements: int = FP16_MIN_ELEMENTS) -> List[str]:
    return [n for n, p in model.state_dict().items()
            if p.dtype == torch.float32 and p.numel() >= min_elements]


def round_fp16(model: torch.nn.Module, min_elements: int = FP16_MIN_ELEMENTS) -> List[str]:
    """Rounds every float32 tensor with >= ``min_elements`` values through float16, in place.

    These are the tensors the exported ONNX stores as float16, so the rounded torch model
    computes what the shipped file computes.
    """
    names = fp16_names(model, min_elements)
    state = model.state_dict()
    with torch.no_grad():
        for n in names:
            t = state[n]
            if t.abs().max().item() > 65504:
                raise ValueError(f"{n} has values beyond the float16 range; export with --no-fp16")
            t.copy_(t.half().float())
    return names


def training_record(loaded: Loaded) -> dict:
    """How a model was trained, as a bundle's ``training`` section records it: corpora, steps, held-out F1,
    the arguments of TRAINING_ARGS and, for a model trained with --init-from, the model it continued."""
    meta, args = loaded.meta, loaded.meta.get("args") or {}
    return {"corpora": meta.get("corpora", []), "steps": loaded.info.get("step"),
            "holdout_f1": loaded.info.get("holdout_f1"),
            **{k: args[k] for k in TRAINING_ARGS if k in args},
            **({"init_from": meta["init_from"]} if "init_from" in meta else {})}
