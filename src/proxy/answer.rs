//! The answer side of an exchange: bytes pass through, or a JSON answer is buffered and
//! restored whole, or a stream (Server-Sent Events, NDJSON lines, the elements of a JSON
//! array) is restored document by document as it arrives.

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};

use super::array_stream::ArrayRestorer;
use super::doc_stream::DocRestorer;
use super::format::BodyFormat;
use super::jsonpath::JsonPath;
use super::ndjson_stream::NdjsonRestorer;
use super::sse::{SseRestorer, TextStream};
use super::tally::Tally;
use crate::restore::stream::StreamRestorer;
use crate::restore::Restorer;

/// How the answer body is handled.
pub(super) enum Answer {
    /// Bytes go through untouched.
    Passthrough,
    /// Buffered, then restored as a whole.
    Whole {
        format: BodyFormat,
        buffer: BytesMut,
    },
    /// Server-Sent Events, restored event by event as they arrive.
    Stream(Box<SseRestorer>),
    /// NDJSON, restored line by line as it arrives (Ollama).
    Lines(Box<NdjsonRestorer>),
    /// A JSON array, restored element by element as it arrives (Gemini without
    /// `alt=sse`).
    Elements(Box<ArrayRestorer>),
    /// A JSON answer not yet seen: an array is a stream of elements, anything else is
    /// restored whole. Waits for its first byte that is not whitespace.
    Json {
        buffer: BytesMut,
        stream: Option<Box<ArrayRestorer>>,
    },
}

/// How an answer is framed, from its `Content-Type` and what the route restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Framing {
    Sse,
    Ndjson,
    /// NDJSON restored whole (a route with `restore` paths only).
    NdjsonWhole,
    /// JSON: whole, or an array streamed (with `restore_stream` paths).
    Json,
}

impl Framing {
    /// `None`: the answer goes through untouched.
    pub(super) fn of(content_type: &str, whole: bool, stream: bool) -> Option<Framing> {
        if content_type.contains("text/event-stream") {
            stream.then_some(Framing::Sse)
        } else if content_type.contains("ndjson") {
            if stream {
                Some(Framing::Ndjson)
            } else {
                whole.then_some(Framing::NdjsonWhole)
            }
        } else if content_type.contains("json") {
            (whole || stream).then_some(Framing::Json)
        } else {
            None
        }
    }
}

impl Answer {
    pub(super) fn whole(format: BodyFormat) -> Self {
        Answer::Whole {
            format,
            buffer: BytesMut::new(),
        }
    }

    pub(super) fn stream(
        paths: Vec<JsonPath>,
        restorer: Arc<Restorer>,
        tally: Arc<Mutex<Tally>>,
    ) -> Self {
        Answer::Stream(Box::new(events(paths, restorer, tally)))
    }

    /// The answer for `framing`; `paths` are the route's `restore_stream`.
    pub(super) fn framed(
        framing: Framing,
        paths: Vec<JsonPath>,
        restorer: Arc<Restorer>,
        tally: Arc<Mutex<Tally>>,
    ) -> Self {
        let docs = |paths, restorer, tally| DocRestorer::new(events(paths, restorer, tally));
        match framing {
            Framing::Sse => Answer::stream(paths, restorer, tally),
            Framing::Ndjson => {
                Answer::Lines(Box::new(NdjsonRestorer::new(docs(paths, restorer, tally))))
            }
            Framing::NdjsonWhole => Answer::whole(BodyFormat::Ndjson),
            Framing::Json => Answer::Json {
                buffer: BytesMut::new(),
                stream: (!paths.is_empty())
                    .then(|| Box::new(ArrayRestorer::new(docs(paths, restorer, tally)))),
            },
        }
    }

