//! Tests against real models: Rampart in `models/` (`scripts/fetch-models.sh`), the
//! default, exercises the model-agnostic tier (sub-word types merged by a tag table).
//!
//! Without the files they skip with a notice, except under `CI=true`, where a missing
//! model is a failure: CI fetches ONNX Runtime and Rampart first, so their absence is a
//! broken set-up. The `our_model_*` tests run our model, tracked in git at
//! `models/anonymizer-ner`.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use super::*;
use crate::text::ByteSpan;

/// Rampart, fetched into `models/`.
fn recognizer() -> Option<&'static NerRecognizer> {
    static LOADED: OnceLock<Result<NerRecognizer, NerError>> = OnceLock::new();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    loaded_or_skipped(
        LOADED.get_or_init(|| NerRecognizer::try_load(&ModelSettings::rampart(&models))),
    )
}

/// A missing model file skips a test with a notice, except under `CI=true`.
fn loaded_or_skipped(
    loaded: &'static Result<NerRecognizer, NerError>,
) -> Option<&'static NerRecognizer> {
    match loaded {
        Ok(r) => Some(r),
        Err(e) if e.is_missing_file() && std::env::var_os("CI").is_none_or(|v| v != "true") => {
            eprintln!("SKIPPED: model tests need scripts/fetch-models.sh ({e})");
            None
        }
        Err(e) => panic!("the model must load (CI=true): {e}"),
    }
}

fn all_labels() -> LabelSet {
    LabelSet::new(
        crate::text::label::LABELS
            .iter()
            .map(|l| Label::builtin(l.name))
            .collect(),
    )
}

fn find(r: &NerRecognizer, text: &str) -> Vec<Candidate> {
    let mut out = Vec::new();
    r.recognize(text, &all_labels(), &mut out);
    for c in &out {
        assert!(
            c.span.start < c.span.end && c.span.end <= text.len(),
            "{c:?}"
        );
        assert!(text.is_char_boundary(c.span.start) && text.is_char_boundary(c.span.end));
        assert!((0.0..=1.0).contains(&c.score), "{c:?}");
    }
    out
}

fn texts<'t>(text: &'t str, found: &[Candidate]) -> Vec<(&'t str, &'static str)> {
    found
        .iter()
        .map(|c| (&text[c.span.start..c.span.end], c.label.as_str()))
        .collect()
}

const SENTENCE: &str = "Hi, I'm John Smith from 42 Elm Street, Springfield. Email john@example.com";

#[test]
fn finds_the_person_address_and_email_of_the_reference_sentence_with_exact_spans() {
    let Some(r) = recognizer() else { return };
    let found = find(r, SENTENCE);
    let person = found.iter().find(|c| c.label.as_str() == "PERSON");
    let person = person.expect("a PERSON");
    assert_eq!(person.span, ByteSpan::new(8, 18), "{found:?}");
    assert!(person.score > 0.5, "{person:?}");
    let street = SENTENCE.find("42 Elm Street").unwrap();
    let address = found
        .iter()
        .find(|c| matches!(c.label.as_str(), "ADDRESS" | "LOCATION"))
        .expect("an ADDRESS");
    assert_eq!(address.span.start, street, "{:?}", texts(SENTENCE, &found));
    assert!(address.span.end >= street + "42 Elm Street".len());
    let email = SENTENCE.find("john@example.com").unwrap();
    assert!(
        found.iter().any(|c| c.label.as_str() == "EMAIL_ADDRESS"
            && c.span == ByteSpan::new(email, SENTENCE.len())),
        "{:?}",
        texts(SENTENCE, &found)
    );
}

