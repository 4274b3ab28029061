"""BIO tagging helpers: char spans <-> first-subword token labels.

Pure standard library; used by training (torch side) and by the tests in CI.
A "word" is what the tokenizer's pre-tokenizer produced (``word_ids``); only the
first sub-word token of each word carries a label, the others get IGNORE.
"""

ENTITY_TYPES = ("PER", "ORG", "LOC", "DATE")
IGNORE = -100


def bio_labels(types=ENTITY_TYPES):
    labels = ["O"]
    for t in types:
        labels += ["B-" + t, "I-" + t]
    return labels


def id2label(types=ENTITY_TYPES):
    return {i: l for i, l in enumerate(bio_labels(types))}


def label2id(types=ENTITY_TYPES):
    return {l: i for i, l in enumerate(bio_labels(types))}


def words_from_tokens(offsets, word_ids):
    """Group token indices by word. Returns list of (first_token_idx, start, end)."""
    words = []
    last = None
    for i, (w, (s, e)) in enumerate(zip(word_ids, offsets)):
        if w is None:
            last = None
            continue
        if w != last:
            words.append([i, s, e])
            last = w
        else:
            words[-1][2] = max(words[-1][2], e)
    return [tuple(w) for w in words]


def _overlaps(a0, a1, b0, b1):
    return a0 < b1 and b0 < a1


def token_label_ids(offsets, word_ids, spans, ignore=(), types=ENTITY_TYPES):
    """Label ids per token for first-subword labelling.

    spans: iterable of (start, end, type) char spans (non-overlapping, sorted or not).
    ignore: iterable of (start, end) char ranges whose words are left out of the loss.
    Special tokens and non-first sub-words get IGNORE.
    """
    l2i = label2id(types)
    spans = sorted(s for s in spans if s[2] in types)
    out = [IGNORE] * len(offsets)
    prev_span = None
    for tok, ws, we in words_from_tokens(offsets, word_ids):
        if any(_overlaps(ws, we, a, b) for a, b in ignore):
            out[tok] = IGNORE
            prev_span = None
            continue
        hit = None
        for k, (a, b, t) in enumerate(spans):
            if _overlaps(ws, we, a, b):
                hit = k
                break
        if hit is None:
            out[tok] = l2i["O"]
            prev_span = None
        else:
            t = spans[hit][2]
            out[tok] = l2i[("I-" if prev_span == hit else "B-") + t]
            prev_span = hit
    return out


def decode_words(words, word_labels):
    """words: list of (start, end); word_labels: list of BIO strings -> [(start, end, type)].

    An I- tag that does not continue an entity of the same type starts a new one.
    """
    spans = []
    cur = None
    for (s, e), lab in zip(words, word_labels):
        if lab == "O" or lab is None:
            if cur:
                spans.append(tuple(cur))
            cur = None
            continue
        pre, t = lab.split("-", 1)
        if pre == "I" and cur is not None and cur[2] == t:
            cur[1] = e
        else:
            if cur:
                spans.append(tuple(cur))
            cur = [s, e, t]
    if cur:
        spans.append(tuple(cur))
    return spans


def windows(n_tokens, word_starts, max_len=126, stride=None):
    """Split a token sequence (without special tokens) into windows of at most
    max_len tokens, cutting only at word starts. word_starts: sorted token indices
    where a word begins. Returns list of (begin, end) token ranges.
    stride None -> no overlap (training); else the next window starts at the last
    word start <= begin + stride (inference with overlap).
    """
    if n_tokens == 0:
        return []
    ws = sorted(set(word_starts) | {0})
    out = []
    begin = 0
    while True:
        limit = begin + max_len
        if limit >= n_tokens:
            out.append((begin, n_tokens))
            break
        cut = max([w for w in ws if begin < w <= limit], default=limit)
        out.append((begin, cut))
        if stride is None:
            begin = cut
        else:
            nxt = max([w for w in ws if begin < w <= begin + stride], default=cut)
            begin = min(nxt, cut)
    return out


def casing_type_ids(text, offsets, word_ids):
    """Word-shape feature for an uncased encoder, fed through BERT's token_type_ids:
    1 for every token of a word whose first character is an upper-case letter, else 0.
    The Rust NER tier computes the same bit when the model's config.json says
    ``"anonymizer": {"token_type_ids": "casing"}``.
    """
    out = [0] * len(offsets)
    word_first = {}
    for i, (w, (s, _)) in enumerate(zip(word_ids, offsets)):
        if w is None:
            continue
        if w not in word_first:
            word_first[w] = 1 if s < len(text) and text[s].isupper() else 0
        out[i] = word_first[w]
    return out
