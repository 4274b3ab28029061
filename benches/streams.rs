//! What restoring a streamed answer costs per event, by framing: SSE (OpenAI chat),
//! NDJSON (Ollama) and a JSON array (Gemini without `alt=sse`). Each stream is 200
//! events of about 30 characters of text, every fourth carrying a placeholder cut across
//! two events, fed one event per chunk through `Exchange::response_body` as the server
//! does; the request was anonymized rules-only. Throughput is events per second, so the
//! time per event is its inverse.

use std::sync::Arc;

use anonymizer::anonymizer::{Anonymizer, Defaults};
use anonymizer::api::Caller;
use anonymizer::engine::Engine;
use anonymizer::methods::Method as Replacement;
use anonymizer::proxy::route::{compile, RouteConfig};
use anonymizer::proxy::{Exchange, RequestHead, RequestStep};
use bytes::Bytes;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use serde_json::json;

const EVENTS: usize = 200;
const EMAIL: &str = "grace.hopper@example.com";

fn anonymizer() -> Anonymizer {
    let engine = Engine::builtin().expect("built-in engine");
    let defaults = Defaults {
        labels: engine.supported_labels().clone(),
        threshold: 0.5,
        method: Replacement::Redact,
    };
    Anonymizer::new(Arc::new(engine), defaults)
}

/// An exchange on `preset` whose request (one e-mail address in `request`) is
/// anonymized and whose answer head (`content_type`) is read: ready for answer chunks.
fn exchange(a: &Anonymizer, preset: &str, request: &str, content_type: &str) -> Exchange {
    let yaml = format!(
        "name: r\nupstream: {{url: 'http://up.test'}}\npreset: {preset}\nauth: passthrough\n"
    );
    let config: RouteConfig = serde_yaml::from_str(&yaml).expect("route");
    let route = Arc::new(compile(&config).expect("route compiles"));
    let mut h = HeaderMap::new();
    h.insert("content-type", HeaderValue::from_static("application/json"));
    h.insert("content-length", HeaderValue::from(request.len()));
    let uri: Uri = "/x".parse().expect("uri");
    let head = RequestHead {
        method: &Method::POST,
        uri: &uri,
        headers: &h,
    };
    let caller = Caller {
        tenant: "t".into(),
        session_id: None,
    };
    let mut x = Exchange::start(route, caller, &head, 1 << 20).expect("start");
    let RequestStep::Anonymize(job) = x
        .request_body(Some(request.as_bytes()), true)
        .expect("body")
    else {
        panic!("the request is anonymized");
    };
    x.anonymized(job.run(a)).expect("anonymized");
    let mut answer = HeaderMap::new();
    answer.insert(
        "content-type",
        HeaderValue::from_str(content_type).expect("type"),
    );
    x.response_head(StatusCode::OK, &answer).expect("head");
    x
}

/// The text of event `i`: a placeholder cut across events `i` and `i + 1` every fourth.
fn piece(i: usize) -> String {
    match i % 4 {
        0 => "Here is what I found for [EMAI".to_owned(),
        1 => "L_ADDRESS_1] in the records. ".to_owned(),
        _ => "Nothing else stands out here. ".to_owned(),
    }
}

/// (name, preset, request, answer content type, one chunk per event).
fn streams() -> Vec<(&'static str, &'static str, String, &'static str, Vec<Bytes>)> {
    let sse: Vec<Bytes> = (0..EVENTS)
        .map(|i| {
            let e = json!({"id": "c", "object": "chat.completion.chunk",
                           "choices": [{"index": 0, "delta": {"content": piece(i)}, "finish_reason": null}]});
            Bytes::from(format!("data: {e}\n\n"))
        })
        .collect();
    let ndjson: Vec<Bytes> = (0..EVENTS)
        .map(|i| {
            let e = json!({"model": "m", "created_at": "2026-11-23T00:00:00Z",
                           "message": {"role": "assistant", "content": piece(i)}, "done": false});
            Bytes::from(format!("{e}\n"))
        })
        .collect();
    let array: Vec<Bytes> = (0..EVENTS)
        .map(|i| {
            let e = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": piece(i)}]}, "index": 0}]});
            let sep = if i == 0 { "[" } else { ",\r\n" };
            let end = if i + 1 == EVENTS { "]" } else { "" };
            Bytes::from(format!("{sep}{}{end}", serde_json::to_string_pretty(&e).unwrap()))
        })
        .collect();
    let chat =
        json!({"messages": [{"role": "user", "content": format!("mail {EMAIL}")}]}).to_string();
    let ollama =
        json!({"model": "m", "messages": [{"role": "user", "content": format!("mail {EMAIL}")}]})
            .to_string();
    let gemini =
        json!({"contents": [{"role": "user", "parts": [{"text": format!("mail {EMAIL}")}]}]})
            .to_string();
    vec![
        (
            "sse_openai_chat",
            "openai_chat",
            chat,
            "text/event-stream",
            sse,
        ),
        (
            "ndjson_ollama",
            "ollama",
            ollama,
            "application/x-ndjson",
            ndjson,
        ),
        (
            "json_array_gemini",
            "gemini",
            gemini,
            "application/json; charset=UTF-8",
            array,
        ),
    ]
}

fn per_event(c: &mut Criterion) {
    let a = anonymizer();
    let mut group = c.benchmark_group("stream_restore");
    group.throughput(Throughput::Elements(EVENTS as u64));
    for (name, preset, request, content_type, chunks) in streams() {
        // The restored stream carries the address whole, every time it was cut.
        let mut x = exchange(&a, preset, &request, content_type);
        let mut out = Vec::new();
        for (i, chunk) in chunks.iter().enumerate() {
            let restored = x.response_body(Some(chunk.clone()), i + 1 == chunks.len());
            if let Some(b) = restored.expect("restored") {
                out.extend_from_slice(&b);
            }
        }
        let out = String::from_utf8(out).expect("utf-8");
        assert_eq!(out.matches(EMAIL).count(), EVENTS / 4, "{name}");
        assert!(!out.contains("[EMAI"), "{name}");

        group.bench_function(name, |b| {
            b.iter_batched(
                || exchange(&a, preset, &request, content_type),
                |mut x| {
                    for (i, chunk) in chunks.iter().enumerate() {
                        let restored = x.response_body(Some(chunk.clone()), i + 1 == chunks.len());
                        std::hint::black_box(restored.expect("restored"));
                    }
                },
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, per_event);
criterion_main!(benches);
