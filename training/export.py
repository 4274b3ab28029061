"""Export a fine-tuned HF token-classification model to ONNX, quantize it to int8
(dynamic), and write the shipped folder: model.onnx (int8), tokenizer.json, config.json.

    python training/export.py --hf RUN/hf --out models/anonymizer-ner --work /tmp/export
"""
import argparse
import json
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402


def export_fp32(hf_dir, path, opset=17):
    from transformers import BertForTokenClassification
    # eager attention exports the MatMul/Softmax pattern onnxruntime's BERT fusion recognises;
    # the default (sdpa) adds mask guards (IsNaN, Where) that no fusion matches
    model = BertForTokenClassification.from_pretrained(hf_dir, attn_implementation="eager").eval()
    model.config.return_dict = False

    class Wrap(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids, return_dict=False)[0]

    ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.long)
    mask = (ids != 0).long()
    axes = {0: "batch", 1: "sequence"}
    torch.onnx.export(Wrap(model), (ids, mask, torch.zeros_like(ids)), path,
                      input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["logits"], opset_version=opset, do_constant_folding=True,
                      dynamic_axes={"input_ids": axes, "attention_mask": axes,
                                    "token_type_ids": axes, "logits": axes},
                      dynamo=False)
    return model.config


# int8 schemes, tried in this order by run.sh until one stays within 0.01 F1 of fp32 on every
# dev set (make_card.py --check), so that a rebuild passes on any CPU.
#  s8:      8-bit signed weights, per output channel. Per-tensor scales cost 0.011 CoNLL F1
#           against fp32, per-channel none. Best on CPUs with VNNI (measured: largest drop
#           0.004; model card).
#  s8-7bit: the same with 7-bit weights (reduce_range). Without VNNI, onnxruntime's u8 x s8
#           kernels add pairs of products in 16 bits, which full-range weights can saturate;
#           a rebuild on an AVX2-only machine lost 0.011 TAB F1 that way. 7 bits
#           cannot saturate, at some precision everywhere (measured on a VNNI machine:
#           largest drop 0.012, so s8 comes first).
#  u8:      u8 weights (u8 x u8 kernels) avoid saturation too but measured slower (35,300 vs
#           47,100 characters/s) and no more accurate (largest drop 0.012), so run.sh does not
#           try them; benches/avx2/formats.py times them.
SCHEMES = {"s8": {"weight_type": "QInt8", "reduce_range": False},
           "s8-7bit": {"weight_type": "QInt8", "reduce_range": True},
           "u8": {"weight_type": "QUInt8", "reduce_range": False}}


def fuse(fp32, fused, cfg):
    """onnxruntime's BERT fusion, before quantization (it does not match the int8 graph):
    one Attention node per layer (Q, K and V in one product, mask and softmax inside),
    EmbedLayerNormalization, BiasGelu and SkipLayerNormalization; quantized, QAttention
    and QEmbedLayerNormalization. Fails if the fusion did not form every layer's Attention (a changed export pattern)."""
    from onnxruntime.transformers.optimizer import optimize_model
    opt = optimize_model(fp32, model_type="bert", num_heads=cfg.num_attention_heads,
                         hidden_size=cfg.hidden_size, opt_level=0)
    stats = opt.get_fused_operator_statistics()
    if stats.get("Attention") != cfg.num_hidden_layers or stats.get("EmbedLayerNormalization") != 1:
        raise SystemExit("BERT fusion incomplete: %s" % stats)
    opt.save_model_to_file(fused)


def quantize(fp32, int8, scheme="s8"):
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    # The classifier head stays fp32 in every scheme: 384 x 9 weights (14 KB) whose
    # rounding moves the arg-max of borderline tokens directly.
    head = [n.name for n in onnx.load(fp32).graph.node if "classifier" in n.name]
    assert head, "classifier nodes not found"
    quantize_dynamic(fp32, int8, weight_type=QuantType[SCHEMES[scheme]["weight_type"]],
                     per_channel=True, nodes_to_exclude=head,
                     # fused nodes (com.microsoft domain) defeat shape inference
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
                     reduce_range=SCHEMES[scheme]["reduce_range"])


