//! The answer side of an exchange: bytes pass through, or a JSON answer is buffered and
//! restored whole, or a stream (Server-Sent Events, NDJSON lines, the elements of a JSON
//! array) is restored event by event as it arrives.
//! An answer that cannot be restored is a [`Fault`]: counted, then aborted or passed on
//! as it came, as the route's `restore_failure` says.

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};

use super::array_stream::ArrayRestorer;
use super::doc_stream::{DocRestorer, EventStream};
use super::fault::Fault;
use super::format::BodyFormat;
use super::jsonpath::{JsonPath, TextKind};
use super::ndjson_stream::NdjsonRestorer;
use super::route::RestoreFailure;
use super::sse::{EventPaths, FieldRestorer, SseRestorer, TextStream};
use super::tally::Tally;
use crate::restore::stream::StreamRestorer;
use crate::restore::{Output, Restorer};

/// How the answer body is handled.
pub(super) enum Answer {
    /// Bytes go through untouched.
    Passthrough,
    /// Buffered, then restored as a whole.
    Whole {
        format: BodyFormat,
        buffer: BytesMut,
        policy: RestoreFailure,
    },
    /// A stream, restored event by event as it arrives: Server-Sent Events, NDJSON lines
    /// (Ollama), the elements of a JSON array (Gemini without `alt=sse`).
    Stream {
        sse: Box<dyn EventStream>,
        policy: RestoreFailure,
        tally: Arc<Mutex<Tally>>,
    },
    /// A JSON answer not yet seen: an array is a stream of elements (`stream`, when the
    /// route restores streams), anything else is restored whole. Waits for its first
    /// byte that is not whitespace.
    Json {
        buffer: BytesMut,
        stream: Option<Box<dyn EventStream>>,
        policy: RestoreFailure,
        tally: Arc<Mutex<Tally>>,
    },
}

/// How an answer is framed, from its `Content-Type` and what the route restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Framing {
    Sse,
    Ndjson,
    /// NDJSON restored whole (a route with `restore` paths only).
    NdjsonWhole,
    /// JSON: whole, or an array streamed (with stream paths).
    Json,
}

impl Framing {
    /// `whole`: the route has `restore` paths; `stream`: `restore_stream` or
    /// `restore_events` paths. `None`: the answer goes through untouched.
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
    pub(super) fn whole(format: BodyFormat, policy: RestoreFailure) -> Self {
        Answer::Whole {
            format,
            buffer: BytesMut::new(),
            policy,
        }
    }

    /// The answer for `framing`.
    pub(super) fn framed(
        framing: Framing,
        paths: EventPaths,
        restorer: Arc<Restorer>,
        tally: Arc<Mutex<Tally>>,
        policy: RestoreFailure,
    ) -> Self {
        let streams = !(paths.fragments.is_empty() && paths.complete.is_empty());
        let events = SseRestorer::new(
            paths,
            Box::new(Fields {
                restorer,
                tally: Arc::clone(&tally),
            }),
        );
        let sse: Box<dyn EventStream> = match framing {
            Framing::Sse => Box::new(events),
            Framing::Ndjson => Box::new(NdjsonRestorer::new(DocRestorer::new(events))),
            Framing::NdjsonWhole => return Answer::whole(BodyFormat::Ndjson, policy),
            Framing::Json => {
                return Answer::Json {
                    buffer: BytesMut::new(),
                    stream: streams.then(|| {
                        Box::new(ArrayRestorer::new(DocRestorer::new(events)))
                            as Box<dyn EventStream>
                    }),
                    policy,
                    tally,
                }
            }
        };
        Answer::Stream { sse, policy, tally }
    }

