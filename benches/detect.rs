//! Detection throughput on mixed English text with some personal data.
//!
//! `patterns` is the regex tier alone (target ≥ 20 MB/s on one core, release build);
//! `rules` adds the dictionaries and name rules (the full engine without the model);
//! `naive` is the baseline the `RegexSet` prefilter must beat: every pattern run over the
//! whole text one by one.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use anonymizer::engine::{patterns, Engine, PatternRecognizer, Recognizer};
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

fn detect(c: &mut Criterion) {
    let text = corpus();
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
    group.finish();
}

criterion_group!(benches, detect);
criterion_main!(benches);
