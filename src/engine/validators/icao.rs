//! ICAO Doc 9303 part 3 §4.9 check digits (weights 7-3-1, letters A=10 … Z=35, `<` = 0),
//! as printed in machine-readable zones, and the German identity documents that use them.
//!
//! The nine-character number printed on a German passport or identity card (nPA, since
//! 2010) carries no check digit of its own: its check digit follows it only in the MRZ
//! (specimen `L01X00T47`, MRZ `L01X00T471`). Presidio checks the ninth character, which
//! rejects the specimen; we accept the printed form by structure and check the MRZ form.

/// The 7-3-1 check digit of `s`, or `None` for a character outside `0-9A-Z<`.
pub fn check_digit(s: &[u8]) -> Option<u32> {
    const W: [u32; 3] = [7, 3, 1];
    let mut sum = 0;
    for (i, c) in s.iter().enumerate() {
        let v = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'A'..=b'Z' => u32::from(c - b'A') + 10,
            b'<' => 0,
            _ => return None,
        };
        sum += v * W[i % 3];
    }
    Some(sum % 10)
}

/// A German passport or identity card number: nine characters of the alphabet the
/// Bundesdruckerei uses (digits and consonants without B, D, Q, S), at least one digit
/// after the first; with a tenth digit (the MRZ form, or the pre-2010 `T` + 8 digits +
/// check), that digit must be the 7-3-1 check of the nine.
pub fn de_document(s: &str) -> bool {
    const ALPHABET: &[u8] = b"0123456789CFGHJKLMNPRTVWXYZ";
    let b = s.as_bytes();
    if !(9..=10).contains(&b.len()) || !b[..9].iter().all(|c| ALPHABET.contains(c)) {
        return false;
    }
    if !b[1..9].iter().any(u8::is_ascii_digit) {
        return false;
    }
    match b.get(9) {
        None => true,
        Some(c) => c.is_ascii_digit() && check_digit(&b[..9]) == Some(u32::from(c - b'0')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_icao_check_digits() {
        assert_eq!(check_digit(b"L01X00T47"), Some(1));
        assert_eq!(check_digit(b"T22000129"), Some(3));
        assert_eq!(check_digit(b"L01x"), None);
    }

    #[test]
    fn checks_german_document_numbers() {
        assert!(de_document("L01X00T47"));
        assert!(de_document("L01X00T471"));
        assert!(de_document("T220001293"));
        assert!(!de_document("T220001294"));
        assert!(!de_document("LXXXXXXXX"), "no digit");
        assert!(!de_document("A01X00T47"), "A is not in the alphabet");
    }
}
