//! A small JSON path syntax for naming the string fields a route rewrites.
//!
//! ```text
//! $.messages[*].content          a key, every element of an array, a key
//! $.streams[*].values[*][1]      an index
//! $..message                     `..`: the key at any depth
//! $.content[?@.type=='thinking'] a filter: the elements (or the object itself) whose
//!                                `type` is `thinking` (a quoted string, true or false)
//! $..[?@.type=='reasoning']      a filter at any depth
//! $.input                        a field that may be a string or an array of strings
//! $.a.b | json                   a JSON document, as a string (every string inside it is
//!                                content) or as the value itself (every string below it,
//!                                protocol keys included)
//! $.input | text                 only a string value here, not the strings below an
//!                                object or array
//! $.client.ip | ip               an IP address field that a schema types (Elasticsearch's
//!                                `ip`): a string, or the strings of an array
//! ```
//! A path that ends on an array or object visits every string below it, so
//! `$.messages[*].content` covers both `"content": "text"` and
//! `"content": [{"type": "text", "text": "..."}]` (structural keys such as `type` are
//! skipped, see [`SKIP_KEYS`]).
//!
//! A path can carry exclusions ([`JsonPath::excluding`]): the signed fields of its route.
//! Whatever an exclusion selects is never visited, however the path reaches it.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// Keys whose string values are protocol structure, not content, when a path ends on
/// an object above them (`"type": "text"` must stay `text`). Not applied inside `| json`
/// documents, whose every string is content.
pub const SKIP_KEYS: &[&str] = &[
    "type",
    "role",
    "id",
    "tool_call_id",
    "tool_use_id",
    "call_id",
    "item_id",
    "object",
    "finish_reason",
    "status",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
    Wildcard,
    /// `..key`: `key` at this level or any level below.
    Descend(String),
    /// `[?@.key==value]`: an object whose `key` is `value`; in an array, each such element.
    Filter(Filter),
    /// `..[?@.key==value]`: every such object at this level or below (not below a match).
    DescendFilter(Filter),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Filter {
    key: String,
    value: Value,
}

impl Filter {
    fn matches(&self, value: &Value) -> bool {
        value.get(&self.key) == Some(&self.value)
    }
}

/// What a path's last step selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terminal {
    /// Every string at or below the node.
    Strings,
    /// A JSON document: a string holding one, or the value itself.
    Json,
    /// The node only if it is a string.
    Text,
    /// A string, or the strings of an array, typed as IP addresses.
    Ip,
}

/// What a visited string is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TextKind {
    /// Text.
    Plain,
    /// A string holding a JSON document (`| json`), e.g. tool-call arguments, whole or a
    /// streamed fragment of one.
    JsonDocument,
    /// A value a schema types as an IP address (`| ip`): its replacement must be one.
    IpAddress,
}

