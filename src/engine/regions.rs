//! Postal codes of states and provinces: what follows a city's comma in an address or a
//! dateline ("Austin, TX", "Toronto, ON", "Ipswich, QLD"). Alone such a code names a
//! region; after a city it narrows down where someone is, so it belongs to the place.

/// The US states' postal codes, with DC and Puerto Rico.
#[rustfmt::skip]
const US_STATES: &[&str] = &[
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH",
    "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT",
    "VT", "VA", "WA", "WV", "WI", "WY", "PR",
];

/// Canada's provinces and territories (Canada Post) and Australia's states and
/// territories (Australia Post).
#[rustfmt::skip]
const OTHER_REGIONS: &[&str] = &[
    "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
    "NSW", "VIC", "QLD", "SA", "WA", "TAS", "ACT",
];

/// Whether `code` (as written: upper-case) is a US state's postal code.
pub fn is_us_state(code: &str) -> bool {
    US_STATES.contains(&code)
}

/// Whether `code` (as written: upper-case) is a US, Canadian or Australian state's or
/// province's postal code.
pub fn is_region(code: &str) -> bool {
    is_us_state(code) || OTHER_REGIONS.contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_upper_case_as_written() {
        assert!(is_us_state("TX") && is_region("TX"));
        assert!(is_region("QLD") && is_region("ON") && !is_us_state("ON"));
        assert!(!is_region("tx") && !is_region("UK") && !is_region("Ont"));
    }
}
