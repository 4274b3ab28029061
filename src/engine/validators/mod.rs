//! Checksum and structure validators: pure `fn(&str) -> bool`, one algorithm per file,
//! shared by every pattern that needs it. `false` drops a candidate; `true` gives it the
//! proof its pattern declares (`PatternSpec::proof`: a checksum lifts the confidence
//! ceiling and makes the span exact).

pub mod aba;
pub mod apac;
pub mod base58check;
pub mod bech32;
pub mod eip55;
pub mod eu;
pub mod ip;
pub mod luhn;
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
