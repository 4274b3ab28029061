//! API-key authentication. Keys are kept as SHA-256 digests and every configured key is
//! compared in constant time, so neither timing nor key length tells anything.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::config::ApiKey;
use crate::secret::Secret;

/// Index of a configured key (for per-key rate limiting).
pub type KeyId = usize;

pub struct KeyRing {
    keys: Vec<([u8; 32], String)>,
    /// The keys themselves, beside their digests: an AWS signature (SigV4) is checked
    /// by signing again with the secret, as AWS does, so it must be at hand.
    secrets: Vec<Secret<String>>,
}

/// Why a request is not authenticated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthError {
    Missing,
    Invalid,
}

impl KeyRing {
    pub fn new(keys: &[ApiKey]) -> Self {
        Self {
            keys: keys
                .iter()
                .map(|k| (digest(k.key.expose().as_bytes()), k.tenant.clone()))
                .collect(),
            secrets: keys.iter().map(|k| k.key.clone()).collect(),
        }
    }

    /// The keys of `tenant` with their ids (for SigV4: a tenant is an access key id).
    pub fn tenant_keys(&self, tenant: &str) -> Vec<(KeyId, Secret<String>)> {
        self.keys
            .iter()
            .zip(&self.secrets)
            .enumerate()
            .filter(|(_, ((_, t), _))| t == tenant)
            .map(|(id, (_, secret))| (id, secret.clone()))
            .collect()
    }

    /// The key id and tenant for an `X-API-Key` header value.
    pub fn authenticate(&self, header: Option<&[u8]>) -> Result<(KeyId, &str), AuthError> {
        let presented = match header {
            None => return Err(AuthError::Missing),
            Some(b"") => return Err(AuthError::Missing),
            Some(v) => digest(v),
        };
        let mut found = None;
        // No early exit: every key is compared whatever the outcome.
        for (id, (key, _)) in self.keys.iter().enumerate() {
            if bool::from(key.ct_eq(&presented)) {
                found = Some(id);
            }
        }
        match found {
            Some(id) => Ok((id, &self.keys[id].1)),
            None => Err(AuthError::Invalid),
        }
    }

    /// The first of `presented` (credentials from the places a route reads, in its
    /// order) that is a configured key. None presented: `Missing`.
    pub fn authenticate_any(&self, presented: &[&[u8]]) -> Result<(KeyId, &str), AuthError> {
        if presented.is_empty() {
            return Err(AuthError::Missing);
        }
        let mut outcome = Err(AuthError::Invalid);
        // Every candidate is checked: which one matched does not show in the timing.
        for key in presented {
            if let (Err(_), Ok(found)) = (&outcome, self.authenticate(Some(key))) {
                outcome = Ok(found);
            }
        }
        outcome
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::settings::Secret;

    #[test]
    fn finds_the_tenant_of_a_key() {
        let ring = KeyRing::new(&[
            ApiKey {
                tenant: "a".into(),
                key: Secret::new("key-aaaaaaaaaaaaaaaa".into()),
            },
            ApiKey {
                tenant: "b".into(),
                key: Secret::new("key-bbbbbbbbbbbbbbbb".into()),
            },
        ]);
        assert_eq!(
            ring.authenticate(Some(b"key-bbbbbbbbbbbbbbbb")),
            Ok((1, "b"))
        );
        assert_eq!(ring.authenticate(Some(b"key-b")), Err(AuthError::Invalid));
        assert_eq!(ring.authenticate(None), Err(AuthError::Missing));
        assert_eq!(ring.authenticate(Some(b"")), Err(AuthError::Missing));
        assert_eq!(
            ring.authenticate_any(&[b"sk-theirs", b"key-aaaaaaaaaaaaaaaa"]),
            Ok((0, "a"))
        );
        assert_eq!(
            ring.authenticate_any(&[b"sk-theirs"]),
            Err(AuthError::Invalid)
        );
        assert_eq!(ring.authenticate_any(&[]), Err(AuthError::Missing));
    }
}