/// A parsed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPath {
    steps: Vec<Step>,
    terminal: Terminal,
    source: String,
    /// Never visited: what these select (the route's signed fields).
    except: Arc<[JsonPath]>,
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
        let err = |position, message| Err(PathError { position, message });
        // A `|` inside a filter's quoted value is not the filter bar.
        let bar = last_bar(text);
        let (path, terminal) = match bar {
            Some(at) => match text[at + 1..].trim() {
                "json" => (text[..at].trim(), Terminal::Json),
                "text" => (text[..at].trim(), Terminal::Text),
                "ip" => (text[..at].trim(), Terminal::Ip),
                _ => return err(at, "the filters are `| json`, `| text` and `| ip`"),
            },
            None => (text.trim(), Terminal::Strings),
        };
        let bytes = path.as_bytes();
        if bytes.first() != Some(&b'$') {
            return err(0, "a path starts with `$`");
        }
        let mut steps = Vec::new();
        let mut i = 1;
        while i < bytes.len() {
            match bytes[i] {
                b'.' if bytes.get(i + 1) == Some(&b'.') => {
                    if bytes.get(i + 2) == Some(&b'[') {
                        let (filter, next) = read_filter(path, i + 2)?;
                        steps.push(Step::DescendFilter(filter));
                        i = next;
                        continue;
                    }
                    let (key, next) = read_key(path, i + 2);
                    if key.is_empty() {
                        return err(i, "`..` must be followed by a key or a filter");
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
                b'[' if bytes.get(i + 1) == Some(&b'?') => {
                    let (filter, next) = read_filter(path, i)?;
                    steps.push(Step::Filter(filter));
                    i = next;
                }
                b'[' => {
                    let Some(close) = path[i..].find(']') else {
                        return err(i, "unclosed `[`");
                    };
                    let inner = &path[i + 1..i + close];
                    if inner == "*" {
                        steps.push(Step::Wildcard);
                    } else if let Ok(n) = inner.parse::<usize>() {
                        steps.push(Step::Index(n));
                    } else if let Some(key) =
                        inner.strip_prefix('\'').and_then(|k| k.strip_suffix('\''))
                    {
                        steps.push(Step::Key(key.to_owned()));
                    } else {
                        return err(
                            i,
                            "`[...]` holds `*`, an index, a 'quoted key' or a filter `?@.key=='value'`",
                        );
                    }
                    i += close + 1;
                }
                _ => return err(i, "expected `.`, `..` or `[`"),
            }
        }
        Ok(JsonPath {
            steps,
            terminal,
            source: text.to_owned(),
            except: Arc::from(Vec::new()),
        })
    }

    pub fn is_embedded_json(&self) -> bool {
        self.terminal == Terminal::Json
    }

    /// This path, never visiting what `except` selects (a route's signed fields).
    pub fn excluding(mut self, except: Arc<[JsonPath]>) -> JsonPath {
        self.except = except;
        self
    }

    /// Calls `f` on every string the path selects in `value`, with the string's location
    /// (a stable key for streaming state, e.g. `choices.0.delta.content`).
    pub fn visit_mut(&self, value: &mut Value, f: &mut dyn FnMut(&str, &mut String)) {
        self.visit_with(value, true, f);
    }

    /// Like [`JsonPath::visit_mut`]; `skip` false also visits the values of
    /// [`SKIP_KEYS`] below a selected object (in a log event, `id` is data).
    pub fn visit_with(&self, value: &mut Value, skip: bool, f: &mut dyn FnMut(&str, &mut String)) {
        self.visit_texts(value, skip, &mut |loc, s, _| f(loc, s));
    }

    /// Like [`JsonPath::visit_with`], telling each string's [`TextKind`].
    pub fn visit_texts(
        &self,
        value: &mut Value,
        skip: bool,
        f: &mut dyn FnMut(&str, &mut String, TextKind),
    ) {
        let mut excluded = Vec::new();
        for path in self.except.iter() {
            visit(&path.steps, value, &mut String::new(), &mut |_, loc| {
                excluded.push(loc.to_owned());
            });
        }
        let terminal = self.terminal;
        let mut on_node = |node: &mut Value, loc: &mut String| {
            let mut f = |l: &str, s: &mut String, kind: TextKind| {
                if !excluded.iter().any(|e| within(l, e)) {
                    f(l, s, kind);
                }
            };
            match (terminal, node) {
                (Terminal::Json, Value::String(s)) => f(loc, s, TextKind::JsonDocument),
                (Terminal::Json, node) => {
                    visit_all_strings(node, loc, false, &mut |l, s| f(l, s, TextKind::Plain));
                }
                (Terminal::Text, Value::String(s)) => f(loc, s, TextKind::Plain),
                (Terminal::Text, _) => {}
                (Terminal::Ip, Value::String(s)) => f(loc, s, TextKind::IpAddress),
                (Terminal::Ip, node @ Value::Array(_)) => {
                    each_child(node, loc, &mut |_, item, l| {
                        if let Value::String(s) = item {
                            f(l, s, TextKind::IpAddress);
                        }
                    });
                }
                (Terminal::Ip, _) => {}
                (Terminal::Strings, node) => {
                    visit_all_strings(node, loc, skip, &mut |l, s| f(l, s, TextKind::Plain));
                }
            }
        };
        visit(&self.steps, value, &mut String::new(), &mut on_node);
    }
}