#[test]
fn spans_stay_exact_after_emoji_cjk_and_combining_marks() {
    let Some(r) = recognizer() else { return };
    let plain = find(r, SENTENCE);
    for prefix in [
        "😀👍🏽 ",
        "東京都の話。",
        "Cafe\u{301} na\u{ef}ve \u{200d} ",
        "🇩🇪 Ünïcödé ",
    ] {
        let text = format!("{prefix}{SENTENCE}");
        let found = find(r, &text);
        let want: Vec<(&str, &str)> = texts(SENTENCE, &plain);
        let got: Vec<(&str, &str)> = texts(&text, &found)
            .into_iter()
            .filter(|(t, _)| SENTENCE.contains(t))
            .collect();
        assert_eq!(got, want, "prefix {prefix:?}");
        let john = found.iter().find(|c| c.label.as_str() == "PERSON").unwrap();
        assert_eq!(john.span.start, prefix.len() + 8);
    }
    // A name with a combining accent keeps the mark inside its span.
    let text = "Hi, I'm Rene\u{301}e Smith from Springfield.";
    let found = find(r, text);
    assert_eq!(
        texts(text, &found),
        [
            ("Rene\u{301}e Smith", "PERSON"),
            ("Springfield", "LOCATION")
        ]
    );
}

#[test]
fn a_text_longer_than_one_window_is_windowed_without_duplicates() {
    let Some(r) = recognizer() else { return };
    let line = "My name is John Smith and I live at 42 Elm Street in Springfield. ";
    let text = line.repeat(80);
    let tokens = r.tokenizer.tokenize(&text).unwrap();
    assert!(tokens.len() > 2 * 512, "{} tokens", tokens.len());
    let found = find(r, &text);
    let mut sorted = found.clone();
    sorted.sort_by_key(|c| c.span.start);
    for pair in sorted.windows(2) {
        assert!(
            !pair[0].span.overlaps(&pair[1].span),
            "overlapping {:?}",
            &pair
        );
    }
    // Every repetition yields the same entities as the line alone, at its offset.
    let single = find(r, line);
    assert!(single.iter().any(|c| c.label.as_str() == "PERSON"));
    for (i, start) in (0..80).map(|i| (i, i * line.len())) {
        let here: Vec<(usize, usize, &str)> = sorted
            .iter()
            .filter(|c| c.span.start >= start && c.span.start < start + line.len())
            .map(|c| (c.span.start - start, c.span.end - start, c.label.as_str()))
            .collect();
        let persons = here.iter().filter(|c| c.2 == "PERSON").count();
        assert_eq!(persons, 1, "repetition {i}: {here:?}");
    }
}

#[test]
fn empty_and_blank_texts_give_nothing() {
    let Some(r) = recognizer() else { return };
    assert!(find(r, "").is_empty());
    assert!(find(r, " \n\t ").is_empty());
}

#[test]
fn garbage_never_panics_and_spans_stay_on_char_boundaries() {
    let Some(r) = recognizer() else { return };
    let bytes: Vec<u8> = (0..4000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let cases = [
        String::from_utf8_lossy(&bytes).into_owned(),
        "a".repeat(5000),
        "\u{0}\u{1}\u{7f}\u{feff}\u{200b}\u{fffd}".repeat(100),
        "👨‍👩‍👧‍👦".repeat(300),
        "ﷺ ﷽ 𒐫 ꧅ ".repeat(200),
        "e\u{301}\u{302}\u{303}\u{304}".repeat(500),
        "한국어 텍스트 김철수 ".repeat(100),
        "@@@...,,,###".repeat(300),
    ];
    for text in &cases {
        find(r, text);
    }
}

#[test]
fn the_batch_api_matches_one_call_per_text() {
    let Some(r) = recognizer() else { return };
    let long = "Call Maria Garcia at 555-0100. ".repeat(40);
    let texts = [
        SENTENCE,
        "",
        "Nothing to see here.",
        long.as_str(),
        "Anna lives in Paris",
    ];
    let mut batch = vec![Vec::new(); texts.len()];
    r.recognize_batch(&texts, &all_labels(), &mut batch)
        .unwrap();
    let key = |c: &Candidate| (c.span, c.label);
    for (text, got) in texts.iter().zip(&batch) {
        let want: Vec<_> = find(r, text).iter().map(key).collect();
        assert_eq!(got.iter().map(key).collect::<Vec<_>>(), want, "{text}");
    }
}

#[test]
fn only_wanted_labels_come_back() {
    let Some(r) = recognizer() else { return };
    let wanted = LabelSet::new(vec![Label::builtin("EMAIL_ADDRESS")]);
    let mut out = Vec::new();
    r.recognize(SENTENCE, &wanted, &mut out);
    assert!(!out.is_empty());
    assert!(out.iter().all(|c| c.label.as_str() == "EMAIL_ADDRESS"));
    let mut out = Vec::new();
    r.recognize(
        SENTENCE,
        &LabelSet::new(vec![Label::builtin("IBAN_CODE")]),
        &mut out,
    );
    assert!(out.is_empty());
}

#[test]
fn concurrent_callers_share_the_pool() {
    let Some(r) = recognizer() else { return };
    // Concurrent calls share batches; spans and labels must not depend on that.
    let key = |c: &Candidate| (c.span, c.label);
    let want: Vec<_> = find(r, SENTENCE).iter().map(key).collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..5 {
                    let got: Vec<_> = find(r, SENTENCE).iter().map(key).collect();
                    assert_eq!(got, want);
                }
            });
        }
    });
}

