//! Phone numbers: international ones by their `+` or `00`, North American ones by their
//! numbering plan, national ones by a country's own grouping or a phone word beside
//! them, in the languages users write in. Chinese, Japanese and Korean numbers, whose
//! cues are glued to them, are in `cjk.rs`.

use crate::engine::validators::structure;
use crate::engine::{PatternSpec, Proof};

const PHONE_CONTEXT: &[&str] = &[
    "phone",
    "call",
    "tel",
    "tel.",
    "telephone",
    "mobile",
    "cell",
    "fax",
    "contact",
    "reach",
    "whatsapp",
    "text me",
    "ring",
    "dial",
    "sms",
    "phone number",
    "ph",
    "mob",
    "handy",
    "telefon",
    "téléphone",
    "portable",
    "ligue",
    "telefone",
    "celular",
    "contato",
    "appelez",
    "joindre",
    "telefonnummer",
    "rufnummer",
    "handynummer",
    "festnetz",
    "erreichbar",
    "anrufen",
    "teléfono",
    "telefono",
    "móvil",
    "llamar",
    "cellulare",
    "mobiel",
    "bellen",
    // the phone words of the other languages served, as people write them before a number
    "durchwahl",
    "mobilnummer",
    "telefonisch",
    "tél",
    "tél.",
    "rappeler",
    "llamando",
    "llámame",
    "contacto",
    "cel",
    "cel.",
    "cell.",
    "recapito",
    "chiamare",
    "telefoon",
    "telefoonnummer",
    "bel",
    "gsm",
    "telemóvel",
    "ligar",
    "telefonu",
    "komórka",
    "komórkowy",
    "kontakt",
    "zadzwoń",
    "tfn",
    "tlm",
    "tlm.",
    "telf",
    "telf.",
    "tfno",
    "tfno.",
    "llamarme",
    "llámeme",
    "marcar",
    "liga",
    "contactar",
    "chiamate",
    "chiamatemi",
    "nås",
    // "my number is …": the number word of each language (an order word nearby still
    // counts against it)
    "numer",
    "número",
    "numero",
    "numéro",
    "nummer",
    "numara",
    "numaram",
    "numarası",
    "ringa",
    "cep",
    "iletişim",
    "arayın",
];

/// The digits after an international prefix: country code, optional (area) with trunk
/// 0, then groups (E.164: 6–14 more digits).
macro_rules! international_digits {
    () => {
        r"[1-9]\d{0,2}[\s.\-]?(?:\(0?\d{1,4}\)[\s.\-]?)?\d{1,5}(?:[\s.\-]?\d{2,5}){1,4}\b"
    };
}

/// What the `+` and `00` forms of an international number share.
const INTERNATIONAL_PHONE: PatternSpec = PatternSpec {
    label: "PHONE_NUMBER",
    proof: Proof::Grammar,
    validate: Some(international),
    context: PHONE_CONTEXT,
    ..PatternSpec::BASE
};

/// International numbers written with `+`. A country code and eight digits in a phone's
/// groups are a phone even beside an "order #" or a "ticket": 0.9 minus the negative
/// context's 0.35 stays above 0.5.
pub(super) const PHONE_INTERNATIONAL: PatternSpec = PatternSpec {
    name: "phone_international",
    regex: concat!(r"\+", international_digits!()),
    score: 0.9,
    examples: &[
        ("call me at +1 415-555-0132 tomorrow", "+1 415-555-0132"),
        ("UK office +44 20 7946 0958", "+44 20 7946 0958"),
        ("Berlin +49 (0)30 12345678", "+49 (0)30 12345678"),
        ("Paris +33 1 23 45 67 89", "+33 1 23 45 67 89"),
        ("Mumbai +91 98765 43210", "+91 98765 43210"),
        ("Sydney +61 2 9876 5432", "+61 2 9876 5432"),
        ("São Paulo +55 11 91234-5678", "+55 11 91234-5678"),
        (
            "(ana@example.com, +48 601 234 567) says order #88231 is late",
            "+48 601 234 567",
        ),
    ],
    counter_examples: &["temperature +12 degrees", "score +3-2"],
    ..INTERNATIONAL_PHONE
};

