//! Engine-level properties: no input makes `detect` panic, results are sorted and
//! non-overlapping whatever the text, batches equal single calls, and a failing tier
//! fails the call.

use super::*;
use crate::text::LabelSet;

/// What `engine` finds in `text` for `labels` at 0.5: (text, label) pairs in order.
/// A detection of `part` (its first occurrence in `text`), for the filters' tests.
pub(crate) fn detection_at(text: &str, part: &str, label: &str, proof: Proof) -> Detection {
    let start = text.find(part).expect("part is in text");
    Detection {
        span: crate::text::ByteSpan::new(start, start + part.len()),
        label: crate::text::Label::builtin(label),
        score: 0.9,
        alternative: None,
        proof,
        trace: crate::engine::Trace::default(),
    }
}

fn found<'t>(engine: &Engine, text: &'t str, labels: &LabelSet) -> Vec<(&'t str, &'static str)> {
    engine
        .detect(text, labels, 0.5)
        .unwrap()
        .iter()
        .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
        .collect()
}

fn check(engine: &Engine, text: &str) {
    let found = engine.detect(text, &LabelSet::all(), 0.0).unwrap();
    for pair in found.windows(2) {
        assert!(pair[0].span.end <= pair[1].span.start, "overlap in output");
    }
    for d in &found {
        assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end));
        assert!((0.0..=1.0).contains(&d.score));
    }
}

#[test]
fn garbage_and_huge_unicode_input_never_panics() {
    let engine = Engine::builtin().expect("engine builds");
    // A deterministic xorshift stream of code points from every plane, plus separators
    // and digits, so patterns get partial matches next to multi-byte characters.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..200 {
        let len = (next() % 400) as usize + round;
        let text: String = (0..len)
            .map(|_| {
                let r = next();
                match r % 6 {
                    0 => char::from(b'0' + (r >> 8) as u8 % 10),
                    1 => [' ', '-', '.', '/', ':', '@', '(', ')', '+', '\n', ',']
                        [(r >> 8) as usize % 11],
                    2 => char::from(b'A' + (r >> 8) as u8 % 26),
                    3 => char::from_u32((r >> 8) as u32 % 0x11_0000).unwrap_or('\u{FFFD}'),
                    4 => ['é', 'İ', 'ß', '中', '😀', '\u{301}', '\u{200B}', 'ǅ']
                        [(r >> 8) as usize % 8],
                    _ => char::from(b'a' + (r >> 8) as u8 % 26),
                }
            })
            .collect();
        check(&engine, &text);
    }
    check(&engine, "");
    check(&engine, "İ".repeat(100_000).as_str());
    let big =
        "Mr John Smith, born 3 March 1980, call +44 20 7946 0958 or mail j@x.io. ".repeat(3_000);
    check(&engine, &big);
    check(&engine, &"9".repeat(200_000));
    check(&engine, &"-----BEGIN PRIVATE KEY-----".repeat(1000));
    // Lists of names, ages after names, hyphens and brackets at every edge.
    check(
        &engine,
        &"Ana Ruiz, Bo Chen, Li Na-, (34), Đorđe, ".repeat(500),
    );
}

#[test]
fn configured_lists_and_patterns_take_effect() {
    let options = EngineOptions {
        allow_list: vec!["support@example.com".into()],
        deny_list: vec![("Project Falcon".into(), Label::builtin("ORGANIZATION"))],
        patterns: vec![CustomPattern {
            name: "employee_id".into(),
            label: Label::builtin("PERSON"),
            regex: r"\bEMP-\d{6}\b".into(),
            score: 0.9,
            context: vec![],
            proof: Proof::None,
        }],
    };
    let engine = Engine::from_options(&options).expect("builds");
    let text = "Mail support@example.com or bob@example.com about project falcon, EMP-123456.";
    let found: Vec<(&str, &str)> = engine
        .detect(text, &LabelSet::all(), 0.5)
        .unwrap()
        .iter()
        .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("bob@example.com", "EMAIL_ADDRESS"),
            ("project falcon", "ORGANIZATION"),
            ("EMP-123456", "PERSON"),
        ]
    );
    assert_eq!(engine.tiers(), ["patterns", "dictionary"]);
}

#[test]
fn every_catalogue_label_has_a_builtin_recognizer() {
    let engine = Engine::builtin().expect("engine builds");
    for info in crate::text::label::LABELS {
        assert!(
            engine
                .supported_labels()
                .contains(Label::builtin(info.name)),
            "no recognizer emits {}",
            info.name
        );
    }
}

