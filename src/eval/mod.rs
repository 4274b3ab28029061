//! `anonymizer eval`: scores the engine against annotated JSONL corpora.
//!
//! ```text
//! anonymizer eval --data FILE.jsonl [--labels MAP.json] [--threshold T] [--mask-only]
//! ```
//!
//! Prints per-label precision/recall/F1 (exact span and label), overlap recall,
//! label-agnostic character recall (and, to see where it is lost, the recall of each gold
//! label's characters) and precision, and characters per second of
//! detection. `--mask-only` (TAB) scores only gold spans whose `identifier_type` is not
//! `NO_MASK`; predicted characters inside `NO_MASK` spans are reported both ways.
//! `--errors N` also prints up to N missed, N false and N "unscored" spans per label (false
//! positives inside a gold span of an unscored type), to see where the errors are.
//! Documents with `negatives` (the payload set's log machinery) add a count of those spans
//! any prediction touched, by kind; it should be 0.

mod by_rule;
pub mod jsonl;
pub mod score;

use std::time::{Duration, Instant};

use crate::engine::refine::Switches;
use crate::engine::{Detection, Engine, Proposal};
use crate::text::{CharIndex, Label, LabelSet};
use jsonl::{Document, LabelMap};
use score::{Score, Span};

struct Args {
    data: String,
    labels: Option<String>,
    threshold: f32,
    mask_only: bool,
    errors: usize,
    /// Where to write every document's detections (JSON lines), to diff two builds.
    detections: Option<String>,
    /// Corrective rules switched off.
    without: Vec<String>,
    by_rule: bool,
    json: bool,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        data: String::new(),
        labels: None,
        threshold: 0.5,
        mask_only: false,
        errors: 0,
        detections: None,
        without: Vec::new(),
        by_rule: false,
        json: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--data" => parsed.data = value("--data")?,
            "--labels" => parsed.labels = Some(value("--labels")?),
            "--threshold" => {
                parsed.threshold = value("--threshold")?
                    .parse()
                    .ok()
                    .filter(|t: &f32| (0.0..=1.0).contains(t))
                    .ok_or("--threshold must be a number between 0 and 1")?;
            }
            "--mask-only" => parsed.mask_only = true,
            "--detections" => parsed.detections = Some(value("--detections")?),
            "--without" => parsed.without.extend(
                value("--without")?
                    .split(',')
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned),
            ),
            "--by-rule" => parsed.by_rule = true,
            "--json" => parsed.json = true,
            "--errors" => {
                parsed.errors = value("--errors")?
                    .parse()
                    .map_err(|_| "--errors needs a count")?;
            }
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if parsed.data.is_empty() {
        return Err(format!("--data is required\n{USAGE}"));
    }
    Ok(parsed)
}

const USAGE: &str = "usage: anonymizer eval --data FILE.jsonl [--labels MAP.json] [--threshold T] [--mask-only] [--errors N] [--detections OUT.jsonl] [--without RULE,…] [--by-rule] [--json]";

/// Runs the eval command with `engine`.
///
/// # Errors
/// Unreadable files, bad arguments or label maps, or a failed detection tier.
pub fn run(engine: &Engine, args: &[String]) -> Result<(), String> {
    let args = parse_args(args)?;
    let data = std::fs::read_to_string(&args.data)
        .map_err(|e| format!("cannot read {}: {e}", args.data))?;
    let docs = jsonl::parse(&data)?;
    let map: LabelMap = match &args.labels {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?
        }
        None => LabelMap::default(),
    };
    let mut labels: Vec<Label> = if map.detect.is_empty() {
        LabelSet::defaults().iter().collect()
    } else {
        Vec::new()
    };
    for name in &map.detect {
        labels.push(Label::parse(name).ok_or_else(|| format!("unknown label {name}"))?);
    }
    let detect = LabelSet::new(labels);
    let without: Vec<&str> = args.without.iter().map(String::as_str).collect();
    let switches = Switches::without(&without)?;
    let run = Run {
        engine,
        docs: &docs,
        map: &map,
        detect: &detect,
        threshold: args.threshold,
        mask_only: args.mask_only,
    };
    let proposals = run.propose()?;
    let mut report = run.report(&proposals, &switches);
    report.errors_per_label = args.errors;
    if let Some(path) = &args.detections {
        std::fs::write(path, detections_jsonl(&docs, &report.found))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let rules = if args.by_rule {
        by_rule::effects(&run, &proposals.0, &switches, &report)
    } else {
        Vec::new()
    };
    if args.json {
        let mut json = report.json(&args.data, args.threshold, &without);
        if args.by_rule {
            json["rules"] = serde_json::to_value(&rules).unwrap_or_default();
        }
        println!("{json:#}");
    } else {
        print!("{}", report.render(&args.data, args.threshold));
        if args.by_rule {
            print!("{}", by_rule::render(&rules));
        }
    }
    Ok(())
}

