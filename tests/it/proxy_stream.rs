//! Streamed (SSE) answers are restored as they stream: placeholders split across events
//! and across TCP chunks at any byte come out whole, and events are not held back.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::TestServer;

const EMAIL: &str = "ada.lovelace@example.com";

fn config(preset: &str, prefix: &str, upstream: &str) -> String {
    format!(
        "{}routes:\n  - name: s\n    match: {{path_prefix: {prefix}}}\n    upstream: {{url: '{upstream}'}}\n    preset: {preset}\n    auth: passthrough\n",
        crate::support::base_config()
    )
}

pub(crate) fn openai_event(content: &str) -> String {
    format!(
        "data: {}\n\n",
        json!({"id": "c1", "object": "chat.completion.chunk",
               "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": null}]})
    )
}

/// The placeholder the upstream received in the last user message.
pub(crate) fn placeholder(req: &Received) -> String {
    let content = req.json()["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let start = content.find('[').unwrap_or(0);
    let end = content.find(']').map_or(content.len(), |e| e + 1);
    content[start..end].to_owned()
}

/// Concatenated `delta.content` of an OpenAI stream.
pub(crate) fn openai_text(body: &str) -> String {
    body.split("\n\n")
        .filter_map(|e| e.trim().strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| {
            v["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect()
}

#[test]
fn openai_streams_are_restored_whatever_the_byte_cuts() {
    let up = Upstream::start(|req: &Received| {
        let p = placeholder(req);
        let (a, b) = p.split_at(p.len() / 2);
        let stream = [
            openai_event("You said: "),
            openai_event(a),
            openai_event(&format!("{b}!")),
            format!(
                "data: {}\n\n",
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            ),
            "data: [DONE]\n\n".to_owned(),
        ]
        .concat()
        .into_bytes();
        let cut: usize = req
            .header("x-cut")
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let cut = cut.min(stream.len());
        let pieces = vec![stream[..cut].to_vec(), stream[cut..].to_vec()]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        Reply::sse(pieces, Duration::from_millis(1))
    });
    let s = TestServer::start(&config("openai_chat", "/v1/chat/completions", &up.url()));
    let body =
        json!({"stream": true, "messages": [{"role": "user", "content": EMAIL}]}).to_string();
    let stream_len = 420;
    for cut in (0..stream_len).step_by(7).chain([1, 2, 3]) {
        let r = s.post_raw(
            "/v1/chat/completions",
            &body,
            &[("x-cut", &cut.to_string())],
        );
        assert_eq!(r.status, 200, "cut {cut}: {}", r.text);
        assert_eq!(r.header("content-type"), Some("text/event-stream"));
        assert_eq!(
            openai_text(&r.text),
            format!("You said: {EMAIL}!"),
            "cut {cut}:\n{}",
            r.text
        );
        assert!(r.text.trim_end().ends_with("data: [DONE]"), "cut {cut}");
        assert!(
            !r.text.contains("[EMAIL"),
            "cut {cut}: placeholder leaked to the client"
        );
    }
    assert!(!up.all_bytes().contains(EMAIL));
}

#[test]
fn events_are_released_before_the_upstream_finishes() {
    // The upstream sends its first event, then waits until the test has received it
    // through the proxy. A proxy that buffered the stream would never deliver it.
    let (got_first_tx, got_first_rx) = mpsc::channel::<()>();
    let got_first_rx = std::sync::Mutex::new(got_first_rx);
    let (addr_tx, addr_rx) = mpsc::channel::<String>();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    addr_tx
        .send(listener.local_addr().unwrap().to_string())
        .unwrap();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
            if line.to_ascii_lowercase().starts_with("transfer-encoding") {
                length = usize::MAX;
            }
        }
        if length == usize::MAX {
            // Chunked request body: read until the terminating chunk.
            let mut all = Vec::new();
            while !all.ends_with(b"0\r\n\r\n") {
                let mut b = [0u8; 1];
                reader.read_exact(&mut b).unwrap();
                all.push(b[0]);
            }
        } else {
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
        }
        let mut w = stream;
        let first = openai_event("first");
        write!(w, "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{first}\r\n", first.len()).unwrap();
        w.flush().unwrap();
        let rx = got_first_rx.lock().unwrap();
        let released = rx.recv_timeout(Duration::from_secs(20)).is_ok();
        let last = if released {
            openai_event(" second")
        } else {
            openai_event(" timeout")
        };
        let done = "data: [DONE]\n\n";
        write!(
            w,
            "{:x}\r\n{last}\r\n{:x}\r\n{done}\r\n0\r\n\r\n",
            last.len(),
            done.len()
        )
        .unwrap();
        w.flush().unwrap();
    });
    let upstream = format!("http://{}", addr_rx.recv().unwrap());
    let s = TestServer::start(&config("openai_chat", "/v1/chat/completions", &upstream));
    let body = json!({"stream": true, "messages": [{"role": "user", "content": "hi"}]}).to_string();
    let mut resp = s
        .client()
        .post(s.url("/v1/chat/completions"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while !seen.contains("first") {
        let n = resp.read(&mut buf).unwrap();
        assert!(n > 0, "stream ended before the first event: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    got_first_tx.send(()).unwrap();
    let mut rest = String::new();
    resp.read_to_string(&mut rest).unwrap();
    seen.push_str(&rest);
    assert_eq!(openai_text(&seen), "first second");
}

#[test]
fn anthropic_streams_restore_text_deltas() {
    let up = Upstream::start(|req: &Received| {
        let p = req.json()["messages"][0]["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let (a, b) = p.split_at(5);
        let ev = |name: &str, data: Value| format!("event: {name}\ndata: {data}\n\n");
        let stream = [
            ev("message_start", json!({"type": "message_start", "message": {"id": "m1", "content": []}})),
            ev("content_block_start", json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})),
            ev("content_block_delta", json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": format!("Hello {a}")}})),
            ev("content_block_delta", json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": format!("{b}.")}})),
            ev("content_block_stop", json!({"type": "content_block_stop", "index": 0})),
            ev("message_stop", json!({"type": "message_stop"})),
        ]
        .concat();
        let bytes = stream.into_bytes();
        let pieces = bytes.chunks(13).map(<[u8]>::to_vec).collect();
        Reply::sse(pieces, Duration::ZERO)
    });
    let s = TestServer::start(&config("anthropic_messages", "/v1/messages", &up.url()));
    let body = json!({"model": "claude", "system": format!("user is {EMAIL}"), "stream": true,
        "messages": [{"role": "user", "content": [{"type": "text", "text": EMAIL}]}]});
    let r = s.post_raw("/v1/messages", &body.to_string(), &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    let text: String = r
        .text
        .split("\n\n")
        .filter(|e| e.starts_with("event: content_block_delta"))
        .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("data: ")))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| v["delta"]["text"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(text, format!("Hello {EMAIL}."));
    let sent = up.received()[0].json();
    assert_eq!(sent["system"], "user is [EMAIL_ADDRESS_1]");
    assert_eq!(
        sent["messages"][0]["content"][0],
        json!({"type": "text", "text": "[EMAIL_ADDRESS_1]"})
    );
    assert!(!up.all_bytes().contains(EMAIL));
}
