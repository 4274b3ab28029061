//! A small JSON path syntax for naming the string fields a route rewrites.
//!
//! ```text
//! $.messages[*].content          a key, every element of an array, a key
//! $.streams[*].values[*][1]      an index
//! $..message                     `..`: the key at any depth
//! $.input                        a field that may be a string or an array of strings
//! $.a.b | json                   the string holds a JSON document: rewrite every string inside it
//! $.parts[?thought].text         `[?key]`: the elements of an array whose `key` is set (not
//!                                null or false), e.g. Gemini's thought parts
//! ```
//! A path that ends on an array or object visits every string below it, so
//! `$.messages[*].content` covers both `"content": "text"` and
//! `"content": [{"type": "text", "text": "..."}]` (structural keys such as `type` are
//! skipped, see [`SKIP_KEYS`]).

use std::fmt;

use serde_json::Value;

/// Keys whose string values are protocol structure, not content, when a path ends on
/// an object above them (`"type": "text"` must stay `text`). Not applied inside `| json`
/// documents, whose every string is content.
pub const SKIP_KEYS: &[&str] = &[
    "type",
    "role",
    "id",
    "tool_call_id",
    "object",
    "finish_reason",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
    Wildcard,
    /// `..key`: `key` at this level or any level below.
    Descend(String),
    /// `[?key]`: every element of an array that is an object whose `key` is set.
    Having(String),
}

/// A parsed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPath {
    steps: Vec<Step>,
    /// `| json`: the matched string is itself a JSON document.
    embedded_json: bool,
    source: String,
}

/// Why a path does not parse; `position` is a byte offset into the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub position: usize,
    pub message: &'static str,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at position {}", self.message, self.position)
    }
}

impl std::error::Error for PathError {}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl JsonPath {
    /// # Errors
    /// When `text` is not in the syntax above.
    pub fn parse(text: &str) -> Result<JsonPath, PathError> {
        let (path, embedded_json) = match text.split_once('|') {
            Some((path, filter)) if filter.trim() == "json" => (path.trim(), true),
            Some(_) => {
                return Err(PathError {
                    position: text.find('|').unwrap_or(0),
                    message: "the only filter is `| json`",
                })
            }
            None => (text.trim(), false),
        };
        let err = |position, message| Err(PathError { position, message });
        let bytes = path.as_bytes();
        if bytes.first() != Some(&b'$') {
            return err(0, "a path starts with `$`");
        }
        let mut steps = Vec::new();
        let mut i = 1;
        while i < bytes.len() {
            match bytes[i] {
                b'.' if bytes.get(i + 1) == Some(&b'.') => {
                    let (key, next) = read_key(path, i + 2);
                    if key.is_empty() {
                        return err(i, "`..` must be followed by a key");
                    }
                    steps.push(Step::Descend(key));
                    i = next;
                }
                b'.' => {
                    let (key, next) = read_key(path, i + 1);
                    if key.is_empty() {
                        return err(i, "`.` must be followed by a key");
                    }
                    steps.push(Step::Key(key));
                    i = next;
                }
                b'[' => {
                    let Some(close) = path[i..].find(']') else {
                        return err(i, "unclosed `[`");
                    };
                    let inner = &path[i + 1..i + close];
                    if inner == "*" {
                        steps.push(Step::Wildcard);
                    } else if let Some(key) = inner.strip_prefix('?').filter(|k| !k.is_empty()) {
                        steps.push(Step::Having(key.to_owned()));
                    } else if let Ok(n) = inner.parse::<usize>() {
                        steps.push(Step::Index(n));
                    } else if let Some(key) =
                        inner.strip_prefix('\'').and_then(|k| k.strip_suffix('\''))
                    {
                        steps.push(Step::Key(key.to_owned()));
                    } else {
                        return err(i, "`[...]` holds `*`, an index, `?key` or a 'quoted key'");
                    }
                    i += close + 1;
                }
                _ => return err(i, "expected `.`, `..` or `[`"),
            }
        }
        Ok(JsonPath {
            steps,
            embedded_json,
            source: text.to_owned(),
        })
    }

    pub fn is_embedded_json(&self) -> bool {
        self.embedded_json
    }

    /// Calls `f` on every string the path selects in `value`, with the string's location
    /// (a stable key for streaming state, e.g. `choices.0.delta.content`).
    pub fn visit_mut(&self, value: &mut Value, f: &mut dyn FnMut(&str, &mut String)) {
        self.visit_with(value, true, f);
    }

    /// Like [`JsonPath::visit_mut`]; `skip` false also visits the values of
    /// [`SKIP_KEYS`] below a selected object (in a log event, `id` is data).
    pub fn visit_with(&self, value: &mut Value, skip: bool, f: &mut dyn FnMut(&str, &mut String)) {
        let mut location = String::new();
        visit(&self.steps, value, &mut location, skip, f);
    }
}

fn read_key(path: &str, start: usize) -> (String, usize) {
    let rest = &path[start..];
    let end = rest.find(['.', '[']).unwrap_or(rest.len());
    (rest[..end].to_owned(), start + end)
}

