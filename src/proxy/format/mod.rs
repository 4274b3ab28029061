//! Body formats: how a body is cut into the texts a route anonymizes (or restores) and
//! how the replacements are written back. A format is a variant of [`BodyFormat`] plus
//! its own file; the exhaustive `match` in [`BodyFormat::parse`] is the one place that
//! dispatches on it. Formats see decoded bytes only (`encoding` runs before and after).
//!
//! JSON-framed formats parse into a list of [`Segment`]s, kept bytes between the
//! parts that carry text. Log wire formats whose texts no JSON path names (OTLP logs,
//! Loki push; protobuf or JSON) parse into a [`logs::Message`] that lists its own texts
//! and encodes itself again. Parsing fails on the first part that does not fit the format,
//! so a body is rewritten whole or not at all. Parts nothing was changed in keep their
//! exact bytes, and a changed JSON document keeps every byte but its changed strings
//! (`splice`).

mod bulk;
mod json;
mod lines;
pub mod logs;
mod splice;

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::jsonpath::{visit_all_strings, JsonPath, TextKind};
use crate::anonymizer::TextType;
use logs::{Kind, LogFields, Message};

/// How a body is framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyFormat {
    /// One JSON document.
    Json,
    /// JSON documents separated by newlines or simply concatenated (Splunk HEC).
    Ndjson,
    /// Elasticsearch `_bulk`: action lines, each `index`/`create`/`update` followed by
    /// its document line; paths apply to the document (`update`: its `doc` and `upsert`).
    ElasticsearchBulk,
    /// Plain text, each line anonymized as one text (Splunk HEC `raw`).
    Lines,
    /// OTLP/HTTP logs `ExportLogsServiceRequest`: protobuf, or JSON by its content type
    /// (then read as [`BodyFormat::OtlpLogsJson`]). The texts are the format's own
    /// (`logs::otlp`); JSON paths add nothing.
    OtlpLogs,
    /// OTLP/HTTP logs in JSON only.
    OtlpLogsJson,
    /// Loki `PushRequest`: protobuf in a snappy block, or JSON by its content type (then
    /// read as [`BodyFormat::LokiPushJson`]). Every line (`logs::loki`).
    LokiPush,
    /// Loki push in JSON only.
    LokiPushJson,
}

