//! JSON bodies: one document, or a stream of documents separated by whitespace or
//! nothing at all (NDJSON; Splunk HEC concatenates event objects).

use serde_json::Value;

use super::{FormatError, Segment};

/// The whole body as one document.
pub(super) fn document(body: &[u8]) -> Result<Vec<Segment<'_>>, FormatError> {
    let value = serde_json::from_slice(body).map_err(|_| FormatError::NotJson { part: 0 })?;
    Ok(vec![Segment::Json {
        value,
        original: body,
        scopes: &[],
    }])
}

/// Every document of a stream, with the bytes between them kept.
pub(super) fn stream(body: &[u8]) -> Result<Vec<Segment<'_>>, FormatError> {
    let (docs, rest) = documents(body)?;
    Ok(docs
        .into_iter()
        .flat_map(|(gap, value, original)| {
            [
                Segment::Keep(gap),
                Segment::Json {
                    value,
                    original,
                    scopes: &[],
                },
            ]
        })
        .chain(std::iter::once(Segment::Keep(rest)))
        .collect())
}

/// One document of a stream: the bytes before it, its value and its bytes.
pub(super) type Document<'a> = (&'a [u8], Value, &'a [u8]);

/// Every document of a stream, and the whitespace after the last one.
pub(super) fn documents(body: &[u8]) -> Result<(Vec<Document<'_>>, &[u8]), FormatError> {
    let mut docs = Vec::new();
    let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
    let mut start = 0;
    while let Some(next) = stream.next() {
        let value = next.map_err(|_| FormatError::NotJson { part: docs.len() })?;
        let end = stream.byte_offset();
        let doc_start = start + leading_ws(&body[start..end]);
        docs.push((&body[start..doc_start], value, &body[doc_start..end]));
        start = end;
    }
    Ok((docs, &body[start..]))
}

fn leading_ws(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_whitespace()).count()
}
