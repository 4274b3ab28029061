//! The answer side of an exchange: bytes pass through, or a JSON answer is buffered and
//! restored whole, or Server-Sent Events are restored event by event as they stream.
//!
//! What is buffered is bounded by the route's response limit (on the wire, and again
//! decoded); past it, or when the bytes are not what their headers say, the answer is
//! refused (502) rather than passed on half-read or as replacement characters.

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};

use super::encoding::{self, Codings, DecodeErrorKind};
use super::format::BodyFormat;
use super::jsonpath::JsonPath;
use super::refusal::{Reason, Refusal};
use super::sse::{SseRestorer, TextStream};
use super::tally::Tally;
use crate::api::{ApiError, ErrorCode};
use crate::restore::stream::StreamRestorer;
use crate::restore::Restorer;

/// How the answer body is handled.
pub(super) enum Answer {
    /// Bytes go through untouched.
    Passthrough,
    /// Buffered, decoded, then restored as a whole.
    Whole {
        format: BodyFormat,
        /// The answer's `Content-Encoding`, undone before restoring.
        codings: Codings,
        /// An error answer: every string is restored (`error.message` quotes the
        /// request), not only the route's paths.
        every_string: bool,
        limit: usize,
        /// The chunks as they came: kept apart (not appended to one growing buffer,
        /// whose reallocations would double the peak) until the answer is complete.
        chunks: Vec<Bytes>,
        len: usize,
    },
    /// Server-Sent Events, restored event by event as they arrive; at most `limit`
    /// bytes of an unfinished event are held.
    Stream { sse: Box<SseRestorer>, limit: usize },
}

impl Answer {
    pub(super) fn whole(
        format: BodyFormat,
        codings: Codings,
        every_string: bool,
        limit: usize,
    ) -> Self {
        Answer::Whole {
            format,
            codings,
            every_string,
            limit,
            chunks: Vec::new(),
            len: 0,
        }
    }

    pub(super) fn stream(
        paths: Vec<JsonPath>,
        restorer: Arc<Restorer>,
        tally: Arc<Mutex<Tally>>,
        limit: usize,
    ) -> Self {
        let sse = SseRestorer::new(
            paths,
            Box::new(move || {
                Box::new(FieldStream::new(Arc::clone(&restorer), Arc::clone(&tally)))
                    as Box<dyn TextStream>
            }),
        );
        Answer::Stream {
            sse: Box::new(sse),
            limit,
        }
    }

    pub(super) fn is_whole(&self) -> bool {
        matches!(self, Answer::Whole { .. })
    }

    /// Takes a chunk; returns what goes out now.
    ///
    /// # Errors
    /// 502 when the answer is over its limit, or not in its announced coding (or, not
    /// being JSON, not text either).
    pub(super) fn push(
        &mut self,
        chunk: Option<Bytes>,
        end: bool,
        paths: &[JsonPath],
        restorer: &Restorer,
        tally: &Mutex<Tally>,
    ) -> Result<Option<Bytes>, Refusal> {
        match self {
            Answer::Passthrough => Ok(chunk),
            Answer::Whole {
                format,
                codings,
                every_string,
                limit,
                chunks,
                len,
            } => {
                if let Some(chunk) = chunk {
                    *len += chunk.len();
                    if *len > *limit {
                        chunks.clear();
                        return Err(too_large());
                    }
                    chunks.push(chunk);
                }
                if !end {
                    return Ok(None);
                }
                let raw = concat(std::mem::take(chunks), *len);
                let decoded = if codings.is_identity() {
                    raw.to_vec()
                } else {
                    encoding::decode(codings, &raw, *limit)
                        .map_err(|e| match e.kind() {
                            DecodeErrorKind::TooLarge => too_large(),
                            DecodeErrorKind::Malformed | DecodeErrorKind::Unsupported => {
                                unreadable()
                            }
                        })?
                        .body
                };
                drop(raw);
                let every;
                let paths = if *every_string {
                    every = JsonPath::parse("$").map(|p| vec![p]).unwrap_or_default();
                    &every[..]
                } else {
                    paths
                };
                restore_whole(*format, &decoded, paths, restorer, tally)
                    .map(|b| Some(Bytes::from(b)))
            }
            Answer::Stream { sse, limit } => {
                let mut out = match chunk {
                    Some(chunk) => sse.push(&chunk),
                    None => Vec::new(),
                };
                if sse.pending() > *limit {
                    return Err(too_large());
                }
                if end {
                    out.extend(sse.finish());
                }
                // `None` sends nothing now; an empty chunk would end a chunked body.
                Ok((!out.is_empty()).then(|| Bytes::from(out)))
            }
        }
    }
}

