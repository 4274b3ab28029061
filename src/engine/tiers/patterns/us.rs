//! United States identifiers. The weak ones (passport, driver licence, bare nine digits)
//! are context-gated: without a supporting word they stay under the 0.5 default.

use crate::engine::validators::{dea, luhn, ssn};
use crate::engine::{PatternSpec, Proof};

const SSN_CONTEXT: &[&str] = &[
    "ssn",
    "ssn#",
    "social security",
    "social security number",
    "social sec",
    "ss#",
    "ss no",
];

/// SSN written 3-2-4 with dashes or spaces; the SSA rules reject never-issued numbers.
pub(super) const US_SSN: PatternSpec = PatternSpec {
    name: "us_ssn",
    label: "US_SSN",
    regex: r"\b\d{3}-\d{2}-\d{4}\b|\b\d{3} \d{2} \d{4}\b",
    score: 0.6,
    validate: Some(ssn::ssn),
    context: SSN_CONTEXT,
    examples: &[
        ("my ssn is 536-22-1234", "536-22-1234"),
        ("SSN: 536 22 1234", "536 22 1234"),
    ],
    counter_examples: &["id 000-22-1234", "ref 666-12-3456", "invoice 536-22-1234"],
    ..PatternSpec::BASE
};

/// An SSN right after its cue (`SSN 123-45-6789`, `social security number is
/// 078-05-1120`): the writer says it is one, so the numbers that [`ssn::ssn`] leaves out
/// as well-known examples (the SSA's leaflet number, the wallet insert's) are taken too;
/// a test record or a demo that writes them still has them masked. Never-issued areas,
/// groups and serials stay out.
pub(super) const US_SSN_CUED: PatternSpec = PatternSpec {
    name: "us_ssn_cued",
    label: "US_SSN",
    regex: concat!(
        r"(?ix)\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|\#))?)",
        copula!(),
        r"\s*[:\#]?\s*(\d{3}-\d{2}-\d{4}|\d{3}\s\d{2}\s\d{4}|\d{9})\b"
    ),
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    validate: Some(ssn::issuable),
    negative_context: &[],
    examples: &[
        ("My SSN is 123-45-6789.", "123-45-6789"),
        ("Social Security Number: 078-05-1120", "078-05-1120"),
        ("SSN 536221234", "536221234"),
    ],
    counter_examples: &["SSN 000-12-3456", "SSN: 666-12-3456", "SSN 123-45-67890"],
    ..PatternSpec::BASE
};

/// A bare nine-digit SSN: only with context.
pub(super) const US_SSN_BARE: PatternSpec = PatternSpec {
    name: "us_ssn_bare",
    label: "US_SSN",
    regex: r"\b\d{9}\b",
    score: 0.3,
    validate: Some(ssn::ssn),
    context: SSN_CONTEXT,
    examples: &[("social security number 536221234", "536221234")],
    counter_examples: &["customer 536221234"],
    ..PatternSpec::BASE
};

/// ITIN: 9xx-7x-xxxx (IRS ranges).
pub(super) const US_ITIN: PatternSpec = PatternSpec {
    name: "us_itin",
    label: "US_ITIN",
    regex: r"\b9\d{2}[- ]\d{2}[- ]\d{4}\b",
    score: 0.6,
    validate: Some(ssn::itin),
    context: &["itin", "taxpayer", "tax id", "tin"],
    examples: &[("ITIN 912-70-1234", "912-70-1234")],
    counter_examples: &["912-93-1234 was it", "912 70 123 units"],
    ..PatternSpec::BASE
};

/// ITIN written as nine bare digits, as forms and exports hold it: any 9-digit number
/// starting with 9 can fall in the IRS ranges, so context decides in the default set;
/// the ranges are the ITIN's whole grammar, so a caller who names the label gets it.
pub(super) const US_ITIN_BARE: PatternSpec = PatternSpec {
    name: "us_itin_bare",
    label: "US_ITIN",
    regex: r"\b9\d{8}\b",
    score: 0.3,
    validate: Some(ssn::itin),
    proof: Proof::Grammar,
    context: &["itin", "taxpayer", "tax id", "tin"],
    examples: &[("ITIN: 912701234", "912701234")],
    counter_examples: &["order 912701234", "ITIN: 912931234", "912701234"],
    ..PatternSpec::BASE
};

/// US passport: nine digits or a letter and eight digits (Next Generation passports).
pub(super) const US_PASSPORT: PatternSpec = PatternSpec {
    name: "us_passport",
    label: "US_PASSPORT",
    regex: r"\b(?:[A-Z]\d{8}|\d{9})\b",
    score: 0.2,
    context: &[
        "passport",
        "passport no",
        "passport number",
        "passport#",
        "travel document",
    ],
    examples: &[
        ("passport no. A12345678", "A12345678"),
        ("Passport: 912345678", "912345678"),
    ],
    counter_examples: &["order A12345678", "912345678"],
    ..PatternSpec::BASE
};

