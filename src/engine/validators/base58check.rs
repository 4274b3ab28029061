//! Base58Check (Bitcoin wiki "Base58Check encoding"): the last 4 bytes of the decoded
//! payload are the first 4 bytes of SHA-256(SHA-256(rest)). Used for legacy (P2PKH `1…`)
//! and script (P2SH `3…`) Bitcoin addresses.

use sha2::{Digest, Sha256};

const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

fn decode(s: &str) -> Option<Vec<u8>> {
    // Big-endian base-256 accumulator; inputs are short (≤ 35 chars), so O(n²) is fine.
    let mut bytes: Vec<u8> = Vec::with_capacity(32);
    for c in s.bytes() {
        let mut carry = ALPHABET.iter().position(|a| *a == c)? as u32;
        for b in bytes.iter_mut().rev() {
            carry += u32::from(*b) * 58;
            *b = (carry & 0xff) as u8;
            carry >>= 8;
        }
        while carry > 0 {
            bytes.insert(0, (carry & 0xff) as u8);
            carry >>= 8;
        }
    }
    let zeros = s.bytes().take_while(|c| *c == b'1').count();
    let mut out = vec![0u8; zeros];
    out.extend(bytes);
    Some(out)
}

/// True when `s` is Base58Check with a 21-byte payload and version 0x00 or 0x05.
pub fn bitcoin(s: &str) -> bool {
    let Some(raw) = decode(s) else {
        return false;
    };
    if raw.len() != 25 || !matches!(raw[0], 0x00 | 0x05) {
        return false;
    }
    let (payload, check) = raw.split_at(21);
    let hash = Sha256::digest(Sha256::digest(payload));
    hash[..4] == *check
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_bitcoin_addresses() {
        assert!(bitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"));
        assert!(bitcoin("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"));
        assert!(!bitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"));
        assert!(!bitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a"));
        assert!(!bitcoin("1111"));
    }
}
