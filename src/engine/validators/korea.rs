//! Korean identifiers: resident and foreigner registration numbers (주민등록법 시행규칙:
//! weights 2–9, 2–5 over twelve digits; check (11 − sum mod 11) mod 10, foreigners
//! (13 − sum mod 11) mod 10) and business registration numbers (국세청: weights
//! 1-3-7-1-3-7-1-3-5, plus the tens of the ninth product).
//!
//! Numbers issued since October 2020 end in random digits instead of a check digit; they
//! pass [`kr_registration_date`] only.

use super::digits;

/// `YYMMDD` + a gender/century digit in `genders` + six digits, the date real.
fn registration(d: &[u32], genders: std::ops::RangeInclusive<u32>) -> bool {
    d.len() == 13 && super::month_day(d[2] * 10 + d[3], d[4] * 10 + d[5]) && genders.contains(&d[6])
}

fn weighted(d: &[u32]) -> u32 {
    const W: [u32; 12] = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
    d.iter().zip(W).map(|(x, w)| x * w).sum()
}

/// A resident registration number (gender digit 1–4) with its pre-2020 check digit.
pub fn kr_rrn(s: &str) -> bool {
    let d = digits(s);
    registration(&d, 1..=4) && (11 - weighted(&d[..12]) % 11) % 10 == d[12]
}

/// A foreigner registration number (gender digit 5–8) with its check digit.
pub fn kr_frn(s: &str) -> bool {
    let d = digits(s);
    registration(&d, 5..=8) && (13 - weighted(&d[..12]) % 11) % 10 == d[12]
}

/// A registration number of either kind by its date and gender digit alone (post-2020
/// numbers have no check digit).
pub fn kr_registration_date(s: &str) -> bool {
    registration(&digits(s), 1..=8)
}

/// A business registration number, `123-45-67890`.
pub fn kr_brn(s: &str) -> bool {
    const W: [u32; 9] = [1, 3, 7, 1, 3, 7, 1, 3, 5];
    let d = digits(s);
    if d.len() != 10 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum: u32 = d[..9].iter().zip(W).map(|(x, w)| x * w).sum::<u32>() + d[8] * 5 / 10;
    (10 - sum % 10) % 10 == d[9]
}

/// A driver licence number `11-24-123456-01`: twelve digits, the first two a regional
/// licensing agency code (11–26, 28). There is no public check digit.
pub fn kr_driver_license(s: &str) -> bool {
    let d = digits(s);
    d.len() == 12 && matches!(d[0] * 10 + d[1], 11..=26 | 28)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_registration_numbers() {
        assert!(kr_rrn("900101-1234568"));
        assert!(kr_rrn("9001011234568"));
        assert!(!kr_rrn("900101-1234567"));
        assert!(!kr_rrn("901301-1234565"), "month 13");
        assert!(!kr_rrn("900101-5234561"), "a foreigner's number");
        assert!(kr_frn("900101-5234561"));
        assert!(!kr_frn("900101-5234562"));
        assert!(kr_registration_date("900101-1234567"));
        assert!(!kr_registration_date("900101-9234567"));
    }

    #[test]
    fn checks_business_registration_numbers() {
        assert!(kr_brn("220-81-12341"));
        assert!(kr_brn("1234567891"));
        assert!(!kr_brn("220-81-12342"));
        assert!(!kr_brn("000-00-00000"));
        assert!(kr_driver_license("11-24-123456-01"));
        assert!(!kr_driver_license("27-24-123456-01"));
    }
}