/// A US passport number right after its cue (`my passport number is 533380006`,
/// `Passport#: C03005988`): the writer says what it is, so it wins against the bare
/// nine-digit SSN reading that an "SSN" earlier in the sentence supports ("My SSN is
/// 078-05-1120 and my passport number is 533380006").
pub(super) const US_PASSPORT_CUED: PatternSpec = PatternSpec {
    name: "us_passport_cued",
    label: "US_PASSPORT",
    regex: concat!(
        r"(?ix)\bpassport(?:\s*(?:number|no\.?|\#))?",
        copula!(),
        r"\s*[:\#]?\s*((?-i:[A-Z])\d{8}|\d{9})\b"
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    negative_context: &[],
    // Its cue and copula in the shared set would make the set's DFA give up.
    prefilter: Some(r"(?i)passport"),
    examples: &[
        (
            "My SSN is 078-05-1120 and my passport number is 533380006.",
            "533380006",
        ),
        ("Passport#: C03005988", "C03005988"),
    ],
    counter_examples: &["passport photo 123456789x", "passport number pending"],
    ..PatternSpec::BASE
};

/// Driver licence numbers differ by state (1 letter + 4–14 digits, 7–9 digits, Florida's
/// `S123-456-78-901-0`, Illinois' `S123-4567-8901`, Michigan's `S 123 456 789 012`);
/// only an explicit licence phrase nearby lets one through. Presidio's users report its
/// ungated version as its worst false-positive source. Other dashed groups after a
/// letter are read whole, so no piece of them is left in the clear.
pub(super) const US_DRIVER_LICENSE: PatternSpec = PatternSpec {
    name: "us_driver_license",
    label: "US_DRIVER_LICENSE",
    // Dashed and spaced forms first: the plain one would stop at the first dash.
    regex: r"\b(?:[A-Z]\d{3}-\d{3}-\d{2}-\d{3}-\d|[A-Z]\d{3,5}(?:-\d{3,5}){1,3}|[A-Z] \d{3} \d{3} \d{3} \d{3}|[A-Z]{1,2}\d{4,14}|\d{7,9})\b",
    score: 0.15,
    context: &[
        "driver's license",
        "drivers license",
        "driver license",
        "driver licence",
        "driving licence",
        "driving license",
        "dl",
        "dl#",
        "dl no",
        "license number",
        "licence number",
        "lic#",
        "dln",
    ],
    examples: &[
        ("driver's license D1234567", "D1234567"),
        (
            "Illinois driver's license S123-4567-8901 expires",
            "S123-4567-8901",
        ),
        ("driver license S 123 456 789 012", "S 123 456 789 012"),
        ("driver's license D1234-56789-01234", "D1234-56789-01234"),
    ],
    counter_examples: &["flight D1234567", "MIT license 1234567"],
    ..PatternSpec::BASE
};

/// National Provider Identifier: 10 digits, Luhn over `80840` + number.
pub(super) const US_NPI: PatternSpec = PatternSpec {
    name: "us_npi",
    label: "US_NPI",
    regex: r"\b[12]\d{9}\b",
    score: 0.4,
    validate: Some(luhn::npi),
    proof: Proof::Checksum,
    context: &[
        "npi",
        "provider",
        "national provider",
        "prescriber",
        "physician",
    ],
    examples: &[("NPI 1234567893", "1234567893")],
    counter_examples: &["NPI 1234567890", "ticket 1234567893"],
    ..PatternSpec::BASE
};

const MBI_CONTEXT: &[&str] = &[
    "mbi",
    "medicare beneficiary identifier",
    "medicare number",
    "medicare id",
    "medicare",
    "hicn",
];

/// Medicare Beneficiary Identifier with its dashes `1EG4-TE5-MK73` (CMS "MBI format":
/// positions fixed to digits, letters without S L O I B Z, or either). Found without
/// context, as in Presidio (0.5 there): the dashed layout is the MBI's own (dev sets:
/// 0 new detections). It has no check digit.
pub(super) const US_MBI: PatternSpec = PatternSpec {
    name: "us_mbi",
    label: "US_MBI",
    regex: r"(?x)
        \b[1-9][AC-HJKMNPQRT-Y][AC-HJKMNPQRT-Y0-9]\d    # C A AN N
        -[AC-HJKMNPQRT-Y][AC-HJKMNPQRT-Y0-9]\d          # A AN N
        -[AC-HJKMNPQRT-Y]{2}\d{2}\b                     # A A N N",
    score: 0.5,
    context: MBI_CONTEXT,
    examples: &[
        ("Medicare MBI 1EG4-TE5-MK73", "1EG4-TE5-MK73"),
        ("1EG4-TE5-MK73", "1EG4-TE5-MK73"),
    ],
    counter_examples: &["1EG4-TS5-MK73", "invoice 1EG4-TE5-MK73"],
    ..PatternSpec::BASE
};

/// An MBI without dashes: eleven characters that could be other codes; context-gated.
pub(super) const US_MBI_COMPACT: PatternSpec = PatternSpec {
    name: "us_mbi_compact",
    label: "US_MBI",
    regex: r"\b[1-9][AC-HJKMNPQRT-Y][AC-HJKMNPQRT-Y0-9]\d[AC-HJKMNPQRT-Y][AC-HJKMNPQRT-Y0-9]\d[AC-HJKMNPQRT-Y]{2}\d{2}\b",
    score: 0.3,
    context: MBI_CONTEXT,
    examples: &[("MBI: 1EG4TE5MK73", "1EG4TE5MK73")],
    counter_examples: &["1EG4TE5MK73"],
    ..PatternSpec::BASE
};

/// DEA registration number `AB1234563` (Presidio's MEDICAL_LICENSE). Context-gated,
/// unlike Presidio: two letters and seven digits is also a UK passport's or an Italian
/// document's shape, and 1 in 10 pass the DEA check.
pub(super) const MEDICAL_LICENSE: PatternSpec = PatternSpec {
    name: "medical_license",
    label: "MEDICAL_LICENSE",
    regex: r"\b[ABCDEFGHJKLMPRSTUX][A-Z9]\d{7}\b",
    score: 0.3,
    validate: Some(dea::dea),
    proof: Proof::Checksum,
    context: &[
        "dea",
        "dea number",
        "dea#",
        "dea no",
        "medical license",
        "medical licence",
        "prescriber",
        "controlled substance",
    ],
    examples: &[("DEA# AB1234563", "AB1234563")],
    counter_examples: &["AB1234563", "DEA AB1234564"],
    ..PatternSpec::BASE
};
