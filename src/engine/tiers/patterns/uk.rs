//! United Kingdom identifiers (the postcode lives with addresses in `generic.rs`).

use crate::engine::validators::{mod11, structure};
use crate::engine::{PatternSpec, Proof};

/// NHS number, 3-3-4, mod 11. The layout is a US phone number's (one in eleven of them
/// passes the check), so context decides, and only words that name the NHS count: a
/// "patient" or a "Health Center" near a US fax number says nothing of the NHS.
pub(super) const UK_NHS: PatternSpec = PatternSpec {
    name: "uk_nhs",
    label: "UK_NHS",
    regex: r"\b\d{3}[ \-]?\d{3}[ \-]?\d{4}\b",
    score: 0.45,
    validate: Some(mod11::nhs),
    proof: Proof::Checksum,
    context: &["nhs", "national health service", "health service", "gp"],
    examples: &[("NHS number 943 476 5919", "943 476 5919")],
    counter_examples: &[
        "NHS number 943 476 5918",
        "943 476 5919",
        "Harbor Health Center, patient fax 943 476 5919",
    ],
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

/// A National Insurance number right after its cue (`My NI number is QQ 12 34 56 C`):
/// the writer says it is one, so the prefixes that [`UK_NINO`]'s check leaves out (QQ,
/// HMRC's example prefix, and the other never-allocated ones) are taken too.
pub(super) const UK_NINO_CUED: PatternSpec = PatternSpec {
    name: "uk_nino_cued",
    label: "UK_NINO",
    regex: concat!(
        r"(?ix)\b(?:national\s+insurance(?:\s+(?:number|no\.?))?|ni\s+(?:number|no\.?)|nino)",
        copula!(),
        r"\s*[:\#]?\s*((?-i:[A-Z]{2})\s?\d{2}\s?\d{2}\s?\d{2}\s?(?-i:[A-D]))\b"
    ),
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("My NI number is QQ 12 34 56 C.", "QQ 12 34 56 C"),
        ("National Insurance No: AB123456C", "AB123456C"),
    ],
    counter_examples: &["NI number pending", "nino QQ 12 34 56 E"],
    ..PatternSpec::BASE
};

/// Driving licence `MORGA753116SM9IJ`: surname, encoded birth date, initials. Found
/// without context, as in Presidio (0.5 there): sixteen characters with a valid date in
/// fixed places are not an ordinary token (dev sets: 0 new detections). DVLA publishes
/// no check digit, so this is a structure check.
pub(super) const UK_DRIVING_LICENCE: PatternSpec = PatternSpec {
    name: "uk_driving_licence",
    label: "UK_DRIVING_LICENCE",
    regex: r"\b[A-Z9]{5}\d{6}[A-Z9]{2}[A-Z0-9][A-Z]{2}\b",
    score: 0.55,
    validate: Some(structure::uk_driving_licence),
    context: &[
        "driving licence",
        "driving license",
        "driver's licence",
        "driver licence",
        "dvla",
        "licence number",
    ],
    examples: &[
        ("Driving licence: MORGA753116SM9IJ", "MORGA753116SM9IJ"),
        ("MORGA753116SM9IJ", "MORGA753116SM9IJ"),
    ],
    counter_examples: &[
        "MORGA713116SM9IJ",
        "99999753116SM9IJ",
        "build MORGA753116SM9IJ",
    ],
    ..PatternSpec::BASE
};

/// Passport (since 2015) `AB1234567`: the shape of Italian documents and DEA numbers,
/// no check digit; context-gated.
pub(super) const UK_PASSPORT: PatternSpec = PatternSpec {
    name: "uk_passport",
    label: "UK_PASSPORT",
    regex: r"\b[A-Z]{2}\d{7}\b",
    score: 0.25,
    context: &[
        "passport",
        "passport no",
        "passport number",
        "uk passport",
        "british passport",
        "hm passport office",
    ],
    examples: &[("UK passport number AB1234567", "AB1234567")],
    counter_examples: &["order AB1234567", "AB1234567"],
    ..PatternSpec::BASE
};

const VEHICLE_CONTEXT: &[&str] = &[
    "registration",
    "reg no",
    "reg.",
    "number plate",
    "registration number",
    "vehicle",
    "v5c",
    "car",
];

/// Current registration mark `AB12 CDE` (since 2001): found without context, as in
/// Presidio, when its age identifier is a real one (02–29, 51–79); the DVLA's letter
/// rules (no I, Q, Z in places) keep words out (dev sets: 0 new detections).
pub(super) const UK_VEHICLE_REGISTRATION: PatternSpec = PatternSpec {
    name: "uk_vehicle_registration",
    label: "UK_VEHICLE_REGISTRATION",
    regex: r"\b[A-HJ-PR-Y]{2}\d{2}\s?[A-HJ-PR-Z]{3}\b",
    score: 0.55,
    validate: Some(structure::uk_vehicle_registration),
    context: VEHICLE_CONTEXT,
    examples: &[("car reg AB12 CDE", "AB12 CDE"), ("BD51SMR", "BD51SMR")],
    counter_examples: &["AB01 CDE", "AB45 CDE", "version AB12 CDE"],
    ..PatternSpec::BASE
};

/// Older marks: prefix (`A123 BCD`, 1983–2001) and suffix (`ABC 123D`, 1963–1983). They
/// look like many product codes, so only with context.
pub(super) const UK_VEHICLE_REGISTRATION_OLD: PatternSpec = PatternSpec {
    name: "uk_vehicle_registration_old",
    label: "UK_VEHICLE_REGISTRATION",
    regex: r"\b[A-HJ-NPR-TV-Y]\d{1,3}\s?[A-HJ-PR-Y][A-HJ-PR-Z]{2}\b|\b[A-HJ-PR-Z]{3}\s?\d{1,3}\s?[A-HJ-NPR-TV-Y]\b",
    score: 0.2,
    context: VEHICLE_CONTEXT,
    examples: &[
        ("registration number A123 BCD", "A123 BCD"),
        ("vehicle ABC 123D", "ABC 123D"),
    ],
    counter_examples: &["A123 BCD", "ABC 123D"],
    ..PatternSpec::BASE
};
