use std::sync::Arc;

use proptest::prelude::*;

use super::stream::StreamRestorer;
use super::*;

fn entry(original: &str, anonymized: &str) -> MapEntry {
    MapEntry {
        original: original.into(),
        anonymized: anonymized.into(),
    }
}

/// Opens `[LABEL:payload]` when the payload is 22+ `o`s (a stand-in for real crypto).
struct FakeOpener;

impl TokenOpener for FakeOpener {
    fn open(&self, label: &str, payload: &str) -> Option<String> {
        (payload.len() >= 22 && payload.bytes().all(|b| b == b'o')).then(|| format!("<{label}>"))
    }

    fn max_payload_len(&self) -> usize {
        100
    }
}

fn restorer(mode: MatchMode) -> Restorer {
    Restorer::with_mode(
        &[
            entry("Ann", "[PERSON_1]"),
            entry("Bob", "[PERSON_10]"),
            entry("Eve", "[EMAIL_ADDRESS_2]"),
            entry("Jo", "Kim"),
            entry("Joanna", "Kimberly"),
            entry("[PERSON_1]", "X"),
        ],
        mode,
    )
    .unwrap()
    .with_opener(Arc::new(FakeOpener))
}

struct Case {
    name: &'static str,
    mode: MatchMode,
    input: &'static str,
    want: &'static str,
}

macro_rules! t {
    ($name:literal, $mode:ident, $input:expr, $want:expr) => {
        Case {
            name: $name,
            mode: MatchMode::$mode,
            input: $input,
            want: $want,
        }
    };
}

const OPEN: &str = "[PERSON:oooooooooooooooooooooo]";

fn cases() -> Vec<Case> {
    vec![
        t!(
            "leftmost longest, single pass",
            Exact,
            "[PERSON_10] met [PERSON_1]; X",
            "Bob met Ann; [PERSON_1]"
        ),
        t!(
            "longer fake wins",
            Exact,
            "Kimberly and Kim",
            "Joanna and Jo"
        ),
        t!(
            "exact ignores mangled forms",
            Exact,
            "[person_1] PERSON_1",
            "[person_1] PERSON_1"
        ),
        t!(
            "lenient case",
            Lenient,
            "[person_1] and [Person_10]",
            "Ann and Bob"
        ),
        t!(
            "lenient spaces",
            Lenient,
            "[PERSON 1], [email address 2]",
            "Ann, Eve"
        ),
        t!(
            "lenient bare word",
            Lenient,
            "PERSON_1 saw person_10.",
            "Ann saw Bob."
        ),
        t!(
            "lenient bare needs a word boundary",
            Lenient,
            "YPERSON_1 PERSON_1x PERSON_12",
            "YPERSON_1 PERSON_1x PERSON_12"
        ),
        t!("lenient keeps fakes exact", Lenient, "kim", "kim"),
        t!(
            "tokens open without a map",
            Exact,
            "a [PERSON:oooooooooooooooooooooo] b",
            "a <PERSON> b"
        ),
        t!(
            "bad tokens stay",
            Exact,
            "[PERSON:xxxxxxxxxxxxxxxxxxxxxx] [TODO:oooooooooooooooooooooo]",
            "[PERSON:xxxxxxxxxxxxxxxxxxxxxx] [TODO:oooooooooooooooooooooo]"
        ),
        t!(
            "non-ascii around",
            Exact,
            "Zoë[PERSON_1]😀[PERSON_10]",
            "ZoëAnn😀Bob"
        ),
        t!(
            "adjacent",
            Lenient,
            "[PERSON_1][PERSON_1]PERSON_1",
            "AnnAnnAnn"
        ),
        t!("unterminated", Exact, "[PERSON_1", "[PERSON_1"),
        t!("unterminated token", Exact, "[PERSON:oooo", "[PERSON:oooo"),
    ]
}

fn whole_and_every_split(r: &Arc<Restorer>, input: &str) -> Vec<String> {
    let mut outs = vec![r.restore(input)];
    for split in (0..=input.len()).filter(|i| input.is_char_boundary(*i)) {
        let mut s = StreamRestorer::new(Arc::clone(r));
        let mut out = s.push(&input[..split]);
        out.push_str(&s.push(&input[split..]));
        out.push_str(&s.finish());
        outs.push(out);
    }
    outs
}

#[test]
fn the_restore_table_holds_whole_and_at_every_split() {
    for case in cases() {
        let r = Arc::new(restorer(case.mode));
        for out in whole_and_every_split(&r, case.input) {
            assert_eq!(out, case.want, "case: {}", case.name);
        }
    }
}

