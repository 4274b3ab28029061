//! The entity-label catalogue: every label the service can emit, its accepted aliases
//! (Presidio's names among them) and a one-line description for `GET /v1/entities`.
//!
//! Adding a label is one row in [`LABELS`]; a recognizer for it lives in `engine/`.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use super::intern::Interner;

/// One catalogue row.
#[derive(Debug)]
pub struct LabelInfo {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub description: &'static str,
    /// Part of the default label set when a request names none.
    pub default_on: bool,
}

macro_rules! labels {
    ($( $name:literal [$($alias:literal),*] $on:literal $desc:literal ;)*) => {
        /// Every built-in label, in the order `GET /v1/entities` lists them.
        pub const LABELS: &[LabelInfo] = &[
            $( LabelInfo { name: $name, aliases: &[$($alias),*], description: $desc, default_on: $on }, )*
        ];
    };
}

labels! {
    "PERSON" ["PER", "NAME"] true "Names of people";
    "ORGANIZATION" ["ORG", "COMPANY"] true "Companies, agencies, institutions";
    "LOCATION" ["LOC", "GPE", "CITY", "COUNTRY"] true "Cities, regions, countries";
    "NRP" ["NATIONALITY", "RELIGION"] true "Nationalities, ethnic and religious groups";
    "ADDRESS" ["STREET_ADDRESS"] true "Street addresses and postcodes";
    "DATE_TIME" ["DATE", "TIME", "DATETIME", "DOB"] true "Dates, dates of birth and times";
    "AGE" [] true "Ages of people";
    "OCCUPATION" ["PROFESSION", "JOB_TITLE"] true "A person's occupation, where the text says it is theirs";
    "MEDICAL_CONDITION" ["CONDITION", "DIAGNOSIS", "HEALTH_CONDITION"] true "A person's illness, disability or operation, where the text ties it to them";
    "SEXUALITY" ["SEXUAL_ORIENTATION", "GENDER_IDENTITY"] true "A person's sexual orientation or gender identity, where they or the text state it";
    "EMAIL_ADDRESS" ["EMAIL"] true "E-mail addresses, including obfuscated forms";
    "PHONE_NUMBER" ["PHONE", "PH_MOBILE_NUMBER", "TR_PHONE_NUMBER"] true "Telephone numbers, international and national formats";
    "URL" [] true "Web addresses";
    "IP_ADDRESS" ["IP"] true "IPv4 and IPv6 addresses";
    "MAC_ADDRESS" ["MAC"] true "Network hardware (MAC) addresses";
    "CREDIT_CARD" ["CARD"] true "Payment card numbers (Luhn-checked)";
    "CARD_SECURITY_CODE" ["CVV", "CVC"] true "Payment card security codes after their cue (CVV, CVC)";
    "IBAN_CODE" ["IBAN"] true "International bank account numbers (mod-97 checked)";
    "SWIFT_BIC" ["SWIFT", "BIC"] true "Bank identifier codes";
    "US_BANK_ROUTING" ["ABA_ROUTING_NUMBER", "ROUTING_NUMBER"] true "US ABA routing numbers (checksum)";
    "US_BANK_NUMBER" ["BANK_ACCOUNT"] true "US bank account numbers (needs context)";
    "US_SSN" ["SSN"] true "US social security numbers";
    "US_ITIN" [] true "US individual taxpayer identification numbers";
    "US_PASSPORT" [] true "US passport numbers (needs context)";
    "US_DRIVER_LICENSE" [] true "US driver licence numbers (needs context)";
    "US_NPI" ["NPI"] true "US national provider identifiers";
    "US_MBI" [] true "US Medicare beneficiary identifiers";
    "MEDICAL_LICENSE" ["US_DEA", "DEA_NUMBER"] true "US DEA registration numbers (checksum; needs context)";
    "MEDICAL_RECORD_NUMBER" ["MRN"] true "Medical record (chart) numbers after their cue (MRN, MR#)";
    "HEALTH_PLAN_NUMBER" ["HEALTH_PLAN_ID"] true "Health plan, insurance member and policy numbers after their cue";
    "UK_NHS" ["NHS"] true "UK NHS numbers (mod-11 checked)";
    "UK_NINO" ["NINO"] true "UK national insurance numbers";
    "UK_POSTCODE" [] true "UK postcodes";
    "UK_DRIVING_LICENCE" ["UK_DRIVING_LICENSE"] true "UK driving licence numbers";
    "UK_PASSPORT" [] true "UK passport numbers (needs context)";
    "UK_VEHICLE_REGISTRATION" [] true "UK vehicle registration marks";
    "CA_SIN" [] true "Canadian social insurance numbers (Luhn-checked)";
    "IN_AADHAAR" ["AADHAAR"] true "Indian Aadhaar numbers (Verhoeff-checked)";
    "IN_PAN" [] true "Indian permanent account numbers";
    "AU_TFN" [] true "Australian tax file numbers";
    "AU_MEDICARE" [] true "Australian Medicare numbers";
    "AU_ABN" [] true "Australian business numbers (mod-89 checked)";
    "AU_ACN" [] true "Australian company numbers (checksum; needs context)";
    "IN_GSTIN" [] true "Indian GST identification numbers (mod-36 checked)";
    "IN_PASSPORT" [] true "Indian passport numbers (needs context)";
    "IN_VEHICLE_REGISTRATION" [] true "Indian vehicle registration marks";
    "IN_VOTER" ["IN_EPIC"] true "Indian voter ids (EPIC; needs context)";
    "KR_RRN" [] true "Korean resident registration numbers";
    "JP_MY_NUMBER" ["MY_NUMBER"] true "Japanese individual numbers (My Number; checksum, after its cue)";
    "KR_FRN" [] true "Korean foreigner registration numbers";
    "KR_BRN" [] true "Korean business registration numbers";
    "KR_DRIVER_LICENSE" [] true "Korean driver licence numbers (needs context)";
    "KR_PASSPORT" [] true "Korean passport numbers (needs context)";
    "PH_TIN" [] true "Philippine taxpayer identification numbers (needs context)";
    "SG_UEN" [] true "Singapore unique entity numbers";
    "TH_TNIN" [] true "Thai national id numbers";
    "ES_NIF" [] true "Spanish tax identification numbers (DNI/NIF)";
    "ES_NIE" [] true "Spanish foreigner identity numbers";
    "IT_FISCAL_CODE" [] true "Italian fiscal codes";
    "DE_TAX_ID" ["DE_STEUER_ID"] true "German tax identification numbers";
    "FR_NIR" ["FR_SSN"] true "French social security numbers (NIR)";
    "PL_PESEL" ["PESEL"] true "Polish PESEL numbers";
    "PL_NIP" ["NIP"] true "Polish tax identification numbers (NIP, checksum)";
    "NL_BSN" ["BSN"] true "Dutch citizen service numbers (BSN, eleven-test)";
    "CH_AHV" ["AHV", "AVS"] true "Swiss social security numbers (AHV/AVS, EAN-13 check)";
    "IE_PPSN" ["PPSN", "IE_PPS"] true "Irish Personal Public Service numbers (PPSN, mod-23 check letter)";
    "PT_NIF" [] true "Portuguese taxpayer numbers (NIF, mod-11 check; needs context)";
    "PT_NISS" ["NISS"] true "Portuguese social security numbers (NISS, check digit; needs context)";
    "AT_SOCIAL_SECURITY" ["AT_SVNR", "SVNR"] true "Austrian social security numbers (check digit and birth date; needs context)";
    "NO_BIRTH_NUMBER" ["FODSELSNUMMER"] true "Norwegian national identity numbers (fødselsnummer, two mod-11 checks; needs context)";
    "DK_CPR" ["CPR"] true "Danish CPR numbers (needs context)";
    "CZ_BIRTH_NUMBER" ["RODNE_CISLO"] true "Czech and Slovak birth numbers (rodné číslo, mod-11 check; needs context)";
    "EU_VAT_NUMBER" ["VAT_NUMBER", "EU_VAT"] true "EU and UK VAT identification numbers (country prefix, needs context)";
    "BR_CPF" ["CPF"] true "Brazilian individual taxpayer numbers (CPF, checksum)";
    "CN_RESIDENT_ID" [] true "Chinese resident identity card numbers (checksum)";
    "ES_PASSPORT" [] true "Spanish passport numbers (needs context)";
    "FI_PERSONAL_IDENTITY_CODE" ["FI_HETU"] true "Finnish personal identity codes (henkilötunnus)";
    "IT_DRIVER_LICENSE" [] true "Italian driving licence numbers (needs context)";
    "IT_IDENTITY_CARD" [] true "Italian identity card numbers (needs context)";
    "IT_PASSPORT" [] true "Italian passport numbers (needs context)";
    "IT_VAT_CODE" ["IT_PARTITA_IVA"] true "Italian VAT numbers (partita IVA)";
    "SE_PERSONNUMMER" [] true "Swedish personal identity numbers";
    "SE_ORGANISATIONSNUMMER" [] true "Swedish organisation numbers";
    "DE_ID_CARD" [] true "German identity card numbers (needs context)";
    "DE_PASSPORT" [] true "German passport numbers (needs context)";
    "PASSPORT_NUMBER" ["PASSPORT"] true "Passport numbers of any country after their cue";
    "DE_SOCIAL_SECURITY" ["DE_RVNR"] true "German pension insurance numbers";
    "DE_HEALTH_INSURANCE" ["DE_KVNR"] true "German health insurance numbers (needs context)";
    "DE_TAX_NUMBER" ["DE_STEUERNUMMER"] true "German tax numbers (Steuernummer; needs context)";
    "DE_VAT_ID" ["DE_UST_IDNR"] true "German VAT ids";
    "DE_LANR" [] true "German lifelong doctor numbers (needs context)";
    "DE_BSNR" [] true "German practice site numbers (needs context)";
    "DE_FUEHRERSCHEIN" ["DE_DRIVING_LICENCE"] true "German driving licence numbers (needs context)";
    "DE_KFZ" ["DE_VEHICLE_REGISTRATION"] true "German vehicle registration plates (needs context)";
    "DE_HANDELSREGISTER" [] true "German commercial register numbers";
    "DE_PLZ" ["DE_POSTCODE"] true "German postcodes (needs context)";
    "TR_NATIONAL_ID" ["TR_TCKN"] true "Turkish national id numbers (needs context)";
    "TR_LICENSE_PLATE" [] true "Turkish licence plates (needs context)";
    "NG_NIN" [] true "Nigerian national identification numbers (needs context)";
    "NG_VEHICLE_REGISTRATION" [] true "Nigerian vehicle registration plates (needs context)";
    "ZA_ID_NUMBER" ["ZA_ID"] true "South African identity numbers";
    "SG_NRIC" ["SG_NRIC_FIN"] true "Singapore NRIC/FIN numbers";
    "CRYPTO_WALLET" ["CRYPTO"] true "Bitcoin and Ethereum wallet addresses";
    "VIN" [] true "Vehicle identification numbers";
    "DEVICE_ID" ["SERIAL_NUMBER", "IMEI"] true "Device serial numbers and identifiers after their cue (S/N, IMEI, UDI)";
    "LICENSE_PLATE" ["VEHICLE_PLATE"] true "Vehicle licence plates of any country after their cue";
    "ACCOUNT_NUMBER" ["ACCT"] true "Account numbers after their cue (Acct #, account no.)";
    "EMPLOYEE_ID" ["STAFF_ID", "PERSONNEL_NUMBER", "BADGE_NUMBER"] true "Employee, staff and badge numbers after their cue";
    "STUDENT_ID" ["STUDENT_NUMBER", "MATRICULATION_NUMBER"] true "Student and matriculation numbers after their cue";
    "LICENSE_NUMBER" ["LICENCE_NUMBER", "CERTIFICATE_NUMBER"] true "Licence and certificate numbers after their cue (License No., Lic #)";
    "COORDINATES" ["GPS_COORDINATES", "LAT_LONG"] true "Geographic coordinates (latitude and longitude)";
    "BOOKING_REFERENCE" ["PNR", "CONFIRMATION_NUMBER"] true "Travel booking references after their cue (booking ref, PNR)";
    "CASE_NUMBER" ["CASE_ID"] true "Court case, application and file numbers (needs context)";
    "MONEY" ["AMOUNT"] true "Sums of money with a currency";
    "UUID" [] false "UUIDs (off by default: usually not personal)";
    "API_KEY" ["SECRET"] true "API keys and access tokens";
    "JWT" [] true "JSON web tokens";
    "PRIVATE_KEY" [] true "PEM private key blocks";
    "PASSWORD" [] true "Passwords in assignments";
    "CONNECTION_STRING" [] true "Credentials inside connection URLs";
}

