//! German identifiers beyond the Steuer-ID (which lives with the EU ones). Only those
//! with a letter-bearing or checksum-plus-date shape are found without context; bare
//! digit runs with a 1-in-10 check (LANR) or none (BSNR, postcodes) need a context word.

use crate::engine::validators::{de, icao, iso7064};
use crate::engine::{PatternSpec, Proof};

/// The nine-character alphabet of German document numbers, plus an optional MRZ check
/// digit.
const DE_DOCUMENT: &str = r"\b[CFGHJKLMNPRTVWXYZ][0-9CFGHJKLMNPRTVWXYZ]{8}\d?\b";

/// Personalausweis number. Context-gated: Presidio trusts a 7-3-1 check over the nine
/// printed characters, but the printed number carries none (see `validators/icao.rs`),
/// so nothing but context separates it from other nine-character codes.
pub(super) const DE_ID_CARD: PatternSpec = PatternSpec {
    name: "de_id_card",
    label: "DE_ID_CARD",
    regex: DE_DOCUMENT,
    score: 0.3,
    validate: Some(icao::de_document),
    context: &[
        "personalausweis",
        "personalausweisnummer",
        "ausweis",
        "ausweisnummer",
        "ausweis-nr",
        "personalausweis-nr",
        "identity card",
        "german id card",
    ],
    examples: &[
        ("Personalausweisnummer: L01X00T47", "L01X00T47"),
        ("alter Ausweis T220001293", "T220001293"),
    ],
    counter_examples: &["Ausweis T220001294", "build L01X00T47", "Ausweis LXXXXXXXX"],
    ..PatternSpec::BASE
};

/// Reisepass number: the same alphabet as the identity card, German context words only
/// (an English "passport" stays with the other passport types).
pub(super) const DE_PASSPORT: PatternSpec = PatternSpec {
    name: "de_passport",
    label: "DE_PASSPORT",
    regex: DE_DOCUMENT,
    score: 0.3,
    validate: Some(icao::de_document),
    context: &[
        "reisepass",
        "reisepassnummer",
        "passnummer",
        "pass-nr",
        "german passport",
    ],
    examples: &[("Reisepassnummer C01X00T47", "C01X00T47")],
    counter_examples: &["serial C01X00T47", "Reisepass 123456789"],
    ..PatternSpec::BASE
};

/// Rentenversicherungsnummer `65 170839 J 003`. Context-free, as in Presidio: a birth
/// date, a letter in the middle and the DRV check digit leave ordinary numbers out
/// (dev sets: 0 new detections).
pub(super) const DE_SOCIAL_SECURITY: PatternSpec = PatternSpec {
    name: "de_social_security",
    label: "DE_SOCIAL_SECURITY",
    regex: r"\b\d{2}\s?\d{6}\s?[A-Z]\s?\d{3}\b",
    score: 0.6,
    validate: Some(de::de_rvnr),
    proof: Proof::Checksum,
    context: &[
        "rentenversicherungsnummer",
        "sozialversicherungsnummer",
        "versicherungsnummer",
        "rvnr",
        "sv-nummer",
    ],
    examples: &[
        (
            "Rentenversicherungsnummer 65 170839 J 003",
            "65 170839 J 003",
        ),
        ("code 12150780M159", "12150780M159"),
    ],
    counter_examples: &["65170839J004", "invoice 65170839J003", "12345678A901"],
    ..PatternSpec::BASE
};

/// Krankenversichertennummer `A123456780`. Context-gated, unlike Presidio: one in ten
/// letter + nine digit codes (tickets, parts, bookings) passes its check.
pub(super) const DE_HEALTH_INSURANCE: PatternSpec = PatternSpec {
    name: "de_health_insurance",
    label: "DE_HEALTH_INSURANCE",
    regex: r"\b[A-Z]\d{9}\b",
    score: 0.3,
    validate: Some(de::de_kvnr),
    proof: Proof::Checksum,
    context: &[
        "krankenversichertennummer",
        "krankenversicherungsnummer",
        "versichertennummer",
        "kvnr",
        "krankenkasse",
        "gesundheitskarte",
        "egk",
    ],
    examples: &[("Versichertennummer A123456780", "A123456780")],
    counter_examples: &["booking A123456780", "KVNR A123456781"],
    ..PatternSpec::BASE
};

/// Steuernummer: the 13-digit ELSTER form or a slashed state form (`181/815/08155`). No
/// check digit is common to all states, so context decides.
pub(super) const DE_TAX_NUMBER: PatternSpec = PatternSpec {
    name: "de_tax_number",
    label: "DE_TAX_NUMBER",
    regex: r"\b[1-9]\d{12}\b|\b\d{2,3}/\d{3,4}/\d{4,5}\b",
    score: 0.3,
    context: &[
        "steuernummer",
        "steuer-nr",
        "steuer nr",
        "st.-nr",
        "st-nr",
        "finanzamt",
    ],
    examples: &[
        ("Steuernummer 181/815/08155", "181/815/08155"),
        ("Finanzamt, Steuernummer 9181081508155", "9181081508155"),
    ],
    counter_examples: &["ratio 181/815/08155", "0918108150815"],
    ..PatternSpec::BASE
};

