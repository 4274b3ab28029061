//! Anonymization methods: how a detected entity's text is replaced.
//!
//! Each method is a variant of [`Method`] with its own file (`placeholder` is `REDACT`);
//! the exhaustive `match` in [`Replacer::replace`] is the one place that dispatches on
//! it. What a request or session remembers between entities is a [`Memory`]. Knows
//! nothing about detection, HTTP, sessions or config.

pub mod encrypt;
pub mod fake;
pub mod hash;
pub mod keys;
pub mod mask;
pub mod memory;
pub mod placeholder;
pub mod pseudonymize;

pub use keys::{KeyRing, MasterSecret, TenantKeys};
pub use mask::MaskOptions;
pub use memory::{Memory, MemoryFull};

use crate::text::Label;

/// A de-identification method, as named by `anonymization_config.deidentification_method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// Numbered placeholder `[LABEL_n]`.
    Redact,
    /// Every code point replaced by `*`.
    Mask,
    /// `[LABEL_<12 hex>]`: keyed HMAC-SHA256 of (label, text).
    Hash,
    /// `[LABEL:<base64url>]`: deterministic AES-SIV, opened without a map.
    Encrypt,
    /// A realistic fake of the same kind.
    Pseudonymize,
    /// Left as it is: detected and reported only.
    Keep,
}

impl Method {
    /// Every method, in the order error messages list them.
    pub const ALL: &'static [Method] = &[
        Method::Redact,
        Method::Mask,
        Method::Hash,
        Method::Encrypt,
        Method::Pseudonymize,
        Method::Keep,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Method::Redact => "REDACT",
            Method::Mask => "MASK",
            Method::Hash => "HASH",
            Method::Encrypt => "ENCRYPT",
            Method::Pseudonymize => "PSEUDONYMIZE",
            Method::Keep => "KEEP",
        }
    }

    /// Case-insensitive lookup by name.
    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.as_str().eq_ignore_ascii_case(name))
    }

    /// Whether the replacement can be mapped back to the original (`KEEP` needs no map).
    pub fn is_reversible(&self) -> bool {
        match self {
            Method::Redact | Method::Hash | Method::Encrypt | Method::Pseudonymize => true,
            Method::Mask | Method::Keep => false,
        }
    }

    /// Whether replacements go into the [`Memory`] (and so into a session's map).
    /// `ENCRYPT` tokens carry their own text; `MASK` cannot be restored.
    pub fn is_remembered(&self) -> bool {
        match self {
            Method::Redact | Method::Hash | Method::Pseudonymize => true,
            Method::Mask | Method::Encrypt | Method::Keep => false,
        }
    }
}

/// How one label's entities are replaced: a method and, for `MASK`, its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operator {
    pub method: Method,
    pub mask: MaskOptions,
}

impl Operator {
    pub fn new(method: Method) -> Self {
        Self {
            method,
            mask: MaskOptions::default(),
        }
    }
}

/// The operator of each label: its own where one is set, else the default.
#[derive(Debug, Clone, PartialEq)]
pub struct Operators {
    pub default: Operator,
    pub by_label: Vec<(Label, Operator)>,
}

impl Operators {
    /// One method for every label.
    pub fn uniform(method: Method) -> Self {
        Self {
            default: Operator::new(method),
            by_label: Vec::new(),
        }
    }

    pub fn of(&self, label: Label) -> &Operator {
        self.by_label
            .iter()
            .find(|(l, _)| *l == label)
            .map_or(&self.default, |(_, op)| op)
    }

    fn all(&self) -> impl Iterator<Item = &Operator> {
        std::iter::once(&self.default).chain(self.by_label.iter().map(|(_, op)| op))
    }

    /// Whether some label's replacements go into the memory (and a session).
    pub fn any_remembered(&self) -> bool {
        self.all().any(|op| op.method.is_remembered())
    }
}

/// Produces replacements for the entities of one request.
pub struct Replacer<'a> {
    operators: &'a Operators,
    keys: &'a TenantKeys,
    inputs: &'a [String],
}

impl<'a> Replacer<'a> {
    /// `inputs` are the request's texts: nothing found in them is handed out.
    pub fn new(operators: &'a Operators, keys: &'a TenantKeys, inputs: &'a [String]) -> Self {
        Self {
            operators,
            keys,
            inputs,
        }
    }

    /// The operator `label`'s entities are replaced with.
    pub fn operator(&self, label: Label) -> &Operator {
        self.operators.of(label)
    }

    /// Reserves the placeholder-shaped literals of the inputs in `memory`. Call once per
    /// request, before [`Replacer::replace`].
    pub fn prepare(&self, memory: &mut Memory) {
        memory.begin_request();
        if self
            .operators
            .all()
            .any(|op| matches!(op.method, Method::Redact | Method::Pseudonymize))
        {
            for text in self.inputs {
                for literal in placeholder::literals(text) {
                    memory.reserve(&literal);
                }
            }
        }
    }

    /// Takes back the pseudonyms made since [`Replacer::prepare`] so that replacing
    /// again picks different ones (used when a combination of fakes and input text
    /// would not restore exactly).
    pub fn reject_fresh(&self, memory: &mut Memory) {
        memory.reject_fresh();
    }

    /// The replacement of `original`, detected as `label`.
    ///
    /// # Errors
    /// [`MemoryFull`] when a new replacement would have to be remembered in a full memory.
    pub fn replace(
        &self,
        memory: &mut Memory,
        label: Label,
        original: &str,
    ) -> Result<String, MemoryFull> {
        let op = self.operators.of(label);
        if let Some(known) = memory.lookup(op.method, label, original) {
            return Ok(known.to_owned());
        }
        let replacement = match op.method {
            Method::Keep => return Ok(original.to_owned()),
            Method::Redact => memory.next_placeholder(label),
            Method::Mask => return Ok(mask::mask(original, &op.mask)),
            Method::Hash => hash::token(self.keys, label, original),
            Method::Encrypt => return Ok(encrypt::seal(self.keys, label, original)),
            Method::Pseudonymize => pseudonymize::fresh(memory, label, original, self.inputs)
                .unwrap_or_else(|| memory.next_placeholder(label)),
        };
        memory.remember(op.method, label, original, &replacement)?;
        Ok(replacement)
    }

    /// The replacement of the IP address `original` in a value a schema types as an
    /// address (an Elasticsearch `ip` field), where a placeholder would get the whole
    /// document rejected: a pseudonym of the same family whatever the method, remembered
    /// as one. `None` when no fresh address could be drawn.
    ///
    /// # Errors
    /// [`MemoryFull`] when a new replacement would have to be remembered in a full memory.
    pub fn replace_ip(
        &self,
        memory: &mut Memory,
        label: Label,
        original: &str,
    ) -> Result<Option<String>, MemoryFull> {
        if let Some(known) = memory.lookup(Method::Pseudonymize, label, original) {
            return Ok(Some(known.to_owned()));
        }
        let Some(fake) = pseudonymize::fresh_ip(memory, label, original, self.inputs) else {
            return Ok(None);
        };
        memory.remember(Method::Pseudonymize, label, original, &fake)?;
        Ok(Some(fake))
    }
}

#[cfg(test)]
mod tests;