fn visit(
    steps: &[Step],
    value: &mut Value,
    loc: &mut String,
    skip: bool,
    f: &mut dyn FnMut(&str, &mut String),
) {
    let Some((step, rest)) = steps.split_first() else {
        visit_all_strings(value, loc, skip, f);
        return;
    };
    let mark = loc.len();
    match step {
        Step::Key(key) => {
            if let Some(child) = value.as_object_mut().and_then(|o| o.get_mut(key)) {
                push(loc, key);
                visit(rest, child, loc, skip, f);
            }
        }
        Step::Index(n) => {
            if let Some(child) = value.as_array_mut().and_then(|a| a.get_mut(*n)) {
                push(loc, &n.to_string());
                visit(rest, child, loc, skip, f);
            }
        }
        Step::Wildcard => match value {
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    push(loc, &i.to_string());
                    visit(rest, child, loc, skip, f);
                    loc.truncate(mark);
                }
            }
            Value::Object(map) => {
                for (k, child) in map.iter_mut() {
                    push(loc, k);
                    visit(rest, child, loc, skip, f);
                    loc.truncate(mark);
                }
            }
            _ => {}
        },
        Step::Having(key) => {
            if let Value::Array(items) = value {
                for (i, child) in items.iter_mut().enumerate() {
                    let set = child
                        .get(key.as_str())
                        .is_some_and(|v| !matches!(v, Value::Null | Value::Bool(false)));
                    if set {
                        push(loc, &i.to_string());
                        visit(rest, child, loc, skip, f);
                        loc.truncate(mark);
                    }
                }
            }
        }
        Step::Descend(key) => match value {
            Value::Object(map) => {
                for (k, child) in map.iter_mut() {
                    push(loc, k);
                    if k == key {
                        visit(rest, child, loc, skip, f);
                    } else {
                        visit(steps, child, loc, skip, f);
                    }
                    loc.truncate(mark);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    push(loc, &i.to_string());
                    visit(steps, child, loc, skip, f);
                    loc.truncate(mark);
                }
            }
            _ => {}
        },
    }
    loc.truncate(mark);
}

/// Every string at or below `value`, with every location; `skip` leaves out the values
/// of [`SKIP_KEYS`].
pub fn visit_all_strings(
    value: &mut Value,
    loc: &mut String,
    skip: bool,
    f: &mut dyn FnMut(&str, &mut String),
) {
    let mark = loc.len();
    match value {
        Value::String(s) => f(loc, s),
        Value::Array(items) => {
            for (i, child) in items.iter_mut().enumerate() {
                push(loc, &i.to_string());
                visit_all_strings(child, loc, skip, f);
                loc.truncate(mark);
            }
        }
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                if skip && SKIP_KEYS.contains(&k.as_str()) {
                    continue;
                }
                push(loc, k);
                visit_all_strings(child, loc, skip, f);
                loc.truncate(mark);
            }
        }
        _ => {}
    }
}

fn push(loc: &mut String, part: &str) {
    if !loc.is_empty() {
        loc.push('.');
    }
    loc.push_str(part);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn collect(path: &str, mut value: Value) -> Vec<(String, String)> {
        let path = JsonPath::parse(path).unwrap();
        let mut out = Vec::new();
        path.visit_mut(&mut value, &mut |loc, s| {
            out.push((loc.to_owned(), s.clone()))
        });
        out
    }

    #[test]
    fn selects_keys_indexes_wildcards_and_descendants() {
        let doc = json!({
            "messages": [
                {"role": "user", "content": "hi Ann"},
                {"role": "user", "content": [{"type": "text", "text": "Bob"}, {"type": "image_url", "image_url": {"url": "u"}}]}
            ],
            "streams": [{"values": [["1", "line one"], ["2", "line two"]]}]
        });
        assert_eq!(
            collect("$.messages[*].content", doc.clone()),
            [
                ("messages.0.content".into(), "hi Ann".into()),
                ("messages.1.content.0.text".into(), "Bob".into()),
                ("messages.1.content.1.image_url.url".into(), "u".into())
            ]
        );
        assert_eq!(
            collect("$.streams[*].values[*][1]", doc.clone()),
            [
                ("streams.0.values.0.1".into(), "line one".into()),
                ("streams.0.values.1.1".into(), "line two".into())
            ]
        );
        assert_eq!(
            collect("$..text", doc.clone()),
            [("messages.1.content.0.text".into(), "Bob".into())]
        );
        assert_eq!(collect("$.missing[0]", doc), Vec::<(String, String)>::new());
        let parts = json!({"parts": [{"text": "a", "thought": true}, {"text": "b"}, {"text": "c", "thought": false}]});
        assert_eq!(
            collect("$.parts[?thought].text", parts),
            [("parts.0.text".into(), "a".into())]
        );
    }

    #[test]
    fn parses_the_json_filter_and_rejects_bad_syntax() {
        let p = JsonPath::parse("$.a[*].b | json").unwrap();
        assert!(p.is_embedded_json());
        for bad in [
            "a.b",
            "$.",
            "$[x]",
            "$[?]",
            "$.a | yaml",
            "$.a[1",
            "$..",
            "$a",
        ] {
            assert!(JsonPath::parse(bad).is_err(), "{bad} should not parse");
        }
        assert!(JsonPath::parse("$['odd key'][0]").is_ok());
    }
}
