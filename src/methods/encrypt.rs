//! `ENCRYPT`: `[PERSON:<base64url>]`, deterministic authenticated encryption
//! (AES-256-SIV, RFC 5297) of the entity text with the tenant's key and the label as
//! associated data. `/v1/deanonymize` opens these tokens without any map.
//!
//! The token grammar `[LABEL:payload]` is `text::token`'s, which `restore` reads.

use aes_siv::siv::Aes256Siv;
use aes_siv::KeyInit;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::keys::TenantKeys;
use crate::text::{token, Label};

/// Longest payload (base64url characters) we try to decode: bounds the work a hostile
/// token can cause. About 48 KiB of entity text.
pub const MAX_PAYLOAD_CHARS: usize = 65_536;
/// Shortest payload: the 16-byte SIV tag alone is 22 base64url characters.
pub const MIN_PAYLOAD_CHARS: usize = 22;

fn cipher(keys: &TenantKeys) -> Aes256Siv {
    // The key is exactly the 64 bytes AES-256-SIV takes.
    Aes256Siv::new((&keys.encrypt).into())
}

/// The `ENCRYPT` token of `original` as `label`.
pub fn seal(keys: &TenantKeys, label: Label, original: &str) -> String {
    // One header (the label) is far below the limit of 126 headers: cannot fail.
    let sealed = cipher(keys)
        .encrypt([label.as_str().as_bytes()], original.as_bytes())
        .unwrap_or_default();
    token::sealed(label.as_str(), &URL_SAFE_NO_PAD.encode(sealed))
}

/// Opens the payload of a `[label:payload]` token; `None` when it does not
/// authenticate (wrong tenant, tampered, wrong label, not ours).
pub fn open(keys: &TenantKeys, label: &str, payload: &str) -> Option<String> {
    if !(MIN_PAYLOAD_CHARS..=MAX_PAYLOAD_CHARS).contains(&payload.len()) {
        return None;
    }
    let sealed = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let plain = cipher(keys).decrypt([label.as_bytes()], &sealed).ok()?;
    String::from_utf8(plain).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::keys::MasterSecret;

    fn keys(tenant: &str) -> TenantKeys {
        TenantKeys::derive(&MasterSecret::new(b"k".repeat(32)), tenant)
    }

    fn payload(token: &str) -> &str {
        &token[token.find(':').unwrap() + 1..token.len() - 1]
    }

    #[test]
    fn round_trips_deterministically() {
        let person = Label::builtin("PERSON");
        let t = seal(&keys("a"), person, "Zoë O'Brien");
        assert_eq!(t, seal(&keys("a"), person, "Zoë O'Brien"));
        assert!(t.starts_with("[PERSON:") && t.ends_with(']'));
        assert!(payload(&t)
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(
            open(&keys("a"), "PERSON", payload(&t)).as_deref(),
            Some("Zoë O'Brien")
        );
    }

    #[test]
    fn fails_for_another_tenant_label_or_a_tampered_payload() {
        let t = seal(&keys("a"), Label::builtin("PERSON"), "Alice");
        let p = payload(&t);
        assert_eq!(open(&keys("b"), "PERSON", p), None);
        assert_eq!(open(&keys("a"), "LOCATION", p), None);
        let mut tampered = p.to_owned().into_bytes();
        tampered[3] = if tampered[3] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            open(
                &keys("a"),
                "PERSON",
                std::str::from_utf8(&tampered).unwrap()
            ),
            None
        );
        assert_eq!(open(&keys("a"), "PERSON", "short"), None);
    }
}
