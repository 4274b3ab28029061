//! Streamed JSON documents restored one by one, exactly as Server-Sent Events are: each
//! document is handed to an [`SseRestorer`] as one event's `data`, so every framing
//! (NDJSON lines, elements of a JSON array) gets the same per-field hold-back, the same
//! flushes and the same restore of fields split across documents as SSE has. The
//! framings only cut documents out of their bytes and put them back.

use super::sse::SseRestorer;

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
    pub fn document(&mut self, doc: &[u8]) -> Vec<Vec<u8>> {
        // A JSON document's line breaks all lie between tokens (a string cannot hold a
        // raw one), so it becomes one `data:` line; a pretty-printed element stays valid.
        let mut event = Vec::with_capacity(doc.len() + 8);
        event.extend_from_slice(b"data: ");
        event.extend(
            doc.iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
        );
        event.extend_from_slice(b"\n\n");
        documents(&self.events.push(&event))
    }

    /// Ends the stream: copies carrying every text still held back.
    pub fn finish(&mut self) -> Vec<Vec<u8>> {
        documents(&self.events.finish())
    }
}

/// The `data` of each event the SSE restorer wrote (it writes only `data:` lines for
/// events that had only those).
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
    use crate::proxy::jsonpath::JsonPath;
    use crate::proxy::sse::TextStream;

    /// Restores `[P_1]` → `Ann`, holding back any tail that may begin it.
    pub(crate) struct Toy(String);

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
        fn restore_whole(&self, text: &str) -> String {
            text.replace("[P_1]", "Ann")
        }
    }

    pub(crate) fn docs(path: &str) -> DocRestorer {
        DocRestorer::new(SseRestorer::new(
            vec![JsonPath::parse(path).unwrap()],
            Box::new(|| Box::new(Toy(String::new()))),
        ))
    }

    #[test]
    fn events_written_by_the_sse_restorer_come_back_as_documents() {
        let events = b"data: {\"a\":1}\n\ndata: x\ndata: y\n\n";
        assert_eq!(documents(events), [b"{\"a\":1}".to_vec(), b"x\ny".to_vec()]);
        assert!(documents(b"").is_empty());
    }
}
