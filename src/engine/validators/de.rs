//! German social-insurance numbers, each with the check its issuer publishes:
//! Rentenversicherungsnummer (DRV, § 147 SGB VI; VKVV § 2: weights 2-1-2-5-7-1-2-1-2-1-2-1,
//! the initial as its two-digit alphabet position, digit sums mod 10),
//! Krankenversichertennummer (GKV-Spitzenverband, § 290 SGB V: the letter as 01–26, then
//! a Luhn-style 1-2 weighting with digit sums, mod 10) and the lifelong doctor number
//! LANR (KBV Arztnummern-Richtlinie: weights 4-9-4-9-4-9, check digit at position 7).

use super::digits;

/// Sum of the digit sums of `value * weight` for each pair.
fn digit_sum_weighted(values: &[u32], weights: &[u32]) -> u32 {
    values
        .iter()
        .zip(weights)
        .map(|(v, w)| {
            let p = v * w;
            p / 10 + p % 10
        })
        .sum()
}

/// A letter's two-digit position in the alphabet, as two digits (`J` → `[1, 0]`).
fn letter_digits(c: u8) -> [u32; 2] {
    let n = u32::from(c - b'A') + 1;
    [n / 10, n % 10]
}

/// Rentenversicherungsnummer: area (2 digits), birth date DDMMYY (day + 50 for a second
/// number on the same date), surname initial, serial (2 digits), check digit.
pub fn de_rvnr(s: &str) -> bool {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if b.len() != 12 || !b[8].is_ascii_uppercase() {
        return false;
    }
    let numbers: Vec<u8> = b[..8].iter().chain(&b[9..]).copied().collect();
    if !numbers.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let d: Vec<u32> = numbers.iter().map(|c| u32::from(c - b'0')).collect();
    let day = d[2] * 10 + d[3];
    let month = d[4] * 10 + d[5];
    if !((1..=31).contains(&day) || (51..=81).contains(&day)) || !(1..=12).contains(&month) {
        return false;
    }
    let mut values = d[..8].to_vec();
    values.extend(letter_digits(b[8]));
    values.extend(&d[8..10]);
    const W: [u32; 12] = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1];
    digit_sum_weighted(&values, &W) % 10 == d[10]
}

/// Krankenversichertennummer: a letter and nine digits, the last the check digit.
pub fn de_kvnr(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || !b[0].is_ascii_uppercase() || !b[1..].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let d = digits(s);
    let mut values = letter_digits(b[0]).to_vec();
    values.extend(&d[..8]);
    const W: [u32; 10] = [1, 2, 1, 2, 1, 2, 1, 2, 1, 2];
    digit_sum_weighted(&values, &W) % 10 == d[8]
}

/// Lebenslange Arztnummer: nine digits; the seventh checks the first six.
pub fn de_lanr(s: &str) -> bool {
    const W: [u32; 6] = [4, 9, 4, 9, 4, 9];
    let d = digits(s);
    if d.len() != 9 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum: u32 = d[..6].iter().zip(W).map(|(x, w)| x * w).sum();
    (10 - sum % 10) % 10 == d[6]
}

/// Betriebsstättennummer: nine digits, the first two a KV region code (KBV
/// Arztnummern-Richtlinie, Anlage 1). It has no published check digit.
pub fn de_bsnr(s: &str) -> bool {
    const REGIONS: [u32; 19] = [
        1, 2, 3, 17, 20, 35, 38, 46, 51, 52, 71, 72, 73, 74, 78, 83, 88, 93, 98,
    ];
    let d = digits(s);
    d.len() == 9 && REGIONS.contains(&(d[0] * 10 + d[1])) && d[2..].iter().any(|x| *x != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_pension_insurance_numbers() {
        assert!(de_rvnr("65170839J003"));
        assert!(de_rvnr("65 170839 J 003"));
        assert!(de_rvnr("12150780M159"));
        assert!(!de_rvnr("65170839J004"));
        assert!(!de_rvnr("65171339J003"), "month 13");
        assert!(!de_rvnr("651708391003"));
    }

    #[test]
    fn checks_health_insurance_numbers() {
        assert!(de_kvnr("A123456780"));
        assert!(!de_kvnr("A123456781"));
        assert!(!de_kvnr("a123456780"));
        assert!(!de_kvnr("A12345678"));
    }

    #[test]
    fn checks_doctor_numbers() {
        assert!(de_lanr("123456601"));
        assert!(!de_lanr("123456701"));
        assert!(!de_lanr("111111111"));
        assert!(de_bsnr("021234568"));
        assert!(!de_bsnr("041234568"), "no KV region 04");
    }
}
