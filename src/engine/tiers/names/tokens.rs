//! Words and runs of name words: the tokenizer and the small predicates every name rule
//! shares.

use crate::engine::lexicon::words::{is_org_suffix, is_stop, is_title, PARTICLES};

#[derive(Debug, Clone, Copy)]
pub(super) struct Token<'a> {
    pub start: usize,
    pub end: usize,
    pub text: &'a str,
}

impl Token<'_> {
    /// Whether the word begins with a capital letter.
    pub fn capitalised(&self) -> bool {
        self.text.chars().next().is_some_and(char::is_uppercase)
    }
}

/// Words: runs of letters/digits with inner `'`, `’`, `-`, `.` (initials, `S.A.`);
/// a trailing `.` is kept for single-letter initials and known abbreviations.
pub(super) fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(i, c)) = chars.peek() {
            if c.is_alphanumeric() {
                end = i + c.len_utf8();
                chars.next();
            } else if matches!(c, '\'' | '’' | '-' | '.' | '&') {
                // Inner joiner only if a letter/digit follows.
                let next = text[i + c.len_utf8()..].chars().next();
                if next.is_some_and(char::is_alphanumeric) {
                    end = i + c.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        // A possessive is not part of the name: "Willis's" → "Willis".
        for s in ["'s", "’s"] {
            if text[start..end].ends_with(s) && end - s.len() > start {
                end -= s.len();
            }
        }
        // Keep the dot of an initial ("C.", "N.Ö.") or an abbreviation ("Inc.", "Dr.").
        let word = &text[start..end];
        if text[end..].starts_with('.')
            && (word.chars().count() == 1
                || is_initials(word)
                || is_org_suffix(&text[start..end + 1])
                || is_title(word))
        {
            end += 1;
        }
        tokens.push(Token {
            start,
            end,
            text: &text[start..end],
        });
    }
    tokens
}

/// `C.A`, `N.Ö`: single capitals joined by dots.
pub(super) fn is_initials(word: &str) -> bool {
    word.split('.')
        .all(|part| part.chars().count() == 1 && part.chars().all(char::is_uppercase))
}

/// `Simmons`, `O'Brien`, `Taylor-Sabori`, `Gölcüklü`, or an initial `C.`.
pub(super) fn is_name_word(t: &Token<'_>) -> bool {
    let mut chars = t.text.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !first.is_uppercase() || is_stop(t.text) {
        return false;
    }
    // Contractions of "I" ("I'm", "I’ll") are not names; "O'Brien" is.
    if t.text.starts_with("I'") || t.text.starts_with("I’") {
        return false;
    }
    let rest: Vec<char> = chars.collect();
    if rest == ['.'] || (t.text.ends_with('.') && is_initials(t.text.trim_end_matches('.'))) {
        return true; // initial
    }
    rest.iter().any(|c| c.is_lowercase()) && !rest.iter().any(char::is_ascii_digit)
}

pub(super) fn is_particle(t: &Token<'_>) -> bool {
    PARTICLES.contains(&t.text)
}

/// True when only spaces (or one newline-free run of spaces) separate two tokens.
pub(super) fn adjacent(text: &str, a: &Token<'_>, b: &Token<'_>) -> bool {
    let gap = &text[a.end..b.start];
    !gap.is_empty() && gap.len() <= 3 && gap.chars().all(|c| c == ' ' || c == '\u{a0}')
}

/// Extends a name over name words (and particles between them) from token `i`;
/// returns the index of the last name word, if any.
pub(super) fn name_run(text: &str, tokens: &[Token<'_>], i: usize, max: usize) -> Option<usize> {
    let mut last = None;
    let mut j = i;
    let mut words = 0;
    while j < tokens.len() && words < max {
        if j > i && !adjacent(text, &tokens[j - 1], &tokens[j]) {
            break;
        }
        if is_name_word(&tokens[j]) {
            last = Some(j);
            words += 1;
        } else if !(is_particle(&tokens[j]) && last.is_some()) {
            break;
        }
        j += 1;
    }
    // A name does not end on an initial alone ("Mr C." is fine only with a surname).
    last.filter(|l| !(tokens[*l].text.ends_with('.') && *l == i && words == 1 && max > 1))
}

/// Extends an organisation name over a following gloss in brackets, the original-language
/// name or the acronym: `Supreme Court (Högsta domstolen)`, `… Union (ECJ)`.
pub(super) fn with_gloss(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    let Some(inner) = rest.strip_prefix(" (") else {
        return end;
    };
    // A defined term ("(“the Commission”)", "(hereinafter …)") is not part of the name.
    if !inner.chars().next().is_some_and(char::is_uppercase) || inner.starts_with("The ") {
        return end;
    }
    match inner.find(')') {
        Some(close) if close <= 48 && !inner[..close].contains(['(', '\n', ';']) => {
            end + 2 + close + 1
        }
        _ => end,
    }
}