#[test]
fn weak_patterns_need_context_and_negative_context_lowers_scores() {
    let engine = Engine::builtin().expect("engine builds");
    let labels = LabelSet::all();
    let label_of = |text: &str| -> Vec<&'static str> {
        engine
            .detect(text, &labels, 0.5)
            .unwrap()
            .iter()
            .map(|d| d.label.as_str())
            .collect()
    };
    // A bare nine-digit number is nothing without context …
    assert!(label_of("reference 536221234 attached").is_empty());
    // … and what the context says with it.
    assert_eq!(label_of("her SSN is 536221234"), ["US_SSN"]);
    assert_eq!(label_of("passport number 536221234"), ["US_PASSPORT"]);
    assert_eq!(label_of("driver's license D1234567"), ["US_DRIVER_LICENSE"]);
    assert_eq!(label_of("checking account 12345678901"), ["US_BANK_NUMBER"]);
    assert!(label_of("D1234567").is_empty());
    assert!(label_of("invoice 415-555-0132").is_empty());
    assert_eq!(label_of("call 415-555-0132"), ["PHONE_NUMBER"]);
}

#[test]
fn a_list_of_case_numbers_is_one_entity_per_number() {
    let engine = Engine::builtin().expect("engine builds");
    let text = "applications (nos. 26480/95, 28291/95,29280/95 and 39428/96) were joined";
    assert_eq!(
        found(&engine, text, &LabelSet::all()),
        [
            ("26480/95", "CASE_NUMBER"),
            ("28291/95", "CASE_NUMBER"),
            ("29280/95", "CASE_NUMBER"),
            ("39428/96", "CASE_NUMBER"),
        ]
    );
}

#[test]
fn many_names_and_cues_in_one_text_stay_linear() {
    // 2 MB of cue phrases and repeated surnames: quadratic passes would take minutes.
    let engine = Engine::builtin().expect("engine builds");
    let text = "my name is Ann Lee and Lee met Dr Bo Chan. ".repeat(50_000);
    let started = std::time::Instant::now();
    let found = engine.detect(&text, &LabelSet::defaults(), 0.5).unwrap();
    assert!(found.len() >= 100_000);
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
}

/// A recognizer that returns nonsense spans, as a buggy model tier might.
struct Broken;

impl Recognizer for Broken {
    fn labels(&self) -> &[Label] {
        static LABELS: std::sync::OnceLock<Vec<Label>> = std::sync::OnceLock::new();
        LABELS.get_or_init(|| vec![Label::builtin("PERSON")])
    }
    fn tier(&self) -> &'static str {
        "model"
    }
    fn recognize(&self, text: &str, _: &LabelSet, out: &mut Vec<Candidate>) {
        for (start, end) in [(5, 2), (1, 2), (0, text.len() + 10), (3, 3)] {
            out.push(Candidate {
                span: crate::text::ByteSpan { start, end },
                label: Label::builtin("PERSON"),
                score: 0.9,
                proof: Proof::None,
                trace: crate::engine::Trace::default(),
            });
        }
    }
}

#[test]
fn bad_spans_from_a_recognizer_are_dropped_not_panicked_on() {
    let engine =
        Engine::with_options(vec![Box::new(Broken)], &EngineOptions::default()).expect("builds");
    assert!(engine
        .detect("é😀 text", &LabelSet::all(), 0.5)
        .unwrap()
        .is_empty());
    assert_eq!(engine.tiers(), ["model"]);
}

/// Mixed log and chat lines: everything personal found, nothing else.
#[test]
fn a_mixed_log_and_chat_sample_is_found_exactly() {
    let engine = Engine::builtin().expect("engine builds");
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            // The line's own timestamp is log machinery and stays (engine::tiers::fields).
            "2024-03-14T09:30:00Z INFO user=jane.doe@example.com ip=203.0.113.42 status=ok",
            &[
                ("EMAIL_ADDRESS", "jane.doe@example.com"),
                ("IP_ADDRESS", "203.0.113.42"),
            ],
        ),
        (
            "Hi, I'm Maria Garcia, my phone is (415) 555-0132 and I live at 742 Evergreen Terrace, Springfield, IL 62704.",
            &[
                ("PERSON", "Maria Garcia"),
                ("PHONE_NUMBER", "(415) 555-0132"),
                ("ADDRESS", "742 Evergreen Terrace, Springfield, IL 62704"),
            ],
        ),
        (
            "Dear Dr. Chen, your NHS number 943 476 5919 appointment is on 3rd March 2024 at 10:15.",
            &[
                ("PERSON", "Dr. Chen"),
                ("UK_NHS", "943 476 5919"),
                ("DATE_TIME", "3rd March 2024 at 10:15"),
            ],
        ),
        (
            "DATABASE_URL=postgres://admin:s3cr3tPass@db.internal:5432/prod password: Winter2024!",
            &[
                ("CONNECTION_STRING", "admin:s3cr3tPass@db.internal:5432"),
                ("PASSWORD", "Winter2024!"),
            ],
        ),
        (
            "Please refactor this React component to use hooks; the Product Manager agrees.",
            &[],
        ),
    ];
    for (text, want) in cases {
        let got: Vec<(&str, &str)> = engine
            .detect(text, &LabelSet::defaults(), 0.5)
            .unwrap()
            .iter()
            .map(|d| (d.label.as_str(), &text[d.span.start..d.span.end]))
            .collect();
        assert_eq!(&got, want, "in {text:?}");
    }
}

