//! Asia-Pacific and Canadian identifiers (India's and Korea's others have their own
//! files).

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

/// India's PAN follows a whole grammar: three letters, the holder's kind (P person, C
/// company, H, F, A, T, B, L, J, G), an initial, four digits (not 0000) and a check letter
/// whose algorithm is unpublished. So its span is exact, and a model's name over "PAN
/// ABCPE1234F" does not take it.
pub(super) const IN_PAN: PatternSpec = PatternSpec {
    name: "in_pan",
    label: "IN_PAN",
    regex: r"\b[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]\b",
    score: 0.75,
    validate: Some(apac::in_pan),
    proof: Proof::Grammar,
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

const ABN_CONTEXT: &[&str] = &["abn", "australian business number"];

/// ABN written in its 2-3-3-3 groups (`51 824 753 556`): context-free, as in Presidio.
/// The mod-89 check passes 1 in 89; the groups keep phone numbers out, and a `+` right
/// before (`+61 412 …`) is refused so an Australian phone number is never an ABN
/// (dev sets: 0 new detections).
pub(super) const AU_ABN: PatternSpec = PatternSpec {
    name: "au_abn",
    label: "AU_ABN",
    regex: r"(?:^|[^+\w])(\d{2} \d{3} \d{3} \d{3})\b",
    group: 1,
    score: 0.6,
    validate: Some(apac::au_abn),
    proof: Proof::Checksum,
    context: ABN_CONTEXT,
    examples: &[("Pty Ltd, 51 824 753 556", "51 824 753 556")],
    counter_examples: &[
        "51 824 753 557",
        "call +51 824 753 556",
        "invoice 51 824 753 556",
    ],
    ..PatternSpec::BASE
};

/// A bare ABN: eleven digits; context-gated (ordinary-number set: `eval/README.md`, "Ordinary numbers").
pub(super) const AU_ABN_BARE: PatternSpec = PatternSpec {
    name: "au_abn_bare",
    label: "AU_ABN",
    regex: r"\b\d{11}\b",
    score: 0.3,
    validate: Some(apac::au_abn),
    proof: Proof::Checksum,
    context: ABN_CONTEXT,
    examples: &[("ABN: 51824753556", "51824753556")],
    counter_examples: &["51824753556", "ABN 51824753557"],
    ..PatternSpec::BASE
};

/// ACN `004 085 616`: nine digits with a 1-in-10 check, the layout of a TFN or SIN;
/// context-gated (Presidio scores every check-valid one 1.0).
pub(super) const AU_ACN: PatternSpec = PatternSpec {
    name: "au_acn",
    label: "AU_ACN",
    regex: r"\b\d{3}[ \-]?\d{3}[ \-]?\d{3}\b",
    score: 0.3,
    validate: Some(apac::au_acn),
    proof: Proof::Checksum,
    context: &["acn", "australian company number"],
    examples: &[("ACN 004 085 616", "004 085 616")],
    counter_examples: &["004 085 616", "ACN 004 085 617"],
    ..PatternSpec::BASE
};

/// UEN `53312345C`, `201912345R`, `T09LL0001D`: context-free, as in Presidio. Digits
/// ending in a check letter from an 11-letter table are not an ordinary number's shape
/// (dev sets: 0 new detections).
pub(super) const SG_UEN: PatternSpec = PatternSpec {
    name: "sg_uen",
    label: "SG_UEN",
    regex: r"\b\d{8,9}[A-Z]\b|\b[TSR]\d{2}[A-Z]{2}\d{4}[A-Z]\b",
    score: 0.6,
    validate: Some(apac::sg_uen),
    proof: Proof::Checksum,
    context: &[
        "uen",
        "unique entity number",
        "acra",
        "business registration",
    ],
    examples: &[
        ("UEN 53312345C", "53312345C"),
        ("company 201912345R", "201912345R"),
        ("society T09LL0001D", "T09LL0001D"),
    ],
    counter_examples: &["53312345D", "invoice 201912345R", "T09QQ0001D"],
    ..PatternSpec::BASE
};

/// Thai words are three bytes a letter: only short ones fit the context window.
const TNIN_CONTEXT: &[&str] = &[
    "thai national id",
    "thai id",
    "tnin",
    "เลขบัตรประชาชน",
    "บัตรประชาชน",
];

/// Thai national id in its printed groups `1-1017-00203-09-3`: context-free, as in
/// Presidio (the 1-4-5-2-1 groups and mod-11 check; dev sets: 0 new detections).
pub(super) const TH_TNIN: PatternSpec = PatternSpec {
    name: "th_tnin",
    label: "TH_TNIN",
    regex: r"\b[1-8][\s\-]\d{4}[\s\-]\d{5}[\s\-]\d{2}[\s\-]\d\b",
    score: 0.6,
    validate: Some(apac::th_tnin),
    proof: Proof::Checksum,
    context: TNIN_CONTEXT,
    examples: &[("Thai ID 1-1017-00203-09-3", "1-1017-00203-09-3")],
    counter_examples: &["1-1017-00203-09-4", "invoice 1-1017-00203-09-3"],
    ..PatternSpec::BASE
};

/// Thai national id as 13 bare digits: context-gated, unlike Presidio, because
/// millisecond timestamps (`17…`) share its first digits and pass 1 in 11 (ordinary-number
/// set: `eval/README.md`, "Ordinary numbers").
pub(super) const TH_TNIN_BARE: PatternSpec = PatternSpec {
    name: "th_tnin_bare",
    label: "TH_TNIN",
    regex: r"\b[1-8]\d{12}\b",
    score: 0.3,
    validate: Some(apac::th_tnin),
    proof: Proof::Checksum,
    context: TNIN_CONTEXT,
    examples: &[("บัตรประชาชน 1101700203093", "1101700203093")],
    counter_examples: &["1101700203093", "TNIN 1101700203094"],
    ..PatternSpec::BASE
};

/// Philippine TIN `123-456-782(-000)`: the 3-3-3 layout of other numbers and a check
/// Presidio itself only uses to reject; context-gated.
pub(super) const PH_TIN: PatternSpec = PatternSpec {
    name: "ph_tin",
    label: "PH_TIN",
    regex: r"\b\d{3}-\d{3}-\d{3}(?:-\d{3,5})?\b",
    score: 0.3,
    validate: Some(apac::ph_tin),
    proof: Proof::Checksum,
    context: &["tin", "tax identification number", "bir", "taxpayer"],
    examples: &[
        ("BIR TIN 123-456-782", "123-456-782"),
        ("TIN: 123-456-782-000", "123-456-782-000"),
    ],
    counter_examples: &["123-456-782", "TIN 123-456-783"],
    ..PatternSpec::BASE
};

/// Chinese resident identity number: 18 characters with the holder's birth date inside
/// and a MOD 11-2 check character (`11010519491231002X`). Context-free: a random
/// 18-digit number passes the region digit, a 19xx/20xx date and the check about once in
/// 20,000, and Chinese context words are glued to the words around them ("我的身份证号"),
/// where a whole-word context match cannot see them.
pub(super) const CN_RESIDENT_ID: PatternSpec = PatternSpec {
    name: "cn_resident_id",
    label: "CN_RESIDENT_ID",
    regex: r"\b[1-8]\d{16}[\dXx]\b",
    score: 0.6,
    validate: Some(apac::cn_resident_id),
    proof: Proof::Checksum,
    context: &[
        "身份证",
        "身份证号",
        "身份证号码",
        "resident id",
        "chinese id",
    ],
    examples: &[
        ("我的身份证号是11010519491231002X。", "11010519491231002X"),
        ("ID 11010519491231002X", "11010519491231002X"),
    ],
    counter_examples: &["110105194912310021", "order 110105194913310029"],
    ..PatternSpec::BASE
};

/// Japanese individual number (マイナンバー) after its cue: twelve digits, run together or
/// in groups of four, with a check digit. A twelve-digit number passes the check one time
/// in eleven, so the cue (`マイナンバー`, `個人番号`, `My Number`) is required, and it fixes
/// the span; without word boundaries in Japanese text, the number's edges are spelled out.
pub(super) const JP_MY_NUMBER: PatternSpec = PatternSpec {
    name: "jp_my_number",
    label: "JP_MY_NUMBER",
    regex: r"(?:マイナンバー|個人番号|(?i:my\s?number))[^0-9\n]{0,8}?([0-9]{4}[\ \-]?[0-9]{4}[\ \-]?[0-9]{4})(?:$|[^0-9])",
    group: 1,
    score: 0.95,
    validate: Some(apac::jp_my_number),
    proof: Proof::Checksum,
    negative_context: &[],
    examples: &[
        ("マイナンバー：1234 5678 9018を提出", "1234 5678 9018"),
        ("個人番号は402135798640です", "402135798640"),
        ("My Number 123456789018", "123456789018"),
    ],
    counter_examples: &["マイナンバー：123456789017", "注文番号123456789018"],
    ..PatternSpec::BASE
};
