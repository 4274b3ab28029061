//! Header changes an exchange asks for, as a list of edits rather than a rewritten
//! map: the server applies them through its own header type (pingora keeps header-name
//! case beside the map, and must see every change).

use http::header::{HeaderMap, HeaderName, HeaderValue};

/// Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded in either direction.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "upgrade",
];

/// Request headers that carry a caller's own credentials on to the upstream.
const CREDENTIALS: &[&str] = &["authorization", "cookie", "api-key", "x-goog-api-key"];

/// Removals first, then insertions (each replacing every value of its name).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct HeaderEdits {
    pub remove: Vec<HeaderName>,
    pub insert: Vec<(HeaderName, HeaderValue)>,
}

impl HeaderEdits {
    /// Removes `name` if `headers` has it.
    pub fn remove_present(&mut self, headers: &HeaderMap, name: &str) {
        if let Ok(name) = HeaderName::from_bytes(name.as_bytes()) {
            if headers.contains_key(&name) && !self.remove.contains(&name) {
                self.remove.push(name);
            }
        }
    }

    pub fn insert(&mut self, name: HeaderName, value: HeaderValue) {
        self.insert.push((name, value));
    }

    /// Forwards the caller's credential headers unchanged but marked sensitive, so a
    /// debug log of the forwarded request (pingora's) prints `Sensitive`, not the key.
    /// A name with several values is left alone (an insertion would merge them).
    pub fn mark_credentials_sensitive(&mut self, headers: &HeaderMap) {
        for name in CREDENTIALS {
            if self.remove.iter().any(|removed| removed == *name) {
                // Ours, taken off: marking must not put it back.
                continue;
            }
            let mut values = headers.get_all(*name).iter();
            if let (Some(value), None) = (values.next(), values.next()) {
                let mut value = value.clone();
                value.set_sensitive(true);
                self.insert(HeaderName::from_static(name), value);
            }
        }
    }

    /// Removes the hop-by-hop headers present, including those `Connection` names.
    pub fn remove_hop_by_hop(&mut self, headers: &HeaderMap) {
        let named: Vec<String> = headers
            .get_all(http::header::CONNECTION)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect();
        for name in named
            .iter()
            .map(String::as_str)
            .chain(HOP_BY_HOP.iter().copied())
        {
            self.remove_present(headers, name);
        }
    }

    /// Applies the edits to a plain map (tests, and servers without a case map).
    pub fn apply(&self, headers: &mut HeaderMap) {
        for name in &self.remove {
            headers.remove(name);
        }
        for (name, value) in &self.insert {
            headers.insert(name.clone(), value.clone());
        }
    }
}

/// A header's value as lower-case text; empty when absent or not text.
pub fn lower(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}
