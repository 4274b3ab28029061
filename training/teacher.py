"""A shipped int8 model (an unfused export.py graph) as a torch teacher: its weights read
back out of `model.onnx`.

The shipped folder keeps no fp32 weights, only the int8 graph. Every quantized MatMul weight
is followed, a few nodes downstream, by the Add of its named fp32 bias
(`m.bert.encoder.layer.L....bias`), which names the weight; dequantizing (q - zero_point) *
scale gives the exact values the int8 kernels multiply with, so the student starts from (and
is compared with) the model users run, not from a training run that is gone.
"""
import os

import numpy as np


def _array(init):
    from onnx import numpy_helper
    return numpy_helper.to_array(init)


def _dequantized(inits, base):
    """(q - zero_point) * scale of the initializers `base`_quantized/_zero_point/_scale."""
    q = _array(inits[base + "_quantized"]).astype(np.float32)
    return (q - _array(inits[base + "_zero_point"]).astype(np.float32)) * _array(inits[base + "_scale"])


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
            sd[key[:-len("_quantized")]] = _dequantized(inits, name[:-len("_quantized")])
        elif not (key.endswith("_scale") or key.endswith("_zero_point")):
            sd[key] = _array(init).astype(np.float32)
    for n in g.node:
        if n.op_type == "MatMulInteger":
            w = _dequantized(inits, n.input[1][:-len("_quantized")])
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
    # export.py's config.json is an HF BERT config (labels, sizes) with our keys beside it
    cfg = BertConfig.from_pretrained(model_dir)
    model = BertForTokenClassification(cfg)
    sd = {k: torch.from_numpy(v) for k, v in state_dict_from_onnx(os.path.join(model_dir, cfg.onnx["file"])).items()}
    missing, unexpected = model.load_state_dict(sd, strict=False)
    missing = [k for k in missing if not k.endswith("position_ids")]
    if missing or unexpected:
        raise ValueError("teacher weights do not match: missing %s, unexpected %s" % (missing, unexpected))
    return model.eval()
