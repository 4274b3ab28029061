"""Tweet-style transfer text for distillation (pure standard library).

A student learns the teacher's behaviour only on the text it is shown. Students kept news,
court and payload quality but lost WNUT (social media) every time (MODEL_CARD.md,
"Students"), so this makes more text in that style: training tweets whose entities are
swapped for other training entities of the same type, sometimes lower-cased (tweets often
are), sometimes two tweets joined. The swap keeps exact offsets, so the text is usable with
the teacher's labels alone (train.py --transfer-tweets) or with gold ones (--transfer-gold).
"""
import random


def entity_pool(docs):
    """Surface forms by label across raw corpus documents (their own label names)."""
    pool = {}
    for d in docs:
        for e in d["entities"]:
            pool.setdefault(e["label"], []).append(d["text"][e["start"]:e["end"]])
    return pool


def swapped(doc, pool, rng, lower_p=0.3):
    """`doc` with every entity replaced by a random one of its label; (text, entities)."""
    text, ents, out, pos = doc["text"], sorted(doc["entities"], key=lambda e: e["start"]), [], 0
    parts = []
    for e in ents:
        if e["start"] < pos:        # overlapping annotation: keep the first
            continue
        new = rng.choice(pool[e["label"]])
        if rng.random() < lower_p:
            new = new.lower()
        parts.append(text[pos:e["start"]])
        start = sum(len(p) for p in parts)
        parts.append(new)
        out.append({"start": start, "end": start + len(new), "label": e["label"]})
        pos = e["end"]
    parts.append(text[pos:])
    return "".join(parts), out


def tweets(docs, n, seed):
    """`n` new tweet-style documents in the raw corpus format of `docs` (gold offsets)."""
    rng = random.Random(seed)
    pool = entity_pool(docs)
    with_entities = [d for d in docs if d["entities"]]
    out = []
    for i in range(n):
        text, ents = swapped(rng.choice(with_entities), pool, rng)
        if rng.random() < 0.25:     # two tweets in one window: entities far from the start
            t2, e2 = swapped(rng.choice(docs), pool, rng)
            shift = len(text) + 1
            text += " " + t2
            ents += [{**e, "start": e["start"] + shift, "end": e["end"] + shift} for e in e2]
        out.append({"id": "transfer-tweet-%05d" % i, "text": text, "entities": ents})
    return out