/// One buffer of the chunks, copied only when there are several.
fn concat(mut chunks: Vec<Bytes>, len: usize) -> Bytes {
    if chunks.len() == 1 {
        return chunks.pop().unwrap_or_default();
    }
    let mut whole = BytesMut::with_capacity(len);
    for chunk in chunks {
        whole.extend_from_slice(&chunk);
    }
    whole.freeze()
}

/// The upstream's answer is over `limits.max_response_bytes`.
pub(super) fn too_large() -> Refusal {
    Refusal::new(
        Reason::ResponseTooLarge,
        ApiError::new(ErrorCode::BadGateway)
            .with_message("the upstream answer is larger than the proxy restores"),
    )
}

/// The upstream's answer is not what its headers say.
pub(super) fn unreadable() -> Refusal {
    Refusal::new(
        Reason::UnreadableResponse,
        ApiError::new(ErrorCode::BadGateway)
            .with_message("the upstream answered in an encoding that cannot be restored"),
    )
}

fn restore_whole(
    format: BodyFormat,
    buffer: &[u8],
    paths: &[JsonPath],
    restorer: &Restorer,
    total: &Mutex<Tally>,
) -> Result<Vec<u8>, Refusal> {
    let mut tally = Tally::default();
    let mut restore = |t: &str| {
        let restored = restorer.restore(t);
        tally.add(t, &restored);
        restored
    };
    let restored = format.parse(buffer, paths).and_then(|parsed| {
        let texts: Vec<String> = parsed.texts().iter().map(|t| restore(t)).collect();
        parsed.write(&texts)
    });
    // A body that is not JSON after all is restored as text; one that is not text
    // either cannot be restored without changing bytes.
    let out = match restored {
        Ok(out) => out,
        Err(_) => match std::str::from_utf8(buffer) {
            Ok(text) => restore(text).into_bytes(),
            Err(_) => return Err(unreadable()),
        },
    };
    if let Ok(mut t) = total.lock() {
        t.restored += tally.restored;
        t.unresolved += tally.unresolved;
    }
    Ok(out)
}

/// One streamed text field, restored as it arrives (see `restore::stream`).
struct FieldStream {
    restorer: Arc<Restorer>,
    stream: StreamRestorer,
    tally: Arc<Mutex<Tally>>,
}

impl FieldStream {
    fn new(restorer: Arc<Restorer>, tally: Arc<Mutex<Tally>>) -> Self {
        Self {
            stream: StreamRestorer::new(Arc::clone(&restorer)),
            restorer,
            tally,
        }
    }

    fn count(&self, before: &str, after: &str) {
        if let Ok(mut tally) = self.tally.lock() {
            tally.add(before, after);
        }
    }
}

impl TextStream for FieldStream {
    fn push(&mut self, chunk: &str) -> String {
        let out = self.stream.push(chunk);
        self.count(chunk, &out);
        out
    }

    fn flush(&mut self) -> String {
        let fresh = StreamRestorer::new(Arc::clone(&self.restorer));
        let out = std::mem::replace(&mut self.stream, fresh).finish();
        self.count("", &out);
        out
    }

    fn restore_whole(&self, text: &str) -> String {
        self.restorer.restore(text)
    }
}
