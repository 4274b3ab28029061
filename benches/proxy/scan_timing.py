"""Time to the answer's first body byte (its first event: the role, no text yet), to the
first streamed text (the first event whose delta has content) and to the end of a
streamed (chunked) Chat Completions answer, its last chunk, over N sequential requests; also checks the
text that came. Usage: scan_timing.py HOST PORT PATH N [EXPECT_NEW]
EXPECT_NEW: `gone` when the answer's own addresses must not be in the text, `kept`
when they must be."""
import json
import socket
import statistics
import sys
import time

host, port, path, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
expect = sys.argv[5] if len(sys.argv) > 5 else ""
body = json.dumps({"model": "m", "stream": True,
                   "messages": [{"role": "user", "content": "Who owns account 4471?"}]}).encode()
req = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
       f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def texts(buf):
    out = []
    for line in buf.split(b"\n"):
        if line.startswith(b"data: {"):
            out.append(json.loads(line[6:])["choices"][0]["delta"].get("content") or "")
    return out


first_byte, first, total = [], [], []
for _ in range(n):
    s = socket.create_connection((host, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    t0 = time.perf_counter()
    s.sendall(req)
    buf, t_byte, t_first, t_end = b"", None, None, None
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
        if t_byte is None and b"data:" in buf:
            t_byte = time.perf_counter()
        if t_first is None and any(texts(buf.split(b"\r\n\r\n", 1)[-1])):
            t_first = time.perf_counter()
        if t_end is None and buf.endswith(b"\r\n0\r\n\r\n"):
            # The answer's last chunk: what the server does after it (the log line, and
            # monitor mode's scan) is not the client's wait; the next request still waits
            # for the close, so it is not queued behind that work either.
            t_end = time.perf_counter()
    s.close()
    if not buf.startswith(b"HTTP/1.1 200"):
        sys.exit(f"not a 200 answer: {buf[:200]!r}")
    text = "".join(texts(buf))
    if expect == "gone" and "margaret.hamilton@" in text:
        sys.exit("the answer's own address went out")
    if expect == "kept" and "margaret.hamilton@" not in text:
        sys.exit("the answer changed")
    first_byte.append((t_byte - t0) * 1000)
    first.append((t_first - t0) * 1000)
    total.append((t_end - t0) * 1000)
print(f"first byte p50={statistics.median(first_byte):.2f}ms; "
      f"first text p50={statistics.median(first):.2f}ms p90={sorted(first)[int(n * 0.9) - 1]:.2f}ms; "
      f"total p50={statistics.median(total):.1f}ms p90={sorted(total)[int(n * 0.9) - 1]:.1f}ms")
