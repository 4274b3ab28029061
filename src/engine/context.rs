//! Context scoring: words near a candidate that make it more likely.

use crate::text::ByteSpan;

/// How far before and after a candidate we look for context words, in bytes.
const WINDOW: usize = 48;
/// Confidence added when a context word is present (unmeasured first choice).
const BOOST: f32 = 0.35;

/// The confidence boost for `span` given its `words` (lower-case).
pub fn boost(text: &str, span: ByteSpan, words: &[&str]) -> f32 {
    if words.is_empty() {
        return 0.0;
    }
    let before = floor_boundary(text, span.start.saturating_sub(WINDOW));
    let after = ceil_boundary(text, (span.end + WINDOW).min(text.len()));
    let around = [&text[before..span.start], &text[span.end..after]];
    let found = around.iter().any(|part| {
        let lower = part.to_ascii_lowercase();
        words.iter().any(|w| contains_word(&lower, w))
    });
    if found {
        BOOST
    } else {
        0.0
    }
}

fn contains_word(haystack: &str, word: &str) -> bool {
    haystack.match_indices(word).any(|(i, _)| {
        let before_ok = haystack[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = haystack[i + word.len()..]
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
    fn window_respects_char_boundaries() {
        let text = "😀".repeat(30) + " 123";
        let start = text.len() - 3;
        assert_eq!(
            boost(&text, ByteSpan::new(start, text.len()), &["ssn"]),
            0.0
        );
    }
}
