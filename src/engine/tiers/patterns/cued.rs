//! Identifiers with no format of their own: a device's serial number, a vehicle's plate
//! (of any country), an account number, a licence or certificate number and a travel
//! booking's reference are whatever their maker, registry or issuer chose, so only the
//! cue in front of them tells. All but the booking reference are among HIPAA's eighteen
//! Safe Harbor identifiers ("device identifiers and serial numbers", "vehicle
//! identifiers … including license plate numbers", "account numbers",
//! "certificate/license numbers"). The regex requires the cue (an IMEI also has its Luhn
//! digit). The cue fixes the span (`Grammar`), as for medical record numbers, but for a
//! plate, which stays a guess below the plate formats we can check (UK, TR, IN, …),
//! which keep their own labels where both read the same plate.

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
            | tag\s+number | reg\.?\s+no\.? | vehicle\s+registration
            # the same cue in the languages users write in: Kennzeichen, immatriculé,
            # matrícula, targata, kenteken, registreringsnummer, numer rejestracyjny, plaka
            | (?:amtliche[sn]?\s+)?kennzeichen | immatricul[ée]e? | immatriculation
            | plaque\s+d['’]immatriculation | matr[íi]cula | targat[oa] | targa
            | kenteken | registreringsnummer(?:et)? | reg\.?\s*nr\.?
            | (?:o\s+)?numer(?:ze)?\s+rejestracyjny(?:m)? | tablic[ay]\s+rejestracyjn[aąe]
            | placa | plakas[ıi] )
        (?:\s+is)?
        \s*[:\#]?\s*
        ((?-i:[A-Z0-9]{1,8}(?:[\ \-][A-Z0-9]{1,5}){0,2}))\b",
    group: 1,
    score: 0.52,
    validate: Some(plate_shaped),
    negative_context: &[],
    examples: &[
        ("License plate 4TYK982 seen leaving", "4TYK982"),
        ("plate no. KA-04-8812", "KA-04-8812"),
        ("Reg. no: WX 4421", "WX 4421"),
        ("Tag number: 7ABC123", "7ABC123"),
        ("license plate is 4TYK982", "4TYK982"),
        (
            "Renault Clio immatriculée GH-417-TB, conductrice",
            "GH-417-TB",
        ),
        ("Vehículo matrícula 7305 HRD. Fecha", "7305 HRD"),
        ("una Fiat Panda targata EZ 219 PL,", "EZ 219 PL"),
        ("Kennzeichen: 4TYK982 (Mietwagen)", "4TYK982"),
        ("med registreringsnummer KRT 52B stals", "KRT 52B"),
        ("o numerze rejestracyjnym WA 4471K.", "WA 4471K"),
    ],
    counter_examples: &[
        "license plate stolen",
        "registration number pending",
        "number plate ABCD",
        "registration mark 1",
        "la matrícula 2024",
        "kenteken aanvragen",
    ],
    ..PatternSpec::BASE
};

/// "his plate is 7ABC123", "plate 7ABC123": "plate" alone is also a dish, so the value must look like a
/// registration, letters and digits, five or more.
pub(super) const LICENSE_PLATE_IS: PatternSpec = PatternSpec {
    name: "license_plate_is",
    regex: r"(?ix)\bplate(?:\s+is|\s*:)?\s+((?-i:[A-Z0-9]{1,8}(?:[\ \-][A-Z0-9]{1,4}){0,2}))\b",
    validate: Some(registration_shaped),
    examples: &[
        ("and his plate is 7ABC123", "7ABC123"),
        ("(2018 Honda Civic, plate 7ABC123) was", "7ABC123"),
    ],
    counter_examples: &[
        "the plate is 12 inches",
        "the plate is HOT",
        "plate 12",
        "plate 2B",
    ],
    ..LICENSE_PLATE
};

