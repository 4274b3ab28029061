//! Ethereum addresses: `0x` + 40 hex digits, with the EIP-55 mixed-case checksum
//! (a letter is upper-case iff the matching nibble of Keccak-256 of the lower-case
//! address is ≥ 8).
//!
//! Two validators, because only mixed case carries a checksum: [`checksummed`] is a
//! real checksum (wins overlaps), [`single_case`] is structure only.

use sha3::{Digest, Keccak256};

/// `0x` + 40 hex digits, not all one digit (`0x000…0` is the null address, a constant).
fn hex_body(s: &str) -> Option<&[u8]> {
    let b = s.as_bytes();
    let body = b
        .get(2..)
        .filter(|_| b.len() == 42 && b[..2].eq_ignore_ascii_case(b"0x"))?;
    (body.iter().all(u8::is_ascii_hexdigit) && body.iter().any(|c| *c != body[0])).then_some(body)
}

fn is_mixed_case(body: &[u8]) -> bool {
    body.iter().any(u8::is_ascii_lowercase) && body.iter().any(u8::is_ascii_uppercase)
}

/// A mixed-case address whose case pattern is its EIP-55 checksum.
pub fn checksummed(s: &str) -> bool {
    let Some(body) = hex_body(s) else {
        return false;
    };
    if !is_mixed_case(body) {
        return false;
    }
    let hash = Keccak256::digest(body.to_ascii_lowercase());
    body.iter().enumerate().all(|(i, c)| {
        let nibble = (hash[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0x0f;
        !c.is_ascii_alphabetic() || c.is_ascii_uppercase() == (nibble >= 8)
    })
}

/// An all-lower or all-upper case address: the form without a checksum.
pub fn single_case(s: &str) -> bool {
    hex_body(s).is_some_and(|body| !is_mixed_case(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The test vectors of EIP-55.
    const VALID: &[&str] = &[
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ];

    #[test]
    fn accepts_the_eip55_vectors() {
        for address in VALID {
            assert!(checksummed(address), "{address}");
            assert!(!single_case(address), "{address}");
        }
    }

    #[test]
    fn rejects_a_flipped_case_or_a_changed_digit() {
        assert!(!checksummed("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"));
        assert!(!checksummed("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"));
        assert!(!checksummed("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe0"));
        assert!(!checksummed("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"));
    }

    #[test]
    fn single_case_addresses_are_structure_only() {
        assert!(single_case("0x52908400098527886E0F7030069857D2E4169EE7"));
        assert!(single_case("0xde709f2102306220921060314715629080e2fb77"));
        assert!(!checksummed("0xde709f2102306220921060314715629080e2fb77"));
        assert!(!single_case("0x0000000000000000000000000000000000000000"));
        assert!(!single_case("0x52908400098527886E0F7030069857D2E4169EE"));
        assert!(!single_case("0x52908400098527886E0F7030069857D2E4169EEg"));
    }
}
