//! Elasticsearch `_bulk` bodies (<https://www.elastic.co/guide/en/elasticsearch/reference/current/docs-bulk.html>):
//! newline-delimited JSON where each action line (`index`, `create`, `update`,
//! `delete`) is followed by its source line, except `delete`, which has none.
//!
//! Action lines are kept byte for byte. The route's paths apply to the source of
//! `index` and `create`, and to the `doc` and `upsert` of an `update`. A line that is
//! not a known action where an action must be, or an action whose source is missing,
//! fails the whole body: guessing which line is a document could forward one unread.

use serde_json::Value;

use super::json::documents;
use super::{FormatError, Segment};

/// The keys under which an `update` source carries document fields.
const UPDATE_SCOPES: &[&str] = &["doc", "upsert"];

/// What an action line announces.
enum Action {
    /// `index`, `create`: a whole document follows.
    Document,
    /// `update`: a partial document (`doc`, `upsert`) follows.
    Update,
    /// `delete`: nothing follows.
    Delete,
}

fn action(line: &Value) -> Option<Action> {
    let object = line.as_object()?;
    if object.len() != 1 {
        return None;
    }
    let (name, meta) = object.iter().next()?;
    if !meta.is_object() {
        return None;
    }
    match name.as_str() {
        "index" | "create" => Some(Action::Document),
        "update" => Some(Action::Update),
        "delete" => Some(Action::Delete),
        _ => None,
    }
}

pub(super) fn segments(body: &[u8]) -> Result<Vec<Segment<'_>>, FormatError> {
    let (docs, rest) = documents(body)?;
    let mut out = Vec::with_capacity(docs.len() * 2 + 1);
    let mut docs = docs.into_iter().enumerate();
    while let Some((part, (gap, line, original))) = docs.next() {
        out.push(Segment::Keep(gap));
        let scopes: &'static [&'static str] = match action(&line) {
            Some(Action::Delete) => {
                out.push(Segment::Keep(original));
                continue;
            }
            Some(Action::Document) => &[],
            Some(Action::Update) => UPDATE_SCOPES,
            None => {
                return Err(FormatError::Unexpected {
                    part,
                    why: "not a bulk action (index, create, update or delete)",
                })
            }
        };
        out.push(Segment::Keep(original));
        let Some((part, (gap, source, original))) = docs.next() else {
            return Err(FormatError::Unexpected {
                part,
                why: "a bulk action without its source line",
            });
        };
        if !source.is_object() {
            return Err(FormatError::Unexpected {
                part,
                why: "a bulk source line must be an object",
            });
        }
        out.push(Segment::Keep(gap));
        out.push(Segment::Json {
            value: source,
            original,
            scopes,
        });
    }
    out.push(Segment::Keep(rest));
    Ok(out)
}
