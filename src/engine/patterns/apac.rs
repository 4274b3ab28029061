//! Asia-Pacific and Canadian identifiers.

use crate::engine::validators::{apac, luhn, mod11, verhoeff};
use crate::engine::{PatternSpec, Proof};

pub(super) const SG_NRIC: PatternSpec = PatternSpec {
    name: "sg_nric",
    label: "SG_NRIC",
    regex: r"(?i)\b[STFGM]\d{7}[A-Z]\b",
    score: 0.9,
    validate: Some(apac::sg_nric),
    proof: Proof::Checksum,
    context: &["nric", "fin", "ic"],
    examples: &[("NRIC S1234567D", "S1234567D")],
    counter_examples: &["S1234567A"],
    ..PatternSpec::BASE
};

pub(super) const IN_PAN: PatternSpec = PatternSpec {
    name: "in_pan",
    label: "IN_PAN",
    regex: r"\b[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]\b",
    score: 0.75,
    validate: Some(apac::in_pan),
    context: &["pan", "permanent account", "income tax"],
    examples: &[("PAN ABCPE1234F", "ABCPE1234F")],
    counter_examples: &["ABCXE1234F", "ABCPE0000F"],
    ..PatternSpec::BASE
};

/// Aadhaar: 12 digits (often 4-4-4), first 2–9, Verhoeff check (1 in 10 random pass).
pub(super) const IN_AADHAAR: PatternSpec = PatternSpec {
    name: "in_aadhaar",
    label: "IN_AADHAAR",
    regex: r"\b[2-9]\d{3}[ \-]?\d{4}[ \-]?\d{4}\b",
    score: 0.45,
    validate: Some(verhoeff::aadhaar),
    proof: Proof::Checksum,
    context: &["aadhaar", "aadhar", "uidai", "uid"],
    examples: &[("Aadhaar 2345 6789 0124", "2345 6789 0124")],
    counter_examples: &["Aadhaar 2345 6789 0123", "2345 6789 0124"],
    ..PatternSpec::BASE
};

pub(super) const AU_TFN: PatternSpec = PatternSpec {
    name: "au_tfn",
    label: "AU_TFN",
    regex: r"\b\d{3}[ \-]?\d{3}[ \-]?\d{3}\b",
    score: 0.3,
    validate: Some(mod11::au_tfn),
    proof: Proof::Checksum,
    context: &["tfn", "tax file", "tax file number"],
    examples: &[("TFN 123 456 782", "123 456 782")],
    counter_examples: &["TFN 123 456 783", "123 456 782"],
    ..PatternSpec::BASE
};

pub(super) const AU_MEDICARE: PatternSpec = PatternSpec {
    name: "au_medicare",
    label: "AU_MEDICARE",
    regex: r"\b[2-6]\d{3}[ \-]?\d{5}[ \-]?\d(?:[ \-/]?\d)?\b",
    score: 0.35,
    validate: Some(mod11::au_medicare),
    proof: Proof::Checksum,
    context: &["medicare", "medicare card", "medicare number"],
    examples: &[("Medicare 2123 45670 1", "2123 45670 1")],
    counter_examples: &["Medicare 2123 45671 1", "2123 45670 1"],
    ..PatternSpec::BASE
};

/// Canadian SIN: 3-3-3, Luhn (1 in 10 random pass), so context decides.
pub(super) const CA_SIN: PatternSpec = PatternSpec {
    name: "ca_sin",
    label: "CA_SIN",
    regex: r"\b\d{3}[ \-]\d{3}[ \-]\d{3}\b|\b\d{9}\b",
    score: 0.35,
    validate: Some(luhn::ca_sin),
    proof: Proof::Checksum,
    context: &["sin", "social insurance", "social insurance number", "nas"],
    examples: &[("SIN 130 692 544", "130 692 544")],
    counter_examples: &["SIN 130 692 545", "130 692 544"],
    ..PatternSpec::BASE
};
