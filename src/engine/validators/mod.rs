//! Checksum and structure validators: pure `fn(&str) -> bool`, one algorithm per file,
//! shared by every pattern that needs it. `false` drops a candidate; `true` gives it the
//! proof its pattern declares (`PatternSpec::proof`: a checksum lifts the confidence
//! ceiling and makes the span exact).

pub mod aba;
pub mod americas;
pub mod apac;
pub mod base58check;
pub mod bech32;
pub mod de;
pub mod dea;
pub mod eip55;
pub mod eu;
pub mod icao;
pub mod india;
pub mod ip;
pub mod iso7064;
pub mod korea;
pub mod luhn;
pub mod mea;
pub mod mod11;
pub mod mod97;
pub mod ssn;
pub mod structure;
pub mod verhoeff;
pub mod vin;

/// The ASCII digits of `s` as numbers, separators dropped (shared by the checksums).
fn digits(s: &str) -> Vec<u32> {
    s.bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| u32::from(b - b'0'))
        .collect()
}

/// The number written by ASCII digits `b` (the caller has checked they are digits).
fn number(b: &[u8]) -> u32 {
    b.iter().fold(0, |a, c| a * 10 + u32::from(c - b'0'))
}

/// A month 1–12 and a day that month can have (29 February allowed: the year is often
/// two digits or absent).
fn month_day(month: u32, day: u32) -> bool {
    const DAYS: [u32; 12] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    (1..=12).contains(&month) && day >= 1 && day <= DAYS[(month - 1) as usize]
}
