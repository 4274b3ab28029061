"""Cuts the XLM-R vocabulary of a converted multilingual-E5 folder to the scripts we serve,
so the embedding table (250k rows, 96 M of the model's 118 M parameters) fits a shipped
model file.

    python training/multilingual/prune.py --src /tmp/e5-hf --out /tmp/e5-pruned --keep 60000

A piece is kept when every character in it belongs to a served script (Latin with its
diacritics, digits, punctuation and symbols, Greek, Han, kana, Hangul, fullwidth forms,
emoji). All single characters of those scripts stay, so any text in them still
tokenizes without `<unk>`; of the longer pieces, the `--keep` with the highest Unigram
scores (log-probabilities: the most frequent) stay. Unigram segmentation over the
smaller vocabulary splits rare words into more, shorter pieces.
"""
import argparse
import json
import os

SERVED = [
    (0x0000, 0x024F),  # Basic Latin … Latin Extended-B
    (0x0250, 0x02FF),  # IPA extensions, spacing modifiers
    (0x0300, 0x036F),  # combining diacritics
    (0x0370, 0x03FF),  # Greek
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese, …)
    (0x2000, 0x2BFF),  # punctuation, currency, arrows, symbols
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x3100, 0x31FF),  # bopomofo, hangul compatibility jamo, katakana ext.
    (0x3200, 0x33FF),  # enclosed CJK, compatibility
    (0x3400, 0x4DBF),  # CJK ext. A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # hangul jamo ext. A
    (0xAC00, 0xD7FF),  # hangul syllables, jamo ext. B
    (0x1100, 0x11FF),  # hangul jamo
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # half- and fullwidth forms
    (0x1F000, 0x1FAFF),  # emoji and pictographs
    (0x2581, 0x2581),  # the metaspace
]


def served(ch):
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in SERVED)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep", type=int, default=60000, help="longer pieces kept (beyond single characters)")
    a = ap.parse_args()
    import torch
    from safetensors.torch import load_file, save_file

    tok = json.load(open(os.path.join(a.src, "tokenizer.json"), encoding="utf-8"))
    vocab = tok["model"]["vocab"]
    special = {t["id"] for t in tok["added_tokens"]}
    singles, longer = [], []
    for i, (piece, score) in enumerate(vocab):
        if i in special:
            continue
        if not all(served(c) for c in piece):
            continue
        body = piece.lstrip("\u2581")
        (singles if len(body) <= 1 else longer).append(i)
    longer.sort(key=lambda i: -vocab[i][1])
    kept = sorted(special) + sorted(set(singles) | set(longer[:a.keep]))
    remap = {old: new for new, old in enumerate(kept)}
    tok["model"]["vocab"] = [vocab[i] for i in kept]
    tok["model"]["unk_id"] = remap[tok["model"]["unk_id"]]
    for t in tok["added_tokens"]:
        t["id"] = remap[t["id"]]
    pp = tok["post_processor"]
    pp["sep"][1], pp["cls"][1] = remap[pp["sep"][1]], remap[pp["cls"][1]]
    sd = load_file(os.path.join(a.src, "model.safetensors"))
    key = next(k for k in sd if k.endswith("word_embeddings.weight"))
    sd[key] = sd[key][torch.tensor(kept)].contiguous()
    cfg = json.load(open(os.path.join(a.src, "config.json")))
    cfg["vocab_size"] = len(kept)
    cfg["pad_token_id"] = remap[cfg["pad_token_id"]]
    os.makedirs(a.out, exist_ok=True)
    save_file(sd, os.path.join(a.out, "model.safetensors"))
    json.dump(cfg, open(os.path.join(a.out, "config.json"), "w"), indent=2)
    json.dump(tok, open(os.path.join(a.out, "tokenizer.json"), "w", encoding="utf-8"), ensure_ascii=False)
    print("kept %d of %d pieces (%d single characters)" % (len(kept), len(vocab), len(singles)))


if __name__ == "__main__":
    main()
