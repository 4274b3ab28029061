//! Indian identifiers beyond PAN and Aadhaar (which live in `apac.rs`).

use crate::engine::validators::india;
use crate::engine::{PatternSpec, Proof};

/// GSTIN `27AAPFU0939F1ZV`: context-free, as in Presidio. State code, an embedded PAN,
/// the `Z` and a mod-36 check character leave nothing ordinary (dev sets: 0 new
/// detections).
pub(super) const IN_GSTIN: PatternSpec = PatternSpec {
    name: "in_gstin",
    label: "IN_GSTIN",
    regex: r"\b\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]Z[0-9A-Z]\b",
    score: 0.65,
    validate: Some(india::in_gstin),
    proof: Proof::Checksum,
    context: &["gstin", "gst", "gst number", "goods and services tax"],
    examples: &[
        ("GSTIN: 27AAPFU0939F1ZV", "27AAPFU0939F1ZV"),
        ("billed to 29AAGCB7383J1Z4", "29AAGCB7383J1Z4"),
    ],
    counter_examples: &["27AAPFU0939F1ZW", "45AAPFU0939F1ZV"],
    ..PatternSpec::BASE
};

/// Indian passport `J8369854`: a letter and seven digits, no check; context-gated.
pub(super) const IN_PASSPORT: PatternSpec = PatternSpec {
    name: "in_passport",
    label: "IN_PASSPORT",
    regex: r"\b[A-Z][1-9]\d\s?\d{4}[1-9]\b",
    score: 0.25,
    context: &[
        "passport",
        "indian passport",
        "passport number",
        "passport no",
    ],
    examples: &[("passport no J8369854", "J8369854")],
    counter_examples: &["flight J8369854"],
    ..PatternSpec::BASE
};

/// Vehicle registration `MH 12 AB 1234`, `22 BH 1234 AA`. Context-free, as in Presidio:
/// a known state code and RTO district in this order is rare outside plates (dev sets:
/// 0 new detections), though it is a structure check, not a checksum.
pub(super) const IN_VEHICLE_REGISTRATION: PatternSpec = PatternSpec {
    name: "in_vehicle_registration",
    label: "IN_VEHICLE_REGISTRATION",
    regex: r"(?x)
        \b[A-Z]{2}[\s\-]?\d{1,2}[\s\-]?(?:[A-Z]{1,3}[\s\-]?){1,2}\d{4}\b   # state, district, series
      | \b\d{2}[\s\-]?BH[\s\-]?\d{4}[\s\-]?[A-Z]{1,2}\b                   # Bharat series",
    score: 0.55,
    validate: Some(india::in_vehicle),
    context: &["vehicle", "registration", "rto", "number plate", "car"],
    examples: &[
        ("car MH 12 AB 1234", "MH 12 AB 1234"),
        ("DL 3C AB 1234", "DL 3C AB 1234"),
        ("22 BH 1234 AA", "22 BH 1234 AA"),
    ],
    counter_examples: &["XX 12 AB 1234", "MH 00 AB 1234", "version MH 12 AB 1234"],
    ..PatternSpec::BASE
};

/// Voter id (EPIC) `ABC1234567`: no check; context-gated.
pub(super) const IN_VOTER: PatternSpec = PatternSpec {
    name: "in_voter",
    label: "IN_VOTER",
    regex: r"\b[A-Z]{3}\d{7}\b",
    score: 0.3,
    context: &["voter", "voter id", "epic", "elector", "electoral"],
    examples: &[("voter id ABC1234567", "ABC1234567")],
    counter_examples: &["sku ABC1234567", "ABC1234567"],
    ..PatternSpec::BASE
};

/// An Indian city or state with its six-digit PIN code (`Mumbai 400069`, `Bengaluru -
/// 560001`, `Karnataka 560038`), or a PIN after its cue (`Pincode: 560038`; a bare "PIN"
/// is a secret's, `PASSWORD`): the tail of an Indian address, which names a locality of a
/// few thousand people. Six digits alone are counts, amounts and order numbers, so the
/// city, the state or the cue is required (the regex enforces it), and it fixes the span
/// (`Grammar`).
pub(super) const IN_CITY_PIN: PatternSpec = PatternSpec {
    name: "in_city_pin",
    label: "ADDRESS",
    regex: r"(?x)
        \b((?:Mumbai|Bombay|New\ Delhi|Delhi|Bengaluru|Bangalore|Chennai|Madras|Kolkata
            |Calcutta|Hyderabad|Secunderabad|Pune|Ahmedabad|Jaipur|Lucknow|Kanpur|Nagpur
            |Indore|Bhopal|Patna|Vadodara|Ludhiana|Agra|Nashik|Surat|Thane|Navi\ Mumbai
            |Noida|Gurgaon|Gurugram|Ghaziabad|Faridabad|Coimbatore|Kochi|Cochin
            |Thiruvananthapuram|Trivandrum|Visakhapatnam|Vijayawada|Mysuru|Mysore|Mangaluru
            |Mangalore|Chandigarh|Dehradun|Guwahati|Bhubaneswar|Raipur|Ranchi|Amritsar
            |Varanasi|Panaji|Madurai|Maharashtra|Karnataka|Tamil\ Nadu|Kerala|Telangana
            |Andhra\ Pradesh|Gujarat|Rajasthan|Uttar\ Pradesh|West\ Bengal|Haryana|Punjab
            |Bihar|Odisha|Madhya\ Pradesh|Assam|Goa)\s?[-–,]?\s?[1-9]\d{2}\s?\d{3})\b
      | \b(?i:pin\s?code|postal\ code)\s*[:\-]?\s*([1-9]\d{2}\s?\d{3})\b",
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        (
            "Lotus Residency, Andheri East, Mumbai 400069.",
            "Mumbai 400069",
        ),
        (
            "22 MG Road, Bengaluru - 560001, Karnataka",
            "Bengaluru - 560001",
        ),
        ("Indiranagar, Bangalore 560038", "Bangalore 560038"),
        ("Pincode: 560038", "560038"),
        ("Salt Lake, Kolkata-700091", "Kolkata-700091"),
    ],
    counter_examples: &[
        "Mumbai recorded 400069 cases",
        "order 400069 shipped",
        "Pune 2023 report",
        "Delhi 0110001",
        "PIN: 482913",
    ],
    ..PatternSpec::BASE
};