    /// Takes a chunk; returns what goes out now.
    pub(super) fn push(
        &mut self,
        chunk: Option<Bytes>,
        end: bool,
        paths: &[JsonPath],
        restorer: &Restorer,
        tally: &Mutex<Tally>,
    ) -> Option<Bytes> {
        match self {
            Answer::Passthrough => chunk,
            Answer::Whole { format, buffer } => {
                if let Some(chunk) = chunk {
                    buffer.extend_from_slice(&chunk);
                }
                end.then(|| Bytes::from(restore_whole(*format, buffer, paths, restorer, tally)))
            }
            Answer::Stream(sse) => {
                let mut out = match chunk {
                    Some(chunk) => sse.push(&chunk),
                    None => Vec::new(),
                };
                if end {
                    out.extend(sse.finish());
                }
                // `None` sends nothing now; an empty chunk would end a chunked body.
                (!out.is_empty()).then(|| Bytes::from(out))
            }
            Answer::Lines(lines) => {
                let mut out = chunk.map(|c| lines.push(&c)).unwrap_or_default();
                if end {
                    out.extend(lines.finish());
                }
                (!out.is_empty()).then(|| Bytes::from(out))
            }
            Answer::Elements(elements) => {
                let mut out = chunk.map(|c| elements.push(&c)).unwrap_or_default();
                if end {
                    out.extend(elements.finish());
                }
                (!out.is_empty()).then(|| Bytes::from(out))
            }
            Answer::Json { buffer, stream } => {
                if let Some(chunk) = chunk {
                    buffer.extend_from_slice(&chunk);
                }
                let first = buffer.iter().find(|b| !b.is_ascii_whitespace()).copied();
                if first.is_none() && !end {
                    return None;
                }
                let seen = Bytes::from(std::mem::take(buffer));
                *self = match (first, stream.take()) {
                    (Some(b'['), Some(elements)) => Answer::Elements(elements),
                    _ if paths.is_empty() => Answer::Passthrough,
                    _ => Answer::whole(BodyFormat::Json),
                };
                self.push(Some(seen), end, paths, restorer, tally)
            }
        }
    }
}

/// The event restorer of one answer: a fresh field stream per field location.
fn events(paths: Vec<JsonPath>, restorer: Arc<Restorer>, tally: Arc<Mutex<Tally>>) -> SseRestorer {
    SseRestorer::new(
        paths,
        Box::new(move || {
            Box::new(FieldStream::new(Arc::clone(&restorer), Arc::clone(&tally)))
                as Box<dyn TextStream>
        }),
    )
}

fn restore_whole(
    format: BodyFormat,
    buffer: &[u8],
    paths: &[JsonPath],
    restorer: &Restorer,
    total: &Mutex<Tally>,
) -> Vec<u8> {
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
    // A body that is not JSON after all is restored as text.
    let out = match restored {
        Ok(out) => out,
        Err(_) => restore(&String::from_utf8_lossy(buffer)).into_bytes(),
    };
    if let Ok(mut t) = total.lock() {
        t.restored += tally.restored;
        t.unresolved += tally.unresolved;
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_type_and_the_route_choose_the_framing() {
        assert_eq!(
            Framing::of("text/event-stream", true, true),
            Some(Framing::Sse)
        );
        assert_eq!(Framing::of("text/event-stream", true, false), None);
        assert_eq!(
            Framing::of("application/x-ndjson", true, true),
            Some(Framing::Ndjson)
        );
        assert_eq!(
            Framing::of("application/x-ndjson", true, false),
            Some(Framing::NdjsonWhole)
        );
        assert_eq!(
            Framing::of("application/json; charset=utf-8", false, true),
            Some(Framing::Json)
        );
        assert_eq!(Framing::of("application/json", false, false), None);
        assert_eq!(Framing::of("text/plain", true, true), None);
    }

    fn answer(body: &[&[u8]], whole: &[&str], stream: &[&str]) -> Vec<u8> {
        let parse = |p: &[&str]| {
            p.iter()
                .map(|p| JsonPath::parse(p).unwrap())
                .collect::<Vec<_>>()
        };
        let (whole, stream) = (parse(whole), parse(stream));
        let restorer = Arc::new(Restorer::empty());
        let tally = Arc::new(Mutex::new(Tally::default()));
        let mut a = Answer::framed(
            Framing::Json,
            stream,
            Arc::clone(&restorer),
            Arc::clone(&tally),
        );
        let mut out = Vec::new();
        for (i, chunk) in body.iter().enumerate() {
            let end = i + 1 == body.len();
            if let Some(b) = a.push(
                Some(Bytes::copy_from_slice(chunk)),
                end,
                &whole,
                &restorer,
                &tally,
            ) {
                out.extend_from_slice(&b);
            }
        }
        out
    }

    #[test]
    fn a_json_answer_is_an_element_stream_when_it_opens_an_array_else_whole() {
        // An array goes out element by element, as each completes.
        assert_eq!(
            answer(&[b"  ", b"[{\"a\"", b":\"x\"}", b"]"], &["$.a"], &["$.a"]),
            b"  [{\"a\":\"x\"}]"
        );
        // An object is restored whole (the bytes as they came: nothing to restore).
        assert_eq!(
            answer(&[b" {\"a\":", b"\"x\"}"], &["$.a"], &["$.a"]),
            b" {\"a\":\"x\"}"
        );
        // Stream paths only: an object passes as it is.
        assert_eq!(answer(&[b"{\"a\":1}"], &[], &["$.a"]), b"{\"a\":1}");
    }
}
