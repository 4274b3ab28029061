"""Fine-tunes the converted, pruned multilingual-E5 encoder (convert_e5.py, prune.py) as a
token classifier for PER, ORG, LOC and DATE, labelling every sub-word token (no
whitespace words to lean on in Chinese or Japanese), on the synthetic multilingual
documents of generate.py plus the English training corpora of `../shared/data/train`.

    python training/multilingual/train.py --base /tmp/e5-pruned --synthetic /tmp/ml.jsonl \
        --out /tmp/ml-run [--english /work/shared/data/train] [--epochs 2]

Word embeddings stay frozen: the pieces our templates never use keep their pretrained,
cross-lingual vectors. `--base` may also be a trained folder of ours (`--out`/hf), to
train it further on new data. Writes a Hugging Face folder (`--out`/hf) for export.py.
"""
import argparse
import glob
import json
import math
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import data  # noqa: E402  (training/data.py: English corpora, silver dates)

TYPES = ["PER", "ORG", "LOC", "DATE"]
ID2LABEL = ["O"] + [p + t for t in TYPES for p in ("B-", "I-")]
LABEL2ID = {l: i for i, l in enumerate(ID2LABEL)}
MAX_CONTENT = 126


def trimmed(text, offsets):
    """Token spans without the whitespace a metaspace token carries (` Frau` → `Frau`), as
    the Rust tier trims them."""
    out = []
    for s, e in offsets:
        while s < e and text[s].isspace():
            s += 1
        out.append((s, e))
    return out


def token_labels(offsets, spans, ignore=()):
    """BIO per token from code-point spans; tokens with no characters (a lone ▁) and
    tokens inside ignored ranges are left out of the loss (-100)."""
    labels = []
    open_span = None
    for s, e in offsets:
        if s >= e or any(a < e and s < b for a, b in ignore):
            labels.append(-100)
            continue
        hit = next((sp for sp in spans if sp[0] < e and s < sp[1]), None)
        if hit is None:
            labels.append(LABEL2ID["O"])
            open_span = None
        else:
            labels.append(LABEL2ID[("I-" if open_span == hit else "B-") + hit[2]])
            open_span = hit
    return labels


def examples(tok, docs):
    out = []
    for d in docs:
        enc = tok.encode(d["text"], add_special_tokens=False)
        labels = token_labels(trimmed(d["text"], enc.offsets), d["spans"], d.get("ignore", ()))
        ids = enc.ids
        for i in range(0, max(1, len(ids)), MAX_CONTENT):
            out.append((ids[i:i + MAX_CONTENT], labels[i:i + MAX_CONTENT]))
    return out


def synthetic(path):
    docs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            docs.append({"text": d["text"], "spans": [(e["start"], e["end"], e["label"]) for e in d["entities"]]})
    return docs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--synthetic", required=True)
    ap.add_argument("--english", default="/work/shared/data/train")
    ap.add_argument("--english-corpora", default="conll2003,wnut17",
                    help="English training corpora read (TAB's long judgments cost more than they teach here)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=float, default=2)
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-steps", type=int, default=0)
    a = ap.parse_args()
    import torch
    from tokenizers import Tokenizer
    from transformers import BertConfig, BertForTokenClassification
    from safetensors.torch import load_file

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    tok = Tokenizer.from_file(os.path.join(a.base, "tokenizer.json"))
    cfg_raw = json.load(open(os.path.join(a.base, "config.json")))
    # --base is the cut encoder, or a model of ours to train further (its labels are ours)
    skip = ("architectures", "source_layers", "id2label", "label2id", "anonymizer")
    cfg = BertConfig(**{k: v for k, v in cfg_raw.items() if k not in skip},
                     id2label=dict(enumerate(ID2LABEL)), label2id=LABEL2ID)
    model = BertForTokenClassification(cfg)
    missing = model.load_state_dict(load_file(os.path.join(a.base, "model.safetensors")), strict=False)
    print("not from the base:", missing.missing_keys, flush=True)
    model.bert.embeddings.word_embeddings.weight.requires_grad_(False)

    docs = synthetic(a.synthetic)
    n_syn = len(docs)
    if a.english:
        for path in sorted(glob.glob(os.path.join(a.english, "*.jsonl"))):
            if data.corpus_of(path) in a.english_corpora.split(","):
                docs += data.load_corpus(path)
    ex = examples(tok, docs)
    bos, eos, pad = tok.token_to_id("<s>"), tok.token_to_id("</s>"), tok.token_to_id("<pad>")
    print("%d documents (%d synthetic) -> %d windows" % (len(docs), n_syn, len(ex)), flush=True)

    steps_per_epoch = math.ceil(len(ex) / a.bs)
    total = int(steps_per_epoch * a.epochs) if not a.max_steps else a.max_steps
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=0.01)
    warm = max(1, total // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (total - s) / max(1, total - warm)))
    model.train()
    step, t0 = 0, time.time()
    while step < total:
        # length-bucketed batches: shuffle, sort chunks by length, shuffle the batches
        order = list(range(len(ex)))
        rng.shuffle(order)
        chunks = [sorted(order[i:i + a.bs * 50], key=lambda j: len(ex[j][0]))
                  for i in range(0, len(order), a.bs * 50)]
        batches = [c[i:i + a.bs] for c in chunks for i in range(0, len(c), a.bs)]
        rng.shuffle(batches)
        for b in batches:
            if step >= total:
                break
            L = max(len(ex[j][0]) for j in b) + 2
            ids = torch.full((len(b), L), pad, dtype=torch.long)
            lab = torch.full((len(b), L), -100, dtype=torch.long)
            mask = torch.zeros((len(b), L), dtype=torch.long)
            for r, j in enumerate(b):
                t, l = ex[j]
                ids[r, :len(t) + 2] = torch.tensor([bos] + t + [eos])
                lab[r, 1:len(t) + 1] = torch.tensor(l)
                mask[r, :len(t) + 2] = 1
            loss = model(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(ids), labels=lab).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 50 == 0:
                el = time.time() - t0
                print("step %d/%d loss %.4f %.1f s (eta %.0f s)" % (step, total, loss.item(), el, el / step * (total - step)), flush=True)
    hf = os.path.join(a.out, "hf")
    # read by the Rust tier (model.rs): no casing bits; every sub-word is tagged
    model.config.anonymizer = {"token_type_ids": "zeros", "words": "tokens"}
    model.config.architectures = ["BertForTokenClassification"]
    model.save_pretrained(hf)
    tok.save(os.path.join(hf, "tokenizer.json"))
    print("saved", hf, flush=True)


if __name__ == "__main__":
    main()
