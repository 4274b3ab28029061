//! US DEA registration numbers (21 CFR 1301; DEA Diversion Control "Registrant number
//! format"): a registrant-type letter, the registrant's surname initial (or 9), six
//! digits and a check digit = (d1 + d3 + d5 + 2 × (d2 + d4 + d6)) mod 10.

/// A DEA number such as `AB1234563`.
pub fn dea(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 9 || !b[2..].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let d: Vec<u32> = b[2..].iter().map(|c| u32::from(c - b'0')).collect();
    let sum = d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5]);
    d[..6].iter().any(|x| *x != d[0]) && sum % 10 == d[6]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_dea_numbers() {
        assert!(dea("AB1234563"));
        assert!(dea("BJ6142537"));
        assert!(!dea("AB1234564"));
        assert!(!dea("AB123456"));
        assert!(!dea("AB0000000"));
    }
}
