//! Streamed JSON documents restored one by one, exactly as Server-Sent Events are: each
//! document is handed to an [`SseRestorer`] as one event's `data`, so every framing
//! (NDJSON lines, elements of a JSON array) gets the same per-field hold-back, flushes,
//! complete-text fields, signed fields and failures as SSE has. The framings only cut
//! documents out of their bytes and put them back.

use super::fault::Fault;
use super::sse::{EventFault, SseRestorer};

/// A streamed answer restored as it arrives, whatever its framing.
pub trait EventStream: Send + Sync {
    /// Feeds answer bytes; returns the bytes that can be sent now.
    ///
    /// # Errors
    /// An event that cannot be restored: `out` holds what goes before it, `raw` the
    /// event as it came. Calling `push(&[])` again goes on with what was buffered.
    fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, EventFault>;
    /// Ends the stream: everything still held goes out.
    ///
    /// # Errors
    /// As [`EventStream::push`]; call `finish` again to go on.
    fn finish(&mut self) -> Result<Vec<u8>, EventFault>;
    /// Bytes of an unfinished event held (bounded by `limits.max_response_bytes`).
    fn pending(&self) -> usize;
}

impl EventStream for SseRestorer {
    fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, EventFault> {
        SseRestorer::push(self, bytes)
    }

    fn finish(&mut self) -> Result<Vec<u8>, EventFault> {
        SseRestorer::finish(self)
    }

    fn pending(&self) -> usize {
        SseRestorer::pending(self)
    }
}

/// A document that could not be restored, and the documents that go out before it.
#[derive(Debug)]
pub struct DocFault {
    pub fault: Fault,
    pub before: Vec<Vec<u8>>,
}

impl DocFault {
    /// The documents that go out, and the fault after them if a document failed.
    pub fn settle(docs: Result<Vec<Vec<u8>>, DocFault>) -> (Vec<Vec<u8>>, Option<Fault>) {
        match docs {
            Ok(docs) => (docs, None),
            Err(DocFault { fault, before }) => (before, Some(fault)),
        }
    }

    /// A framing's event fault: what went out before (`out`, taken) and the event's
    /// bytes as they came.
    pub fn into_event(
        fault: Option<Fault>,
        out: &mut Vec<u8>,
        raw: &[u8],
    ) -> Result<(), EventFault> {
        match fault {
            None => Ok(()),
            Some(fault) => Err(EventFault {
                fault,
                out: std::mem::take(out),
                raw: raw.to_vec(),
            }),
        }
    }
}

/// Restores documents in stream order.
pub struct DocRestorer {
    events: SseRestorer,
}

impl DocRestorer {
    pub fn new(events: SseRestorer) -> Self {
        Self { events }
    }

    /// Restores one complete document; returns the documents that go out now: this one,
    /// possibly preceded by copies of earlier ones carrying text they held back.
    ///
    /// # Errors
    /// The document cannot be restored (it is not UTF-8).
    pub fn document(&mut self, doc: &[u8]) -> Result<Vec<Vec<u8>>, DocFault> {
        // A JSON document's line breaks all lie between tokens (a string cannot hold a
        // raw one), so it becomes one `data:` line; a pretty-printed element stays valid.
        let mut event = Vec::with_capacity(doc.len() + 8);
        event.extend_from_slice(b"data: ");
        event.extend(
            doc.iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
        );
        event.extend_from_slice(b"\n\n");
        unwrap(self.events.push(&event))
    }

    /// Ends the stream: copies carrying every text still held back.
    ///
    /// # Errors
    /// As [`DocRestorer::document`] (none: every document fed was complete).
    pub fn finish(&mut self) -> Result<Vec<Vec<u8>>, DocFault> {
        unwrap(self.events.finish())
    }
}

fn unwrap(result: Result<Vec<u8>, EventFault>) -> Result<Vec<Vec<u8>>, DocFault> {
    result.map(|out| documents(&out)).map_err(|e| DocFault {
        fault: e.fault,
        before: documents(&e.out),
    })
}

/// The `data` of each event the SSE restorer wrote (only `data:` lines, as it was fed).
fn documents(events: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for event in events
        .split(|&b| b == b'\n')
        .collect::<Vec<_>>()
        .split(|l| l.is_empty())
    {
        let mut doc = Vec::new();
        for line in event {
            let Some(data) = line.strip_prefix(b"data: ") else {
                continue;
            };
            if !doc.is_empty() {
                doc.push(b'\n');
            }
            doc.extend_from_slice(data);
        }
        if !event.is_empty() {
            out.push(doc);
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::proxy::jsonpath::{JsonPath, TextKind};
    use crate::proxy::sse::{EventPaths, FieldRestorer, TextStream};

    /// Restores `[P_1]` → `Ann`, holding back any tail that may begin it.
    struct Toy(String);

    impl TextStream for Toy {
        fn push(&mut self, chunk: &str) -> String {
            self.0.push_str(chunk);
            let token = "[P_1]";
            let keep = (1..token.len())
                .rev()
                .find(|&k| self.0.ends_with(&token[..k]))
                .unwrap_or(0);
            let cut = self.0.len() - keep;
            let out = self.0[..cut].replace(token, "Ann");
            self.0.drain(..cut);
            out
        }
        fn flush(&mut self) -> String {
            std::mem::take(&mut self.0).replace("[P_1]", "Ann")
        }
    }

    struct ToyRestorer;

    impl FieldRestorer for ToyRestorer {
        fn stream(&self, _: TextKind) -> Box<dyn TextStream> {
            Box::new(Toy(String::new()))
        }
        fn whole(&self, text: &str, _: TextKind) -> String {
            text.replace("[P_1]", "Ann")
        }
    }

    /// Documents whose `path` fragments are restored with the toy map.
    pub(crate) fn docs(path: &str) -> DocRestorer {
        DocRestorer::new(SseRestorer::new(
            EventPaths {
                fragments: vec![JsonPath::parse(path).unwrap()],
                complete: Vec::new(),
            },
            Box::new(ToyRestorer),
        ))
    }

    #[test]
    fn events_written_by_the_sse_restorer_come_back_as_documents() {
        let events = b"data: {\"a\":1}\n\ndata: x\ndata: y\n\n";
        assert_eq!(documents(events), [b"{\"a\":1}".to_vec(), b"x\ny".to_vec()]);
        assert!(documents(b"").is_empty());
    }

    #[test]
    fn a_document_that_is_not_utf8_is_a_fault() {
        let mut d = docs("$.a");
        assert_eq!(
            d.document(b"{\"a\":\"[P_1]\"}").unwrap(),
            [b"{\"a\":\"Ann\"}".to_vec()]
        );
        let fault = d.document(b"{\"a\":\"\xff\"}").unwrap_err();
        assert_eq!(fault.fault, Fault::NotUtf8);
    }
}
