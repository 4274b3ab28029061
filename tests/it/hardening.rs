//! Hostile clients and misbehaving upstreams: slow headers,
//! connection floods, answers cut mid-body, mislabelled encodings, huge answers,
//! bodies over the limit, refused bodies of every size, upstream error bodies. Each
//! case runs the real binary against a real local upstream; where the client's own
//! behaviour matters, it speaks raw TCP.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::{base_config, python, TestServer, KEY};

const EMAIL: &str = "grace.hopper@example.com";

/// A config with one route and `extra` appended (other top-level sections).
fn config(preset: &str, prefix: &str, upstream: &str, extra: &str) -> String {
    format!(
        "{}routes:\n  - name: r\n    match: {{path_prefix: {prefix}}}\n    upstream: {{url: '{upstream}', read_timeout_ms: 5000, connect_timeout_ms: 1000}}\n    preset: {preset}\n    auth: passthrough\n{extra}",
        base_config()
    )
}

fn chat(content: &str) -> Value {
    json!({"model": "m", "messages": [{"role": "user", "content": content}]})
}

/// An OpenAI chat answer that quotes the (anonymized) prompt.
fn echo(req: &Received) -> Reply {
    let content = req.json()["messages"][0]["content"].clone();
    Reply::json(
        &json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}),
    )
}

/// A response read off a raw connection.
#[derive(Debug)]
struct RawResponse {
    status: u16,
    /// Lower-cased names.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl RawResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One client connection speaking HTTP/1.1 by hand.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    fn open(addr: &str) -> Conn {
        let stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        Conn {
            stream,
            buf: Vec::new(),
        }
    }

    fn post(&mut self, path: &str, body: &[u8]) {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        self.stream.write_all(head.as_bytes()).expect("write");
        self.stream.write_all(body).expect("write");
    }

    fn fill(&mut self) -> Result<(), String> {
        let mut chunk = [0u8; 65536];
        match self.stream.read(&mut chunk) {
            Ok(0) => Err("connection closed".into()),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(())
            }
            Err(e) => Err(format!("read failed: {e}")),
        }
    }

    fn take_line(&mut self) -> Result<String, String> {
        loop {
            if let Some(i) = self.buf.windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[..i]).into_owned();
                self.buf.drain(..i + 2);
                return Ok(line);
            }
            self.fill()?;
        }
    }

    fn take(&mut self, n: usize) -> Result<Vec<u8>, String> {
        while self.buf.len() < n {
            self.fill()?;
        }
        Ok(self.buf.drain(..n).collect())
    }

    /// Reads one whole response, framed by `Content-Length` or chunked; an error when
    /// the connection ends before the framing says the body is complete.
    fn response(&mut self) -> Result<RawResponse, String> {
        let status_line = self.take_line()?;
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or(format!("bad status line {status_line:?}"))?;
        let mut headers = Vec::new();
        loop {
            let line = self.take_line()?;
            if line.is_empty() {
                break;
            }
            if let Some((n, v)) = line.split_once(':') {
                headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
            }
        }
        let mut response = RawResponse {
            status,
            headers,
            body: Vec::new(),
        };
        if let Some(len) = response.header("content-length") {
            let len: usize = len.parse().map_err(|_| "bad length")?;
            response.body = self.take(len)?;
        } else if response.header("transfer-encoding") == Some("chunked") {
            loop {
                let size = usize::from_str_radix(self.take_line()?.trim(), 16)
                    .map_err(|_| "bad chunk size")?;
                let chunk = self.take(size + 2)?;
                if size == 0 {
                    break;
                }
                response.body.extend_from_slice(&chunk[..size]);
            }
        } else {
            return Err("a response without framing".into());
        }
        Ok(response)
    }

    /// Whether the server closed the connection within `within` (sending nothing).
    fn closed_within(&mut self, within: Duration) -> bool {
        self.stream.set_read_timeout(Some(within)).expect("timeout");
        let mut byte = [0u8; 1];
        match self.stream.read(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        }
    }
}

/// `VmHWM` (peak resident set) of a process, in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

