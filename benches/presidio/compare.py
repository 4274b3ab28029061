"""Times our service and Presidio on the same texts through the same HTTP path in one run:
one document per request, sequential, one keep-alive connection each, and prints
characters/s of both and their ratio, with the CPU it ran on (pure standard library).

    python3 compare.py --data FILE.jsonl --ours http://127.0.0.1:18080 --key KEY \
        --presidio http://127.0.0.1:18090 [--limit N] [--rounds R]
"""
import argparse
import http.client
import json
import time
import urllib.parse


def cpu():
    name, flags = "unknown", set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and name == "unknown":
                name = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    ext = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8") if f in flags]
    return "%s | %s" % (name, " ".join(ext) or "none of avx2/avx512/vnni/amx")


def time_service(url, headers, texts, rounds):
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=600)
    best = None
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            conn.request("POST", "/v1/anonymize", json.dumps({"text": [text]}), headers)
            r = conn.getresponse()
            body = r.read()
            if r.status != 200:
                raise SystemExit("%s answered %d: %s" % (url, r.status, body[:200]))
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--ours", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--presidio", required=True)
    ap.add_argument("--limit", type=int, default=0, help="first N documents (0: all)")
    ap.add_argument("--rounds", type=int, default=2, help="best of R passes")
    a = ap.parse_args()
    texts = [json.loads(l)["text"] for l in open(a.data, encoding="utf-8") if l.strip()]
    if a.limit:
        texts = texts[:a.limit]
    chars = sum(len(t) for t in texts)
    ours = time_service(a.ours, {"Content-Type": "application/json", "X-API-Key": a.key}, texts, a.rounds)
    presidio = time_service(a.presidio, {"Content-Type": "application/json"}, texts, a.rounds)
    print("cpu: %s" % cpu())
    print("%d documents, %d characters, one per request, sequential, best of %d" % (len(texts), chars, a.rounds))
    print("| service | characters/s |")
    print("|---|---:|")
    print("| anonymizer (default config: rules + our model) | %s |" % format(int(chars / ours), ","))
    print("| Presidio 2.2.366 + spaCy en_core_web_md | %s |" % format(int(chars / presidio), ","))
    print("ratio (ours / Presidio): %.2f" % ((chars / ours) / (chars / presidio)))


if __name__ == "__main__":
    main()
