//! Throughput of the model tier (our model, `models/anonymizer-ner` from
//! `bash training/run.sh`, through ONNX Runtime) in characters per second, on mixed
//! English text, with the default 2 intra-op threads.
//!
//! `cargo bench --bench ner` after `bash training/run.sh`; without the model it prints
//! a notice and measures nothing. Criterion's "elements" are Unicode characters.
//!
//! - `ner/one_text`: one ~2,000-character text per call (the single-text path).
//! - `ner/batch_16`: 16 texts of ~500 characters in one `recognize_batch` call.
//! - `ner/concurrent_4`: 4 threads calling `recognize` at once (cross-call batching).
//! - `ner/tokenize`: our tokenization alone, the main part of our own overhead.
//! - `ner/window_*`: the one-text case with other window sizes (default 128).

use std::path::Path;
use std::time::Duration;

use anonymizer::engine::tiers::ner::{ModelSettings, NerRecognizer};
use anonymizer::engine::Recognizer;
use anonymizer::text::{Label, LabelSet};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

const PARAGRAPHS: &[&str] = &[
    "Hi, I'm John Smith from 42 Elm Street, Springfield. You can reach me at john.smith@example.com or on +1 (555) 010-0199 after six.",
    "The quarterly report was delayed again because the finance team needed more time to reconcile the accounts with the new supplier contracts.",
    "Maria Garcia moved to 1600 Pennsylvania Ave NW, Apt 4B, Washington, DC 20500 last spring and started working at the local hospital.",
    "Please send the signed forms back before Friday; the office closes early during the holidays and nobody will be able to process them.",
    "Our customer, Dr. Ahmed Khan, asked whether his passport number X1234567 and his driver's license D123-4567-8901 are stored securely.",
    "The weather in the mountains was cold and windy, so the hikers decided to turn back before reaching the summit and try again next week.",
    "Invoice 2024-117 for Jane O'Connor (jane@oconnor.ie) lists a delivery to 7 Harbour Road, Cork, with payment due within thirty days.",
    "Meeting notes: the team agreed to migrate the database next month, review the logging configuration, and retire the old dashboards.",
];

fn text_of(chars: usize) -> String {
    let mut text = String::new();
    for p in PARAGRAPHS.iter().cycle() {
        if text.chars().count() >= chars {
            break;
        }
        text.push_str(p);
        text.push(' ');
    }
    text
}

fn load(root: &Path, window_tokens: usize) -> Option<NerRecognizer> {
    let mut settings = ModelSettings::anonymizer_ner(&root.join("models"));
    settings.window_tokens = window_tokens;
    settings.window_overlap_tokens = window_tokens / 4;
    match NerRecognizer::try_load(&settings) {
        // As the engine loads it: lower-case words read a second time.
        Ok(r) => Some(r.with_second_reading(anonymizer::engine::refine::second_reading::POLICY)),
        Err(e) => {
            eprintln!(
                "SKIPPED: the ner bench needs models/anonymizer-ner (bash training/run.sh) ({e})"
            );
            None
        }
    }
}

fn wanted() -> LabelSet {
    LabelSet::new(
        anonymizer::text::label::LABELS
            .iter()
            .map(|l| Label::builtin(l.name))
            .collect(),
    )
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(r) = load(root, 128) else { return };
    let wanted = wanted();
    let one = text_of(2_000);
    let short: Vec<String> = (0..16).map(|i| text_of(500 + i)).collect();
    let short: Vec<&str> = short.iter().map(String::as_str).collect();
    let short_chars: usize = short.iter().map(|t| t.chars().count()).sum();

    let mut g = c.benchmark_group("ner");
    g.sample_size(10).measurement_time(Duration::from_secs(8));

    g.throughput(Throughput::Elements(one.chars().count() as u64));
    g.bench_function("one_text", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            r.recognize(black_box(&one), &wanted, &mut out);
            out
        })
    });
    g.bench_function("tokenize", |b| {
        b.iter(|| r.tokenizer().tokenize(black_box(&one)).map(|t| t.len()))
    });

    g.throughput(Throughput::Elements(short_chars as u64));
    g.bench_function("batch_16", |b| {
        b.iter(|| {
            let mut out = vec![Vec::new(); short.len()];
            r.recognize_batch(black_box(&short), &wanted, &mut out)
                .map(|()| out)
        })
    });
    g.bench_function("concurrent_4", |b| {
        b.iter(|| {
            std::thread::scope(|s| {
                for part in short.chunks(4) {
                    let (r, wanted) = (&r, &wanted);
                    s.spawn(move || {
                        for text in part {
                            let mut out = Vec::new();
                            r.recognize(text, wanted, &mut out);
                        }
                    });
                }
            })
        })
    });
    drop(r);

    g.throughput(Throughput::Elements(one.chars().count() as u64));
    for window_tokens in [64, 256, 510] {
        let Some(r) = load(root, window_tokens) else {
            return;
        };
        g.bench_function(format!("window_{window_tokens}"), |b| {
            b.iter(|| {
                let mut out = Vec::new();
                r.recognize(black_box(&one), &wanted, &mut out);
                out
            })
        });
    }
    g.finish();
}

/// Prints where this ran (CPU model, int8-relevant extensions) before any figure.
fn platform(_: &mut Criterion) {
    eprintln!("{}", anonymizer::telemetry::cpu::describe());
}

criterion_group!(benches, platform, bench);
criterion_main!(benches);
