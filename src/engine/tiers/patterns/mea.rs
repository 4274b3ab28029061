//! Turkish, Nigerian and South African identifiers.

use crate::engine::validators::{luhn, mea, verhoeff};
use crate::engine::{PatternSpec, Proof};

/// TC kimlik numarası: eleven digits with two check digits (1 in 100 random numbers
/// pass). Context-gated, unlike Presidio: on the ordinary-number set it flagged
/// eleven-digit phone numbers (`eval/README.md`, "Ordinary numbers"), and no separator sets it apart.
pub(super) const TR_NATIONAL_ID: PatternSpec = PatternSpec {
    name: "tr_national_id",
    label: "TR_NATIONAL_ID",
    regex: r"\b[1-9]\d{10}\b",
    score: 0.35,
    validate: Some(mea::tr_tckn),
    proof: Proof::Checksum,
    context: &[
        "tc kimlik",
        "t.c. kimlik",
        "kimlik no",
        "kimlik numarası",
        "tckn",
        "tc no",
        "turkish id",
        "turkish national id",
    ],
    examples: &[("TC Kimlik No: 10000000146", "10000000146")],
    counter_examples: &["10000000146", "TC Kimlik No: 10000000147"],
    ..PatternSpec::BASE
};

/// Turkish licence plate `34 ABC 123`: no check, and digits-letters-digits is common;
/// context-gated.
pub(super) const TR_LICENSE_PLATE: PatternSpec = PatternSpec {
    name: "tr_license_plate",
    label: "TR_LICENSE_PLATE",
    regex: r"\b(?:0[1-9]|[1-7]\d|8[01])[\s\-]?[A-PR-VYZ]{1,3}[\s\-]?\d{2,4}\b",
    score: 0.25,
    validate: Some(mea::tr_plate),
    context: &[
        "plaka",
        "plakası",
        "araç plakası",
        "license plate",
        "number plate",
    ],
    examples: &[("araç plakası 34 ABC 123", "34 ABC 123")],
    counter_examples: &["at 10 AM 30 people", "plaka 82 ABC 123"],
    ..PatternSpec::BASE
};

/// Nigerian NIN: eleven digits, Verhoeff (1 in 10 pass); context-gated.
pub(super) const NG_NIN: PatternSpec = PatternSpec {
    name: "ng_nin",
    label: "NG_NIN",
    regex: r"\b\d{11}\b",
    score: 0.3,
    validate: Some(verhoeff::ng_nin),
    proof: Proof::Checksum,
    context: &["nin", "national identification number", "nimc", "nin slip"],
    examples: &[("NIN: 34567890120", "34567890120")],
    counter_examples: &["34567890120", "NIN: 34567890121"],
    ..PatternSpec::BASE
};

/// Nigerian plate (2011 format) `LSR-123AB`: no check; context-gated.
pub(super) const NG_VEHICLE_REGISTRATION: PatternSpec = PatternSpec {
    name: "ng_vehicle_registration",
    label: "NG_VEHICLE_REGISTRATION",
    regex: r"\b[A-Z]{3}[\s\-]?\d{3}[A-Z]{2}\b",
    score: 0.3,
    context: &[
        "plate number",
        "number plate",
        "vehicle registration",
        "plate",
        "vehicle",
    ],
    examples: &[("plate number LSR-123AB", "LSR-123AB")],
    counter_examples: &["model LSR-123AB"],
    ..PatternSpec::BASE
};

/// South African identity number `8001015009087`: context-free, as in Presidio. A real
/// birth date, citizenship 0–2, the digit 8/9 and Luhn pass about 1 in 3,000 random
/// 13-digit numbers, and none of 13-digit timestamps (their month is never valid)
/// (dev sets: 0 new detections).
pub(super) const ZA_ID_NUMBER: PatternSpec = PatternSpec {
    name: "za_id_number",
    label: "ZA_ID_NUMBER",
    regex: r"\b\d{6}\s?\d{4}\s?[0-2][89]\d\b",
    score: 0.6,
    validate: Some(luhn::za_id),
    proof: Proof::Checksum,
    context: &[
        "south african id",
        "id number",
        "identity number",
        "rsa id",
        "sa id",
    ],
    examples: &[
        ("SA ID 8001015009087", "8001015009087"),
        ("born then: 850704 5127 087", "850704 5127 087"),
    ],
    counter_examples: &["8001015009088", "invoice 8001015009087", "1700000000081"],
    ..PatternSpec::BASE
};
