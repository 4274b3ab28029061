//! Identifiers of clinical records that no national scheme covers: medical record and
//! pager numbers are per hospital (any digits), so only the cue in front of them tells.

use crate::engine::{PatternSpec, Proof};

/// A record number as hospitals write it: 5–10 digits, or groups of 2–4 joined by
/// dashes (`720-83-19`), captured. A macro, so that each pattern's regex is one literal.
macro_rules! record_number {
    () => {
        r"(\d{5,10}|\d{2,4}(?:-\d{2,4}){1,3})\b"
    };
}

/// Medical record (chart) number after its cue: `MRN 4482913`, `MR# 00912377`,
/// `Medical record no. 123456`, `Unit No: 720-83-19`, `Pt ID 77410022`, `Hospital No:
/// 1234567`. Any 5–10 digits, or groups of 2–4 joined by dashes: hospitals number records
/// their own way, so there is no checksum and the cue is required (the regex, not
/// context, enforces it). The cue fixes both ends, so the span is exact (`Grammar`): it
/// wins over a phone pattern that reads the same digits as a number dialled with `00`.
pub(super) const MEDICAL_RECORD_NUMBER: PatternSpec = PatternSpec {
    name: "medical_record_number",
    label: "MEDICAL_RECORD_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?: mrn | mr\# | mr\s+no\.? | medical\s+record(?:\s+(?:number|no\.?|\#))?
            | chart\s+(?:number|no\.?|\#) | unit\s+(?:number|no\.?)
            | (?:patient|pt\.?)\s+(?:id|no\.?|number|\#) | hospital\s+(?:number|no\.?) )
        \s*[:\#\-]?\s*",
        record_number!()
    ),
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
        ("UNIT NUMBER: 772-41-06", "772-41-06"),
        ("Pt ID 77410022; Health Plan #", "77410022"),
        ("Hospital No: 1234567", "1234567"),
        ("VALUES ('MRN-0044812', 'Fatima')", "0044812"),
    ],
    counter_examples: &[
        "order 4482913",
        "MRN pending",
        "room 4482913",
        "MRN 12-3",
        "unit 4482913",
        "patient no. 5 of the trial",
    ],
    ..PatternSpec::BASE
};

/// A bare `ID:` and a number in a clinical record: `ID: 33-412-9087`, `ID# 4471209`
/// (i2b2's other identifiers). The same number grammar as [`MEDICAL_RECORD_NUMBER`], but
/// "ID" alone is also a log's own join key (`ID: 1234567` of a request), so it stays
/// under the threshold unless a record's words stand near it (`dob`, `acct`, `m.d.`,
/// `admitted`). Capitals only: a lower-case `id` is a field name.
pub(super) const CLINICAL_ID: PatternSpec = PatternSpec {
    name: "clinical_id",
    label: "MEDICAL_RECORD_NUMBER",
    regex: concat!(r"(?x)\bID\s*(?:[:\#]|[Nn]o\.?)\s*", record_number!()),
    group: 1,
    score: 0.3,
    context: &[
        "patient",
        "pt",
        "mrn",
        "dob",
        "acct",
        "account",
        "room",
        "admitted",
        "discharged",
        "attending",
        "md",
        "m.d.",
        "physician",
        "hospital",
        "clinic",
        "record",
        "unit no",
    ],
    examples: &[
        (
            "Signed by: N. LACROIX, M.D. on 11/17/2088\nID: 33-412-9087  Acct#: 000441298",
            "33-412-9087",
        ),
        ("NAME: Upton, Quinn  DOB: 4/9/41  ID# 4471209", "4471209"),
    ],
    counter_examples: &[
        "request ID: 1234567 completed in 12 ms",
        "job id: 4471209",
        "ID: 12-3",
    ],
    ..PatternSpec::BASE
};

/// A health plan beneficiary, insurance member or policy number after its cue (`Health
/// plan ID 4492-118-09`, `Member ID: XQH448821903`, `policy no. AB-1234567`): one of
/// HIPAA's eighteen identifiers, numbered by each insurer its own way, so only the cue
/// tells (the regex enforces it) and the cue fixes the span (`Grammar`). At least four
/// digits: "member id pending" is no number. A payer's abbreviation between cue and
/// number is left out of the span, and a payer's name may stand between "Insurance:" and
/// its "ID".
pub(super) const HEALTH_PLAN_NUMBER: PatternSpec = PatternSpec {
    name: "health_plan_number",
    label: "HEALTH_PLAN_NUMBER",
    regex: r"(?ix)
        \b(?: health\s+plan(?:\s+(?:id|no\.?|number|\#))?
            | (?:member|insurance|ins\.?|subscriber|policy|beneficiary|medicaid|medi-cal)
              \s+(?:id|no\.?|number|\#)
            | (?:insurance|insurer|ins\.?|payer|coverage|health\s+plan)   # Insurance: BCBS ID …
              \s*:\s*
              (?-i:[A-Z][A-Za-z&]{1,12})(?:\s+(?-i:[A-Z][A-Za-z&]{1,12}))?
              \s+(?:member\s+)?(?:id|no\.?|number|\#) )
        \s*[:\#]?\s*
        (?:(?-i:[A-Z]{2,6})\s+)?          # the payer's abbreviation: BCBS 88301934-02
        ([A-Z0-9][A-Z0-9\-]{4,18}[A-Z0-9])\b",
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(four_digits),
    negative_context: &[],
    examples: &[
        ("cc: RN; Health plan ID 4492-118-09; Acct", "4492-118-09"),
        ("Ins ID: XQH448821903", "XQH448821903"),
        ("Member ID JXW123456789 on file", "JXW123456789"),
        ("policy no. AB-1234567 lapsed", "AB-1234567"),
        ("Health plan ID: BCBS 88301934-02.", "88301934-02"),
        (
            "Insurance: BCBS ID XGH449021775, group 004471",
            "XGH449021775",
        ),
        ("Payer: Blue Cross member ID W22841907", "W22841907"),
        ("Health plan: BCBS MA ID XKD44918221.", "XKD44918221"),
        ("Medicaid ID 12345678901 on file", "12345678901"),
    ],
    counter_examples: &[
        "member id pending review",
        "insurance id 12",
        "policy number changes",
        "Insurance: Aetna ID card requested",
    ],
    ..PatternSpec::BASE
};

/// A laboratory's or a visit's number after its cue: `Specimen accession S22-04819`,
/// `Accession #: 2291-77-0045`, `encounter no. 88210394`, `requisition 40019385`. Per
/// hospital, like record numbers, so the same label; letters allowed, at least four
/// digits. "visit", "encounter" and "lab" need their "id"/"no."/"#" ("visit 2 weeks").
pub(super) const ACCESSION_NUMBER: PatternSpec = PatternSpec {
    name: "accession_number",
    label: "MEDICAL_RECORD_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?: (?:specimen\s+)?accession(?:\s+(?:id|no\.?|number|\#))?
            | requisition(?:\s+(?:no\.?|number|\#))?
            | (?:specimen|encounter|visit|lab)\s+(?:id|no\.?|number|\#) )",
        cued_value!()
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(four_digits),
    negative_context: &[],
    examples: &[
        ("Specimen accession S22-04819.", "S22-04819"),
        ("Accession #: 2291-77-0045", "2291-77-0045"),
        ("encounter no. 88210394", "88210394"),
        ("requisition 40019385 sent", "40019385"),
    ],
    counter_examples: &[
        "visit 2 weeks",
        "accession pending",
        "encounter 12345",
        "lab 4021",
    ],
    ..PatternSpec::BASE
};

fn four_digits(s: &str) -> bool {
    s.bytes().filter(u8::is_ascii_digit).count() >= 4
}

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

/// The reference initials under a dictated letter, `JXY/rrm`: the dictating physician's
/// in capitals, the transcriptionist's in lower case. Two people's initials; the layout
/// is also an abbreviation's ("TCP/ip"), so only beside the dictation's own words
/// (`Dictated by`, `D:`, `T:`, `cc:`).
pub(super) const DICTATION_INITIALS: PatternSpec = PatternSpec {
    name: "dictation_initials",
    label: "PERSON",
    regex: r"\b[A-Z]{2,4}/[a-z]{2,4}\b",
    score: 0.3,
    context: &["dictated", "transcribed", "dictation", "d:", "t:", "cc:"],
    examples: &[(
        "Dictated by: Jennifer X. Yao, MD JXY/rrm #774211 D: 03/02/2024",
        "JXY/rrm",
    )],
    counter_examples: &["set TCP/ip options", "JXY/rrm"],
    ..PatternSpec::BASE
};

/// A patient's room or bed after its cue: `Room: 14-B`, `rm 612`, `bed 4A`, `RM 3-12`,
/// `room 4.12`.
/// Where a patient lies is one of the places a record names (i2b2 marks rooms), and no
/// other pattern reads a short number. Digits first, at most four, with a letter or a
/// dashed part after them: "room temperature", "room for 2" and a record number after
/// "room" stay out. The cue fixes the span (`Grammar`).
pub(super) const ROOM: PatternSpec = PatternSpec {
    name: "room",
    label: "LOCATION",
    regex: r"(?ix)
        \b(?: room | rm\.? | bed ) (?:\s+(?:no\.?|number|\#))?
        \s*[:\#]?\s*
        (\d{1,4}(?:-?[A-Z]{1,2}|[-.]\d{1,3})?)\b",
    group: 1,
    score: 0.6,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("ID: 33-412-9087  Room: 14-B", "14-B"),
        ("admitted to 6B, rm 612 overnight", "612"),
        ("moved to bed 4A at 0300", "4A"),
        ("RM 3-12", "3-12"),
        ("1:1 with Carlos in room 4.12, then lunch", "4.12"),
    ],
    counter_examples: &[
        "at room temperature",
        "room 4482913",
        "bedside",
        "bed rest",
        "a room with 2 beds",
    ],
    ..PatternSpec::BASE
};
