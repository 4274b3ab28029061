"""Corpus loading and label mapping (pure standard library).

Every corpus is mapped to the model's entity types PER / ORG / LOC / DATE.
Each document becomes {"id", "text", "spans": [(start, end, TYPE)], "ignore": [(start, end)]};
"ignore" ranges are left out of the loss.
"""
import json
import os
import re

LABEL_MAPS = {
    "conll2003": {"PER": "PER", "LOC": "LOC", "ORG": "ORG"},          # MISC -> O
    "wnut17": {"person": "PER", "location": "LOC", "corporation": "ORG", "group": "ORG"},
    "tab": {"PERSON": "PER", "ORG": "ORG", "LOC": "LOC", "DATETIME": "DATE"},
    "synthetic": {"PER": "PER", "ORG": "ORG", "LOC": "LOC", "DATE": "DATE"},
}

# Names that are no one's personal data: products, works, events, nationalities. With
# `misc` they are learnt as a type of their own (MISC), which the Rust tier ignores, rather
# than as O beside names of the same shape: "Toyota" the car is MISC, not ORG, in a tweet.
MISC_LABELS = {"conll2003": ("MISC",), "wnut17": ("product", "creative-work")}

# corpora whose annotation has no dates: date-like words there are either left out
# of the loss ("ignore", the baseline) or tagged DATE by rule ("silver")
NO_DATE_CORPORA = ("conll2003", "wnut17")

TITLE_RE = re.compile(
    r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Judge|Sir|Dame|Lord|Lady|Rev|Fr|Sr|Jr|"
    r"President|Mayor|Senator|Minister|Justice|Captain|Capt|Colonel|Col|General|Gen|Sgt)\.?\s+)+"
)

MONTHS = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
          r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?")
WEEKDAYS = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
DATE_RE = re.compile(
    r"\b(?:"
    r"\d{4}-\d{2}-\d{2}"                                   # ISO
    r"|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"                      # 03/04/24, 3.4.2024
    r"|\d{1,2}(?:st|nd|rd|th)?\s+" + MONTHS + r"(?:\s*,?\s*\d{4})?"   # 3 March 2024
    r"|" + MONTHS + r"\s+\d{1,2}(?:st|nd|rd|th)?(?:\s*,\s*\d{4}|\s+\d{4})?"  # March 3rd, 2024
    r"|" + MONTHS + r"\s+\d{4}"                            # March 2024
    r"|" + WEEKDAYS +
    r"|(?<=\bin )(?:19|20)\d{2}(?!\d)"                      # in 1996
    r")(?![\w-])"
)


def find_dates(text):
    """Rule-based date spans (for corpora without date annotation)."""
    return [(m.start(), m.end()) for m in DATE_RE.finditer(text)]


def corpus_of(path):
    name = os.path.basename(path)
    for c in ("conll2003", "wnut17", "tab", "synthetic"):
        if name.startswith(c):
            return c
    raise ValueError("unknown corpus: " + name)


def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _remove_overlaps(spans):
    """Keep the longest of overlapping spans (TAB has a few nested ones)."""
    out = []
    for s in sorted(spans, key=lambda x: (-(x[1] - x[0]), x[0])):
        if all(s[1] <= o[0] or o[1] <= s[0] for o in out):
            out.append(s)
    return sorted(out)


def convert(doc, corpus, date_mode="silver", tab_titles="ignore", tab_unmasked_o=(), misc=False):
    """Map one raw document to model labels.

    date_mode: for corpora without date annotation, "silver" tags rule-found dates
      as DATE, "ignore" leaves them out of the loss, "none" leaves them O.
    tab_titles: for TAB PERSON spans that start with a title ("Mr Robert Murray"),
      "ignore" leaves the title out of the loss, "strip" labels it O, "keep" keeps it in.
    tab_unmasked_o: model types (e.g. ("ORG",)) whose TAB spans the annotators left
      unmasked (NO_MASK: courts, governments, respondent states) are labelled O, so the
      model learns the anonymization convention on such text. PER is never dropped: a
      name is never left in the clear.
    misc: the corpus's MISC_LABELS become spans of type MISC.
    """
    text = doc["text"]
    m = LABEL_MAPS[corpus]
    spans, ignore = [], []
    for e in doc["entities"]:
        t = m.get(e["label"])
        if misc and e["label"] in MISC_LABELS.get(corpus, ()):
            t = "MISC"
        if t is None:
            continue
        if (corpus == "tab" and t in tab_unmasked_o and t != "PER"
                and e.get("identifier_type") == "NO_MASK"):
            continue
        s, en = e["start"], e["end"]
        if corpus == "tab" and t == "PER" and tab_titles != "keep":
            tm = TITLE_RE.match(text, s, en)
            if tm and tm.end() < en:
                if tab_titles == "ignore":
                    ignore.append((s, tm.end()))
                s = tm.end()
        spans.append((s, en, t))
    spans = _remove_overlaps(spans)
    if corpus in NO_DATE_CORPORA and date_mode != "none":
        for a, b in find_dates(text):
            if any(a < y and x < b for x, y, _ in spans):
                continue
            if date_mode == "silver":
                spans.append((a, b, "DATE"))
            else:
                ignore.append((a, b))
        spans.sort()
    return {"id": doc.get("id"), "text": text, "spans": spans, "ignore": ignore}


def gold_spans(doc, corpus):
    """Gold spans for evaluation, mapped to model types (no date rules, titles kept)."""
    m = LABEL_MAPS[corpus]
    return sorted((e["start"], e["end"], m[e["label"]]) for e in doc["entities"] if e["label"] in m)


def mask_worthy(doc):
    """TAB: char ranges of every span whose identifier_type is not NO_MASK."""
    return sorted((e["start"], e["end"]) for e in doc["entities"]
                  if e.get("identifier_type", "NO_MASK") != "NO_MASK")


def load_corpus(path, **kw):
    c = corpus_of(path)
    return [convert(d, c, **kw) for d in load_jsonl(path)]


def upper_copies(docs, frac, rng):
    """ALL-CAPS copies of a random share of converted documents (same spans): notes,
    forms and headlines in capitals, where the casing bit says nothing."""
    return _cased_copies(docs, frac, rng, "upper")


def lower_copies(docs, frac, rng):
    """all-lower-case copies of a random share of converted documents (same spans): chat and
    prompts typed without capitals ("can you email john smith"), where the casing bit is 0 on
    every word, names included."""
    return _cased_copies(docs, frac, rng, "lower")


def _cased_copies(docs, frac, rng, case):
    """Copies of a random share of `docs` in `case` ("upper" or "lower"). Documents whose
    length changes in that case (a few non-ASCII letters) are skipped: the spans would move."""
    out = []
    for d in docs:
        if rng.random() >= frac:
            continue
        text = getattr(d["text"], case)()
        if len(text) == len(d["text"]):
            out.append({**d, "id": "%s-%s" % (d.get("id"), case), "text": text})
    return out