/// Whether location `loc` is `outer` or below it.
fn within(loc: &str, outer: &str) -> bool {
    outer.is_empty()
        || (loc.starts_with(outer)
            && (loc.len() == outer.len() || loc.as_bytes()[outer.len()] == b'.'))
}

/// The byte offset of the `|` that starts a path's filter, if any (not one inside a
/// quoted filter value).
fn last_bar(text: &str) -> Option<usize> {
    let mut quote = None;
    let mut bar = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '|') => bar = Some(i),
            _ => {}
        }
    }
    bar
}

fn read_key(path: &str, start: usize) -> (String, usize) {
    let rest = &path[start..];
    let end = rest.find(['.', '[']).unwrap_or(rest.len());
    (rest[..end].to_owned(), start + end)
}

/// Reads `[?@.key==value]` (or `[?(@.key==value)]`) starting at the `[`.
fn read_filter(path: &str, start: usize) -> Result<(Filter, usize), PathError> {
    let bad = |message| PathError {
        position: start,
        message,
    };
    let rest = &path[start..];
    // The closing `]` is the first one outside quotes.
    let mut quote = None;
    let mut close = None;
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ']') => {
                close = Some(i);
                break;
            }
            _ => {}
        }
    }
    let close = close.ok_or_else(|| bad("unclosed `[`"))?;
    let inner = rest[1..close]
        .strip_prefix('?')
        .ok_or_else(|| bad("a filter is `[?@.key=='value']`"))?
        .trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|i| i.strip_suffix(')'))
        .unwrap_or(inner)
        .trim();
    let (lhs, rhs) = inner
        .split_once("==")
        .ok_or_else(|| bad("a filter is `[?@.key=='value']`"))?;
    let key = lhs
        .trim()
        .strip_prefix("@.")
        .filter(|k| !k.is_empty() && !k.contains(['.', '[']))
        .ok_or_else(|| bad("a filter tests one key of the element: `@.key`"))?;
    let rhs = rhs.trim();
    let value = match rhs {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => rhs
            .strip_prefix('\'')
            .and_then(|v| v.strip_suffix('\''))
            .or_else(|| rhs.strip_prefix('"').and_then(|v| v.strip_suffix('"')))
            .map(|v| Value::String(v.to_owned()))
            .ok_or_else(|| bad("a filter compares with a quoted string, true or false"))?,
    };
    Ok((
        Filter {
            key: key.to_owned(),
            value,
        },
        start + close + 1,
    ))
}

/// Walks `steps` from `value`, calling `on_node` with every node they select and its
/// location.
fn visit(
    steps: &[Step],
    value: &mut Value,
    loc: &mut String,
    on_node: &mut dyn FnMut(&mut Value, &mut String),
) {
    let Some((step, rest)) = steps.split_first() else {
        on_node(value, loc);
        return;
    };
    let mark = loc.len();
    match step {
        Step::Key(key) => {
            if let Some(child) = value.as_object_mut().and_then(|o| o.get_mut(key)) {
                push(loc, key);
                visit(rest, child, loc, on_node);
            }
        }
        Step::Index(n) => {
            if let Some(child) = value.as_array_mut().and_then(|a| a.get_mut(*n)) {
                push(loc, &n.to_string());
                visit(rest, child, loc, on_node);
            }
        }
        Step::Wildcard => match value {
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    push(loc, &element_key(i, child));
                    visit(rest, child, loc, on_node);
                    loc.truncate(mark);
                }
            }
            Value::Object(map) => {
                for (k, child) in map.iter_mut() {
                    push(loc, k);
                    visit(rest, child, loc, on_node);
                    loc.truncate(mark);
                }
            }
            _ => {}
        },
        Step::Descend(key) => each_child(value, loc, &mut |k, child, loc| {
            let next = if k == Some(key.as_str()) { rest } else { steps };
            visit(next, child, loc, on_node);
        }),
        Step::Filter(filter) => match value {
            Value::Object(_) if filter.matches(value) => visit(rest, value, loc, on_node),
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    if filter.matches(child) {
                        push(loc, &i.to_string());
                        visit(rest, child, loc, on_node);
                        loc.truncate(mark);
                    }
                }
            }
            _ => {}
        },
        Step::DescendFilter(filter) => {
            if value.is_object() && filter.matches(value) {
                visit(rest, value, loc, on_node);
            } else {
                each_child(value, loc, &mut |_, child, loc| {
                    visit(steps, child, loc, on_node)
                });
            }
        }
    }
    loc.truncate(mark);
}

