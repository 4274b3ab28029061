//! The use case end to end with a dictionary engine: every reversible method round
//! trips, sessions keep numbering, tenants stay apart.

use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::engine::{Candidate, Proof, Recognizer};
use crate::methods::MasterSecret;
use crate::session::{MemoryStore, SessionConfig};
use crate::text::ByteSpan;

/// Finds fixed words (leftmost, non-overlapping per word) with a fixed label.
struct Words(Vec<(&'static str, Label)>, Vec<Label>);

impl Recognizer for Words {
    fn labels(&self) -> &[Label] {
        &self.1
    }

    fn tier(&self) -> &'static str {
        "test"
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        for (word, label) in &self.0 {
            if !wanted.contains(*label) {
                continue;
            }
            for (start, m) in text.match_indices(word) {
                out.push(Candidate {
                    span: ByteSpan::new(start, start + m.len()),
                    label: *label,
                    score: 0.9,
                    proof: Proof::None,
                    trace: crate::engine::Trace::default(),
                });
            }
        }
    }
}

const WORDS: &[(&str, &str)] = &[
    ("Alice", "PERSON"),
    ("Alice Smith", "PERSON"),
    ("Bob Stone", "PERSON"),
    ("ZOË", "PERSON"),
    ("Oliver", "PERSON"),
    ("Smith", "PERSON"),
    ("alice@corp.io", "EMAIL_ADDRESS"),
    ("4111 1111 1111 1111", "CREDIT_CARD"),
    ("DE89 3704 0044 0532 0130 00", "IBAN_CODE"),
    ("(415) 867-5309", "PHONE_NUMBER"),
    ("2024-03-09", "DATE_TIME"),
    ("東京", "LOCATION"),
    ("123-45-6789", "US_SSN"),
    ("7", "AGE"),
];

fn anonymizer(with_sessions: bool) -> Anonymizer {
    let words: Vec<(&'static str, Label)> =
        WORDS.iter().map(|(w, l)| (*w, Label::builtin(l))).collect();
    let mut labels: Vec<Label> = words.iter().map(|w| w.1).collect();
    labels.sort();
    labels.dedup();
    let engine = Engine::from_recognizers(vec![Box::new(Words(words, labels.clone()))]);
    let defaults = Defaults {
        labels: LabelSet::new(labels),
        threshold: 0.5,
        method: Method::Redact,
    };
    let a = Anonymizer::new(Arc::new(engine), defaults)
        .with_keys(KeyRing::new(Some(MasterSecret::new(b"m".repeat(32)))));
    match with_sessions {
        true => a.with_sessions(Arc::new(MemoryStore::<Memory>::new(
            SessionConfig::default(),
        ))),
        false => a,
    }
}

fn opts(method: Method) -> Options {
    Options {
        method: Some(method),
        ..Options::default()
    }
}

fn strings(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

fn map_of(result: &Anonymized) -> Vec<MapEntry> {
    result
        .entities
        .iter()
        .map(|e| MapEntry {
            original: e.text.clone(),
            anonymized: e.replacement.clone(),
        })
        .collect()
}

const A: Scope<'static> = Scope {
    tenant: "a",
    session: None,
};

#[test]
fn redact_numbers_across_texts_and_skips_literals() {
    let a = anonymizer(false);
    let texts = strings(&["[PERSON_1] met Alice", "Alice and Bob Stone"]);
    let r = a.anonymize(&A, &texts, &opts(Method::Redact)).unwrap();
    assert_eq!(
        r.texts,
        ["[PERSON_1] met [PERSON_2]", "[PERSON_2] and [PERSON_3]"]
    );
}

#[test]
fn mask_keeps_code_point_length() {
    let a = anonymizer(false);
    let r = a
        .anonymize(&A, &strings(&["hi ZOË"]), &opts(Method::Mask))
        .unwrap();
    assert_eq!(r.texts, ["hi ***"]);
}

/// Two different texts of one length MASK to the same stars. The map
/// of such a result used to hold `Alice → *****` and `Smith → *****`, which a restorer
/// refuses as ambiguous: the proxy answered 500 and dropped the batch.
#[test]
fn a_mask_result_restores_nothing_and_builds_a_restorer_even_with_equal_masks() {
    let a = anonymizer(false);
    let r = a
        .anonymize(&A, &strings(&["Alice and Smith"]), &opts(Method::Mask))
        .unwrap();
    assert_eq!(r.texts, ["***** and *****"]);
    assert_eq!(r.entities.len(), 2);
    assert!(
        Restorer::new(&map_of(&r)).is_err(),
        "the naive map is ambiguous"
    );
    assert_eq!(r.restore_map(), []);
    let restorer = a
        .restorer(&A, Some(&r.restore_map()), MatchMode::Exact)
        .unwrap();
    assert_eq!(restorer.restore(&r.texts[0]), r.texts[0]);
    // Reversible methods keep one entry per distinct replacement.
    let r = a
        .anonymize(
            &A,
            &strings(&["Alice, Alice and Smith"]),
            &opts(Method::Redact),
        )
        .unwrap();
    let map = r.restore_map();
    assert_eq!(map.len(), 2);
    assert_eq!(
        Restorer::new(&map).unwrap().restore(&r.texts[0]),
        "Alice, Alice and Smith"
    );
}

#[test]
fn encrypt_tokens_open_without_a_map_but_only_for_their_tenant() {
    let a = anonymizer(false);
    let texts = strings(&["Alice paid with 4111 1111 1111 1111"]);
    let r = a.anonymize(&A, &texts, &opts(Method::Encrypt)).unwrap();
    assert!(r.texts[0].starts_with("[PERSON:"), "{}", r.texts[0]);
    let back = a.deanonymize(&A, &r.texts, None, MatchMode::Exact).unwrap();
    assert_eq!((back.texts, back.failed_tokens), (texts, 0));
    let other = a
        .deanonymize(&Scope::tenant("b"), &r.texts, None, MatchMode::Exact)
        .unwrap();
    assert_eq!(other.texts, r.texts);
    assert_eq!(other.failed_tokens, 2);
    assert_eq!(a.failed_tokens_total(), 2);
}

#[test]
fn hash_is_stable_across_requests_and_tenant_keyed() {
    let a = anonymizer(false);
    let texts = strings(&["Alice"]);
    let one = a.anonymize(&A, &texts, &opts(Method::Hash)).unwrap();
    let two = a.anonymize(&A, &texts, &opts(Method::Hash)).unwrap();
    let other = a
        .anonymize(&Scope::tenant("b"), &texts, &opts(Method::Hash))
        .unwrap();
    assert_eq!(one.texts, two.texts);
    assert_ne!(one.texts, other.texts);
}

#[test]
fn pseudonyms_shift_dates_by_one_offset_and_keep_shapes() {
    let a = anonymizer(false);
    let texts = strings(&["2024-03-09 and 2024-03-09!", "ZOË on 2024-03-09"]);
    let r = a
        .anonymize(&A, &texts, &opts(Method::Pseudonymize))
        .unwrap();
    let dates: Vec<&str> = r
        .entities
        .iter()
        .filter(|e| e.label.as_str() == "DATE_TIME")
        .map(|e| e.replacement.as_str())
        .collect();
    assert_eq!(dates.len(), 3);
    assert!(dates
        .iter()
        .all(|d| *d == dates[0] && d.len() == 10 && *d != "2024-03-09"));
    let zoe = &r
        .entities
        .iter()
        .find(|e| e.text == "ZOË")
        .unwrap()
        .replacement;
    assert_eq!(zoe, &zoe.to_uppercase());
}

#[test]
fn a_session_keeps_numbering_and_restores_without_a_map() {
    let a = anonymizer(true);
    let s = Scope {
        tenant: "a",
        session: Some("chat-1"),
    };
    let t1 = a
        .anonymize(&s, &strings(&["Alice"]), &opts(Method::Redact))
        .unwrap();
    let t2 = a
        .anonymize(
            &s,
            &strings(&["Bob Stone, then Alice"]),
            &opts(Method::Redact),
        )
        .unwrap();
    assert_eq!(t1.texts, ["[PERSON_1]"]);
    assert_eq!(t2.texts, ["[PERSON_2], then [PERSON_1]"]);
    let back = a
        .deanonymize(
            &s,
            &strings(&["[person 2] & [PERSON_1]"]),
            None,
            MatchMode::Lenient,
        )
        .unwrap();
    assert_eq!(back.texts, ["Bob Stone & Alice"]);
    // Tenant b with the same session id sees nothing of tenant a's.
    let b = Scope {
        tenant: "b",
        session: Some("chat-1"),
    };
    let none = a
        .deanonymize(&b, &strings(&["[PERSON_1]"]), None, MatchMode::Exact)
        .unwrap();
    assert_eq!(none.texts, ["[PERSON_1]"]);
    let fresh = a
        .anonymize(&b, &strings(&["Bob Stone"]), &opts(Method::Redact))
        .unwrap();
    assert_eq!(fresh.texts, ["[PERSON_1]"]);
}

#[test]
fn concurrent_requests_on_one_session_share_numbers_without_duplicates() {
    let a = Arc::new(anonymizer(true));
    let names = ["Alice", "Bob Stone", "ZOË", "Oliver", "Smith"];
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let a = Arc::clone(&a);
            std::thread::spawn(move || {
                let s = Scope {
                    tenant: "a",
                    session: Some("busy"),
                };
                let text = names[i..].join(" ");
                a.anonymize(&s, &[text], &opts(Method::Redact)).unwrap()
            })
        })
        .collect();
    let mut by_name = std::collections::HashMap::new();
    for t in threads {
        for e in t.join().unwrap().entities {
            let prev = by_name.insert(e.text.clone(), e.replacement.clone());
            assert!(prev.is_none_or(|p| p == e.replacement), "{}", e.text);
        }
    }
    let mut placeholders: Vec<&String> = by_name.values().collect();
    placeholders.sort();
    placeholders.dedup();
    assert_eq!(placeholders.len(), by_name.len());
}

