//! Where a route's JSON is rewritten: collect the strings its paths select (in JSON or
//! NDJSON bodies, and inside `| json` embedded documents), transform them as one batch,
//! and write them back in place. Documents nothing was selected in keep their bytes.

use std::fmt;

use serde_json::Value;

use super::jsonpath::{visit_all_strings, JsonPath};
use super::route::BodyFormat;

/// Why a body could not be rewritten. Never carries body content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RewriteError {
    /// The body (or NDJSON document `index`) is not JSON.
    NotJson { document: usize },
    /// The transform did not return one replacement per text (a bug): nothing is sent.
    Incomplete,
}

impl fmt::Display for RewriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RewriteError::NotJson { document } => {
                write!(f, "document {document} is not valid JSON")
            }
            RewriteError::Incomplete => f.write_str("the rewrite was incomplete"),
        }
    }
}

impl std::error::Error for RewriteError {}

/// One JSON document of a body, with its original bytes and the bytes before it
/// (whitespace or newlines between NDJSON documents).
struct Document<'a> {
    value: Value,
    prefix: &'a [u8],
    original: &'a [u8],
}

/// Splits a body into documents; also returns the bytes after the last one.
fn split(body: &[u8], format: BodyFormat) -> Result<(Vec<Document<'_>>, &[u8]), RewriteError> {
    match format {
        BodyFormat::Json => {
            let value =
                serde_json::from_slice(body).map_err(|_| RewriteError::NotJson { document: 0 })?;
            let doc = Document {
                value,
                prefix: b"",
                original: body,
            };
            Ok((vec![doc], b""))
        }
        BodyFormat::Ndjson => {
            // Documents separated by newlines (or simply concatenated, as Splunk HEC allows).
            let mut docs = Vec::new();
            let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
            let mut start = 0;
            loop {
                match stream.next() {
                    None => break,
                    Some(Ok(value)) => {
                        let end = stream.byte_offset();
                        let doc_start = start + leading_ws(&body[start..end]);
                        docs.push(Document {
                            value,
                            prefix: &body[start..doc_start],
                            original: &body[doc_start..end],
                        });
                        start = end;
                    }
                    Some(Err(_)) => {
                        return Err(RewriteError::NotJson {
                            document: docs.len(),
                        })
                    }
                }
            }
            Ok((docs, &body[start..]))
        }
    }
}

fn leading_ws(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_whitespace()).count()
}

/// Calls `f` on every selected string of `value`, descending into `| json` documents.
/// A `| json` string that is not JSON is treated as plain text (still rewritten).
fn for_each_selected(paths: &[JsonPath], value: &mut Value, f: &mut dyn FnMut(&mut String)) {
    for path in paths {
        path.visit_mut(value, &mut |_, s| {
            if path.is_embedded_json() {
                if let Ok(mut inner) = serde_json::from_str::<Value>(s) {
                    visit_all_strings(&mut inner, &mut String::new(), false, &mut |_, t| f(t));
                    if let Ok(text) = serde_json::to_string(&inner) {
                        *s = text;
                    }
                    return;
                }
            }
            f(s)
        });
    }
}

/// Rewrites the strings `paths` select in `body`: `transform` receives all of them in
/// document order and returns their replacements in the same order.
///
/// # Errors
/// When the body (or one NDJSON document) is not JSON: nothing is rewritten.
pub fn rewrite(
    body: &[u8],
    format: BodyFormat,
    paths: &[JsonPath],
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<Vec<u8>, RewriteError> {
    let (mut docs, trailer) = split(body, format)?;
    let mut texts = Vec::new();
    let mut counts = Vec::with_capacity(docs.len());
    for doc in docs.iter_mut() {
        let before = texts.len();
        for_each_selected(paths, &mut doc.value.clone(), &mut |s| {
            texts.push(s.clone())
        });
        counts.push(texts.len() - before);
    }
    let originals = texts.clone();
    let replacements = transform(texts);
    if replacements.len() != originals.len() {
        return Err(RewriteError::Incomplete);
    }
    let mut out = Vec::with_capacity(body.len() + body.len() / 8);
    let mut next = 0;
    for (doc, count) in docs.iter_mut().zip(counts) {
        out.extend_from_slice(doc.prefix);
        let range = next..next + count;
        next += count;
        let changed = replacements.get(range.clone()) != originals.get(range.clone());
        let Some(new) = replacements.get(range) else {
            // The transform returned fewer texts than it was given: keep the original.
            out.extend_from_slice(doc.original);
            continue;
        };
        if !changed {
            // Untouched documents keep their exact bytes.
            out.extend_from_slice(doc.original);
            continue;
        }
        let mut iter = new.iter();
        for_each_selected(paths, &mut doc.value, &mut |s| {
            if let Some(r) = iter.next() {
                s.clone_from(r);
            }
        });
        // Serializing a Value we just parsed cannot fail.
        out.extend_from_slice(&serde_json::to_vec(&doc.value).unwrap_or_default());
    }
    out.extend_from_slice(trailer);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &[&str]) -> Vec<JsonPath> {
        p.iter().map(|p| JsonPath::parse(p).unwrap()).collect()
    }

    fn upper(texts: Vec<String>) -> Vec<String> {
        texts.into_iter().map(|t| t.to_uppercase()).collect()
    }

    #[test]
    fn rewrites_selected_strings_and_keeps_key_order() {
        let body = br#"{"model":"m","messages":[{"role":"user","content":"hi ann"}],"z":1}"#;
        let out = rewrite(
            body,
            BodyFormat::Json,
            &paths(&["$.messages[*].content"]),
            upper,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"model":"m","messages":[{"role":"user","content":"HI ANN"}],"z":1}"#
        );
    }

    #[test]
    fn embedded_json_stays_valid_json() {
        let body = br#"{"messages":[{"tool_calls":[{"function":{"arguments":"{\"name\":\"ann \\\"x\\\"\"}"}}]}]}"#;
        let p = paths(&["$.messages[*].tool_calls[*].function.arguments | json"]);
        let out = rewrite(body, BodyFormat::Json, &p, upper).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        let args = v["messages"][0]["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap();
        let inner: Value = serde_json::from_str(args).unwrap();
        assert_eq!(inner["name"], "ANN \"X\"");
    }

    #[test]
    fn ndjson_rewrites_only_documents_with_selected_fields() {
        let body = b"{\"index\": {\"_id\": \"1\"}}\n{\"message\":\"ann\", \"n\": 1}\n\n{\"index\":{}}\n{\"message\":\"bob\"}\n";
        let out = rewrite(body, BodyFormat::Ndjson, &paths(&["$.message"]), upper).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"index\": {\"_id\": \"1\"}}\n{\"message\":\"ANN\",\"n\":1}\n\n{\"index\":{}}\n{\"message\":\"BOB\"}\n"
        );
    }

    #[test]
    fn a_malformed_document_fails_the_whole_body() {
        let body = b"{\"message\":\"ann\"}\n{\"message\": oops}\n";
        assert_eq!(
            rewrite(body, BodyFormat::Ndjson, &paths(&["$.message"]), upper),
            Err(RewriteError::NotJson { document: 1 })
        );
        assert!(rewrite(b"nope", BodyFormat::Json, &paths(&["$.a"]), upper).is_err());
    }
}