fn registration_shaped(s: &str) -> bool {
    let alnum = s.bytes().filter(u8::is_ascii_alphanumeric).count();
    plate_shaped(s) && alnum >= 5 && s.bytes().any(|b| b.is_ascii_uppercase())
}

/// An account number after its cue, as bills, statements and hospital records print it:
/// `Acct#: 2291-004-33`, `account no. 55-10293`, `Account: AC-00481`. Four or more
/// digits, in groups or with letters, or fewer than eight in a plain run; a plain run of
/// eight or more is a bank account's shape and stays `US_BANK_NUMBER`'s. A year or a
/// fiscal year ("accounts 2020-21") is no account.
pub(super) const ACCOUNT_NUMBER: PatternSpec = PatternSpec {
    name: "account_number",
    label: "ACCOUNT_NUMBER",
    regex: concat!(
        r"(?ix)\b(?: acct\.? | account ) (?:\s*(?:no\.?|number|num|\#))?",
        cued_value!()
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(account_shaped),
    negative_context: &[],
    examples: &[
        (
            "Patient: ESPINOZA, FRANK   Acct#: 2291-004-33   DOB",
            "2291-004-33",
        ),
        ("your account no. 55-10293 is overdue", "55-10293"),
        ("Account: AC-00481", "AC-00481"),
        ("ACCT 4471902", "4471902"),
    ],
    counter_examples: &[
        "account 12",
        "account number pending",
        "the accounts 2020-21",
        "account for 4000 users",
        "checking account 12345678901",
    ],
    ..PatternSpec::BASE
};

/// What a person's number after its cue shares (customers, employees, students, and the
/// same in text without spaces, `cjk.rs`): the cue says what it is and fixes the span
/// (`Grammar`), so no context word counts against it; at least four digits, no year.
pub(super) const CUED_NUMBER: PatternSpec = PatternSpec {
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(member_shaped),
    negative_context: &[],
    ..PatternSpec::BASE
};

/// A customer's or client's number after its cue, in the languages users write in
/// (`customer no. 48213`, `Kundennummer: K-204417`, `numéro client 88213`, `nº de cliente
/// 0049312`, `klantnummer 7712045`, `müşteri no 55120`): one customer each, numbered by
/// each firm its own way, so only the cue tells, and it fixes the span (`Grammar`). An
/// `ACCOUNT_NUMBER`, as a customer's account is.
pub(super) const CUSTOMER_NUMBER: PatternSpec = PatternSpec {
    name: "customer_number",
    label: "ACCOUNT_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?: (?:customer|client)\s*(?:id|no\.?|number|num|\#)
            | kundennummer | kunden-?nr\.? | kd\.?-?nr\.?
            | n(?:um[ée]ro|º|°|o\.?)\s+(?:de\s+)?client | num[ée]ro\s+(?:de\s+)?cliente
            | n\.?º\s+(?:de\s+)?cliente | (?:codice|numero)\s+cliente | c[óo]digo\s+(?:de|do)\s+cliente
            | klantnummer | klantnr\.? | kundnummer | kundnr\.? | numer\s+klienta
            | müşteri\s+(?:numarası|numaranız|no\.?) )",
        copula!(),
        cued_value!()
    ),
    examples: &[
        ("Customer no. 48213, order shipped", "48213"),
        ("Kundennummer: K-204417", "K-204417"),
        ("mon numéro client est 88213", "88213"),
        ("nº de cliente 0049312", "0049312"),
        ("klantnummer 7712045", "7712045"),
        ("müşteri no 55120", "55120"),
        ("numer klienta: 300127", "300127"),
    ],
    counter_examples: &[
        "customer number pending",
        "customer id 12",
        "Kundennummer 2024",
        "the customer numbers grew",
    ],
    ..CUED_NUMBER
};