/// Every catalogue row by its name and by each of its aliases (all unique and upper
/// case, as a test checks): labels are looked up per request and per detected field.
static BY_NAME: LazyLock<HashMap<&'static str, &'static LabelInfo>> = LazyLock::new(|| {
    LABELS
        .iter()
        .flat_map(|info| {
            std::iter::once(info.name)
                .chain(info.aliases.iter().copied())
                .map(move |name| (name, info))
        })
        .collect()
});

/// A label, by its canonical catalogue name. Cheap to copy and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(&'static str);

impl Label {
    /// The canonical name, e.g. `EMAIL_ADDRESS`.
    pub fn as_str(&self) -> &'static str {
        self.0
    }

    /// Looks a label up by canonical name or alias, case-insensitively.
    pub fn parse(name: &str) -> Option<Label> {
        let info = match BY_NAME.get(name) {
            Some(info) => info,
            // Every name and alias is upper case: other spellings are found so.
            None if name.bytes().any(|b| b.is_ascii_lowercase()) => {
                BY_NAME.get(name.to_ascii_uppercase().as_str())?
            }
            None => return None,
        };
        Some(Label(info.name))
    }

    /// A label by its canonical name; for built-in declarations, where a typo is a bug.
    ///
    /// # Panics
    /// If `name` is not in [`LABELS`]; the registry tests catch this before release.
    pub fn builtin(name: &str) -> Label {
        match LABELS.iter().find(|info| info.name == name) {
            Some(info) => Label(info.name),
            None => panic!("built-in declaration names unknown label {name}"),
        }
    }

    /// A label the catalogue lacks, declared by an operator or a caller for their own
    /// recognizer (`EMPLOYEE_BADGE`): a catalogue name or alias gives the built-in label;
    /// any other UPPER_SNAKE_CASE name of at most [`MAX_CUSTOM_NAME`] characters is
    /// interned, so it stays a cheap `Copy` value like the built-ins.
    ///
    /// # Errors
    /// A name that is not UPPER_SNAKE_CASE (it becomes part of placeholders such as
    /// `[EMPLOYEE_BADGE_1]`, which restore must read back), or a new name once
    /// [`MAX_CUSTOM_LABELS`] are interned: the interned names live as long as the
    /// process, so their number is bounded.
    pub fn custom(name: &str) -> Result<Label, CustomLabelError> {
        if let Some(builtin) = Label::parse(name) {
            return Ok(builtin);
        }
        let valid = !name.is_empty()
            && name.len() <= MAX_CUSTOM_NAME
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return Err(CustomLabelError::Name);
        }
        CUSTOM
            .intern(name)
            .map(Label)
            .ok_or(CustomLabelError::TooMany)
    }

    /// A label by name: built-in (name or alias) or a custom one this process has seen.
    /// For reading back what an earlier request or another replica wrote.
    pub fn known(name: &str) -> Option<Label> {
        Label::parse(name).or_else(|| CUSTOM.get(name).map(Label))
    }

    /// The catalogue row; `None` for a custom label.
    pub fn info(&self) -> Option<&'static LabelInfo> {
        // The map holds aliases too; a label is its row's name.
        BY_NAME
            .get(self.0)
            .copied()
            .filter(|info| info.name == self.0)
    }

    /// The name metrics use: custom labels are named by callers, so they share one
    /// `CUSTOM` value rather than growing the metric without bound.
    pub fn metric_name(&self) -> &'static str {
        if self.is_custom() {
            "CUSTOM"
        } else {
            self.0
        }
    }

    /// Whether this is a custom label rather than a catalogue one.
    pub fn is_custom(&self) -> bool {
        self.info().is_none()
    }
}

