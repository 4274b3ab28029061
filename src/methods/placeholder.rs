//! `REDACT`: numbered placeholders `[LABEL_n]`, numbered per label in order of first
//! appearance; the same (label, text) always gets the same placeholder (the memory
//! remembers it).
//!
//! A placeholder that already appears literally in the input is never handed out, so
//! restoring can never turn a literal `[PERSON_1]` into a name. That includes the
//! forms lenient restoring accepts (`[person 1]`, `PERSON_1`), so `"match": "lenient"`
//! cannot either.

use std::collections::HashMap;

use crate::text::label::LABELS;
use crate::text::{token, Label};

/// Next number per label.
#[derive(Debug, Default, Clone)]
pub struct Numbering {
    next: HashMap<Label, u32>,
}

/// Longest number worth reserving (placeholder numbers are `u32`).
const MAX_DIGITS: usize = 10;

/// Placeholder-shaped literals of `text`, each as the canonical placeholder it could be
/// restored as, exactly or leniently: `[person 1]` → `[PERSON_1]`.
///
/// Bare forms (`PERSON_1`) are restored only as whole words, but a neighbouring entity
/// being replaced can make one a word: in `AlicePERSON_12`, replacing `Alice` leaves
/// `PERSON_12` standing alone, and replacing a `2` would leave `PERSON_1`. So every
/// label that ends right before a `_<digits>`, with every prefix of the digits, counts.
pub fn literals(text: &str) -> Vec<String> {
    let mut found: Vec<String> = token::lenient_bracketed()
        .captures_iter(text)
        .map(|c| token::placeholder(&token::canonical_label(&c[1]), &c[2]))
        .collect();
    for (underscore, _) in text.match_indices(token::ID_SEPARATOR) {
        let digits = text[underscore + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count()
            .min(MAX_DIGITS);
        if digits == 0 {
            continue;
        }
        let before = &text[..underscore];
        for info in LABELS {
            let Some(start) = before.len().checked_sub(info.name.len()) else {
                continue;
            };
            if before.is_char_boundary(start) && before[start..].eq_ignore_ascii_case(info.name) {
                for len in 1..=digits {
                    let number = &text[underscore + 1..underscore + 1 + len];
                    found.push(token::placeholder(info.name, number));
                }
            }
        }
    }
    found
}

/// `[LABEL_n]`.
pub fn format(label: Label, n: u32) -> String {
    token::placeholder(label.as_str(), n)
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

    /// `(label, last number handed out)`, for a session kept outside the process.
    pub(crate) fn counters(&self) -> impl Iterator<Item = (Label, u32)> + '_ {
        self.next.iter().map(|(label, n)| (*label, *n))
    }

    /// The numbering [`Numbering::counters`] listed.
    pub(crate) fn from_counters(counters: impl IntoIterator<Item = (Label, u32)>) -> Self {
        Self {
            next: counters.into_iter().collect(),
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
        let found = literals("see [x_1] and [email address 3]");
        assert_eq!(found, ["[X_1]", "[EMAIL_ADDRESS_3]"]);
        // Bare: every label ending before `_<digits>`, every prefix of the digits;
        // the bracketed `[PERSON_1]` also holds the bare `PERSON_1`.
        let found = literals("[PERSON_1] EMAIL_ADDRESS_22");
        assert_eq!(
            found,
            [
                "[PERSON_1]",
                "[PERSON_1]",
                "[ADDRESS_2]",
                "[ADDRESS_22]",
                "[EMAIL_ADDRESS_2]",
                "[EMAIL_ADDRESS_22]"
            ]
        );
        let bare = literals("person_4 and xPERSON_56x, ROOM_2.");
        assert_eq!(bare, ["[PERSON_4]", "[PERSON_5]", "[PERSON_56]"]);
    }
}
