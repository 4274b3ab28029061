"""A shipped int8 model (an unfused export.py graph) as a torch teacher: its weights read
back out of `model.onnx`.

The shipped folder keeps no fp32 weights, only the int8 graph. Every quantized MatMul weight
is followed, a few nodes downstream, by the Add of its named fp32 bias
(`m.bert.encoder.layer.L....bias`), which names the weight; dequantizing (q - zero_point) *
scale gives the exact values the int8 kernels multiply with, so the student starts from (and
is compared with) the model users run, not from a training run that is gone.
"""
import json
import os

import numpy as np


def _array(init):
    from onnx import numpy_helper
    return numpy_helper.to_array(init)


def _bias_of(out, consumers, inits, hops=4):
    """The named `.bias` initializer added to `out` within a few nodes (Cast, Mul, Add)."""
    frontier = [out]
    for _ in range(hops):
        nxt = []
        for name in frontier:
            for node in consumers.get(name, []):
                named = [i for i in node.input if i in inits and i.startswith("m.") and i.endswith(".bias")]
                if node.op_type == "Add" and named:
                    return named[0]
                nxt += list(node.output)
        frontier = nxt
    raise ValueError("no bias found after %s" % out)


def state_dict_from_onnx(path):
    """HF `BertForTokenClassification` state dict (numpy, fp32) of a model exported and
    quantized by export.py."""
    import onnx
    g = onnx.load(path).graph
    fused = sorted({n.op_type for n in g.node} & {"QAttention", "QEmbedLayerNormalization"})
    if fused:
        # their Q/K/V and embedding weights are packed differently; distil from the teacher's
        # training run (its HF folder) instead
        raise ValueError("%s: fused graph (%s) not supported" % (path, ", ".join(fused)))
    inits = {i.name: i for i in g.initializer}
    consumers = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    sd = {}
    for name, init in inits.items():
        if not name.startswith("m."):
            continue
        key = name[2:]
        if key.endswith(".weight_quantized"):   # embeddings: per-tensor, dequantized by Gather
            base = name[:-len("_quantized")]
            q = _array(init).astype(np.float32)
            sd[key[:-len("_quantized")]] = (q - _array(inits[base + "_zero_point"]).astype(np.float32)) \
                * _array(inits[base + "_scale"])
        elif not (key.endswith("_scale") or key.endswith("_zero_point")):
            sd[key] = _array(init).astype(np.float32)
    for n in g.node:
        if n.op_type == "MatMulInteger":
            wq = n.input[1]
            base = wq[:-len("_quantized")]
            q = _array(inits[wq]).astype(np.float32)
            w = (q - _array(inits[base + "_zero_point"]).astype(np.float32)) * _array(inits[base + "_scale"])
        elif n.op_type == "MatMul" and n.input[1] in inits:   # the fp32 classifier head
            w = _array(inits[n.input[1]])
        else:
            continue
        bias = _bias_of(n.output[0], consumers, inits)
        sd[bias[2:-len(".bias")] + ".weight"] = np.ascontiguousarray(w.T)   # MatMul [in,out] -> Linear [out,in]
    return sd


def load(model_dir):
    """The shipped model folder (config.json + model.onnx) as a torch BertForTokenClassification."""
    import torch
    from transformers import BertConfig, BertForTokenClassification
    with open(os.path.join(model_dir, "config.json")) as f:
        c = json.load(f)
    i2l = {int(k): v for k, v in c["id2label"].items()}
    cfg = BertConfig(vocab_size=c["vocab_size"], hidden_size=c["hidden_size"],
                     num_hidden_layers=c["num_hidden_layers"], num_attention_heads=c["num_attention_heads"],
                     intermediate_size=c["intermediate_size"], hidden_act=c["hidden_act"],
                     max_position_embeddings=c["max_position_embeddings"], type_vocab_size=c["type_vocab_size"],
                     layer_norm_eps=c["layer_norm_eps"], pad_token_id=c["pad_token_id"],
                     num_labels=len(i2l), id2label=i2l, label2id={v: k for k, v in i2l.items()})
    cfg.anonymizer = {"token_type_ids": c["anonymizer"]["token_type_ids"]}
    model = BertForTokenClassification(cfg)
    sd = {k: torch.from_numpy(v) for k, v in state_dict_from_onnx(os.path.join(model_dir, c["onnx"]["file"])).items()}
    missing, unexpected = model.load_state_dict(sd, strict=False)
    missing = [k for k in missing if not k.endswith("position_ids")]
    if missing or unexpected:
        raise ValueError("teacher weights do not match: missing %s, unexpected %s" % (missing, unexpected))
    return model.eval()