#[test]
fn failed_tokens_are_counted_once() {
    let r = Arc::new(restorer(MatchMode::Exact));
    let text = "[PERSON:xxxxxxxxxxxxxxxxxxxxxx] [PERSON_1] [LOCATION:yyyyyyyyyyyyyyyyyyyyyy]";
    r.restore(text);
    assert_eq!(r.failed_tokens(), 2);
    let mut s = StreamRestorer::new(Arc::clone(&r));
    for c in text.chars() {
        s.push(&c.to_string());
    }
    s.finish();
    assert_eq!(r.failed_tokens(), 4);
}

#[test]
fn a_stream_holds_back_only_a_possible_start() {
    let r = Arc::new(restorer(MatchMode::Exact));
    let mut s = StreamRestorer::new(r);
    assert_eq!(s.push("Hello [PERSON_1"), "Hello ");
    assert_eq!(s.held(), "[PERSON_1".len());
    assert_eq!(s.push("] and Ki"), "Ann and ");
    assert_eq!(s.push("mbe"), "");
    assert_eq!(s.push("rly!"), "Joanna!");
    assert_eq!(s.push("Kimber"), "");
    assert_eq!(s.push("!"), "Jober!");
    assert_eq!(s.push(" no brackets here"), " no brackets here");
    assert_eq!(s.push(OPEN), "<PERSON>");
    assert_eq!(s.finish(), "");
}

#[test]
fn rejects_empty_and_ambiguous_entries() {
    let mode = MatchMode::Exact;
    let empty = Restorer::with_mode(&[entry("a", "")], mode).err().unwrap();
    assert_eq!(empty.kind(), MapErrorKind::EmptyReplacement);
    let amb = Restorer::with_mode(&[entry("a", "[X_1]"), entry("b", "[X_1]")], mode)
        .err()
        .unwrap();
    assert_eq!((amb.kind(), amb.index()), (MapErrorKind::Ambiguous, 1));
    assert!(Restorer::with_mode(&[entry("a", "[X_1]"), entry("a", "[X_1]")], mode).is_ok());
}

/// Texts built from pieces that are likely to start, end or nest replacements.
fn text_strategy() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("[PERSON_1]".to_owned()),
        Just("[PERSON_10]".to_owned()),
        Just("[person 1]".to_owned()),
        Just("PERSON_1".to_owned()),
        Just("[PERSON".to_owned()),
        Just("_1]".to_owned()),
        Just("Kim".to_owned()),
        Just("berly".to_owned()),
        Just(OPEN.to_owned()),
        Just("[PERSON:".to_owned()),
        Just("oooooooooooo".to_owned()),
        Just("]".to_owned()),
        "[a-zA-Z0-9 _\\[\\]:é😀]{0,6}",
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn any_chunking_gives_the_whole_text_result(
        text in text_strategy(),
        cuts in prop::collection::vec(0usize..200, 0..8),
        lenient in any::<bool>(),
    ) {
        let mode = if lenient { MatchMode::Lenient } else { MatchMode::Exact };
        let r = Arc::new(restorer(mode));
        let whole = r.restore(&text);
        let mut points: Vec<usize> = cuts
            .into_iter()
            .map(|c| c % (text.len() + 1))
            .filter(|c| text.is_char_boundary(*c))
            .collect();
        points.sort_unstable();
        let mut s = StreamRestorer::new(Arc::clone(&r));
        let mut out = String::new();
        let mut last = 0;
        for p in points {
            out.push_str(&s.push(&text[last..p]));
            last = p;
        }
        out.push_str(&s.push(&text[last..]));
        out.push_str(&s.finish());
        prop_assert_eq!(out, whole);
    }
}

#[test]
fn an_empty_restorer_returns_texts_unchanged() {
    assert_eq!(Restorer::empty().restore("[PERSON_1]"), "[PERSON_1]");
}

#[test]
fn a_text_that_is_a_json_document_gets_its_originals_escaped() {
    let r = Restorer::with_mode(
        &[entry(r#"Dr. "Bones" McCoy"#, "[PERSON_1]")],
        MatchMode::Exact,
    )
    .unwrap();
    assert_eq!(
        r.restore_text(r#" {"greeting": "Dear [PERSON_1]"}"#),
        r#" {"greeting": "Dear Dr. \"Bones\" McCoy"}"#
    );
    assert_eq!(
        r.restore_text(r#"["[PERSON_1]"]"#),
        r#"["Dr. \"Bones\" McCoy"]"#
    );
    // Not a document (not JSON, or a bare string): originals as they are.
    assert_eq!(
        r.restore_text(r#"{"greeting": "Dear [PERSON_1]""#),
        r#"{"greeting": "Dear Dr. "Bones" McCoy""#
    );
    assert_eq!(r.restore_text(r#""[PERSON_1]""#), r#""Dr. "Bones" McCoy""#);
}