/// International numbers written with `00`, which also starts record numbers and ids
/// (`MR# 00912377`): weaker than `+`.
pub(super) const PHONE_INTERNATIONAL_00: PatternSpec = PatternSpec {
    name: "phone_international_00",
    regex: concat!(r"\b00", international_digits!()),
    score: 0.7,
    examples: &[("Tel. 0044 20 7946 0958", "0044 20 7946 0958")],
    counter_examples: &["order #0044 20 7946 0958", "0012"],
    ..INTERNATIONAL_PHONE
};

fn international(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    digits >= 8 && structure::phone(s)
}

/// North American Numbering Plan (US, CA): `(415) 555-0132`, `415-555-0132`,
/// `415.555.0132`; area and exchange codes start 2–9.
pub(super) const PHONE_NANP: PatternSpec = PatternSpec {
    name: "phone_nanp",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        (?:\b1[\s.\-])?                  # optional trunk 1
        (?:\([2-9]\d{2}\)\s?|\b[2-9]\d{2}[\s.\-])   # area code
        [2-9]\d{2}[\s.\-]\d{4}\b",
    score: 0.6,
    proof: Proof::Grammar,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[
        ("Phone: (415) 555-0132", "(415) 555-0132"),
        ("Toronto office 416.555.0199", "416.555.0199"),
        ("dial 1-800-555-0199 now", "1-800-555-0199"),
    ],
    counter_examples: &[
        "the score was 3-2",
        "in 2021 and 2022",
        "invoice 415-555-0132",
    ],
    ..PatternSpec::BASE
};

