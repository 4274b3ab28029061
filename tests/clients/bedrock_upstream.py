"""A local Amazon Bedrock Runtime for the proxy's tests: it checks each request's SigV4
signature the way AWS does (botocore's own signer recomputes it from the received
method, path, signed headers and body with the expected credentials) and answers in
Bedrock's wire format: Converse JSON, ConverseStream and InvokeModelWithResponseStream
as binary event streams (CRC-checked messages), InvokeModel with Anthropic's JSON.
    bedrock_upstream.py PORT LOG ACCESS_KEY_ID SECRET SESSION_TOKEN REGION
Each request appends to LOG one JSON line: path, whether the signature verified, the
signing access key id, the security token, and the body. tests/it/sdk_bedrock.rs runs it.
"""

import base64
import http.server
import json
import re
import struct
import sys
import zlib

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

PORT, LOG, AKID, SECRET, TOKEN, REGION = sys.argv[1:7]
PLACEHOLDER = re.compile(r"\[[A-Z_]+_\d+\]|[\w.]+@[\w.]+\w")


def verified(method, path, headers, body):
    auth = headers.get("authorization", "")
    m = re.match(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, "
                 r"SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$", auth)
    if not m or m.group(1) != AKID or m.group(3) != REGION or m.group(4) != "bedrock":
        return False
    signed = m.group(5).split(";")
    request = AWSRequest(method=method, url=f"http://{headers['host']}{path}", data=body,
                         headers={h: headers[h] for h in signed if h in headers})
    request.context["timestamp"] = headers.get("x-amz-date", "")
    signer = SigV4Auth(Credentials(AKID, SECRET, TOKEN or None), "bedrock", REGION)
    canonical = signer.canonical_request(request)
    expected = signer.signature(signer.string_to_sign(request, canonical), request)
    return expected == m.group(6) and request.context["timestamp"][:8] == m.group(2)


def message(event_type, payload):
    headers = b""
    for name, value in ((":event-type", event_type), (":content-type", "application/json"),
                        (":message-type", "event")):
        headers += bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()
    prelude = struct.pack(">II", 16 + len(headers) + len(payload), len(headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    msg = prelude + headers + payload
    return msg + struct.pack(">I", zlib.crc32(msg))


def tokens(text):
    return PLACEHOLDER.findall(text) + ["?", "?"]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        headers = {k.lower(): v for k, v in self.headers.items()}
        ok = verified("POST", self.path, headers, body)
        doc = json.loads(body)
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps({"path": self.path, "signature_ok": ok,
                                "token": headers.get("x-amz-security-token"),
                                "body": doc}) + "\n")
        if not ok:
            return self.send(403, "application/json", b'{"message":"The request signature we calculated does not match"}')
        if "/converse" in self.path:
            user = tokens(doc["messages"][0]["content"][0]["text"])[0]
            system = tokens(doc["system"][0]["text"])[0]
        else:
            user = tokens(doc["messages"][0]["content"])[0]
            system = tokens(doc["system"])[0]
        text = f"Sure, I will write to {user}; cc {system}."
        cut = len("Sure, I will write to ") + 5
        if self.path.endswith("/converse"):
            answer = {"output": {"message": {"role": "assistant", "content": [{"text": text}]}},
                      "stopReason": "end_turn", "usage": {"inputTokens": 9, "outputTokens": 9, "totalTokens": 18},
                      "metrics": {"latencyMs": 1}}
            return self.send(200, "application/json", json.dumps(answer).encode())
        if self.path.endswith("/converse-stream"):
            events = [("messageStart", {"role": "assistant"}),
                      ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": text[:cut]}, "p": "abcd"}),
                      ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": text[cut:]}, "p": "ab"}),
                      ("contentBlockStop", {"contentBlockIndex": 0}),
                      ("messageStop", {"stopReason": "end_turn"}),
                      ("metadata", {"usage": {"inputTokens": 9, "outputTokens": 9, "totalTokens": 18},
                                    "metrics": {"latencyMs": 1}})]
            return self.stream(message(t, json.dumps(p).encode()) for t, p in events)
        msg = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
               "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
               "stop_sequence": None, "usage": {"input_tokens": 9, "output_tokens": 9}}
        if self.path.endswith("/invoke"):
            return self.send(200, "application/json", json.dumps(msg).encode())
        started = dict(msg, content=[], stop_reason=None)
        inner = [{"type": "message_start", "message": started},
                 {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                 {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text[:cut]}},
                 {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text[cut:]}},
                 {"type": "content_block_stop", "index": 0},
                 {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                  "usage": {"output_tokens": 9}},
                 {"type": "message_stop"}]
        return self.stream(message("chunk", json.dumps({"bytes": base64.b64encode(json.dumps(e).encode()).decode(),
                                                        "p": "xyz"}).encode()) for e in inner)

    def send(self, status, content_type, body):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stream(self, messages):
        self.send_response(200)
        self.send_header("content-type", "application/vnd.amazon.eventstream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        data = b"".join(messages)
        # Cut anywhere, as a network would: 11-byte chunks.
        for i in range(0, len(data), 11):
            piece = data[i:i + 11]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(PORT)), Handler).serve_forever()
