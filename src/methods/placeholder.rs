//! `REDACT`: numbered placeholders `[LABEL_n]`, numbered per label in order of first
//! appearance; the same (label, text) always gets the same placeholder (the memory
//! remembers it).
//!
//! A placeholder that already appears literally in the input is never handed out, so
//! restoring can never turn a literal `[PERSON_1]` into a name.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use crate::text::Label;

/// Next number per label.
#[derive(Debug, Default, Clone)]
pub struct Numbering {
    next: HashMap<Label, u32>,
}

fn literal_placeholder() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A literal built-in pattern: failing to compile is a bug caught by every test.
    RE.get_or_init(|| Regex::new(r"\[[A-Z][A-Z0-9_]*_[0-9]+\]").expect("valid regex"))
}

/// Placeholder-shaped literals of `text`.
pub fn literals(text: &str) -> impl Iterator<Item = &str> {
    literal_placeholder().find_iter(text).map(|m| m.as_str())
}

/// `[LABEL_n]`.
pub fn format(label: Label, n: u32) -> String {
    format!("[{}_{}]", label.as_str(), n)
}

impl Numbering {
    /// The next placeholder of `label` for which `taken` is false.
    pub fn next(&mut self, label: Label, taken: impl Fn(&str) -> bool) -> String {
        let counter = self.next.entry(label).or_insert(0);
        loop {
            *counter += 1;
            let candidate = format(label, *counter);
            if !taken(&candidate) {
                return candidate;
            }
        }
    }

    /// Labels in use, for the memory's size estimate.
    pub fn len(&self) -> usize {
        self.next.len()
    }

    pub fn is_empty(&self) -> bool {
        self.next.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_per_label_and_skips_taken_ones() {
        let person = Label::builtin("PERSON");
        let email = Label::builtin("EMAIL_ADDRESS");
        let mut n = Numbering::default();
        assert_eq!(n.next(person, |_| false), "[PERSON_1]");
        assert_eq!(n.next(email, |_| false), "[EMAIL_ADDRESS_1]");
        assert_eq!(n.next(person, |p| p == "[PERSON_2]"), "[PERSON_3]");
    }

    #[test]
    fn finds_placeholder_shaped_literals() {
        let found: Vec<&str> = literals("see [PERSON_1], [x_1] and [EMAIL_ADDRESS_22]").collect();
        assert_eq!(found, ["[PERSON_1]", "[EMAIL_ADDRESS_22]"]);
    }
}
