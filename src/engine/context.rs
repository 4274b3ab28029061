//! Context scoring: words near a candidate that make it more likely ("ssn", "call me
//! at") or less likely ("order number", "invoice", "version").

use crate::text::ByteSpan;

/// How far before and after a candidate we look for context words, in bytes.
const WINDOW: usize = 48;
/// Confidence added when a context word is present (unmeasured first choice).
const BOOST: f32 = 0.35;

/// Confidence removed when a negative context word is present (unmeasured first choice:
/// it takes a weak pattern with support, 0.3 + 0.35, back under the 0.5 default).
const PENALTY: f32 = 0.35;

/// Words that say a number near them is a business or technical reference, not a person's.
pub const NEGATIVE: &[&str] = &[
    "order number",
    "order no",
    "order #",
    "order id",
    "invoice",
    "inv no",
    "version",
    "ver.",
    "build",
    "release",
    "sku",
    "part number",
    "part no",
    "model number",
    "serial number",
    "tracking number",
    "ticket",
    "reference number",
    "ref no",
    "isbn",
    "issn",
    "doi",
    "patent",
    "page",
    "pp.",
    "product code",
    "catalog",
    "catalogue",
];

/// The confidence boost for `span` given its `words` (lower-case).
pub fn boost(text: &str, span: ByteSpan, words: &[&str]) -> f32 {
    if near(text, span, words) {
        BOOST
    } else {
        0.0
    }
}

/// The confidence penalty for `span` given its negative `words` (lower-case).
pub fn penalty(text: &str, span: ByteSpan, words: &[&str]) -> f32 {
    if near(text, span, words) {
        PENALTY
    } else {
        0.0
    }
}

/// True when one of `words` occurs as a whole word within the window around `span`.
pub fn near(text: &str, span: ByteSpan, words: &[&str]) -> bool {
    if words.is_empty() {
        return false;
    }
    let before = floor_boundary(text, span.start.saturating_sub(WINDOW));
    let after = ceil_boundary(text, (span.end + WINDOW).min(text.len()));
    let around = [&text[before..span.start], &text[span.end..after]];
    around.iter().any(|part| {
        let lower = part.to_ascii_lowercase();
        words.iter().any(|w| contains_word(&lower, w))
    })
}

fn contains_word(haystack: &str, word: &str) -> bool {
    haystack.match_indices(word).any(|(i, _)| {
        // A word that ends in punctuation ("ver.", "order #") needs no boundary there.
        let first = word.chars().next().is_some_and(char::is_alphanumeric);
        let last = word.chars().next_back().is_some_and(char::is_alphanumeric);
        let before_ok = !first
            || haystack[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = !last
            || haystack[i + word.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
        before_ok && after_ok
    })
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_word_must_be_a_whole_word() {
        let text = "my ssn: 123";
        let span = ByteSpan::new(8, 11);
        assert!(boost(text, span, &["ssn"]) > 0.0);
        assert_eq!(boost("my lessn: 123", ByteSpan::new(10, 13), &["ssn"]), 0.0);
    }

    #[test]
    fn negative_words_lower_the_score() {
        let text = "invoice 123456789";
        assert!(penalty(text, ByteSpan::new(8, 17), NEGATIVE) > 0.0);
        assert_eq!(
            penalty("ssn 123456789", ByteSpan::new(4, 13), NEGATIVE),
            0.0
        );
    }

    #[test]
    fn window_respects_char_boundaries() {
        let text = "😀".repeat(30) + " 123";
        let start = text.len() - 3;
        assert_eq!(
            boost(&text, ByteSpan::new(start, text.len()), &["ssn"]),
            0.0
        );
    }
}
