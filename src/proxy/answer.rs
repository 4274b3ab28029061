//! The answer side of an exchange: bytes pass through, or a JSON answer is buffered and
//! restored whole, or Server-Sent Events are restored event by event as they stream.
//! An answer that cannot be restored is a [`Fault`]: counted, then aborted or passed on
//! as it came, as the route's `restore_failure` says.

use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};

use super::fault::Fault;
use super::format::BodyFormat;
use super::jsonpath::{JsonPath, TextKind};
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
    /// Server-Sent Events, restored event by event as they arrive.
    Stream {
        sse: Box<SseRestorer>,
        policy: RestoreFailure,
        tally: Arc<Mutex<Tally>>,
    },
}

impl Answer {
    pub(super) fn whole(format: BodyFormat, policy: RestoreFailure) -> Self {
        Answer::Whole {
            format,
            buffer: BytesMut::new(),
            policy,
        }
    }

    pub(super) fn stream(
        paths: EventPaths,
        restorer: Arc<Restorer>,
        tally: Arc<Mutex<Tally>>,
        policy: RestoreFailure,
    ) -> Self {
        Answer::Stream {
            sse: Box::new(SseRestorer::new(
                paths,
                Box::new(Fields {
                    restorer,
                    tally: Arc::clone(&tally),
                }),
            )),
            policy,
            tally,
        }
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
