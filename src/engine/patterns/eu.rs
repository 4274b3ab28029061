//! European national identifiers, each checksum-validated.

use crate::engine::validators::eu;
use crate::engine::{PatternSpec, Proof};

pub(super) const IT_FISCAL_CODE: PatternSpec = PatternSpec {
    name: "it_fiscal_code",
    label: "IT_FISCAL_CODE",
    regex: r"(?i)\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b",
    score: 0.9,
    validate: Some(eu::it_fiscal_code),
    proof: Proof::Checksum,
    context: &["codice fiscale", "fiscal code", "cf"],
    examples: &[("codice fiscale RSSMRA85T10A562S", "RSSMRA85T10A562S")],
    counter_examples: &["RSSMRA85T10A562T"],
    ..PatternSpec::BASE
};

pub(super) const ES_NIF: PatternSpec = PatternSpec {
    name: "es_nif",
    label: "ES_NIF",
    regex: r"\b\d{8}-?[A-Z]\b",
    score: 0.75,
    validate: Some(eu::es_nif),
    proof: Proof::Checksum,
    context: &["dni", "nif", "documento"],
    examples: &[("DNI 12345678Z", "12345678Z")],
    counter_examples: &["code 12345678A"],
    ..PatternSpec::BASE
};

pub(super) const ES_NIE: PatternSpec = PatternSpec {
    name: "es_nie",
    label: "ES_NIE",
    regex: r"\b[XYZ]-?\d{7}-?[A-Z]\b",
    score: 0.8,
    validate: Some(eu::es_nie),
    proof: Proof::Checksum,
    context: &["nie", "extranjero"],
    examples: &[("NIE X1234567L", "X1234567L")],
    counter_examples: &["X1234567A"],
    ..PatternSpec::BASE
};

/// Steuer-ID: eleven digits; the repetition rule plus MOD 11,10 pass ~1 in 30 random
/// numbers, so it needs context.
pub(super) const DE_TAX_ID: PatternSpec = PatternSpec {
    name: "de_tax_id",
    label: "DE_TAX_ID",
    regex: r"\b[1-9]\d(?:\s?\d{3}){3}\b",
    score: 0.4,
    validate: Some(eu::de_tax_id),
    proof: Proof::Checksum,
    context: &[
        "steuer-id",
        "steuerid",
        "steuer",
        "steueridentifikationsnummer",
        "idnr",
        "tax id",
        "tin",
        "identifikationsnummer",
    ],
    examples: &[("Steuer-ID: 86095742719", "86095742719")],
    counter_examples: &["Steuer-ID: 86095742718", "86095742719"],
    ..PatternSpec::BASE
};

pub(super) const FR_NIR: PatternSpec = PatternSpec {
    name: "fr_nir",
    label: "FR_NIR",
    regex: r"(?i)\b[12]\s?\d{2}\s?\d{2}\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}\s?\d{2}\b",
    score: 0.8,
    validate: Some(eu::fr_nir),
    proof: Proof::Checksum,
    context: &[
        "sécurité sociale",
        "securite sociale",
        "nir",
        "insee",
        "numéro de sécu",
    ],
    examples: &[("n° sécu 2 55 08 14 168 025 38", "2 55 08 14 168 025 38")],
    counter_examples: &["2 55 08 14 168 025 39"],
    ..PatternSpec::BASE
};

/// PESEL: eleven digits with a date inside; checksum passes 1 in 10, so context decides.
pub(super) const PL_PESEL: PatternSpec = PatternSpec {
    name: "pl_pesel",
    label: "PL_PESEL",
    regex: r"\b\d{11}\b",
    score: 0.4,
    validate: Some(eu::pl_pesel),
    proof: Proof::Checksum,
    context: &["pesel", "numer pesel"],
    examples: &[("PESEL 44051401359", "44051401359")],
    counter_examples: &["PESEL 44051401358", "44051401359"],
    ..PatternSpec::BASE
};