impl BodyFormat {
    /// Config and metric name.
    pub fn as_str(&self) -> &'static str {
        match self {
            BodyFormat::Json => "json",
            BodyFormat::Ndjson => "ndjson",
            BodyFormat::ElasticsearchBulk => "elasticsearch_bulk",
            BodyFormat::Lines => "lines",
            BodyFormat::OtlpLogs => "otlp_logs",
            BodyFormat::OtlpLogsJson => "otlp_logs_json",
            BodyFormat::LokiPush => "loki_push",
            BodyFormat::LokiPushJson => "loki_push_json",
        }
    }

    /// Whether the format finds its texts itself: a route on it anonymizes with no
    /// JSON path given.
    pub fn chooses_texts(&self) -> bool {
        self.message_kind().is_some()
    }

    /// The format a body of this `Content-Type` (lower case) is read with: a protobuf
    /// route reads the JSON encoding of the same protocol too.
    pub fn for_content_type(self, content_type: &str) -> BodyFormat {
        match self {
            BodyFormat::OtlpLogs if content_type.contains("json") => BodyFormat::OtlpLogsJson,
            BodyFormat::LokiPush if content_type.contains("json") => BodyFormat::LokiPushJson,
            other => other,
        }
    }

    /// Whether the body is a Loki protobuf push, which is one snappy block whatever its
    /// `Content-Encoding` says (the block is undone and redone with the codings).
    pub fn is_snappy_framed(&self) -> bool {
        *self == BodyFormat::LokiPush
    }

    fn message_kind(&self) -> Option<Kind> {
        match self {
            BodyFormat::OtlpLogs => Some(Kind::OtlpProtobuf),
            BodyFormat::OtlpLogsJson => Some(Kind::OtlpJson),
            BodyFormat::LokiPush => Some(Kind::LokiProtobuf),
            BodyFormat::LokiPushJson => Some(Kind::LokiJson),
            BodyFormat::Json
            | BodyFormat::Ndjson
            | BodyFormat::ElasticsearchBulk
            | BodyFormat::Lines => None,
        }
    }

    /// Whether a request of this `Content-Type` (lower case, may be empty) is one this
    /// format reads; others are refused or passed through (`on_unparsed`).
    pub fn accepts(&self, content_type: &str) -> bool {
        match self {
            BodyFormat::Json | BodyFormat::ElasticsearchBulk => content_type.contains("json"),
            // HEC clients often send no type, or curl's form type, for a JSON stream.
            BodyFormat::Ndjson => {
                content_type.contains("json")
                    || content_type.is_empty()
                    || content_type.starts_with("application/x-www-form-urlencoded")
            }
            // Raw lines are whatever the shipper says they are; only UTF-8 is required.
            BodyFormat::Lines => true,
            // `application/x-protobuf` (OTLP, Loki) or `application/protobuf`.
            BodyFormat::OtlpLogs | BodyFormat::LokiPush => {
                content_type.contains("protobuf") || content_type.contains("json")
            }
            BodyFormat::OtlpLogsJson | BodyFormat::LokiPushJson => content_type.contains("json"),
        }
    }

    /// Cuts `body` into segments and collects the texts `paths` select.
    ///
    /// # Errors
    /// The first part of the body that does not fit the format; never body content.
    pub fn parse<'a>(
        &self,
        body: &'a [u8],
        paths: &'a [JsonPath],
    ) -> Result<Parsed<'a>, FormatError> {
        self.parse_with(body, paths, &LogFields::default())
    }

    /// [`BodyFormat::parse`] with a route's choice of log message fields.
    ///
    /// # Errors
    /// As [`BodyFormat::parse`].
    pub fn parse_with<'a>(
        &self,
        body: &'a [u8],
        paths: &'a [JsonPath],
        fields: &LogFields,
    ) -> Result<Parsed<'a>, FormatError> {
        let segments = match self {
            BodyFormat::Json => json::document(body)?,
            BodyFormat::Ndjson => json::stream(body)?,
            BodyFormat::ElasticsearchBulk => bulk::segments(body)?,
            BodyFormat::Lines => lines::segments(body)?,
            BodyFormat::OtlpLogs
            | BodyFormat::OtlpLogsJson
            | BodyFormat::LokiPush
            | BodyFormat::LokiPushJson => {
                let kind = self.message_kind().ok_or(FormatError::Incomplete)?;
                let message =
                    Message::decode(kind, body, fields).map_err(|_| FormatError::NotMessage {
                        what: self.message_name(),
                    })?;
                return Ok(Parsed::message(message, body));
            }
        };
        Ok(Parsed::new(segments, paths, self.skips_protocol_keys()))
    }

    /// What a body of a message format must be, for refusals.
    fn message_name(&self) -> &'static str {
        match self {
            BodyFormat::OtlpLogs => "not a protobuf OTLP ExportLogsServiceRequest",
            BodyFormat::OtlpLogsJson => "not a JSON OTLP ExportLogsServiceRequest",
            BodyFormat::LokiPush => "not a protobuf Loki PushRequest",
            _ => "not a JSON Loki push",
        }
    }

    /// Whether `type`, `role`, `id`… below a selected object are left alone. They are
    /// protocol in LLM APIs (one JSON document); in log events they are data.
    fn skips_protocol_keys(&self) -> bool {
        match self {
            BodyFormat::Json => true,
            BodyFormat::Ndjson
            | BodyFormat::ElasticsearchBulk
            | BodyFormat::Lines
            | BodyFormat::OtlpLogs
            | BodyFormat::OtlpLogsJson
            | BodyFormat::LokiPush
            | BodyFormat::LokiPushJson => false,
        }
    }
}