/// A loyalty account after its cue: a frequent-flyer number (`AAdvantage #: 7K4P290`,
/// `my SkyMiles number is 2197654321`), a loyalty or membership card; and a QQ number,
/// the Chinese messenger's account, which is a number too. One traveller or customer
/// each, so an `ACCOUNT_NUMBER`; airline programmes print long plain runs,
/// which the bank-account rule of [`ACCOUNT_NUMBER`] would refuse.
pub(super) const LOYALTY_NUMBER: PatternSpec = PatternSpec {
    name: "loyalty_number",
    label: "ACCOUNT_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?: frequent[\s-]?fl[iy]er | ffn
            | (?:loyalty|rewards?|membership)\s+(?:no\.?|number|num|\#|id|card)
            | member\s+(?:no\.?|number|num|\#)
            | aadvantage | skymiles | mileageplus | miles\s*(?:&|and)\s*more | flying\s+blue
            | executive\s+club | krisflyer | skywards | asia\s+miles | trueblue
            | rapid\s+rewards | (?-i:QQ) )
        (?:\s+(?:card\s+)?(?:no\.?|number|num|\#|id|account))? (?:\s+is)?",
        cued_value!()
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(loyalty_shaped),
    negative_context: &[],
    examples: &[
        ("AAdvantage #: 7K4P290", "7K4P290"),
        ("my SkyMiles number is 2197654321", "2197654321"),
        ("Miles & More 992004417731 (Senator)", "992004417731"),
        ("Frequent flyer no. BA-48291733", "BA-48291733"),
        ("loyalty card no. 6001-2293-8841", "6001-2293-8841"),
        ("membership number: M0049271", "M0049271"),
        (
            "Your member number is 7781 2234 9910. Best,",
            "7781 2234 9910",
        ),
        ("seat 14C, frequent flyer AA 8812345.", "AA 8812345"),
        ("WeChat: zhangwei_88, QQ: 123456789", "123456789"),
    ],
    counter_examples: &[
        "frequent flyer programme",
        "loyalty number pending",
        "membership id 2024",
        "Flying Blue 2",
        "rewards card 500",
        "member number 12 of 40",
    ],
    ..PatternSpec::BASE
};

/// An employee's, staff member's or badge number after its cue, in the languages users
/// write in (`Employee ID: E-004417`, `my staff number is 004271`, `Personalnummer
/// 88213`): one person each, numbered by each employer its own way, so only the cue
/// tells (the regex enforces it) and fixes the span (`Grammar`).
pub(super) const EMPLOYEE_ID: PatternSpec = PatternSpec {
    name: "employee_id",
    label: "EMPLOYEE_ID",
    regex: concat!(
        r"(?ix)
        \b(?: (?:employee|staff|personnel|payroll|badge)\s*(?:id|no\.?|number|num|code|\#)
            | emp\.?\s*(?:id|no\.?|\#) | personalnummer | personalnr\.? | mitarbeiternummer
            | personeelsnummer | anställningsnummer | matricule
            | numéro\s+d['’]employé | número\s+de\s+empleado )",
        copula!(),
        cued_value!()
    ),
    examples: &[
        ("Employee ID: E-004417 (Priya Raman)", "E-004417"),
        ("My badge number is 88213 and", "88213"),
        ("my staff number is 004271.", "004271"),
        ("Personalnummer: 7712045", "7712045"),
        ("EMP# 30418 on leave", "30418"),
        ("Her employee code is EMP-20931.", "EMP-20931"),
    ],
    counter_examples: &[
        "employee number 12",
        "staff number 2024",
        "employee id pending",
        "personnel numbers rose",
        "the Employee Code of Conduct",
    ],
    ..CUED_NUMBER
};

/// An employee's number or badge right after the bare word, as tickets write it:
/// `employee E-10442`, `badge 88123`. Without "id" or "number" only an id's shape counts:
/// capitals then digits, or five digits or more ("employee 12", "badge 2025" stay).
pub(super) const EMPLOYEE_ID_BARE: PatternSpec = PatternSpec {
    name: "employee_id_bare",
    label: "EMPLOYEE_ID",
    regex: r"(?ix)
        \b(?: employee | badge ) \s+
        ( (?-i:[A-Z]{1,4}) -? \d{3,8} | \d{5,8} ) \b",
    group: 1,
    score: 0.7,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        (
            "Reset MFA for employee E-10442 (bruno.costa@acme.com.br)",
            "E-10442",
        ),
        ("badge 88123, desk 3F-17", "88123"),
    ],
    counter_examples: &[
        "employee 12 left",
        "badge 2025 edition",
        "every employee 2024 survey",
        "employee benefits",
    ],
    ..PatternSpec::BASE
};

/// A student's or matriculation number after its cue (`Student No: 2021104583`,
/// `Matrikelnummer 412233`, `numéro étudiant 21904417`); like [`EMPLOYEE_ID`], whose
/// scoring and shape it shares, only the cue tells.
pub(super) const STUDENT_ID: PatternSpec = PatternSpec {
    name: "student_id",
    label: "STUDENT_ID",
    regex: concat!(
        r"(?ix)
        \b(?: student\s*(?:id|no\.?|number|num|\#|card\s+(?:no\.?|number))
            | matriculation\s+(?:no\.?|number) | matrikelnummer | matrikel-?nr\.?
            | studentnummer | studienummer | numéro\s+(?:d['’])?étudiant
            | número\s+de\s+(?:estudiante|matrícula) | numero\s+di\s+matricola
            | numer\s+indeksu )",
        copula!(),
        cued_value!()
    ),
    examples: &[
        ("Student No: 2021104583, enrolled in", "2021104583"),
        ("my student ID is S2291-04", "S2291-04"),
        ("Matrikelnummer 412233", "412233"),
        ("numéro étudiant 21904417", "21904417"),
    ],
    counter_examples: &[
        "student number 30",
        "student id 2023",
        "student numbers grew",
    ],
    ..EMPLOYEE_ID
};

/// An insurance policy's or an insured person's number after its cue, in the languages
/// users write in (`Versicherungsnummer 44-1187-302`, `Versicherungsschein-Nr. KH-2291-04`,
/// `n° de police 88213-B`, `póliza nº 0049312`, `numero di polizza 7712045`, `polisnummer
/// 7712045`, `apólice n.º 55120`, `numer polisy 300127`, `försäkringsnummer 88213`, `poliçe
/// no 55120`): the [`super::clinical::HEALTH_PLAN_NUMBER`] of the other languages, one
/// insured person or household each, so the same label.
pub(super) const INSURANCE_NUMBER: PatternSpec = PatternSpec {
    name: "insurance_number",
    label: "HEALTH_PLAN_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?: versicherungs(?:schein)?-?(?:nummer|nr\.?) | versicherten-?(?:nummer|nr\.?)
            | polic?ennummer | polizzennummer
            | n(?:um[ée]ro|º|°|o\.?)\s+(?:de\s+|d['’])?(?:police|assur[ée])
            | (?:n(?:úmero|º|°|o\.?)\s+de\s+)?p[óo]liza(?:\s+n(?:º|°|o\.?|úmero))?
            | (?:numero\s+(?:di\s+)?)?polizza(?:\s+n(?:\.|°|umero))?
            | polisnummer | polisnr\.? | (?:n(?:úmero|\.?º)\s+d[ae]\s+)?ap[óo]lice(?:\s+n\.?º)?
            | numer\s+polisy | nr\s+polisy | försäkringsnummer(?:et)?
            | poliçe\s+(?:no|numarası|numaranız) )",
        copula!(),
        cued_value!()
    ),
    examples: &[
        (
            "Versicherungsschein-Nr. KH-2291-04\nSchadentag",
            "KH-2291-04",
        ),
        ("meine Versicherungsnummer ist 44-1187-302", "44-1187-302"),
        ("votre n° de police 88213-B", "88213-B"),
        ("póliza nº 0049312", "0049312"),
        ("numero di polizza 7712045", "7712045"),
        ("Polisnummer: 204881733", "204881733"),
        ("apólice n.º 55120-7", "55120-7"),
        ("numer polisy: 300127", "300127"),
        ("Poliçe no AS-4420-118", "AS-4420-118"),
    ],
    counter_examples: &[
        "póliza 2024",
        "polisnummer onbekend",
        "la polizza scade",
        "Versicherungsnummer 12",
    ],
    ..CUED_NUMBER
};

/// A passport number of any country after its cue, in the languages users write in
/// (`her passport number is E1234567K`, `numéro de passeport 18AB12345`). A guess, not
/// an exact span: where a country's own pattern reads the same number (`US_PASSPORT`,
/// `IN_PASSPORT`, …) with its cue, that one is more confident and names the country.
pub(super) const PASSPORT_NUMBER: PatternSpec = PatternSpec {
    name: "passport_number",
    label: "PASSPORT_NUMBER",
    regex: concat!(
        r"(?ix)
        \b(?: passport | passeport | pasaporte | passaporte | passaporto | reisepass
            | reisepassnummer | passnummer | paspoort | paspoortnummer | paszport(?:u|em)?
            | pasaport(?:u|um)? )
        (?:\s*(?:no\.?|number|num|nr\.?|\#|numéro|número|numero|nummer|n[º°o]?\.?|n\.º))?",
        copula!(),
        cued_value!()
    ),
    group: 1,
    // Under a country's pattern with its cue (0.55), over the default threshold.
    score: 0.52,
    validate: Some(passport_shaped),
    negative_context: &[],
    examples: &[
        ("her passport number is E1234567K.", "E1234567K"),
        ("numéro de passeport: 18AB12345", "18AB12345"),
        ("ci-joint mon passeport n° 14CV80213,", "14CV80213"),
        ("passaporto n. 5K1204398, si conviene", "5K1204398"),
        ("legitymującym się paszportem nr EK902417,", "EK902417"),
        ("Pasaport No: U48102277", "U48102277"),
        ("mijn paspoortnummer is NW7K2PL81", "NW7K2PL81"),
    ],
    counter_examples: &[
        "passport number pending",
        "passport photo 2x2",
        "passport office 2024",
    ],
    ..PatternSpec::BASE
};

/// Six to ten letters and digits, four or more of them digits.
fn passport_shaped(s: &str) -> bool {
    let alnum = s.bytes().filter(u8::is_ascii_alphanumeric).count();
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    alnum == s.len() && (6..=10).contains(&alnum) && digits >= 4
}

/// A licence or certificate number after its cue: `License No. 0049288`, `Lic #:
/// RN-4417782`, `certificate no. BC-2291-88`, `medical licence number 123456`, `Lic. RN
/// 229187`. A cue with its "no."/"number"/"#" or a clinical licence's kind, and four or
/// more digits. A driving licence's number is `US_DRIVER_LICENSE`'s and a plate
/// `LICENSE_PLATE`'s: "driver" or "driving" near the cue takes this reading under the
/// threshold.
pub(super) const LICENSE_NUMBER: PatternSpec = PatternSpec {
    name: "license_number",
    label: "LICENSE_NUMBER",
    regex: concat!(
        r"(?ix)\b(?: licen[cs]e | lic\.? | certificate | cert\.? ) \s*(?:no\.?|number|num|\#)",
        cued_value!(),
        // the licence's kind between the cue and its number: `Lic. RN 229187`
        r"| \b(?: licen[cs]e | lic\.? ) \s* (?-i:RN|LPN|LVN|NP|APRN|MD|DO|PA|DDS|DMD|RPh|CRNA)
            \s*[:\#]?\s*(\d{4,10})\b"
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(account_shaped),
    negative_context: &["driver", "driving", "driver's"],
    examples: &[
        (
            "Health plan ID 4492. License No. 0049288. Specimen",
            "0049288",
        ),
        ("Lic #: RN-4417782.", "RN-4417782"),
        ("birth certificate no. BC-2291-88", "BC-2291-88"),
        ("medical licence number 123456", "123456"),
        ("Lic. RN 229187, DEA# AB1234563", "229187"),
    ],
    counter_examples: &[
        "license number pending",
        "Driver's License No. D1234567",
        "licence no. 12",
        "the license 4417782",
    ],
    ..PatternSpec::BASE
};

/// A travel booking's reference after its cue: `Booking ref XK7P2Q`, `PNR: 4KQ2ZP`,
/// `confirmation code H7T9QX`, `record locator: ZX4P9B`, `reservation no. 7731-4490`,
/// an airline's thirteen-digit `e-ticket 0162345678901`. With the passenger's surname it
/// opens the booking (an airline's "manage my booking"), so it goes like an account
/// number. Five to fourteen letters and digits with at least one digit: "booking ref
/// pending" and "PNR CONFIRMED" are no reference (a reference of letters alone is missed
/// rather than every capitalised word after the cue).
pub(super) const BOOKING_REFERENCE: PatternSpec = PatternSpec {
    name: "booking_reference",
    label: "BOOKING_REFERENCE",
    regex: concat!(
        r"(?ix)
        \b(?: booking\s+(?:ref(?:erence)?\.?|code|no\.?|number|id)
            | reservation\s+(?:ref(?:erence)?\.?|code|no\.?|number|id)
            | confirmation\s+(?:code|no\.?|number|\#)
            | pnr | record\s+locator | e-?ticket(?:\s+(?:no\.?|number|\#))? )",
        cued_value!()
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(booking_shaped),
    negative_context: &[],
    examples: &[
        ("Booking ref XK7P2Q for passenger GARCIA/MARIA", "XK7P2Q"),
        ("PNR: 4KQ2ZP", "4KQ2ZP"),
        ("your confirmation code: H7T9QX", "H7T9QX"),
        ("Record locator ZX4P9B, seat 23A", "ZX4P9B"),
        ("reservation no. 7731-4490 at the hotel", "7731-4490"),
        ("seat 32A, e-ticket 0162345678901", "0162345678901"),
    ],
    counter_examples: &[
        "booking ref pending",
        "PNR CONFIRMED",
        "confirmation number 12",
        "booking 2 rooms for 20245 guests",
    ],
    ..PatternSpec::BASE
};

fn booking_shaped(s: &str) -> bool {
    let alnum = s.bytes().filter(u8::is_ascii_alphanumeric).count();
    (5..=14).contains(&alnum) && s.bytes().any(|b| b.is_ascii_digit())
}

/// Four or more digits, and not a plain run of eight or more (a bank account's shape) nor
/// a year or fiscal year.
fn account_shaped(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    // A plain run of eight or more is a bank account's shape (`US_BANK_NUMBER`).
    let bank = digits == s.len() && digits >= 8;
    let fiscal = s
        .split_once('-')
        .is_some_and(|(a, b)| year(a) && b.len() == 2 && b.bytes().all(|c| c.is_ascii_digit()));
    digits >= 4 && !bank && !year(s) && !fiscal
}

/// Four digits that read as a year of the last or this century.
fn year(s: &str) -> bool {
    s.len() == 4
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s.starts_with("19") || s.starts_with("20"))
}

/// Four or more digits, at most 24 characters, and no year.
fn member_shaped(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    digits >= 4 && s.len() <= 24 && !year(s)
}

/// Five or more digits (so no year), at most 24 characters.
fn loyalty_shaped(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    digits >= 5 && s.len() <= 24
}

fn serial_shaped(s: &str) -> bool {
    s.len() >= 4 && s.bytes().filter(u8::is_ascii_digit).count() >= 2
}

fn plate_shaped(s: &str) -> bool {
    let alnum = s.bytes().filter(u8::is_ascii_alphanumeric).count();
    (2..=8).contains(&alnum) && s.bytes().any(|b| b.is_ascii_digit()) && !year(s)
}