#[test]
fn slow_headers_are_cut_off_at_the_header_deadline_while_others_are_served() {
    let s = TestServer::start(&format!(
        "{}server:\n  header_timeout_ms: 600\n",
        base_config()
    ));
    let mut slow = Conn::open(&s.addr);
    let mut writer = slow.stream.try_clone().expect("clone");
    let started = Instant::now();
    // One header byte every 100 ms: each read is quick, the header never ends.
    let trickle = std::thread::spawn(move || {
        for byte in
            b"POST /v1/anonymize HTTP/1.1\r\nHost: x\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        {
            if writer.write_all(&[*byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    // Meanwhile a normal client is served.
    let r = s.post("/v1/anonymize", &json!({"text": [EMAIL]}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(slow.closed_within(Duration::from_secs(5)));
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(550) && elapsed < Duration::from_secs(3),
        "closed after {elapsed:?}"
    );
    trickle.join().expect("trickle");
    let line = r#"anonymizer_connections_closed_total{reason="header_timeout"} 1"#;
    assert!(s.metrics_with(&[line.to_owned()]).contains(line));
}

#[test]
fn connections_over_the_cap_are_closed_at_once_and_the_slots_come_back() {
    let s = TestServer::start(&format!("{}server:\n  max_connections: 3\n", base_config()));
    // The harness's own client may hold a kept-alive slot too: of six idle
    // connections, at least three find no slot and are closed at once.
    let mut idle: Vec<Conn> = (0..6)
        .map(|_| {
            let c = Conn::open(&s.addr);
            std::thread::sleep(Duration::from_millis(50));
            c
        })
        .collect();
    let closed = idle
        .iter_mut()
        .filter_map(|c| c.closed_within(Duration::from_millis(300)).then_some(()))
        .count();
    assert!((3..=4).contains(&closed), "closed {closed}");
    drop(idle);
    std::thread::sleep(Duration::from_millis(200));
    let mut c = Conn::open(&s.addr);
    c.stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    assert_eq!(c.response().expect("served").status, 200);
    let m = s.metrics();
    assert!(
        m.contains("anonymizer_connections_closed_total{reason=\"over_limit\"}"),
        "{m}"
    );
}

#[test]
fn restored_answers_carry_their_length_and_connections_are_reused_on_both_sides() {
    let up = Upstream::keep_alive(echo);
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    let mut c = Conn::open(&s.addr);
    for turn in 0..3 {
        let content = format!("turn {turn}: write to {EMAIL}");
        c.post(
            "/v1/chat/completions",
            chat(&content).to_string().as_bytes(),
        );
        let r = c.response().expect("a complete response");
        assert_eq!(r.status, 200);
        assert_eq!(r.header("transfer-encoding"), None);
        assert_eq!(
            r.header("content-length"),
            Some(r.body.len().to_string().as_str())
        );
        let body: Value = serde_json::from_slice(&r.body).expect("JSON");
        assert_eq!(body["choices"][0]["message"]["content"], content.as_str());
    }
    // One client connection carried the three requests, and one upstream connection.
    assert_eq!(up.connections(), 1);
    assert_eq!(up.received().len(), 3);
    assert!(!up.all_bytes().contains(EMAIL));
}

#[test]
fn a_pooled_connection_the_upstream_closed_is_replaced_without_an_error() {
    let up = Upstream::closing_quietly(echo);
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    for turn in 0..3 {
        let content = format!("turn {turn}: {EMAIL}");
        let r = s.post_raw("/v1/chat/completions", &chat(&content).to_string(), &[]);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(
            r.json()["choices"][0]["message"]["content"],
            content.as_str()
        );
    }
    assert_eq!(up.received().len(), 3);
}

#[test]
fn every_pooled_connection_reset_on_reuse_is_replaced_without_an_error() {
    // Each reuse of a pooled connection meets a reset: after the request header, during
    // the body (large bodies) or while the answer is awaited (small ones), whichever
    // the timing gives. Every request must still get its answer, exactly once.
    let up = Upstream::resetting_reused(echo);
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    let turns = 40;
    for turn in 0..turns {
        let filler = "lorem ipsum dolor sit amet ".repeat(if turn % 2 == 0 { 1 } else { 8_000 });
        let content = format!("turn {turn}: {EMAIL} {filler}");
        let r = s.post_raw("/v1/chat/completions", &chat(&content).to_string(), &[]);
        assert_eq!(r.status, 200, "turn {turn}: {}", r.text);
        assert_eq!(
            r.json()["choices"][0]["message"]["content"],
            content.as_str()
        );
    }
    assert_eq!(up.received().len(), turns);
    assert_eq!(up.connections(), turns);
}

#[test]
fn idle_kept_alive_connections_close_after_the_keepalive_timeout() {
    let s = TestServer::start(&format!(
        "{}server:\n  keepalive_timeout_secs: 1\n",
        base_config()
    ));
    let mut c = Conn::open(&s.addr);
    c.stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    assert_eq!(c.response().expect("served").status, 200);
    let started = Instant::now();
    assert!(c.closed_within(Duration::from_secs(5)));
    let idle = started.elapsed();
    assert!(
        idle >= Duration::from_millis(900) && idle < Duration::from_secs(3),
        "closed after {idle:?}"
    );
}

#[test]
fn an_upstream_failing_mid_body_is_a_502_when_restored_and_a_failed_transfer_when_streamed() {
    // Restored whole: nothing has gone out yet, so the client gets our error.
    let up = Upstream::start(|req: &Received| {
        let mut reply = echo(req);
        reply.cut_after = Some(10);
        reply
    });
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    let r = s.post_raw("/v1/chat/completions", &chat(EMAIL).to_string(), &[]);
    r.assert_error(502, "bad_gateway");

    // Streamed events: the header went out, so the transfer must visibly fail.
    let events: Vec<Vec<u8>> = (0..4)
        .map(|i| {
            format!(
                "data: {}\n\n",
                json!({"choices": [{"index": 0, "delta": {"content": format!("part {i} ")}}]})
            )
            .into_bytes()
        })
        .collect();
    let up = Upstream::start(move |_| {
        let mut reply = Reply::sse(events.clone(), Duration::from_millis(20));
        reply.cut_after = Some(events[0].len() + events[1].len());
        reply
    });
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    let mut c = Conn::open(&s.addr);
    c.post("/v1/chat/completions", chat("hi").to_string().as_bytes());
    let err = c.response().expect_err("an unfinished chunked body");
    assert!(
        err.contains("closed") || err.contains("read failed"),
        "{err}"
    );

    // Passed through with the upstream's length: a short body is a failed transfer.
    let up = Upstream::start(|_| {
        let mut reply =
            Reply::json(&json!({"text": "Success", "code": 0, "padding": "x".repeat(500)}));
        reply.cut_after = Some(20);
        reply
    });
    let s = TestServer::start(&config("splunk_hec", "/services/collector", &up.url(), ""));
    let mut c = Conn::open(&s.addr);
    c.post("/services/collector/event", br#"{"event": "hello"}"#);
    let err = c.response().expect_err("a short body");
    assert!(
        err.contains("closed") || err.contains("read failed"),
        "{err}"
    );
}

#[test]
fn mislabelled_unknown_and_corrupt_encodings_are_a_502_never_garbage() {
    let gzip = {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(br#"{"choices": []}"#).unwrap();
        gz.finish().unwrap()
    };
    for (coding, body) in [
        ("br", gzip.clone()),
        ("lz4", gzip.clone()),
        ("gzip", b"not gzip at all".to_vec()),
    ] {
        let up = Upstream::start(move |_| {
            Reply::bytes(
                "application/json",
                body.clone(),
                &[("content-encoding", coding)],
            )
        });
        let s = TestServer::start(&config(
            "openai_chat",
            "/v1/chat/completions",
            &up.url(),
            "",
        ));
        let r = s.post_raw("/v1/chat/completions", &chat(EMAIL).to_string(), &[]);
        r.assert_error(502, "bad_gateway");
        assert!(!r.text.contains('\u{FFFD}'));
        let line = r#"anonymizer_proxy_refusals_total{reason="unreadable_response",route="r"} 1"#;
        assert!(
            s.metrics_with(&[line.to_owned()]).contains(line),
            "{coding}: {}",
            s.metrics()
        );
    }
}

#[test]
fn answers_over_the_response_limit_are_a_502_and_huge_answers_leave_memory_flat() {
    const MIB: usize = 1024 * 1024;
    fn huge(chunked: bool) -> Reply {
        let piece = vec![b' '; MIB];
        // A 64 MiB JSON document: `{"a":"` + spaces + `"}` (an object is restored
        // whole; an array would go out element by element).
        let mut chunks: Vec<(Duration, Vec<u8>)> = vec![(Duration::ZERO, br#"{"a":""#.to_vec())];
        chunks.extend((0..64).map(|_| (Duration::ZERO, piece.clone())));
        chunks.push((Duration::ZERO, br#""}"#.to_vec()));
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            chunks,
            chunked,
            cut_after: None,
        }
    }
    let chunked = Upstream::start(move |_| huge(true));
    let declared = Upstream::start(move |_| huge(false));
    let yaml = format!(
        "{}limits:\n  max_response_bytes: 4194304\nroutes:\n  - name: chunked\n    match: {{path_prefix: /a}}\n    upstream: {{url: '{}'}}\n    preset: openai_chat\n    auth: passthrough\n  - name: declared\n    match: {{path_prefix: /b}}\n    upstream: {{url: '{}'}}\n    preset: openai_chat\n    auth: passthrough\n  - name: passed\n    match: {{path_prefix: /c}}\n    upstream: {{url: '{}'}}\n    preset: splunk_hec\n    auth: passthrough\n",
        base_config(),
        chunked.url(),
        declared.url(),
        chunked.url()
    );
    let s = TestServer::start(&yaml);
    // Warm up once so start-up allocations are in the baseline.
    s.post_raw("/a", &chat("hi").to_string(), &[])
        .assert_error(502, "bad_gateway");
    let before = peak_rss_kib(s.pid());
    for _ in 0..3 {
        s.post_raw("/a", &chat("hi").to_string(), &[])
            .assert_error(502, "bad_gateway");
        s.post_raw("/b", &chat("hi").to_string(), &[])
            .assert_error(502, "bad_gateway");
        // Not restored: streamed through whole, never buffered.
        let r = s
            .client()
            .post(s.url("/c"))
            .header("content-type", "application/json")
            .body(r#"{"event": "hello"}"#)
            .send()
            .expect("request");
        assert_eq!(r.status(), 200);
        assert_eq!(r.bytes().expect("body").len(), 64 * MIB + 8);
    }
    let grown_mib = (peak_rss_kib(s.pid()) - before) / 1024;
    // Before the bound, one such answer raised the peak by ~380 MiB.
    assert!(grown_mib < 24, "peak RSS grew by {grown_mib} MiB");
    let m = s.metrics();
    assert!(
        m.contains(
            r#"anonymizer_proxy_refusals_total{reason="response_too_large",route="chunked"} 4"#
        ),
        "{m}"
    );
    assert!(
        m.contains(
            r#"anonymizer_proxy_refusals_total{reason="response_too_large",route="declared"} 3"#
        ),
        "{m}"
    );
}

#[test]
fn a_body_over_the_limit_gets_a_413_that_python_urllib_reads() {
    let up = Upstream::sink();
    let yaml = format!(
        "{}limits:\n  max_body_bytes: 1048576\nroutes:\n  - name: r\n    match: {{path_prefix: /v1/chat}}\n    upstream: {{url: '{}'}}\n    preset: openai_chat\n    auth: passthrough\n",
        base_config(),
        up.url()
    );
    let s = TestServer::start(&yaml);
    let script = r#"
import json, sys, urllib.request, urllib.error
base, key = sys.argv[1], sys.argv[2]
body = b'{"text": ["' + b'a' * (32 * 1024 * 1024) + b'"]}'
for path in ["/v1/anonymize", "/v1/chat/completions"]:
    req = urllib.request.Request(base + path, data=body, method="POST",
        headers={"Content-Type": "application/json", "X-API-Key": key})
    try:
        urllib.request.urlopen(req, timeout=20)
        print(path, "no error")
    except urllib.error.HTTPError as e:
        print(path, e.code, json.load(e)["error"]["code"])
"#;
    let out = std::process::Command::new(python())
        .args(["-c", script, &format!("http://{}", s.addr), KEY])
        .output()
        .expect("python runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "/v1/anonymize 413 payload_too_large\n/v1/chat/completions 413 payload_too_large\n",
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(up.connections(), 0);
}

#[test]
fn refused_bodies_of_every_size_and_framing_reach_no_upstream_at_all() {
    let up = Upstream::sink();
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    let big = format!("not json {EMAIL} {}", "x".repeat(200 * 1024));
    let r = s.post_raw(
        "/v1/chat/completions",
        &big,
        &[("authorization", "Bearer sk-secret")],
    );
    r.assert_error(422, "validation_failed");
    // Chunked, so no length is declared.
    let mut c = Conn::open(&s.addr);
    let chunk = format!("not json {EMAIL}");
    write!(
        c.stream,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer sk-secret\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
        chunk.len()
    )
    .expect("write");
    let r = c.response().expect("an answer");
    assert_eq!(r.status, 422);
    // The connection stays usable after a refusal of a body read whole.
    c.post("/v1/chat/completions", chat(EMAIL).to_string().as_bytes());
    assert_eq!(c.response().expect("served").status, 200);
    assert_eq!(up.connections(), 1, "only the valid request reached it");
    assert_eq!(up.received().len(), 1);
    assert!(!up.all_bytes().contains(EMAIL));
}

#[test]
fn upstream_json_errors_are_restored_on_the_presets_own_paths() {
    let up = Upstream::start(|req: &Received| {
        let content = req.json()["messages"][0]["content"].clone();
        let mut reply = Reply::json(&json!({"error": {
            "message": format!("cannot process {}", content.as_str().unwrap_or("")),
            "type": "invalid_request_error", "code": null}}));
        reply.status = 400;
        reply
    });
    let s = TestServer::start(&config(
        "openai_chat",
        "/v1/chat/completions",
        &up.url(),
        "",
    ));
    let r = s.post_raw("/v1/chat/completions", &chat(EMAIL).to_string(), &[]);
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json(),
        json!({"error": {"message": format!("cannot process {EMAIL}"), "type": "invalid_request_error", "code": null}})
    );
    assert!(!up.all_bytes().contains(EMAIL));
}
