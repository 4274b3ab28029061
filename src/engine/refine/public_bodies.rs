//! Organisations that name no person: a national government ("the Turkish
//! Government"), and a state that is a party to a case ("an application against the
//! Republic of Turkey"). Masking them hides nothing about anyone and costs the reader
//! who did what; court-judgment annotators (TAB) leave them unmasked.
//!
//! A state counts only as a party, with a cue before it: its name elsewhere may be where
//! someone lives ("he moved to the Republic of Ireland"), a quasi-identifier, and the
//! model's ORG-or-LOC reading of it is not reliable enough to decide alone. Courts,
//! councils and ministries are not on the list: local ones (`Bristol Crown Court`,
//! `Southwark Council`) say where someone lives, and annotators mask them about as
//! often as not.

use std::sync::LazyLock;

use regex::Regex;

use crate::engine::context::ceil_boundary;
use crate::engine::Detection;
use crate::text::ByteSpan;

const NAME: &str = r"\p{Lu}[\p{L}'’.-]*";

/// A national government, whole span, any leading "the". Examples: `Turkish
/// Government`, `the United Kingdom Government`, `Government of Malta`. Counter-examples:
/// `Government Street`, `Student Government Association`, `Acme Government Services Ltd`.
static GOVERNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:[Tt]he\s+)?(?:(?:{NAME}\s+){{1,3}}Government|Government\s+of\s+(?:the\s+)?{NAME}(?:\s+{NAME}){{0,3}})$"
    ))
    .expect("government grammar is valid")
});

/// A state's official name, whole span. Examples: `Republic of Turkey`, `Kingdom of
/// Sweden`, `United Kingdom of Great Britain and Northern Ireland`, `Russian
/// Federation`. Counter-examples: `Republic Bank`, `Federal Reserve`, `Turkey`.
static STATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:[Tt]he\s+)?(?:(?:{NAME}\s+){{0,2}}(?:Republic|Kingdom|Federation|Confederation|Principality|Grand\s+Duchy)\s+of\s+(?:the\s+)?{NAME}(?:\s+(?:{NAME}|and|of)){{0,5}}|Russian\s+Federation)$"
    ))
    .expect("state grammar is valid")
});

/// What makes a state a party, right before its name: "an application (no. 28045/02)
/// against the", "the complaint against", "Smith v.", "versus the".
static PARTY_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:\b(?:applications?|complaints?|petitions?|proceedings|case|claims?|actions?|suit)\b[^;\n]{0,40}\bagainst|\bv\.?|\bversus)\s+(?:the\s+)?$",
    )
    .expect("party cue is valid")
});

/// How far before a state's name its party cue may start, in bytes.
const CUE_REACH: usize = 100;

/// Whether `detection` (in `text`) is a public body that names no person. Spans the
/// operator's deny list names are always kept.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    let ByteSpan { start, end } = detection.span;
    let Some(span) = text.get(start..end) else {
        return false;
    };
    match detection.label.as_str() {
        "ORGANIZATION" if GOVERNMENT.is_match(span) => true,
        "ORGANIZATION" | "LOCATION" if STATE.is_match(span) => {
            let from = ceil_boundary(text, start.saturating_sub(CUE_REACH));
            PARTY_CUE.is_match(&text[from..start])
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    /// Whether `part`, labelled `label` and backed by `proof` where it stands in `text`,
    /// names no one.
    fn dropped_as(text: &str, part: &str, label: &str, proof: Proof) -> bool {
        crate::engine::refine::drops("public_body", text, &detection_at(text, part, label, proof))
    }

    fn dropped(text: &str, part: &str, label: &str) -> bool {
        dropped_as(text, part, label, Proof::None)
    }

    #[test]
    fn a_government_names_no_one_wherever_it_stands() {
        for name in [
            "Turkish Government",
            "the United Kingdom Government",
            "The Swedish Government",
            "Government of Malta",
            "Government of the Russian Federation",
        ] {
            assert!(dropped(name, name, "ORGANIZATION"), "{name}");
        }
    }

    #[test]
    fn a_state_names_no_one_as_a_party_to_a_case() {
        for (text, state) in [
            (
                "an application (no. 28045/02) against the United Kingdom of Great Britain and Northern Ireland lodged",
                "United Kingdom of Great Britain and Northern Ireland",
            ),
            ("the complaint against the Republic of Turkey", "Republic of Turkey"),
            ("in Sakık v. the Kingdom of Sweden,", "Kingdom of Sweden"),
            ("proceedings versus the Russian Federation", "Russian Federation"),
        ] {
            assert!(dropped(text, state, "ORGANIZATION"), "{text}");
            assert!(dropped(text, state, "LOCATION"), "{text}");
        }
    }

    #[test]
    fn states_as_places_other_organisations_and_listed_phrases_are_kept() {
        for (text, part, label) in [
            (
                "he moved to the Republic of Ireland in 2001",
                "Republic of Ireland",
                "ORGANIZATION",
            ),
            (
                "a friendly against the Republic of Ireland",
                "Republic of Ireland",
                "LOCATION",
            ),
            ("the application against Turkey", "Turkey", "LOCATION"),
            ("Government Street", "Government Street", "ORGANIZATION"),
            (
                "Student Government Association",
                "Student Government Association",
                "ORGANIZATION",
            ),
            (
                "Acme Government Services Ltd",
                "Acme Government Services Ltd",
                "ORGANIZATION",
            ),
            (
                "the claim against Republic Bank",
                "Republic Bank",
                "ORGANIZATION",
            ),
            (
                "the case against Southwark Council",
                "Southwark Council",
                "ORGANIZATION",
            ),
            ("Bristol Crown Court", "Bristol Crown Court", "ORGANIZATION"),
            ("the Turkish Government", "Turkish Government", "PERSON"),
        ] {
            assert!(!dropped(text, part, label), "{text}");
        }
        let name = "Turkish Government";
        assert!(!dropped_as(name, name, "ORGANIZATION", Proof::Listed));
    }
}
