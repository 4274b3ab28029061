"""Dev-set evaluation: strict span F1 (CoNLL, WNUT), TAB per-label F1 and mask-worthy
character recall/precision, plus characters/second.

    python training/evaluate.py --onnx model.onnx --tokenizer tokenizer.json --config config.json
    python training/evaluate.py --hf DIR
"""
import argparse
import glob
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import data  # noqa: E402
import infer  # noqa: E402
import metrics  # noqa: E402

SETS = {"conll2003": ("PER", "LOC", "ORG"), "wnut17": ("PER", "LOC", "ORG"),
        "tab": ("PER", "LOC", "ORG", "DATE")}


def torch_runner(model):
    import torch

    dev = next(model.parameters()).device

    def run(ids, mask, tt):
        with torch.no_grad():
            return model(input_ids=torch.from_numpy(ids).to(dev),
                         attention_mask=torch.from_numpy(mask).to(dev),
                         token_type_ids=torch.from_numpy(tt).to(dev)).logits.float().cpu().numpy()
    return run


def onnx_runner(path, threads=2):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])

    def run(ids, mask, tt):
        return sess.run(["logits"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": tt})[0]
    return run


def evaluate_file(run, tok, id2label, path, casing=False):
    corpus = data.corpus_of(path)
    docs = data.load_jsonl(path)
    texts = [d["text"] for d in docs]
    t0 = time.time()
    preds = infer.predict_spans(run, tok, texts, id2label, casing=casing)
    secs = time.time() - t0
    golds = [data.gold_spans(d, corpus) for d in docs]
    types = SETS[corpus]
    res = {"file": os.path.basename(path), "chars": sum(map(len, texts)), "seconds": secs,
           "strict": metrics.strict_span_scores(golds, preds, types)}
    if corpus == "tab":
        mw = [data.mask_worthy(d) for d in docs]
        allg = [[(e["start"], e["end"]) for e in d["entities"]] for d in docs]
        pr = [[(s, e) for s, e, _ in p] for p in preds]
        r, p = metrics.char_coverage_text(texts, mw, pr)
        _, p_any = metrics.char_coverage_text(texts, mw, pr, allg)
        res["mask_char_recall"], res["mask_char_precision"], res["char_precision_any_gold"] = r, p, p_any
    return res


def evaluate_all(run, tok, id2label, data_dir, casing=False):
    return [evaluate_file(run, tok, id2label, p, casing)
            for p in sorted(glob.glob(os.path.join(data_dir, "dev", "*.jsonl")))]


def summary(results):
    s = {}
    for r in results:
        k = r["file"].replace(".jsonl", "")
        s[k + "_f1"] = round(r["strict"]["micro"][2], 4)
        for t, v in r["strict"].items():
            if t != "micro":
                s["%s_%s_f1" % (k, t)] = round(v[2], 4)
        if "mask_char_recall" in r:
            s[k + "_mask_char_recall"] = round(r["mask_char_recall"], 4)
            s[k + "_mask_char_precision"] = round(r["mask_char_precision"], 4)
            s[k + "_char_precision_any_gold"] = round(r["char_precision_any_gold"], 4)
    return s


def speed(run, tok, id2label, data_dir, repeats=1, casing=False):
    texts = []
    for p in sorted(glob.glob(os.path.join(data_dir, "dev", "*.jsonl"))):
        texts += [d["text"] for d in data.load_jsonl(p)]
    n = sum(map(len, texts))
    infer.predict_spans(run, tok, texts[:50], id2label, casing=casing)  # warm-up
    t0 = time.time()
    for _ in range(repeats):
        infer.predict_spans(run, tok, texts, id2label, casing=casing)
    return n * repeats / (time.time() - t0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnx")
    ap.add_argument("--hf")
    ap.add_argument("--tokenizer")
    ap.add_argument("--config")
    ap.add_argument("--data", default=os.environ.get("ANON_DATA", "/work/shared/data"))
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu", help="where an --hf model runs (cpu, cuda)")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.hf:
        import torch
        from transformers import BertForTokenClassification
        torch.set_num_threads(a.threads)
        model = BertForTokenClassification.from_pretrained(a.hf).eval().to(a.device)
        run = torch_runner(model)
        cfg = os.path.join(a.hf, "config.json")
        tokp = a.tokenizer or os.path.join(a.hf, "tokenizer.json")
    else:
        run = onnx_runner(a.onnx, a.threads)
        cfg = a.config or os.path.join(os.path.dirname(a.onnx), "config.json")
        tokp = a.tokenizer or os.path.join(os.path.dirname(a.onnx), "tokenizer.json")
    with open(cfg) as f:
        conf = json.load(f)
    i2l = {int(k): v for k, v in conf["id2label"].items()}
    casing = (conf.get("anonymizer") or {}).get("token_type_ids") == "casing"
    tok = infer.load_tokenizer(tokp)
    res = evaluate_all(run, tok, i2l, a.data, casing)
    out = {"summary": summary(res), "details": res}
    if a.speed:
        out["chars_per_second"] = round(speed(run, tok, i2l, a.data, casing=casing))
    print(json.dumps(out["summary"], indent=1))
    if "chars_per_second" in out:
        print("chars/s", out["chars_per_second"])
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
