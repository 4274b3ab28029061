"""Windowed token-classification inference over raw texts -> char spans.

Needs numpy + tokenizers; the model is any callable (input_ids, attention_mask,
token_type_ids) -> logits [batch, tokens, labels] (torch or ONNX Runtime backends).
The same procedure the Rust NER tier follows: window <=128 tokens with overlap, keep
each token's prediction from the window where it is most central, first sub-word
label per word, BIO decoding to code-point spans.
"""
import numpy as np

import bio

MAX_CONTENT = 126   # + [CLS] + [SEP] = 128
STRIDE = 96


def load_tokenizer(path):
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(path)
    tok.no_truncation()
    tok.no_padding()
    return tok


def encode_docs(tok, texts):
    encs = tok.encode_batch(texts, add_special_tokens=False)
    return encs


def word_starts(word_ids):
    out, last = [], None
    for i, w in enumerate(word_ids):
        if w is not None and w != last:
            out.append(i)
        last = w
    return out


def predict_spans(run, tok, texts, id2label, batch_size=32, cls_id=101, sep_id=102, casing=False):
    """run(ids[int64 b,t], mask, type_ids) -> logits numpy. Returns per-text span lists."""
    encs = encode_docs(tok, texts)
    types = [bio.casing_type_ids(t, e.offsets, e.word_ids) if casing else [0] * len(e.ids)
             for t, e in zip(texts, encs)]
    items = []   # (doc, begin, end)
    for d, enc in enumerate(encs):
        n = len(enc.ids)
        for b, e in bio.windows(n, word_starts(enc.word_ids), MAX_CONTENT, STRIDE):
            items.append((d, b, e))
    order = sorted(range(len(items)), key=lambda i: items[i][2] - items[i][1])
    preds = [np.full(len(e.ids), -1, dtype=np.int64) for e in encs]
    best = [np.full(len(e.ids), -1.0) for e in encs]   # centrality of the window used
    for k in range(0, len(order), batch_size):
        chunk = [items[i] for i in order[k:k + batch_size]]
        L = max(e - b for _, b, e in chunk) + 2
        ids = np.zeros((len(chunk), L), dtype=np.int64)
        mask = np.zeros((len(chunk), L), dtype=np.int64)
        tt = np.zeros((len(chunk), L), dtype=np.int64)
        for j, (d, b, e) in enumerate(chunk):
            tt[j, 1:e - b + 1] = types[d][b:e]
            ids[j, 0] = cls_id
            ids[j, 1:e - b + 1] = encs[d].ids[b:e]
            ids[j, e - b + 1] = sep_id
            mask[j, :e - b + 2] = 1
        logits = run(ids, mask, tt)
        am = logits.argmax(-1)
        for j, (d, b, e) in enumerate(chunk):
            pos = np.arange(b, e)
            cent = np.minimum(pos - b, e - 1 - pos).astype(float)
            upd = cent > best[d][b:e]
            best[d][b:e][upd] = cent[upd]
            preds[d][b:e][upd] = am[j, 1:e - b + 1][upd]
    out = []
    for d, enc in enumerate(encs):
        words, labs = [], []
        for tokidx, s, e in bio.words_from_tokens(enc.offsets, enc.word_ids):
            words.append((s, e))
            labs.append(id2label[int(preds[d][tokidx])])
        out.append(bio.decode_words(words, labs))
    return out
