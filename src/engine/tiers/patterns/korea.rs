//! Korean identifiers.

use crate::engine::validators::korea;
use crate::engine::{PatternSpec, Proof};

const RRN_CONTEXT: &[&str] = &[
    "rrn",
    "resident registration number",
    "주민등록번호",
    "주민번호",
    "korean rrn",
];

/// Resident registration number with its dash `900101-1234568`: context-free, as in
/// Presidio (birth date, gender digit 1–4 and the check digit; dev sets: 0 new
/// detections, ordinary-number set: 0).
pub(super) const KR_RRN: PatternSpec = PatternSpec {
    name: "kr_rrn",
    label: "KR_RRN",
    regex: r"\b\d{6}-[1-4]\d{6}\b",
    score: 0.6,
    validate: Some(korea::kr_rrn),
    proof: Proof::Checksum,
    context: RRN_CONTEXT,
    examples: &[
        ("주민등록번호 900101-1234568", "900101-1234568"),
        ("id 900101-1234568", "900101-1234568"),
    ],
    counter_examples: &["900101-1234567", "invoice 900101-1234568"],
    ..PatternSpec::BASE
};

/// An RRN as 13 bare digits: context-gated, unlike Presidio. On the ordinary-number set
/// it and the FRN flagged 16 of 5,000 millisecond timestamps of 2001–2030 (their third
/// and fourth digits read as a month).
pub(super) const KR_RRN_BARE: PatternSpec = PatternSpec {
    name: "kr_rrn_bare",
    label: "KR_RRN",
    regex: r"\b\d{6}[1-4]\d{6}\b",
    score: 0.3,
    validate: Some(korea::kr_rrn),
    proof: Proof::Checksum,
    context: RRN_CONTEXT,
    examples: &[("RRN 9001011234568", "9001011234568")],
    counter_examples: &["9001011234568", "RRN 9013011234565"],
    ..PatternSpec::BASE
};

/// A resident registration number issued since October 2020, whose last digit is
/// random: date and gender digit only, so context-gated.
pub(super) const KR_RRN_UNCHECKED: PatternSpec = PatternSpec {
    name: "kr_rrn_unchecked",
    label: "KR_RRN",
    regex: r"\b\d{6}-?[1-4]\d{6}\b",
    score: 0.3,
    validate: Some(korea::kr_registration_date),
    context: RRN_CONTEXT,
    examples: &[("RRN 900101-1234567", "900101-1234567")],
    counter_examples: &["900101-1234567", "RRN 901301-1234567"],
    ..PatternSpec::BASE
};

const FRN_CONTEXT: &[&str] = &["frn", "foreigner registration number", "외국인등록번호"];

/// Foreigner registration number with its dash `900101-5234561`: context-free like the
/// RRN.
pub(super) const KR_FRN: PatternSpec = PatternSpec {
    name: "kr_frn",
    label: "KR_FRN",
    regex: r"\b\d{6}-[5-8]\d{6}\b",
    score: 0.6,
    validate: Some(korea::kr_frn),
    proof: Proof::Checksum,
    context: FRN_CONTEXT,
    examples: &[("외국인등록번호 900101-5234561", "900101-5234561")],
    counter_examples: &["900101-5234562", "invoice 900101-5234561"],
    ..PatternSpec::BASE
};

/// An FRN as 13 bare digits: context-gated, as the bare RRN.
pub(super) const KR_FRN_BARE: PatternSpec = PatternSpec {
    name: "kr_frn_bare",
    label: "KR_FRN",
    regex: r"\b\d{6}[5-8]\d{6}\b",
    score: 0.3,
    validate: Some(korea::kr_frn),
    proof: Proof::Checksum,
    context: FRN_CONTEXT,
    examples: &[("FRN 9001015234561", "9001015234561")],
    counter_examples: &["9001015234561"],
    ..PatternSpec::BASE
};

const BRN_CONTEXT: &[&str] = &[
    "brn",
    "business registration number",
    "사업자등록번호",
    "사업자번호",
];

/// Business registration number written `220-81-12341`: context-free, as in Presidio;
/// no other common number is written 3-2-5 (dev sets: 0 new detections).
pub(super) const KR_BRN: PatternSpec = PatternSpec {
    name: "kr_brn",
    label: "KR_BRN",
    regex: r"\b\d{3}-\d{2}-\d{5}\b",
    score: 0.6,
    validate: Some(korea::kr_brn),
    proof: Proof::Checksum,
    context: BRN_CONTEXT,
    examples: &[("사업자등록번호 220-81-12341", "220-81-12341")],
    counter_examples: &["220-81-12342", "invoice 220-81-12341"],
    ..PatternSpec::BASE
};

/// A bare business registration number: ten digits (phone numbers too), 1 in 10 pass;
/// context-gated.
pub(super) const KR_BRN_BARE: PatternSpec = PatternSpec {
    name: "kr_brn_bare",
    label: "KR_BRN",
    regex: r"\b\d{10}\b",
    score: 0.3,
    validate: Some(korea::kr_brn),
    proof: Proof::Checksum,
    context: BRN_CONTEXT,
    examples: &[("BRN 2208112341", "2208112341")],
    counter_examples: &["2208112341", "BRN 2208112342"],
    ..PatternSpec::BASE
};

/// Driver licence `11-24-123456-01`: a regional code and no check digit; context-gated.
pub(super) const KR_DRIVER_LICENSE: PatternSpec = PatternSpec {
    name: "kr_driver_license",
    label: "KR_DRIVER_LICENSE",
    regex: r"\b\d{2}-\d{2}-\d{6}-\d{2}\b|\b\d{12}\b",
    score: 0.3,
    validate: Some(korea::kr_driver_license),
    context: &[
        "운전면허",
        "운전면허번호",
        "면허번호",
        "korean driver license",
        "korean driver's license",
    ],
    examples: &[("운전면허번호 11-24-123456-01", "11-24-123456-01")],
    counter_examples: &["11-24-123456-01", "면허번호 27-24-123456-01"],
    ..PatternSpec::BASE
};

/// Passport `M123A4567` (since 2021) or `M12345678`: no check; context-gated, with
/// Korean words only (an English "passport" stays with the US shape it overlaps).
pub(super) const KR_PASSPORT: PatternSpec = PatternSpec {
    name: "kr_passport",
    label: "KR_PASSPORT",
    regex: r"\b[MSROD]\d{3}[A-Z]\d{4}\b|\b[MSROD]\d{8}\b",
    score: 0.25,
    context: &["여권", "여권번호", "대한민국 여권", "korean passport"],
    examples: &[("여권번호 M123A4567", "M123A4567")],
    counter_examples: &["part M123A4567"],
    ..PatternSpec::BASE
};
