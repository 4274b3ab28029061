//! Log-shipping wire formats whose text fields cannot be named by a JSON path: OTLP
//! logs (protobuf and JSON) and Loki pushes (protobuf + snappy, and JSON with structured
//! metadata). Each format decodes a body, lists the text fields to anonymize as one
//! batch of `&mut String` in document order, and encodes the result again.
//!
//! Owns: the message shapes and which of their fields are personal text. Knows nothing
//! of HTTP, content codings (see `proxy::encoding`), detection or routes.
//!
//! How an exchange uses them with `proxy::encoding` (errors carry a kind with `status()`):
//!
//! ```text
//! let codings = Codings::parse(content_encoding_values)?;        // 415
//! let decoded = encoding::decode(&codings, &body, max_body)?;    // 413, 400
//! let out = otlp::rewrite(&decoded.body, &fields, anonymize)?;   // 422, 500
//! let body = encoding::encode(&decoded.codings, &out)?;          // Content-Encoding:
//!                                                               //   decoded.codings.header_value()
//! ```
//!
//! For a Loki protobuf push decode `codings.without_final_snappy()` and call
//! `loki::rewrite(&decoded.body, max_body, …)`, which undoes and redoes the snappy block.

use std::fmt;

#[cfg(test)]
mod fixtures;
pub mod loki;
pub mod otlp;
pub mod otlp_json;
pub mod otlp_proto;

/// What went wrong, for the exchange to answer with the right status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatErrorKind {
    /// The body is not a message of the format (bad protobuf, JSON or snappy block).
    Malformed,
    /// The body's snappy block announces more than the size limit.
    TooLarge,
    /// The transform did not return one replacement per text (a bug): nothing is sent.
    Incomplete,
}

impl FormatErrorKind {
    /// The HTTP status this kind is answered with: a malformed body is a 422 like a
    /// route's body that is not JSON (`rewrite::RewriteError::NotJson`).
    pub fn status(self) -> u16 {
        match self {
            FormatErrorKind::Malformed => 422,
            FormatErrorKind::TooLarge => 413,
            FormatErrorKind::Incomplete => 500,
        }
    }
}

/// Why a body could not be read or rewritten. Never carries body content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    kind: FormatErrorKind,
}

impl FormatError {
    pub(crate) fn new(kind: FormatErrorKind) -> FormatError {
        FormatError { kind }
    }

    pub fn kind(&self) -> FormatErrorKind {
        self.kind
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            FormatErrorKind::Malformed => "the body is not a message of the route's format",
            FormatErrorKind::TooLarge => "the decoded body is over the size limit",
            FormatErrorKind::Incomplete => "the rewrite was incomplete",
        })
    }
}

impl std::error::Error for FormatError {}

/// Runs `transform` on the texts behind `slots` as one batch (moved out, not copied)
/// and writes its answers back in the same order.
///
/// # Errors
/// [`FormatErrorKind::Incomplete`] when `transform` does not return exactly one text per
/// slot; the slots then hold unspecified texts and the message must not be sent.
pub fn replace_texts(
    mut slots: Vec<&mut String>,
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<(), FormatError> {
    let texts: Vec<String> = slots.iter_mut().map(|s| std::mem::take(&mut **s)).collect();
    let replacements = transform(texts);
    if replacements.len() != slots.len() {
        return Err(FormatError::new(FormatErrorKind::Incomplete));
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
        assert_eq!(err.kind(), FormatErrorKind::Incomplete);
        assert_eq!(err.kind().status(), 500);
    }
}
