//! Detection throughput on mixed English text with some personal data.
//!
//! `patterns` is the regex tier alone (target ≥ 20 MB/s on one core, release build);
//! `rules` adds the dictionaries and name rules (the full engine without the model);
//! `naive` is the baseline the `RegexSet` prefilter must beat: every pattern run over the
//! whole text one by one. `fields_scan` is what reading named fields (`engine::tiers::fields`)
//! costs alone on the same text, a share of every path above; `detect_logs/patterns_logs`
//! is the regex tier on ~100 KB of JSON and logfmt log lines.
//!
//! `engine/*` is the full engine of the config in `ANONYMIZER_CONFIG` (default
//! `conf/anonymizer.yaml`: patterns, dictionaries, cued name rules and our model on 2
//! threads; `conf/models/rampart.yaml` for Rampart), in characters per second:
//! `one_text` is 20,000 characters in one text, `request_32` the same characters as 32 texts
//! of one request (`detect_many`, windows of all texts batched together). It needs ONNX
//! Runtime from `scripts/fetch-models.sh`; without it the group is skipped with a notice,
//! except under `CI=true`, where that is a failure.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use std::time::Duration;

use anonymizer::config::settings::Settings;
use anonymizer::engine::tiers::{fields, patterns};
use anonymizer::engine::{Engine, PatternRecognizer, Recognizer};
use anonymizer::text::LabelSet;

/// About 100 KB: ordinary prose, some of it with contact details, ids and dates.
fn corpus() -> String {
    let paragraphs = [
        "The quarterly review covered the roadmap, hiring and the budget for next year. \
         Most teams met their goals; the platform group shipped the new scheduler two weeks early \
         and reduced build times by a third. “Good work,” said the director.",
        "Please contact Mr John Smith at john.smith@example.com or call +1 415-555-0132 \
         before 3 March 2024. His office is at 221B Baker Street, London NW1 6XE.",
        "Customer complained that the invoice total did not match the order. We refunded the \
         difference and updated the pricing page so the discount is shown before checkout.",
        "Payment was made with card 4111 1111 1111 1111 and the refund went to IBAN \
         GB82 WEST 1234 5698 7654 32 on 2024-03-14T09:30:00Z.",
        "The library was closed for renovation between June and September; readers used the \
         temporary reading room on the second floor, which opened at 9:30 every morning.",
        "Server 192.168.10.254 rejected the request; the api_key = a8f5f167f44f4964e6c998dee827110c \
         was rotated and the old token revoked by the on-call engineer.",
        "Our hiking club met at the trailhead at dawn. After a steady climb of about three \
         hours we reached the ridge, ate lunch, and came down the eastern path before the rain.",
        "Patient aged 42, NHS number 943 476 5919, was seen by Dr Ana Ruiz at St Mary's \
         Hospital in Manchester. SSN 536-22-1234 on file.",
    ];
    let mut text = String::new();
    while text.len() < 100_000 {
        for p in paragraphs {
            text.push_str(p);
            text.push_str("\n\n");
        }
    }
    text
}

/// About 100 KB of log lines: JSON and logfmt, machinery and personal fields.
fn log_corpus() -> String {
    let mut text = String::new();
    let mut n = 0u32;
    while text.len() < 100_000 {
        n += 1;
        text.push_str(&format!(
            "{{\"ts\":\"2024-03-14T09:30:{:02}.123Z\",\"level\":\"info\",\"request_id\":\"4bf92f3577b34da6a3ce929d0e0e{n:04x}\",\
             \"customer_name\":\"Ana Ruiz\",\"email\":\"ana{n}@example.com\",\"duration_ms\":{n},\
             \"msg\":\"Refund sent to Mr John Smith after the call on 3 March 2024\"}}\n\
             time=2024-03-14T09:30:00Z level=warn trace_id=0af7651916cd43dd8448eb211c80319c \
             user=jdoe{n} phone=\"+44 20 7946 0958\" status=402 msg=\"card declined\"\n",
            n % 60
        ));
    }
    text
}

