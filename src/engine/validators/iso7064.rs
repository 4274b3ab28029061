//! ISO/IEC 7064 MOD 11,10, the hybrid check digit of the German tax id (Steuer-ID,
//! BZSt) and the German VAT id (USt-IdNr., BZSt "Prüfziffernverfahren").

/// The MOD 11,10 check digit of `digits` (each 0–9).
pub fn check_digit(digits: &[u32]) -> u32 {
    let mut product = 10;
    for x in digits {
        let mut sum = (x + product) % 10;
        if sum == 0 {
            sum = 10;
        }
        product = (sum * 2) % 11;
    }
    (11 - product) % 10
}

/// A German VAT id: `DE` and nine digits, the ninth the MOD 11,10 check of the eight
/// before it. Spaces, dots and dashes between the groups are allowed.
pub fn de_vat_id(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    let Some(rest) = upper.strip_prefix("DE") else {
        return false;
    };
    let d = super::digits(rest);
    d.len() == 9 && d[0] != 0 && check_digit(&d[..8]) == d[8]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_mod_11_10_and_checks_german_vat_ids() {
        assert_eq!(check_digit(&[1, 1, 1, 1, 1, 1, 1, 1]), 7);
        assert!(de_vat_id("DE136459538"));
        assert!(de_vat_id("DE 136 459 538"));
        assert!(!de_vat_id("DE136459539"));
        assert!(!de_vat_id("DE13645953"));
        assert!(!de_vat_id("FR136459538"));
    }
}