#[test]
fn a_missing_model_directory_is_reported_as_missing() {
    let mut settings = ModelSettings::rampart(Path::new("/nonexistent/models"));
    settings.required = false;
    let Err(e) = NerRecognizer::try_load(&settings) else {
        panic!("loaded from nowhere")
    };
    assert!(e.is_missing_file(), "{e}");
    assert!(e.to_string().contains("/nonexistent/models/rampart"), "{e}");
}

#[test]
fn two_workers_split_one_long_text_and_agree_with_one() {
    let Some(r) = recognizer() else { return };
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut settings = ModelSettings::rampart(&models);
    settings.workers = 2;
    settings.threads = 1;
    // Small batches, so the long text is spread over both workers.
    settings.max_batch_tokens = 300;
    let two = NerRecognizer::try_load(&settings).expect("loads like the first");
    let text = "Send it to Maria Garcia, 7 Harbour Road, Cork. ".repeat(60);
    let found = find(&two, &text);
    assert!(
        found
            .iter()
            .filter(|c| c.label.as_str() == "PERSON")
            .count()
            >= 50
    );
    // Batch composition may move scores in the last bits; spans and labels must agree.
    let key = |c: &Candidate| (c.span, c.label);
    let want: Vec<_> = find(r, &text).iter().map(key).collect();
    assert_eq!(found.iter().map(key).collect::<Vec<_>>(), want);
}

#[test]
fn every_token_carries_the_casing_bit_of_its_word() {
    let Some(r) = recognizer() else { return };
    let text = "ANNA met McDonald in paris, Élodie";
    let tokens = r.tokenizer.tokenize(text).unwrap();
    let mut words: Vec<(u32, usize, usize, bool)> = Vec::new();
    for ((span, &word), &upper) in tokens
        .spans
        .iter()
        .zip(&tokens.words)
        .zip(&tokens.capitalised)
    {
        match words.last_mut() {
            Some(last) if last.0 == word => {
                assert_eq!(last.3, upper, "one bit per word");
                last.2 = span.end;
            }
            _ => words.push((word, span.start, span.end, upper)),
        }
    }
    let shapes: Vec<(&str, bool)> = words.iter().map(|&(_, s, e, u)| (&text[s..e], u)).collect();
    assert_eq!(
        shapes,
        [
            ("ANNA", true),
            ("met", false),
            ("McDonald", true),
            ("in", false),
            ("paris", false),
            (",", false),
            ("Élodie", true)
        ]
    );
}

#[test]
fn an_inference_past_its_timeout_is_an_error_and_adds_nothing() {
    if recognizer().is_none() {
        return;
    }
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut settings = ModelSettings::rampart(&models);
    settings.inference_timeout = Duration::from_millis(1);
    let hurried = NerRecognizer::try_load(&settings).expect("loads like the first");
    let long = SENTENCE.repeat(40);
    let mut out = vec![Vec::new(), Vec::new()];
    let err = hurried
        .recognize_many(&[SENTENCE, &long], &all_labels(), &mut out)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "inference did not finish within 1 ms without progress (model.inference_timeout_ms)"
    );
    assert!(out.iter().all(Vec::is_empty), "{out:?}");
}

