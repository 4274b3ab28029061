//! The name of an identifier right before its value names no one: "Steuer" of
//! "Steuer-ID: 65929970489", "ABN" of "ABN 51 824 753 556", "TC" of "TC kimlik no …",
//! "DNI" of "mi DNI es 12345678Z". A model, or the rules' guess at an acronym, reads such
//! a capitalised name as a person, place or organisation now and then.
//!
//! The names are the context words of the identifier patterns (`patterns::ALL`), so a
//! new identifier brings its names along. "ABN AMRO", or "NHS" with no number after it,
//! stay.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::engine::context::{ceil_boundary, floor_boundary};
use crate::engine::{patterns, Detection};
use crate::text::ByteSpan;

/// Labels whose context words are no identifier's name: words of time ("summer",
/// "since"), of places ("london", "address") and of case files ("and", "appeal"), which
/// a name or a place may well be.
const NOT_IDENTIFIERS: &[&str] = &[
    "DATE_TIME",
    "CASE_NUMBER",
    "IP_ADDRESS",
    "MAC_ADDRESS",
    "UK_POSTCODE",
    "DE_PLZ",
];

/// The context words of every identifier pattern, one case-insensitive automaton.
static NAMES: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let mut words: Vec<&str> = patterns::ALL
        .iter()
        .filter(|spec| !NOT_IDENTIFIERS.contains(&spec.label))
        .flat_map(|spec| spec.context.iter().copied())
        .collect();
    // Several identifiers share a name ("passport"); overlapping search would report it
    // once per copy.
    words.sort_unstable();
    words.dedup();
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(words)
        .expect("a few hundred short words build an automaton")
});

/// How far around a span an identifier's name that holds it may reach, in bytes.
const REACH: usize = 40;

/// Whether `detection` (in `text`) is a person, place or organisation that lies inside
/// an identifier's name followed by its value. Spans the deny list names are kept.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    let ByteSpan { start, end } = detection.span;
    let from = floor_boundary(text, start.saturating_sub(REACH));
    let to = ceil_boundary(text, (end + REACH).min(text.len()));
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    NAMES.find_overlapping_iter(&text[from..to]).any(|m| {
        let (name_start, name_end) = (from + m.start(), from + m.end());
        name_start <= start
            && end <= name_end
            && !alnum(text[..name_start].chars().next_back())
            && !alnum(text[name_end..].chars().next())
            && a_value_follows(&text[name_end..])
    })
}

/// Whether a value with a digit follows an identifier's name, after separators and
/// at most one "no." / "number" / "is" in a few languages (" no 10000000146", ": 659…",
/// " number 943 …", " es 12345678Z", " is QQ 12 34 56 C", " lautet 65 929 …").
fn a_value_follows(after: &str) -> bool {
    let separators = [' ', '\t', ':', '=', '#', '-', '.'];
    let mut rest = after.trim_start_matches(separators);
    let word_len = rest
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(rest.len());
    if [
        "no", "nr", "number", "nummer", "numero", "número", "is", "es", "est", "ist", "è", "é",
        "lautet", "är", "jest", "wynosi",
    ]
    .iter()
    .any(|w| rest[..word_len].eq_ignore_ascii_case(w))
    {
        rest = rest[word_len..].trim_start_matches(separators);
    }
    let mut values = rest.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';'));
    let digit = |value: &str| value.bytes().any(|b| b.is_ascii_digit());
    match values.next() {
        Some(value) if digit(value) => true,
        // A spaced value's letter prefix ("QQ 12 34 56 C", "AB 123456").
        Some(prefix)
            if (1..=3).contains(&prefix.len())
                && prefix.bytes().all(|b| b.is_ascii_uppercase()) =>
        {
            values.next().is_some_and(digit)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    fn dropped(text: &str, part: &str, label: &str) -> bool {
        crate::engine::refine::drops(
            "identifier_name",
            text,
            &detection_at(text, part, label, Proof::None),
        )
    }

    #[test]
    fn the_name_of_an_identifier_before_its_value_names_no_one() {
        for (text, part, label) in [
            ("Steuer-ID: 65929970489", "Steuer", "PERSON"),
            ("Meine Steuer-ID lautet 65 929 970 489.", "Steuer", "PERSON"),
            ("TC kimlik no 10000000146", "kimlik", "PERSON"),
            ("TC kimlik no 10000000146", "TC", "ORGANIZATION"),
            ("ABN 51 824 753 556", "ABN", "ORGANIZATION"),
            ("NHS number 943 476 5919", "NHS", "ORGANIZATION"),
            ("mi DNI es 12345678Z", "DNI", "LOCATION"),
            ("my WhatsApp is +44 7700 900456", "WhatsApp", "ORGANIZATION"),
            ("My NI number is QQ 12 34 56 C", "NI", "ORGANIZATION"),
        ] {
            assert!(dropped(text, part, label), "{part} in {text}");
        }
    }

    #[test]
    fn without_a_value_after_it_or_within_a_longer_name_it_stays() {
        for (text, part) in [
            ("She works for the NHS in Leeds.", "NHS"),
            ("ABN AMRO 51 824 753 556", "ABN AMRO"),
            ("Steuer-ID: unbekannt", "Steuer"),
            ("Peter Pan 2", "Peter Pan"),
            ("London SW1A 2AA", "London"),
        ] {
            assert!(!dropped(text, part, "ORGANIZATION"), "{part} in {text}");
        }
    }
}
