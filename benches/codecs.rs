//! The codec share of a proxied OTLP logs batch: 200 log records (about 64 KB of
//! protobuf, gzip on the wire, as the OpenTelemetry exporters send it with compression
//! on). Measured per batch: gunzip, protobuf decode, listing the texts, protobuf encode,
//! gzip, each alone and together, and the same batch with the rules-only anonymizer in
//! between, so the codec share of the whole is the ratio of the two. `exchange` is the
//! whole request as the server runs it, minus sockets: `Exchange::start` on the
//! `otlp_logs` preset's route from the request headers, the body in, the
//! `AnonymizeJob` (gunzip, decode, anonymize as one batch, encode, gzip) run, the
//! forwarded body out.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use anonymizer::anonymizer::{Anonymizer, Defaults, Options, Scope};
use anonymizer::api::Caller;
use anonymizer::engine::Engine;
use anonymizer::methods::Method;
use anonymizer::proxy::encoding::{self, Coding, Codings};
use anonymizer::proxy::exchange::{Exchange, RequestHead, RequestStep};
use anonymizer::proxy::format::logs::otlp::{self, OtlpFields};
use anonymizer::proxy::format::logs::otlp_proto::{
    any_value, AnyValue, ExportLogsServiceRequest, InstrumentationScope, KeyValue, LogRecord,
    Resource, ResourceLogs, ScopeLogs,
};
use anonymizer::proxy::route::{compile, RouteConfig};
use anonymizer::telemetry::cpu;

const RECORDS: usize = 200;

fn text(s: String) -> Option<AnyValue> {
    Some(AnyValue {
        value: Some(any_value::Value::StringValue(s)),
    })
}

fn attribute(key: &str, value: String) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value: text(value),
        key_strindex: 0,
    }
}

/// 200 records of application-log shape: a message with an e-mail and an IP address,
/// three attributes, trace and span ids.
fn batch() -> ExportLogsServiceRequest {
    let records = (0..RECORDS)
        .map(|i| LogRecord {
            time_unix_nano: 1_763_805_600_000_000_000 + i as u64,
            observed_time_unix_nano: 1_763_805_600_000_000_100 + i as u64,
            severity_number: 9,
            severity_text: "INFO".into(),
            body: text(format!(
                "request {i} from user{i}@example.com at 203.0.113.{} took {} ms; \
                 order {} shipped to Alice Smith, 12 Elm Street, Springfield, \
                 session s-{i:08x}",
                i % 250,
                i * 7 % 900,
                10_000 + i
            )),
            attributes: vec![
                attribute("http.route", "/api/v1/orders/{id}".into()),
                attribute("client.address", format!("198.51.100.{}", i % 250)),
                attribute("enduser.id", format!("customer-{i:06}")),
            ],
            trace_id: vec![(i % 251) as u8; 16],
            span_id: vec![(i % 241) as u8; 8],
            flags: 1,
            ..LogRecord::default()
        })
        .collect();
    ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            resource: Some(Resource {
                attributes: vec![attribute("service.name", "checkout".into())],
                ..Resource::default()
            }),
            scope_logs: vec![ScopeLogs {
                scope: Some(InstrumentationScope {
                    name: "shop.orders".into(),
                    ..InstrumentationScope::default()
                }),
                log_records: records,
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }],
    }
}