fn detect(c: &mut Criterion) {
    let text = corpus();
    let logs = log_corpus();
    let labels = LabelSet::defaults();
    let patterns_only = Engine::from_recognizers(vec![Box::new(
        PatternRecognizer::new(patterns::ALL).expect("patterns build"),
    ) as Box<dyn Recognizer>]);
    let rules = Engine::builtin().expect("engine builds");
    let naive: Vec<regex::Regex> = patterns::ALL
        .iter()
        .map(|s| regex::Regex::new(s.regex).expect("compiles"))
        .collect();

    let mut group = c.benchmark_group("detect");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    group.bench_with_input(BenchmarkId::new("patterns", text.len()), &text, |b, t| {
        b.iter(|| {
            patterns_only
                .detect(t, &labels, 0.5)
                .expect("rules do not fail")
        })
    });
    group.bench_with_input(BenchmarkId::new("rules", text.len()), &text, |b, t| {
        b.iter(|| rules.detect(t, &labels, 0.5).expect("rules do not fail"))
    });
    group.bench_with_input(BenchmarkId::new("naive", text.len()), &text, |b, t| {
        b.iter(|| naive.iter().map(|r| r.find_iter(t).count()).sum::<usize>())
    });
    group.bench_with_input(
        BenchmarkId::new("fields_scan", text.len()),
        &text,
        |b, t| b.iter(|| fields::scan(t)),
    );
    group.finish();

    let mut group = c.benchmark_group("detect_logs");
    group.throughput(Throughput::Bytes(logs.len() as u64));
    group.sample_size(20);
    group.bench_with_input(
        BenchmarkId::new("patterns_logs", logs.len()),
        &logs,
        |b, t| {
            b.iter(|| {
                patterns_only
                    .detect(t, &labels, 0.5)
                    .expect("rules do not fail")
            })
        },
    );
    group.finish();
}

/// The engine of `ANONYMIZER_CONFIG` or the default config, model tier included.
fn default_engine() -> Option<Engine> {
    let yaml = match std::env::var("ANONYMIZER_CONFIG") {
        Ok(path) => std::fs::read_to_string(path).expect("ANONYMIZER_CONFIG is readable"),
        Err(_) => anonymizer::config::DEFAULT_YAML.to_owned(),
    };
    let settings = Settings::from_yaml(&yaml, &|_| None).expect("the config is valid");
    match anonymizer::app::build_engine(&settings) {
        Ok(engine) => Some(engine),
        Err(e) if std::env::var_os("CI").is_none_or(|v| v != "true") => {
            eprintln!("SKIPPED: the engine bench needs scripts/fetch-models.sh ({e})");
            None
        }
        Err(e) => panic!("the default engine must load (CI=true): {e}"),
    }
}

fn full_engine(c: &mut Criterion) {
    let Some(engine) = default_engine() else {
        return;
    };
    let labels = LabelSet::defaults();
    let text: String = corpus().chars().take(20_000).collect();
    let chars = text.chars().count() as u64;
    // The same characters as a request of 32 texts, cut at whitespace.
    let mut texts: Vec<&str> = Vec::new();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let mut want = (text.len() / 32).min(rest.len());
        while !rest.is_char_boundary(want) {
            want += 1;
        }
        let cut = rest[want..]
            .find(char::is_whitespace)
            .map_or(rest.len(), |i| want + i);
        texts.push(&rest[..cut]);
        rest = &rest[cut..];
    }

    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(chars));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("one_text", |b| {
        b.iter(|| engine.detect(&text, &labels, 0.5).expect("model runs"))
    });
    group.bench_function(format!("request_{}", texts.len()), |b| {
        b.iter(|| {
            engine
                .detect_many(&texts, &labels, 0.5)
                .expect("model runs")
        })
    });
    // A request for labels the model does not produce costs what the rule
    // tiers cost, on the same loaded engine (the model is skipped, not emptied).
    let model = engine.model_labels();
    let without = LabelSet::new(labels.iter().filter(|l| !model.contains(*l)).collect());
    let before = engine.model_stats().windows;
    group.bench_function("one_text_no_model_labels", |b| {
        b.iter(|| engine.detect(&text, &without, 0.5).expect("rules run"))
    });
    assert_eq!(engine.model_stats().windows, before, "the model ran");
    group.finish();
}

/// Prints where this ran (CPU model, int8-relevant extensions) before any figure.
fn platform(_: &mut Criterion) {
    eprintln!("{}", anonymizer::telemetry::cpu::describe());
}

criterion_group!(benches, platform, detect, full_engine);
criterion_main!(benches);
