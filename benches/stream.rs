//! What restoring a streamed answer costs per event, measured through
//! `Exchange::response_body` as the server calls it, with a restore map from a real
//! anonymized request (rules-only anonymizer). Two groups:
//!
//! - `stream_event`, per LLM preset (openai_chat, openai_responses, anthropic_messages):
//!   a typical token event with nothing to restore (goes out byte for byte), a pair of
//!   events with a placeholder cut between them (held back, then restored: per event),
//!   and the same events on a route that does not restore (the floor: the exchange passes
//!   bytes). Besides criterion's wall-clock figures it prints on-CPU time per event
//!   (`/proc/thread-self/schedstat`), which a busy machine does not inflate.
//! - `stream_restore`, per framing: SSE (OpenAI chat), NDJSON (Ollama) and a JSON array
//!   (Gemini without `alt=sse`). Each stream is 200 events of about 30 characters of
//!   text, every fourth carrying a placeholder cut across two events, fed one event per
//!   chunk. Throughput is events per second, so the time per event is its inverse.
//!
//! Run one group with `cargo bench --bench stream -- stream_event` (or `stream_restore`).

use std::sync::Arc;

use anonymizer::anonymizer::{Anonymizer, Defaults};
use anonymizer::api::Caller;
use anonymizer::engine::Engine;
use anonymizer::methods::Method as Replacement;
use anonymizer::proxy::route::{compile, RouteConfig};
use anonymizer::proxy::{Exchange, RequestHead, RequestStep};
use anonymizer::telemetry::cpu;
use bytes::Bytes;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use serde_json::json;

fn anonymizer() -> Anonymizer {
    let engine = Engine::builtin().expect("built-in engine");
    let defaults = Defaults {
        labels: engine.supported_labels().clone(),
        threshold: 0.5,
        method: Replacement::Redact,
    };
    Anonymizer::new(Arc::new(engine), defaults)
}

/// An exchange on a route (`route`: its YAML lines after name and upstream) whose
/// `request` body is anonymized and whose answer head (`content_type`) is read: ready
/// for answer chunks.
fn exchange(a: &Anonymizer, route: &str, request: &str, content_type: &str) -> Exchange {
    let yaml = format!("name: r\nupstream: {{url: 'http://up.test'}}\n{route}auth: passthrough\n");
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

/// The route lines of `preset`.
fn preset_route(preset: &str) -> String {
    format!("preset: {preset}\n")
}

// --- stream_event: per preset, with on-CPU time ---

/// An SSE exchange on `preset` whose request (with an e-mail and a phone number) went
/// through the anonymizer; without `restores`, a plain JSON route that restores nothing.
fn streaming_exchange(a: &Anonymizer, preset: &str, restores: bool) -> Exchange {
    let route = if restores {
        preset_route(preset)
    } else {
        "body: json\nanonymize: ['$.x']\n".to_owned()
    };
    let body = json!({
        "model": "m", "stream": true, "x": "Write to ada@example.com or +1 415-555-0132",
        "messages": [{"role": "user", "content": "Write to ada@example.com or +1 415-555-0132"}],
        "input": "Write to ada@example.com or +1 415-555-0132",
    })
    .to_string();
    exchange(a, &route, &body, "text/event-stream")
}

/// Makes a preset's token event from its text.
type EventOf = fn(&str) -> Bytes;

fn chat(content: &str) -> Bytes {
    Bytes::from(format!(
        "data: {}\n\n",
        json!({"id": "chatcmpl-AbC123", "object": "chat.completion.chunk",
            "created": 1_763_805_600, "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_1",
            "choices": [{"index": 0, "delta": {"content": content}, "logprobs": null, "finish_reason": null}]})
    ))
}

fn responses(delta: &str) -> Bytes {
    Bytes::from(format!(
        "event: response.output_text.delta\ndata: {}\n\n",
        json!({"type": "response.output_text.delta", "sequence_number": 7,
            "item_id": "msg_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654", "output_index": 0,
            "content_index": 0, "delta": delta, "logprobs": []})
    ))
}

fn anthropic(text: &str) -> Bytes {
    Bytes::from(format!(
        "event: content_block_delta\ndata: {}\n\n",
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": text}})
    ))
}

fn per_preset(c: &mut Criterion) {
    eprintln!("{}", cpu::describe());
    let anonymizer = anonymizer();
    let presets: [(&str, EventOf); 3] = [
        ("openai_chat", chat),
        ("openai_responses", responses),
        ("anthropic_messages", anthropic),
    ];
    let mut group = c.benchmark_group("stream_event");
    group.throughput(Throughput::Elements(1));
    for (preset, event) in presets {
        let token = event(" the");
        let (cut_a, cut_b) = (event("Mail [EMAIL_"), event("ADDRESS_1] today"));
        let mut rows: Vec<(String, Box<dyn FnMut()>)> = Vec::new();
        let mut x = streaming_exchange(&anonymizer, preset, true);
        let t = token.clone();
        rows.push((
            format!("{preset}/token"),
            Box::new(move || {
                x.response_body(Some(t.clone()), false).expect("restored");
            }),
        ));
        let mut x = streaming_exchange(&anonymizer, preset, true);
        let (a, b) = (cut_a.clone(), cut_b.clone());
        rows.push((
            format!("{preset}/placeholder_cut_across_two_events"),
            Box::new(move || {
                x.response_body(Some(a.clone()), false).expect("held");
                x.response_body(Some(b.clone()), false).expect("restored");
            }),
        ));
        let mut x = streaming_exchange(&anonymizer, preset, false);
        let t = token.clone();
        rows.push((
            format!("{preset}/floor_no_restore"),
            Box::new(move || {
                x.response_body(Some(t.clone()), false).expect("passed");
            }),
        ));
        for (name, mut f) in rows {
            // The pair row does two events per call.
            let per_call = if name.contains("two_events") {
                2.0
            } else {
                1.0
            };
            if let Some(micros) = cpu::on_cpu_micros(20_000, &mut f) {
                eprintln!(
                    "cpu time per event: {name}: {:.2} µs ({} bytes per event)",
                    micros / per_call,
                    token.len()
                );
            }
            group.bench_function(name, |bench| bench.iter(&mut f));
        }
    }
    group.finish();
}

// --- stream_restore: per framing, 200-event streams ---

const EVENTS: usize = 200;
const EMAIL: &str = "grace.hopper@example.com";

/// The text of event `i`: a placeholder cut across events `i` and `i + 1` every fourth.
fn piece(i: usize) -> String {
    match i % 4 {
        0 => "Here is what I found for [EMAI".to_owned(),
        1 => "L_ADDRESS_1] in the records. ".to_owned(),
        _ => "Nothing else stands out here. ".to_owned(),
    }
}

/// (name, preset, request, answer content type, one chunk per event).
fn framings() -> Vec<(&'static str, &'static str, String, &'static str, Vec<Bytes>)> {
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

fn per_framing(c: &mut Criterion) {
    let a = anonymizer();
    let mut group = c.benchmark_group("stream_restore");
    group.throughput(Throughput::Elements(EVENTS as u64));
    for (name, preset, request, content_type, chunks) in framings() {
        let route = preset_route(preset);
        // The restored stream carries the address whole, every time it was cut.
        let mut x = exchange(&a, &route, &request, content_type);
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
                || exchange(&a, &route, &request, content_type),
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

criterion_group!(benches, per_preset, per_framing);
criterion_main!(benches);
