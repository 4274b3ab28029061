//! Every built-in pattern entity type. Adding one: declare a `const PatternSpec` in the
//! file of its family and list it in [`ALL`] (a new label is one row in
//! `text::label::LABELS`). The registry tests below then check that its regex compiles,
//! that every example is found with its label and that no counter-example is:
//!
//! ```text
//! /// UK passport: nine digits, only with context.
//! pub(super) const UK_PASSPORT: PatternSpec = PatternSpec {
//!     name: "uk_passport",
//!     label: "UK_PASSPORT",
//!     regex: r"\b\d{9}\b",
//!     score: 0.2,                       // weak alone …
//!     context: &["passport"],           // … 0.55 with a context word nearby
//!     examples: &[("passport no 123456789", "123456789")],
//!     counter_examples: &["order 123456789"],
//!     ..PatternSpec::BASE               // no validator, default negative context
//! };
//! ```
//!
//! `validate: Some(validators::…)` drops candidates that fail a check, `surroundings`
//! those whose neighbouring text says otherwise (a handle above code is a decorator).
//! `proof` says what
//! a match proves: `Proof::Checksum` (a real checksum passed) or `Proof::Grammar` (the
//! regex is the type's whole grammar: e-mail, IP, URL, UUID, …) make its span exact, so
//! it wins its characters against any model or rule span (`resolve.rs`); phone numbers
//! in national formats, dates, addresses and amounts stay `Proof::None`, since where
//! they end is a guess. `\b` and `\d` are compiled as ASCII classes (see `recognizer.rs`).

/// The value after an identifier's cue (`Acct#: 2291-004-33`, `Lic #: RN-4417782`,
/// `accession S22-04819`): an optional `:` or `#`, then a capital or a digit and letters
/// and digits in up to five dash-joined groups, captured; or digits in up to four
/// space-separated groups of three to five, as cards print them (`7781 2234 9910`), or
/// a carrier's or issuer's capitals and a space before a long number (`AA 8812345`). A
/// macro, so that each cued pattern can splice it into its one literal; each pattern's
/// validator says how many digits it needs.
macro_rules! cued_value {
    () => {
        r"\s*[:\#]?\s*((?-i:[A-Z]{1,3})\s\d{5,12}|\d{3,5}(?:\s\d{3,5}){1,3}|(?-i:[A-Z0-9])[A-Za-z0-9]*(?:-[A-Za-z0-9]+){0,4})\b"
    };
}

/// "is" between a cue and its value, in the languages users write in ("my passport
/// number is …", "mi móvil es …", "telefonnummer är …", Finnish "on", Polish "jest",
/// Czech "je"), optional. One grammar for every cued pattern that reads it.
macro_rules! copula {
    () => {
        r"(?:\s+(?:is|es|est|ist|é|è|är|er|on|jest|je))?"
    };
}

mod americas;
mod apac;
mod cjk;
mod clinical;
mod coordinates;
mod cued;
mod de;
mod eu;
mod finance;
mod generic;
mod health;
mod india;
mod korea;
mod mea;
mod occupation;
mod origin;
mod phone;
mod phrase;
mod secrets;
mod sexuality;
mod uk;
mod us;

use crate::engine::PatternSpec;

pub use generic::after_home_directory;

