//! The word lists `PSEUDONYMIZE` draws from, compiled into the binary.
//!
//! Small on purpose (a few dozen rows each): enough variety for realistic text, not a
//! census. Names mix cultures and genders; organisations use well-known fictional
//! company names; domains are the ones RFC 2606 reserves for examples; phone ranges are
//! the ones regulators reserve for fiction (see `phone.rs`). Edit freely: every row only
//! has to be a plain word without digits.

/// Given names, several cultures and genders.
pub const GIVEN_NAMES: &[&str] = &[
    // English
    "Oliver",
    "Amelia",
    "Harry",
    "Isla",
    "Jack",
    "Grace",
    "Noah",
    "Emily",
    // Spanish / Portuguese
    "Mateo",
    "Lucía",
    "Santiago",
    "Valentina",
    "João",
    "Beatriz",
    // French / German / Italian
    "Louis",
    "Chloé",
    "Lukas",
    "Hannah",
    "Lorenzo",
    "Giulia",
    // Polish / Russian / Greek
    "Jakub",
    "Zofia",
    "Dmitri",
    "Anastasia",
    "Nikos",
    "Eleni",
    // Arabic / Turkish / Persian
    "Omar",
    "Layla",
    "Yusuf",
    "Fatma",
    "Darius",
    "Shirin",
    // Indian
    "Arjun",
    "Priya",
    "Rohan",
    "Ananya",
    // Chinese / Japanese / Korean (romanised)
    "Wei",
    "Mei",
    "Haruto",
    "Yui",
    "Minjun",
    "Seoyeon",
    // West and East African
    "Chinedu",
    "Ngozi",
    "Kwame",
    "Amara",
    "Baraka",
    "Zawadi",
];

/// Surnames, several cultures.
pub const SURNAMES: &[&str] = &[
    "Smith",
    "Taylor",
    "Walker",
    "Wright",
    "García",
    "Fernández",
    "Silva",
    "Moreau",
    "Lefèvre",
    "Schneider",
    "Fischer",
    "Rossi",
    "Bianchi",
    "Kowalski",
    "Nowak",
    "Ivanova",
    "Papadopoulos",
    "Haddad",
    "Yilmaz",
    "Rahimi",
    "Sharma",
    "Iyer",
    "Chen",
    "Zhang",
    "Tanaka",
    "Sato",
    "Kim",
    "Park",
    "Okafor",
    "Mensah",
    "Mwangi",
    "Nkosi",
];

/// Street names (without the street type).
pub const STREETS: &[&str] = &[
    "Maple", "Oak", "Cedar", "Willow", "Birch", "Elm", "Chestnut", "Station", "Church", "Mill",
    "Park", "Harbour", "Orchard", "Meadow", "Victoria", "Garden",
];

/// Street types.
pub const STREET_TYPES: &[&str] = &["Street", "Road", "Avenue", "Lane", "Drive", "Way", "Close"];

/// Health conditions, one word each, common enough to point at no one.
pub const CONDITIONS: &[&str] = &[
    "asthma",
    "migraine",
    "eczema",
    "tonsillitis",
    "bronchitis",
    "sinusitis",
    "gastritis",
    "insomnia",
];

/// Occupations, one word each, common enough to point at no one.
pub const OCCUPATIONS: &[&str] = &[
    "teacher",
    "nurse",
    "engineer",
    "accountant",
    "electrician",
    "clerk",
    "driver",
    "cook",
    "technician",
    "consultant",
];

/// City names: common, many-times-reused names, so none points at one real place.
pub const CITIES: &[&str] = &[
    "Springfield",
    "Riverton",
    "Fairview",
    "Greenville",
    "Franklin",
    "Clinton",
    "Georgetown",
    "Salem",
    "Madison",
    "Ashford",
    "Kingsbridge",
    "Newport",
    "Milton",
    "Bristow",
    "Lakeside",
    "Oakdale",
];

/// Fictional company names (Microsoft's and film classics) for the first word(s).
pub const COMPANY_NAMES: &[&str] = &[
    "Contoso",
    "Fabrikam",
    "Northwind",
    "Tailspin",
    "Litware",
    "Proseware",
    "Wingtip",
    "Adatum",
    "Initech",
    "Globex",
    "Acme",
    "Umbrella",
    "Vandelay",
    "Stark",
];

/// Second words of company names.
pub const COMPANY_KINDS: &[&str] = &[
    "Traders",
    "Systems",
    "Logistics",
    "Industries",
    "Partners",
    "Labs",
    "Holdings",
    "Solutions",
    "Foods",
    "Media",
];

/// Legal-form suffixes kept when the original ends with one.
pub const LEGAL_FORMS: &[&str] = &[
    "Inc", "Inc.", "Ltd", "Ltd.", "LLC", "GmbH", "AG", "SA", "S.A.", "plc", "PLC", "Corp", "Corp.",
    "Co.", "BV", "B.V.", "SARL", "Pty", "Oy", "AB",
];

/// Domains reserved for documentation (RFC 2606).
pub const DOMAINS: &[&str] = &["example.com", "example.org", "example.net"];

/// US area codes used with the fictional 555-01xx line range.
pub const US_AREA_CODES: &[&str] = &[
    "201", "212", "303", "312", "415", "503", "617", "713", "808",
];

/// UK numbers Ofcom reserves for drama (national format, trunk `0` included); each
/// is 11 digits once the last `xxx` digits are filled in at random.
pub const UK_DRAMA_RANGES: &[&str] = &[
    "07700900", // mobile: 07700 900000–900999
    "02079460", // London: 020 7946 0000–0999
    "01134960", // Leeds: 0113 496 0000–0999
    "01614960", // Manchester: 0161 496 0000–0999
    "01174960", // Bristol: 0117 496 0000–0999
];

/// Month names for date formats that spell them.
pub const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_non_empty_unique_words_without_digits() {
        for list in [
            GIVEN_NAMES,
            SURNAMES,
            STREETS,
            STREET_TYPES,
            CITIES,
            OCCUPATIONS,
            CONDITIONS,
            COMPANY_NAMES,
            COMPANY_KINDS,
        ] {
            let mut seen = std::collections::HashSet::new();
            for word in list {
                assert!(seen.insert(word), "{word} twice");
                assert!(
                    !word.is_empty() && word.chars().all(char::is_alphabetic),
                    "{word}"
                );
            }
        }
        for range in UK_DRAMA_RANGES {
            assert_eq!(range.len(), 8);
        }
    }
}
