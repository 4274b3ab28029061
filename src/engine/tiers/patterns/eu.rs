//! European national identifiers (Germany's own beyond the Steuer-ID are in `de.rs`).

use crate::engine::validators::{eu, luhn};
use crate::engine::{PatternSpec, Proof};

pub(super) const IT_FISCAL_CODE: PatternSpec = PatternSpec {
    name: "it_fiscal_code",
    label: "IT_FISCAL_CODE",
    regex: r"(?i)\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b",
    score: 0.9,
    validate: Some(eu::it_fiscal_code),
    proof: Proof::Checksum,
    context: &["codice fiscale", "fiscal code", "cf"],
    examples: &[("codice fiscale RSSMRA85T10A562S", "RSSMRA85T10A562S")],
    counter_examples: &["RSSMRA85T10A562T"],
    ..PatternSpec::BASE
};

pub(super) const ES_NIF: PatternSpec = PatternSpec {
    name: "es_nif",
    label: "ES_NIF",
    regex: r"\b\d{8}-?[A-Z]\b",
    score: 0.75,
    validate: Some(eu::es_nif),
    proof: Proof::Checksum,
    context: &["dni", "nif", "documento"],
    examples: &[("DNI 12345678Z", "12345678Z")],
    counter_examples: &["code 12345678A"],
    ..PatternSpec::BASE
};

pub(super) const ES_NIE: PatternSpec = PatternSpec {
    name: "es_nie",
    label: "ES_NIE",
    regex: r"\b[XYZ]-?\d{7}-?[A-Z]\b",
    score: 0.8,
    validate: Some(eu::es_nie),
    proof: Proof::Checksum,
    context: &["nie", "extranjero"],
    examples: &[("NIE X1234567L", "X1234567L")],
    counter_examples: &["X1234567A"],
    ..PatternSpec::BASE
};

/// Steuer-ID: eleven digits; the repetition rule plus MOD 11,10 pass ~1 in 30 random
/// numbers, so it needs context.
pub(super) const DE_TAX_ID: PatternSpec = PatternSpec {
    name: "de_tax_id",
    label: "DE_TAX_ID",
    regex: r"\b[1-9]\d(?:\s?\d{3}){3}\b",
    score: 0.4,
    validate: Some(eu::de_tax_id),
    proof: Proof::Checksum,
    context: &[
        "steuer-id",
        "steuerid",
        "steuer",
        "steueridentifikationsnummer",
        "idnr",
        "tax id",
        "tin",
        "identifikationsnummer",
    ],
    examples: &[("Steuer-ID: 86095742719", "86095742719")],
    counter_examples: &["Steuer-ID: 86095742718", "86095742719"],
    ..PatternSpec::BASE
};

pub(super) const FR_NIR: PatternSpec = PatternSpec {
    name: "fr_nir",
    label: "FR_NIR",
    regex: r"(?i)\b[12]\s?\d{2}\s?\d{2}\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}\s?\d{2}\b",
    score: 0.8,
    validate: Some(eu::fr_nir),
    proof: Proof::Checksum,
    context: &[
        "sécurité sociale",
        "securite sociale",
        "nir",
        "insee",
        "numéro de sécu",
    ],
    examples: &[("n° sécu 2 55 08 14 168 025 38", "2 55 08 14 168 025 38")],
    counter_examples: &["2 55 08 14 168 025 39"],
    ..PatternSpec::BASE
};

