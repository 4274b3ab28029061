#!/usr/bin/env python3
"""Records what real log shippers and SDKs send, as test fixtures.

Each client is pointed at a small capture server on loopback that stores the method,
path, headers and raw body of every request and answers like the real backend would
(enough for the client to count the request as delivered). Every request becomes
`tests/fixtures/<client>/<name>.bin` (the body, byte for byte, still compressed) and a
`<name>.json` sidecar. The personal data in the logged messages is made up.

Usage (see tests/clients/README.md for the set-up):
    python3 tests/clients/record.py [--out tests/fixtures] [--only otel,otel-json,elasticsearch,syslog-ng,loki,openai,anthropic]
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import importlib
import importlib.metadata
import json
import logging
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Capture(http.server.ThreadingHTTPServer):
    """A loopback HTTP server that keeps every request it receives."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def take(self) -> list[dict]:
        with self.lock:
            taken, self.requests = self.requests, []
        return taken

    def wait_for(self, count: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.requests) >= count:
                    return
            time.sleep(0.05)
        raise SystemExit(f"timed out waiting for {count} request(s)")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def do_GET(self) -> None:
        self.respond(200, "application/json", json.dumps({"version": {"number": "8.19.0"}, "tagline": "You Know, for Search"}).encode())

    def do_HEAD(self) -> None:
        self.respond(200, "application/json", b"")

    def do_PUT(self) -> None:
        self.do_POST()

    def do_POST(self) -> None:
        body = self.read_body()
        request = {
            "method": self.command,
            "path": self.path,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body": body,
        }
        with self.server.lock:
            self.server.requests.append(request)
        if self.path.endswith("/v1/logs"):
            # An empty ExportLogsServiceResponse.
            self.respond(200, "application/x-protobuf", b"")
        elif self.path.startswith("/loki/"):
            self.respond(204, None, b"")
        elif "_bulk" in self.path:
            self.respond(200, "application/json", bulk_answer(body, self.headers.get("Content-Encoding")))
        elif self.path.split("?")[0] in LLM_ANSWERS:
            streamed = json.loads(body or b"{}").get("stream") is True
            json_answer, events = LLM_ANSWERS[self.path.split("?")[0]]
            if streamed:
                self.respond(200, "text/event-stream", sse(events))
            else:
                self.respond(200, "application/json", json.dumps(json_answer).encode())
        else:
            self.respond(200, "application/json", b"{}")

    def respond(self, status: int, content_type: str | None, body: bytes) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        # elasticsearch-py 8 refuses answers without this header (its product check).
        self.send_header("X-Elastic-Product", "Elasticsearch")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def bulk_answer(body: bytes, encoding: str | None) -> bytes:
    """An Elasticsearch `_bulk` answer with one successful item per action."""
    if encoding == "gzip":
        body = gzip.decompress(body)
    elif encoding == "deflate":
        body = zlib.decompress(body)
    items = []
    lines = iter(line for line in body.split(b"\n") if line.strip())
    for line in lines:
        (action, meta), = json.loads(line).items()
        items.append({action: {"_index": meta.get("_index", "logs"), "_id": meta.get("_id", str(len(items))), "status": 201, "result": "created"}})
        if action != "delete":
            next(lines, None)
    return json.dumps({"took": 1, "errors": False, "items": items}).encode()


# --- LLM SDKs (openai, anthropic): canned answers in each API's wire format -----------
# Enough for the SDK calls of tests/clients/sdk_*.py to complete; what is recorded is the
# requests. The checks of the answers live in tests/it/sdk_*.rs, against the proxy.

_CHAT = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
         "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
             "role": "assistant", "content": "ok",
             "tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "send_mail", "arguments": "{}"}}]}}]}
_CHUNK = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test",
          "choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}
_RESPONSE = {"id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-test",
             "output": [{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
                         "content": [{"type": "output_text", "text": "ok", "annotations": []}]}],
             "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
_MESSAGE = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}}