/// USt-IdNr. `DE136459538`. Context-free, as in Presidio: the `DE` prefix and the
/// MOD 11,10 check leave ordinary numbers out (dev sets: 0 new detections).
pub(super) const DE_VAT_ID: PatternSpec = PatternSpec {
    name: "de_vat_id",
    label: "DE_VAT_ID",
    regex: r"\bDE[\s.\-]?\d{3}[\s.\-]?\d{3}[\s.\-]?\d{3}\b",
    score: 0.6,
    validate: Some(iso7064::de_vat_id),
    proof: Proof::Checksum,
    context: &["ust-idnr", "ust-id", "umsatzsteuer", "vat", "vat id"],
    examples: &[
        ("USt-IdNr.: DE136459538", "DE136459538"),
        ("supplier DE 136 459 538", "DE 136 459 538"),
    ],
    counter_examples: &["DE136459539", "invoice DE136459538"],
    ..PatternSpec::BASE
};

/// Lebenslange Arztnummer: nine digits with a 1-in-10 check, so context-gated (Presidio
/// scores every check-valid nine-digit number 1.0, a tenth of all order numbers).
pub(super) const DE_LANR: PatternSpec = PatternSpec {
    name: "de_lanr",
    label: "DE_LANR",
    regex: r"\b\d{9}\b",
    score: 0.25,
    validate: Some(de::de_lanr),
    proof: Proof::Checksum,
    context: &["lanr", "arztnummer", "arzt-nr", "lebenslange arztnummer"],
    examples: &[("LANR 123456601", "123456601")],
    counter_examples: &["LANR 123456701", "invoice 123456601", "123456601"],
    ..PatternSpec::BASE
};

/// Betriebsstättennummer: nine digits starting with a KV region code, no check digit.
pub(super) const DE_BSNR: PatternSpec = PatternSpec {
    name: "de_bsnr",
    label: "DE_BSNR",
    regex: r"\b\d{9}\b",
    score: 0.2,
    validate: Some(de::de_bsnr),
    context: &[
        "bsnr",
        "betriebsstättennummer",
        "betriebsstätte",
        "praxisnummer",
    ],
    examples: &[("BSNR 021234568", "021234568")],
    counter_examples: &["BSNR 041234568", "021234568"],
    ..PatternSpec::BASE
};

/// Führerscheinnummer (EU card format since 2013): authority code, eight digits, a
/// check character whose formula is unpublished; context-gated.
pub(super) const DE_FUEHRERSCHEIN: PatternSpec = PatternSpec {
    name: "de_fuehrerschein",
    label: "DE_FUEHRERSCHEIN",
    regex: r"\b[A-Z][A-Z0-9]\d{8}[A-Z0-9]\b",
    score: 0.3,
    context: &[
        "führerschein",
        "führerscheinnummer",
        "fahrerlaubnis",
        "fahrerlaubnisnummer",
        "german driving licence",
    ],
    examples: &[
        ("Führerscheinnummer B012345678A", "B012345678A"),
        ("Führerschein MU12345678B", "MU12345678B"),
    ],
    counter_examples: &["part MU12345678B"],
    ..PatternSpec::BASE
};

/// KFZ-Kennzeichen `B-AB 1234`, `M AB 123E`. Short capitals and digits are common, so
/// context-gated; district codes with umlauts (`TÖL`) are not matched (ASCII `\b`).
pub(super) const DE_KFZ: PatternSpec = PatternSpec {
    name: "de_kfz",
    label: "DE_KFZ",
    regex: r"\b[A-Z]{1,3}[\s\-][A-Z]{1,2}[\s\-]?\d{1,4}[EH]?\b",
    score: 0.25,
    context: &[
        "kennzeichen",
        "kfz-kennzeichen",
        "nummernschild",
        "amtliches kennzeichen",
        "fahrzeugkennzeichen",
        "kfz",
    ],
    examples: &[
        ("Kennzeichen B-AB 1234", "B-AB 1234"),
        ("KFZ: M AB 123E", "M AB 123E"),
    ],
    counter_examples: &["I AM 123 years", "PAGE A 12"],
    ..PatternSpec::BASE
};

/// Handelsregisternummer `HRB 123456`. The `HRA`/`HRB` prefix is specific enough to go
/// without context, as in Presidio (dev sets: 0 new detections).
pub(super) const DE_HANDELSREGISTER: PatternSpec = PatternSpec {
    name: "de_handelsregister",
    label: "DE_HANDELSREGISTER",
    regex: r"\bHR[AB]\s?\d{1,6}\b",
    score: 0.6,
    context: &["handelsregister", "amtsgericht", "registergericht"],
    examples: &[
        ("Amtsgericht München HRB 123456", "HRB 123456"),
        ("eingetragen unter HRA12345", "HRA12345"),
    ],
    counter_examples: &["HRC 12345", "HRB1234567"],
    ..PatternSpec::BASE
};

/// Postleitzahl: any five digits, so only next to an explicit postcode word.
pub(super) const DE_PLZ: PatternSpec = PatternSpec {
    name: "de_plz",
    label: "DE_PLZ",
    regex: r"\b(?:0[1-9]|[1-9]\d)\d{3}\b",
    score: 0.2,
    context: &["plz", "postleitzahl"],
    examples: &[("PLZ: 80331", "80331")],
    counter_examples: &["PLZ: 00999", "scored 80331 points"],
    ..PatternSpec::BASE
};