/// A NIR right after its cue (`Numéro de sécurité sociale : 1 85 05 78 006 084 36`): the
/// writer says it is one, so a number whose key is wrong (a typo, a made-up example) is
/// taken too, as a cued SSN is; a fragment of it would otherwise read as a phone number.
/// The rest of its shape still has to fit.
pub(super) const FR_NIR_CUED: PatternSpec = PatternSpec {
    name: "fr_nir_cued",
    label: "FR_NIR",
    regex: r"(?ix)
        \b(?: s[ée]curit[ée]\s+sociale | n[°o]\s*(?:de\s+)?s[ée]cu | nir | insee )
        \s*[:\#]?\s*
        ([12]\s?\d{2}\s?\d{2}\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}\s?\d{2})\b",
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    validate: Some(eu::fr_nir_shape),
    negative_context: &[],
    examples: &[(
        "Numéro de sécurité sociale : 1 85 05 78 006 084 36.",
        "1 85 05 78 006 084 36",
    )],
    counter_examples: &[
        "sécurité sociale 3 85 05 78 006 084 36",
        "NIR 1 85 13 78 006 084 36",
    ],
    ..PatternSpec::BASE
};

/// PESEL: eleven digits with a date inside; checksum passes 1 in 10, so context decides.
pub(super) const PL_PESEL: PatternSpec = PatternSpec {
    name: "pl_pesel",
    label: "PL_PESEL",
    regex: r"\b\d{11}\b",
    score: 0.4,
    validate: Some(eu::pl_pesel),
    proof: Proof::Checksum,
    context: &["pesel", "numer pesel"],
    examples: &[("PESEL 44051401359", "44051401359")],
    counter_examples: &["PESEL 44051401358", "44051401359"],
    ..PatternSpec::BASE
};

/// Spanish passport: three letters and six digits; no check digit, so context-gated.
pub(super) const ES_PASSPORT: PatternSpec = PatternSpec {
    name: "es_passport",
    label: "ES_PASSPORT",
    regex: r"\b[A-Z]{3}\d{6}\b",
    score: 0.25,
    context: &[
        "pasaporte",
        "número de pasaporte",
        "spanish passport",
        "passport",
    ],
    examples: &[("pasaporte PAA123456", "PAA123456")],
    counter_examples: &["flight PAA123456"],
    ..PatternSpec::BASE
};

/// Henkilötunnus `131052-308T`. Context-free, as in Presidio: a real date, the century
/// sign in the middle and the mod-31 check character leave ordinary numbers out
/// (dev sets: 0 new detections).
pub(super) const FI_PERSONAL_IDENTITY_CODE: PatternSpec = PatternSpec {
    name: "fi_personal_identity_code",
    label: "FI_PERSONAL_IDENTITY_CODE",
    regex: r"\b\d{6}[+\-A-FU-Y]\d{3}[0-9A-Y]\b",
    score: 0.6,
    validate: Some(eu::fi_hetu),
    proof: Proof::Checksum,
    context: &[
        "henkilötunnus",
        "hetu",
        "personbeteckning",
        "personal identity code",
    ],
    examples: &[
        ("hetu 131052-308T", "131052-308T"),
        ("born 2000s: 010203A1230", "010203A1230"),
    ],
    counter_examples: &["131052-308U", "ticket 131052-308T", "range 100000-2000"],
    ..PatternSpec::BASE
};

/// Italian driving licence (patente): `AB1234567C`, or `U1` + seven + a letter for the
/// EU card; no published check, so context-gated.
pub(super) const IT_DRIVER_LICENSE: PatternSpec = PatternSpec {
    name: "it_driver_license",
    label: "IT_DRIVER_LICENSE",
    regex: r"\b(?:[A-Z]{2}\d{7}[A-Z]|U1[0-9BCDEFGHJKLMNPRSTUWXYZ]{7}[A-Z])\b",
    score: 0.25,
    context: &["patente", "patente di guida", "licenza di guida"],
    examples: &[("patente di guida MI1234567A", "MI1234567A")],
    counter_examples: &["code MI1234567A"],
    ..PatternSpec::BASE
};