def hf_config(cfg, version, scheme, fused, name="anonymizer-ner"):
    """HuggingFace-style token-classification config.json (BIO labels)."""
    d = cfg.to_dict()
    keep = ["architectures", "model_type", "hidden_size", "num_hidden_layers", "num_attention_heads",
            "intermediate_size", "hidden_act", "max_position_embeddings", "type_vocab_size",
            "vocab_size", "layer_norm_eps", "pad_token_id"]
    out = {k: d[k] for k in keep if k in d}
    out["architectures"] = ["BertForTokenClassification"]
    out["id2label"] = {str(k): v for k, v in sorted(cfg.id2label.items(), key=lambda x: int(x[0]))}
    out["label2id"] = {v: int(k) for k, v in cfg.id2label.items()}
    # how to fill token_type_ids: "casing" = word-shape bit (training/bio.py casing_type_ids)
    # of an uncased encoder; "words": "tokens" = every sub-word tagged (multilingual/)
    extra = d.get("anonymizer") or {"token_type_ids": "zeros"}
    out["do_lower_case"] = extra.get("token_type_ids") == "casing"
    out["anonymizer"] = {**extra,
                         # what /readyz reports beside the weights' SHA-256
                         "name": name, "version": version}
    out["max_length"] = 128
    out["onnx"] = {"file": "model.onnx", "inputs": ["input_ids", "attention_mask", "token_type_ids"],
                   "output": "logits", "quantization": "int8 dynamic (onnxruntime quantize_dynamic), scheme %s: per channel, fp32 classifier%s" % (
                       scheme, ", 7-bit weights" if SCHEMES[scheme]["reduce_range"] else ""),
                   "graph": "onnxruntime BERT fusion (QAttention, QEmbedLayerNormalization)" if fused else "as exported"}
    return out


def write_tokenizer(src, dst):
    """The encoder's fast-tokenizer JSON without its built-in truncation/padding to 128
    (callers window long texts themselves; silent truncation would drop text)."""
    with open(src, encoding="utf-8") as f:
        tj = json.load(f)
    tj["truncation"] = None
    tj["padding"] = None
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(tj, f, ensure_ascii=False, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hf", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", required=True, help="scratch folder for the fp32 model")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--version", default="dev", help="model version recorded in config.json")
    ap.add_argument("--name", default="anonymizer-ner", help="model name recorded in config.json")
    ap.add_argument("--quant", default="s8", choices=sorted(SCHEMES), help="int8 scheme (see SCHEMES)")
    ap.add_argument("--reuse-fp32", action="store_true", help="quantize the fp32 export already in --work")
    ap.add_argument("--fuse", type=int, default=1, help="1: fuse the BERT graph before quantizing (see fuse)")
    a = ap.parse_args()
    torch.set_num_threads(2)
    os.makedirs(a.work, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    fp32 = os.path.join(a.work, "model_fp32.onnx")
    if a.reuse_fp32 and os.path.exists(fp32):
        from transformers import BertConfig
        cfg = BertConfig.from_pretrained(a.hf)
    else:
        cfg = export_fp32(a.hf, fp32, a.opset)
    src = fp32
    if a.fuse:
        src = os.path.join(a.work, "model_fused_fp32.onnx")
        fuse(fp32, src, cfg)
    quantize(src, os.path.join(a.out, "model.onnx"), a.quant)
    conf = hf_config(cfg, a.version, a.quant, bool(a.fuse), a.name)
    for d in (a.out, a.work):
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(conf, f, indent=2)
        write_tokenizer(os.path.join(a.hf, "tokenizer.json"), os.path.join(d, "tokenizer.json"))
    print("fp32", os.path.getsize(fp32), "int8", os.path.getsize(os.path.join(a.out, "model.onnx")))


if __name__ == "__main__":
    main()
