//! A changed JSON document written as the bytes that came with only its changed
//! strings replaced: numbers (`1.50`, integers beyond 64 bits), spacing, escapes and
//! every string the route did not change stay exactly as the client sent them, and the
//! document is not serialized again.
//!
//! The parsed document's strings (keys and values, in document order: objects keep
//! their order) are matched one for one with the string literals of the original bytes.
//! Where that cannot hold (an object that repeats a key keeps one of them), there is no
//! splice and the document is serialized instead.

use memchr::{memchr, memchr2};
use serde_json::Value;

/// `value` written as `original` with its changed strings spliced in, or serialized
/// when its strings and the literals do not line up. `original` must be the bytes
/// `value` was parsed from, with its strings since changed.
pub(super) fn rewritten(original: &[u8], value: &Value) -> Vec<u8> {
    // Serializing a Value parsed from JSON cannot fail.
    splice(original, value).unwrap_or_else(|| serde_json::to_vec(value).unwrap_or_default())
}

/// `original` with each string of `value` that differs from the literal at its place
/// written in the literal's stead; `None` when the strings and literals do not line up.
fn splice(original: &[u8], value: &Value) -> Option<Vec<u8>> {
    let mut splicer = Splicer {
        original,
        at: 0,
        copied: 0,
        out: Vec::with_capacity(original.len() + original.len() / 8),
    };
    splicer.value(value)?;
    if splicer.literal().is_some() {
        return None;
    }
    splicer.out.extend_from_slice(&original[splicer.copied..]);
    Some(splicer.out)
}

struct Splicer<'a> {
    original: &'a [u8],
    /// Where the search for the next literal starts.
    at: usize,
    /// How much of `original` is in `out`.
    copied: usize,
    out: Vec<u8>,
}