/// Pieces of text: entities, fakes' raw material, placeholder-like literals, non-ASCII.
fn text_strategy() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(WORDS.iter().map(|w| w.0).collect::<Vec<_>>()).prop_map(str::to_owned),
        1 => prop::sample::select(vec![
            "[PERSON_1]", "[PERSON_2]", "PERSON_1", "[PERSON:abc]", "[EMAIL_ADDRESS_1]",
            "person_2", "[person 3]", "[Email Address 2]", "PERSON_",
            "Amelia", "Taylor", "example.com", "555-01", " ", ", ", "é", "😀", "",
        ]).prop_map(str::to_owned),
        1 => "[a-z0-9 \\[\\]_:]{0,5}",
    ];
    prop::collection::vec(piece, 0..10).prop_map(|v| v.concat())
}

fn reversible() -> impl Strategy<Value = Method> {
    prop::sample::select(vec![
        Method::Redact,
        Method::Hash,
        Method::Encrypt,
        Method::Pseudonymize,
    ])
}

proptest! {

    #[test]
    fn deanonymize_of_anonymize_is_the_identity(
        texts in prop::collection::vec(text_strategy(), 1..8),
        method in reversible(),
    ) {
        let a = anonymizer(true);
        let r = a.anonymize(&A, &texts, &opts(method)).unwrap();
        let map = map_of(&r);
        let back = a.deanonymize(&A, &r.texts, Some(&map), MatchMode::Exact).unwrap();
        prop_assert_eq!(&back.texts, &texts, "with the map; method {:?}", method);
        if matches!(method, Method::Redact | Method::Hash) {
            let back = a.deanonymize(&A, &r.texts, Some(&map), MatchMode::Lenient).unwrap();
            prop_assert_eq!(&back.texts, &texts, "lenient; method {:?}", method);
        }

        // The same through a session, without a map.
        let s = Scope { tenant: "a", session: Some("p") };
        let r = a.anonymize(&s, &texts, &opts(method)).unwrap();
        let back = a.deanonymize(&s, &r.texts, None, MatchMode::Exact).unwrap();
        prop_assert_eq!(&back.texts, &texts, "with the session; method {:?}", method);
    }
}

