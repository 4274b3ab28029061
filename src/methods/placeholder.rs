//! Where placeholders get their numbers: `[LABEL_n]`, numbered per label in order of
//! first appearance; the same (label, text) always gets the same placeholder.
//!
//! A placeholder that already appears literally in the input is never handed out, so
//! restoring can never turn a literal `[PERSON_1]` into a name.

use std::collections::{HashMap, HashSet};

use regex::Regex;
use std::sync::OnceLock;

use crate::text::Label;

/// Per-request (or per-session) placeholder allocator.
#[derive(Debug, Default, Clone)]
pub struct Numbering {
    next: HashMap<Label, u32>,
    assigned: HashMap<(Label, String), String>,
    /// Placeholder-shaped literals found in the input.
    reserved: HashSet<String>,
}

fn literal_placeholder() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A literal built-in pattern: failing to compile is a bug caught by every test.
    RE.get_or_init(|| Regex::new(r"\[[A-Z][A-Z0-9_]*_[0-9]+\]").expect("valid regex"))
}

impl Numbering {
    pub fn new(inputs: &[String]) -> Self {
        let mut numbering = Self::default();
        numbering.reserve_literals(inputs);
        numbering
    }

    /// Marks placeholder-shaped literals of `inputs` as taken.
    pub fn reserve_literals(&mut self, inputs: &[String]) {
        for text in inputs {
            for m in literal_placeholder().find_iter(text) {
                self.reserved.insert(m.as_str().to_owned());
            }
        }
    }

    /// The placeholder for `original` of `label`, allocating the next free number.
    pub fn placeholder(&mut self, label: Label, original: &str) -> String {
        let key = (label, original.to_owned());
        if let Some(existing) = self.assigned.get(&key) {
            return existing.clone();
        }
        let counter = self.next.entry(label).or_insert(0);
        let placeholder = loop {
            *counter += 1;
            let candidate = format!("[{}_{}]", label.as_str(), counter);
            if !self.reserved.contains(&candidate) {
                break candidate;
            }
        };
        self.assigned.insert(key, placeholder.clone());
        placeholder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_per_label_in_order_of_appearance() {
        let person = Label::builtin("PERSON");
        let email = Label::builtin("EMAIL_ADDRESS");
        let mut n = Numbering::new(&[]);
        assert_eq!(n.placeholder(person, "Ann"), "[PERSON_1]");
        assert_eq!(n.placeholder(email, "a@b.co"), "[EMAIL_ADDRESS_1]");
        assert_eq!(n.placeholder(person, "Bob"), "[PERSON_2]");
        assert_eq!(n.placeholder(person, "Ann"), "[PERSON_1]");
    }

    #[test]
    fn literal_placeholders_in_the_input_are_skipped() {
        let person = Label::builtin("PERSON");
        let mut n = Numbering::new(&["see [PERSON_1] and [PERSON_2]".to_owned()]);
        assert_eq!(n.placeholder(person, "Ann"), "[PERSON_3]");
    }
}
