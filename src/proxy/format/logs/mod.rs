//! Log-shipping wire formats whose text fields cannot be named by a JSON path: OTLP
//! logs (protobuf and JSON) and Loki pushes (protobuf + snappy, and JSON with structured
//! metadata). Each format decodes a body, lists the text fields to anonymize as one
//! batch of `&mut String` in document order, and encodes the result again.
//!
//! Owns: the message shapes and which of their fields are personal text. Knows nothing
//! of HTTP, content codings (see `proxy::encoding`), detection or routes.
//!
//! `format::BodyFormat` reads them through [`Message`]: the content codings are undone
//! before (`proxy::encoding`; for a Loki protobuf push that includes its snappy block)
//! and redone after, so a message here is always raw protobuf or JSON.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

#[cfg(test)]
mod fixtures;
pub mod loki;
pub mod otlp;
pub mod otlp_json;
pub mod otlp_proto;

use loki::{LokiFields, PushRequest};
use otlp::OtlpFields;
use otlp_proto::ExportLogsServiceRequest;

/// A route's choice of which texts of a log message are anonymized beyond the
/// defaults (`otlp:` and `loki:` in a route's YAML).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogFields {
    #[serde(default)]
    pub otlp: OtlpFields,
    #[serde(default)]
    pub loki: LokiFields,
}

/// Which log message a body holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    OtlpProtobuf,
    OtlpJson,
    LokiProtobuf,
    LokiJson,
}

/// A decoded log message and the fields of it a route anonymizes.
#[derive(Debug)]
pub enum Message {
    // Boxed: a request is large next to the JSON variants.
    Otlp(Box<ExportLogsServiceRequest>, OtlpFields),
    OtlpJson(Value, OtlpFields),
    Loki(PushRequest, LokiFields),
    LokiJson(Value, LokiFields),
}

impl Message {
    /// Decodes a raw (content codings undone, snappy block included) body.
    ///
    /// # Errors
    /// [`MessageErrorKind::Malformed`] when the body is not such a message.
    pub fn decode(kind: Kind, body: &[u8], fields: &LogFields) -> Result<Message, MessageError> {
        let json = || {
            serde_json::from_slice::<Value>(body)
                .map_err(|_| MessageError::new(MessageErrorKind::Malformed))
        };
        Ok(match kind {
            Kind::OtlpProtobuf => Message::Otlp(Box::new(otlp::decode(body)?), fields.otlp),
            Kind::OtlpJson => Message::OtlpJson(json()?, fields.otlp),
            Kind::LokiProtobuf => Message::Loki(loki::decode_message(body)?, fields.loki),
            Kind::LokiJson => Message::LokiJson(json()?, fields.loki),
        })
    }

    /// The texts to anonymize, in document order.
    pub fn texts(&mut self) -> Vec<&mut String> {
        match self {
            Message::Otlp(request, fields) => otlp::texts(request, fields),
            Message::OtlpJson(value, fields) => otlp_json::texts(value, fields),
            Message::Loki(request, fields) => loki::texts(request, fields),
            Message::LokiJson(value, fields) => loki::json_texts(value, fields),
        }
    }

    /// The message when it is a JSON document (its bytes can then be spliced).
    pub fn json(&self) -> Option<&Value> {
        match self {
            Message::OtlpJson(value, _) | Message::LokiJson(value, _) => Some(value),
            Message::Otlp(..) | Message::Loki(..) => None,
        }
    }

    /// The message encoded again (protobuf fields we do not declare are dropped: never
    /// forwarded unread).
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Message::Otlp(request, _) => otlp::encode(request),
            Message::Loki(request, _) => loki::encode_message(request),
            // Serializing a Value we parsed cannot fail.
            Message::OtlpJson(value, _) | Message::LokiJson(value, _) => {
                serde_json::to_vec(value).unwrap_or_default()
            }
        }
    }
}

/// What went wrong; `format::BodyFormat` turns every kind into its `FormatError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageErrorKind {
    /// The body is not a message of the format (bad protobuf, JSON or snappy block).
    Malformed,
    /// The body's snappy block announces more than the size limit.
    TooLarge,
    /// The transform did not return one replacement per text (a bug): nothing is sent.
    Incomplete,
}

/// Why a body could not be read or rewritten. Never carries body content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageError {
    kind: MessageErrorKind,
}

impl MessageError {
    pub(crate) fn new(kind: MessageErrorKind) -> MessageError {
        MessageError { kind }
    }

    pub fn kind(&self) -> MessageErrorKind {
        self.kind
    }
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            MessageErrorKind::Malformed => "the body is not a message of the route's format",
            MessageErrorKind::TooLarge => "the decoded body is over the size limit",
            MessageErrorKind::Incomplete => "the rewrite was incomplete",
        })
    }
}

impl std::error::Error for MessageError {}

/// Runs `transform` on the texts behind `slots` as one batch (moved out, not copied)
/// and writes its answers back in the same order.
///
/// # Errors
/// [`MessageErrorKind::Incomplete`] when `transform` does not return exactly one text per
/// slot; the slots then hold unspecified texts and the message must not be sent.
pub fn replace_texts(
    mut slots: Vec<&mut String>,
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<(), MessageError> {
    let texts: Vec<String> = slots.iter_mut().map(|s| std::mem::take(&mut **s)).collect();
    let replacements = transform(texts);
    if replacements.len() != slots.len() {
        return Err(MessageError::new(MessageErrorKind::Incomplete));
    }
    for (slot, text) in slots.into_iter().zip(replacements) {
        *slot = text;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_texts_writes_answers_back_in_order() {
        let (mut a, mut b) = ("ann".to_owned(), "bob".to_owned());
        replace_texts(vec![&mut a, &mut b], |t| {
            t.into_iter().map(|s| s.to_uppercase()).collect()
        })
        .unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("ANN", "BOB"));
    }

    #[test]
    fn a_short_answer_is_incomplete() {
        let mut a = "ann".to_owned();
        let err = replace_texts(vec![&mut a], |_| Vec::new()).unwrap_err();
        assert_eq!(err.kind(), MessageErrorKind::Incomplete);
    }
}
