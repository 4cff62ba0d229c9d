#!/usr/bin/python3
"""Tiny GPT-2 and BERT checkpoints and what an independent PyTorch reference computes on them.

Writes tests/core/data/pretrained/ (make pretrained-fixtures; --check compares a fresh run with
the committed files byte for byte, make check-pretrained-fixtures):
  <case>/config.json, model.safetensors     Hugging Face's exact tensor names, shapes, dtypes
  <case>/vocab.json + merges.txt (GPT-2) or vocab.txt + tokenizer_config.json (BERT)
  <case>/expected.safetensors               F32: attn.<l> [heads, T, T], hidden [T, d],
                                            logits [T, V], loss [1], ablation [layers*heads],
                                            value_norm.<l> [heads, T]
  manifest.json                             every case: its tokens, token types, targets

The reference is written here from the published architectures, in plain torch and in float64,
not from the C++ core: GPT-2 (Radford et al. 2019; openai/gpt-2 model.py: pre-LayerNorm,
learned positions, Conv1D weights [in, out], the fused c_attn, GELU with the tanh approximation,
the causal mask, the LM head tied to wte) and BERT (Devlin et al. 2019; post-LayerNorm,
word + position + token-type embeddings, nn.Linear [out, in], GELU with erf, the masked-LM head
transform -> LayerNorm -> decoder tied to the word embeddings, plus its bias).

Weights are random (numpy's PCG64, seeded), rounded to the case's dtype; the reference reads the
rounded values back in float64, so F16 and BF16 cases test the same arithmetic as F32 ones.
Deterministic: one thread, fixed seeds, every file written in a fixed order; results rounded to
float32 from float64 (a different BLAS summation order moves float64 results by ~1e-16 relative,
far below float32's rounding step).
"""
import argparse
import filecmp
import json
import math
import os
import shutil
import struct
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "core", "data", "pretrained")

# ---------------------------------------------------------------------------------------------
# safetensors writing (the format: 8-byte little-endian header length, JSON header padded with
# spaces to a multiple of 8, then the data, tensors in the order given)

DTYPES = {"F32": (torch.float32, 4), "F16": (torch.float16, 2), "BF16": (torch.bfloat16, 2),
          "I64": (torch.int64, 8)}


def tensor_bytes(t, dtype):
    tt = t.to(DTYPES[dtype][0]).contiguous()
    if dtype == "BF16":
        return tt.view(torch.int16).numpy().tobytes()
    return tt.numpy().tobytes()


def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, dtype, torch tensor)."""
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dtype, t in tensors:
        b = tensor_bytes(t, dtype)
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def rounded(t, dtype):
    """The values a file of that dtype holds, back in float64."""
    return t.to(DTYPES[dtype][0]).to(torch.float64)


# ---------------------------------------------------------------------------------------------
# tokenizer files

def bytes_to_unicode():
    """GPT-2's byte -> printable character table (openai/gpt-2 encoder.py)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


CORPUS = ("the cat sat on the mat . the dog sat on the log . a cat and a dog . "
          "attention is all you need . the head looks at the token before . "
          "고양이가 매트 위에 앉았다 . 어텐션 헤드는 앞 토큰을 본다 .")