LLM_ANSWERS = {
    "/v1/chat/completions": (_CHAT, [(None, _CHUNK), (None, "[DONE]")]),
    "/v1/responses": (_RESPONSE, [
        ("response.created", {"type": "response.created", "sequence_number": 0,
                              "response": {**_RESPONSE, "status": "in_progress", "output": []}}),
        ("response.completed", {"type": "response.completed", "sequence_number": 1, "response": _RESPONSE}),
    ]),
    "/v1/messages": (_MESSAGE, [
        ("message_start", {"type": "message_start", "message": {**_MESSAGE, "content": []}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_stop", {"type": "message_stop"}),
    ]),
}


def sse(events: list) -> bytes:
    out = b""
    for name, data in events:
        if name:
            out += f"event: {name}\n".encode()
        out += b"data: " + (data if isinstance(data, str) else json.dumps(data)).encode() + b"\n\n"
    return out


def record_sdk(server: Capture, out: Path, package: str, script: str, calls: list[str]) -> None:
    """Runs the calls of `tests/clients/<script>` with the real SDK against the capture
    server, a key of ours (the test suite's) as the SDK's api_key, and saves each request."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(script, HERE / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sdk = importlib.import_module(package)
    if package == "openai":
        client = sdk.OpenAI(base_url=f"{server.url}/v1", api_key=TEST_KEY, max_retries=0)
    else:
        client = sdk.Anthropic(base_url=server.url, api_key=TEST_KEY, max_retries=0)
    for call in calls:
        getattr(module, call)(client)
        server.wait_for(1, 10)
        (request,) = server.take()
        save(out, f"{package}-python", call, request, f"{package} {version(package)} (Python SDK)",
             f"{script}.{call}() with api_key set to a key of ours")


# The test suite's key (tests/it/support): the replayed fixtures authenticate with it.
TEST_KEY = "test-key-0123456789"


def record_openai(server: Capture, out: Path) -> None:
    record_sdk(server, out, "openai", "sdk_openai", ["chat", "chat_stream", "responses", "responses_stream"])


def record_anthropic(server: Capture, out: Path) -> None:
    record_sdk(server, out, "anthropic", "sdk_anthropic", ["messages", "messages_stream"])


def version(package: str) -> str:
    return importlib.metadata.version(package)


def save(out: Path, client: str, name: str, request: dict, client_desc: str, notes: str) -> None:
    folder = out / client
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.bin").write_bytes(request["body"])
    headers = {k.lower(): v for k, v in request["headers"]}
    sidecar = {
        "client": client_desc,
        "recorded_with": f"tests/clients/record.py, Python {platform.python_version()}",
        "notes": notes,
        "method": request["method"],
        "path": request["path"],
        "content_type": headers.get("content-type"),
        "content_encoding": headers.get("content-encoding"),
        "body_file": f"{name}.bin",
        "body_bytes": len(request["body"]),
        "headers": request["headers"],
    }
    (folder / f"{name}.json").write_text(json.dumps(sidecar, indent=2) + "\n")
    print(f"  {client}/{name}: {request['method']} {request['path']} {len(request['body'])} bytes, "
          f"content-encoding {headers.get('content-encoding')}")


# --- OpenTelemetry Python SDK, standard OTLP/HTTP exporter (protobuf) -----------------

def record_otel(server: Capture, out: Path) -> None:
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter

    desc = (f"opentelemetry-exporter-otlp-proto-http {version('opentelemetry-exporter-otlp-proto-http')}, "
            f"opentelemetry-sdk {version('opentelemetry-sdk')}")
    for name, compression, notes in [
        ("logs_default", None, "the exporter's default: no compression (OTEL_EXPORTER_OTLP_COMPRESSION unset)"),
        ("logs_gzip", Compression.Gzip, "compression=Compression.Gzip (OTEL_EXPORTER_OTLP_COMPRESSION=gzip)"),
    ]:
        exporter = OTLPLogExporter(endpoint=f"{server.url}/v1/logs", compression=compression)
        save(out, "otel-python", name, export_sample_logs(server, exporter), desc, notes)


def record_otel_json(server: Capture, out: Path) -> None:
    """The separate, beta JSON exporter (the standard one sends only protobuf)."""
    from opentelemetry.exporter.otlp.json.http._log_exporter import OTLPLogExporter

    package = "opentelemetry-exporter-otlp-json-http"
    desc = f"{package} {version(package)}, opentelemetry-sdk {version('opentelemetry-sdk')}"
    exporter = OTLPLogExporter(endpoint=f"{server.url}/v1/logs")
    save(out, "otel-python-json", "logs_default", export_sample_logs(server, exporter), desc,
         "the beta JSON exporter's default: no compression")


def export_sample_logs(server: Capture, exporter) -> dict:
    """Logs the sample records through `exporter` and returns the one request it sent."""
    from opentelemetry._logs import SeverityNumber
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
    from opentelemetry.sdk.resources import Resource

    resource = Resource.create({"service.name": "checkout", "deployment.environment": "test",
                                "host.owner": "Carol Diaz"})
    provider = LoggerProvider(resource=resource)
    provider.add_log_record_processor(BatchLogRecordProcessor(exporter))

    # 1. The standard library's logging, through the SDK's handler.
    handler = LoggingHandler(level=logging.INFO, logger_provider=provider)
    log = logging.getLogger("shop.auth")
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(logging.INFO)
    log.warning("user jane.doe@example.com logged in from 203.0.113.7",
                extra={"user.name": "Alice Smith", "client.address": "203.0.113.7", "attempt": 2})
    try:
        raise ValueError("card 4111 1111 1111 1111 declined for Alice Smith")
    except ValueError:
        log.exception("payment failed for order 1042")

    # 2. The logs API with a structured body: a key-value list with a nested list.
    otel_logger = provider.get_logger("shop.signup", "1.4.0", attributes={"team.lead": "Bob Jones"})
    otel_logger.emit(
        severity_number=SeverityNumber.INFO,
        severity_text="INFO",
        event_name="user.signup",
        body={
            "event": "signup",
            "user": {"name": "Alice Smith", "email": "alice.smith@example.org", "age": 34},
            "ips": ["203.0.113.7", "198.51.100.23"],
            "verified": True,
        },
        attributes={"enduser.id": "jane.doe", "phone": "+1 415-555-0132", "tags": ["vip", "Bob Jones"]},
    )
    provider.force_flush()
    server.wait_for(1, 10)
    provider.shutdown()
    requests = server.take()
    assert len(requests) == 1, f"expected one export, got {len(requests)}"
    return requests[0]


# --- elasticsearch-py 8 bulk helper, http_compress=True --------------------------------

def record_elasticsearch(server: Capture, out: Path) -> None:
    from elasticsearch import Elasticsearch, helpers

    desc = f"elasticsearch {version('elasticsearch')} (elastic-transport {version('elastic-transport')}), helpers.bulk"
    es = Elasticsearch(server.url, http_compress=True)
    actions = [
        {"_index": "app-logs", "_id": "1", "@timestamp": "2026-11-22T10:00:00Z",
         "message": "user jane.doe@example.com logged in from 203.0.113.7", "log.level": "info"},
        {"_index": "app-logs", "_id": "2", "@timestamp": "2026-11-22T10:00:01Z",
         "message": "password reset requested by Alice Smith, phone +1 415-555-0132",
         "user": {"name": "Alice Smith"}},
        {"_op_type": "create", "_index": "app-logs", "@timestamp": "2026-11-22T10:00:02Z",
         "message": "GET /orders?email=bob.jones@example.net 200"},
    ]
    ok, errors = helpers.bulk(es, actions)
    assert ok == 3 and not errors, (ok, errors)
    requests = [r for r in server.take() if "_bulk" in r["path"]]
    assert len(requests) == 1, f"expected one bulk request, got {len(requests)}"
    save(out, "elasticsearch-py", "bulk_gzip", requests[0], desc,
         "Elasticsearch(url, http_compress=True); helpers.bulk with three actions (index, index, create)")


# --- syslog-ng (Debian package) elasticsearch-http() destination ------------------------

SYSLOG_NG_CONF = """\
@version: 3.38
@include "scl.conf"
options {{ stats-freq(0); }};
source s_in {{ file("{input}" follow-freq(1)); }};
destination d_es {{
    elasticsearch-http(
        url("{url}/_bulk")
        index("syslog-ng")
        type("")
        workers(1)
        batch-lines(10)
        batch-timeout(1000)
    );
}};
log {{ source(s_in); destination(d_es); }};
"""

SYSLOG_LINES = [
    "Nov 22 10:00:00 web01 sshd[4242]: Accepted password for jane.doe from 203.0.113.7 port 51234 ssh2",
    "Nov 22 10:00:05 web01 app[77]: order 1042 shipped to Alice Smith, 12 Elm Street, Springfield",
    "Nov 22 10:00:09 web01 postfix/smtp[901]: to=<bob.jones@example.net>, relay=mx.example.net, status=sent",
]


def record_syslog_ng(server: Capture, out: Path) -> None:
    binary = shutil.which("syslog-ng")
    if not binary:
        raise SystemExit("syslog-ng not installed: apt-get install syslog-ng-core syslog-ng-mod-http syslog-ng-scl")
    desc = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    pkg = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "syslog-ng-core"], capture_output=True, text=True).stdout
    desc = f"{desc}, Debian package syslog-ng-core {pkg} + syslog-ng-mod-http, elasticsearch-http()"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "in.log").write_text("\n".join(SYSLOG_LINES) + "\n")
        conf = tmp / "syslog-ng.conf"
        conf.write_text(SYSLOG_NG_CONF.format(input=tmp / "in.log", url=server.url))
        process = subprocess.Popen(
            [binary, "-F", "--no-caps", "-f", str(conf), "-R", str(tmp / "persist"),
             "-p", str(tmp / "pid"), "-c", str(tmp / "ctl")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            server.wait_for(1, 30)
            time.sleep(1.5)  # let a second batch arrive, if it was split
        finally:
            process.terminate()
            process.wait(10)
    requests = server.take()
    assert len(requests) == 1, f"expected one bulk request, got {len(requests)}"
    save(out, "syslog-ng", "bulk", requests[0], desc,
         "file() source with three RFC 3164 lines; elasticsearch-http() with its default template and "
         "workers(1) (its default 4 sends each line alone); "
         "syslog-ng 3.38 has no request compression")


# --- Loki push: protobuf + snappy, and JSON ---------------------------------------------

def record_loki(server: Capture, out: Path) -> None:
    import cramjam
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as tmp:
        include = Path(protoc.__file__).parent / "_proto"
        code = protoc.main(["protoc", f"-I{HERE}", f"-I{include}", f"--python_out={tmp}", str(HERE / "loki_push.proto")])
        assert code == 0, "protoc failed"
        sys.path.insert(0, tmp)
        import loki_push_pb2 as pb  # noqa: E402

    request = pb.PushRequest()
    stream = request.streams.add(labels='{app="shop", env="test"}')
    lines = [
        ("user jane.doe@example.com logged in from 203.0.113.7", {"trace_id": "5b8efff798038103d269b633813fc60c"}),
        ("password reset requested by Alice Smith", {"user_email": "alice.smith@example.org", "trace_id": "eee19b7ec3c1b174"}),
    ]
    base = 1763805600  # 2025-11-22T10:00:00Z
    for i, (line, metadata) in enumerate(lines):
        entry = stream.entries.add(line=line)
        entry.timestamp.seconds = base + i
        entry.timestamp.nanos = 500
        for key, value in metadata.items():
            entry.structuredMetadata.add(name=key, value=value)
    other = request.streams.add(labels='{app="mail"}')
    entry = other.entries.add(line="to=<bob.jones@example.net> status=sent")
    entry.timestamp.seconds = base + 5
    body = bytes(cramjam.snappy.compress_raw(request.SerializeToString()))
    desc = (f"Python protobuf {version('protobuf')} messages compiled from tests/clients/loki_push.proto "
            f"(Loki's push.proto) + cramjam {version('cramjam')} snappy block; headers as Promtail sends them")
    post(f"{server.url}/loki/api/v1/push", body, {"Content-Type": "application/x-protobuf"})
    save(out, "loki-push", "push_protobuf_snappy", server.take()[0], desc,
         "not a real shipper (Promtail/Alloy are not packaged for Debian 12): the message is built from "
         "the real schema and compressed as Loki reads it (snappy block, no Content-Encoding)")

    json_body = json.dumps({"streams": [
        {"stream": {"app": "shop", "env": "test"}, "values": [
            [str((base + i) * 10**9 + 500), line, metadata] for i, (line, metadata) in enumerate(lines)
        ]},
        {"stream": {"app": "mail"}, "values": [[str((base + 5) * 10**9), "to=<bob.jones@example.net> status=sent"]]},
    ]}).encode()
    post(f"{server.url}/loki/api/v1/push", json_body, {"Content-Type": "application/json"})
    save(out, "loki-push", "push_json", server.take()[0],
         f"Python json + urllib, Python {platform.python_version()}",
         "the documented JSON push with structured metadata as each value's third element")


def post(url: str, body: bytes, headers: dict) -> None:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        response.read()


RECORDERS = {
    "otel": record_otel,
    "otel-json": record_otel_json,
    "elasticsearch": record_elasticsearch,
    "syslog-ng": record_syslog_ng,
    "loki": record_loki,
    "openai": record_openai,
    "anthropic": record_anthropic,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE.parent / "fixtures")
    parser.add_argument("--only", default=",".join(RECORDERS))
    args = parser.parse_args()
    server = Capture()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for name in args.only.split(","):
            print(f"recording {name}")
            RECORDERS[name](server, args.out)
    finally:
        server.shutdown()


if __name__ == "__main__":
    os.environ.pop("OTEL_EXPORTER_OTLP_COMPRESSION", None)
    main()
