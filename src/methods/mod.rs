//! Anonymization methods: how a detected entity's text is replaced.
//!
//! Each method is a variant of [`Method`] with its own file; the exhaustive `match` in
//! [`Replacer::replace`] is the one place that dispatches on it.

pub mod mask;
pub mod placeholder;

use crate::text::Label;

/// A de-identification method, as named by `anonymization_config.deidentification_method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Numbered placeholder `[LABEL_n]`.
    Redact,
    /// Every code point replaced by `*`.
    Mask,
}

impl Method {
    /// Every method, in the order error messages list them.
    pub const ALL: &'static [Method] = &[Method::Redact, Method::Mask];

    pub fn as_str(&self) -> &'static str {
        match self {
            Method::Redact => "REDACT",
            Method::Mask => "MASK",
        }
    }

    /// Case-insensitive lookup by name.
    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.as_str().eq_ignore_ascii_case(name))
    }

    /// Whether the replacement can be mapped back to the original.
    pub fn is_reversible(&self) -> bool {
        match self {
            Method::Redact => true,
            Method::Mask => false,
        }
    }
}

/// Produces replacements for the entities of one request, keeping per-request state
/// (placeholder numbering) consistent across all of its texts.
pub struct Replacer {
    method: Method,
    placeholders: placeholder::Numbering,
}

impl Replacer {
    /// `inputs` are the request's texts: placeholders already present in them are never reused.
    pub fn new(method: Method, inputs: &[String]) -> Self {
        Self {
            method,
            placeholders: placeholder::Numbering::new(inputs),
        }
    }

    pub fn replace(&mut self, label: Label, original: &str) -> String {
        match self.method {
            Method::Redact => self.placeholders.placeholder(label, original),
            Method::Mask => mask::mask(original),
        }
    }
}