/// Calls `f` with every child of an object (its key) or array (`None`), the child's
/// position pushed on `loc` for the call: the walk of a `..` step and of every string.
fn each_child(
    value: &mut Value,
    loc: &mut String,
    f: &mut dyn FnMut(Option<&str>, &mut Value, &mut String),
) {
    let mark = loc.len();
    match value {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                push(loc, k);
                f(Some(k), child, loc);
                loc.truncate(mark);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter_mut().enumerate() {
                push(loc, &i.to_string());
                f(None, child, loc);
                loc.truncate(mark);
            }
        }
        _ => {}
    }
}

/// An array element's part of a location: its own `index` when it has one (streamed
/// `choices` and `tool_calls` elements, each event carrying one of several at position 0,
/// so the location names the choice or call rather than the position), else its position.
fn element_key(position: usize, element: &Value) -> String {
    match element.get("index").and_then(Value::as_u64) {
        Some(index) => format!("#{index}"),
        None => position.to_string(),
    }
}

/// Every string at or below `value`, with every location; `skip` leaves out the values
/// of [`SKIP_KEYS`].
pub fn visit_all_strings(
    value: &mut Value,
    loc: &mut String,
    skip: bool,
    f: &mut dyn FnMut(&str, &mut String),
) {
    match value {
        Value::String(s) => f(loc, s),
        _ => each_child(value, loc, &mut |key, child, loc| {
            if !(skip && key.is_some_and(|k| SKIP_KEYS.contains(&k))) {
                visit_all_strings(child, loc, skip, f);
            }
        }),
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
    }

    #[test]
    fn parses_the_json_filter_and_rejects_bad_syntax() {
        let p = JsonPath::parse("$.a[*].b | json").unwrap();
        assert!(p.is_embedded_json());
        for bad in [
            "a.b",
            "$.",
            "$[x]",
            "$.a | yaml",
            "$.a[1",
            "$..",
            "$a",
            "$[?@.type]",
            "$[?type=='x']",
            "$[?@.a.b=='x']",
            "$[?@.type==x]",
            "$[?@.type=='x'",
        ] {
            assert!(JsonPath::parse(bad).is_err(), "{bad} should not parse");
        }
        assert!(JsonPath::parse("$['odd key'][0]").is_ok());
    }

    #[test]
    fn filters_select_elements_or_the_object_itself() {
        let doc = json!({
            "type": "response.output_text.delta",
            "delta": "hi",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "thinking", "thinking": "b", "signature": "s"},
                {"type": "text", "text": "c", "note": {"type": "thinking", "thinking": "d"}}
            ]
        });
        assert_eq!(
            collect(
                "$[?@.type=='response.output_text.delta'].delta",
                doc.clone()
            ),
            [("delta".into(), "hi".into())]
        );
        assert!(collect("$[?@.type=='other'].delta", doc.clone()).is_empty());
        assert_eq!(
            collect("$.content[?(@.type == \"text\")].text", doc.clone()),
            [
                ("content.0.text".into(), "a".into()),
                ("content.2.text".into(), "c".into())
            ]
        );
        assert_eq!(
            collect("$..[?@.type=='thinking'].thinking", doc.clone()),
            [
                ("content.1.thinking".into(), "b".into()),
                ("content.2.note.thinking".into(), "d".into())
            ]
        );
        assert_eq!(
            collect("$[?@.thought==true]", json!({"thought": true, "text": "t"})),
            [("text".into(), "t".into())]
        );
        // A `|` inside a quoted value is not a filter bar.
        assert!(JsonPath::parse("$[?@.k=='a|b'].x | json")
            .unwrap()
            .is_embedded_json());
    }

    #[test]
    fn exclusions_are_never_visited_however_a_path_reaches_them() {
        let doc = json!({"messages": [{"content": [
            {"type": "thinking", "thinking": "Ann?", "signature": "sig"},
            {"type": "text", "text": "Ann"},
            {"type": "redacted_thinking", "data": "opaque"}
        ]}]});
        let signed: Arc<[JsonPath]> = [
            "$..[?@.type=='thinking']",
            "$..[?@.type=='redacted_thinking']",
        ]
        .iter()
        .map(|p| JsonPath::parse(p).unwrap())
        .collect();
        let path = JsonPath::parse("$.messages[*].content")
            .unwrap()
            .excluding(signed);
        let mut value = doc.clone();
        let mut seen = Vec::new();
        path.visit_mut(&mut value, &mut |loc, s| {
            seen.push((loc.to_owned(), s.clone()))
        });
        assert_eq!(
            seen,
            [("messages.0.content.1.text".to_owned(), "Ann".to_owned())]
        );
    }

    #[test]
    fn text_takes_strings_only_and_json_takes_whole_values_with_their_protocol_keys() {
        let kinds = |path: &str, mut value: Value| {
            let mut out = Vec::new();
            JsonPath::parse(path)
                .unwrap()
                .visit_texts(&mut value, true, &mut |loc, s, kind| {
                    out.push((loc.to_owned(), s.clone(), kind))
                });
            out
        };
        assert_eq!(
            kinds("$.input | text", json!({"input": "hi"})),
            [("input".into(), "hi".into(), TextKind::Plain)]
        );
        assert!(kinds("$.input | text", json!({"input": [{"text": "hi"}]})).is_empty());
        assert_eq!(
            kinds("$.args | json", json!({"args": "{\"id\": 1}"})),
            [("args".into(), "{\"id\": 1}".into(), TextKind::JsonDocument)]
        );
        assert_eq!(
            kinds("$.input | json", json!({"input": {"id": "Ann", "n": 1}})),
            [("input.id".into(), "Ann".into(), TextKind::Plain)]
        );
    }

    #[test]
    fn ip_takes_a_string_or_the_strings_of_an_array_as_addresses() {
        let kinds = |mut value: Value| {
            let mut out = Vec::new();
            JsonPath::parse("$.related.ip | ip").unwrap().visit_texts(
                &mut value,
                false,
                &mut |loc, s, kind| out.push((loc.to_owned(), s.clone(), kind)),
            );
            out
        };
        let ip = TextKind::IpAddress;
        assert_eq!(
            kinds(json!({"related": {"ip": "10.0.0.1"}})),
            [("related.ip".into(), "10.0.0.1".into(), ip)]
        );
        assert_eq!(
            kinds(json!({"related": {"ip": ["10.0.0.1", 7, "::1"]}})),
            [
                ("related.ip.0".into(), "10.0.0.1".into(), ip),
                ("related.ip.2".into(), "::1".into(), ip)
            ]
        );
        assert!(kinds(json!({"related": {"ip": {"v4": "10.0.0.1"}}})).is_empty());
        assert_eq!(
            JsonPath::parse("$.a | address").unwrap_err().message,
            "the filters are `| json`, `| text` and `| ip`"
        );
    }
}
