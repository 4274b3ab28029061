//! Per-tenant keys for `HASH` and `ENCRYPT`, derived with HKDF-SHA256 from one master
//! secret, so tenants never share a key and one configured secret is enough.
//!
//! Owns key material only; knows nothing about config files or the environment (the
//! app hands it a [`MasterSecret`]). Every type holding key bytes `Debug`-prints redacted.

use std::fmt;
use std::sync::Arc;

use dashmap::DashMap;
use hkdf::Hkdf;
use rand::RngCore;
use sha2::Sha256;

use crate::secret::Secret;

/// Bytes of a generated master secret.
const GENERATED_LEN: usize = 32;
/// HKDF salt: fixed, versioned, so changing the derivation is a visible decision.
const SALT: &[u8] = b"anonymizer/keys/v1";

/// The one secret every tenant key is derived from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MasterSecret(Secret<Vec<u8>>);

impl MasterSecret {
    /// Uses `bytes` as the secret (e.g. the UTF-8 of a configured string).
    pub fn new(bytes: Vec<u8>) -> Self {
        Self(Secret::new(bytes))
    }

    /// The secret's bytes, for deriving other keys (the shared session store's).
    pub fn as_bytes(&self) -> &[u8] {
        self.0.expose()
    }

    /// A fresh random secret: tokens made with it do not survive a restart.
    pub fn generate() -> Self {
        let mut bytes = vec![0u8; GENERATED_LEN];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        Self::new(bytes)
    }
}

/// The keys of one tenant.
pub struct TenantKeys {
    /// HMAC-SHA256 key of `HASH` (one SHA-256 block).
    pub(crate) hash: [u8; 64],
    /// AES-256-SIV key (two AES-256 keys) of `ENCRYPT`.
    pub(crate) encrypt: [u8; 64],
}

impl fmt::Debug for TenantKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TenantKeys(***)")
    }
}

impl TenantKeys {
    /// Derives the keys of `tenant` from `master`.
    pub fn derive(master: &MasterSecret, tenant: &str) -> Self {
        let hk = Hkdf::<Sha256>::new(Some(SALT), master.as_bytes());
        let mut hash = [0u8; 64];
        let mut encrypt = [0u8; 64];
        // HKDF-SHA256 can output up to 255 * 32 bytes; 64 is always fine.
        let _ = hk.expand_multi_info(&[b"hash\0", tenant.as_bytes()], &mut hash);
        let _ = hk.expand_multi_info(&[b"encrypt\0", tenant.as_bytes()], &mut encrypt);
        Self { hash, encrypt }
    }
}

/// Derives and caches tenant keys. Tenants are configured, so the cache stays small.
pub struct KeyRing {
    master: MasterSecret,
    generated: bool,
    tenants: DashMap<String, Arc<TenantKeys>>,
}

impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyRing")
            .field("generated", &self.generated)
            .field("tenants", &self.tenants.len())
            .finish()
    }
}

impl KeyRing {
    /// Uses the configured secret, or generates one when there is none; see
    /// [`KeyRing::is_generated`].
    pub fn new(master: Option<MasterSecret>) -> Self {
        let generated = master.is_none();
        Self {
            master: master.unwrap_or_else(MasterSecret::generate),
            generated,
            tenants: DashMap::new(),
        }
    }

    /// True when no master secret was configured and a random one is in use: `HASH`
    /// and `ENCRYPT` tokens then neither survive a restart nor match across replicas,
    /// and the app should warn at start.
    pub fn is_generated(&self) -> bool {
        self.generated
    }

    /// The keys of `tenant`, derived on first use.
    pub fn tenant(&self, tenant: &str) -> Arc<TenantKeys> {
        if let Some(keys) = self.tenants.get(tenant) {
            return Arc::clone(&keys);
        }
        let keys = Arc::new(TenantKeys::derive(&self.master, tenant));
        self.tenants
            .entry(tenant.to_owned())
            .or_insert(keys)
            .value()
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenants_get_different_keys_and_the_same_tenant_the_same() {
        let ring = KeyRing::new(Some(MasterSecret::new(b"m".repeat(32))));
        let a = ring.tenant("a");
        let b = ring.tenant("b");
        assert_ne!(a.hash, b.hash);
        assert_ne!(a.encrypt, b.encrypt);
        assert_ne!(a.hash, a.encrypt);
        assert_eq!(ring.tenant("a").hash, a.hash);
        assert!(!ring.is_generated());
        assert!(KeyRing::new(None).is_generated());
    }

    #[test]
    fn debug_never_prints_key_material() {
        let secret = MasterSecret::new(b"super-secret-value".to_vec());
        assert_eq!(format!("{secret:?}"), "MasterSecret(Secret(<redacted>))");
        let keys = TenantKeys::derive(&secret, "t");
        assert_eq!(format!("{keys:?}"), "TenantKeys(***)");
    }
}
