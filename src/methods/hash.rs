//! `HASH`: `[PERSON_9f86d081884c]`, the first 12 hex digits of HMAC-SHA256 over
//! (label, text) with the tenant's key. Stable across requests and replicas that share
//! the master secret, so logs stay joinable; not reversible without a map.

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::keys::TenantKeys;
use crate::text::{token, Label};

/// Hex digits kept: 48 bits, enough to make collisions within one tenant's data rare
/// while staying short (unmeasured choice; the contract only says "truncated").
pub const HEX_LEN: usize = 12;

/// The `HASH` token of `original` as `label`.
pub fn token(keys: &TenantKeys, label: Label, original: &str) -> String {
    // The key is one SHA-256 block (64 bytes), so this constructor cannot fail.
    let mut mac = <Hmac<Sha256> as KeyInit>::new(&keys.hash.into());
    // The label and a separator go first so `(A, "B_x")` and `(A_B, "x")` differ.
    mac.update(label.as_str().as_bytes());
    mac.update(&[0]);
    mac.update(original.as_bytes());
    let digest = mac.finalize().into_bytes();
    let mut hex = String::with_capacity(HEX_LEN);
    for byte in &digest[..HEX_LEN / 2] {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    token::placeholder(label.as_str(), hex)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::keys::{MasterSecret, TenantKeys};

    fn keys(tenant: &str) -> TenantKeys {
        TenantKeys::derive(&MasterSecret::new(b"k".repeat(32)), tenant)
    }

    #[test]
    fn is_stable_keyed_and_label_scoped() {
        let person = Label::builtin("PERSON");
        let org = Label::builtin("ORGANIZATION");
        let a = token(&keys("a"), person, "Alice");
        assert_eq!(a, token(&keys("a"), person, "Alice"));
        assert!(a.starts_with("[PERSON_") && a.ends_with(']'));
        assert_eq!(a.len(), "[PERSON_]".len() + HEX_LEN);
        assert!(a[8..20].chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, token(&keys("b"), person, "Alice"));
        assert_ne!(a, token(&keys("a"), person, "Alicia"));
        assert_ne!(a[8..], token(&keys("a"), org, "Alice")[14..]);
    }
}
