//! AWS event-stream framing (`application/vnd.amazon.eventstream`), as Bedrock streams
//! `ConverseStream` and `InvokeModelWithResponseStream` answers: binary messages of a
//! prelude (total and header lengths, the prelude's CRC-32), headers (`:event-type`…),
//! a payload and the message's CRC-32. Each event's JSON payload is restored as an SSE
//! event's data is (see `doc_stream`), and the message written again with its headers
//! as they came and new lengths and CRCs. An `InvokeModelWithResponseStream` chunk,
//! `{"bytes": "<base64>"}`, holds the provider's own event: that is what is restored.
//! Exceptions and other messages pass byte for byte.

use base64::Engine as _;

use super::doc_stream::{DocFault, DocRestorer, EventStream};
use super::fault::Fault;
use super::sse::EventFault;

/// Prelude (8) and its CRC (4); the message CRC (4) at the end.
const PRELUDE: usize = 12;
const MIN_MESSAGE: usize = PRELUDE + 4;
/// The framing's own bound on one message (AWS: 16 MiB payloads, 128 KiB headers).
const MAX_MESSAGE: usize = 16 * 1024 * 1024 + 128 * 1024 + MIN_MESSAGE;

/// One message: its header bytes as they came, and its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub headers: Vec<u8>,
    pub payload: Vec<u8>,
}

/// A message that is not one: wrong lengths or CRCs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed;

/// The first message of `buf` and its length; `Ok(None)` until it is complete.
///
/// # Errors
/// Lengths out of bounds or a CRC that does not match.
pub fn decode(buf: &[u8]) -> Result<Option<(Message, usize)>, Malformed> {
    if buf.len() < PRELUDE {
        return Ok(None);
    }
    let word = |at: usize| u32::from_be_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
    let (total, headers_len) = (word(0) as usize, word(4) as usize);
    if crc32fast::hash(&buf[..8]) != word(8)
        || !(MIN_MESSAGE..=MAX_MESSAGE).contains(&total)
        || headers_len > total - MIN_MESSAGE
    {
        return Err(Malformed);
    }
    if buf.len() < total {
        return Ok(None);
    }
    if crc32fast::hash(&buf[..total - 4]) != word(total - 4) {
        return Err(Malformed);
    }
    let headers = buf[PRELUDE..PRELUDE + headers_len].to_vec();
    let payload = buf[PRELUDE + headers_len..total - 4].to_vec();
    Ok(Some((Message { headers, payload }, total)))
}

/// A message's bytes.
pub fn encode(headers: &[u8], payload: &[u8]) -> Vec<u8> {
    let total = MIN_MESSAGE + headers.len() + payload.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&(total as u32).to_be_bytes());
    out.extend_from_slice(&(headers.len() as u32).to_be_bytes());
    let prelude_crc = crc32fast::hash(&out);
    out.extend_from_slice(&prelude_crc.to_be_bytes());
    out.extend_from_slice(headers);
    out.extend_from_slice(payload);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// The string value of header `name` (type 7), if the message has one.
pub fn header<'a>(headers: &'a [u8], name: &str) -> Option<&'a str> {
    let mut at = 0;
    while at < headers.len() {
        let name_len = *headers.get(at)? as usize;
        let this = headers.get(at + 1..at + 1 + name_len)?;
        at += 1 + name_len;
        let kind = *headers.get(at)?;
        at += 1;
        let fixed = match kind {
            0 | 1 => 0,
            2 => 1,
            3 => 2,
            4 => 4,
            5 | 8 => 8,
            9 => 16,
            6 | 7 => {
                let len = u16::from_be_bytes([*headers.get(at)?, *headers.get(at + 1)?]) as usize;
                let value = headers.get(at + 2..at + 2 + len)?;
                at += 2 + len;
                if kind == 7 && this == name.as_bytes() {
                    return std::str::from_utf8(value).ok();
                }
                continue;
            }
            _ => return None,
        };
        at += fixed;
    }
    None
}

/// Restores an event stream as it arrives.
pub struct EventStreamRestorer {
    docs: DocRestorer,
    buffer: Vec<u8>,
    /// The headers of the last event restored: copies flushing its held-back text
    /// (before the next event that does not continue it) are written with them.
    last: Option<(Vec<u8>, Envelope)>,
}

