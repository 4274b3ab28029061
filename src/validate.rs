//! Schema checks on parsed JSON, reporting every problem with its field path.
//!
//! We validate `serde_json::Value` by hand rather than deriving `Deserialize` because
//! serde's messages quote the offending input, and we promise never to echo it.

use serde::Serialize;
use serde_json::{Map, Value};

/// One problem with one field: `field` is a path such as `text[3]` or
/// `anonymization_config.threshold`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detail {
    pub field: String,
    pub reason: String,
}

/// Collects [`Detail`]s while walking a request.
#[derive(Default)]
pub struct Problems(pub Vec<Detail>);

impl Problems {
    pub fn add(&mut self, field: impl Into<String>, reason: impl Into<String>) {
        // A flood of per-element errors helps nobody; the first few locate the problem.
        if self.0.len() < 20 {
            self.0.push(Detail {
                field: field.into(),
                reason: reason.into(),
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Joins a parent path and a key: `a` + `b` → `a.b`, `` + `b` → `b`.
pub fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// Rejects keys of `object` outside `allowed`. The unknown key is named only when it
/// looks like an identifier (a misspelt field); anything else could be input text.
pub fn reject_unknown(object: &Map<String, Value>, path: &str, allowed: &[&str], p: &mut Problems) {
    for key in object.keys() {
        if !allowed.contains(&key.as_str()) {
            let shown = if key.len() <= 64
                && !key.is_empty()
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                join(path, key)
            } else {
                join(path, "<unnamed>")
            };
            p.add(
                shown,
                format!("unknown field; allowed: {}", allowed.join(", ")),
            );
        }
    }
}

/// The field as an object; `null` counts as absent.
pub fn optional_object<'a>(
    parent: &'a Map<String, Value>,
    key: &str,
    path: &str,
    p: &mut Problems,
) -> Option<&'a Map<String, Value>> {
    match parent.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Object(o)) => Some(o),
        Some(_) => {
            p.add(join(path, key), "must be an object");
            None
        }
    }
}

/// An array of strings, each at most `max_chars` code points, at most `max_len` long.
pub fn string_array<'a>(
    value: &'a Value,
    path: &str,
    max_len: usize,
    max_chars: usize,
    p: &mut Problems,
) -> Vec<&'a str> {
    let Value::Array(items) = value else {
        p.add(path, "must be an array of strings");
        return Vec::new();
    };
    if items.len() > max_len {
        p.add(path, format!("must have at most {max_len} items"));
        return Vec::new();
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) => {
                // Byte length bounds char count from above: skip counting when short.
                if s.len() > max_chars && s.chars().count() > max_chars {
                    p.add(
                        format!("{path}[{i}]"),
                        format!("must be at most {max_chars} characters"),
                    );
                }
                out.push(s.as_str());
            }
            _ => p.add(format!("{path}[{i}]"), "must be a string"),
        }
    }
    out
}