#[test]
fn a_job_that_keeps_making_progress_outlives_the_timeout() {
    let Some(_) = ours() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut settings = ModelSettings::anonymizer_ner(&root.join("models"));
    // One window per forward pass: 60 passes of a few ms each take longer than the
    // timeout in all, while each ends well within it.
    settings.max_batch_tokens = settings.window_tokens + 2;
    settings.inference_timeout = Duration::from_millis(150);
    let patient = NerRecognizer::try_load(&settings).expect("loads like the first");
    let long = SENTENCE.repeat(200);
    let started = std::time::Instant::now();
    let mut out = vec![Vec::new()];
    patient
        .recognize_many(&[&long], &all_labels(), &mut out)
        .expect("a job that makes progress is not cut off");
    assert!(
        started.elapsed() > settings.inference_timeout,
        "the job must outlast the timeout to show anything ({:?})",
        started.elapsed()
    );
    assert!(out[0].len() >= 200, "{} entities", out[0].len());
}

#[test]
fn a_request_for_labels_the_model_does_not_produce_never_runs_it() {
    let Some(_) = ours() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut settings = ModelSettings::anonymizer_ner(&root.join("models"));
    // Any inference would fail: success proves none ran.
    settings.inference_timeout = Duration::from_millis(1);
    let hurried = NerRecognizer::try_load(&settings).expect("loads");
    let rules_only = LabelSet::new(vec![
        Label::builtin("EMAIL_ADDRESS"),
        Label::builtin("CREDIT_CARD"),
    ]);
    // Several windows in one pass: far more than 1 ms of work, were it run.
    let long = format!("{SENTENCE} ").repeat(40);
    let mut out = vec![Vec::new()];
    hurried
        .recognize_many(&[&long], &rules_only, &mut out)
        .expect("no inference, so no timeout");
    assert!(out[0].is_empty());
    // The engine does not even call the tier, and the rules still answer.
    let mut tiers = crate::engine::Engine::builtin_recognizers_beside_model().expect("rules");
    tiers.push(Box::new(hurried));
    let engine = crate::engine::Engine::from_recognizers(tiers);
    let found = engine.detect(&long, &rules_only, 0.5).expect("rules only");
    let texts: Vec<&str> = found
        .iter()
        .map(|d| &long[d.span.start..d.span.end])
        .collect();
    assert_eq!(texts, ["john@example.com"; 40]);
    assert!(
        engine.detect(&long, &all_labels(), 0.5).is_err(),
        "with a model label asked for, the tier runs and times out"
    );
}

#[test]
fn the_engine_says_which_label_sets_run_the_model() {
    let Some(r) = ours() else { return };
    let mut tiers = crate::engine::Engine::builtin_recognizers_beside_model().expect("rules");
    tiers.push(Box::new(Shared(r)));
    let engine = crate::engine::Engine::from_recognizers(tiers);
    assert!(engine.runs_model(&LabelSet::defaults()));
    assert!(engine.runs_model(&LabelSet::new(vec![
        Label::builtin("EMAIL_ADDRESS"),
        Label::builtin("PERSON"),
    ])));
    let rules_only = LabelSet::new(vec![
        Label::builtin("EMAIL_ADDRESS"),
        Label::builtin("CREDIT_CARD"),
    ]);
    assert!(!engine.runs_model(&rules_only));
    let rules = crate::engine::Engine::from_recognizers(
        crate::engine::Engine::builtin_recognizers_beside_model().expect("rules"),
    );
    assert!(!rules.runs_model(&LabelSet::defaults()));
}

/// The shared test recognizer as an engine tier.
struct Shared(&'static NerRecognizer);

impl Recognizer for Shared {
    fn labels(&self) -> &[Label] {
        self.0.labels()
    }

    fn model(&self) -> Option<&ModelIdentity> {
        self.0.model()
    }

    fn tier(&self) -> &'static str {
        self.0.tier()
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        self.0.recognize(text, wanted, out);
    }

    fn recognize_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        out: &mut [Vec<Candidate>],
    ) -> Result<(), RecognizeError> {
        self.0.recognize_many(texts, wanted, out)
    }
}