/// Longest custom label name.
pub const MAX_CUSTOM_NAME: usize = 64;
/// Most distinct custom label names per process (a few hundred KB at most).
pub const MAX_CUSTOM_LABELS: usize = 4096;

static CUSTOM: Interner = Interner::new(MAX_CUSTOM_LABELS);

/// Why [`Label::custom`] refused a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CustomLabelError {
    Name,
    TooMany,
}

impl fmt::Display for CustomLabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CustomLabelError::Name => write!(
                f,
                "must be a catalogue label or an UPPER_SNAKE_CASE name of at most {MAX_CUSTOM_NAME} characters"
            ),
            CustomLabelError::TooMany => write!(
                f,
                "is new, and this server already knows {MAX_CUSTOM_LABELS} custom labels"
            ),
        }
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A set of labels, as requested by a caller or configured as the default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelSet(Vec<Label>);

impl LabelSet {
    pub fn new(mut labels: Vec<Label>) -> Self {
        labels.sort();
        labels.dedup();
        Self(labels)
    }

    /// Every label that is on by default.
    pub fn defaults() -> Self {
        Self::new(
            LABELS
                .iter()
                .filter(|i| i.default_on)
                .map(|i| Label(i.name))
                .collect(),
        )
    }

    /// Every built-in label.
    pub fn all() -> Self {
        Self::new(LABELS.iter().map(|i| Label(i.name)).collect())
    }