/// How an event's payload holds its document.
#[derive(Debug, Clone, PartialEq)]
enum Envelope {
    /// The payload is the document (`ConverseStream`).
    Plain,
    /// `{"bytes": "<base64 document>", …}` (`InvokeModelWithResponseStream`); the other
    /// fields as they came.
    Base64(serde_json::Map<String, serde_json::Value>),
}

impl EventStreamRestorer {
    pub fn new(docs: DocRestorer) -> Self {
        Self {
            docs,
            buffer: Vec::new(),
            last: None,
        }
    }

    fn message(
        &mut self,
        raw: &[u8],
        message: Message,
        out: &mut Vec<u8>,
    ) -> Result<(), EventFault> {
        if header(&message.headers, ":message-type") != Some("event") {
            out.extend_from_slice(raw);
            return Ok(());
        }
        let (doc, envelope) = match unwrap_envelope(&message.payload) {
            Some(found) => found,
            None => (message.payload.clone(), Envelope::Plain),
        };
        let (docs, failed) = DocFault::settle(self.docs.document(&doc));
        let count = docs.len();
        for (i, doc) in docs.into_iter().enumerate() {
            let current = i + 1 == count && failed.is_none();
            let (headers, envelope) = match (&self.last, current) {
                (Some((h, e)), false) => (h.clone(), e.clone()),
                _ => (message.headers.clone(), envelope.clone()),
            };
            out.extend(encode(&headers, &wrap_envelope(&doc, &envelope)));
        }
        self.last = Some((message.headers, envelope));
        DocFault::into_event(failed, out, raw)
    }
}

fn unwrap_envelope(payload: &[u8]) -> Option<(Vec<u8>, Envelope)> {
    let serde_json::Value::Object(mut map) = serde_json::from_slice(payload).ok()? else {
        return None;
    };
    let serde_json::Value::String(b64) = map.remove("bytes")? else {
        return None;
    };
    let doc = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
    Some((doc, Envelope::Base64(map)))
}

fn wrap_envelope(doc: &[u8], envelope: &Envelope) -> Vec<u8> {
    match envelope {
        Envelope::Plain => doc.to_vec(),
        Envelope::Base64(rest) => {
            let mut map = serde_json::Map::new();
            map.insert(
                "bytes".into(),
                base64::engine::general_purpose::STANDARD.encode(doc).into(),
            );
            for (k, v) in rest {
                map.insert(k.clone(), v.clone());
            }
            serde_json::to_vec(&map).unwrap_or_default()
        }
    }
}

impl EventStream for EventStreamRestorer {
    fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, EventFault> {
        self.buffer.extend_from_slice(bytes);
        let mut out = Vec::new();
        loop {
            match decode(&self.buffer) {
                Ok(None) => return Ok(out),
                Ok(Some((message, used))) => {
                    let raw: Vec<u8> = self.buffer.drain(..used).collect();
                    self.message(&raw, message, &mut out)?;
                }
                Err(Malformed) => {
                    let raw = std::mem::take(&mut self.buffer);
                    return Err(EventFault {
                        fault: Fault::Malformed,
                        out,
                        raw,
                    });
                }
            }
        }
    }

    fn finish(&mut self) -> Result<Vec<u8>, EventFault> {
        let mut out = self.push(&[])?;
        if !self.buffer.is_empty() {
            let raw = std::mem::take(&mut self.buffer);
            return Err(EventFault {
                fault: Fault::Malformed,
                out,
                raw,
            });
        }
        // Text still held goes out in copies of the last event.
        let docs = self.docs.finish().map_err(|e| EventFault {
            fault: e.fault,
            out: Vec::new(),
            raw: Vec::new(),
        })?;
        if let Some((headers, envelope)) = &self.last {
            for doc in docs {
                out.extend(encode(headers, &wrap_envelope(&doc, envelope)));
            }
        }
        Ok(out)
    }

    fn pending(&self) -> usize {
        self.buffer.len()
    }
}

#[cfg(test)]
mod tests;
