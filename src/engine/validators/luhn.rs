//! The Luhn (mod 10) checksum, ISO/IEC 7812-1 Annex B.

/// True when the digits of `s` (separators ignored) pass the Luhn check.
pub fn is_valid(s: &str) -> bool {
    let mut sum = 0u32;
    let mut count = 0usize;
    for (i, d) in s.bytes().rev().filter(u8::is_ascii_digit).enumerate() {
        let mut v = u32::from(d - b'0');
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
        count += 1;
    }
    count >= 2 && sum % 10 == 0
}

/// A payment card: 12–19 digits, Luhn-valid, and not one repeated digit.
pub fn credit_card(s: &str) -> bool {
    let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    (12..=19).contains(&digits.len()) && digits.iter().any(|d| *d != digits[0]) && is_valid(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_valid_numbers() {
        assert!(is_valid("79927398713"));
        assert!(credit_card("4111 1111 1111 1111"));
        assert!(credit_card("5500-0000-0000-0004"));
        assert!(credit_card("378282246310005"));
    }

    #[test]
    fn rejects_invalid_numbers() {
        assert!(!is_valid("79927398710"));
        assert!(!credit_card("4111 1111 1111 1112"));
        assert!(!credit_card("0000 0000 0000 0000"));
        assert!(!credit_card("1234"));
    }
}
