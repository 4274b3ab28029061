//! [`Secret`]: the one type for values that must never print — API keys, the master
//! secret, the provider credentials routes inject as headers (`add_headers`), and the
//! Redis URL (it may hold a password).
//!
//! `Debug` and `Display` print a redaction, there is no `Serialize`, and the value is
//! reached only through [`Secret::expose`], at the few places that use it: API-key
//! digests, header injection, key derivation, the Redis connection. It knows nothing of
//! the crate, so every layer may hold one (`config` parses into it, `methods`,
//! `session` and `proxy` keep it).

use std::fmt;

use serde::{Deserialize, Deserializer};
use subtle::ConstantTimeEq;

/// What a secret prints as.
pub const REDACTED: &str = "<redacted>";

/// A value that prints as [`REDACTED`].
#[derive(Clone, Default)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    pub fn new(value: T) -> Self {
        Self(value)
    }

    /// The value itself, for the code that uses it (never for a log or an error).
    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({REDACTED})")
    }
}

impl<T> fmt::Display for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

/// Constant time in the contents (a length difference still shows), so comparing a
/// presented value with a configured one tells nothing about where they differ.
impl<T: AsRef<[u8]>> PartialEq for Secret<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_ref().ct_eq(other.0.as_ref()).into()
    }
}

impl<T: AsRef<[u8]>> Eq for Secret<T> {}

/// Parses as the bare value (`key: abc…` in YAML), so config files need no wrapper.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Secret<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Secret)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_redacted_and_exposes_only_on_request() {
        let secret = Secret::new("hunter2-hunter2-hunter2".to_owned());
        assert_eq!(format!("{secret:?}"), "Secret(<redacted>)");
        assert_eq!(format!("{secret:#?}"), "Secret(<redacted>)");
        assert_eq!(secret.to_string(), "<redacted>");
        assert_eq!(secret.expose(), "hunter2-hunter2-hunter2");
    }

    #[test]
    fn compares_by_content() {
        let a = Secret::new("same-value".to_owned());
        assert_eq!(a, Secret::new("same-value".to_owned()));
        assert_ne!(a, Secret::new("same-valuf".to_owned()));
        assert_ne!(a, Secret::new("same-value-longer".to_owned()));
    }

    #[test]
    fn deserializes_from_the_bare_value() {
        let s: Secret<String> = serde_yaml::from_str("\"abc\"").unwrap();
        assert_eq!(s.expose(), "abc");
    }
}
