//! The answer side of an exchange: bytes pass through, or a JSON answer is buffered and
//! restored whole, or a stream (Server-Sent Events, NDJSON lines, the elements of a JSON
//! array) is restored event by event as it arrives.
//! An answer that cannot be restored is a [`Fault`]: counted, then aborted or passed on
//! as it came, as the route's `restore_failure` says.
//!
//! What is buffered is bounded by the route's response limit (on the wire, and again
//! decoded); past it, or when the bytes are not in their announced coding, the answer
//! is refused (502) rather than passed on half-read or as replacement characters.

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};

use super::array_stream::ArrayRestorer;
use super::doc_stream::{DocRestorer, EventStream};
use super::encoding::{self, Codings, DecodeErrorKind};
use super::eventstream::EventStreamRestorer;
use super::fault::Fault;
use super::format::BodyFormat;
use super::jsonpath::{JsonPath, TextKind};
use super::ndjson_stream::NdjsonRestorer;
use super::refusal::Refusal;
use super::route::RestoreFailure;
use super::scan::AnswerScan;
use super::sse::{EventPaths, FieldRestorer, SseRestorer, TextStream};
use super::tally::Tally;
use crate::restore::stream::StreamRestorer;
use crate::restore::{Output, Restorer};

/// How the answer body is handled.
pub(super) enum Answer {
    /// Bytes go through untouched.
    Passthrough,
    /// Buffered, decoded, then restored as a whole.
    Whole {
        format: BodyFormat,
        bounds: Bounds,
        /// The chunks as they came: kept apart (not appended to one growing buffer,
        /// whose reallocations would double the peak) until the answer is complete.
        chunks: Vec<Bytes>,
        len: usize,
    },
    /// A stream, restored event by event as it arrives: Server-Sent Events, NDJSON lines
    /// (Ollama), the elements of a JSON array (Gemini without `alt=sse`).
    /// At most `limit` bytes of an unfinished event are held.
    Stream {
        sse: Box<dyn EventStream>,
        policy: RestoreFailure,
        limit: usize,
        tally: Arc<Mutex<Tally>>,
    },
    /// A JSON answer not yet seen: an array is a stream of elements (`stream`, when the
    /// route restores streams), anything else is restored whole. Waits for its first
    /// byte that is not whitespace.
    Json {
        buffer: BytesMut,
        stream: Option<Box<dyn EventStream>>,
        bounds: Bounds,
        tally: Arc<Mutex<Tally>>,
    },
}

/// What the answer's head says about how to buffer and restore it.
#[derive(Debug, Clone)]
pub(super) struct Bounds {
    /// The answer's `Content-Encoding`, undone before restoring (whole answers only).
    pub codings: Codings,
    /// An error answer: every string is restored (`error.message` quotes the request),
    /// not only the route's paths.
    pub every_string: bool,
    /// `limits.max_response_bytes`.
    pub limit: usize,
    pub policy: RestoreFailure,
    /// Answer scanning, when the route scans (after restoring).
    pub scan: Option<Arc<AnswerScan>>,
    /// The session's restorer as it is now, for answers whose request brought no map
    /// (a stream opened with `GET` that carries answers to later requests).
    pub live: Option<Live>,
}

/// Reads a session's restorer again: its map grows while a long stream is open.
#[derive(Clone)]
pub struct Live(pub Arc<dyn Fn() -> Option<Restorer> + Send + Sync>);

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Live")
    }
}

/// How an answer is framed, from its `Content-Type` and what the route restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Framing {
    Sse,
    /// AWS event-stream messages (Bedrock's streams).
    EventStream,
    Ndjson,
    /// NDJSON restored whole (a route with `restore` paths only).
    NdjsonWhole,
    /// JSON: whole, or an array streamed (with stream paths).
    Json,
}

impl Framing {
    /// Whether the answer goes out event by event (never decoded on the way).
    pub(super) fn is_streamed(self) -> bool {
        matches!(self, Framing::Sse | Framing::EventStream | Framing::Ndjson)
    }