struct Report {
    score: Score,
    scored_labels: Vec<String>,
    chars: usize,
    elapsed: Duration,
    docs: usize,
    /// (kind, label, text) of missed, false and unscored (false inside an unscored gold span) spans.
    errors: Vec<(&'static str, String, String, String)>,
    errors_per_label: usize,
    negatives: Negatives,
    /// Every document's detections, in document order.
    found: Vec<Vec<Detection>>,
}

/// One line per document: its id and its detections as `[start, end, label, score,
/// trace]` (byte offsets): the same input gives the same bytes, so two builds diff line
/// by line.
fn detections_jsonl(docs: &[Document], found: &[Vec<Detection>]) -> String {
    let mut out = String::new();
    for (doc, detections) in docs.iter().zip(found) {
        let spans: Vec<serde_json::Value> = detections
            .iter()
            .map(|d| {
                let (start, end, label) = (d.span.start, d.span.end, d.label.as_str());
                serde_json::json!([start, end, label, d.score, d.trace.to_string()])
            })
            .collect();
        out.push_str(&serde_json::json!({"id": doc.id, "detections": spans}).to_string());
        out.push('\n');
    }
    out
}

/// Machinery spans (`negatives`) seen and flagged, by kind.
#[derive(Default)]
struct Negatives {
    total: usize,
    flagged: std::collections::BTreeMap<String, usize>,
}

/// Most documents per `detect_many` call, so the model tier batches their windows as it
/// does a request's texts (an unmeasured choice; more adds memory, not much speed).
const BATCH_DOCS: usize = 16;
/// A batch closes once it holds this many bytes: long documents (TAB's run to 9,000
/// characters) would otherwise make one job that could pass `model.inference_timeout_ms`
/// on a busy machine. 20 KB is still ~40 windows, more than one forward pass takes.
const BATCH_BYTES: usize = 20_000;

/// `docs` cut, in order, into batches of at most [`BATCH_DOCS`] documents that stop
/// growing at [`BATCH_BYTES`].
fn batches(docs: &[Document]) -> impl Iterator<Item = &[Document]> {
    let mut rest = docs;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut bytes = 0;
        let mut n = 0;
        while n < rest.len().min(BATCH_DOCS) && bytes < BATCH_BYTES {
            bytes += rest[n].text.len();
            n += 1;
        }
        let (batch, tail) = rest.split_at(n);
        rest = tail;
        Some(batch)
    })
}

/// One evaluation: the engine, the corpus and how it is scored.
struct Run<'a> {
    engine: &'a Engine,
    docs: &'a [Document],
    map: &'a LabelMap,
    detect: &'a LabelSet,
    threshold: f32,
    mask_only: bool,
}