/// Italian identity card: paper (`AB 1234567`), CIE 2.0 (`1234567AB`) or CIE 3.0
/// (`CA12345AB`); no check digit, so context-gated.
pub(super) const IT_IDENTITY_CARD: PatternSpec = PatternSpec {
    name: "it_identity_card",
    label: "IT_IDENTITY_CARD",
    regex: r"\b(?:[A-Z]{2}\s?\d{7}|\d{7}[A-Z]{2}|[A-Z]{2}\d{5}[A-Z]{2})\b",
    score: 0.25,
    context: &[
        "carta d'identità",
        "carta di identità",
        "carta d'identita",
        "identità",
        "cie",
        "documento d'identità",
    ],
    examples: &[("carta d'identità CA12345AB", "CA12345AB")],
    counter_examples: &["model CA12345AB"],
    ..PatternSpec::BASE
};

/// Italian passport: two letters and seven digits, the shape of UK passports and Italian
/// paper identity cards, so only Italian context words count.
pub(super) const IT_PASSPORT: PatternSpec = PatternSpec {
    name: "it_passport",
    label: "IT_PASSPORT",
    regex: r"\b[A-Z]{2}\d{7}\b",
    score: 0.25,
    context: &["passaporto", "numero di passaporto", "italian passport"],
    examples: &[("passaporto YA1234567", "YA1234567")],
    counter_examples: &["item YA1234567"],
    ..PatternSpec::BASE
};

/// Partita IVA with its `IT` prefix: context-free, as in Presidio (the prefix, the
/// office-code range and Luhn leave ordinary numbers out; dev sets: 0 new detections).
pub(super) const IT_VAT_CODE: PatternSpec = PatternSpec {
    name: "it_vat_code",
    label: "IT_VAT_CODE",
    regex: r"\bIT\s?\d{11}\b",
    score: 0.6,
    validate: Some(luhn::it_vat),
    proof: Proof::Checksum,
    context: IT_VAT_CONTEXT,
    examples: &[("VAT IT00743110157", "IT00743110157")],
    counter_examples: &["IT00743110158", "invoice IT00743110157"],
    ..PatternSpec::BASE
};

const IT_VAT_CONTEXT: &[&str] = &["partita iva", "p.iva", "piva", "p. iva", "vat"];

/// A bare partita IVA: eleven digits. Context-gated, unlike Presidio: about 1 in 100
/// eleven-digit numbers passes (Luhn and the office-code range), and phone numbers with
/// their country code are eleven digits (ordinary-number set: `eval/README.md`, "Ordinary numbers").
pub(super) const IT_VAT_CODE_BARE: PatternSpec = PatternSpec {
    name: "it_vat_code_bare",
    label: "IT_VAT_CODE",
    regex: r"\b\d{11}\b",
    score: 0.3,
    validate: Some(luhn::it_vat),
    proof: Proof::Checksum,
    context: IT_VAT_CONTEXT,
    examples: &[("Partita IVA: 00743110157", "00743110157")],
    counter_examples: &["00743110157", "Partita IVA: 00743110158"],
    ..PatternSpec::BASE
};

const SE_PERSONNUMMER_CONTEXT: &[&str] = &[
    "personnummer",
    "personnr",
    "samordningsnummer",
    "swedish personal identity number",
];

/// Personnummer written with its separator (`811228-9874`, `19811228-9874`, `+` at 100
/// years): context-free, as in Presidio. Dev sets: 0 new detections; ordinary-number set:
/// 28 of 5,000 random six-dash-four numbers (a real date and Luhn), kept because this
/// layout is the personnummer's own and it is personal data.
pub(super) const SE_PERSONNUMMER: PatternSpec = PatternSpec {
    name: "se_personnummer",
    label: "SE_PERSONNUMMER",
    regex: r"\b(?:19|20)?\d{6}[\-+]\d{4}\b",
    score: 0.6,
    validate: Some(luhn::se_personnummer),
    proof: Proof::Checksum,
    context: SE_PERSONNUMMER_CONTEXT,
    examples: &[
        ("personnummer 811228-9874", "811228-9874"),
        ("född 19811228-9874", "19811228-9874"),
    ],
    counter_examples: &["811228-9875", "invoice 811228-9874", "range 201301-2014"],
    ..PatternSpec::BASE
};