fn codecs(c: &mut Criterion) {
    eprintln!("{}", cpu::describe());
    let gzip = Codings::from_codings(vec![Coding::Gzip]);
    let protobuf = otlp::encode(&batch());
    let wire = encoding::encode(&gzip, &protobuf).expect("gzip");
    let limit = 10 << 20;
    eprintln!(
        "batch: {RECORDS} records, {} bytes of protobuf, {} bytes gzipped",
        protobuf.len(),
        wire.len()
    );
    let fields = OtlpFields::default();

    let mut group = c.benchmark_group("codecs_otlp_200_records");
    group.throughput(Throughput::Bytes(protobuf.len() as u64));
    group.bench_function("gunzip", |b| {
        b.iter(|| encoding::decode(&gzip, &wire, limit).expect("gunzip"))
    });
    group.bench_function("protobuf_decode", |b| {
        b.iter(|| otlp::decode(&protobuf).expect("decode"))
    });
    let decoded = otlp::decode(&protobuf).expect("decode");
    group.bench_function("protobuf_encode", |b| b.iter(|| otlp::encode(&decoded)));
    group.bench_function("gzip", |b| {
        b.iter(|| encoding::encode(&gzip, &protobuf).expect("gzip"))
    });
    // The whole codec path of a proxied batch, with an identity transform.
    group.bench_function("round_trip", |b| {
        b.iter(|| {
            let body = encoding::decode(&gzip, &wire, limit).expect("gunzip").body;
            let out = otlp::rewrite(&body, &fields, |texts| texts).expect("rewrite");
            encoding::encode(&gzip, &out).expect("gzip")
        })
    });

    // The same with the rules-only anonymizer in place of the identity transform.
    let engine = Arc::new(Engine::builtin().expect("engine"));
    let anonymizer = Anonymizer::new(
        engine,
        Defaults {
            labels: anonymizer::text::LabelSet::defaults(),
            threshold: 0.5,
            method: Method::Redact,
        },
    );
    let scope = Scope::tenant("bench");
    let options = Options::default();

    // On-CPU time per batch, printed before criterion's wall-clock samples.
    let codec_path = || {
        let body = encoding::decode(&gzip, &wire, limit).expect("gunzip").body;
        let out = otlp::rewrite(&body, &fields, |texts| texts).expect("rewrite");
        encoding::encode(&gzip, &out).expect("gzip");
    };
    let whole_path = || {
        let body = encoding::decode(&gzip, &wire, limit).expect("gunzip").body;
        let out = otlp::rewrite(&body, &fields, |texts| {
            anonymizer
                .anonymize(&scope, &texts, &options)
                .expect("anonymize")
                .texts
        })
        .expect("rewrite");
        encoding::encode(&gzip, &out).expect("gzip");
    };
    // The whole request through the exchange, as `server/` drives it.
    let route: RouteConfig = serde_yaml::from_str(
        "name: otlp\nupstream: {url: 'http://127.0.0.1:4318'}\npreset: otlp_logs\nauth: passthrough\n",
    )
    .expect("route");
    let route = Arc::new(compile(&route).expect("route"));
    let mut headers = http::HeaderMap::new();
    headers.insert("content-type", "application/x-protobuf".parse().expect("h"));
    headers.insert("content-encoding", "gzip".parse().expect("h"));
    headers.insert("content-length", wire.len().into());
    let uri: http::Uri = "/v1/logs".parse().expect("uri");
    let exchange = || {
        let head = RequestHead {
            method: &http::Method::POST,
            uri: &uri,
            headers: &headers,
        };
        let caller = Caller {
            tenant: "bench".into(),
            session_id: None,
        };
        let mut x = Exchange::start(Arc::clone(&route), caller, &head, limit).expect("plan");
        let Ok(RequestStep::Anonymize(job)) = x.request_body(Some(&wire), true) else {
            panic!("the body is anonymized");
        };
        let result = job.run(&anonymizer);
        x.anonymized(result).expect("anonymized")
    };
    let sent = exchange();
    eprintln!(
        "exchange: {} bytes gzip in, {} bytes gzip out",
        wire.len(),
        sent.len()
    );

    let rows: [(&str, u32, &mut dyn FnMut()); 7] = [
        ("gunzip", 200, &mut || {
            encoding::decode(&gzip, &wire, limit).expect("gunzip");
        }),
        ("protobuf_decode", 200, &mut || {
            otlp::decode(&protobuf).expect("decode");
        }),
        ("protobuf_encode", 200, &mut || {
            otlp::encode(&decoded);
        }),
        ("gzip", 200, &mut || {
            encoding::encode(&gzip, &protobuf).expect("gzip");
        }),
        ("round_trip", 100, &mut { codec_path }),
        ("round_trip_with_rules_anonymizer", 10, &mut { whole_path }),
        ("exchange", 10, &mut || {
            exchange();
        }),
    ];
    for (name, runs, f) in rows {
        if let Some(micros) = cpu::on_cpu_micros(runs, f) {
            eprintln!("cpu time per batch: {name}: {micros:.0} µs");
        }
    }
    group.bench_function("round_trip_with_rules_anonymizer", |b| b.iter(&whole_path));
    group.bench_function("exchange", |b| b.iter(&exchange));
    group.finish();
}

criterion_group!(benches, codecs);
criterion_main!(benches);