impl Run<'_> {
    /// What the tiers propose for every document, in order (the costly part, run once),
    /// and how long that took.
    fn propose(&self) -> Result<(Vec<Proposal>, Duration), String> {
        let mut all = Vec::with_capacity(self.docs.len());
        let mut elapsed = Duration::ZERO;
        for batch in batches(self.docs) {
            let texts: Vec<&str> = batch.iter().map(|d| d.text.as_str()).collect();
            let started = Instant::now();
            let languages = self.engine.languages(&texts, self.detect, None);
            all.extend(
                self.engine
                    .propose(&texts, &languages, self.detect)
                    .map_err(|e| format!("detection failed: {e}"))?,
            );
            elapsed += started.elapsed();
        }
        Ok((all, elapsed))
    }

    /// Every document's detections from its proposal, with the rules of `switches`.
    fn detections(&self, proposals: &[Proposal], switches: &Switches) -> Vec<Vec<Detection>> {
        self.docs
            .iter()
            .zip(proposals)
            .map(|(doc, proposal)| {
                let text = doc.text.as_str();
                let found = proposal.corrected(text, self.detect, switches);
                let fields = proposal.fields();
                (self.engine).settle(text, self.detect, self.threshold, found, switches, fields)
            })
            .collect()
    }

    fn totals(&self, found: &[Vec<Detection>]) -> Totals {
        let mut totals = Totals::default();
        for (doc, detections) in self.docs.iter().zip(found) {
            totals.add(doc, detections, self.map, self.mask_only);
        }
        totals.scored_labels.sort();
        totals
    }

    fn report(
        &self,
        (proposals, proposed): &(Vec<Proposal>, Duration),
        switches: &Switches,
    ) -> Report {
        let started = Instant::now();
        let found = self.detections(proposals, switches);
        let elapsed = *proposed + started.elapsed();
        let Totals {
            score,
            scored_labels,
            chars,
            errors,
            negatives,
        } = self.totals(&found);
        Report {
            score,
            scored_labels,
            chars,
            elapsed,
            docs: self.docs.len(),
            errors,
            errors_per_label: 0,
            negatives,
            found,
        }
    }
}

/// What the documents scored so far add up to.
#[derive(Default)]
struct Totals {
    score: Score,
    scored_labels: Vec<String>,
    chars: usize,
    /// (kind, label, text) of missed, false and unscored (false inside an unscored gold span) spans.
    errors: Vec<(&'static str, String, String, String)>,
    negatives: Negatives,
}

impl Totals {
    /// Scores one document's `detections` against its gold spans.
    fn add(&mut self, doc: &Document, detections: &[Detection], map: &LabelMap, mask_only: bool) {
        let text_len = doc.text.chars().count();
        self.chars += text_len;
        let mut gold = Vec::new();
        let mut neutral = Vec::new();
        for e in &doc.entities {
            let label = if map.gold.is_empty() {
                Some(e.label.clone())
            } else {
                map.gold.get(&e.label).cloned().flatten()
            };
            let no_mask = e.identifier_type.as_deref() == Some("NO_MASK");
            let span = |label: String| Span {
                start: e.start,
                end: e.end,
                label,
            };
            match label {
                Some(label) if !(mask_only && no_mask) => {
                    if !self.scored_labels.contains(&label) {
                        self.scored_labels.push(label.clone());
                    }
                    gold.push(span(label));
                }
                _ => neutral.push(span(e.label.clone())),
            }
        }
        let index = CharIndex::new(&doc.text);
        let predicted: Vec<Span> = detections
            .iter()
            .map(|d| {
                let span = index.char_span(d.span);
                let label = d.label.as_str();
                Span {
                    start: span.start,
                    end: span.end,
                    label: map
                        .predicted
                        .get(label)
                        .cloned()
                        .unwrap_or_else(|| label.to_owned()),
                }
            })
            .collect();
        self.score.add(&gold, &neutral, &predicted, text_len);
        let snippet = |s: &Span| -> String {
            doc.text
                .chars()
                .skip(s.start)
                .take(s.end.saturating_sub(s.start))
                .collect()
        };
        for g in gold.iter().filter(|g| !predicted.contains(g)) {
            self.errors
                .push(("missed", g.label.clone(), snippet(g), String::new()));
        }
        for n in &doc.negatives {
            self.negatives.total += 1;
            if predicted.iter().any(|p| p.start < n.end && n.start < p.end) {
                *self.negatives.flagged.entry(n.kind.clone()).or_default() += 1;
                let span = Span {
                    start: n.start,
                    end: n.end,
                    label: n.kind.clone(),
                };
                self.errors
                    .push(("machinery", n.kind.clone(), snippet(&span), String::new()));
            }
        }
        for (p, d) in predicted
            .iter()
            .zip(detections)
            .filter(|(p, _)| !gold.contains(p))
        {
            // Spans inside an unscored gold span (WNUT's products, creative works) still
            // count as false positives; they are listed apart because they are a different
            // kind of error.
            let in_neutral = neutral.iter().any(|n| n.start <= p.start && p.end <= n.end);
            let kind = if in_neutral { "unscored" } else { "false" };
            self.errors
                .push((kind, p.label.clone(), snippet(p), d.trace.to_string()));
        }
    }
}

impl Report {
    /// The scores as JSON (no timing: two runs of one build give the same bytes).
    fn json(&self, data: &str, threshold: f32, without: &[&str]) -> serde_json::Value {
        let s = &self.score;
        let counts = |c: &score::Counts| {
            serde_json::json!({
                "tp": c.tp, "fp": c.fp, "fn": c.fn_,
                "precision": c.precision(), "recall": c.recall(), "f1": c.f1(),
            })
        };
        let per_label: serde_json::Map<String, serde_json::Value> = s
            .per_label
            .iter()
            .map(|(label, c)| (label.clone(), counts(c)))
            .collect();
        serde_json::json!({
            "data": data,
            "documents": self.docs,
            "characters": self.chars,
            "threshold": threshold,
            "without": without,
            "scored_labels": self.scored_labels,
            "per_label": per_label,
            "micro": counts(&s.micro(&self.scored_labels)),
            "overlap_recall": s.overlap_recall(),
            "character_recall": s.char_recall(),
            "character_precision": s.char_precision(),
            "machinery_flagged": self.negatives.flagged.values().sum::<usize>(),
        })
    }

