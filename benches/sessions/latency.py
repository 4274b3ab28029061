"""Added latency of a session request: the same 1 KB, 10-entity request, sequentially
on one connection per replica, alternating between the memory-store replica and the
Redis one request by request, so both see the same machine state."""
import http.client, json, sys, time

TEXT = open(__file__.replace("latency.py", "anonymize.lua")).read().split("[[", 1)[1].split("]]", 1)[0]
N, WARMUP = 2000, 200

def request(con, i):
    t = time.perf_counter()
    con.request("POST", "/v1/anonymize", TEXT, {"Content-Type": "application/json",
                "X-API-Key": "bench-key-0123456789", "X-Session-Id": f"lat{i % 100}"})
    r = con.getresponse()
    body = r.read()
    assert r.status == 200, body
    return (time.perf_counter() - t) * 1000, body

cons = [http.client.HTTPConnection("127.0.0.1", int(p)) for p in sys.argv[1:3]]
times = [[], []]
for i in range(N + WARMUP):
    for k, con in enumerate(cons):
        ms, body = request(con, i)
        if i >= WARMUP:
            times[k].append(ms)
entities = len(json.loads(body)["detected_entities"])
pct = lambda t, q: sorted(t)[int(len(t) * q)]
(m50, m99), (r50, r99) = [(pct(t, 0.5), pct(t, 0.99)) for t in times]
print(f"entities per request: {entities}; {N} requests each, alternating")
print(f"memory store: p50 {m50:.3f} ms, p99 {m99:.3f} ms")
print(f"redis store:  p50 {r50:.3f} ms, p99 {r99:.3f} ms")
print(f"added: p50 {r50 - m50:.3f} ms, p99 {r99 - m99:.3f} ms")
