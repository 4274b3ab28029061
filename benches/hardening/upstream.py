"""Bench upstream: an HTTP/1.1 keep-alive server that answers chat requests with a small
JSON answer holding a placeholder, `/huge` with a 64 MiB chunked JSON answer, and
`GET /stats` with the connections and requests it has seen (for keep-alive reuse)."""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATS = {"connections": 0, "requests": 0}
LOCK = threading.Lock()
CHAT = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant",
                   "content": "Hello [PERSON_1], I wrote to [EMAIL_ADDRESS_1]."}}]}).encode()
MIB = b" " * (1024 * 1024)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        with LOCK:
            STATS["connections"] += 1

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = json.dumps(STATS).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        with LOCK:
            STATS["requests"] += 1
        self.send_response(200)
        self.send_header("content-type", "application/json")
        if self.path.startswith("/huge"):
            # Undeclared length: the proxy must bound what it buffers as it reads.
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            try:
                self.wfile.write(b"1\r\n[\r\n")
                for _ in range(64):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(MIB), MIB))
                self.wfile.write(b"1\r\n]\r\n0\r\n\r\n")
            except OSError:
                self.close_connection = True
            return
        self.send_header("content-length", str(len(CHAT)))
        self.end_headers()
        self.wfile.write(CHAT)


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.daemon_threads = True
server.serve_forever()
