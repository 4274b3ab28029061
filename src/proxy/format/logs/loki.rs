//! Grafana Loki pushes (`POST /loki/api/v1/push`): protobuf in a snappy block
//! (`application/x-protobuf`, as Promtail, Alloy and the Loki clients send it) and JSON.
//! The texts are each entry's line, and with [`LokiFields::structured_metadata`] the
//! values of its structured metadata. Stream labels are never rewritten: they are the
//! index, and a changed label set would be a different stream.
//!
//! Messages are declared by hand with `prost` from Loki's `pkg/push/push.proto`
//! (`logproto`, checked 2026-11); fields not declared here are dropped on encoding.
//! Loki snappy-decodes every non-JSON push whatever its `Content-Encoding` says, and
//! reads `Content-Encoding: snappy` as a marker, not a second layer (grafana/loki#3407);
//! see `encoding::Codings::without_final_snappy`.

use prost::Message;
use serde_json::Value;

use super::{replace_texts, MessageError, MessageErrorKind};
use crate::proxy::encoding::{self, DecodeErrorKind};

/// `logproto.PushRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PushRequest {
    #[prost(message, repeated, tag = "1")]
    pub streams: Vec<StreamAdapter>,
    /// `loki` or `otlp`: how Loki itself ingested the streams (internal).
    #[prost(string, tag = "2")]
    pub format: String,
}

/// `logproto.StreamAdapter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StreamAdapter {
    /// The label set in LogQL form: `{app="api", env="prod"}`.
    #[prost(string, tag = "1")]
    pub labels: String,
    #[prost(message, repeated, tag = "2")]
    pub entries: Vec<EntryAdapter>,
    #[prost(uint64, tag = "3")]
    pub hash: u64,
}

/// `logproto.EntryAdapter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EntryAdapter {
    #[prost(message, optional, tag = "1")]
    pub timestamp: Option<Timestamp>,
    #[prost(string, tag = "2")]
    pub line: String,
    #[prost(message, repeated, tag = "3")]
    pub structured_metadata: Vec<LabelPairAdapter>,
    /// Only for query answers, per push.proto; a push that carries it anyway has its
    /// values anonymized like the line, since Loki ignores them.
    #[prost(message, repeated, tag = "4")]
    pub parsed: Vec<LabelPairAdapter>,
}

/// `logproto.LabelPairAdapter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LabelPairAdapter {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(string, tag = "2")]
    pub value: String,
}

/// `google.protobuf.Timestamp`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Timestamp {
    #[prost(int64, tag = "1")]
    pub seconds: i64,
    #[prost(int32, tag = "2")]
    pub nanos: i32,
}

/// Which texts of a push are anonymized besides every line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LokiFields {
    /// Structured metadata values (default off: trace ids and the like, but an
    /// application may attach user data there). Names are never rewritten.
    pub structured_metadata: bool,
}

/// Decodes a protobuf push: one snappy block of at most `limit` decoded bytes, then the
/// message.
///
/// # Errors
/// [`MessageErrorKind::TooLarge`] when the block announces more than `limit`;
/// [`MessageErrorKind::Malformed`] for a corrupt block or message.
pub fn decode(body: &[u8], limit: usize) -> Result<PushRequest, MessageError> {
    let raw = encoding::decode_snappy_block(body, limit).map_err(|e| match e.kind() {
        DecodeErrorKind::TooLarge => MessageError::new(MessageErrorKind::TooLarge),
        DecodeErrorKind::Unsupported | DecodeErrorKind::Malformed => {
            MessageError::new(MessageErrorKind::Malformed)
        }
    })?;
    decode_message(&raw)
}

/// Decodes a push message already out of its snappy block.
///
/// # Errors
/// [`MessageErrorKind::Malformed`] for bytes that are not a push.
pub fn decode_message(raw: &[u8]) -> Result<PushRequest, MessageError> {
    PushRequest::decode(raw).map_err(|_| MessageError::new(MessageErrorKind::Malformed))
}

/// A push message without its snappy block.
pub fn encode_message(request: &PushRequest) -> Vec<u8> {
    request.encode_to_vec()
}

/// Encodes a push as Loki reads it: the message in one snappy block.
///
/// # Errors
/// [`MessageErrorKind::TooLarge`] past snappy's 32-bit length.
pub fn encode(request: &PushRequest) -> Result<Vec<u8>, MessageError> {
    encoding::encode_snappy_block(&encode_message(request))
        .map_err(|_| MessageError::new(MessageErrorKind::TooLarge))
}

/// The non-empty texts of a protobuf push, in order: per entry its line, then (opt-in)
/// its structured metadata values, then any `parsed` values.
pub fn texts<'a>(request: &'a mut PushRequest, fields: &LokiFields) -> Vec<&'a mut String> {
    let mut out = Vec::new();
    for stream in &mut request.streams {
        for entry in &mut stream.entries {
            push_text(&mut entry.line, &mut out);
            if fields.structured_metadata {
                for pair in &mut entry.structured_metadata {
                    push_text(&mut pair.value, &mut out);
                }
            }
            for pair in &mut entry.parsed {
                push_text(&mut pair.value, &mut out);
            }
        }
    }
    out
}

fn push_text<'a>(text: &'a mut String, out: &mut Vec<&'a mut String>) {
    if !text.is_empty() {
        out.push(text);
    }
}

/// Decodes a protobuf push, runs `transform` on its texts as one batch and encodes it.
///
/// # Errors
/// As [`decode`]; [`MessageErrorKind::Incomplete`] when `transform` answers the wrong
/// number of texts.
pub fn rewrite(
    body: &[u8],
    limit: usize,
    fields: &LokiFields,
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<Vec<u8>, MessageError> {
    let mut request = decode(body, limit)?;
    replace_texts(texts(&mut request, fields), transform)?;
    encode(&request)
}

/// The non-empty texts of a JSON push
/// (`{"streams": [{"stream": {…}, "values": [["<ns>", "<line>", {<metadata>}]]}]}`), in
/// order: per value its line, then (opt-in) its structured metadata values.
pub fn json_texts<'a>(request: &'a mut Value, fields: &LokiFields) -> Vec<&'a mut String> {
    let mut out = Vec::new();
    let streams = request
        .get_mut("streams")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    for stream in streams {
        let values = stream
            .get_mut("values")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten();
        for value in values {
            let Some(parts) = value.as_array_mut() else {
                continue;
            };
            let mut parts = parts.iter_mut().skip(1);
            if let Some(Value::String(line)) = parts.next() {
                push_text(line, &mut out);
            }
            if let (true, Some(Value::Object(metadata))) =
                (fields.structured_metadata, parts.next())
            {
                for value in metadata.values_mut() {
                    if let Value::String(text) = value {
                        push_text(text, &mut out);
                    }
                }
            }
        }
    }
    out
}

/// Parses a JSON push, runs `transform` on its texts as one batch and serializes it.
///
/// # Errors
/// [`MessageErrorKind::Malformed`] when the body is not JSON;
/// [`MessageErrorKind::Incomplete`] when `transform` answers the wrong number of texts.
pub fn rewrite_json(
    body: &[u8],
    fields: &LokiFields,
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<Vec<u8>, MessageError> {
    let mut request: Value =
        serde_json::from_slice(body).map_err(|_| MessageError::new(MessageErrorKind::Malformed))?;
    replace_texts(json_texts(&mut request, fields), transform)?;
    serde_json::to_vec(&request).map_err(|_| MessageError::new(MessageErrorKind::Malformed))
}

#[cfg(test)]
mod tests;
