//! The answer side of an exchange: bytes pass through, or a JSON answer is buffered and
//! restored whole, or Server-Sent Events are restored event by event as they stream.

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};

use super::format::BodyFormat;
use super::jsonpath::JsonPath;
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
        Answer::Stream(Box::new(SseRestorer::new(
            paths,
            Box::new(move || {
                Box::new(FieldStream::new(Arc::clone(&restorer), Arc::clone(&tally)))
                    as Box<dyn TextStream>
            }),
        )))
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
        }
    }
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
