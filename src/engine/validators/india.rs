//! Indian identifiers: GSTIN (CBIC GST rules: two-digit state code, the holder's PAN, an
//! entity number, `Z`, and a Luhn mod-36 check character) and vehicle registration marks
//! (Central Motor Vehicles Rules 1989, rule 50: state code, RTO district, series, number;
//! Bharat series `YY BH NNNN XX` since 2021).

/// GSTIN: `27AAPFU0939F1ZV`. State codes 01–38 and 97 (other territory), 99 (centre).
pub fn in_gstin(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 15
        || !b
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
    {
        return false;
    }
    if !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return false;
    }
    let state = u32::from(b[0] - b'0') * 10 + u32::from(b[1] - b'0');
    if !((1..=38).contains(&state) || state == 97 || state == 99) || b[13] != b'Z' {
        return false;
    }
    let value = |c: u8| -> u32 {
        if c.is_ascii_digit() {
            u32::from(c - b'0')
        } else {
            u32::from(c - b'A') + 10
        }
    };
    // Luhn mod 36: from the left, every second character's value doubled, the base-36
    // digits of each product summed.
    let sum: u32 = b[..14]
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let p = value(*c) * if i % 2 == 1 { 2 } else { 1 };
            p / 36 + p % 36
        })
        .sum();
    value(b[14]) == (36 - sum % 36) % 36
}

/// State and union-territory codes of registration marks (MoRTH), current and old.
const STATES: &[&str] = &[
    "AN", "AP", "AR", "AS", "BR", "CG", "CH", "DD", "DL", "DN", "GA", "GJ", "HP", "HR", "JH", "JK",
    "KA", "KL", "LA", "LD", "MH", "ML", "MN", "MP", "MZ", "NL", "OD", "OR", "PB", "PY", "RJ", "SK",
    "TN", "TR", "TS", "UK", "UP", "WB",
];

/// A registration mark: a known state code, an RTO district 1–99 and a number 0001–9999
/// (spaces and dashes ignored), or a Bharat-series mark.
pub fn in_vehicle(s: &str) -> bool {
    let b: Vec<u8> = s.bytes().filter(u8::is_ascii_alphanumeric).collect();
    if b.len() < 8 {
        return false;
    }
    let number = &b[b.len() - 4..];
    if number == b"0000" {
        return false;
    }
    if b[2..4] == *b"BH" && b[..2].iter().all(u8::is_ascii_digit) {
        return true;
    }
    let district: Vec<u8> = b[2..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .copied()
        .collect();
    STATES.iter().any(|st| st.as_bytes() == &b[..2])
        && !district.is_empty()
        && district.iter().any(|c| *c != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_gstins() {
        assert!(in_gstin("27AAPFU0939F1ZV"));
        assert!(in_gstin("29AAGCB7383J1Z4"));
        assert!(!in_gstin("27AAPFU0939F1ZW"));
        assert!(!in_gstin("45AAPFU0939F1ZV"), "no state 45");
        assert!(!in_gstin("27AAPFU0939F1YV"));
    }

    #[test]
    fn checks_vehicle_registrations() {
        assert!(in_vehicle("MH12AB1234"));
        assert!(in_vehicle("DL 3C AB 1234"));
        assert!(in_vehicle("22BH1234AA"));
        assert!(!in_vehicle("XX12AB1234"), "no state XX");
        assert!(!in_vehicle("MH00AB1234"));
        assert!(!in_vehicle("MH12AB0000"));
    }
}