    /// `whole`: the route has `restore` paths; `stream`: `restore_stream` or
    /// `restore_events` paths. `None`: the answer goes through untouched.
    pub(super) fn of(content_type: &str, whole: bool, stream: bool) -> Option<Framing> {
        if content_type.contains("text/event-stream") {
            stream.then_some(Framing::Sse)
        } else if content_type.contains("application/vnd.amazon.eventstream") {
            stream.then_some(Framing::EventStream)
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
    pub(super) fn whole(format: BodyFormat, bounds: Bounds) -> Self {
        Answer::Whole {
            format,
            bounds,
            chunks: Vec::new(),
            len: 0,
        }
    }

    /// Whether the whole answer is buffered before anything goes out (then it is sent
    /// with a `Content-Length`).
    pub(super) fn is_whole(&self) -> bool {
        matches!(self, Answer::Whole { .. })
    }

    /// A JSON answer whose first byte has not come yet: it is whole, or a stream of
    /// array elements (see [`Answer::Json`]).
    pub(super) fn is_undecided(&self) -> bool {
        matches!(self, Answer::Json { .. })
    }

    /// The answer for `framing`.
    pub(super) fn framed(
        framing: Framing,
        paths: EventPaths,
        restorer: Arc<Restorer>,
        tally: Arc<Mutex<Tally>>,
        bounds: Bounds,
    ) -> Self {
        let streams = !(paths.fragments.is_empty() && paths.complete.is_empty());
        let events = SseRestorer::new(
            paths,
            Box::new(Fields {
                restorer: Mutex::new(restorer),
                tally: Arc::clone(&tally),
                scan: bounds.scan.clone(),
                live: bounds.live.clone(),
            }),
        );
        let sse: Box<dyn EventStream> = match framing {
            Framing::Sse => Box::new(events),
            Framing::EventStream => Box::new(EventStreamRestorer::new(DocRestorer::new(events))),
            Framing::Ndjson => Box::new(NdjsonRestorer::new(DocRestorer::new(events))),
            Framing::NdjsonWhole => return Answer::whole(BodyFormat::Ndjson, bounds),
            Framing::Json => {
                return Answer::Json {
                    buffer: BytesMut::new(),
                    stream: (streams && !bounds.every_string).then(|| {
                        Box::new(ArrayRestorer::new(DocRestorer::new(events)))
                            as Box<dyn EventStream>
                    }),
                    bounds,
                    tally,
                }
            }
        };
        Answer::Stream {
            sse,
            policy: bounds.policy,
            limit: bounds.limit,
            tally,
        }
    }

    /// Takes a chunk; returns what goes out now (`None`: nothing yet).
    ///
    /// # Errors
    /// 502 when the answer is over its limit or not in its announced coding; when it
    /// cannot be restored and the route's policy is `error` (nothing unrestored goes out).
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
                bounds,
                chunks,
                len,
            } => {
                if let Some(chunk) = chunk {
                    *len += chunk.len();
                    if *len > bounds.limit {
                        chunks.clear();
                        return Err(Refusal::response_too_large());
                    }
                    chunks.push(chunk);
                }
                if !end {
                    return Ok(None);
                }
                let raw = concat(std::mem::take(chunks), *len);
                let decoded = if bounds.codings.is_identity() {
                    raw
                } else {
                    let decoded = encoding::decode(&bounds.codings, &raw, bounds.limit).map_err(
                        |e| match e.kind() {
                            DecodeErrorKind::TooLarge => Refusal::response_too_large(),
                            DecodeErrorKind::Malformed | DecodeErrorKind::Unsupported => {
                                Refusal::unreadable_response()
                            }
                        },
                    )?;
                    Bytes::from(decoded.body)
                };
                let every;
                let paths = if bounds.every_string {
                    every = JsonPath::parse("$").map(|p| vec![p]).unwrap_or_default();
                    &every[..]
                } else {
                    paths
                };
                let scan = bounds.scan.as_deref();
                match restore_whole(*format, &decoded, paths, restorer, tally, scan) {
                    Ok(out) => Ok(Some(Bytes::from(out))),
                    // What could not be scanned never goes out, whatever the policy.
                    Err(Fault::Unscanned) => Err(Refusal::unrestorable()),
                    Err(fault) => {
                        count(tally, fault);
                        match bounds.policy {
                            RestoreFailure::Error => Err(Refusal::unrestorable()),
                            RestoreFailure::Passthrough => Ok(Some(decoded)),
                        }
                    }
                }
            }
            Answer::Stream {
                sse,
                policy,
                limit,
                tally,
            } => {
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
                                RestoreFailure::Error => Err(Refusal::unrestorable()),
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
                    if sse.pending() > *limit {
                        return Err(Refusal::response_too_large());
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
                bounds,
                tally: shared,
            } => {
                if let Some(chunk) = chunk {
                    buffer.extend_from_slice(&chunk);
                }
                let first = buffer.iter().find(|b| !b.is_ascii_whitespace()).copied();
                if first.is_none() && !end {
                    return Ok(None);
                }
                if buffer.len() > bounds.limit {
                    return Err(Refusal::response_too_large());
                }
                let seen = buffer.split().freeze();
                let bounds = bounds.clone();
                *self = match (first, stream.take()) {
                    (Some(b'['), Some(sse)) if bounds.codings.is_identity() => Answer::Stream {
                        sse,
                        policy: bounds.policy,
                        limit: bounds.limit,
                        tally: Arc::clone(shared),
                    },
                    // Compressed bytes are decoded whatever the paths (their coding
                    // header is gone).
                    _ if paths.is_empty()
                        && !bounds.every_string
                        && bounds.codings.is_identity() =>
                    {
                        Answer::Passthrough
                    }
                    _ => Answer::whole(BodyFormat::Json, bounds),
                };
                self.push(Some(seen), end, paths, restorer, tally)
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
    scan: Option<&AnswerScan>,
) -> Result<Vec<u8>, Fault> {
    if buffer.iter().all(u8::is_ascii_whitespace) {
        // No body (a 4xx without one): nothing to restore.
        return Ok(buffer.to_vec());
    }
    let mut tally = Tally::default();
    let mut restore = |t: &str| {
        let restored = restorer.restore_text(t);
        tally.add(t, &restored);
        restored
    };
    let parsed = format.parse(buffer, paths).map_err(|_| Fault::Malformed)?;
    let mut texts: Vec<String> = parsed.texts().iter().map(|t| restore(t)).collect();
    if let Some(scan) = scan {
        texts = scan.texts(texts).map_err(|_| Fault::Unscanned)?;
    }
    let out = parsed.write(&texts).map_err(|_| Fault::Malformed)?;
    if let Ok(mut t) = total.lock() {
        t.restored += tally.restored;
        t.unresolved += tally.unresolved;
    }
    Ok(out)
}

/// Restores event fields with the exchange's restorer, counting what it does.
struct Fields {
    restorer: Mutex<Arc<Restorer>>,
    tally: Arc<Mutex<Tally>>,
    scan: Option<Arc<AnswerScan>>,
    live: Option<Live>,
}

impl Fields {
    fn restorer(&self) -> Arc<Restorer> {
        self.restorer
            .lock()
            .map(|r| Arc::clone(&r))
            .unwrap_or_else(|_| Arc::new(Restorer::empty()))
    }

    fn restore(restorer: &Restorer, text: &str, kind: TextKind) -> String {
        match kind {
            TextKind::Plain | TextKind::IpAddress => restorer.restore_text(text),
            TextKind::JsonDocument => restorer.restore_json_text(text),
        }
    }
}

impl FieldRestorer for Fields {
    fn stream(&self, kind: TextKind) -> Box<dyn TextStream> {
        let restoring = Box::new(FieldStream {
            stream: StreamRestorer::with_output(self.restorer(), output(kind)),
            tally: Arc::clone(&self.tally),
        });
        match &self.scan {
            Some(scan) => scan.stream(restoring),
            None => restoring,
        }
    }

    fn whole(&self, text: &str, kind: TextKind) -> String {
        let mut restored = Self::restore(&self.restorer(), text, kind);
        if let Some(Live(read)) = &self.live {
            // A placeholder of a request made after the stream opened: read the
            // session's map again.
            if super::tally::tokens(&restored) > 0 {
                if let Some(fresh) = read() {
                    let fresh = Arc::new(fresh);
                    restored = Self::restore(&fresh, text, kind);
                    if let Some(scan) = &self.scan {
                        scan.set_restorer(Arc::clone(&fresh));
                    }
                    if let Ok(mut r) = self.restorer.lock() {
                        *r = fresh;
                    }
                }
            }
        }
        if let Ok(mut tally) = self.tally.lock() {
            tally.add(text, &restored);
        }
        let Some(scan) = &self.scan else {
            return restored;
        };
        match scan.texts(vec![restored]) {
            Ok(mut scanned) => scanned.pop().unwrap_or_default(),
            // Withheld: what could not be scanned does not go out (counted by the scan).
            Err(_) => String::new(),
        }
    }
}

fn output(kind: TextKind) -> Output {
    match kind {
        TextKind::Plain | TextKind::IpAddress => Output::Text,
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
            Bounds {
                codings: Codings::default(),
                every_string: false,
                limit: 1 << 20,
                policy: RestoreFailure::Error,
                scan: None,
                live: None,
            },
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
