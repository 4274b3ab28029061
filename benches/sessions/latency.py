"""Added latency of a session request: the same 1 KB, 10-entity request on one
connection, sequentially, against the memory-store replica and the Redis one."""
import http.client, json, sys, time

TEXT = open(__file__.replace("latency.py", "anonymize.lua")).read().split("[[", 1)[1].split("]]", 1)[0]
N = 2000

def run(port):
    con = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for i in range(N + 200):
        t = time.perf_counter()
        con.request("POST", "/v1/anonymize", TEXT, {"Content-Type": "application/json",
                    "X-API-Key": "bench-key-0123456789", "X-Session-Id": f"lat{i % 100}"})
        r = con.getresponse()
        body = r.read()
        assert r.status == 200, body
        if i >= 200:
            times.append((time.perf_counter() - t) * 1000)
    entities = len(json.loads(body)["detected_entities"])
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.99)], entities

mem, red = run(int(sys.argv[1])), run(int(sys.argv[2]))
print(f"entities per request: {mem[2]}")
print(f"memory store: p50 {mem[0]:.3f} ms, p99 {mem[1]:.3f} ms")
print(f"redis store:  p50 {red[0]:.3f} ms, p99 {red[1]:.3f} ms")
print(f"added: p50 {red[0] - mem[0]:.3f} ms, p99 {red[1] - mem[1]:.3f} ms")
