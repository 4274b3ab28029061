"""Drives the served-path benchmark (run.sh starts the servers and calls it): builds the
request bodies from corpus.py and CoNLL, sends each set as one keep-alive request stream
with wrk (stream.lua), and prints one markdown table.

Rules-only streams (shapes a and c) send every text once: the regex engine's lazy DFA
caches the states it has built, so text it has seen before runs several times faster
than new text (one row shows by how much), and a stream cycling through a few MB would
time that cache. Model streams (b, d) cycle through their texts: the model does the
same work on a text however often it has seen it.

    python bench.py --shapes abcd --ours URL --key KEY --metrics URL --conll FILE --tmp DIR
                    [--presidio URL] [--proxy URL --proxy-metrics URL --sink URL]
                    [--duration S] [--passes N] [--fresh-mb MB]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "presidio"))
from compare import cpu  # noqa: E402  (one definition of the CPU line for both benches)

import corpus  # noqa: E402

MODEL_LABELS = {"PERSON", "ORGANIZATION", "LOCATION", "DATE_TIME"}  # our model's four (docs/src/detection.md)
JSON = "application/json"
NDJSON = "application/x-ndjson"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Bench:
    def __init__(self, a):
        self.a, self.rows = a, []

    def corpus(self, shape):
        """Each shape its own seeded corpus: its texts do not depend on the shapes run before it."""
        self.c = corpus.Corpus(self.a.seed * 100 + ord(shape))

    def get(self, url, key=None):
        req = urllib.request.Request(url, headers={"X-API-Key": key} if key else {})
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.read().decode()

    def stream(self, base, bodies, units, path="/v1/anonymize", ctype=JSON, key="", fresh=False,
               tmp_name="bodies"):
        """One wrk connection through `bodies` in order; `units` counts each body's payload
        (characters or bytes). fresh: each body once, for at most --duration; else cycle
        for --duration or --passes. Returns requests, units/s, seconds, p50/p99 (ms)."""
        f = os.path.join(self.a.tmp, tmp_name)
        with open(f, "wb") as out:
            for b, n in zip(bodies, units):
                b = b if isinstance(b, bytes) else b.encode()
                out.write(b"%d %d\n" % (len(b), n) + b)
        passes, duration = (1, self.a.duration) if fresh else \
            (self.a.passes, 0) if self.a.passes else (0, self.a.duration)
        # The stream stops itself (stream.lua); -d is only a backstop. --timeout bounds one
        # request, and wrk sizes its latency histogram by it (µs slots: keep it modest).
        cap = "%ds" % (duration + 900) if duration else "10h"
        env = dict(os.environ, BODIES=f, REQ_PATH=path, CTYPE=ctype, API_KEY=key,
                   DURATION=str(duration), PASSES=str(passes))
        p = subprocess.run(["wrk", "-t1", "-c1", "-d" + cap, "--timeout", "120s", "-s",
                            os.path.join(HERE, "stream.lua"), base], env=env, capture_output=True, text=True)
        m = re.search(r"RESULT requests=(\d+) units=(\d+) seconds=([\d.]+) p50_ms=([\d.]+) p99_ms=([\d.]+)", p.stdout)
        if p.returncode != 0 or not m:
            raise SystemExit("wrk failed on %s%s (exit %d):\n%s%s" % (base, path, p.returncode, p.stdout, p.stderr))
        n, u, s, p50, p99 = int(m[1]), int(m[2]), float(m[3]), float(m[4]), float(m[5])
        return {"requests": n, "rate": u / s, "seconds": s, "p50": p50, "p99": p99}

    def row(self, shape, texts, per, requests, result, presidio="", ratio=""):
        self.rows.append((shape, texts, per, requests, result, presidio, ratio))
        log("  " + " | ".join(str(x) for x in self.rows[-1]))

    def fresh_docs(self, kind, mb):
        return [self.c.document(kind, 25000) for _ in range(max(1, int(mb * 40)))]

    def pattern_labels(self):
        """Every default label of `GET /v1/entities` but the model's."""
        ents = json.loads(self.get(self.a.ours + "/v1/entities", self.a.key))["entities"]
        return [e["label"] for e in ents if e["default"] and e["label"] not in MODEL_LABELS]

    # -- a. pattern labels only: the model never runs ----------------------------------
    def shape_a(self):
        labels = self.pattern_labels()
        windows = self.model_windows()

        def send(texts, ls, fresh=True):
            bodies = [json.dumps({"text": [t], "detection_config": {"entities": ls}}) for t in texts]
            return self.stream(self.a.ours, bodies, [len(t.encode()) for t in texts], key=self.a.key, fresh=fresh)

        for kind, ls in [("prose", labels), ("logs", labels), ("code", labels), ("prose", ["EMAIL_ADDRESS"])]:
            log("a. %d label(s), %s: warm-up, then fresh text" % (len(ls), kind))
            send(self.fresh_docs(kind, self.a.warm_mb), ls)  # a server that has seen other text
            texts = self.fresh_docs(kind, self.a.fresh_mb)
            gave_up = self.fallbacks(self.a.metrics)
            r = send(texts, ls)
            name = "pattern labels (%d)" % len(ls) if len(ls) > 1 else "one label: " + ls[0]
            self.row("a. " + name, "%s, %d × 25 KB, each once" % (kind, len(texts)), "1 text", r["requests"],
                     "**%.2f MB/s** of text (%.1f s%s)" % (
                         r["rate"] / 1e6, r["seconds"], self.gave_up(gave_up, self.fallbacks(self.a.metrics))))
        # The same first 40 prose texts again and again: what a cycling stream would time.
        log("a. repeated text, for contrast")
        r = send(texts[:40], labels, fresh=False)
        self.row("a. pattern labels (%d), repeated text" % len(labels), "prose, the same 40 × 25 KB cycled",
                 "1 text", r["requests"], "%.2f MB/s of text (not what users get)" % (r["rate"] / 1e6))
        if self.model_windows() != windows:
            raise SystemExit("FAIL: a request for pattern labels only ran the model")

    def metric(self, url, name):
        """A counter's value from /metrics; None when this build does not export it."""
        m = re.search(r"^%s (\d+)" % name, self.get(url + "/metrics"), re.M)
        return int(m[1]) if m else None

    def model_windows(self):
        return self.metric(self.a.metrics, "anonymizer_model_windows_total")

    def fallbacks(self, url):
        """Pattern-set scans the lazy DFA gave up on (then slow), where the build counts them."""
        return self.metric(url, "anonymizer_pattern_scan_fallbacks_total")

    def model_work(self):
        """Where a default request's time goes: the model's forward passes, its windows and
        those read twice (lower-case words), and the server's request time, all totals."""
        text = self.get(self.a.metrics + "/metrics")
        def value(pattern):
            m = re.search(r"^%s (\S+)$" % pattern, text, re.M)
            return float(m.group(1)) if m else None
        # The duration series appears with the first request: before it, nothing was timed.
        request = value(r'anonymizer_request_duration_seconds_sum\{endpoint="anonymize"\}')
        return (value("anonymizer_model_inference_seconds_total"), request or 0.0,
                value("anonymizer_model_windows_total"), value("anonymizer_model_windows_reread_total"))

    @staticmethod
    def work_note(before, after):
        """A note for the result column: the model's share of request time, and the share
        of its windows read a second time."""
        if None in before or None in after:
            return ""
        model, request, windows, reread = (b - a for a, b in zip(before, after))
        if request <= 0 or windows <= 0:
            return ""
        return " (model %.0f %% of request time; %.1f %% of %d windows read twice)" % (
            100 * model / request, 100 * reread / windows, windows)

    @staticmethod
    def gave_up(before, after):
        """A note for the result column: how often the DFA gave up during a stream."""
        return "; DFA gave up %d×" % (after - before) if None not in (before, after) and after > before else ""

    # -- b. default labels (the model on), ours and Presidio -----------------------------
    def shape_b(self):
        conll = [json.loads(l)["text"] for l in open(self.a.conll, encoding="utf-8") if l.strip()]
        mixed = self.c.mixed(self.a.docs_b, 100, 10000)
        for name, texts in [("CoNLL-2003 dev, %d docs" % len(conll), conll),
                            ("mixed, %d docs of 100 B–10 KB" % len(mixed), mixed)]:
            for per in (1, 16):
                log("b. %s, %d per request" % (name, per))
                groups = [texts[i:i + per] for i in range(0, len(texts), per)]
                bodies = [json.dumps({"text": g}) for g in groups]
                chars = [sum(len(t) for t in g) for g in groups]
                before = self.model_work()
                ours = self.stream(self.a.ours, bodies, chars, key=self.a.key)
                work = self.work_note(before, self.model_work())
                pres, ratio, reqs = "", "", str(ours["requests"])
                if self.a.presidio:
                    p = self.stream(self.a.presidio, bodies, chars)
                    pres, ratio = "%s chars/s" % format(int(p["rate"]), ","), "**%.2f×**" % (ours["rate"] / p["rate"])
                    reqs += " / %d" % p["requests"]
                self.row("b. default labels", name, "%d doc%s" % (per, "s" * (per > 1)), reqs,
                         "**%s chars/s**%s" % (format(int(ours["rate"]), ","), work), pres, ratio)

    # -- c. log routes through the proxy to the sink, rules only -------------------------
    def shape_c(self):
        formats = [("ES _bulk NDJSON", "/_bulk", NDJSON, self.es_bulk),
                   ("Loki push JSON", "/loki/api/v1/push", JSON, self.loki),
                   ("OTLP logs JSON", "/v1/logs", JSON, self.otlp)]
        for name, path, ctype, encode in formats:
            # Each format its own fresh lines (~46 KB of them in 200 records).
            warm, batches = ([[self.log_record() for _ in range(200)] for _ in range(max(1, int(mb * 22)))]
                             for mb in (self.a.warm_mb, self.a.fresh_mb))
            bodies = [encode(b).encode() for b in batches]
            sizes = [len(b) for b in bodies]
            lines = sum(len(r["line"].encode()) for b in batches for r in b)
            what = "mixed logs, %d × 200 records, each once" % len(bodies)
            per = "%.0f KB body (%.0f KB of log lines)" % (sum(sizes) / len(sizes) / 1e3, lines / len(sizes) / 1e3)
            log("c. %s through the proxy: warm-up, then fresh lines" % name)
            self.stream(self.a.proxy, [encode(b) for b in warm], [1] * len(warm), path, ctype, fresh=True)
            seen = json.loads(self.get(self.a.sink + "/stats"))["requests"]
            gave_up = self.fallbacks(self.a.proxy_metrics)
            r = self.stream(self.a.proxy, bodies, sizes, path, ctype, fresh=True)
            if json.loads(self.get(self.a.sink + "/stats"))["requests"] - seen != r["requests"]:
                raise SystemExit("FAIL: the sink did not get every request the proxy answered")
            if self.get(self.a.sink + "/last").encode() in bodies:
                raise SystemExit("FAIL: the proxy forwarded a body unchanged: nothing anonymized")
            self.row("c. proxy, rules only: " + name, what, per, r["requests"],
                     "**%.2f MB/s** of body (%.1f s%s)" % (
                         r["rate"] / 1e6, r["seconds"], self.gave_up(gave_up, self.fallbacks(self.a.proxy_metrics))))
            log("c. %s straight to the sink" % name)
            r = self.stream(self.a.sink, bodies, sizes, path, ctype, fresh=True)
            self.row("c. sink direct (no proxy): " + name, what, per, r["requests"],
                     "%.0f MB/s of body" % (r["rate"] / 1e6))

    def log_record(self):
        c = self.c
        return {"ns": int(c.tick().timestamp() * 1e9), "service": c.pick(corpus.SERVICES),
                "host": "node-%02d" % c.rng.randrange(1, 24), "level": c.pick(["INFO", "INFO", "WARN", "ERROR"]),
                "line": c.log_line(), "trace": c.hex(32), "span": c.hex(16)}

    @staticmethod
    def es_bulk(recs):
        # What Filebeat sends: an action line, then the source with the raw line in `message`.
        out = []
        for r in recs:
            out.append(json.dumps({"create": {"_index": "logs-" + r["service"]}}))
            out.append(json.dumps({"@timestamp": r["ns"] // 10**6, "message": r["line"], "log": {"level": r["level"]},
                                   "service": {"name": r["service"]}, "host": {"name": r["host"]},
                                   "trace": {"id": r["trace"]}}, ensure_ascii=False))
        return "\n".join(out) + "\n"

    @staticmethod
    def loki(recs):
        streams = {}
        for r in recs:
            streams.setdefault((r["service"], r["level"]), []).append([str(r["ns"]), r["line"]])
        return json.dumps({"streams": [{"stream": {"service": s, "level": l, "env": "prod"}, "values": v}
                                       for (s, l), v in streams.items()]}, ensure_ascii=False)

    @staticmethod
    def otlp(recs):
        by_service = {}
        for r in recs:
            by_service.setdefault(r["service"], []).append({
                "timeUnixNano": str(r["ns"]), "severityText": r["level"], "body": {"stringValue": r["line"]},
                "attributes": [{"key": "host.name", "value": {"stringValue": r["host"]}}],
                "traceId": r["trace"], "spanId": r["span"]})
        return json.dumps({"resourceLogs": [
            {"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": s}}]},
             "scopeLogs": [{"scope": {"name": "app"}, "logRecords": recs}]}
            for s, recs in by_service.items()]}, ensure_ascii=False)

    # -- d. latency by body size, default labels ----------------------------------------
    def shape_d(self):
        for size, n, name in [(100, 64, "100 B"), (1000, 64, "1 KB"), (10000, 32, "10 KB"), (100000, 8, "100 KB")]:
            log("d. %s" % name)
            texts = self.c.mixed(n, size, size)
            r = self.stream(self.a.ours, [json.dumps({"text": [t]}) for t in texts],
                            [len(t) for t in texts], key=self.a.key)
            self.row("d. default labels, " + name, "mixed, %d × %s" % (n, name), "1 text", r["requests"],
                     "p50 **%.1f ms**, p99 %.1f ms" % (r["p50"], r["p99"]))

    # -- e. mixed load: a pattern-label stream beside default-label streams ----------------
    def shape_e(self):
        """What a log route or a pattern-label caller gets on a replica that also serves chat:
        one stream of fresh 25 KB prose for pattern labels, alone and then beside two
        default-label streams of 2 KB mixed documents (the model busy all the while)."""
        import threading
        labels = self.pattern_labels()
        chats = self.c.mixed(64, 1000, 3000)
        chat_bodies = [json.dumps({"text": [t]}) for t in chats]

        def patterns():
            texts = self.fresh_docs("prose", self.a.fresh_mb / 2)
            bodies = [json.dumps({"text": [t], "detection_config": {"entities": labels}}) for t in texts]
            return self.stream(self.a.ours, bodies, [len(t.encode()) for t in texts], key=self.a.key, fresh=True)

        log("e. pattern labels alone")
        alone = patterns()
        model, stop = [], threading.Event()

        def chat():
            while not stop.is_set():
                model.append(self.stream(self.a.ours, chat_bodies, [len(t) for t in chats], key=self.a.key,
                                         tmp_name="bodies-%d" % threading.get_ident()))
        log("e. pattern labels beside two default-label streams")
        threads = [threading.Thread(target=chat) for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(1)
        busy = patterns()
        stop.set()
        for t in threads:
            t.join()
        for name, r in [("alone", alone), ("beside 2 default-label streams", busy)]:
            self.row("e. pattern labels (%d), %s" % (len(labels), name), "prose, 25 KB, each once", "1 text",
                     r["requests"], "**%.2f MB/s**, p50 %.1f ms, p99 %.1f ms" % (r["rate"] / 1e6, r["p50"], r["p99"]))
        rate = sum(r["rate"] for r in model) / max(1, len(model))
        self.row("e. default labels beside them (2 streams)", "mixed, 64 × 1–3 KB, cycled", "1 text",
                 sum(r["requests"] for r in model), "%s chars/s a stream" % format(int(rate), ","))

    def table(self):
        print("cpu: %s | commit %s" % (cpu(), self.a.commit))
        print()
        print("| shape | texts | per request | requests (ours / Presidio) | result | Presidio | ours / Presidio |")
        print("|---|---|---|---:|---:|---:|---:|")
        for r in self.rows:
            print("| %s |" % " | ".join(str(x) for x in r))
        print()
        if self.a.pid:
            with open("/proc/%d/status" % self.a.pid) as f:
                kb = {k: int(v.split()[0]) for k, v in (l.split(":", 1) for l in f)
                      if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile")}
            # File-backed pages (the binary, ONNX Runtime's library) are clean: the kernel
            # can drop them under memory pressure, unlike anonymous ones.
            print("Service memory after the run (ours with the default config): "
                  "RSS %d MB (anonymous %d, file-backed %d), peak %d MB." % (
                      kb["VmRSS"] // 1024, kb["RssAnon"] // 1024, kb["RssFile"] // 1024, kb["VmHWM"] // 1024))
            print()
        print("Each stream one keep-alive connection (wrk -t1 -c1). Fresh text (a, c): each text once, "
              "at most %d s, after a %g MB warm-up of other text; b, d: %s." % (
                  self.a.duration, self.a.warm_mb,
                  "%d pass(es) over the texts" % self.a.passes if self.a.passes else "%d s" % self.a.duration))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="abcde")
    ap.add_argument("--ours", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--metrics", required=True)
    ap.add_argument("--presidio", default="")
    ap.add_argument("--proxy", default="")
    ap.add_argument("--proxy-metrics", default="")
    ap.add_argument("--sink", default="")
    ap.add_argument("--conll", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--commit", default="?")
    ap.add_argument("--duration", type=int, default=10, help="seconds per stream")
    ap.add_argument("--passes", type=int, default=0, help="b, d: N passes over the texts instead of --duration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fresh-mb", type=float, default=8, help="a, c: MB of new text per stream")
    ap.add_argument("--warm-mb", type=float, default=1, help="a, c: MB of other text sent first, untimed")
    ap.add_argument("--docs-b", type=int, default=96, help="mixed documents for shape b")
    ap.add_argument("--pid", type=int, default=0, help="our server's pid: its RSS is printed after the run")
    a = ap.parse_args()
    shapes = [s for s in a.shapes if s in "abcde"]
    if not shapes:
        raise SystemExit("SHAPES must name some of a, b, c, d, e")
    b = Bench(a)
    start = time.time()
    for s in shapes:
        b.corpus(s)
        getattr(b, "shape_" + s)()
    b.table()
    log("done in %.0f s" % (time.time() - start))


if __name__ == "__main__":
    main()
