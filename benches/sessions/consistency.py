"""Many concurrent requests on one session, alternating two replicas: every value
must get exactly one placeholder and every placeholder exactly one value."""
import http.client, json, sys, threading, random

a, b, total = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
THREADS = 16
pairs, errors, lock = [], [], threading.Lock()
session = f"hot-{random.random()}"

def worker(t):
    cons = [http.client.HTTPConnection("127.0.0.1", p) for p in (a, b)]
    rng = random.Random(t)
    for i in range(total // THREADS):
        emails = [f"user{rng.randrange(500)}@example.com" for _ in range(3)]
        con = cons[(t + i) % 2]
        con.request("POST", "/v1/anonymize", json.dumps({"text": [" ; ".join(emails)]}),
                    {"Content-Type": "application/json", "X-API-Key": "bench-key-0123456789",
                     "X-Session-Id": session})
        r = con.getresponse()
        body = json.loads(r.read())
        with lock:
            if r.status != 200:
                errors.append(r.status)
                continue
            pairs.extend((e["text"], e["anonymized_text"]) for e in body["detected_entities"])

threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
[t.start() for t in threads]
[t.join() for t in threads]
by_value, by_placeholder = {}, {}
for v, p in pairs:
    by_value.setdefault(v, set()).add(p)
    by_placeholder.setdefault(p, set()).add(v)
bad = sum(len(s) > 1 for s in by_value.values()) + sum(len(s) > 1 for s in by_placeholder.values())
print(f"requests: {total // THREADS * THREADS}, non-200: {len(errors)}, values: {len(by_value)}, "
      f"placeholders: {len(by_placeholder)}, inconsistent: {bad}")
sys.exit(1 if bad or errors else 0)
