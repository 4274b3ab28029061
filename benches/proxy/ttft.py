"""Time to first streamed byte of the body, over N sequential requests.
Usage: ttft.py HOST PORT PATH N [BODY_FILE [HEADER ...]]
BODY_FILE: a JSON request body to send instead of the short default (sent with
"stream": true); HEADER: extra `Name: value` request headers."""
import json
import socket
import statistics
import sys
import time

host, port, path, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
if len(sys.argv) > 5:
    doc = json.load(open(sys.argv[5]))
    doc["stream"] = True
    body = json.dumps(doc).encode()
else:
    body = json.dumps({"model": "m", "stream": True,
                       "messages": [{"role": "user", "content": "Write to ada@example.com please"}]}).encode()
extra = "".join(f"{h}\r\n" for h in sys.argv[6:])
req = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{extra}"
       f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
samples = []
for _ in range(n):
    s = socket.create_connection((host, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    t0 = time.perf_counter()
    s.sendall(req)
    buf = b""
    while b"data:" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
    samples.append((time.perf_counter() - t0) * 1000)
    if not buf.startswith(b"HTTP/1.1 200") or b"data:" not in buf:
        sys.exit(f"not a streamed 200 answer: {buf[:200]!r}")
    while s.recv(65536):
        pass
    s.close()
samples.sort()
print(f"p50={statistics.median(samples):.2f}ms p99={samples[int(len(samples) * 0.99) - 1]:.2f}ms")