/// A personnummer without separator: ten (or twelve) bare digits, which one in ~30
/// ten-digit numbers (phone numbers among them) passes; context-gated.
pub(super) const SE_PERSONNUMMER_BARE: PatternSpec = PatternSpec {
    name: "se_personnummer_bare",
    label: "SE_PERSONNUMMER",
    regex: r"\b(?:19|20)?\d{10}\b",
    score: 0.3,
    validate: Some(luhn::se_personnummer),
    proof: Proof::Checksum,
    context: SE_PERSONNUMMER_CONTEXT,
    examples: &[("Personnummer: 8112289874", "8112289874")],
    counter_examples: &["8112289874", "personnummer 8112289875"],
    ..PatternSpec::BASE
};

const SE_ORG_CONTEXT: &[&str] = &[
    "organisationsnummer",
    "orgnr",
    "org.nr",
    "org nr",
    "org. nr",
];

/// Organisationsnummer `556036-0793`, with or without its dash. Context-gated, unlike
/// Presidio: on the ordinary-number set (`eval/ordinary_numbers.py`) it flagged 397 of
/// 5,000 random six-dash-four numbers (third digit ≥ 2 and Luhn pass 1 in 12); the dev
/// sets have none either way.
pub(super) const SE_ORGANISATIONSNUMMER: PatternSpec = PatternSpec {
    name: "se_organisationsnummer",
    label: "SE_ORGANISATIONSNUMMER",
    regex: r"\b(?:16)?\d{6}-?\d{4}\b",
    score: 0.3,
    validate: Some(luhn::se_organisationsnummer),
    proof: Proof::Checksum,
    context: SE_ORG_CONTEXT,
    examples: &[
        ("Volvo AB, org.nr 556036-0793", "556036-0793"),
        ("orgnr 5560360793", "5560360793"),
    ],
    counter_examples: &["556036-0793", "5560360793", "orgnr 556036-0794"],
    ..PatternSpec::BASE
};

const NL_BSN_CONTEXT: &[&str] = &[
    "bsn",
    "burgerservicenummer",
    "sofinummer",
    "sofi-nummer",
    "citizen service number",
];

/// Dutch burgerservicenummer: nine digits (`111222333`, `1112.22.333`), eleven-test.
/// Context-gated: one in eleven nine-digit numbers passes, and nine digits are
/// everywhere (phones, order numbers).
pub(super) const NL_BSN: PatternSpec = PatternSpec {
    name: "nl_bsn",
    label: "NL_BSN",
    regex: r"\b(?:\d{9}|\d{4}\.\d{2}\.\d{3})\b",
    score: 0.3,
    validate: Some(eu::nl_bsn),
    proof: Proof::Checksum,
    context: NL_BSN_CONTEXT,
    examples: &[
        ("Mijn BSN is 111222333.", "111222333"),
        ("burgerservicenummer: 1234.56.782", "1234.56.782"),
    ],
    counter_examples: &["111222333", "BSN 111222334"],
    ..PatternSpec::BASE
};

/// Swiss AHV/AVS number in its dotted layout (`756.9217.0769.85`): context-free, since
/// the country code 756 and the 3-4-4-2 dots are the number's own, and the EAN-13 check
/// passes one in ten.
pub(super) const CH_AHV: PatternSpec = PatternSpec {
    name: "ch_ahv",
    label: "CH_AHV",
    regex: r"\b756\.\d{4}\.\d{4}\.\d{2}\b",
    score: 0.8,
    validate: Some(eu::ch_ahv),
    proof: Proof::Checksum,
    context: &[
        "ahv",
        "avs",
        "ahv-nr",
        "ahv-nummer",
        "numéro avs",
        "sozialversicherungsnummer",
    ],
    examples: &[
        ("AHV-Nr. 756.9217.0769.85", "756.9217.0769.85"),
        ("756.9217.0769.85", "756.9217.0769.85"),
    ],
    counter_examples: &["756.9217.0769.84"],
    ..PatternSpec::BASE
};