/// A model tier that always fails, as a timed-out one does (shared with the anonymizer
/// and API tests).
pub(crate) struct FailingTier;

/// What [`FailingTier`] says: a runtime message, like the pool's timeout.
pub(crate) const FAILING_TIER_MESSAGE: &str = "inference did not finish within 1 ms";

impl Recognizer for FailingTier {
    fn labels(&self) -> &[Label] {
        static LABELS: std::sync::OnceLock<Vec<Label>> = std::sync::OnceLock::new();
        LABELS.get_or_init(|| vec![Label::builtin("PERSON")])
    }

    fn tier(&self) -> &'static str {
        "model"
    }

    fn recognize(&self, _: &str, _: &LabelSet, _: &mut Vec<Candidate>) {
        panic!("the engine calls recognize_many, which can fail");
    }

    fn recognize_many(
        &self,
        _: &[&str],
        _: &LabelSet,
        _: &mut [Vec<Candidate>],
    ) -> Result<(), RecognizeError> {
        Err(RecognizeError::new(FAILING_TIER_MESSAGE))
    }
}

#[test]
fn a_failing_tier_fails_the_whole_batch_naming_the_tier_and_no_text() {
    let mut recognizers = Engine::builtin_recognizers().expect("builds");
    recognizers.push(Box::new(FailingTier));
    let engine = Engine::from_recognizers(recognizers);
    let texts = ["Mail jane@example.com", "Call Anna Lee on +44 20 7946 0958"];
    // The rule tiers found the e-mail and phone; none of it comes back.
    let err = engine
        .detect_many(&texts, &LabelSet::all(), 0.5)
        .unwrap_err();
    assert_eq!(err.tier(), "model");
    assert_eq!(
        err.to_string(),
        "detection tier model failed: inference did not finish within 1 ms"
    );
    assert_eq!(
        engine.detect(texts[1], &LabelSet::all(), 0.5).unwrap_err(),
        err
    );
    // A call whose labels the failing tier cannot emit does not need it.
    let email = LabelSet::new(vec![Label::builtin("EMAIL_ADDRESS")]);
    let found = engine
        .detect_many(&texts, &email, 0.5)
        .expect("no model labels");
    let spans: Vec<Vec<(usize, usize)>> = found
        .iter()
        .map(|ds| ds.iter().map(|d| (d.span.start, d.span.end)).collect())
        .collect();
    assert_eq!(spans, [vec![(5, 21)], vec![]]);
}

/// What `engine` detects in each of `texts` asked for alone, at 0.5.
fn one_by_one(engine: &Engine, texts: &[&str], labels: &LabelSet) -> Vec<Vec<Detection>> {
    texts
        .iter()
        .map(|t| engine.detect(t, labels, 0.5).expect("rules"))
        .collect()
}

#[test]
fn detect_many_returns_per_text_what_detect_returns() {
    let engine = Engine::builtin().expect("engine builds");
    let texts = [
        "Mail jane@example.com or call +44 20 7946 0958.",
        "",
        "nothing personal in here",
        "Dear Dr. Chen, your NHS number 943 476 5919 is noted.",
        "Mail jane@example.com or call +44 20 7946 0958.",
    ];
    let labels = LabelSet::defaults();
    let batch = engine.detect_many(&texts, &labels, 0.5).expect("rules");
    let single = one_by_one(&engine, &texts, &labels);
    assert_eq!(batch, single);
    assert_eq!(
        batch.iter().map(Vec::len).collect::<Vec<_>>(),
        [2, 0, 0, 2, 2]
    );
    assert!(engine
        .detect_many(&[], &labels, 0.5)
        .expect("no texts")
        .is_empty());
}

#[test]
fn an_acronym_defined_after_a_name_is_found_wherever_it_stands() {
    let engine = Engine::builtin().expect("engine builds");
    let text = "Mr John Smith (“JS”) signed. JS then left; the JSON file stayed.";
    assert_eq!(
        found(&engine, text, &LabelSet::defaults()),
        [
            ("Mr John Smith", "PERSON"),
            ("JS", "PERSON"),
            ("JS", "PERSON")
        ]
    );
    // Many definitions and many uses stay one pass over the text.
    let many: String = (0..2_000)
        .map(|i| format!("Mr John Smith{i} (J{}) and J{} ", i % 997, i % 991))
        .collect();
    check(&engine, &many);
}

