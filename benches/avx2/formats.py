"""Wall clock of one model's ONNX formats on this CPU, same windows, paired rounds.

    /work/venv-train/bin/python benches/avx2/formats.py [--model models/anonymizer-ner]

The model folder's int8 graph is read back into fp32 weights (training/teacher.py), exported
again and quantized in each format export.py knows or that the AVX2 work asks about; every format
then runs the same batches of dev windows (CoNLL-2003 dev, windows of up to 128 tokens,
sorted by length and cut into batches of <= 4,096 padded tokens as the service's pool does),
alternating formats round by round so that a machine's drift hits all of them alike.
Prints the CPU line, characters/s per format (best of the rounds) and on how many tokens a
format's arg-max differs from the shipped file's, a cheap check that it computes the same
model.
"""
import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "training"))
sys.path.insert(0, os.path.join(HERE, "..", "presidio"))

import bio  # noqa: E402
import compare  # noqa: E402
import export  # noqa: E402
import infer  # noqa: E402
import teacher  # noqa: E402

# Windows advance 128 - 2 - 24 tokens: the service's default overlap of 24.
STRIDE = infer.MAX_CONTENT - 24


def batches(model_dir, data, limit_chars):
    tok = infer.load_tokenizer(os.path.join(model_dir, "tokenizer.json"))
    texts, n = [], 0
    with open(data, encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)["text"]
            texts.append(t)
            n += len(t)
            if n >= limit_chars:
                break
    windows = []
    for t, enc in zip(texts, infer.encode_docs(tok, texts)):
        types = bio.casing_type_ids(t, enc.offsets, enc.word_ids)
        for b, e in bio.windows(len(enc.ids), infer.word_starts(enc.word_ids),
                                infer.MAX_CONTENT, STRIDE):
            windows.append(([101] + enc.ids[b:e] + [102], [0] + types[b:e] + [0]))
    windows.sort(key=lambda w: len(w[0]))
    out, cur = [], []
    for w in windows:
        if cur and (len(cur) + 1) * len(w[0]) > 4096:
            out.append(cur)
            cur = []
        cur.append(w)
    if cur:
        out.append(cur)
    feeds = []
    for b in out:
        L = max(len(w[0]) for w in b)
        ids = np.zeros((len(b), L), np.int64)
        ty = np.zeros((len(b), L), np.int64)
        m = np.zeros((len(b), L), np.int64)
        for i, (a, t) in enumerate(b):
            ids[i, :len(a)] = a
            ty[i, :len(t)] = t
            m[i, :len(a)] = 1
        feeds.append({"input_ids": ids, "attention_mask": m, "token_type_ids": ty})
    return feeds, n


def build(model_dir, work):
    """{format name: onnx path}, from the shipped file's own weights."""
    import torch  # noqa: F401
    m = teacher.load(model_dir)
    hf = os.path.join(work, "hf")
    m.save_pretrained(hf)
    cfg = m.config
    fp32 = os.path.join(work, "fp32.onnx")
    export.export_fp32(hf, fp32)
    fused = os.path.join(work, "fp32_fused.onnx")
    export.fuse(fp32, fused, cfg)
    paths = {"int8 s8 unfused (shipped file)": os.path.join(model_dir, "model.onnx"),
             "fp32 unfused": fp32, "fp32 fused": fused}
    for name, src, scheme in (("int8 s8 fused", fused, "s8"),
                              ("int8 s8-7bit unfused", fp32, "s8-7bit"),
                              ("int8 u8 unfused", fp32, "u8")):
        p = os.path.join(work, name.replace(" ", "_") + ".onnx")
        export.quantize(src, p, scheme)
        paths[name] = p
    return paths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="models/anonymizer-ner")
    ap.add_argument("--data", default=os.path.join(os.environ.get("ANON_DATA", "/work/shared/data"),
                                                   "dev", "conll2003_dev.jsonl"))
    ap.add_argument("--chars", type=int, default=60000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="2", help="comma-separated intra-op thread counts")
    ap.add_argument("--only", default="", help="comma-separated substrings of format names")
    a = ap.parse_args()
    import onnxruntime as ort
    print("cpu:", compare.cpu(), "| onnxruntime", ort.__version__, flush=True)
    feeds, chars = batches(a.model, a.data, a.chars)
    print("%d characters, %d batches, %d windows" % (chars, len(feeds), sum(len(f["input_ids"]) for f in feeds)))
    with tempfile.TemporaryDirectory() as work:
        paths = build(a.model, work)
        if a.only:
            keep = a.only.split(",")
            paths = {k: v for k, v in paths.items() if k.startswith("int8 s8 unfused") or any(s in k for s in keep)}
        sessions = {}
        for name, p in paths.items():
            for th in (int(x) for x in a.threads.split(",")):
                o = ort.SessionOptions()
                o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                o.intra_op_num_threads = th
                o.inter_op_num_threads = 1
                sessions["%s, %d thread%s" % (name, th, "s" if th > 1 else "")] = ort.InferenceSession(
                    p, o, providers=["CPUExecutionProvider"])
        best = {k: float("inf") for k in sessions}
        tags = {}   # each format's arg-max classes, from its last timed round
        for _ in range(a.rounds):
            for k, s in sessions.items():
                t = time.perf_counter()
                outs = [s.run(None, f)[0] for f in feeds]
                best[k] = min(best[k], time.perf_counter() - t)
                tags[k] = [o.argmax(-1) for o in outs]
        first = next(iter(sessions))
        tokens = sum(int(f["attention_mask"].sum()) for f in feeds)
        for k in sessions:
            diff = sum(int(((o != r) & (f["attention_mask"] == 1)).sum())
                       for o, r, f in zip(tags[k], tags[first], feeds))
            print("| %s | %s chars/s | %.2fx | arg-max differs on %d of %d tokens |" % (
                k, format(int(chars / best[k]), ","), best[first] / best[k], diff, tokens))


if __name__ == "__main__":
    main()
