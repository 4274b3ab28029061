//! The replacement-token grammar, in one place. Methods write tokens with it, `restore`
//! reads them back, the proxy counts them in answers; a new token shape is a change
//! here that every reader sees, never a regex copied into one of them.
//!
//! ```text
//! token       = "[" label ( "_" id | ":" payload ) "]"
//! label       = A-Z ( A-Z | 0-9 | "_" )*           EMAIL_ADDRESS, US_SSN
//! id          = ( 0-9 | a-f )+                     REDACT: a number (7); HASH: 12 hex digits
//! payload     = ( A-Z | a-z | 0-9 | "-" | "_" )+   ENCRYPT: base64url, no padding
//! ```
//!
//! Placeholders (`[LABEL_id]`) also have *lenient* forms, what LLMs turn them into:
//! other case, spaces for underscores, no brackets (`[person 1]`, `PERSON_1`).

use std::sync::OnceLock;

use regex::Regex;

/// Opens every token.
pub const OPEN: char = '[';
/// Closes every token.
pub const CLOSE: char = ']';
/// Between the label and the id of a placeholder: `[PERSON_1]`.
pub const ID_SEPARATOR: char = '_';
/// Between the label and the payload of a sealed (`ENCRYPT`) token: `[PERSON:…]`.
pub const PAYLOAD_SEPARATOR: char = ':';

/// `[LABEL_id]`: a `REDACT` number or a `HASH` digest.
pub fn placeholder(label: &str, id: impl std::fmt::Display) -> String {
    format!("{OPEN}{label}{ID_SEPARATOR}{id}{CLOSE}")
}

/// `[LABEL:payload]`: an `ENCRYPT` token.
pub fn sealed(label: &str, payload: &str) -> String {
    format!("{OPEN}{label}{PAYLOAD_SEPARATOR}{payload}{CLOSE}")
}

/// Whether `c` may stand at position `i` of a label.
fn is_label_char(i: usize, c: char) -> bool {
    c.is_ascii_uppercase() || (i > 0 && (c.is_ascii_digit() || c == '_'))
}

/// Whether `s` is a label as tokens spell it.
pub fn is_label(s: &str) -> bool {
    !s.is_empty() && s.chars().enumerate().all(|(i, c)| is_label_char(i, c))
}

/// Whether `s` is a placeholder id.
pub fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether `c` may appear in a sealed payload (base64url).
pub fn is_payload_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// `(label, id)` of a whole placeholder `[LABEL_id]`, else `None`.
pub fn split_placeholder(s: &str) -> Option<(&str, &str)> {
    let inner = s.strip_prefix(OPEN)?.strip_suffix(CLOSE)?;
    let (label, id) = inner.rsplit_once(ID_SEPARATOR)?;
    (is_label(label) && is_id(id)).then_some((label, id))
}

/// Every token (placeholder or sealed) in a text; for counting what an answer holds.
pub fn any_token() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A literal built-in pattern: failing to compile is a bug every test would catch.
    RE.get_or_init(|| {
        Regex::new(r"\[[A-Z][A-Z0-9_]*(?:_[0-9a-f]+|:[A-Za-z0-9_\-]+)\]").expect("valid regex")
    })
}

/// Sealed tokens; group 1 is the label, group 2 the payload.
pub fn sealed_token() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A literal built-in pattern: failing to compile is a bug every test would catch.
    RE.get_or_init(|| Regex::new(r"\[([A-Z][A-Z0-9_]*):([A-Za-z0-9_-]+)\]").expect("valid regex"))
}

/// Whether `tail` (starting with `[`) could still grow into a sealed token.
pub fn is_sealed_prefix(tail: &str) -> bool {
    let Some(rest) = tail.strip_prefix(OPEN) else {
        return false;
    };
    let (label, payload) = match rest.split_once(PAYLOAD_SEPARATOR) {
        Some((l, p)) => (l, Some(p)),
        None => (rest, None),
    };
    let label_ok = label.chars().enumerate().all(|(i, c)| is_label_char(i, c));
    let payload_ok = payload.is_none_or(|p| !label.is_empty() && p.chars().all(is_payload_char));
    label_ok && payload_ok
}

/// Bracketed lenient placeholder forms with a decimal id, any case, `_` or spaces:
/// `[person 1]`, `[Email_Address_2]`; group 1 is the label, group 2 the number.
pub fn lenient_bracketed() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A literal built-in pattern: failing to compile is a bug every test would catch.
    RE.get_or_init(|| {
        Regex::new(r"\[([A-Za-z][A-Za-z0-9_\x20]*?)[_\x20]([0-9]+)\]").expect("valid regex")
    })
}

/// The key under which lenient restoring finds a bracketed form: ASCII lower case,
/// spaces as underscores (`[Person 1]` and `[PERSON_1]` share `[person_1]`).
pub fn lenient_key(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b' ' => '_',
            b => char::from(b.to_ascii_lowercase()),
        })
        .collect()
}

/// The canonical label of a lenient label spelling: `email address` → `EMAIL_ADDRESS`.
pub fn canonical_label(s: &str) -> String {
    s.to_ascii_uppercase().replace(' ', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_and_readers_agree() {
        let p = placeholder("EMAIL_ADDRESS", 7);
        assert_eq!(p, "[EMAIL_ADDRESS_7]");
        assert_eq!(split_placeholder(&p), Some(("EMAIL_ADDRESS", "7")));
        let h = placeholder("PERSON", "9f86d081884c");
        assert_eq!(split_placeholder(&h), Some(("PERSON", "9f86d081884c")));
        let s = sealed("PERSON", "AbC-_9");
        let caps = sealed_token().captures(&s).unwrap();
        assert_eq!((&caps[1], &caps[2]), ("PERSON", "AbC-_9"));
        for t in [&p, &h, &s] {
            assert_eq!(any_token().find(t).map(|m| m.as_str()), Some(t.as_str()));
            assert!(is_sealed_prefix(&t[..t.len() - 1]) || !t.contains(':'));
        }
    }

    #[test]
    fn rejects_what_is_not_a_token() {
        for s in [
            "[person_1]",
            "[PERSON_]",
            "[_1]",
            "[PERSON_1x]",
            "PERSON_1",
            "[1A_1]",
        ] {
            assert_eq!(split_placeholder(s), None, "{s}");
        }
        assert!(!is_sealed_prefix("[PERSON:a b"));
        assert!(!is_sealed_prefix("[:abc"));
        assert!(is_sealed_prefix("[PERS"));
        assert_eq!(lenient_key("[Email Address_1]"), "[email_address_1]");
        assert_eq!(canonical_label("email address"), "EMAIL_ADDRESS");
    }
}