/// The AHV number without dots (`7569217076985`): only with context, as any thirteen
/// digits starting 756 would pass one time in ten.
pub(super) const CH_AHV_COMPACT: PatternSpec = PatternSpec {
    name: "ch_ahv_compact",
    regex: r"\b756\d{10}\b",
    score: 0.35,
    examples: &[("numéro AVS 7569217076985", "7569217076985")],
    counter_examples: &["7569217076985", "AHV 7569217076984"],
    ..CH_AHV
};

/// Irish PPS number: seven digits, the mod-23 check letter and, since 2013, a second
/// letter (`1234567FA`). Context-gated: one in 23 seven-digit codes with a letter
/// passes, and order and ticket codes have that shape.
pub(super) const IE_PPSN: PatternSpec = PatternSpec {
    name: "ie_ppsn",
    label: "IE_PPSN",
    regex: r"\b\d{7}[A-W][A-Z]?\b",
    score: 0.3,
    validate: Some(eu::ie_ppsn),
    proof: Proof::Checksum,
    context: &[
        "pps",
        "ppsn",
        "pps number",
        "pps no",
        "personal public service",
        "uimhir pps",
    ],
    examples: &[
        ("my PPS number is 1234567T", "1234567T"),
        ("PPSN: 1234567FA", "1234567FA"),
    ],
    counter_examples: &["1234567T", "PPS 1234567U", "order 1234567FA"],
    ..PatternSpec::BASE
};

/// A VAT identification number of an EU member state (or the UK, `GB`/`XI`) in the
/// VIES layout: the country prefix and its national shape (`ATU12345678`,
/// `NL123456789B01`, `FR 40 303265045`, `BE 0403.170.701`). A sole trader's VAT number
/// names them, and some states build it from the personal tax number. Germany and Italy
/// have checked labels of their own (`DE_VAT_ID`, `IT_VAT_CODE`). Context-gated: most
/// states publish no check that sets these apart from product codes, and the prefix
/// alone is two capitals.
pub(super) const EU_VAT_NUMBER: PatternSpec = PatternSpec {
    name: "eu_vat_number",
    label: "EU_VAT_NUMBER",
    regex: r"(?x)\b(?:
        ATU\d{8} | BE\s?[01]\d{3}\.?\d{3}\.?\d{3} | BG\d{9,10} | CY\d{8}[A-Z] | CZ\d{8,10}
        | DK\s?\d{2}\s?\d{2}\s?\d{2}\s?\d{2} | EE\d{9} | EL\d{9} | ES[A-Z0-9]\d{7}[A-Z0-9]
        | FI\d{8} | FR\s?[A-HJ-NP-Z0-9]{2}\s?\d{9} | HR\d{11} | HU\d{8}
        | IE\d{7}[A-W][A-IW]? | IE\d[A-Z+*]\d{5}[A-W] | LT(?:\d{9}|\d{12}) | LU\d{8} | LV\d{11}
        | MT\d{8} | NL\d{9}B\d{2} | PL\d{10} | PT\s?\d{9} | RO\d{2,10} | SE\d{10}01 | SI\d{8}
        | SK\d{10} | (?:GB|XI)\s?\d{3}\s?\d{4}\s?\d{2}(?:\s?\d{3})?
    )\b",
    score: 0.3,
    context: &[
        "vat",
        "vat no",
        "vat number",
        "vat id",
        "vat reg",
        "tva",
        "n° tva",
        "btw",
        "btw-nummer",
        "btw-id",
        "iva",
        "nif-iva",
        "uid",
        "uid-nummer",
        "mwst",
        "moms",
        "momsnummer",
        "alv",
        "dph",
        "dič",
        "ddv",
        "pdv",
        "áfa",
        "pvm",
        "pvn",
        "nip ue",
        "cvr",
    ],
    // Invoices print VAT numbers: the shared negative words less "invoice".
    negative_context: &[
        "order number",
        "order no",
        "part number",
        "part no",
        "sku",
        "product code",
        "model number",
        "serial number",
        "tracking number",
        "catalogue",
    ],
    examples: &[
        ("UID-Nummer: ATU12345678", "ATU12345678"),
        ("BTW-nummer NL123456789B01", "NL123456789B01"),
        (
            "N° TVA intracommunautaire : FR 40 303265045",
            "FR 40 303265045",
        ),
        ("VAT reg. no. GB 123 4567 89", "GB 123 4567 89"),
        ("Sole trader, VAT IE1234567FA", "IE1234567FA"),
        (
            "Invoice 2291 from Jan Jansen, btw NL123456789B01",
            "NL123456789B01",
        ),
    ],
    counter_examples: &[
        "part ATU12345678",
        "NL123456789B01",
        "VAT 20 %",
        "VAT NL12345",
        "VAT incl.; part no. ATU12345678",
    ],
    ..PatternSpec::BASE
};