/// A ten-digit number in the North American layout right after a phone word (`tel (555)
/// 013-4477`, `Fax: 555-013-4477`), whatever its area and exchange codes: a mistyped or
/// made-up number still tells how to reach someone, and the word says what it is. Without
/// the word, `PHONE_NANP` checks the codes. The word fixes the number's start (`Grammar`).
pub(super) const PHONE_CUED: PatternSpec = PatternSpec {
    name: "phone_cued",
    label: "PHONE_NUMBER",
    regex: r"(?ix)
        \b(?:tel|telephone|phone|ph|fax|cell|mobile|pager|call)\.?(?:\s+(?:no\.?|number|\#))?
        \s*[:\#]?\s*
        (\(\d{3}\)\s?\d{3}[\s.\-]\d{4}|\d{3}[\s.\-]\d{3}[\s.\-]\d{4})\b",
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    examples: &[
        ("PCP: Dr. Hoffmann, tel (555) 013-4477", "(555) 013-4477"),
        ("Fax: 555-013-4477", "555-013-4477"),
        ("Phone no. 123.456.7890 (cell)", "123.456.7890"),
    ],
    counter_examples: &[
        "invoice 555-013-4477",
        "tel 555-013-44770",
        "phone model 555-013-4477",
    ],
    ..PatternSpec::BASE
};

/// A North American number with its extension (`617-732-5500 x4410`, `(617) 555-0199 ext.
/// 3`): the extension reaches one desk, so it goes with the number. The extension word
/// makes the layout a phone's whatever its area and exchange codes.
pub(super) const PHONE_EXTENSION: PatternSpec = PatternSpec {
    name: "phone_extension",
    label: "PHONE_NUMBER",
    regex: r"(?ix)
        (?:\b1[\s.\-])?(?:\(\d{3}\)\s?|\b\d{3}[\s.\-])\d{3}[\s.\-]\d{4}
        ,?\s?(?:x|ext\.?|extension)\s?\d{1,6}\b",
    score: 0.85,
    proof: Proof::Grammar,
    validate: Some(before_extension),
    examples: &[
        ("tel 617-732-5500 x4410.", "617-732-5500 x4410"),
        ("(617) 555-0199 ext. 3 or", "(617) 555-0199 ext. 3"),
        (
            "Call 555-013-4477, extension 12",
            "555-013-4477, extension 12",
        ),
    ],
    counter_examples: &["ratio 1-2-3 x4", "555-0132 x12", "a 4 x 6 inch card"],
    ..PatternSpec::BASE
};

/// The number before the extension word (the number itself has no letter) is a phone's.
fn before_extension(s: &str) -> bool {
    let number = s
        .find(|c: char| c.is_ascii_alphabetic())
        .map_or(s, |at| &s[..at]);
    structure::phone(number)
}

/// A national number of 9 to 12 digits in groups right after a phone word of the
/// languages users write in, or after the word and "is" (`Mi móvil: 612 345 678`,
/// `cellulare 347 123 4567`, `Handy 0151 2345 6789`, `o meu telemóvel é 912 345 678`,
/// `telefonnummer är 070-123 45 67`), or after "call me at" and its kin in those
/// languages (`call me at 0661-234567`, `erreichen Sie uns unter 030 12345678`, `le
/// llamaremos al 612 345 678`, any grouping): no national layout fits them all, so the
/// cue is required, and it fixes the number's start (`Grammar`).
pub(super) const PHONE_CUED_NATIONAL: PatternSpec = PatternSpec {
    name: "phone_cued_national",
    label: "PHONE_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?:phone|mobile|cell|tel|telephone|móvil|movil|teléfono|telefono|celular|cellulare
          |telefone|telemóvel|handy|mobil|telefon|téléphone|portable|gsm|telefonnummer
          |mobilnummer|mobiel|mobielnummer|tlf|telefonszám|telefonszámom|puhelin
          |puhelinnumero|numer\s+telefonu|telefonní\s+číslo)\.?
        (?:\s+(?:n[º°o]\.?|number|nummer|número|numero|numéro))?",
        copula!(),
        r"\s*[:\#]?\s*
        (\(?\d{2,4}\)?(?:[\s.\-/]\d{2,4}){2,4})\b
      | \b(?:(?:call|text|ring|reach|whatsapp|contact)\s+(?:me|us|him|her|them)\s+(?:at|on)
          # German: erreichen Sie uns (telefonisch) unter, erreichbar unter, rufen Sie
          # mich (bitte) zurück, ruf uns an unter
          | erreichen\s+sie\s+(?:uns|mich|ihn|sie)(?:\s+(?:telefonisch|jederzeit|gerne|auch))?\s+unter
          | erreichbar\s+unter
          | (?:rufen\s+sie\s+(?:uns|mich)|ruf\s+(?:uns|mich))(?:\s+(?:bitte|gerne|einfach))*
            \s+(?:an|zurück)(?:\s+unter)?
          # Spanish, Italian: le llamaremos al, llámenos al, chiamami al
          | (?:llámame|llamame|llámanos|llamanos|llámenos|llamenos|llame|llamen|llamar
            |llamaremos|llamaré|llamare|contáctanos|contáctenos|chiamami|chiamaci
            |chiamateci|chiamare|contattami|contattaci)\s+al
          # French, Portuguese, Dutch: me joindre au, appelez-nous au, ligue-me para o, bel me op
          | (?:appelez|appelle[sz]?|contactez|joindre|joignable)(?:[\s\-](?:nous|moi))?\s+au
          | (?:ligue|liga)(?:-me|-nos)?\s+para(?:\s+o)?
          | bel\s+(?:me|ons)\s+(?:op|via)
          # Swedish, Danish, Norwegian: ring mig på, ring meg på
          | ring\s+(?:mig|meg|os|oss)\s+på)
        \s*:?\s*(\(?\d{2,5}\)?(?:[\s.\-/]\d{2,8}){1,4})\b"
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(cued_national),
    // The phone word is part of the match: an order number nearby says nothing against it.
    negative_context: &[],
    examples: &[
        ("Mi móvil: 612 345 678.", "612 345 678"),
        ("telefono 347 123 4567", "347 123 4567"),
        ("Handy: 0151 2345 6789", "0151 2345 6789"),
        ("Téléphone : 06 12 34 56 78", "06 12 34 56 78"),
        ("order #88231, Handy 0151 2345 6789", "0151 2345 6789"),
        ("o meu telemóvel é 912 345 678.", "912 345 678"),
        ("mitt telefonnummer är 070-123 45 67", "070-123 45 67"),
        (
            "My order #A-77812 hasn't arrived, call me at 0661-234567.",
            "0661-234567",
        ),
        (
            "Bei Fragen erreichen Sie uns unter 030 12345678.",
            "030 12345678",
        ),
        ("Rufen Sie mich bitte zurück: 0171 2345678.", "0171 2345678"),
        ("Le llamaremos al 612 345 678 mañana.", "612 345 678"),
        ("Chiamami al 347 123 4567 quando arrivi.", "347 123 4567"),
        ("Ring mig på 070-123 45 67.", "070-123 45 67"),
        (
            "Vous pouvez me joindre au 04 72 10 30 30.",
            "04 72 10 30 30",
        ),
    ],
    counter_examples: &[
        "mobile 12 34",
        "phone model 2024 edition",
        "cell 3 of 4 5 6",
        "call me at 10 30 tomorrow",
        "Rufen Sie uns an unter 1 2",
        "llamaremos al 2024",
    ],
    ..PatternSpec::BASE
};

fn cued_national(s: &str) -> bool {
    national(s, 9..=12)
}

/// North American local numbers without an area code, `555-0199`, as notes and forms
/// write them. Seven digits are also prices, counts and ids, so only a phone word nearby
/// (`call`, `tel`, `contact`) lifts it over the threshold.
pub(super) const PHONE_NANP_LOCAL: PatternSpec = PatternSpec {
    name: "phone_nanp_local",
    label: "PHONE_NUMBER",
    regex: r"\b[2-9]\d{2}[.\-]\d{4}\b",
    score: 0.3,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[
        ("She prefers contact at 555-0199. Next appt", "555-0199"),
        ("call 867.5309 after six", "867.5309"),
    ],
    counter_examples: &["order 555-0199 shipped", "in 1990-1995", "ticket 555-0199"],
    ..PatternSpec::BASE
};

/// National numbers with a trunk 0 (UK, DE, AU, IN, NL, SE, …): `020 7946 0958`, `07700
/// 900123`, `030 12345678`, `089/1234567`, `(02) 9876 5432`, `040-628 04 33`, `023 - 531
/// 20 77`, a German office's extension after its dash (`040 460659-2217`). Many digit runs
/// look like this, so it needs context.
pub(super) const PHONE_TRUNK: PatternSpec = PatternSpec {
    name: "phone_trunk",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        (?:\(0\d{1,4}\)\s?|\b0\d{1,4}(?:[\s/.\-]|\s[\-/]\s))   # trunk 0 and area code, then a separator
        \d{2,8}(?:[\s.\-]\d{2,5}){0,3}\b",
    score: 0.45,
    validate: Some(trunk),
    context: PHONE_CONTEXT,
    examples: &[
        ("Phone: (020) 7946 0958", "(020) 7946 0958"),
        ("mobile 07700 900123", "07700 900123"),
        ("Tel. 030 12345678", "030 12345678"),
        ("call (02) 9876 5432", "(02) 9876 5432"),
        ("Ring mig på 040-628 04 33 i morgon", "040-628 04 33"),
        ("Durchwahl 040 460659-2217", "040 460659-2217"),
        ("bellen naar 023 - 531 20 77", "023 - 531 20 77"),
    ],
    counter_examples: &[
        "in 2021 and 2022",
        "file 020 7946 0958",
        "tel 01.02.2024",
        "Rechnung 040 460659-2217",
    ],
    ..PatternSpec::BASE
};

/// Nine to thirteen digits (a German office number with its extension has thirteen).
fn trunk(s: &str) -> bool {
    national(s, 9..=13)
}

/// Mobile numbers of the European countries whose languages we serve, in the national form
/// and grouping their owners write: German `0151 27730148` (015x to 017x), Dutch
/// `06-41275839`, Swedish `070-174 06 47` (070, 072, 073, 076, 079), Italian `338-9041172`
/// or `347 123 4567` (3xx), Spanish `612 34 56 78` (6xx, 7xx in pairs). Each plan gives
/// these prefixes to mobiles only, and the grouping is the country's, so no phone word is
/// needed, as for [`PHONE_UK_MOBILE`]; an order or invoice word nearby still takes it
/// under the threshold.
pub(super) const PHONE_EU_MOBILE: PatternSpec = PatternSpec {
    name: "phone_eu_mobile",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        \b(?: 01[5-7]\d{1,2}[\s/\-]?\d{3,4}[\s\-]?\d{3,5}      # DE
           | 06[\s\-]?\d{8} | 06[\s\-]\d{2}(?:\s\d{2}){3}           # NL
           | 07[02369]-?\d{3}\s\d{2}\s\d{2}                        # SE
           | 3\d{2}[\s\-/]\d{6,7} | 3\d{2}\s\d{3}\s\d{3,4}          # IT
           | [67]\d{2}(?:\s\d{2}){3} )\b                             # ES",
    score: 0.55,
    validate: Some(eu_mobile),
    context: PHONE_CONTEXT,
    examples: &[
        ("Mvh Amanda, 073-941 22 85", "073-941 22 85"),
        ("Handy 0160 93374125", "0160 93374125"),
        ("mijn nummer is 06-41275839", "06-41275839"),
        ("Cellulare: 338-9041172", "338-9041172"),
        ("anúlela llamando al 685 30 22 17.", "685 30 22 17"),
        ("Gruß, Jan (0151 27730148)", "0151 27730148"),
    ],
    counter_examples: &[
        "Rechnung 0151 27730148",
        "in 2021 and 2022",
        "Artikel 06 12345678 bestellt",
        "300 000000 tonnes",
        "ISBN 385 123 4567",
    ],
    ..PatternSpec::BASE
};

/// Nine to twelve digits, not a run of one digit and no amount in thousands (`300
/// 000000`).
fn eu_mobile(s: &str) -> bool {
    national(s, 9..=12) && !s.ends_with("000")
}

/// Nine- and ten-digit national numbers without a trunk 0, in the groups of Spain,
/// Portugal, Poland and Mexico (`91 523 47 81`, `976 55 90 12`, `963 552 018`, `605-318-772`,
/// `(12) 411 27 05`, `55 4187 2093`). Amounts and ids are grouped so too, so a phone word
/// nearby must lift it.
pub(super) const PHONE_GROUPED_NATIONAL: PatternSpec = PatternSpec {
    name: "phone_grouped_national",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        (?:\(\d{2}\)\s?\d{3}(?:[\s\-]\d{2}){2}
          | \b[1-9]\d{2}[\s\-]\d{3}[\s\-]\d{3}
          | \b[1-9]\d{2}(?:[\s\-]\d{2}){3}
          | \b[1-9]\d[\s\-]\d{3}(?:[\s\-]\d{2}){2}
          | \b[1-9]\d[\s\-]\d{3,4}[\s\-]\d{4} )\b",
    score: 0.3,
    validate: Some(grouped_national),
    context: PHONE_CONTEXT,
    examples: &[
        (
            "Pueden localizarme en el teléfono 91 523 47 81",
            "91 523 47 81",
        ),
        ("o meu número de telemóvel: 963 552 018", "963 552 018"),
        ("Kontakt do gościa: 605-318-772.", "605-318-772"),
        ("tel. (12) 411 27 05", "(12) 411 27 05"),
        ("celular 55 4187 2093", "55 4187 2093"),
    ],
    counter_examples: &[
        "963 552 018",
        "pedido 963 552 018",
        "kontakt, budżet 250 000 000",
        "call 123 456 789",
    ],
    ..PatternSpec::BASE
};

/// Nine or ten digits and no amount in thousands.
fn grouped_national(s: &str) -> bool {
    national(s, 9..=10) && !s.ends_with("000")
}

/// A national number's length in digits, and no run of one digit or 1234….
fn national(s: &str, digits: std::ops::RangeInclusive<usize>) -> bool {
    digits.contains(&s.bytes().filter(u8::is_ascii_digit).count()) && structure::phone(s)
}

/// Philippine mobile numbers in national form `0917 123 4567` (Presidio's
/// PH_MOBILE_NUMBER, an alias of PHONE_NUMBER): `09` and a network code make eleven
/// digits no other number here starts with, so no context is needed (dev sets: 0 new
/// detections); the `+63` form is an international number.
pub(super) const PHONE_PH_MOBILE: PatternSpec = PatternSpec {
    name: "phone_ph_mobile",
    label: "PHONE_NUMBER",
    regex: r"\b09\d{2}[\s\-]?\d{3}[\s\-]?\d{4}\b",
    score: 0.55,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[
        ("text me at 0917 123 4567", "0917 123 4567"),
        ("0998-765-4321", "0998-765-4321"),
    ],
    counter_examples: &["invoice 09171234567", "version 0917 123 4567"],
    ..PatternSpec::BASE
};

/// UK mobile numbers in national form `07911 123456`, `07911 123 456`: `07` and nine
/// more digits in a mobile's groups; a landline (`020 7946 0958`) needs a phone word
/// (`PHONE_TRUNK`).
pub(super) const PHONE_UK_MOBILE: PatternSpec = PatternSpec {
    name: "phone_uk_mobile",
    label: "PHONE_NUMBER",
    regex: r"\b07\d{3}(?:[\s\-]?\d{6}|\s\d{3}\s\d{3})\b",
    score: 0.55,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[
        ("my number is 07911 123456.", "07911 123456"),
        ("07911 123 456 after six", "07911 123 456"),
        ("text 07911123456", "07911123456"),
    ],
    counter_examples: &[
        "invoice 07911 123456",
        "07911 12345 is short",
        "0791112345678",
    ],
    ..PatternSpec::BASE
};

/// Turkish mobile numbers in national form `0532 123 45 67` (Presidio's
/// TR_PHONE_NUMBER, an alias of PHONE_NUMBER): the 3-2-2 tail is Turkish usage.
pub(super) const PHONE_TR_MOBILE: PatternSpec = PatternSpec {
    name: "phone_tr_mobile",
    label: "PHONE_NUMBER",
    regex: r"\b05\d{2}[\s\-]\d{3}[\s\-]\d{2}[\s\-]\d{2}\b",
    score: 0.55,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[("cep: 0532 123 45 67", "0532 123 45 67")],
    counter_examples: &["invoice 0532 123 45 67", "build 0532 123 45 67"],
    ..PatternSpec::BASE
};

/// French national format, five pairs: `01 23 45 67 89`, `06.12.34.56.78`.
pub(super) const PHONE_FR: PatternSpec = PatternSpec {
    name: "phone_fr",
    label: "PHONE_NUMBER",
    regex: r"\b0[1-9](?:[\s.\-]\d{2}){4}\b",
    score: 0.6,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[("appelez le 06 12 34 56 78", "06 12 34 56 78")],
    counter_examples: &["version 01.02.03.04.05 shipped"],
    ..PatternSpec::BASE
};

/// Indian mobiles `98765 43210` and Brazilian `(11) 91234-5678`.
pub(super) const PHONE_IN_BR: PatternSpec = PatternSpec {
    name: "phone_in_br",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        \b[6-9]\d{4}[\s\-]\d{5}\b          # IN mobile
      | \(\d{2}\)\s?9?\d{4}-\d{4}\b        # BR (DDD) [9]XXXX-XXXX",
    score: 0.45,
    validate: Some(structure::phone),
    context: PHONE_CONTEXT,
    examples: &[
        ("my mobile is 98765 43210", "98765 43210"),
        ("ligue (11) 91234-5678", "(11) 91234-5678"),
    ],
    counter_examples: &["order 98765 43210 shipped"],
    ..PatternSpec::BASE
};