/// Why a body does not fit its format. `part` counts JSON documents (or lines) from 0;
/// nothing of the body is ever carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatError {
    /// Part `part` is not JSON.
    NotJson { part: usize },
    /// Line `part` is not UTF-8 text.
    NotText { part: usize },
    /// Part `part` is JSON but not what the format expects there.
    Unexpected { part: usize, why: &'static str },
    /// The body is not the log message the format reads (`what` says which).
    NotMessage { what: &'static str },
    /// The replacements do not match the texts (a bug): nothing is written.
    Incomplete,
}

impl FormatError {
    /// The part the error is about, if any.
    pub fn part(&self) -> Option<usize> {
        match self {
            FormatError::NotJson { part }
            | FormatError::NotText { part }
            | FormatError::Unexpected { part, .. } => Some(*part),
            FormatError::NotMessage { .. } | FormatError::Incomplete => None,
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NotJson { .. } => f.write_str("not valid JSON"),
            FormatError::NotText { .. } => f.write_str("not UTF-8 text"),
            FormatError::Unexpected { why, .. } | FormatError::NotMessage { what: why } => {
                f.write_str(why)
            }
            FormatError::Incomplete => f.write_str("the rewrite was incomplete"),
        }
    }
}

impl std::error::Error for FormatError {}

/// One piece of a body.
#[derive(Debug)]
enum Segment<'a> {
    /// Bytes kept as they are: separators, action lines, whitespace.
    Keep(&'a [u8]),
    /// A JSON document whose selected strings are rewritten. `scopes` are the keys the
    /// paths apply under (`update` actions: `doc`, `upsert`); empty: the document.
    Json {
        value: Value,
        original: &'a [u8],
        scopes: &'static [&'static str],
    },
    /// A text rewritten whole (a raw log line).
    Text(&'a str),
}

/// A body read by its format, with the texts to transform in body order.
#[derive(Debug)]
pub struct Parsed<'a> {
    body: Body<'a>,
    texts: Vec<String>,
    /// What each text is (`| ip` fields are typed); empty for message formats, whose
    /// texts are all free text.
    types: Vec<TextType>,
}

#[derive(Debug)]
enum Body<'a> {
    /// JSON-framed formats.
    Segments {
        segments: Vec<Segment<'a>>,
        paths: &'a [JsonPath],
        skip: bool,
        /// Texts per segment, in order.
        counts: Vec<usize>,
    },
    /// A log message that lists its own texts, and its bytes.
    Message(Message, &'a [u8]),
}

impl<'a> Parsed<'a> {
    fn new(mut segments: Vec<Segment<'a>>, paths: &'a [JsonPath], skip: bool) -> Self {
        let mut texts = Vec::new();
        let mut types = Vec::new();
        let mut counts = Vec::with_capacity(segments.len());
        for segment in &mut segments {
            let before = texts.len();
            match segment {
                Segment::Keep(_) => {}
                Segment::Text(t) => {
                    texts.push((*t).to_owned());
                    types.push(TextType::Text);
                }
                Segment::Json { value, scopes, .. } => {
                    // Collect from a copy: the write pass must find the originals.
                    let mut copy = value.clone();
                    let mut push = |s: &mut String, kind| {
                        texts.push(s.clone());
                        types.push(match kind {
                            TextKind::IpAddress => TextType::IpAddress,
                            TextKind::Plain | TextKind::JsonDocument => TextType::Text,
                        });
                    };
                    for_each_selected(paths, skip, &mut copy, scopes, &mut push);
                }
            }
            counts.push(texts.len() - before);
        }
        Self {
            body: Body::Segments {
                segments,
                paths,
                skip,
                counts,
            },
            texts,
            types,
        }
    }

