//! Restoring a stream of chunks (a proxied, streamed response) with the same result as
//! restoring the whole text at once.
//!
//! Each chunk is appended to what was held back, and everything that no later chunk can
//! change is released at once; only the shortest tail that could still begin a
//! replacement is held (see [`Restorer::step`] for why that is enough). Example with
//! `[PERSON_1]` in the map: chunks `"Hi [PER"`, `"SON_1], bye"` give `"Hi "` and then
//! `"Ann, bye"`.

use std::sync::Arc;

use super::Restorer;

/// One stream's restoring state.
#[derive(Debug)]
pub struct StreamRestorer {
    restorer: Arc<Restorer>,
    pending: String,
    prev: Option<char>,
}

impl StreamRestorer {
    pub fn new(restorer: Arc<Restorer>) -> Self {
        Self {
            restorer,
            pending: String::new(),
            prev: None,
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

    /// Bytes currently held back.
    pub fn held(&self) -> usize {
        self.pending.len()
    }

    fn run(&mut self, eof: bool) -> String {
        let mut out = String::new();
        let consumed = self.restorer.step(&self.pending, self.prev, eof, &mut out);
        if let Some(c) = self.pending[..consumed].chars().next_back() {
            self.prev = Some(c);
        }
        self.pending.drain(..consumed);
        out
    }
}