/// Portuguese NIF (número de contribuinte): nine digits, weights 9…2 and a mod-11 check
/// digit; a person's starts 1, 2 or 3. Context-gated: one nine-digit number in eleven
/// passes.
pub(super) const PT_NIF: PatternSpec = PatternSpec {
    name: "pt_nif",
    label: "PT_NIF",
    regex: r"\b\d{3}\s?\d{3}\s?\d{3}\b",
    score: 0.3,
    validate: Some(eu::pt_nif),
    proof: Proof::Checksum,
    context: &[
        "nif",
        "contribuinte",
        "número de contribuinte",
        "numero de contribuinte",
        "nº contribuinte",
        "n.º de contribuinte",
    ],
    examples: &[
        ("Olá, sou a Ana Sousa, NIF 123456789.", "123456789"),
        ("número de contribuinte: 232 013 969", "232 013 969"),
    ],
    counter_examples: &["123456789", "NIF 123456788", "ref 123456789"],
    ..PatternSpec::BASE
};

/// Portuguese social security number (NISS, número de identificação da segurança
/// social): eleven digits, a person's starting 1, with its check digit. Context-gated:
/// one eleven-digit run in ten passes.
pub(super) const PT_NISS: PatternSpec = PatternSpec {
    name: "pt_niss",
    label: "PT_NISS",
    regex: r"\b[12]\d{10}\b",
    score: 0.3,
    validate: Some(eu::pt_niss),
    proof: Proof::Checksum,
    context: &[
        "niss",
        "segurança social",
        "seguranca social",
        "n.º de segurança social",
        "nº de segurança social",
    ],
    examples: &[
        ("NISS 11084129805. Informada a", "11084129805"),
        ("número de segurança social: 12039584712", "12039584712"),
    ],
    counter_examples: &["11084129805", "NISS 11084129806", "encomenda 11084129805"],
    ..PatternSpec::BASE
};

/// Austrian social security number (Sozialversicherungsnummer, on the e-card): a serial,
/// its check digit and the birth date, `1232 150387`. Context-gated: ten digits pass one
/// time in eleven.
pub(super) const AT_SOCIAL_SECURITY: PatternSpec = PatternSpec {
    name: "at_social_security",
    label: "AT_SOCIAL_SECURITY",
    regex: r"\b[1-9]\d{3}\s?\d{6}\b",
    score: 0.3,
    validate: Some(eu::at_svnr),
    proof: Proof::Checksum,
    context: &[
        "sozialversicherungsnummer",
        "svnr",
        "sv-nr",
        "sv-nummer",
        "versicherungsnummer",
        "e-card",
    ],
    examples: &[
        (
            "Meine Sozialversicherungsnummer ist 1232 150387, ich wohne",
            "1232 150387",
        ),
        ("SVNR: 4826010190", "4826010190"),
    ],
    counter_examples: &["1232 150387", "SVNR 1233 150387", "Rechnung 4826010190"],
    ..PatternSpec::BASE
};