    fn message(mut message: Message, original: &'a [u8]) -> Self {
        // Copied, not moved out: the visitors skip empty strings, so the write pass
        // must find the same texts in place to find the same slots.
        let texts = message
            .texts()
            .into_iter()
            .map(|s| s.clone())
            .collect::<Vec<String>>();
        Self {
            body: Body::Message(message, original),
            texts,
            types: Vec::new(),
        }
    }

    /// The selected texts, in body order.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// What each of [`Parsed::texts`] is (free text when missing).
    pub fn types(&self) -> &[TextType] {
        &self.types
    }

    /// The body with `replacements[i]` in place of `texts()[i]`.
    ///
    /// # Errors
    /// [`FormatError::Incomplete`] when the counts differ: nothing is written.
    pub fn write(self, replacements: &[String]) -> Result<Vec<u8>, FormatError> {
        if replacements.len() != self.texts.len() {
            return Err(FormatError::Incomplete);
        }
        let (segments, paths, skip, counts) = match self.body {
            Body::Segments {
                segments,
                paths,
                skip,
                counts,
            } => (segments, paths, skip, counts),
            Body::Message(mut message, original) => {
                let slots = message.texts();
                if slots.len() != replacements.len() {
                    return Err(FormatError::Incomplete);
                }
                for (slot, text) in slots.into_iter().zip(replacements) {
                    slot.clone_from(text);
                }
                return Ok(match message.json() {
                    Some(value) => splice::rewritten(original, value),
                    None => message.encode(),
                });
            }
        };
        let mut out = Vec::new();
        let mut next = 0;
        for (segment, count) in segments.into_iter().zip(counts) {
            let range = next..next + count;
            next += count;
            let (new, old) = (&replacements[range.clone()], &self.texts[range]);
            match segment {
                Segment::Keep(bytes) => out.extend_from_slice(bytes),
                Segment::Text(_) => out.extend_from_slice(new.concat().as_bytes()),
                Segment::Json { original, .. } if new == old => {
                    // Untouched documents keep their exact bytes.
                    out.extend_from_slice(original);
                }
                Segment::Json {
                    mut value,
                    original,
                    scopes,
                } => {
                    let mut iter = new.iter();
                    for_each_selected(paths, skip, &mut value, scopes, &mut |s, _| {
                        if let Some(r) = iter.next() {
                            s.clone_from(r);
                        }
                    });
                    out.extend_from_slice(&splice::rewritten(original, &value));
                }
            }
        }
        Ok(out)
    }
}

/// Calls `f` on every string `paths` select in `value` (under each of `scopes`, if any),
/// with its kind, descending into `| json` documents. A `| json` string that is not
/// JSON is treated as plain text (still rewritten).
fn for_each_selected(
    paths: &[JsonPath],
    skip: bool,
    value: &mut Value,
    scopes: &[&str],
    f: &mut dyn FnMut(&mut String, TextKind),
) {
    if scopes.is_empty() {
        select(paths, skip, value, f);
        return;
    }
    for scope in scopes {
        if let Some(inner) = value.get_mut(*scope) {
            select(paths, skip, inner, f);
        }
    }
}

fn select(
    paths: &[JsonPath],
    skip: bool,
    value: &mut Value,
    f: &mut dyn FnMut(&mut String, TextKind),
) {
    for path in paths {
        path.visit_texts(value, skip, &mut |_, s, kind| {
            if kind == TextKind::JsonDocument {
                if let Ok(mut inner) = serde_json::from_str::<Value>(s) {
                    visit_all_strings(&mut inner, &mut String::new(), false, &mut |_, t| {
                        f(t, TextKind::Plain)
                    });
                    if let Ok(text) = serde_json::to_string(&inner) {
                        *s = text;
                    }
                    return;
                }
            }
            f(s, kind)
        });
    }
}

#[cfg(test)]
mod tests;
