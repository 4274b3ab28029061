"""What per-call policy costs on the served path: two builds of the binary side by
side (e.g. the commit before policies and this one), the same documents sent to each
over one keep-alive connection, alternating which goes first.

    python benches/policy/overhead.py --old OLD_BIN --new NEW_BIN --docs docs.jsonl \
        [--old-config OLD_TREE/conf/anonymizer.yaml]

docs.jsonl: one {"text": ...} per line (benches/served/corpus.py writes them). Shapes:
`plain` (no options), `named` (three pattern labels named: the named-evidence path),
and, on the new build only, `policy` (an operator per label, an action, a request-time
recognizer with context, an allow list and decision traces: what using them costs).
Prints one markdown table: chars/s per build and shape, and new/old.
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

KEY = "bench-key-0123456789abcdef"

SHAPES = {
    "plain": {},
    "named": {"detection_config": {"entities": ["EMAIL_ADDRESS", "CREDIT_CARD", "PHONE_NUMBER"]}},
    "policy": {
        "detection_config": {
            "ad_hoc_recognizers": [{"name": "tickets", "supported_entity": "TICKET_REF",
                                    "patterns": [{"regex": "\\bTCK-\\d{6}\\b", "score": 0.6}],
                                    "context": ["ticket"]}],
            "allow_list": ["support@example.com"],
            "return_decision_process": True,
        },
        "anonymization_config": {
            "operators": {"CREDIT_CARD": {"type": "MASK", "chars_to_mask": 12}, "EMAIL_ADDRESS": {"type": "HASH"}},
            "actions": {"US_SSN": "monitor"},
        },
    },
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, config, tmp, name):
    port, metrics = free_port(), free_port()
    env = dict(os.environ, ANONYMIZER_API_KEYS=KEY, ANONYMIZER_LISTEN=f"127.0.0.1:{port}",
               ANONYMIZER_METRICS_LISTEN=f"127.0.0.1:{metrics}", RUST_LOG="warn")
    log = open(os.path.join(tmp, f"{name}.log"), "w")
    proc = subprocess.Popen([binary, "--config", config], env=env, stdout=log, stderr=log)
    for _ in range(600):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/readyz")
            if c.getresponse().status == 200:
                return proc, port
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit(f"{name} did not start; see {tmp}/{name}.log")


def send(conn, body):
    t = time.perf_counter()
    conn.request("POST", "/v1/anonymize", body, {"Content-Type": "application/json", "X-API-Key": KEY})
    r = conn.getresponse()
    r.read()
    if r.status != 200:
        sys.exit(f"status {r.status}")
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--old-config", default="conf/anonymizer.yaml",
                    help="the old build's own default config, when the new one adds keys")
    ap.add_argument("--new-config", default="conf/anonymizer.yaml")
    ap.add_argument("--docs", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    docs = [json.loads(l)["text"] for l in open(a.docs) if l.strip()]
    chars = sum(len(d) for d in docs)
    tmp = tempfile.mkdtemp()
    servers = {name: start(binary, config, tmp, name)
               for name, binary, config in (("old", a.old, a.old_config), ("new", a.new, a.new_config))}
    conns = {name: http.client.HTTPConnection("127.0.0.1", port, timeout=120) for name, (_, port) in servers.items()}
    try:
        # Warm both: the model's first passes and the pattern set's first states.
        for d in docs[:10]:
            for c in conns.values():
                send(c, json.dumps({"text": [d]}))
        rows = []
        for shape, extra in SHAPES.items():
            names = ["old", "new"] if shape != "policy" else ["new"]
            spent = {n: 0.0 for n in names}
            for r in range(a.rounds):
                for i, d in enumerate(docs):
                    body = json.dumps(dict(extra, text=[d]))
                    order = names if (i + r) % 2 == 0 else names[::-1]
                    for n in order:
                        spent[n] += send(conns[n], body)
            rate = {n: chars * a.rounds / spent[n] for n in names}
            ratio = f"{rate['new'] / rate['old']:.3f}" if "old" in rate else "—"
            rows.append((shape, rate.get("old"), rate["new"], ratio))
        print(f"{len(docs)} documents, {chars} chars, {a.rounds} rounds\n")
        print("| shape | old chars/s | new chars/s | new/old |")
        print("|---|---|---|---|")
        for shape, old, new, ratio in rows:
            print(f"| {shape} | {old:,.0f} | {new:,.0f} | {ratio} |" if old else f"| {shape} | — | {new:,.0f} | {ratio} |")
    finally:
        for proc, _ in servers.values():
            proc.terminate()


if __name__ == "__main__":
    main()
