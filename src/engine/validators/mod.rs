//! Checksum and structure validators: pure `fn(&str) -> bool`, one algorithm per file,
//! shared by every pattern that needs it.

pub mod ip;
pub mod luhn;
