"""The proxy shape's upstream: reads each body whole and answers 200 with the smallest
JSON its backend would send (Elasticsearch _bulk, Loki push, OTLP logs), so that the
proxy's own work is what is timed. GET /stats gives the requests and body bytes seen,
GET /last the last body.

    python sink.py PORT
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWERS = {"_bulk": b'{"took":0,"errors":false,"items":[]}', "/loki/": b"{}", "/v1/logs": b"{}"}
STATS = {"requests": 0, "bytes": 0}
LAST = [b""]  # the last body received, for the bench's check that the proxy changed it


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle on, the body waits for the
    # client's delayed ACK of the headers (40 ms a request on Linux).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, body):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer(LAST[0] if self.path == "/last" else json.dumps(STATS).encode())

    def do_POST(self):
        LAST[0] = self.rfile.read(int(self.headers["Content-Length"]))
        STATS["requests"] += 1  # one connection at a time in the bench: no lock needed
        STATS["bytes"] += len(LAST[0])
        self.answer(next((a for p, a in ANSWERS.items() if p in self.path), b"{}"))


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()
