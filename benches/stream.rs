//! Added latency per streamed event: what the proxy does to each Server-Sent Event of a
//! streamed LLM answer (parse the event's JSON, restore the preset's fields through their
//! text streams, hold back a possible placeholder prefix, write the event), measured
//! through `Exchange::response_body` as the server calls it, on routes of the three LLM
//! presets with a restore map from a real anonymized request (rules-only anonymizer).
//!
//! Rows: a typical token event with nothing to restore (goes out byte for byte), a pair
//! of events with a placeholder cut between them (held back, then restored: per event),
//! and the same events on a route that does not restore (the floor: the exchange passes
//! bytes). Besides criterion's wall-clock figures it prints on-CPU time per event
//! (`/proc/thread-self/schedstat`), which a busy machine does not inflate.

use std::sync::Arc;

use bytes::Bytes;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use anonymizer::anonymizer::{Anonymizer, Defaults};
use anonymizer::api::Caller;
use anonymizer::engine::Engine;
use anonymizer::methods::Method;
use anonymizer::proxy::exchange::{Exchange, RequestHead, RequestStep};
use anonymizer::proxy::route::{compile, RouteConfig};

fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Mean on-CPU time of `f` over `runs` calls, in microseconds.
fn cpu_micros(runs: u32, mut f: impl FnMut()) -> Option<f64> {
    f();
    let start = cpu_ns()?;
    for _ in 0..runs {
        f();
    }
    Some((cpu_ns()? - start) as f64 / f64::from(runs) / 1000.0)
}

/// An exchange on `preset` whose request (with an e-mail and a phone number) went through
/// the anonymizer, its streamed answer begun.
fn streaming_exchange(anonymizer: &Anonymizer, preset: &str, restores: bool) -> Exchange {
    let extra = if restores {
        ""
    } else {
        "body: json\nanonymize: ['$.x']\n"
    };
    let preset = if restores {
        format!("preset: {preset}\n")
    } else {
        String::new()
    };
    let route: RouteConfig = serde_yaml::from_str(&format!(
        "name: s\nupstream: {{url: 'http://127.0.0.1:9'}}\n{preset}{extra}auth: passthrough\n"
    ))
    .expect("route");
    let route = Arc::new(compile(&route).expect("route"));
    let body = serde_json::json!({
        "model": "m", "stream": true, "x": "Write to ada@example.com or +1 415-555-0132",
        "messages": [{"role": "user", "content": "Write to ada@example.com or +1 415-555-0132"}],
        "input": "Write to ada@example.com or +1 415-555-0132",
    })
    .to_string();
    let mut headers = http::HeaderMap::new();
    headers.insert("content-type", "application/json".parse().expect("h"));
    headers.insert("content-length", body.len().into());
    let uri: http::Uri = "/v1/x".parse().expect("uri");
    let head = RequestHead {
        method: &http::Method::POST,
        uri: &uri,
        headers: &headers,
    };
    let caller = Caller {
        tenant: "bench".into(),
        session_id: None,
    };
    let mut x = Exchange::start(route, caller, &head, 1 << 20).expect("plan");
    let Ok(RequestStep::Anonymize(job)) = x.request_body(Some(body.as_bytes()), true) else {
        panic!("the body is anonymized");
    };
    x.anonymized(job.run(anonymizer)).expect("anonymized");
    let mut answer = http::HeaderMap::new();
    answer.insert("content-type", "text/event-stream".parse().expect("h"));
    x.response_head(http::StatusCode::OK, &answer)
        .expect("head");
    x
}

/// Makes a preset's token event from its text.
type EventOf = fn(&str) -> Bytes;

fn chat(content: &str) -> Bytes {
    Bytes::from(format!(
        "data: {}\n\n",
        serde_json::json!({"id": "chatcmpl-AbC123", "object": "chat.completion.chunk",
            "created": 1_763_805_600, "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_1",
            "choices": [{"index": 0, "delta": {"content": content}, "logprobs": null, "finish_reason": null}]})
    ))
}

fn responses(delta: &str) -> Bytes {
    Bytes::from(format!(
        "event: response.output_text.delta\ndata: {}\n\n",
        serde_json::json!({"type": "response.output_text.delta", "sequence_number": 7,
            "item_id": "msg_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654", "output_index": 0,
            "content_index": 0, "delta": delta, "logprobs": []})
    ))
}

fn anthropic(text: &str) -> Bytes {
    Bytes::from(format!(
        "event: content_block_delta\ndata: {}\n\n",
        serde_json::json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": text}})
    ))
}

fn stream(c: &mut Criterion) {
    let engine = Arc::new(Engine::builtin().expect("engine"));
    let anonymizer = Anonymizer::new(
        Arc::clone(&engine),
        Defaults {
            labels: engine.supported_labels().clone(),
            threshold: 0.5,
            method: Method::Redact,
        },
    );
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
            if let Some(micros) = cpu_micros(20_000, &mut f) {
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

criterion_group!(benches, stream);
criterion_main!(benches);
