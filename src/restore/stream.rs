//! Restoring a stream of chunks (a proxied, streamed response) with the same result as
//! restoring the whole text at once.
//!
//! Each chunk is appended to what was held back, and everything that no later chunk can
//! change is released at once; only the shortest tail that could still begin a
//! replacement is held (see [`Restorer::step`] for why that is enough). Example with
//! `[PERSON_1]` in the map: chunks `"Hi [PER"`, `"SON_1], bye"` give `"Hi "` and then
//! `"Ann, bye"`.

use std::sync::Arc;

use super::{Output, Restorer};

/// One stream's restoring state.
#[derive(Debug)]
pub struct StreamRestorer {
    restorer: Arc<Restorer>,
    pending: String,
    prev: Option<char>,
    output: Output,
}

impl StreamRestorer {
    pub fn new(restorer: Arc<Restorer>) -> Self {
        Self::with_output(restorer, Output::Text)
    }

    /// A stream of JSON text (streamed tool-call arguments): originals are written
    /// escaped, so the document the client assembles stays valid.
    pub fn with_output(restorer: Arc<Restorer>, output: Output) -> Self {
        Self {
            restorer,
            pending: String::new(),
            prev: None,
            output,
        }
    }

    /// Feeds `chunk`; returns the restored text that is now final (possibly empty).
    pub fn push(&mut self, chunk: &str) -> String {
        self.pending.push_str(chunk);
        self.run(false)
    }

    /// Ends the stream: returns everything still held, restored.
    pub fn finish(mut self) -> String {
        self.run(true)
    }

    /// Ends the stream in place: returns everything still held, restored; the stream
    /// starts afresh.
    pub fn finish_now(&mut self) -> String {
        let out = self.run(true);
        self.prev = None;
        out
    }

    /// Bytes currently held back.
    pub fn held(&self) -> usize {
        self.pending.len()
    }

    fn run(&mut self, eof: bool) -> String {
        let mut out = String::new();
        let consumed = self
            .restorer
            .step_as(&self.pending, self.prev, eof, &mut out, self.output);
        if let Some(c) = self.pending[..consumed].chars().next_back() {
            self.prev = Some(c);
        }
        self.pending.drain(..consumed);
        out
    }
}
