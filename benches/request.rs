//! The request path for a 1 KB text: in process (JSON parse → detect → replace →
//! JSON out) and over HTTP through the real binary on loopback with keep-alive.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use anonymizer::anonymizer::{Anonymizer, Defaults};
use anonymizer::api::{Api, Caller, Limits};
use anonymizer::engine::Engine;
use anonymizer::methods::Method;
use anonymizer::text::LabelSet;

/// About 1 KB of English with a few entities of each built-in kind.
fn text_1kb() -> String {
    let base = "Hello team, following up on yesterday's call about the renewal. \
        Please write to maria.gonzalez@example.com or call +1 415-555-0132 before Friday. \
        The test card 4111 1111 1111 1111 was declined at the gateway, and the logs show \
        requests from 203.0.113.42 and 2001:db8::8a2e:370:7334 during the outage window. \
        Documentation lives at https://docs.example.org/guide?id=42 for reference. \
        We also discussed the quarterly roadmap, the hiring plan, and the budget review, \
        none of which contain personal data but make the text realistic in length. ";
    let mut text = String::new();
    while text.len() < 1024 {
        text.push_str(base);
    }
    text.truncate(1024);
    text
}

fn body() -> String {
    serde_json::json!({ "text": [text_1kb()] }).to_string()
}

fn in_process(c: &mut Criterion) {
    let engine = Arc::new(Engine::builtin().expect("engine"));
    let anonymizer = Arc::new(Anonymizer::new(
        engine,
        Defaults {
            labels: LabelSet::defaults(),
            threshold: 0.5,
            method: Method::Redact,
        },
    ));
    let api = Api::new(anonymizer, Limits::default());
    let caller = Caller {
        tenant: "bench".into(),
        session_id: None,
    };
    let body = body();
    let mut group = c.benchmark_group("request");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("anonymize_1kb_in_process", |b| {
        b.iter(|| api.anonymize(&caller, body.as_bytes()).expect("ok"))
    });
    group.finish();
}

fn over_http(c: &mut Criterion) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let metrics = port.wrapping_add(1);
    let mut child = Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("ANONYMIZER_LISTEN", format!("127.0.0.1:{port}"))
        .env("ANONYMIZER_METRICS_LISTEN", format!("127.0.0.1:{metrics}"))
        .env("ANONYMIZER_API_KEYS", "bench:bench-key-0123456789")
        .env("RUST_LOG", "warn")
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let client = reqwest::blocking::Client::new();
    let url = format!("http://127.0.0.1:{port}/v1/anonymize");
    let deadline = Instant::now() + Duration::from_secs(20);
    while client
        .get(format!("http://127.0.0.1:{port}/healthz"))
        .send()
        .is_err()
    {
        assert!(Instant::now() < deadline, "server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let body = body();
    let mut group = c.benchmark_group("request");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("anonymize_1kb_http", |b| {
        b.iter(|| {
            let resp = client
                .post(&url)
                .header("content-type", "application/json")
                .header("x-api-key", "bench-key-0123456789")
                .body(body.clone())
                .send()
                .expect("send");
            assert_eq!(resp.status(), 200);
            resp.bytes().expect("body")
        })
    });
    group.finish();
    let _ = child.kill();
    let _ = child.wait();
}

/// Prints where this ran (CPU model, int8-relevant extensions) before any figure.
fn platform(_: &mut Criterion) {
    eprintln!("{}", anonymizer::telemetry::cpu::describe());
}

criterion_group!(benches, platform, in_process, over_http);
criterion_main!(benches);