    fn render(&self, data: &str, threshold: f32) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let s = &self.score;
        let _ = writeln!(
            out,
            "{data}: {} documents, {} characters, threshold {threshold}",
            self.docs, self.chars
        );
        let _ = writeln!(
            out,
            "{:<20} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7}",
            "label", "tp", "fp", "fn", "prec", "recall", "f1"
        );
        for (label, c) in &s.per_label {
            let marker = if self.scored_labels.contains(label) {
                ""
            } else {
                " (not in gold)"
            };
            let _ = writeln!(
                out,
                "{:<20} {:>6} {:>6} {:>6} {:>7.3} {:>7.3} {:>7.3}{marker}",
                label,
                c.tp,
                c.fp,
                c.fn_,
                c.precision(),
                c.recall(),
                c.f1()
            );
        }
        let micro = s.micro(&self.scored_labels);
        let _ = writeln!(
            out,
            "{:<20} {:>6} {:>6} {:>6} {:>7.3} {:>7.3} {:>7.3}",
            "micro (gold labels)",
            micro.tp,
            micro.fp,
            micro.fn_,
            micro.precision(),
            micro.recall(),
            micro.f1()
        );
        let _ = writeln!(out, "overlap recall        {:.3}", s.overlap_recall());
        let _ = writeln!(out, "character recall      {:.3}", s.char_recall());
        for (label, c) in &s.label_chars {
            let _ = writeln!(
                out,
                "  {label:<20} {:.3} ({} of {} characters)",
                c.recall(),
                c.covered,
                c.gold
            );
        }
        let _ = writeln!(out, "character precision   {:.3}", s.char_precision());
        if s.pred_chars_neutral > 0 {
            let _ = writeln!(
                out,
                "character precision, excluding unscored spans {:.3}",
                s.char_precision_without_neutral()
            );
        }
        if self.negatives.total > 0 {
            let flagged: usize = self.negatives.flagged.values().sum();
            let _ = writeln!(
                out,
                "machinery spans flagged {flagged} of {} (must be 0)",
                self.negatives.total
            );
            for (kind, n) in &self.negatives.flagged {
                let _ = writeln!(out, "  {kind:<20} {n}");
            }
        }
        if self.errors_per_label > 0 {
            let mut shown: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
            for (kind, label, text, trace) in &self.errors {
                let n = shown.entry((kind, label)).or_default();
                if *n < self.errors_per_label {
                    *n += 1;
                    let _ = writeln!(out, "  {kind:<8} {label:<14} {text:?} {trace}");
                }
            }
        }
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let _ = writeln!(
            out,
            "speed                 {:.0} characters/s ({:.2} s), {}",
            self.chars as f64 / secs,
            secs,
            crate::telemetry::cpu::describe()
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evaluate(
        engine: &Engine,
        docs: &[Document],
        map: &LabelMap,
        detect: &LabelSet,
        threshold: f32,
        mask_only: bool,
    ) -> Result<Report, String> {
        let run = Run {
            engine,
            docs,
            map,
            detect,
            threshold,
            mask_only,
        };
        Ok(run.report(&run.propose()?, &Switches::default()))
    }

    #[test]
    fn scores_a_small_corpus_end_to_end() {
        let docs = jsonl::parse(concat!(
            r#"{"id":"a","text":"mail jane@example.com now","entities":[{"start":5,"end":21,"label":"MAIL"}]}"#,
            "\n",
            r#"{"id":"b","text":"nothing here","entities":[]}"#,
        ))
        .expect("parses");
        let map: LabelMap =
            serde_json::from_str(r#"{"gold":{"MAIL":"EMAIL_ADDRESS"}}"#).expect("map parses");
        let engine = Engine::builtin().expect("engine builds");
        let report = evaluate(&engine, &docs, &map, &LabelSet::defaults(), 0.5, false)
            .expect("rule tiers do not fail");
        let email = report.score.per_label["EMAIL_ADDRESS"];
        assert_eq!((email.tp, email.fp, email.fn_), (1, 0, 0));
        assert_eq!(report.score.char_recall(), 1.0);
        let rendered = report.render("x", 0.5);
        assert!(rendered.contains("EMAIL_ADDRESS"));
        // the label's own character recall, under the label-agnostic one
        assert!(rendered.contains(&format!(
            "character recall      1.000\n  {:<20} 1.000 (16 of 16 characters)\n",
            "EMAIL_ADDRESS"
        )));
    }

    #[test]
    fn machinery_spans_touched_by_a_prediction_are_counted_by_kind() {
        let docs = jsonl::parse(
            r#"{"text":"ts=2024-03-14T09:30:00Z mail jane@example.com","negatives":[{"start":3,"end":23,"kind":"ts"},{"start":29,"end":33,"kind":"user"}]}"#,
        )
        .expect("parses");
        let engine = Engine::builtin().expect("engine builds");
        let report = evaluate(
            &engine,
            &docs,
            &LabelMap::default(),
            &LabelSet::defaults(),
            0.5,
            false,
        )
        .expect("rule tiers do not fail");
        assert_eq!(report.negatives.total, 2);
        assert_eq!(
            report.negatives.flagged.into_iter().collect::<Vec<_>>(),
            [("user".to_owned(), 1)]
        );
    }

    #[test]
    fn batches_keep_order_and_close_at_their_document_or_byte_bound() {
        let doc = |len: usize| Document {
            id: String::new(),
            text: "a".repeat(len),
            entities: Vec::new(),
            negatives: Vec::new(),
        };
        let docs: Vec<Document> = [10; 40]
            .into_iter()
            .chain([15_000, 15_000, 30_000, 10, 10])
            .map(doc)
            .collect();
        let sizes: Vec<usize> = batches(&docs).map(<[Document]>::len).collect();
        // 16 short ones twice; 8 short + two 15 KB (the second passes 20 KB); one
        // 30 KB alone; the last two.
        assert_eq!(sizes, [16, 16, 10, 1, 2]);
        assert_eq!(sizes.iter().sum::<usize>(), docs.len());
        assert_eq!(batches(&[]).count(), 0);
    }

    #[test]
    fn bad_arguments_are_reported() {
        assert!(parse_args(&[]).is_err());
        assert!(parse_args(&[
            "--threshold".into(),
            "2".into(),
            "--data".into(),
            "x".into()
        ])
        .is_err());
        assert!(parse_args(&["--bogus".into()]).is_err());
    }
}