#[test]
fn an_expired_session_restores_nothing_and_numbers_afresh() {
    use crate::session::memory::ManualClock;
    let clock = Arc::new(ManualClock::default());
    let config = SessionConfig {
        ttl: std::time::Duration::from_secs(60),
        ..SessionConfig::default()
    };
    let store = Arc::new(MemoryStore::<Memory>::with_clock(config, clock.clone()));
    let a = anonymizer(false).with_sessions(store.clone());
    let s = Scope {
        tenant: "a",
        session: Some("old"),
    };
    a.anonymize(&s, &strings(&["Bob Stone"]), &opts(Method::Redact))
        .unwrap();
    clock.advance(std::time::Duration::from_secs(61));
    let back = a
        .deanonymize(&s, &strings(&["[PERSON_1]"]), None, MatchMode::Exact)
        .unwrap();
    assert_eq!(back.texts, ["[PERSON_1]"]);
    let again = a
        .anonymize(&s, &strings(&["Alice"]), &opts(Method::Redact))
        .unwrap();
    assert_eq!(again.texts, ["[PERSON_1]"]);
    assert_eq!(store.counters().expirations, 1);
}

#[test]
fn a_failed_detection_tier_fails_the_call_before_any_session_write_and_is_counted() {
    use crate::engine::tests::{FailingTier, FAILING_TIER_MESSAGE};
    let person = Label::builtin("PERSON");
    let engine = Engine::from_recognizers(vec![
        Box::new(Words(vec![("Alice", person)], vec![person])),
        Box::new(FailingTier),
    ]);
    let defaults = Defaults {
        labels: LabelSet::new(vec![person]),
        threshold: 0.5,
        method: Method::Redact,
    };
    let store = Arc::new(MemoryStore::<Memory>::new(SessionConfig::default()));
    let a = Anonymizer::new(Arc::new(engine), defaults).with_sessions(store.clone());
    let s = Scope {
        tenant: "a",
        session: Some("chat-1"),
    };
    let texts = strings(&["Alice", "and Alice again"]);
    let err = a.anonymize(&s, &texts, &opts(Method::Redact)).unwrap_err();
    let AnonymizeError::DetectionFailed(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(e.tier(), "model");
    assert_eq!(
        err.to_string(),
        format!("detection tier model failed: {FAILING_TIER_MESSAGE}")
    );
    let c = store.counters();
    assert_eq!((c.sessions, c.entries), (0, 0), "no session touched");
    assert_eq!(a.detection_failures_total(), 1);
    a.anonymize(&A, &texts, &opts(Method::Mask)).unwrap_err();
    assert_eq!(a.detection_failures_total(), 2);
}

/// An Elasticsearch `ip` field that holds one address gets an address back whatever the
/// method (a placeholder would get the document rejected), the same one for the same
/// address; free text, and a typed value holding more than an address, get the
/// method's own replacement.
#[test]
fn a_typed_address_becomes_an_address_of_its_family_whatever_the_method() {
    let (ip, person) = (Label::builtin("IP_ADDRESS"), Label::builtin("PERSON"));
    let words = vec![("10.20.30.40", ip), ("fe80::1", ip), ("Alice", person)];
    let engine = Engine::from_recognizers(vec![Box::new(Words(words, vec![ip, person]))]);
    let defaults = Defaults {
        labels: LabelSet::new(vec![ip, person]),
        threshold: 0.5,
        method: Method::Redact,
    };
    let a = Anonymizer::new(Arc::new(engine), defaults)
        .with_keys(KeyRing::new(Some(MasterSecret::new(b"m".repeat(32)))));
    let texts = strings(&[
        "10.20.30.40",
        "from 10.20.30.40",
        " 10.20.30.40\n",
        "fe80::1",
        "10.20.30.40, Alice",
    ]);
    let types = [
        TextType::IpAddress,
        TextType::Text,
        TextType::IpAddress,
        TextType::IpAddress,
        TextType::IpAddress,
    ];
    // A kept address stays in place, typed or not.
    let kept = a
        .anonymize_typed(&A, &texts, &types, &opts(Method::Keep))
        .unwrap();
    assert_eq!(kept.texts, texts);
    for &method in Method::ALL.iter().filter(|m| **m != Method::Keep) {
        let r = a
            .anonymize_typed(&A, &texts, &types, &opts(method))
            .unwrap();
        let v4: std::net::Ipv4Addr = r.texts[0].parse().unwrap();
        assert!(
            ["192.0.2.", "198.51.100.", "203.0.113."]
                .iter()
                .any(|net| v4.to_string().starts_with(net)),
            "{method:?}: {v4}"
        );
        assert_eq!(r.texts[2], format!(" {v4}\n"), "{method:?}");
        let v6: std::net::Ipv6Addr = r.texts[3].parse().unwrap();
        assert!(v6.to_string().starts_with("2001:db8:"), "{method:?}: {v6}");
        let (free, mixed) = match method {
            Method::Redact => (
                "from [IP_ADDRESS_1]".to_owned(),
                "[IP_ADDRESS_1], [PERSON_1]".to_owned(),
            ),
            Method::Mask => (
                "from ***********".to_owned(),
                "***********, *****".to_owned(),
            ),
            Method::Pseudonymize => (
                format!("from {v4}"),
                format!("{v4}, {}", &r.texts[4][v4.to_string().len() + 2..]),
            ),
            Method::Keep => unreachable!("kept apart above"),
            Method::Hash | Method::Encrypt => {
                assert!(r.texts[1].starts_with("from [IP_ADDRESS"), "{}", r.texts[1]);
                assert!(r.texts[4].starts_with("[IP_ADDRESS"), "{}", r.texts[4]);
                continue;
            }
        };
        assert_eq!(
            (r.texts[1].as_str(), r.texts[4].as_str()),
            (free.as_str(), mixed.as_str()),
            "{method:?}"
        );
        if method.is_reversible() {
            let back = a
                .deanonymize(&A, &r.texts, Some(&r.restore_map()), MatchMode::Exact)
                .unwrap();
            assert_eq!(back.texts, texts, "{method:?}");
        }
    }
}

#[test]
fn a_blocked_label_refuses_the_call_and_a_monitored_one_stays_in_place() {
    use crate::anonymizer::{Action, Actions, Blocked};
    let a = anonymizer(false);
    let texts = strings(&["SSN 123-45-6789 in 東京"]);
    let ssn = Label::builtin("US_SSN");
    let block = Options {
        actions: Actions {
            default: Action::Anonymize,
            by_label: vec![(ssn, Action::Block)],
        },
        ..Options::default()
    };
    assert_eq!(
        a.anonymize(&A, &texts, &block).unwrap_err(),
        AnonymizeError::Blocked(Blocked(vec![(ssn, 1)]))
    );
    let monitor = Options {
        actions: Actions {
            default: Action::Anonymize,
            by_label: vec![(ssn, Action::Monitor)],
        },
        ..Options::default()
    };
    let r = a.anonymize(&A, &texts, &monitor).unwrap();
    assert_eq!(r.texts, ["SSN 123-45-6789 in [LOCATION_1]"]);
    assert_eq!(
        (
            r.entities[0].action,
            r.entities[0].method,
            r.entities[0].replacement.as_str()
        ),
        (Action::Monitor, Method::Keep, "123-45-6789")
    );
    // What is left in place needs no restoring.
    assert_eq!(r.restore_map().len(), 1);
}
