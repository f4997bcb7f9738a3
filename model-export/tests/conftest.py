"""Tiny fixtures: a WordPiece tokenizer.json, an IOB corpus and a randomly initialised BERT.

Everything is written under pytest's tmp dirs; no network, no downloaded encoder.
"""
import json
import os
import random
import sys

import pytest
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bioner_mrc.bert import BertConfig, BertEncoder  # noqa: E402

torch.set_num_threads(1)

CHEMICALS = ["aspirin", "cocaine", "lithium", "morphine", "naloxone", "heparin", "caffeine"]
DISEASES = ["seizures", "hepatitis", "toxicity", "pain", "breast cancer", "heart failure"]
FILLER = ["the", "patient", "received", "and", "developed", "after", "with", "was", "given", "in", "mice",
          "treated", "no", "signs", "of", "were", "observed"]
WORDS = (["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "can", "you", "detect", "chemical", "disease", "gene",
          "or", "protein", "entities", "like", "they", "are", "?", ".", ",", "-", "(", ")", "'", ";", "/",
          "α", "β", "κ", "cafe", "au", "lait", "syn", "##uc", "##lein", "naive", "s", "spots", "treatment",
          "ifn", "tnf", "nf", "12", "3", "induced", "severe", "hepato", "##toxicity", "brca", "##1", "mus",
          "musculus", "studied", "signalling", "mutations", "infection", "rats", "yeast", "hosts", "by",
          "syndrome", "seen", "sj", "##ogren", "species", "organisms", "chemicals", "drugs", "diseases"]
         + CHEMICALS + [w for d in DISEASES for w in d.split()] + FILLER)
VOCAB = {w: i for i, w in enumerate(dict.fromkeys(WORDS))}


def tokenizer_spec(vocab=None, lowercase=True, strip_accents=None, model_type="WordPiece"):
    return {
        "version": "1.0",
        "truncation": {"direction": "Right", "max_length": 128, "strategy": "LongestFirst", "stride": 0},
        "padding": {"strategy": {"Fixed": 128}, "direction": "Right", "pad_id": 0, "pad_type_id": 0,
                    "pad_token": "[PAD]"},
        "added_tokens": [],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": strip_accents, "lowercase": lowercase},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": model_type, "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": dict(vocab or VOCAB)},
    }


def write_tokenizer(path, **kw):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(tokenizer_spec(**kw), f, ensure_ascii=False)
    return str(path)


def iob_sentence(rng):
    """One sentence as [(token, tag)], with chemical and disease mentions."""
    chem, dis = rng.choice(CHEMICALS), rng.choice(DISEASES)
    out = []
    for part in rng.choice([
        ["the", "patient", "received", "C", "and", "developed", "D", "."],
        ["D", "was", "observed", "after", "C", "."],
        ["mice", "treated", "with", "C", "were", "given", "C2", "."],
        ["no", "signs", "of", "D", "were", "observed", "in", "mice", "."],
    ]):
        if part in ("C", "C2"):
            out.append((chem if part == "C" else rng.choice(CHEMICALS), "B-Chemical"))
        elif part == "D":
            for i, w in enumerate(dis.split()):
                out.append((w, ("B-" if i == 0 else "I-") + "Disease"))
        else:
            out.append((part, "O"))
    return out


def write_iob(path, sentences):
    with open(path, "w", encoding="utf-8") as f:
        for s in sentences:
            for tok, tag in s:
                f.write(f"{tok}\t{tag}\n")
            f.write("\n")


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("corpus") / "TINY-IOB"
    d.mkdir()
    rng = random.Random(7)
    for split, n in (("train", 48), ("devel", 12), ("test", 12)):
        write_iob(d / f"{split}.tsv", [iob_sentence(rng) for _ in range(n)])
    return str(d)


@pytest.fixture(scope="session")
def tokenizer_path(tmp_path_factory):
    return write_tokenizer(tmp_path_factory.mktemp("tok") / "tokenizer.json")


def tiny_config(**kw):
    base = dict(vocab_size=len(VOCAB), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                intermediate_size=64, max_position_embeddings=64, hidden_dropout_prob=0.1)
    base.update(kw)
    return BertConfig(**base)


def write_hf_dir(directory, state, config: BertConfig):
    os.makedirs(directory, exist_ok=True)
    hf = {k: v for k, v in config.to_dict().items() if k != "hidden_dropout_prob"}
    hf["model_type"] = "bert"
    with open(os.path.join(directory, "config.json"), "w") as f:
        json.dump(hf, f)
    torch.save(state, os.path.join(directory, "pytorch_model.bin"))
    return str(directory)


@pytest.fixture(scope="session")
def plain_bert_dir(tmp_path_factory):
    """A randomly initialised tiny BERT saved the HuggingFace way (bert.* keys, pooler included)."""
    torch.manual_seed(0)
    config = tiny_config()
    enc = BertEncoder(config)
    state = {"bert." + k: v for k, v in enc.state_dict().items()}
    state["bert.pooler.dense.weight"] = torch.zeros(32, 32)
    return write_hf_dir(tmp_path_factory.mktemp("plain-bert"), state, config)


def tiny_train_argv(bert_dir, tokenizer_path, corpus_dir, out, *extra):
    """bioner_mrc.train's options for a few quick steps of the tiny model on the tiny corpus."""
    return ["--hf-checkpoint", bert_dir, "--tokenizer", tokenizer_path,
            "--corpus", f"{corpus_dir}:Chemical=chemical,Disease=disease", "--out", out,
            "--epochs", "4", "--max-steps", "40", "--batch-size", "8", "--lr", "2e-3",
            "--head-lr", "1e-2", "--warmup", "0.1", "--max-len", "48", "--threads", "1",
            "--log-every", "1", "--checkpoint-every", "1000", "--seed", "3", *extra]


@pytest.fixture(scope="session")
def trained(tmp_path_factory, plain_bert_dir, tokenizer_path, corpus_dir):
    """Trains the tiny model for a few steps; returns (run dir, captured stdout)."""
    import contextlib
    import io

    from bioner_mrc import train

    out = str(tmp_path_factory.mktemp("run"))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = train.main(tiny_train_argv(plain_bert_dir, tokenizer_path, corpus_dir, out))
    torch.set_num_threads(1)
    assert rc == 0
    return out, buf.getvalue()
