"""A BERT encoder whose parameters carry HuggingFace names, and loaders for its weights.

No ``transformers`` dependency: the module is small, and owning it lets us load weights from
an ONNX export (the Maven-shipped MiniLM / bge encoders) as well as from a PyTorch checkpoint.
"""
import json
import math
import os
import re
from dataclasses import asdict, dataclass

import torch
from torch import nn


@dataclass
class BertConfig:
    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    hidden_dropout_prob: float = 0.1

    def to_dict(self):
        return asdict(self)


class _SelfAttention(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.heads = c.num_attention_heads
        self.head_dim = c.hidden_size // c.num_attention_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)

    def forward(self, x, bias):
        b, n, _ = x.shape

        def split(t):
            return t.view(b, n, self.heads, self.head_dim).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim) + bias
        ctx = torch.matmul(scores.softmax(-1), v)
        return ctx.transpose(1, 2).reshape(b, n, -1)


class _DenseNorm(nn.Module):
    """Linear -> dropout -> residual -> LayerNorm (BERT's ``*.output`` blocks)."""

    def __init__(self, c: BertConfig, d_in: int):
        super().__init__()
        self.dense = nn.Linear(d_in, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, x, residual):
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class _Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self = _SelfAttention(c)
        self.output = _DenseNorm(c, c.hidden_size)

    def forward(self, x, bias):
        return self.output(self.self(x, bias), x)


class _Intermediate(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)

    def forward(self, x):
        return nn.functional.gelu(self.dense(x))  # exact erf GELU, as BERT


class _Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.attention = _Attention(c)
        self.intermediate = _Intermediate(c)
        self.output = _DenseNorm(c, c.intermediate_size)

    def forward(self, x, bias):
        a = self.attention(x, bias)
        return self.output(self.intermediate(a), a)


class _Encoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.layer = nn.ModuleList(_Layer(c) for _ in range(c.num_hidden_layers))


class _Embeddings(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, ids, segments):
        pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        e = self.word_embeddings(ids) + self.position_embeddings(pos)
        e = e + self.token_type_embeddings(segments)
        return self.dropout(self.LayerNorm(e))


class BertEncoder(nn.Module):
    """BERT without pooler; returns the last hidden states [batch, seq, hidden]."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.config = config
        self.embeddings = _Embeddings(config)
        self.encoder = _Encoder(config)

    def forward(self, input_ids, attention_mask, token_type_ids):
        x = self.embeddings(input_ids, token_type_ids)
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        for layer in self.encoder.layer:
            x = layer(x, bias)
        return x


_MATMUL_NODE = re.compile(r"^/(encoder)/(layer)\.(\d+)/(.+)/MatMul$")


def load_onnx_encoder(path: str, dropout: float = 0.1) -> BertEncoder:
    """Loads a BERT encoder exported to ONNX by HuggingFace/optimum-style exporters.

    Biases, embeddings and LayerNorms keep their HF names as initializers. MatMul weights are
    unnamed: each is named after the node that consumes it and transposed to Linear layout.
    """
    import onnx
    from onnx import numpy_helper

    if not os.path.isfile(path):
        raise FileNotFoundError(f"ONNX encoder not found: {path}")
    graph = onnx.load(path).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    if "embeddings.word_embeddings.weight" not in inits:
        raise ValueError(f"{path}: no 'embeddings.word_embeddings.weight': not a BERT encoder export")
    state = {k: torch.from_numpy(v.copy()) for k, v in inits.items() if k != "embeddings.position_ids"}
    consts = {}
    for node in graph.node:
        if node.op_type == "Constant":
            consts[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    scale = None
    for node in graph.node:
        m = _MATMUL_NODE.match(node.name)
        if node.op_type == "MatMul" and m:
            weight = next((i for i in node.input if i in inits), None)
            if weight is not None:
                module = "encoder.layer.%s.%s" % (m.group(3), m.group(4).replace("/", "."))
                state[module + ".weight"] = torch.from_numpy(inits[weight].T.copy())
        if scale is None and node.op_type == "Div" and "/attention/self/" in node.name:
            scale = float(consts.get(node.input[1], inits.get(node.input[1], math.nan)))
    d = state["embeddings.word_embeddings.weight"].shape[1]
    layers = 1 + max(int(k.split(".")[2]) for k in state if k.startswith("encoder.layer."))
    if scale is None or math.isnan(scale):
        raise ValueError(f"{path}: cannot find the attention scale to infer the head count")
    config = BertConfig(
        vocab_size=state["embeddings.word_embeddings.weight"].shape[0],
        hidden_size=d,
        num_hidden_layers=layers,
        num_attention_heads=d // round(scale * scale),
        intermediate_size=state["encoder.layer.0.intermediate.dense.bias"].shape[0],
        max_position_embeddings=state["embeddings.position_embeddings.weight"].shape[0],
        type_vocab_size=state["embeddings.token_type_embeddings.weight"].shape[0],
        hidden_dropout_prob=dropout,
    )
    encoder = BertEncoder(config)
    _load_strict(encoder, state, path)
    return encoder


def load_hf_checkpoint(directory: str, dropout: float = 0.1):
    """Loads ``config.json`` + ``pytorch_model.bin`` (a BERT or a fine-tuned BioBERT-MRC).

    Returns (encoder, extra) where ``extra`` holds the non-encoder parameters with their
    prefixes (``start_fc.*``, ``end_fc.*``) so an MRC checkpoint keeps its trained heads.
    """
    cfg_path = os.path.join(directory, "config.json")
    bin_path = os.path.join(directory, "pytorch_model.bin")
    for p in (cfg_path, bin_path):
        if not os.path.isfile(p):
            raise FileNotFoundError(f"BERT checkpoint file missing: {p}")
    with open(cfg_path, encoding="utf-8") as f:
        hf = json.load(f)
    config = BertConfig(
        vocab_size=hf["vocab_size"],
        hidden_size=hf["hidden_size"],
        num_hidden_layers=hf["num_hidden_layers"],
        num_attention_heads=hf["num_attention_heads"],
        intermediate_size=hf["intermediate_size"],
        max_position_embeddings=hf.get("max_position_embeddings", 512),
        type_vocab_size=hf.get("type_vocab_size", 2),
        layer_norm_eps=hf.get("layer_norm_eps", 1e-12),
        hidden_dropout_prob=dropout,
    )
    raw = torch.load(bin_path, map_location="cpu")
    state, extra = {}, {}
    for k, v in raw.items():
        k = k.replace("LayerNorm.gamma", "LayerNorm.weight").replace("LayerNorm.beta", "LayerNorm.bias")
        if k.startswith("bert."):
            k = k[len("bert."):]
        if k.startswith(("embeddings.", "encoder.")):
            if not k.endswith("position_ids"):
                state[k] = v
        elif not k.startswith(("pooler.", "cls.")):
            extra[k] = v
    encoder = BertEncoder(config)
    _load_strict(encoder, state, directory)
    return encoder, extra


def _load_strict(module: nn.Module, state, source: str):
    expected = module.state_dict()
    missing = sorted(set(expected) - set(state))
    if missing:
        raise ValueError(f"{source}: missing encoder parameters, e.g. {missing[:3]}")
    for k, v in state.items():
        if k in expected and tuple(expected[k].shape) != tuple(v.shape):
            raise ValueError(f"{source}: {k} has shape {tuple(v.shape)}, expected {tuple(expected[k].shape)}")
    module.load_state_dict({k: state[k] for k in expected})
