//! Identifiers of clinical records that no national scheme covers: medical record
//! numbers are per hospital (any digits), so only the cue in front of them tells.

use crate::engine::{PatternSpec, Proof};

/// Medical record (chart) number after its cue: `MRN 4482913`, `MR# 00912377`,
/// `Medical record no. 123456`. Any 5–10 digits: hospitals number records their own way, so
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
        (\d{5,10})\b",
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("Patient: Mary Johnson   MRN: 4482913", "4482913"),
        ("NAME: RAMIREZ, CARLOS   MR# 00912377", "00912377"),
        ("medical record no. 123456 on file", "123456"),
        ("UNIT NO: 48999130", "48999130"),
    ],
    counter_examples: &["order 4482913", "MRN pending", "room 4482913"],
    ..PatternSpec::BASE
};
