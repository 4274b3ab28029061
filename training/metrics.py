"""Strict span metrics and character coverage (pure standard library)."""
from collections import Counter


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def strict_span_scores(golds, preds, types):
    """golds/preds: per document lists of (start, end, type). Exact span+type match.
    Returns {type: (p, r, f, support)} plus "micro"."""
    tp, fp, fn = Counter(), Counter(), Counter()
    for g, p in zip(golds, preds):
        g = set(x for x in g if x[2] in types)
        p = set(x for x in p if x[2] in types)
        for x in p & g:
            tp[x[2]] += 1
        for x in p - g:
            fp[x[2]] += 1
        for x in g - p:
            fn[x[2]] += 1
    out = {}
    for t in types:
        out[t] = prf(tp[t], fp[t], fn[t]) + (tp[t] + fn[t],)
    T, F, N = sum(tp[t] for t in types), sum(fp[t] for t in types), sum(fn[t] for t in types)
    out["micro"] = prf(T, F, N) + (T + N,)
    return out


def _charset(ranges):
    s = set()
    for r in ranges:
        s.update(range(r[0], r[1]))
    return s


def char_coverage(gold_ranges, pred_ranges, ref_ranges=None):
    """Label-agnostic character recall of gold_ranges covered by pred_ranges, and
    precision = share of predicted characters inside ref_ranges (default gold_ranges).
    Whitespace characters are not counted. All arguments are per-document lists."""
    cov = tot = inside = pred_tot = 0
    for i, (g, p) in enumerate(zip(gold_ranges, pred_ranges)):
        gs, ps = _charset(g), _charset(p)
        rs = gs if ref_ranges is None else _charset(ref_ranges[i])
        tot += len(gs)
        cov += len(gs & ps)
        pred_tot += len(ps)
        inside += len(ps & rs)
    r = cov / tot if tot else 0.0
    p = inside / pred_tot if pred_tot else 0.0
    return r, p


def char_coverage_text(texts, gold_ranges, pred_ranges, ref_ranges=None):
    """Same as char_coverage but ignoring whitespace characters."""
    def strip(text, ranges):
        out = []
        for r in ranges:
            out.extend((i, i + 1) for i in range(r[0], r[1]) if not text[i].isspace())
        return out
    g = [strip(t, x) for t, x in zip(texts, gold_ranges)]
    p = [strip(t, x) for t, x in zip(texts, pred_ranges)]
    r = None if ref_ranges is None else [strip(t, x) for t, x in zip(texts, ref_ranges)]
    return char_coverage(g, p, r)
