//! Identifiers of clinical records that no national scheme covers: medical record and
//! pager numbers are per hospital (any digits), so only the cue in front of them tells.

use crate::engine::{PatternSpec, Proof};

/// Medical record (chart) number after its cue: `MRN 4482913`, `MR# 00912377`,
/// `Medical record no. 123456`, `Unit No: 720-83-19`. Any 5–10 digits, or groups of 2–4
/// joined by dashes: hospitals number records their own way, so
/// there is no checksum and the cue is required (the regex, not context, enforces it).
/// The cue fixes both ends, so the span is exact (`Grammar`): it wins over a phone
/// pattern that reads the same digits as a number dialled with `00`.
pub(super) const MEDICAL_RECORD_NUMBER: PatternSpec = PatternSpec {
    name: "medical_record_number",
    label: "MEDICAL_RECORD_NUMBER",
    regex: r"(?ix)
        \b(?: mrn | mr\# | mr\s+no\.? | medical\s+record(?:\s+(?:number|no\.?|\#))?
            | chart\s+(?:number|no\.?|\#) | unit\s+no\.? )
        \s*[:\#]?\s*
        (\d{5,10}|\d{2,4}(?:-\d{2,4}){1,3})\b",
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("Patient: Mary Johnson   MRN: 4482913", "4482913"),
        ("NAME: RAMIREZ, CARLOS   MR# 00912377", "00912377"),
        ("medical record no. 123456 on file", "123456"),
        ("UNIT NO: 48999130", "48999130"),
        ("Unit No: 720-83-19", "720-83-19"),
    ],
    counter_examples: &["order 4482913", "MRN pending", "room 4482913", "MRN 12-3"],
    ..PatternSpec::BASE
};

/// A pager number after its cue: `Pager #51432`, `pgr 4-1432`, `beeper: 31187`. Hospital
/// pagers have 4–7 digits that no phone pattern reads; they reach a person as a phone
/// does. The cue fixes the span (`Grammar`).
pub(super) const PAGER: PatternSpec = PatternSpec {
    name: "pager",
    label: "PHONE_NUMBER",
    regex: r"(?ix)
        \b(?: pager | pgr | beeper | bleep ) (?:\s+(?:no\.?|number))?
        \s*[:\#]?\s*
        (\d{4,7}|\d{1,3}-\d{3,5})\b",
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("Pager #51432. His wife", "51432"),
        ("call pgr 4-1432 with questions", "4-1432"),
        ("BEEPER: 31187", "31187"),
    ],
    counter_examples: &["the pager went off at 0300h", "pager 12", "page 51432"],
    ..PatternSpec::BASE
};
