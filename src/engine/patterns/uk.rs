//! United Kingdom identifiers (the postcode lives with addresses in `generic.rs`).

use crate::engine::validators::{mod11, structure};
use crate::engine::{PatternSpec, Proof};

/// NHS number, 3-3-4, mod 11. The layout is a US phone number's, so context decides
/// close calls.
pub(super) const UK_NHS: PatternSpec = PatternSpec {
    name: "uk_nhs",
    label: "UK_NHS",
    regex: r"\b\d{3}[ \-]?\d{3}[ \-]?\d{4}\b",
    score: 0.45,
    validate: Some(mod11::nhs),
    proof: Proof::Checksum,
    context: &["nhs", "nhs number", "nhs no", "health", "patient", "gp"],
    examples: &[("NHS number 943 476 5919", "943 476 5919")],
    counter_examples: &["NHS number 943 476 5918", "943 476 5919"],
    ..PatternSpec::BASE
};

/// National Insurance number: `AB 12 34 56 C`.
pub(super) const UK_NINO: PatternSpec = PatternSpec {
    name: "uk_nino",
    label: "UK_NINO",
    regex: r"(?i)\b[A-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]\b",
    score: 0.85,
    validate: Some(structure::uk_nino),
    context: &["national insurance", "ni number", "nino", "ni no"],
    examples: &[
        ("NI number AB123456C", "AB123456C"),
        ("nino: AB 12 34 56 C", "AB 12 34 56 C"),
    ],
    counter_examples: &["BG123456C", "DA 12 34 56 A"],
    ..PatternSpec::BASE
};