#[test]
fn the_engine_detects_a_batch_of_texts_as_it_detects_each_alone() {
    let Some(r) = recognizer() else { return };
    let mut recognizers = crate::engine::Engine::builtin_recognizers().expect("builds");
    recognizers.push(Box::new(Shared(r)));
    let engine = crate::engine::Engine::from_recognizers(recognizers);
    let long = "Send it to Maria Garcia, 7 Harbour Road, Cork. ".repeat(30);
    let texts = [
        SENTENCE,
        "",
        "Nothing to see here.",
        long.as_str(),
        "Anna lives in Paris and mails anna@example.org",
        SENTENCE,
    ];
    let labels = LabelSet::defaults();
    let batch = engine
        .detect_many(&texts, &labels, 0.5)
        .expect("model runs");
    assert_eq!(batch.len(), texts.len());
    for (text, got) in texts.iter().zip(&batch) {
        let want = engine.detect(text, &labels, 0.5).expect("model runs");
        // Batch composition (padding, row order) may move scores in the last bits;
        // spans, labels and alternatives must agree exactly.
        let key =
            |d: &crate::engine::Detection| (d.span, d.label, d.alternative.map(|(label, _)| label));
        assert_eq!(
            got.iter().map(key).collect::<Vec<_>>(),
            want.iter().map(key).collect::<Vec<_>>(),
            "{text}"
        );
        for (g, w) in got.iter().zip(&want) {
            assert!((g.score - w.score).abs() < 1e-4, "{g:?} vs {w:?}");
        }
    }
    // The model's names are in there, so this is not the rule tiers alone.
    let persons = batch[3]
        .iter()
        .filter(|d| d.label.as_str() == "PERSON")
        .count();
    assert_eq!(persons, 30, "{:?}", batch[3]);
}

/// Our own model, `models/anonymizer-ner`.
fn ours() -> Option<&'static NerRecognizer> {
    static LOADED: OnceLock<Result<NerRecognizer, NerError>> = OnceLock::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    loaded_or_skipped(LOADED.get_or_init(|| {
        NerRecognizer::try_load(&ModelSettings::anonymizer_ner(&root.join("models")))
            .map(|r| r.with_second_reading(crate::engine::refine::second_reading::POLICY))
    }))
}

#[test]
fn our_model_with_spinning_threads_finds_exactly_what_it_finds_with_sleeping_ones() {
    let Some(sleeping) = ours() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut settings = ModelSettings::anonymizer_ner(&root.join("models"));
    assert!(!settings.spinning, "off by default");
    settings.spinning = true;
    let spinning = NerRecognizer::try_load(&settings)
        .expect("loads with spinning threads")
        .with_second_reading(crate::engine::refine::second_reading::POLICY);
    let text = "Dear Ms. Okafor, your refund of March 3 was sent to Lloyds Bank in Leeds. \
        Call Tomasz Wiśniewski at Acme Logistics if it has not arrived by Friday. "
        .repeat(8);
    let found = find(&spinning, &text);
    assert!(found.len() >= 40, "{found:?}");
    // The same passes in the same order: the same spans, labels and scores.
    let key = |c: &Candidate| (c.span, c.label, c.score.to_bits());
    let want: Vec<_> = find(sleeping, &text).iter().map(key).collect();
    assert_eq!(found.iter().map(key).collect::<Vec<_>>(), want);
}

#[test]
fn our_model_reads_casing_and_maps_its_types_by_alias() {
    let Some(r) = ours() else { return };
    assert_eq!(r.model_types(), ["PER", "ORG", "LOC", "DATE"]);
    assert_eq!(r.scheme.token_types, model::TokenTypes::Casing);
    let labels: Vec<&str> = r.labels().iter().map(|l| l.as_str()).collect();
    assert_eq!(labels.len(), 4, "{labels:?}");
    for want in ["PERSON", "ORGANIZATION", "LOCATION", "DATE_TIME"] {
        assert!(labels.contains(&want), "{labels:?}");
    }
}