    /// Takes a chunk; returns what goes out now (`None`: nothing yet).
    ///
    /// # Errors
    /// The answer cannot be restored and the route's policy is `error`: the answer must
    /// be aborted (nothing unrestored goes out).
    pub(super) fn push(
        &mut self,
        chunk: Option<Bytes>,
        end: bool,
        paths: &[JsonPath],
        restorer: &Restorer,
        tally: &Mutex<Tally>,
    ) -> Result<Option<Bytes>, Fault> {
        match self {
            Answer::Passthrough => Ok(chunk),
            Answer::Whole {
                format,
                buffer,
                policy,
            } => {
                if let Some(chunk) = chunk {
                    buffer.extend_from_slice(&chunk);
                }
                if !end {
                    return Ok(None);
                }
                match restore_whole(*format, buffer, paths, restorer, tally) {
                    Ok(out) => Ok(Some(Bytes::from(out))),
                    Err(fault) => {
                        count(tally, fault);
                        match policy {
                            RestoreFailure::Error => Err(fault),
                            RestoreFailure::Passthrough => Ok(Some(buffer.split().freeze())),
                        }
                    }
                }
            }
            Answer::Stream { sse, policy, tally } => {
                let mut out = Vec::new();
                let mut step = |result: Result<Vec<u8>, super::sse::EventFault>| {
                    match result {
                        Ok(bytes) => {
                            out.extend(bytes);
                            Ok(())
                        }
                        Err(fault) => {
                            count(tally, fault.fault);
                            out.extend(fault.out);
                            match policy {
                                RestoreFailure::Error => Err(fault.fault),
                                // This event as it came; the stream goes on restored.
                                RestoreFailure::Passthrough => {
                                    out.extend(fault.raw);
                                    Ok(())
                                }
                            }
                        }
                    }
                };
                if let Some(chunk) = chunk {
                    // An event that failed leaves later complete events buffered: feed
                    // them on until the chunk is used up.
                    let mut result = sse.push(&chunk);
                    loop {
                        let more = result.is_err();
                        step(result)?;
                        if !more {
                            break;
                        }
                        result = sse.push(&[]);
                    }
                }
                if end {
                    let mut result = sse.finish();
                    while result.is_err() {
                        step(result)?;
                        result = sse.finish();
                    }
                    step(result)?;
                }
                // `None` sends nothing now; an empty chunk would end a chunked body.
                Ok((!out.is_empty()).then(|| Bytes::from(out)))
            }
            Answer::Json {
                buffer,
                stream,
                policy,
                tally: shared,
            } => {
                if let Some(chunk) = chunk {
                    buffer.extend_from_slice(&chunk);
                }
                let first = buffer.iter().find(|b| !b.is_ascii_whitespace()).copied();
                if first.is_none() && !end {
                    return Ok(None);
                }
                let seen = buffer.split().freeze();
                let policy = *policy;
                *self = match (first, stream.take()) {
                    (Some(b'['), Some(sse)) => Answer::Stream {
                        sse,
                        policy,
                        tally: Arc::clone(shared),
                    },
                    _ if paths.is_empty() => Answer::Passthrough,
                    _ => Answer::whole(BodyFormat::Json, policy),
                };
                self.push(Some(seen), end, paths, restorer, tally)
            }
        }
    }
}

fn count(tally: &Mutex<Tally>, fault: Fault) {
    if let Ok(mut t) = tally.lock() {
        t.faults.add(fault);
    }
}

fn restore_whole(
    format: BodyFormat,
    buffer: &[u8],
    paths: &[JsonPath],
    restorer: &Restorer,
    total: &Mutex<Tally>,
) -> Result<Vec<u8>, Fault> {
    if buffer.iter().all(u8::is_ascii_whitespace) {
        // No body (a 4xx without one): nothing to restore.
        return Ok(buffer.to_vec());
    }
    let mut tally = Tally::default();
    let mut restore = |t: &str| {
        let restored = restorer.restore(t);
        tally.add(t, &restored);
        restored
    };
    let out = format
        .parse(buffer, paths)
        .and_then(|parsed| {
            let texts: Vec<String> = parsed.texts().iter().map(|t| restore(t)).collect();
            parsed.write(&texts)
        })
        .map_err(|_| Fault::Malformed)?;
    if let Ok(mut t) = total.lock() {
        t.restored += tally.restored;
        t.unresolved += tally.unresolved;
    }
    Ok(out)
}

/// Restores event fields with the exchange's restorer, counting what it does.
struct Fields {
    restorer: Arc<Restorer>,
    tally: Arc<Mutex<Tally>>,
}

impl FieldRestorer for Fields {
    fn stream(&self, kind: TextKind) -> Box<dyn TextStream> {
        Box::new(FieldStream {
            stream: StreamRestorer::with_output(Arc::clone(&self.restorer), output(kind)),
            tally: Arc::clone(&self.tally),
        })
    }

    fn whole(&self, text: &str, kind: TextKind) -> String {
        let restored = match kind {
            TextKind::Plain => self.restorer.restore(text),
            TextKind::JsonDocument => self.restorer.restore_json_text(text),
        };
        if let Ok(mut tally) = self.tally.lock() {
            tally.add(text, &restored);
        }
        restored
    }
}

fn output(kind: TextKind) -> Output {
    match kind {
        TextKind::Plain => Output::Text,
        TextKind::JsonDocument => Output::JsonString,
    }
}

/// One streamed text field, restored as it arrives (see `restore::stream`).
struct FieldStream {
    stream: StreamRestorer,
    tally: Arc<Mutex<Tally>>,
}

impl FieldStream {
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
        let out = self.stream.finish_now();
        self.count("", &out);
        out
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
        let paths = EventPaths {
            fragments: parse(stream),
            complete: Vec::new(),
        };
        let whole = parse(whole);
        let restorer = Arc::new(Restorer::empty());
        let tally = Arc::new(Mutex::new(Tally::default()));
        let mut a = Answer::framed(
            Framing::Json,
            paths,
            Arc::clone(&restorer),
            Arc::clone(&tally),
            RestoreFailure::Error,
        );
        let mut out = Vec::new();
        for (i, chunk) in body.iter().enumerate() {
            let end = i + 1 == body.len();
            let chunk = Some(Bytes::copy_from_slice(chunk));
            if let Some(b) = a.push(chunk, end, &whole, &restorer, &tally).unwrap() {
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
