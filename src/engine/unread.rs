//! Values the model tier does not read: spans the rule tiers proved to be values of a
//! label whose every value is a machine token (a key, a password, an address), and the
//! log machinery the fields tier shields (timestamps, ids, a log line's header).
//!
//! The model looks for people, organisations, places and dates. Inside an API key, a
//! JWT or a connection string there is none to find, whatever it could tag inside an
//! e-mail address or a URL is replaced with the address anyway, and whatever it tags in
//! machinery the fields tier drops (`fields::apply`). Yet such values cost it the most:
//! a 40-character key is 20–30 sub-word tokens, a trace id 24, an ISO timestamp 16; on
//! logs, code and chat with pasted credentials about 30 % of its tokens went to them.
//! The engine finds these values first and hands their spans to the model tier, which
//! reads each as one token, its last, tagged outside (`Tokens::standing_in`).
//!
//! Adding a label is one row of [`LABELS`]; a label the model produces, or whose values
//! can be words (a date, an address, a name), does not belong here, nor one whose
//! values are a few tokens of digits. Machinery is what `fields` says it is.

use std::sync::LazyLock;

use crate::engine::tiers::fields;
use crate::engine::Candidate;
use crate::text::{ByteSpan, Label, LabelSet};

/// Each label whose values the model need not read, and why nothing is lost.
pub const LABELS: &[(&str, &str)] = &[
    ("API_KEY", "a generated token: no word of any language"),
    ("JWT", "base64url segments"),
    (
        "CONNECTION_STRING",
        "a scheme, host and credentials, replaced whole",
    ),
    ("PASSWORD", "the value after a password cue, replaced whole"),
    (
        "EMAIL_ADDRESS",
        "replaced whole, a name in its local part with it",
    ),
    ("URL", "replaced whole, a name in its path with it"),
];
// Not short numbers (IP and MAC addresses, cards, IBANs): a few tokens each, and their
// first alone reads as any number. After "203" for an IP address, the model took the
// "port 52815" of an sshd line for a place.

/// Candidates scored below this are guesses, not proof: the model reads them.
pub const FLOOR: f32 = 0.8;

/// Shortest machinery value not read: a timestamp, an id. Shorter ones (`info`,
/// `auth-service`, `730ms`) are a few tokens that give a record its shape, and reading
/// them whole scored better on the payload set (F1 0.9018 against 0.9006 with all of
/// them, one window a pass, measured with the first token standing in).
pub const MACHINERY_BYTES: usize = 12;

/// [`LABELS`] as a set.
pub fn labels() -> &'static LabelSet {
    static SET: LazyLock<LabelSet> = LazyLock::new(|| {
        LabelSet::new(
            LABELS
                .iter()
                .map(|(name, _)| Label::parse(name).expect("a catalogue label"))
                .collect(),
        )
    });
    &SET
}

/// The spans of `text` the model need not read: those of `found` (its rule-tier
/// candidates) of [`LABELS`] a request for `wanted` replaces, scored at least
/// [`FLOOR`], and the machinery values of [`MACHINERY_BYTES`] or more of its `fields`
/// scan (not the keys, which name what follows them); ascending, overlaps merged.
pub fn spans<'c>(
    found: impl IntoIterator<Item = &'c Candidate>,
    wanted: &LabelSet,
    fields: &fields::Scan,
) -> Vec<ByteSpan> {
    let mut spans: Vec<ByteSpan> = found
        .into_iter()
        .filter(|c| {
            c.score >= FLOOR
                && wanted.contains(c.label)
                && labels().contains(c.label)
                && c.span.start < c.span.end
        })
        .map(|c| c.span)
        .collect();
    let machinery = fields.machinery_values.iter();
    spans.extend(machinery.filter(|s| s.len() >= MACHINERY_BYTES).copied());
    ByteSpan::union(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Proof;
    use crate::engine::Trace;

    /// Prose: no machinery.
    const PROSE: &str = "Ana wrote to the bank about the loan and was told to wait.";

    fn candidate(start: usize, end: usize, label: &str, score: f32) -> Candidate {
        Candidate {
            span: ByteSpan::new(start, end),
            label: Label::parse(label).unwrap(),
            score,
            proof: Proof::default(),
            trace: Trace::new("patterns", "test"),
        }
    }

    #[test]
    fn keys_and_addresses_the_request_replaces_are_not_read_merged_in_order() {
        let found = [
            candidate(30, 50, "URL", 0.85),
            candidate(0, 12, "API_KEY", 0.95),
            candidate(8, 20, "EMAIL_ADDRESS", 0.95),
        ];
        let spans = spans(&found, &LabelSet::defaults(), &fields::scan(PROSE));
        assert_eq!(spans, [ByteSpan::new(0, 20), ByteSpan::new(30, 50)]);
    }

    #[test]
    fn the_models_labels_guesses_and_labels_not_asked_for_are_read() {
        let found = [
            candidate(0, 10, "DATE_TIME", 1.0),
            candidate(12, 20, "PHONE_NUMBER", 0.95),
            candidate(22, 30, "API_KEY", 0.5),
            candidate(32, 40, "EMAIL_ADDRESS", 0.95),
            candidate(42, 50, "IP_ADDRESS", 0.95),
        ];
        let wanted = [
            "PERSON",
            "DATE_TIME",
            "PHONE_NUMBER",
            "API_KEY",
            "IP_ADDRESS",
        ];
        let wanted = LabelSet::new(wanted.iter().map(|l| Label::parse(l).unwrap()).collect());
        assert_eq!(spans(&found, &wanted, &fields::scan(PROSE)), []);
    }

    #[test]
    fn long_log_machinery_values_are_not_read_and_keys_short_values_and_messages_are() {
        let line = r#"{"ts":"2026-11-04T06:16:22.259Z","level":"warning","trace_id":"78e510617311d8a3c2ce6f447ed4d57b","msg":"paid by Ana Ruiz"}"#;
        let shown: Vec<&str> = spans(&[], &LabelSet::defaults(), &fields::scan(line))
            .iter()
            .map(|s| &line[s.start..s.end])
            .collect();
        assert_eq!(
            shown,
            [
                "2026-11-04T06:16:22.259Z",
                "78e510617311d8a3c2ce6f447ed4d57b"
            ]
        );
    }

    #[test]
    fn every_label_is_in_the_catalogue_and_none_is_the_models() {
        for (name, why) in LABELS {
            let label = Label::parse(name).unwrap_or_else(|| panic!("{name}"));
            assert!(!why.is_empty());
            for model in [
                "PERSON",
                "ORGANIZATION",
                "LOCATION",
                "DATE_TIME",
                "NRP",
                "ADDRESS",
            ] {
                assert_ne!(label, Label::parse(model).unwrap());
            }
        }
    }
}
