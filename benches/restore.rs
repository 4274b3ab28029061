//! Restore throughput (deanonymize with 10 and 10,000 map entries, whole and streamed,
//! against a naive chained-`replace` baseline) and the per-entity cost of each
//! replacement method on top of detection.
//!
//! `cargo bench --bench restore`

use std::sync::Arc;

use anonymizer::anonymizer::{Anonymizer, Defaults, Options, Scope};
use anonymizer::engine::{Candidate, Engine, Proof, Recognizer};
use anonymizer::methods::{KeyRing, MasterSecret, Method};
use anonymizer::restore::stream::StreamRestorer;
use anonymizer::restore::{MapEntry, MatchMode, Restorer};
use anonymizer::text::{ByteSpan, Label, LabelSet};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const FILLER: &str =
    "The quarterly report was reviewed by the team, and the follow-up call is set for next week. ";
const TEXT_BYTES: usize = 1 << 20;

fn map(entries: usize) -> Vec<MapEntry> {
    (1..=entries)
        .map(|i| MapEntry {
            original: format!("Person Number {i}"),
            anonymized: format!("[PERSON_{i}]"),
        })
        .collect()
}

/// ~1 MiB of prose with a placeholder from the map after every sentence.
fn text(entries: usize) -> String {
    let mut out = String::with_capacity(TEXT_BYTES + 128);
    let mut i = 0usize;
    while out.len() < TEXT_BYTES {
        out.push_str(FILLER);
        out.push_str(&format!("[PERSON_{}] ", i % entries + 1));
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    out
}

/// Finds `Name<digits>` words as PERSON; stands in for detection.
struct Names(Vec<Label>);

impl Recognizer for Names {
    fn labels(&self) -> &[Label] {
        &self.0
    }
    fn tier(&self) -> &'static str {
        "bench"
    }
    fn recognize(&self, text: &str, _: &LabelSet, out: &mut Vec<Candidate>) {
        for (start, _) in text.match_indices("Name") {
            let end = start
                + 4
                + text[start + 4..]
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count();
            out.push(Candidate {
                span: ByteSpan::new(start, end),
                label: self.0[0],
                score: 0.9,
                proof: Proof::None,
                trace: anonymizer::engine::Trace::default(),
            });
        }
    }
}

fn anonymizer() -> Anonymizer {
    let person = Label::builtin("PERSON");
    let engine = Engine::from_recognizers(vec![Box::new(Names(vec![person]))]);
    Anonymizer::new(
        Arc::new(engine),
        Defaults {
            labels: LabelSet::new(vec![person]),
            threshold: 0.5,
            method: Method::Redact,
        },
    )
    .with_keys(KeyRing::new(Some(MasterSecret::new(b"b".repeat(32)))))
}

fn deanonymize(c: &mut Criterion) {
    let a = anonymizer();
    let scope = Scope::tenant("bench");
    let mut group = c.benchmark_group("deanonymize");
    group.sample_size(20);
    for entries in [10usize, 10_000] {
        let map = map(entries);
        let texts = vec![text(entries)];
        group.throughput(Throughput::Bytes(texts[0].len() as u64));
        group.bench_with_input(BenchmarkId::new("request", entries), &entries, |b, _| {
            b.iter(|| {
                a.deanonymize(&scope, black_box(&texts), Some(&map), MatchMode::Exact)
                    .map(|d| d.texts.len())
            })
        });
        group.bench_with_input(BenchmarkId::new("build_only", entries), &entries, |b, _| {
            b.iter(|| Restorer::with_mode(black_box(&map), MatchMode::Exact).is_ok())
        });
        let restorer = Arc::new(Restorer::with_mode(&map, MatchMode::Exact).expect("valid map"));
        group.bench_with_input(BenchmarkId::new("prebuilt", entries), &entries, |b, _| {
            b.iter(|| restorer.restore(black_box(&texts[0])).len())
        });
        group.bench_with_input(
            BenchmarkId::new("stream_4k_chunks", entries),
            &entries,
            |b, _| {
                b.iter(|| {
                    let mut s = StreamRestorer::new(Arc::clone(&restorer));
                    let mut n = 0;
                    let bytes = texts[0].as_bytes();
                    let mut at = 0;
                    while at < bytes.len() {
                        let mut end = (at + 4096).min(bytes.len());
                        while !texts[0].is_char_boundary(end) {
                            end += 1;
                        }
                        n += s.push(&texts[0][at..end]).len();
                        at = end;
                    }
                    n + s.finish().len()
                })
            },
        );
        let lenient = Restorer::with_mode(&map, MatchMode::Lenient).expect("valid map");
        group.bench_with_input(BenchmarkId::new("lenient", entries), &entries, |b, _| {
            b.iter(|| lenient.restore(black_box(&texts[0])).len())
        });
        if entries == 10 {
            // Naive baseline: one `str::replace` pass per entry (not single-pass-safe).
            group.bench_with_input(
                BenchmarkId::new("naive_replace", entries),
                &entries,
                |b, _| {
                    b.iter(|| {
                        let mut t = texts[0].clone();
                        for e in map.iter().rev() {
                            t = t.replace(&e.anonymized, &e.original);
                        }
                        t.len()
                    })
                },
            );
        }
    }
    group.finish();
}

fn anonymize(c: &mut Criterion) {
    let a = anonymizer();
    let scope = Scope::tenant("bench");
    // 1,000 entities (100 distinct) in ~60 KB.
    let text: String = (0..1000)
        .map(|i| format!("Meeting notes: Name{} agreed. ", i % 100))
        .collect();
    let texts = vec![text];
    let person = LabelSet::new(vec![Label::builtin("PERSON")]);
    let mut group = c.benchmark_group("anonymize_1000_entities");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("detect_only", |b| {
        b.iter(|| {
            a.engine()
                .detect(black_box(&texts[0]), &person, 0.5)
                .expect("rules do not fail")
                .len()
        })
    });
    for method in Method::ALL {
        let options = Options {
            method: Some(*method),
            ..Options::default()
        };
        group.bench_function(method.as_str(), |b| {
            b.iter(|| {
                a.anonymize(&scope, black_box(&texts), &options)
                    .map(|r| r.entities.len())
            })
        });
    }
    group.finish();
}

/// Prints where this ran (CPU model, int8-relevant extensions) before any figure.
fn platform(_: &mut Criterion) {
    eprintln!("{}", anonymizer::telemetry::cpu::describe());
}

criterion_group!(benches, platform, deanonymize, anonymize);
criterion_main!(benches);