/// Norwegian fødselsnummer: a birth date (a D-number adds 40 to the day, an H-number 40
/// to the month), three individual digits and two mod-11 check digits. Context-gated,
/// like the Swedish bare form: eleven digits also make phone and account numbers.
pub(super) const NO_BIRTH_NUMBER: PatternSpec = PatternSpec {
    name: "no_birth_number",
    label: "NO_BIRTH_NUMBER",
    regex: r"\b\d{6}\s?\d{5}\b",
    score: 0.3,
    validate: Some(eu::no_birth_number),
    proof: Proof::Checksum,
    context: &[
        "fødselsnummer",
        "fodselsnummer",
        "fnr",
        "f.nr",
        "personnummer",
        "d-nummer",
    ],
    examples: &[("Fødselsnummer: 01010100131", "01010100131")],
    counter_examples: &["01010100131", "fnr 01010100132"],
    ..PatternSpec::BASE
};

/// Danish CPR number `DDMMYY-SSSS`: a birth date and four digits; the mod-11 check was
/// dropped in 2007, so the date and the cue are all there is.
pub(super) const DK_CPR: PatternSpec = PatternSpec {
    name: "dk_cpr",
    label: "DK_CPR",
    regex: r"\b\d{6}-?\d{4}\b",
    score: 0.3,
    validate: Some(eu::dk_cpr),
    proof: Proof::Grammar,
    context: &["cpr", "cpr-nr", "cpr-nummer", "cpr nr", "personnummer"],
    examples: &[("CPR-nr. 070761-4286", "070761-4286")],
    counter_examples: &["070761-4286", "CPR 320761-4286"],
    ..PatternSpec::BASE
};

/// Czech and Slovak rodné číslo `YYMMDD/XXXX`: a birth date (women's months plus 50,
/// since 2004 plus 20 more when a day ran out) and, for ten digits, the whole number a
/// multiple of 11 (nine-digit numbers before 1954 have no check). Context-gated.
pub(super) const CZ_BIRTH_NUMBER: PatternSpec = PatternSpec {
    name: "cz_birth_number",
    label: "CZ_BIRTH_NUMBER",
    regex: r"\b\d{6}\s?/?\s?\d{3,4}\b",
    score: 0.3,
    validate: Some(eu::cz_birth_number),
    proof: Proof::Checksum,
    context: &[
        "rodné číslo",
        "rodne cislo",
        "rodného čísla",
        "r.č.",
        "rč",
        "birth number",
    ],
    examples: &[("rodné číslo 855415/1232", "855415/1232")],
    counter_examples: &["855415/1232", "rodné číslo 855415/1234"],
    ..PatternSpec::BASE
};

/// Polish NIP: ten digits, bare or in the 3-3-2-2 and 3-2-2-3 groups, weighted mod-11
/// check. Context-gated: about one in eleven ten-digit numbers passes.
pub(super) const PL_NIP: PatternSpec = PatternSpec {
    name: "pl_nip",
    label: "PL_NIP",
    regex: r"\b(?:\d{3}-\d{3}-\d{2}-\d{2}|\d{3}-\d{2}-\d{2}-\d{3}|\d{10})\b",
    score: 0.3,
    validate: Some(eu::pl_nip),
    proof: Proof::Checksum,
    context: &["nip", "numer nip", "numer identyfikacji podatkowej"],
    examples: &[
        ("tel. +48 22 123 45 67, NIP 123-456-32-18", "123-456-32-18"),
        ("NIP: 1234563218", "1234563218"),
    ],
    counter_examples: &["123-456-32-18", "NIP 123-456-32-19"],
    ..PatternSpec::BASE
};
