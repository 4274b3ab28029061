//! Keeps JSON valid where a bare value is replaced.
//!
//! A JSON log line holds personal numbers unquoted (`"age": 42`, `"lat": 48.8566`). Put
//! a placeholder there and the line stops parsing (`"age": [AGE_1]`), so the backend
//! drops or mangles it. A replacement that lands in such a slot and is not itself a JSON
//! number is written as a JSON string instead: `"age": "[AGE_1]"`. Restoring it gives
//! the value back as a string (`"age": "42"`); the text around it cannot say whether the
//! quotes were ours.

use crate::text::ByteSpan;

/// `replacement` as it must be written over `span` of `text`: as it is, or as a JSON
/// string when `span` is a bare number after a JSON key and `replacement` is not one.
pub fn fit(text: &str, span: ByteSpan, replacement: &str) -> Option<String> {
    let slot = is_number(&text[span.start..span.end])
        && after_key(&text[..span.start])
        && before_delimiter(&text[span.end..]);
    (slot && !is_number(replacement)).then(|| quoted(replacement))
}

/// A JSON number literal: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if int == 0 || (int > 1 && b[0] == b'0') {
        return false;
    }
    let mut rest = &b[int..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    if let Some(exp) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exp = exp
            .strip_prefix(b"+")
            .or_else(|| exp.strip_prefix(b"-"))
            .unwrap_or(exp);
        let n = exp.iter().take_while(|c| c.is_ascii_digit()).count();
        return n > 0 && n == exp.len();
    }
    rest.is_empty()
}

/// `before` ends with a quoted key and its colon: `"age": `.
fn after_key(before: &str) -> bool {
    let Some(colon) = before.trim_end().strip_suffix(':') else {
        return false;
    };
    colon.trim_end().ends_with('"')
}

/// `after` goes on with what may follow a value in an object or array.
fn before_delimiter(after: &str) -> bool {
    matches!(after.trim_start().bytes().next(), Some(b',' | b'}' | b']'))
}

fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c < ' ' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit_in(text: &str, value: &str, replacement: &str) -> Option<String> {
        let start = text.find(value).unwrap();
        fit(text, ByteSpan::new(start, start + value.len()), replacement)
    }

    #[test]
    fn a_bare_number_after_a_key_becomes_a_string() {
        let line = r#"{"ts":"2024-03-14","age":42,"lat": 48.8566 ,"n":[1]}"#;
        assert_eq!(
            fit_in(line, "42", "[AGE_1]").as_deref(),
            Some(r#""[AGE_1]""#)
        );
        assert_eq!(
            fit_in(line, "48.8566", "********").as_deref(),
            Some(r#""********""#)
        );
        let end = r#"{"phone": -4.1e+9}"#;
        assert_eq!(fit_in(end, "-4.1e+9", "[X]").as_deref(), Some(r#""[X]""#));
    }

    #[test]
    fn numbers_in_place_of_numbers_and_values_outside_json_slots_stay_as_they_are() {
        let line = r#"{"age":42,"zip":"94107"}"#;
        // A fake number keeps the line valid and its type.
        assert_eq!(fit_in(line, "42", "57"), None);
        // Inside a string, in logfmt, in prose, or only part of a number.
        assert_eq!(fit_in(line, "94107", "[ZIP_1]"), None);
        assert_eq!(fit_in("age=42 ok", "42", "[AGE_1]"), None);
        assert_eq!(fit_in("she is 42, he is 40", "42", "[AGE_1]"), None);
        assert_eq!(fit_in(r#"{"lat":48.8566}"#, "48.85", "[C_1]"), None);
        assert_eq!(fit_in(r#"{"a" 42}"#, "42", "[AGE_1]"), None);
        assert_eq!(fit_in(r#"{"id":"x","n":042}"#, "042", "[AGE_1]"), None);
    }

    #[test]
    fn quotes_backslashes_and_control_characters_are_escaped() {
        assert_eq!(quoted("a\"b\\c\n"), r#""a\"b\\c\u000a""#);
    }

    #[test]
    fn json_numbers_are_recognised_by_their_grammar() {
        for yes in ["0", "-0", "42", "-12.5", "1e5", "1.5E-3", "2.3522"] {
            assert!(is_number(yes), "{yes}");
        }
        for no in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1 2", "12a",
        ] {
            assert!(!is_number(no), "{no}");
        }
    }
}