    /// This set less `labels`.
    pub fn without(mut self, labels: &[Label]) -> Self {
        self.0.retain(|l| !labels.contains(l));
        self
    }

    pub fn contains(&self, label: Label) -> bool {
        self.0.binary_search(&label).is_ok()
    }

    pub fn iter(&self) -> impl Iterator<Item = Label> + '_ {
        self.0.iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_and_aliases_are_unique_and_upper_snake_case() {
        let mut seen = HashSet::new();
        for info in LABELS {
            for name in std::iter::once(&info.name).chain(info.aliases) {
                assert!(seen.insert(*name), "duplicate label name {name}");
                assert!(
                    name.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
                    "{name} is not UPPER_SNAKE_CASE"
                );
            }
        }
    }

    #[test]
    fn parse_accepts_aliases_case_insensitively() {
        assert_eq!(
            Label::parse("email_address"),
            Some(Label::builtin("EMAIL_ADDRESS"))
        );
        assert_eq!(Label::parse("Iban"), Some(Label::builtin("IBAN_CODE")));
        assert_eq!(Label::parse("sg_nric_fin"), Some(Label::builtin("SG_NRIC")));
        assert_eq!(Label::parse("NOT_A_LABEL"), None);
        assert_eq!(Label::parse("za_id"), Some(Label::builtin("ZA_ID_NUMBER")));
        assert_eq!(
            Label::parse("PH_MOBILE_NUMBER"),
            Some(Label::builtin("PHONE_NUMBER"))
        );
    }