#[test]
fn our_model_finds_names_organisations_places_and_dates_with_exact_spans() {
    let Some(r) = ours() else { return };
    let text = "Maria Garcia joined Siemens in Munich on 3 March 2021, said Dr. Ahmed Khan.";
    let found = find(r, text);
    assert_eq!(
        texts(text, &found),
        [
            ("Maria Garcia", "PERSON"),
            ("Siemens", "ORGANIZATION"),
            ("Munich", "LOCATION"),
            ("3 March 2021", "DATE_TIME"),
            ("Ahmed Khan", "PERSON")
        ]
    );
    for c in &found {
        assert!(c.score > 0.5, "{c:?}");
    }
}

#[test]
fn our_model_gives_a_request_the_same_result_whatever_runs_beside_it() {
    let Some(r) = ours() else { return };
    let text = "Maria Garcia joined Siemens in Munich on 3 March 2021, said Dr. Ahmed Khan.";
    let alone = find(r, text);
    assert!(!alone.is_empty());
    // Other requests keep the one worker busy with a tweet: a pass that held it, padded,
    // beside our text would quantize our activations with another scale (it moves our
    // scores in the fourth digit).
    let others = ["All I ' ve been doing is BINGE watching Rick and Morty 😂"; 3];
    let stop = AtomicBool::new(false);
    let beside = std::thread::scope(|s| {
        for other in &others {
            let stop = &stop;
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    find(r, other);
                }
            });
        }
        let beside: Vec<_> = (0..20).map(|_| find(r, text)).collect();
        stop.store(true, Ordering::Relaxed);
        beside
    });
    for found in beside {
        // Scores too, to the last bit.
        assert_eq!(found, alone);
    }
}

#[test]
fn our_model_sees_case_a_lower_case_common_word_is_no_name() {
    let Some(r) = ours() else { return };
    let text = "i will bring an apple and some bread for the trip to the coast.";
    let found = find(r, text);
    assert!(found.is_empty(), "{:?}", texts(text, &found));
    let text = "Shares of Apple fell after the Reuters report.";
    assert_eq!(
        texts(text, &find(r, text)),
        [("Apple", "ORGANIZATION"), ("Reuters", "ORGANIZATION")]
    );
}

/// The candidates of `text` after the reading rules, as the engine makes them.
fn find_read(r: &NerRecognizer, text: &str) -> Vec<Candidate> {
    let switches = crate::engine::refine::Switches::default();
    let mut reading = r.read_batch(&[text], &all_labels(), &[]).unwrap().remove(0);
    crate::engine::refine::read(text, &mut reading, &switches);
    let mut out = Vec::new();
    reading.candidates(text, &all_labels(), &mut out);
    out
}

#[test]
fn our_model_reads_unknown_lower_case_words_again_as_if_capitalised() {
    let Some(r) = ours() else { return };
    // "kaite", a name no dictionary knows, is found only on the second reading, which the
    // tier hands over for the reading rules to keep.
    let text = "wow emma and kaite is so very cute";
    assert_eq!(texts(text, &find(r, text)), [("emma", "PERSON")]);
    let reading = r.read_batch(&[text], &all_labels(), &[]).unwrap().remove(0);
    let second = reading.second.expect("read again");
    let found: Vec<&str> = (second.entities.iter())
        .map(|e| &text[e.span.start..e.span.end])
        .collect();
    assert!(found.contains(&"kaite"), "{found:?}");
    let found = find_read(r, text);
    assert_eq!(
        texts(text, &found),
        [("emma", "PERSON"), ("kaite", "PERSON")]
    );
    assert_eq!(found[1].trace.rules, ["second_reading_persons"]);
    // English words and their typos keep their reading; nothing joins a capitalised name.
    let text = "the couterpart of the seamer Peter Martin was brusing his hope";
    assert_eq!(
        texts(text, &find_read(r, text)),
        [("Peter Martin", "PERSON")]
    );
}

