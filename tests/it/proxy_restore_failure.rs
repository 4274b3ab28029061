//! Answers that cannot be restored: aborted (`restore_failure: error`, the default) or
//! passed on as they came (`passthrough`), counted either way by route and reason.

use std::time::Duration;

use serde_json::json;

use crate::support::upstream::{Reply, Upstream};
use crate::support::{TestServer, KEY};

fn server(upstream: &Upstream, policy: &str) -> TestServer {
    TestServer::start(&format!(
        "{}routes:\n  - name: r\n    match: {{path_prefix: /v1}}\n    upstream: {{url: '{}'}}\n    preset: openai_chat\n    restore_failure: {policy}\n",
        crate::support::base_config(),
        upstream.url()
    ))
}

/// The answer's status and body, or `None` when the body could not be read in full.
fn call(s: &TestServer) -> (u16, Option<Vec<u8>>) {
    let body = json!({"messages": [{"role": "user", "content": "Mail grace.hopper@example.com"}]});
    let r = s
        .client()
        .post(s.url("/v1/chat/completions"))
        .header("content-type", "application/json")
        .header("x-api-key", KEY)
        .body(body.to_string())
        .send()
        .expect("answer headers");
    let status = r.status().as_u16();
    (status, r.bytes().ok().map(|b| b.to_vec()))
}

fn counted(s: &TestServer, reason: &str) {
    let line =
        format!("anonymizer_proxy_restore_failures_total{{reason=\"{reason}\",route=\"r\"}} 1");
    let m = s.metrics_with(std::slice::from_ref(&line));
    assert!(m.contains(&line), "{m}");
}

/// Our 502 when the answer's head is not out yet; cut short when it is (pingora sends
/// the head with the first piece of the body it has).
fn assert_not_delivered(answer: (u16, Option<Vec<u8>>)) {
    match answer {
        (502, Some(body)) => {
            let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(error["error"]["code"], "bad_gateway");
        }
        (200, None) => {}
        other => panic!("delivered: {other:?}"),
    }
}

const TRUNCATED: &str = r#"{"choices":[{"message":{"content":"[EMAIL_ADDRESS_1]"#;

/// A JSON answer that does not parse, in one piece or in two a while apart.
fn truncated_json(pieces: usize) -> Upstream {
    Upstream::start(move |_| {
        let (a, b) = TRUNCATED.as_bytes().split_at(20);
        let chunks = match pieces {
            1 => vec![(Duration::ZERO, TRUNCATED.as_bytes().to_vec())],
            _ => vec![
                (Duration::ZERO, a.to_vec()),
                (Duration::from_millis(200), b.to_vec()),
            ],
        };
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            chunks,
            chunked: false,
            cut_after: None,
        }
    })
}

#[test]
fn a_json_answer_that_does_not_parse_is_never_delivered_by_default_and_is_counted() {
    let up = truncated_json(1);
    let s = server(&up, "error");
    assert_not_delivered(call(&s));
    counted(&s, "malformed");
}

#[test]
fn a_json_answer_that_breaks_off_after_its_first_piece_is_never_delivered_either() {
    // A whole answer is held until it is restored, so its head is still ours to choose.
    let up = truncated_json(2);
    let s = server(&up, "error");
    let (status, body) = call(&s);
    assert_eq!(status, 502);
    assert_not_delivered((status, body));
    counted(&s, "malformed");
}

#[test]
fn with_passthrough_it_goes_on_as_it_came_and_is_counted() {
    let up = truncated_json(2);
    let s = server(&up, "passthrough");
    let (status, body) = call(&s);
    assert_eq!(status, 200);
    assert_eq!(body.as_deref(), Some(TRUNCATED.as_bytes()));
    counted(&s, "malformed");
}

fn stream_with_a_broken_event() -> Upstream {
    Upstream::start(|_| {
        let event = |c: &str| {
            format!(
                "data: {}\n\n",
                json!({"choices": [{"index": 0, "delta": {"content": c}}]})
            )
            .into_bytes()
        };
        let mut broken = b"data: {\"choices\":[{\"delta\":{\"content\":\"\xff\"}}]}\n\n".to_vec();
        broken.extend(event(" bye"));
        Reply::sse(
            vec![
                event("hi [EMAIL_ADDRESS_1]"),
                broken,
                b"data: [DONE]\n\n".to_vec(),
            ],
            Duration::from_millis(5),
        )
    })
}

#[test]
fn a_stream_event_that_is_not_utf8_ends_the_stream_or_passes_as_it_came() {
    let email = "grace.hopper@example.com";
    let up = stream_with_a_broken_event();
    let s = server(&up, "error");
    assert_not_delivered(call(&s));
    counted(&s, "not_utf8");

    let s = server(&up, "passthrough");
    let (_, body) = call(&s);
    let body = body.expect("the whole stream");
    let text = String::from_utf8_lossy(&body);
    assert!(
        text.starts_with(&format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": {"content": format!("hi {email}")}}]})
        )),
        "{text}"
    );
    assert!(
        body.windows(1).any(|w| w == b"\xff"),
        "the broken event as it came"
    );
    assert!(text.ends_with(" bye\"}}]}\n\ndata: [DONE]\n\n"), "{text}");
    counted(&s, "not_utf8");
}

#[test]
fn an_answer_in_an_encoding_we_cannot_read_is_a_502_or_passes_as_it_came() {
    let up = Upstream::start(|_| Reply {
        status: 200,
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("content-encoding".into(), "compress".into()),
        ],
        chunks: vec![(Duration::ZERO, b"\x1f\x9d\x90opaque".to_vec())],
        chunked: false,
        cut_after: None,
    });
    let s = server(&up, "error");
    let (status, _) = call(&s);
    assert_eq!(status, 502);
    counted(&s, "unreadable_encoding");

    let s = server(&up, "passthrough");
    let (status, body) = call(&s);
    assert_eq!(status, 200);
    assert_eq!(body.as_deref(), Some(&b"\x1f\x9d\x90opaque"[..]));
    counted(&s, "unreadable_encoding");
}
