//! Keys and sealing for sessions kept outside the process: which Redis key a session
//! lives under, and the authenticated encryption of its state.
//!
//! Everything is derived with HKDF-SHA256 from the master secret, so every replica
//! configured with one secret agrees without talking to the others:
//! - the Redis key is `prefix` + hex HMAC-SHA256(key-derivation key, tenant ‖ 0 ‖ id):
//!   neither the tenant nor the caller-chosen session id appears in Redis, and the two
//!   tenants of one id get unrelated keys;
//! - the state is sealed with AES-256-SIV under a per-tenant key, with the Redis key
//!   and a random nonce as associated data: a blob moved to another session or tenant,
//!   or altered, does not open. (SIV stays safe even if a nonce repeated.)
//!
//! Knows nothing about Redis connections or what a session holds.

use std::collections::HashMap;
use std::fmt;
use std::sync::RwLock;

use aes_siv::siv::Aes256Siv;
use aes_siv::KeyInit;
use hkdf::Hkdf;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

/// HKDF salt: fixed and versioned, like `methods::keys`, but distinct from it so a
/// session key can never equal a HASH or ENCRYPT key.
const SALT: &[u8] = b"anonymizer/sessions/v1";
/// Bytes of the random nonce stored in front of each sealed state. Being random per
/// seal, it also tells one written state from any other (the compare-and-set's tag).
pub const NONCE_LEN: usize = 16;
/// Tenants whose derived seal key is kept; tenants come from the configured API keys,
/// so this only guards against an unexpected number of them.
const CACHED_TENANTS: usize = 1024;

/// The keys every session key and seal is derived from.
pub struct SealKeys {
    hkdf: Hkdf<Sha256>,
    /// HMAC naming sessions in Redis, already keyed (cloned per use).
    naming: Hmac<Sha256>,
    /// Per-tenant seal keys already derived: HKDF costs more than the sealing itself
    /// for a conversation's small state.
    tenants: RwLock<HashMap<String, [u8; 64]>>,
}

impl fmt::Debug for SealKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SealKeys(***)")
    }
}

impl SealKeys {
    /// Derives the keys from the master secret's bytes.
    pub fn new(master_secret: &[u8]) -> Self {
        let hkdf = Hkdf::<Sha256>::new(Some(SALT), master_secret);
        let mut naming = [0u8; 32];
        // HKDF-SHA256 can output up to 255 * 32 bytes; 32 and 64 are always fine.
        let _ = hkdf.expand(b"session-name", &mut naming);
        let naming = <Hmac<Sha256> as Mac>::new_from_slice(&naming)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        Self {
            hkdf,
            naming,
            tenants: RwLock::new(HashMap::new()),
        }
    }

    /// The Redis key of (tenant, session id), under `prefix`.
    pub fn redis_key(&self, prefix: &str, tenant: &str, session: &str) -> String {
        let mut mac = self.naming.clone();
        mac.update(tenant.as_bytes());
        // A separator no tenant name contains, so ("ab", "c") ≠ ("a", "bc").
        mac.update(&[0]);
        mac.update(session.as_bytes());
        let digest = mac.finalize().into_bytes();
        let mut key = String::with_capacity(prefix.len() + 64);
        key.push_str(prefix);
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for b in digest {
            key.push(char::from(HEX[usize::from(b >> 4)]));
            key.push(char::from(HEX[usize::from(b & 15)]));
        }
        key
    }

    fn cipher(&self, tenant: &str) -> Aes256Siv {
        // A poisoned lock still holds whole keys (each is inserted in one step).
        let cached = self
            .tenants
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(tenant)
            .copied();
        let key = cached.unwrap_or_else(|| {
            let mut key = [0u8; 64];
            let _ = self
                .hkdf
                .expand_multi_info(&[b"session-seal\0", tenant.as_bytes()], &mut key);
            let mut tenants = self.tenants.write().unwrap_or_else(|e| e.into_inner());
            if tenants.len() >= CACHED_TENANTS {
                tenants.clear();
            }
            tenants.insert(tenant.to_owned(), key);
            key
        });
        Aes256Siv::new(&key.into())
    }

    /// `nonce ‖ AES-SIV(plain)`, bound to `redis_key`.
    pub fn seal(&self, tenant: &str, redis_key: &str, plain: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let sealed = self
            .cipher(tenant)
            .encrypt([redis_key.as_bytes(), &nonce[..]], plain)
            // AES-SIV fails only for more than 126 header components; we pass two.
            .unwrap_or_default();
        let mut out = Vec::with_capacity(NONCE_LEN + sealed.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        out
    }

    /// The plain bytes [`SealKeys::seal`] sealed for this tenant and key, or `None`
    /// when `sealed` was altered, moved, or sealed with another secret.
    pub fn open(&self, tenant: &str, redis_key: &str, sealed: &[u8]) -> Option<Vec<u8>> {
        if sealed.len() < NONCE_LEN {
            return None;
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        self.cipher(tenant)
            .decrypt([redis_key.as_bytes(), nonce], body)
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn session_keys_hide_the_id_and_separate_tenants() {
        let k = SealKeys::new(SECRET);
        let a = k.redis_key("anon:s:", "acme", "chat-42");
        assert!(a.starts_with("anon:s:") && a.len() == "anon:s:".len() + 64);
        assert!(!a.contains("chat-42") && !a.contains("acme"));
        assert_eq!(
            a,
            SealKeys::new(SECRET).redis_key("anon:s:", "acme", "chat-42")
        );
        assert_ne!(a, k.redis_key("anon:s:", "other", "chat-42"));
        assert_ne!(
            k.redis_key("", "ab", "c"),
            k.redis_key("", "a", "bc"),
            "the tenant/id boundary is part of the digest"
        );
        let other = SealKeys::new(b"another secret of at least 32 bytes!!");
        assert_ne!(a, other.redis_key("anon:s:", "acme", "chat-42"));
    }

    #[test]
    fn sealed_state_opens_only_for_its_tenant_key_and_secret() {
        let k = SealKeys::new(SECRET);
        let sealed = k.seal("acme", "key1", b"alice@example.com");
        assert!(!sealed.windows(5).any(|w| w == b"alice"));
        assert_eq!(
            k.open("acme", "key1", &sealed).as_deref(),
            Some(&b"alice@example.com"[..])
        );
        assert_eq!(k.open("other", "key1", &sealed), None);
        assert_eq!(k.open("acme", "key2", &sealed), None);
        assert_eq!(
            SealKeys::new(b"another secret of at least 32 bytes!!").open("acme", "key1", &sealed),
            None
        );
        let mut tampered = sealed.clone();
        let last = tampered.len() - 1;
        tampered[last] ^= 1;
        assert_eq!(k.open("acme", "key1", &tampered), None);
        assert_ne!(
            sealed,
            k.seal("acme", "key1", b"alice@example.com"),
            "random nonce"
        );
        assert_eq!(k.open("acme", "key1", b"short"), None);
    }
}