#[test]
fn beside_our_model_a_government_and_a_state_as_a_party_are_left_but_a_state_as_a_place_is_not() {
    let Some(r) = ours() else { return };
    let text = "The case originated in an application against the Republic of Turkey lodged by a \
                Turkish national, Mr Ali Yilmaz, who moved to the Republic of Ireland in 2001. \
                The Turkish Government contested it; he claimed 5,000 euros.";
    assert_eq!(
        beside_our_model(r, text),
        [
            ("Turkish national", "NRP"),
            ("Mr Ali Yilmaz", "PERSON"),
            ("Republic of Ireland", "ORGANIZATION"),
            ("2001", "DATE_TIME"),
            ("5,000 euros", "MONEY"),
        ]
    );
}

#[test]
fn beside_our_model_clinical_shorthand_vitals_and_labs_are_no_names_dates_or_sums() {
    let Some(r) = ours() else { return };
    let text = "Mr. Oliver was admitted to Clarkfield General Hospital on 06/12/88. HbA1c 7.2. \
                BP 142/88. INR 1.1.\nPATIENT: WILLIAMS, ROBERT J  DOB: 04/17/1952\n\
                PT IS A 72 Y.O. RETIRED POLICE OFFICER FROM QUINCY.\n\
                HPI: 47 yo RHM. Meds: Keppra 500 mg BID. Her husband, Mr. Kurt Ueda (HCP), called.";
    assert_eq!(
        beside_our_model(r, text),
        [
            ("Mr. Oliver", "PERSON"),
            ("Clarkfield General Hospital", "ORGANIZATION"),
            ("06/12/88", "DATE_TIME"),
            ("WILLIAMS, ROBERT J", "PERSON"),
            ("04/17/1952", "DATE_TIME"),
            ("72", "AGE"),
            ("RETIRED POLICE OFFICER", "OCCUPATION"),
            ("QUINCY", "LOCATION"),
            ("47", "AGE"),
            ("Mr. Kurt Ueda", "PERSON"),
        ]
    );
}

#[test]
fn beside_our_model_signatures_keep_first_names_and_lose_degrees_and_headers_keep_names_whole() {
    let Some(r) = ours() else { return };
    let text = "UNIT NUMBER: 772-41-06\nMs. Brown is a 45F with CAD s/p CABG at BWH in 2085.\n\
                CATH ON 8/15 BY DR. NAKAMURA. SEEN BY PT/OT.\n\
                EDVISIT^BRIGHAM AND WOMEN'S HOSPITAL\n\
                Pager #41552.\n\n_______________________\nIan P. Vance, M.D.\n\
                Signed by Ian P. Vance, MD\n\
                PT JOHNSON, MARY MRN 4482913 TRANSFERRED FROM CHILDREN'S HOSPITAL OF DENVER.";
    assert_eq!(
        beside_our_model(r, text),
        [
            ("772-41-06", "MEDICAL_RECORD_NUMBER"),
            ("Ms. Brown", "PERSON"),
            ("45", "AGE"),
            ("BWH", "LOCATION"),
            ("2085", "DATE_TIME"),
            ("8/15", "DATE_TIME"),
            ("DR. NAKAMURA", "PERSON"),
            ("BRIGHAM AND WOMEN'S HOSPITAL", "ORGANIZATION"),
            ("41552", "PHONE_NUMBER"),
            ("Ian P. Vance", "PERSON"),
            ("Ian P. Vance", "PERSON"),
            ("JOHNSON, MARY", "PERSON"),
            ("4482913", "MEDICAL_RECORD_NUMBER"),
            ("CHILDREN'S HOSPITAL OF DENVER", "ORGANIZATION"),
        ]
    );
}

/// What the whole engine with the default labels finds in `text` beside our model.
fn beside_our_model<'t>(r: &'static NerRecognizer, text: &'t str) -> Vec<(&'t str, &'static str)> {
    let mut recognizers =
        crate::engine::Engine::builtin_recognizers_beside_model().expect("builds");
    recognizers.push(Box::new(Shared(r)));
    let engine = crate::engine::Engine::from_recognizers(recognizers);
    engine
        .detect(text, &LabelSet::defaults(), 0.5)
        .expect("model runs")
        .iter()
        .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
        .collect()
}