/// All built-in pattern recognizers.
pub static ALL: &[&PatternSpec] = &[
    // contact, network, time, place
    &generic::EMAIL,
    &generic::EMAIL_OBFUSCATED,
    &generic::SOCIAL_HANDLE,
    &generic::CUED_USERNAME,
    &generic::CUED_USERNAME_PROSE,
    &generic::HOME_DIRECTORY_USER,
    &generic::TODO_OWNER,
    &generic::URL,
    &generic::GIT_REMOTE,
    &generic::SOCIAL_PROFILE_URL,
    &generic::IPV4,
    &generic::IPV6,
    &generic::MAC,
    &phone::PHONE_INTERNATIONAL,
    &phone::PHONE_INTERNATIONAL_00,
    &phone::PHONE_NANP,
    &phone::PHONE_CUED,
    &phone::PHONE_EXTENSION,
    &phone::PHONE_CUED_NATIONAL,
    &phone::PHONE_NANP_LOCAL,
    &phone::PHONE_TRUNK,
    &phone::PHONE_PH_MOBILE,
    &phone::PHONE_TR_MOBILE,
    &phone::PHONE_UK_MOBILE,
    &phone::PHONE_EU_MOBILE,
    &phone::PHONE_GROUPED_NATIONAL,
    &phone::PHONE_FR,
    &phone::PHONE_IN_BR,
    &cjk::PHONE_CN,
    &cjk::PHONE_CJK_TRUNK,
    &cjk::PHONE_CJK_MOBILE,
    &cjk::PHONE_CN_IN_TEXT,
    &generic::DATE_ISO,
    &cjk::DATE_CJK,
    &generic::DATE_NUMERIC,
    &generic::DATE_WRITTEN,
    &generic::DATE_WRITTEN_EUROPEAN,
    &generic::DATE_YEAR,
    &generic::TIME,
    &generic::TIME_EUROPEAN,
    &generic::DAY_TIME_EUROPEAN,
    &generic::DURATION,
    &generic::MONEY,
    &generic::AGE,
    &occupation::OCCUPATION,
    &health::MEDICAL_CONDITION,
    &origin::RACE_DESCRIPTOR,
    &sexuality::SEXUALITY,
    &generic::STREET_ADDRESS,
    &generic::STREET_ADDRESS_FR,
    &generic::STREET_ADDRESS_SOUTH,
    &generic::STREET_ADDRESS_NORTH,
    &generic::STREET_ADDRESS_TR,
    &cjk::STREET_ADDRESS_ZH,
    &cjk::STREET_ADDRESS_JA,
    &cjk::STREET_ADDRESS_KO,
    &cjk::PERSON_ZH,
    &cjk::PERSON_JA,
    &cjk::PERSON_JA_NAMED,
    &cjk::PERSON_KO,
    &generic::PO_BOX,
    &generic::US_CITY_STATE_ZIP,
    &generic::CUED_POSTAL_CODE,
    &generic::UK_POSTCODE,
    &generic::UUID,
    &generic::CASE_NUMBER,
    &generic::CASE_NUMBER_LIST,
    &generic::VIN,
    &cued::DEVICE_ID,
    &cued::IMEI,
    &cued::LICENSE_PLATE,
    &cued::LICENSE_PLATE_IS,
    &cued::ACCOUNT_NUMBER,
    &cued::CUSTOMER_NUMBER,
    &cjk::CUSTOMER_NUMBER_CJK,
    &cjk::EMPLOYEE_ID_CJK,
    &cjk::MEDICAL_RECORD_CJK,
    &cjk::PASSPORT_CJK,
    &cjk::INSURANCE_CJK,
    &cjk::LICENSE_PLATE_CJK,
    &cued::LOYALTY_NUMBER,
    &cued::EMPLOYEE_ID,
    &cued::EMPLOYEE_ID_BARE,
    &cued::STUDENT_ID,
    &cued::LICENSE_NUMBER,
    &cued::BOOKING_REFERENCE,
    &cued::PASSPORT_NUMBER,
    &cued::INSURANCE_NUMBER,
    &coordinates::COORDINATES_DECIMAL,
    &coordinates::COORDINATES_HEMISPHERE,
    // finance
    &finance::CREDIT_CARD,
    &finance::CARD_SECURITY_CODE,
    &finance::CARD_EXPIRY,
    &finance::IBAN,
    &finance::SWIFT_BIC_DIGIT,
    &finance::SWIFT_BIC,
    &finance::US_BANK_ROUTING,
    &finance::US_BANK_NUMBER,
    &finance::BTC_BASE58,
    &finance::BTC_BECH32,
    &finance::ETH_CHECKSUMMED,
    &finance::ETH,
    // countries
    &us::US_SSN,
    &us::US_SSN_CUED,
    &us::US_SSN_BARE,
    &us::US_ITIN,
    &us::US_ITIN_BARE,
    &us::US_PASSPORT,
    &us::US_PASSPORT_CUED,
    &us::US_DRIVER_LICENSE,
    &us::US_NPI,
    &us::US_MBI,
    &us::US_MBI_COMPACT,
    &us::MEDICAL_LICENSE,
    &clinical::MEDICAL_RECORD_NUMBER,
    &clinical::CLINICAL_ID,
    &clinical::HEALTH_PLAN_NUMBER,
    &clinical::PAGER,
    &clinical::ACCESSION_NUMBER,
    &clinical::DICTATION_INITIALS,
    &clinical::ROOM,
    &uk::UK_NHS,
    &uk::UK_NINO,
    &uk::UK_NINO_CUED,
    &uk::UK_DRIVING_LICENCE,
    &uk::UK_PASSPORT,
    &uk::UK_VEHICLE_REGISTRATION,
    &uk::UK_VEHICLE_REGISTRATION_OLD,
    &eu::IT_FISCAL_CODE,
    &eu::ES_NIF,
    &eu::ES_NIE,
    &eu::DE_TAX_ID,
    &eu::FR_NIR,
    &eu::FR_NIR_CUED,
    &eu::PL_PESEL,
    &eu::PL_NIP,
    &eu::NL_BSN,
    &eu::CH_AHV,
    &eu::CH_AHV_COMPACT,
    &eu::IE_PPSN,
    &eu::EU_VAT_NUMBER,
    &eu::PT_NIF,
    &eu::PT_NISS,
    &eu::AT_SOCIAL_SECURITY,
    &eu::NO_BIRTH_NUMBER,
    &eu::DK_CPR,
    &eu::CZ_BIRTH_NUMBER,
    &eu::ES_PASSPORT,
    &eu::FI_PERSONAL_IDENTITY_CODE,
    &eu::IT_DRIVER_LICENSE,
    &eu::IT_IDENTITY_CARD,
    &eu::IT_PASSPORT,
    &eu::IT_VAT_CODE,
    &eu::IT_VAT_CODE_BARE,
    &eu::SE_PERSONNUMMER,
    &eu::SE_PERSONNUMMER_BARE,
    &eu::SE_ORGANISATIONSNUMMER,
    &de::DE_ID_CARD,
    &de::DE_PASSPORT,
    &de::DE_SOCIAL_SECURITY,
    &de::DE_HEALTH_INSURANCE,
    &de::DE_TAX_NUMBER,
    &de::DE_VAT_ID,
    &de::DE_LANR,
    &de::DE_BSNR,
    &de::DE_FUEHRERSCHEIN,
    &de::DE_KFZ,
    &de::DE_HANDELSREGISTER,
    &de::DE_PLZ,
    &mea::TR_NATIONAL_ID,
    &mea::TR_LICENSE_PLATE,
    &mea::NG_NIN,
    &mea::NG_VEHICLE_REGISTRATION,
    &mea::ZA_ID_NUMBER,
    &apac::SG_NRIC,
    &apac::IN_PAN,
    &apac::IN_AADHAAR,
    &apac::AU_TFN,
    &apac::AU_MEDICARE,
    &apac::CA_SIN,
    &apac::CN_RESIDENT_ID,
    &apac::JP_MY_NUMBER,
    &americas::BR_CPF,
    &americas::BR_CPF_BARE,
    &americas::BR_CEP,
    &apac::AU_ABN,
    &apac::AU_ABN_BARE,
    &apac::AU_ACN,
    &apac::SG_UEN,
    &apac::TH_TNIN,
    &apac::TH_TNIN_BARE,
    &apac::PH_TIN,
    &india::IN_GSTIN,
    &india::IN_PASSPORT,
    &india::IN_VEHICLE_REGISTRATION,
    &india::IN_VOTER,
    &india::IN_CITY_PIN,
    &korea::KR_RRN,
    &korea::KR_RRN_BARE,
    &korea::KR_RRN_UNCHECKED,
    &korea::KR_FRN,
    &korea::KR_FRN_BARE,
    &korea::KR_BRN,
    &korea::KR_BRN_BARE,
    &korea::KR_DRIVER_LICENSE,
    &korea::KR_PASSPORT,
    // secrets
    &secrets::API_KEY_VENDOR,
    &secrets::API_KEY_ASSIGNMENT,
    &secrets::JWT,
    &secrets::PRIVATE_KEY,
    &secrets::PASSWORD,
    &secrets::PASSWORD_USER_OPTION,
    &secrets::BASIC_AUTH,
    &secrets::PIN,
    &secrets::CONNECTION_STRING,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, PatternRecognizer};
    use crate::text::LabelSet;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_every_pattern_compiles() {
        let mut names = HashSet::new();
        for spec in ALL {
            assert!(
                names.insert(spec.name),
                "duplicate pattern name {}",
                spec.name
            );
        }
        PatternRecognizer::new(ALL).expect("built-in patterns compile");
    }

    #[test]
    fn a_checksum_proof_comes_with_a_validator() {
        for spec in ALL {
            if spec.proof == crate::engine::Proof::Checksum {
                assert!(spec.validate.is_some(), "{} has no checksum", spec.name);
            }
        }
    }

    #[test]
    fn every_example_is_found_and_no_counter_example_is() {
        let engine = Engine::builtin().expect("engine builds");
        let labels = LabelSet::all();
        let mut failures = Vec::new();
        for spec in ALL {
            if spec.examples.is_empty() || spec.counter_examples.is_empty() {
                failures.push(format!("{} lacks examples or counter-examples", spec.name));
            }
            for (text, want) in spec.examples {
                let found = engine.detect(text, &labels, 0.5).unwrap();
                let hit = found.iter().any(|d| {
                    &text[d.span.start..d.span.end] == *want && d.label.as_str() == spec.label
                });
                if !hit {
                    failures.push(format!(
                        "{}: {want:?} not found in {text:?}, got {found:?}",
                        spec.name
                    ));
                }
            }
            for text in spec.counter_examples {
                let found: Vec<_> = engine
                    .detect(text, &labels, 0.5)
                    .unwrap()
                    .into_iter()
                    .filter(|d| d.label.as_str() == spec.label)
                    .collect();
                if !found.is_empty() {
                    failures.push(format!("{}: false hit in {text:?}: {found:?}", spec.name));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Ordinary prose and code with numbers in it, but nothing personal.
    const NO_PII: &[&str] = &[
        "The meeting covered the Q3 roadmap; we shipped 12 features and fixed 340 bugs.",
        "Version 2.4.1 was released with 15 improvements to the build pipeline.",
        "Invoice 123456789 is due; order number 987654321 shipped in 3 boxes.",
        "Add 2 cups of flour, 1/2 cup of sugar and bake at 180 degrees for 25 minutes.",
        "The team scored 3-2 in the final, with 45,000 fans watching.",
        "Run `cargo test --lib` and check that all 1024 tests pass in under 30 seconds.",
        "Chapter 7 explains how the 8-bit registers map onto 16-bit addresses.",
        "Our API returns HTTP 404 when the resource is missing and 503 under load.",
        "THE STANDARD PROCEDURE APPLIES TO ALL MEMBERS OF THE COMMITTEE.",
        "Temperatures ranged from -5 to +12 during the week, with 80% humidity.",
    ];

    #[test]
    fn the_no_pii_corpus_yields_nothing() {
        let engine = Engine::builtin().expect("engine builds");
        for text in NO_PII {
            let found = engine.detect(text, &LabelSet::defaults(), 0.5).unwrap();
            assert!(found.is_empty(), "false hits in {text:?}: {found:?}");
        }
    }
}