#[test]
fn a_large_request_spread_over_threads_detects_what_each_text_alone_does() {
    let engine = Engine::builtin().expect("builds");
    let lines = [
        "Dear Ana Ruiz, your card 4111 1111 1111 1111 was charged on 3 March 2024.",
        "{\"ts\":\"2024-03-14T09:30:00Z\",\"user\":\"jdoe\",\"email\":\"jane@example.com\",\"ip\":\"10.1.2.3\"}",
        "time=2024-03-14T09:30:00Z level=warn user=u123 phone=\"+44 20 7946 0958\" msg=\"card declined\"",
        "Please call Mr John Smith at 415-555-0132 about IBAN GB82 WEST 1234 5698 7654 32.",
        "Nothing to see here, just the weekly report on the build times of the platform team.",
    ];
    let texts: Vec<String> = (0..60)
        .map(|i| format!("{} #{i}", lines[i % lines.len()]).repeat(1 + i % 3))
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let total: usize = texts.iter().map(|t| t.len()).sum();
    assert!(super::large(&texts), "{total} bytes");
    let labels = LabelSet::defaults();
    let together = engine.detect_many(&texts, &labels, 0.5).expect("detects");
    let alone = one_by_one(&engine, &texts, &labels);
    let mut found = 0;
    for ((text, together), alone) in texts.iter().zip(&together).zip(&alone) {
        assert_eq!(together, alone, "{text}");
        found += together.len();
    }
    assert!(found > 200, "{found} detections");
}

/// Tags its texts' first word PERSON, reading only the languages of `scope`.
struct FirstWord {
    scope: crate::text::LanguageScope,
    by: &'static str,
}

impl Recognizer for FirstWord {
    fn labels(&self) -> &[Label] {
        static LABELS: std::sync::OnceLock<Vec<Label>> = std::sync::OnceLock::new();
        LABELS.get_or_init(|| vec![Label::builtin("PERSON")])
    }
    fn tier(&self) -> &'static str {
        "names"
    }
    fn languages(&self) -> &crate::text::LanguageScope {
        &self.scope
    }
    fn recognize(&self, text: &str, _: &LabelSet, out: &mut Vec<Candidate>) {
        let end = text.find(' ').unwrap_or(text.len());
        out.push(Candidate {
            span: crate::text::ByteSpan::new(0, end),
            label: Label::builtin("PERSON"),
            score: 0.9,
            proof: Proof::None,
            trace: crate::engine::Trace::new("names", self.by),
        });
    }
}

#[test]
fn a_recognizer_scoped_to_languages_reads_only_texts_in_them() {
    let de = Language::from_code("de").unwrap();
    let ja = Language::from_code("ja").unwrap();
    let scoped = |only: Option<Vec<Language>>, except: Vec<Language>, by| {
        Box::new(FirstWord {
            scope: crate::text::LanguageScope { only, except },
            by,
        }) as Box<dyn Recognizer>
    };
    let engine = Engine::with_options(
        vec![
            scoped(None, vec![de, ja], "rest"),
            scoped(Some(vec![de, ja]), Vec::new(), "de_ja"),
        ],
        &EngineOptions::default(),
    )
    .expect("builds");
    let texts = ["Anna kommt morgen", "Anna arrives", "Anna", "Anna 来る"];
    let languages = [Some(de), Some(Language::ENGLISH), None, Some(ja)];
    let person = LabelSet::new(vec![Label::builtin("PERSON")]);
    let found = engine
        .detect_with(&texts, &languages, &person, 0.5, None)
        .expect("detects");
    let by: Vec<Vec<&str>> = found
        .iter()
        .map(|f| f.iter().map(|d| d.trace.by).collect())
        .collect();
    assert_eq!(
        by,
        [vec!["de_ja"], vec!["rest"], vec!["rest"], vec!["de_ja"]]
    );
}

#[test]
fn detect_many_reads_each_text_in_its_detected_language() {
    let de = Language::from_code("de").unwrap();
    let engine = Engine::with_options(
        vec![Box::new(FirstWord {
            scope: crate::text::LanguageScope {
                only: Some(vec![de]),
                except: Vec::new(),
            },
            by: "de",
        })],
        &EngineOptions::default(),
    )
    .expect("builds");
    let person = LabelSet::new(vec![Label::builtin("PERSON")]);
    let texts = [
        "Sehr geehrte Frau Schneider, vielen Dank für Ihre Nachricht von gestern. Wir melden uns morgen.",
        "Please send the signed contract to our office before Friday, thank you very much.",
    ];
    let found = engine.detect_many(&texts, &person, 0.5).expect("detects");
    assert_eq!(found.iter().map(Vec::len).collect::<Vec<_>>(), [1, 0]);
}
