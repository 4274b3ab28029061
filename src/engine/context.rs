//! Context scoring: words near a candidate that make it more likely ("ssn", "call me
//! at") or less likely ("order number", "invoice", "version").

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

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
    // the same business words in the other languages served
    "rechnung",
    "rechnungsnummer",
    "bestellnummer",
    "bestellung",
    "auftragsnummer",
    "artikel",
    "artikelnummer",
    "commande",
    "facture",
    "pedido",
    "factura",
    "ordine",
    "fattura",
    "bestelling",
    "bestelnummer",
    "factuur",
    "encomenda",
    "fatura",
    "zamówienie",
    "zamówienia",
    "faktura",
    "faktury",
    "beställning",
    "ordernummer",
    "sipariş",
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

/// The nearest char boundary of `text` at or before byte `i`.
pub(crate) fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The nearest char boundary of `text` at or after byte `i`.
pub(crate) fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The positive and negative context words of one recognizer, compiled into one
/// automaton so that scoring a candidate is one pass over its window, whatever the
/// number of words.
pub struct Words {
    automaton: Option<AhoCorasick>,
    positive: usize,
}

impl Words {
    /// # Panics
    /// Never: an automaton of a few hundred short words is far below every size limit;
    /// if building ever failed, scoring would fall back to no context.
    pub fn new(positive: &[&str], negative: &[&str]) -> Self {
        let words: Vec<String> = positive
            .iter()
            .chain(negative)
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let automaton = if words.is_empty() {
            None
        } else {
            // A contiguous NFA, not the DFA the builder picks for few words: ~150 KB less
            // per pattern (18 MB over the registry), and it only reads the short window
            // around a match.
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .build(&words)
                .ok()
        };
        Self {
            automaton,
            positive: positive.len(),
        }
    }

    /// The score change for `span`: `+BOOST` if a positive word is near, `-PENALTY` if a
    /// negative one is (both can apply).
    pub fn adjust(&self, text: &str, span: ByteSpan) -> f32 {
        let (mut plus, mut minus) = (false, false);
        self.scan(text, span, &mut |positive, _| {
            if positive {
                plus = true;
            } else {
                minus = true;
            }
            !(plus && minus)
        });
        f32::from(u8::from(plus)) * BOOST - f32::from(u8::from(minus)) * PENALTY
    }

    /// The first positive word near `span`, as written in the text: what a decision
    /// trace names as the supporting context.
    pub fn supporting(&self, text: &str, span: ByteSpan) -> Option<String> {
        let mut found = None;
        self.scan(text, span, &mut |positive, word| {
            if positive {
                found = Some(word.to_owned());
            }
            found.is_none()
        });
        found
    }

    /// Calls `seen(positive, word)` for each whole-word match in the window around
    /// `span` until it returns `false`.
    fn scan(&self, text: &str, span: ByteSpan, seen: &mut dyn FnMut(bool, &str) -> bool) {
        let Some(automaton) = &self.automaton else {
            return;
        };
        let before = floor_boundary(text, span.start.saturating_sub(WINDOW));
        let after = ceil_boundary(text, (span.end + WINDOW).min(text.len()));
        for part in [&text[before..span.start], &text[span.end..after]] {
            // Overlapping search: a short word inside a longer one must still be seen.
            for m in automaton.find_overlapping_iter(part) {
                let ok_before = !starts_alnum(&part[m.start()..])
                    || part[..m.start()]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric());
                let ok_after = !ends_alnum(&part[..m.end()])
                    || part[m.end()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric());
                if ok_before
                    && ok_after
                    && !seen(m.pattern().as_usize() < self.positive, &part[m.range()])
                {
                    return;
                }
            }
        }
    }
}

fn starts_alnum(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_alphanumeric)
}

fn ends_alnum(s: &str) -> bool {
    s.chars().next_back().is_some_and(char::is_alphanumeric)
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
    fn compiled_words_agree_with_the_plain_functions() {
        let words = Words::new(&["ssn", "card ending"], NEGATIVE);
        assert_eq!(words.adjust("my ssn: 123", ByteSpan::new(8, 11)), BOOST);
        assert_eq!(words.adjust("my lessn: 123", ByteSpan::new(10, 13)), 0.0);
        assert_eq!(
            words.adjust("invoice 123456789", ByteSpan::new(8, 17)),
            -PENALTY
        );
        assert_eq!(
            words.adjust("Card ending 1234", ByteSpan::new(12, 16)),
            BOOST
        );
        assert_eq!(
            Words::new(&[], &[]).adjust("ssn 1", ByteSpan::new(4, 5)),
            0.0
        );
    }

    #[test]
    fn the_supporting_word_is_the_positive_one_as_written() {
        let words = Words::new(&["ssn"], NEGATIVE);
        assert_eq!(
            words.supporting("invoice, SSN 123", ByteSpan::new(13, 16)),
            Some("SSN".to_owned())
        );
        assert_eq!(words.supporting("invoice 123", ByteSpan::new(8, 11)), None);
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
