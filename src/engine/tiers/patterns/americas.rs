//! Identifiers of the Americas outside the US and Canada.

use crate::engine::validators::americas;
use crate::engine::{PatternSpec, Proof};

/// Brazilian CPF in its own layout (`529.982.247-25`): context-free, since the 3-3-3-2
/// dots and dash are the CPF's, and both check digits must pass (one in a hundred).
pub(super) const BR_CPF: PatternSpec = PatternSpec {
    name: "br_cpf",
    label: "BR_CPF",
    regex: r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b",
    score: 0.7,
    validate: Some(americas::br_cpf),
    proof: Proof::Checksum,
    context: &[
        "cpf",
        "cadastro de pessoas físicas",
        "cadastro de pessoa física",
    ],
    examples: &[
        ("Meu CPF é 529.982.247-25.", "529.982.247-25"),
        ("529.982.247-25", "529.982.247-25"),
    ],
    counter_examples: &["529.982.247-26", "111.111.111-11"],
    ..PatternSpec::BASE
};

/// The CPF as eleven bare digits: only with context (phone numbers with their area code
/// are eleven digits in Brazil).
pub(super) const BR_CPF_BARE: PatternSpec = PatternSpec {
    name: "br_cpf_bare",
    regex: r"\b\d{11}\b",
    score: 0.3,
    examples: &[("CPF: 52998224725", "52998224725")],
    counter_examples: &["52998224725", "CPF: 52998224726"],
    ..BR_CPF
};

/// A Brazilian postcode (CEP, `01310-100`) after its cue or its state's two letters
/// (`São Paulo - SP, 01310-100`, `CEP: 01310-100`): a street's stretch in a city, the
/// tail of an address. Eight digits with a dash are also order and case numbers, so the
/// cue or the state is required (the regex enforces it), and only the digits are the
/// entity.
pub(super) const BR_CEP: PatternSpec = PatternSpec {
    name: "br_cep",
    label: "ADDRESS",
    regex: r"(?x)
        \bCEP:?\s*(\d{5}-?\d{3})\b
      | \b(?:AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO)
        ,?\s+(\d{5}-\d{3})\b",
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        (
            "Rua das Flores 100, São Paulo - SP, 01310-100.",
            "01310-100",
        ),
        ("CEP: 20040-002", "20040-002"),
    ],
    counter_examples: &["order 01310-100 shipped", "SP 500 index"],
    ..PatternSpec::BASE
};