def gpt2_tokenizer_files(n_merges):
    """256 byte tokens, n_merges merges learned greedily on CORPUS (words with GPT-2's Ġ for a
    leading space), <|endoftext|> last."""
    b2u = bytes_to_unicode()
    words = {}
    for i, w in enumerate(CORPUS.split(" ")):
        s = (" " if i else "") + w
        key = tuple(b2u[b] for b in s.encode("utf-8"))
        words[key] = words.get(key, 0) + 1
    vocab = [b2u[b] for b in range(256)]
    merges = []
    for _ in range(n_merges):
        pairs = {}
        for w, c in words.items():
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + c
        if not pairs:
            break
        best = max(sorted(pairs), key=lambda p: pairs[p])  # ties: the first in sorted order
        merges.append(best)
        vocab.append(best[0] + best[1])
        nw = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(w[i] + w[i + 1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            nw[tuple(out)] = nw.get(tuple(out), 0) + c
        words = nw
    vocab.append("<|endoftext|>")
    return {t: i for i, t in enumerate(vocab)}, merges


BERT_WORDS = ["the", "cat", "sat", "on", "mat", "dog", "a", "and", "head", "token", "attention",
              "##s", "##ing", "##ed", "고양이", "##가", "매트", "위", "##에", "앉", "##았다", "어텐션"]


def bert_vocab():
    v = ["[PAD]", "[unused0]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    v += list(".,!?'\"()-")
    v += [chr(c) for c in range(ord("a"), ord("z") + 1)]
    v += ["##" + chr(c) for c in range(ord("a"), ord("z") + 1)]
    v += BERT_WORDS
    return v


# ---------------------------------------------------------------------------------------------
# the reference forward passes (float64)

def layer_norm(x, g, b, eps):
    return F.layer_norm(x, (x.shape[-1],), g, b, eps)


def gpt2_forward(W, cfg, ids, zero=None):
    """Returns per-layer attention [H, T, T], value norms [H, T], hidden [T, d], logits [T, V]."""
    d, H, L = cfg["n_embd"], cfg["n_head"], cfg["n_layer"]
    dk = d // H
    T = len(ids)
    ids_t = torch.tensor(ids)
    x = W["wte"][ids_t] + W["wpe"][:T]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    attn, vnorm = [], []
    for l in range(L):
        p = f"h.{l}."
        a = layer_norm(x, W[p + "ln_1.weight"], W[p + "ln_1.bias"], cfg["layer_norm_epsilon"])
        qkv = a @ W[p + "attn.c_attn.weight"] + W[p + "attn.c_attn.bias"]  # Conv1D: x W + b
        q, k, v = qkv.split(d, dim=1)
        q, k, v = (t.reshape(T, H, dk).transpose(0, 1) for t in (q, k, v))  # H, T, dk
        s = (q @ k.transpose(1, 2)) / math.sqrt(dk)
        s = s.masked_fill(~causal, float("-inf"))
        P = torch.softmax(s, dim=-1)
        attn.append(P)
        Wo = W[p + "attn.c_proj.weight"]  # [in, out]: head h's rows h*dk..
        vnorm.append(torch.stack([(v[h] @ Wo[h * dk:(h + 1) * dk]).norm(dim=1) for h in range(H)]))
        o = P @ v
        if zero is not None and zero[0] == l:
            o = o.clone()
            o[zero[1]] = 0
        o = o.transpose(0, 1).reshape(T, d)
        x = x + o @ Wo + W[p + "attn.c_proj.bias"]
        m = layer_norm(x, W[p + "ln_2.weight"], W[p + "ln_2.bias"], cfg["layer_norm_epsilon"])
        hdn = F.gelu(m @ W[p + "mlp.c_fc.weight"] + W[p + "mlp.c_fc.bias"], approximate="tanh")
        x = x + hdn @ W[p + "mlp.c_proj.weight"] + W[p + "mlp.c_proj.bias"]
    hidden = layer_norm(x, W["ln_f.weight"], W["ln_f.bias"], cfg["layer_norm_epsilon"])
    head = W.get("lm_head", W["wte"])
    return attn, vnorm, hidden, hidden @ head.T


def bert_forward(W, cfg, ids, types, zero=None):
    d, H, L = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_hidden_layers"]
    dk = d // H
    eps = cfg["layer_norm_eps"]
    T = len(ids)
    x = W["word"][torch.tensor(ids)] + W["pos"][:T] + W["type"][torch.tensor(types)]
    x = layer_norm(x, W["emb_ln_g"], W["emb_ln_b"], eps)
    attn, vnorm = [], []
    for l in range(L):
        p = f"encoder.layer.{l}."

        def lin(name, inp):  # nn.Linear: x Wᵀ + b
            return inp @ W[p + name + ".weight"].T + W[p + name + ".bias"]

        q, k, v = (lin("attention.self." + n, x).reshape(T, H, dk).transpose(0, 1) for n in ("query", "key", "value"))
        P = torch.softmax((q @ k.transpose(1, 2)) / math.sqrt(dk), dim=-1)
        attn.append(P)
        Wo = W[p + "attention.output.dense.weight"]  # [out, in]: head h's columns h*dk..
        vnorm.append(torch.stack([(v[h] @ Wo[:, h * dk:(h + 1) * dk].T).norm(dim=1) for h in range(H)]))
        o = P @ v
        if zero is not None and zero[0] == l:
            o = o.clone()
            o[zero[1]] = 0
        o = o.transpose(0, 1).reshape(T, d)
        x = layer_norm(x + lin("attention.output.dense", o), W[p + "ln1_g"], W[p + "ln1_b"], eps)
        hdn = F.gelu(lin("intermediate.dense", x))
        x = layer_norm(x + lin("output.dense", hdn), W[p + "ln2_g"], W[p + "ln2_b"], eps)
    logits = None
    if "mlm_dense" in W:
        t = F.gelu(x @ W["mlm_dense"].T + W["mlm_dense_b"])
        t = layer_norm(t, W["mlm_ln_g"], W["mlm_ln_b"], eps)
        logits = t @ W.get("mlm_decoder", W["word"]).T + W["mlm_bias"]
    return attn, vnorm, x, logits


def nll(logits, targets):
    lp = torch.log_softmax(logits, dim=-1)
    rows = [i for i, t in enumerate(targets) if t >= 0]
    return -sum(lp[i, targets[i]] for i in rows) / len(rows)


# ---------------------------------------------------------------------------------------------
# the cases

def rng_normal(rng, *shape, std=0.2):
    return torch.from_numpy(rng.standard_normal(shape) * std)


def gpt2_case(name, dtype, prefix, untied, seed):
    vocab, merges = gpt2_tokenizer_files(64)
    V = len(vocab)
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_layer": 2, "n_head": 4, "n_embd": 32,
           "n_positions": 24, "n_ctx": 24, "n_inner": None, "vocab_size": V, "layer_norm_epsilon": 1e-5,
           "activation_function": "gelu_new", "bos_token_id": V - 1, "eos_token_id": V - 1}
    d, L, P = cfg["n_embd"], cfg["n_layer"], cfg["n_positions"]
    rng = np.random.default_rng(seed)
    tensors, W = [], {}

    def add(hf, key, t, dt=dtype):
        tensors.append((prefix + hf, dt, t))
        if key:
            W[key] = rounded(t, dt)

    add("wte.weight", "wte", rng_normal(rng, V, d))
    add("wpe.weight", "wpe", rng_normal(rng, P, d, std=0.1))
    for l in range(L):
        p = f"h.{l}."
        add(p + "ln_1.weight", p + "ln_1.weight", 1 + rng_normal(rng, d, std=0.1))
        add(p + "ln_1.bias", p + "ln_1.bias", rng_normal(rng, d, std=0.1))
        # the causal buffers older saves carry: ignored by the loader
        add(p + "attn.bias", None, torch.tril(torch.ones(1, 1, P, P)), "F32")
        add(p + "attn.masked_bias", None, torch.tensor(-1e4), "F32")
        add(p + "attn.c_attn.weight", p + "attn.c_attn.weight", rng_normal(rng, d, 3 * d, std=0.5))
        add(p + "attn.c_attn.bias", p + "attn.c_attn.bias", rng_normal(rng, 3 * d, std=0.1))
        add(p + "attn.c_proj.weight", p + "attn.c_proj.weight", rng_normal(rng, d, d))
        add(p + "attn.c_proj.bias", p + "attn.c_proj.bias", rng_normal(rng, d, std=0.1))
        add(p + "ln_2.weight", p + "ln_2.weight", 1 + rng_normal(rng, d, std=0.1))
        add(p + "ln_2.bias", p + "ln_2.bias", rng_normal(rng, d, std=0.1))
        add(p + "mlp.c_fc.weight", p + "mlp.c_fc.weight", rng_normal(rng, d, 4 * d))
        add(p + "mlp.c_fc.bias", p + "mlp.c_fc.bias", rng_normal(rng, 4 * d, std=0.1))
        add(p + "mlp.c_proj.weight", p + "mlp.c_proj.weight", rng_normal(rng, 4 * d, d, std=0.1))
        add(p + "mlp.c_proj.bias", p + "mlp.c_proj.bias", rng_normal(rng, d, std=0.1))
    add("ln_f.weight", "ln_f.weight", 1 + rng_normal(rng, d, std=0.1))
    add("ln_f.bias", "ln_f.bias", rng_normal(rng, d, std=0.1))
    if untied:
        tensors.append(("lm_head.weight", dtype, rng_normal(rng, V, d)))
        W["lm_head"] = rounded(tensors[-1][2], dtype)
    tokens = [V - 1] + [int(x) for x in rng.integers(0, V - 1, size=11)]
    targets = tokens[1:] + [-1]
    files = {"vocab.json": json.dumps(vocab, ensure_ascii=False, indent=0, sort_keys=False) + "\n",
             "merges.txt": "#version: 0.2\n" + "".join(a + " " + b + "\n" for a, b in merges)}

    def run(zero=None):
        return gpt2_forward(W, cfg, tokens, zero)

    return cfg, tensors, files, {"tokens": tokens, "token_types": [], "targets": targets}, run


def bert_case(name, dtype, prefix, gamma_beta, mlm, decoder, seed):
    vocab = bert_vocab()
    V = len(vocab)
    cfg = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 32, "num_hidden_layers": 2,
           "num_attention_heads": 4, "intermediate_size": 64, "max_position_embeddings": 24, "vocab_size": V,
           "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": "gelu", "pad_token_id": 0,
           "position_embedding_type": "absolute"}
    d, L, P, f = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["max_position_embeddings"], cfg["intermediate_size"]
    rng = np.random.default_rng(seed)
    tensors, W = [], {}
    g_name, b_name = ("gamma", "beta") if gamma_beta else ("weight", "bias")

    def add(hf, key, t, dt=dtype, pre=prefix):
        tensors.append((pre + hf, dt, t))
        if key:
            W[key] = rounded(t, dt)

    e = "embeddings."
    add(e + "word_embeddings.weight", "word", rng_normal(rng, V, d))
    add(e + "position_embeddings.weight", "pos", rng_normal(rng, P, d, std=0.1))
    add(e + "token_type_embeddings.weight", "type", rng_normal(rng, 2, d, std=0.1))
    add(e + "LayerNorm." + g_name, "emb_ln_g", 1 + rng_normal(rng, d, std=0.1))
    add(e + "LayerNorm." + b_name, "emb_ln_b", rng_normal(rng, d, std=0.1))
    add(e + "position_ids", None, torch.arange(P).reshape(1, P), "I64")
    for l in range(L):
        p = f"encoder.layer.{l}."
        for n in ("query", "key", "value"):
            add(p + "attention.self." + n + ".weight", p + "attention.self." + n + ".weight",
                rng_normal(rng, d, d, std=0.5))
            add(p + "attention.self." + n + ".bias", p + "attention.self." + n + ".bias", rng_normal(rng, d, std=0.1))
        add(p + "attention.output.dense.weight", p + "attention.output.dense.weight", rng_normal(rng, d, d))
        add(p + "attention.output.dense.bias", p + "attention.output.dense.bias", rng_normal(rng, d, std=0.1))
        add(p + "attention.output.LayerNorm." + g_name, p + "ln1_g", 1 + rng_normal(rng, d, std=0.1))
        add(p + "attention.output.LayerNorm." + b_name, p + "ln1_b", rng_normal(rng, d, std=0.1))
        add(p + "intermediate.dense.weight", p + "intermediate.dense.weight", rng_normal(rng, f, d))
        add(p + "intermediate.dense.bias", p + "intermediate.dense.bias", rng_normal(rng, f, std=0.1))
        add(p + "output.dense.weight", p + "output.dense.weight", rng_normal(rng, d, f, std=0.2))
        add(p + "output.dense.bias", p + "output.dense.bias", rng_normal(rng, d, std=0.1))
        add(p + "output.LayerNorm." + g_name, p + "ln2_g", 1 + rng_normal(rng, d, std=0.1))
        add(p + "output.LayerNorm." + b_name, p + "ln2_b", rng_normal(rng, d, std=0.1))
    add("pooler.dense.weight", None, rng_normal(rng, d, d))
    add("pooler.dense.bias", None, rng_normal(rng, d))
    if mlm:
        c = "cls.predictions."
        add(c + "transform.dense.weight", "mlm_dense", rng_normal(rng, d, d), pre="")
        add(c + "transform.dense.bias", "mlm_dense_b", rng_normal(rng, d, std=0.1), pre="")
        add(c + "transform.LayerNorm." + g_name, "mlm_ln_g", 1 + rng_normal(rng, d, std=0.1), pre="")
        add(c + "transform.LayerNorm." + b_name, "mlm_ln_b", rng_normal(rng, d, std=0.1), pre="")
        add(c + "bias", "mlm_bias", rng_normal(rng, V, std=0.1), pre="")
        if decoder:
            add(c + "decoder.weight", "mlm_decoder", rng_normal(rng, V, d), pre="")
        add("cls.seq_relationship.weight", None, rng_normal(rng, 2, d), pre="")
        add("cls.seq_relationship.bias", None, rng_normal(rng, 2), pre="")
    cls_id, sep_id, mask_id = vocab.index("[CLS]"), vocab.index("[SEP]"), vocab.index("[MASK]")
    body = [int(x) for x in rng.integers(6, V, size=10)]
    tokens = [cls_id] + body + [sep_id]
    types = [0] * 6 + [1] * 6
    masked = [2, 5, 9]
    inp = list(tokens)
    targets = [-1] * len(tokens)
    for m in masked:
        targets[m] = tokens[m]
        inp[m] = mask_id
    files = {"vocab.txt": "".join(t + "\n" for t in vocab),
             "tokenizer_config.json": json.dumps({"do_lower_case": True, "tokenize_chinese_chars": True,
                                                  "strip_accents": None}, indent=2) + "\n"}

    def run(zero=None):
        return bert_forward(W, cfg, inp, types, zero)

    return cfg, tensors, files, {"tokens": inp, "token_types": types, "targets": targets if mlm else [],
                                 "masked_positions": masked, "mask_id": mask_id}, run


CASES = [
    ("gpt2-f32", lambda: gpt2_case("gpt2-f32", "F32", "transformer.", False, 11)),
    ("gpt2-f16", lambda: gpt2_case("gpt2-f16", "F16", "", False, 12)),
    ("gpt2-bf16-untied", lambda: gpt2_case("gpt2-bf16-untied", "BF16", "transformer.", True, 13)),
    ("bert-f32", lambda: bert_case("bert-f32", "F32", "bert.", True, True, False, 21)),
    ("bert-f16", lambda: bert_case("bert-f16", "F16", "bert.", False, True, True, 22)),
    ("bert-bf16-encoder", lambda: bert_case("bert-bf16-encoder", "BF16", "", False, False, False, 23)),
]


def f32(t):
    return t.to(torch.float32)


def generate(out):
    os.makedirs(out, exist_ok=True)
    manifest = {"generator": "tools/pretrained/reference.py", "torch": torch.__version__.split("+")[0],
                "cases": []}
    for name, make in CASES:
        cfg, tensors, files, inputs, run = make()
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w", encoding="utf-8") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")
        write_safetensors(os.path.join(d, "model.safetensors"), tensors, {"format": "pt"})
        for fn, text in files.items():
            with open(os.path.join(d, fn), "w", encoding="utf-8") as f:
                f.write(text)
        with torch.no_grad():
            attn, vnorm, hidden, logits = run()
            exp = [(f"attn.{l}", "F32", f32(a)) for l, a in enumerate(attn)]
            exp += [(f"value_norm.{l}", "F32", f32(v)) for l, v in enumerate(vnorm)]
            exp.append(("hidden", "F32", f32(hidden)))
            if logits is not None and inputs["targets"]:
                exp.append(("logits", "F32", f32(logits)))
                base = nll(logits, inputs["targets"])
                exp.append(("loss", "F32", f32(base.reshape(1))))
                L, H = len(attn), attn[0].shape[0]
                abl = []
                for l in range(L):
                    for h in range(H):
                        abl.append(nll(run((l, h))[3], inputs["targets"]))
                exp.append(("ablation", "F32", f32(torch.stack(abl))))
        write_safetensors(os.path.join(d, "expected.safetensors"), exp)
        manifest["cases"].append({"name": name, **inputs})
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--check", action="store_true", help="generate into a temporary folder and compare with --out")
    a = ap.parse_args()
    if not a.check:
        generate(a.out)
        print("wrote", a.out)
        return 0
    tmp = tempfile.mkdtemp()
    try:
        generate(tmp)
        bad = []
        for dirpath, _, names in os.walk(tmp):
            for n in names:
                rel = os.path.relpath(os.path.join(dirpath, n), tmp)
                ref = os.path.join(a.out, rel)
                if not os.path.exists(ref) or not filecmp.cmp(os.path.join(dirpath, n), ref, shallow=False):
                    bad.append(rel)
        for dirpath, _, names in os.walk(a.out):
            for n in names:
                rel = os.path.relpath(os.path.join(dirpath, n), a.out)
                if not os.path.exists(os.path.join(tmp, rel)):
                    bad.append(rel + " (not generated)")
        if bad:
            print("differ from a fresh run:", *sorted(bad), sep="\n  ")
            return 1
        print("the committed fixtures are what the reference writes, byte for byte")
        return 0
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