impl Splicer<'_> {
    /// Depth is bounded: `serde_json` refuses documents nested deeper than 128.
    fn value(&mut self, value: &Value) -> Option<()> {
        match value {
            Value::String(s) => {
                let (start, end) = self.literal()?;
                if !same(&self.original[start..end], s) {
                    self.out
                        .extend_from_slice(&self.original[self.copied..start]);
                    // Writing a `&str` into a `Vec` cannot fail.
                    serde_json::to_writer(&mut self.out, s).ok()?;
                    self.copied = end;
                }
            }
            Value::Array(items) => {
                for item in items {
                    self.value(item)?;
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let (start, end) = self.literal()?;
                    if !same(&self.original[start..end], key) {
                        return None;
                    }
                    self.value(item)?;
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
        Some(())
    }

    /// The next string literal's range, quotes included. Outside literals, valid JSON
    /// has no `"`; inside, a `\` escapes the byte after it.
    fn literal(&mut self) -> Option<(usize, usize)> {
        let start = self.at + memchr(b'"', &self.original[self.at..])?;
        let mut at = start + 1;
        loop {
            // `get`: a `\` that ended the bytes would step past them.
            at += memchr2(b'"', b'\\', self.original.get(at..)?)?;
            if self.original[at] == b'\\' {
                at += 2;
            } else {
                self.at = at + 1;
                return Some((start, self.at));
            }
        }
    }
}

/// Whether the literal `quoted` (quotes included) spells `s`.
fn same(quoted: &[u8], s: &str) -> bool {
    let inner = &quoted[1..quoted.len() - 1];
    if memchr(b'\\', inner).is_none() {
        return inner == s.as_bytes();
    }
    serde_json::from_slice::<String>(quoted).is_ok_and(|unescaped| unescaped == s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Parses `body`, applies `change` to its value, and splices.
    fn spliced(body: &str, change: impl FnOnce(&mut Value)) -> Option<String> {
        let mut value: Value = serde_json::from_str(body).unwrap();
        change(&mut value);
        splice(body.as_bytes(), &value).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn only_the_changed_strings_are_rewritten() {
        let body = r#"{ "msg" : "hi ann",  "n": 1.50, "big": 123456789012345678901234567890, "e": "caf\u00e9 \"x\"", "l": ["ann", "bob", {"k": "ann"}] }"#;
        let out = spliced(body, |v| {
            v["msg"] = "hi [P_1]".into();
            v["l"][1] = "[P_2] \"q\"\n".into();
            v["l"][2]["k"] = "ann".into(); // the same: kept as it came
        });
        assert_eq!(
            out.unwrap(),
            r#"{ "msg" : "hi [P_1]",  "n": 1.50, "big": 123456789012345678901234567890, "e": "caf\u00e9 \"x\"", "l": ["ann", "[P_2] \"q\"\n", {"k": "ann"}] }"#
        );
    }

    #[test]
    fn an_unchanged_document_is_its_bytes() {
        let body = "[\"a\\\\\", {\"\\u0062\": [true, null, \"\\/\"]}, \"\"]";
        assert_eq!(spliced(body, |_| {}).unwrap(), body);
    }

    #[test]
    fn escaped_literals_are_compared_unescaped() {
        let body = r#"{"a\"b": "x\\y", "c": "\ud83d\ude00"}"#;
        let out = spliced(body, |v| v["c"] = "\u{1F600}!".into()).unwrap();
        assert_eq!(out, r#"{"a\"b": "x\\y", "c": "😀!"}"#);
    }

    #[test]
    fn a_repeated_key_does_not_line_up() {
        // The parsed object keeps one `a`: the literals outnumber its strings.
        assert_eq!(spliced(r#"{"a": "x", "a": "y"}"#, |_| {}), None);
        assert_eq!(spliced(r#"{"a": "x", "a": "y", "b": "z"}"#, |_| {}), None);
    }

    /// JSON values whose strings hold quotes, backslashes, control characters and
    /// non-ASCII.
    fn values() -> impl Strategy<Value = Value> {
        let text = "[a-z\"\\\\/\u{1}\n\t é😀]{0,6}";
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            text.prop_map(Value::from),
        ];
        leaf.prop_recursive(5, 48, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((text, inner), 0..4)
                    .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            ]
        })
    }

    /// Replaces the strings (not keys) whose turn `change` says, in document order.
    fn change_strings(value: &mut Value, change: &[bool], turn: &mut usize, new: &str) {
        match value {
            Value::String(s) => {
                if change.get(*turn % change.len().max(1)) == Some(&true) {
                    *s = format!("{new}{turn}");
                }
                *turn += 1;
            }
            Value::Array(items) => {
                for item in items {
                    change_strings(item, change, turn, new);
                }
            }
            Value::Object(map) => {
                for item in map.values_mut() {
                    change_strings(item, change, turn, new);
                }
            }
            _ => {}
        }
    }

    proptest::proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_document_splices_to_its_changed_value(
            value in values(),
            pretty in any::<bool>(),
            change in proptest::collection::vec(any::<bool>(), 0..5),
            new in "[a-z\"\\\\\u{1}é]{0,4}",
        ) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            // Escapes a client may write that serde_json does not: `/` and `é` appear
            // only inside strings, so the document stays the same.
            let original = text.replace('/', "\\/").replace('é', "\\u00e9");
            let mut changed: Value = serde_json::from_str(&original).unwrap();
            prop_assert_eq!(&changed, &value);
            change_strings(&mut changed, &change, &mut 0, &new);
            let out = splice(original.as_bytes(), &changed).expect("lines up");
            prop_assert_eq!(serde_json::from_slice::<Value>(&out).unwrap(), changed);
            if !change.contains(&true) {
                prop_assert_eq!(out, original.into_bytes());
            }
        }
    }

    #[test]
    fn the_result_parses_to_the_changed_value() {
        let body = r#"{"messages":[{"role":"user","content":"Mail ann@x.io"}],"t":0.70}"#;
        let mut expected: Value = serde_json::from_str(body).unwrap();
        expected["messages"][0]["content"] = "Mail \u{7f}\u{1}\t</script>".into();
        let out = splice(body.as_bytes(), &expected).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&out).unwrap(), expected);
        assert!(String::from_utf8(out).unwrap().ends_with(r#""t":0.70}"#));
    }
}