    #[test]
    fn custom_labels_are_interned_and_checked() {
        let badge = Label::custom("EMPLOYEE_BADGE_X").expect("valid");
        assert_eq!(badge.as_str(), "EMPLOYEE_BADGE_X");
        assert_eq!(Label::custom("EMPLOYEE_BADGE_X"), Ok(badge));
        assert_eq!(Label::known("EMPLOYEE_BADGE_X"), Some(badge));
        assert!(badge.is_custom());
        assert_eq!(Label::custom("email"), Ok(Label::builtin("EMAIL_ADDRESS")));
        for bad in ["", "lower", "_X", "A-B", "A B", &"A".repeat(65)] {
            assert_eq!(Label::custom(bad), Err(CustomLabelError::Name), "{bad}");
        }
        assert_eq!(Label::known("NEVER_SEEN_LABEL"), None);
    }

    /// Every entity name a Presidio 2.2 predefined recognizer emits (its
    /// `predefined_recognizers` tree, tag 2.2.363, plus the phone recognizer's
    /// documented PH/TR variants) parses, so Presidio users' entity lists work unchanged.
    #[test]
    fn every_presidio_2_2_entity_name_parses() {
        const PRESIDIO: &[&str] = &[
            "CREDIT_CARD",
            "CRYPTO",
            "DATE_TIME",
            "EMAIL_ADDRESS",
            "IBAN_CODE",
            "IP_ADDRESS",
            "MAC_ADDRESS",
            "NRP",
            "LOCATION",
            "PERSON",
            "ORGANIZATION",
            "PHONE_NUMBER",
            "MEDICAL_LICENSE",
            "URL",
            "US_BANK_NUMBER",
            "US_DRIVER_LICENSE",
            "US_ITIN",
            "US_MBI",
            "US_NPI",
            "US_PASSPORT",
            "US_SSN",
            "ABA_ROUTING_NUMBER",
            "UK_DRIVING_LICENCE",
            "UK_NHS",
            "UK_NINO",
            "UK_PASSPORT",
            "UK_POSTCODE",
            "UK_VEHICLE_REGISTRATION",
            "ES_NIF",
            "ES_NIE",
            "ES_PASSPORT",
            "IT_FISCAL_CODE",
            "IT_DRIVER_LICENSE",
            "IT_VAT_CODE",
            "IT_PASSPORT",
            "IT_IDENTITY_CARD",
            "PL_PESEL",
            "SG_NRIC_FIN",
            "SG_UEN",
            "AU_ABN",
            "AU_ACN",
            "AU_TFN",
            "AU_MEDICARE",
            "IN_PAN",
            "IN_AADHAAR",
            "IN_VEHICLE_REGISTRATION",
            "IN_VOTER",
            "IN_PASSPORT",
            "IN_GSTIN",
            "FI_PERSONAL_IDENTITY_CODE",
            "KR_DRIVER_LICENSE",
            "KR_FRN",
            "KR_PASSPORT",
            "KR_BRN",
            "KR_RRN",
            "NG_NIN",
            "NG_VEHICLE_REGISTRATION",
            "PH_TIN",
            "PH_MOBILE_NUMBER",
            "CA_SIN",
            "SE_ORGANISATIONSNUMMER",
            "SE_PERSONNUMMER",
            "ZA_ID_NUMBER",
            "TH_TNIN",
            "TR_NATIONAL_ID",
            "TR_LICENSE_PLATE",
            "TR_PHONE_NUMBER",
            "DE_TAX_ID",
            "DE_TAX_NUMBER",
            "DE_PASSPORT",
            "DE_ID_CARD",
            "DE_SOCIAL_SECURITY",
            "DE_HEALTH_INSURANCE",
            "DE_KFZ",
            "DE_HANDELSREGISTER",
            "DE_PLZ",
            "DE_VAT_ID",
            "DE_LANR",
            "DE_BSNR",
            "DE_FUEHRERSCHEIN",
        ];
        let missing: Vec<_> = PRESIDIO
            .iter()
            .filter(|n| Label::parse(n).is_none())
            .collect();
        assert!(missing.is_empty(), "not accepted: {missing:?}");
    }

    #[test]
    fn uuid_is_off_by_default() {
        assert!(!LabelSet::defaults().contains(Label::builtin("UUID")));
        assert!(LabelSet::all().contains(Label::builtin("UUID")));
    }
}
