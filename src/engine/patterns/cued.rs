//! Identifiers with no format of their own: a device's serial number and a vehicle's
//! plate (of any country) are whatever their maker or registry chose, so only the cue in
//! front of them tells. Both are among HIPAA's eighteen Safe Harbor identifiers ("device
//! identifiers and serial numbers", "vehicle identifiers … including license plate
//! numbers"). The regex requires the cue (an IMEI also has its Luhn digit). A serial's
//! cue fixes its span (`Grammar`), as for medical record numbers; a plate stays a guess
//! below the plate formats we can check (UK, TR, IN, …), which keep their own labels
//! where both read the same plate.

use crate::engine::validators::luhn;
use crate::engine::{PatternSpec, Proof};

/// A device's serial number or identifier after its cue: `Serial No: 4471-A92`, `S/N
/// C02XG0JGJG5J`, `pacemaker serial PJN882114H`, `serial SN 4471-A92`. Letters, digits
/// and inner dashes or slashes, with at least two digits ("serial number unknown" and
/// "S/N ratio" are no number).
pub(super) const DEVICE_ID: PatternSpec = PatternSpec {
    name: "device_id",
    label: "DEVICE_ID",
    regex: r"(?ix)
        (?: \b(?: serial(?:\s*(?:number|no\.?|num|\#))? | s/n | sn | udi
              | device\s+(?:id|identifier|serial) )
            (?:\s*[:\#]\s*|\s+) )+
        ((?-i:[A-Z0-9])[A-Za-z0-9]*(?:[\-/][A-Za-z0-9]+){0,4})\b",
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(serial_shaped),
    negative_context: &[],
    examples: &[
        ("Device serial SN 4471-A92 explanted", "4471-A92"),
        ("Pacemaker serial PJN882114H checked", "PJN882114H"),
        ("S/N: C02XG0JGJG5J", "C02XG0JGJG5J"),
        ("Serial No. 88-1123-B", "88-1123-B"),
    ],
    counter_examples: &[
        "serial number unknown",
        "the serial port 1",
        "S/N ratio of 40 dB",
        "Serial 7",
        "serial killer",
        "id SN6780720 ok",
    ],
    ..PatternSpec::BASE
};

/// A phone's IMEI after its cue: fifteen digits (`AA-BBBBBB-CCCCCC-D` as printed) with a
/// Luhn check digit. Card numbers are Luhn numbers too, so the cue decides: a checked
/// IMEI outranks the card reading of the same digits (higher score, same proof).
pub(super) const IMEI: PatternSpec = PatternSpec {
    name: "imei",
    label: "DEVICE_ID",
    regex: r"(?i)\bimei\s*(?:number|no\.?|\#)?\s*[:\#]?\s*(\d{2}[\s\-]?\d{6}[\s\-]?\d{6}[\s\-]?\d)\b",
    group: 1,
    score: 0.95,
    proof: Proof::Checksum,
    validate: Some(luhn::is_valid),
    negative_context: &[],
    examples: &[
        ("IMEI 490154203237518 reported stolen", "490154203237518"),
        ("IMEI: 35-209900-176148-1", "35-209900-176148-1"),
    ],
    counter_examples: &["IMEI 490154203237519", "imei unknown"],
    ..PatternSpec::BASE
};

/// A vehicle plate after its cue: `License plate 4TYK982`, `plate no. KA-04-8812`,
/// `Reg. no: WX 4421`. One to three groups of capitals and digits (two to eight in all),
/// at least one digit: "license plate stolen" is none. A guess (score 0.52, no proof):
/// where a country's checked format reads the same plate, its label wins.
pub(super) const LICENSE_PLATE: PatternSpec = PatternSpec {
    name: "license_plate",
    label: "LICENSE_PLATE",
    regex: r"(?ix)
        \b(?: licen[cs]e\s+plate(?:\s+(?:number|no\.?|\#))? | number\s+plate
            | plate\s+(?:number|no\.?|\#) | registration\s+(?:plate|mark|number)
            | tag\s+number | reg\.?\s+no\.? | vehicle\s+registration )
        \s*[:\#]?\s*
        ((?-i:[A-Z0-9]{1,8}(?:[\ \-][A-Z0-9]{1,4}){0,2}))\b",
    group: 1,
    score: 0.52,
    validate: Some(plate_shaped),
    negative_context: &[],
    examples: &[
        ("License plate 4TYK982 seen leaving", "4TYK982"),
        ("plate no. KA-04-8812", "KA-04-8812"),
        ("Reg. no: WX 4421", "WX 4421"),
        ("Tag number: 7ABC123", "7ABC123"),
    ],
    counter_examples: &[
        "license plate stolen",
        "registration number pending",
        "number plate ABCD",
        "registration mark 1",
    ],
    ..PatternSpec::BASE
};

fn serial_shaped(s: &str) -> bool {
    s.len() >= 4 && s.bytes().filter(u8::is_ascii_digit).count() >= 2
}

fn plate_shaped(s: &str) -> bool {
    let alnum = s.bytes().filter(u8::is_ascii_alphanumeric).count();
    (2..=8).contains(&alnum) && s.bytes().any(|b| b.is_ascii_digit())
}
