//! Answer scanning: personal data an answer brings that its request did not (a name a
//! tool looked up, an address the model made up), found after our own placeholders are
//! restored, and anonymized (`scan_answers: anonymize`) or only counted (`monitor`).
//! The values a restorer put back, and every other occurrence of them, are the caller's
//! own and are never touched.
//!
//! Whole texts are scanned as one batch. A streamed text is held back only as far as
//! an entity still being written could reach ([`LOOKBACK`] bytes, moved back to the
//! start of any entity the cut would split), and released in batches that double from
//! [`FIRST_BATCH`] so a long answer costs a handful of scans; monitor mode holds
//! nothing back and scans a copy when the text ends.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use super::sse::TextStream;
use crate::anonymizer::{AnonymizeError, Anonymizer, Options, Scope};
use crate::engine::Detection;
use crate::restore::Restorer;

/// What a route does with personal data its answers introduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ScanAnswers {
    /// Answers are restored, not scanned.
    #[default]
    Off,
    /// Replaced with the route's method, in the conversation's session when it has one.
    Anonymize,
    /// Counted (metrics and the request log, never the values); the answer is unchanged.
    Monitor,
}

/// Bytes held back at the end of a streamed text: an entity still being written.
pub const LOOKBACK: usize = 48;
/// Bytes of text already sent that a streamed scan sees before the held text.
const CONTEXT: usize = 64;
/// The first release of a streamed text waits for this many bytes past the lookback.
pub const FIRST_BATCH: usize = 16;
const MAX_BATCH: usize = 1024;
/// What monitor mode keeps of one streamed text to scan at its end.
const MONITOR_LIMIT: usize = 64 * 1024;

/// The scanner of one exchange's answer.
pub struct AnswerScan {
    anonymizer: Arc<Anonymizer>,
    tenant: String,
    session: Option<String>,
    options: Options,
    mode: ScanAnswers,
    restorer: Arc<Restorer>,
    found: Mutex<BTreeMap<&'static str, u64>>,
    failures: AtomicU64,
}

impl std::fmt::Debug for AnswerScan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerScan")
            .field("mode", &self.mode)
            .finish()
    }
}

/// Detection failed: the text must not go out unscanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unscanned;

impl AnswerScan {
    /// `None` when the route does not scan.
    pub fn new(
        anonymizer: Arc<Anonymizer>,
        tenant: &str,
        session: Option<&str>,
        options: &Options,
        mode: ScanAnswers,
        restorer: Arc<Restorer>,
    ) -> Option<Arc<AnswerScan>> {
        (mode != ScanAnswers::Off).then(|| {
            Arc::new(AnswerScan {
                anonymizer,
                tenant: tenant.to_owned(),
                session: session.map(str::to_owned),
                options: options.clone(),
                mode,
                restorer,
                found: Mutex::default(),
                failures: AtomicU64::new(0),
            })
        })
    }

    pub fn mode(&self) -> ScanAnswers {
        self.mode
    }

    /// Entities found in the answer so far, by label (anonymized, or only counted).
    pub fn found(&self) -> BTreeMap<&'static str, u64> {
        self.found.lock().map(|f| f.clone()).unwrap_or_default()
    }

    /// Texts that could not be scanned (withheld, or failed the answer).
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Restored texts of one answer, scanned as one batch.
    ///
    /// # Errors
    /// [`Unscanned`] when detection fails (never in monitor mode, which changes nothing).
    pub fn texts(&self, texts: Vec<String>) -> Result<Vec<String>, Unscanned> {
        if texts.iter().all(|t| t.trim().is_empty()) {
            return Ok(texts);
        }
        let kept: Vec<Vec<Range<usize>>> = texts
            .iter()
            .map(|t| self.restorer.originals_in(t))
            .collect();
        let detections = match self.anonymizer.detect_besides(&texts, &kept, &self.options) {
            Ok(d) => d,
            Err(_) => return self.failed(texts),
        };
        if self.mode == ScanAnswers::Monitor || detections.iter().all(Vec::is_empty) {
            self.count(detections.iter().flatten());
            return Ok(texts);
        }
        self.replace(&texts, &detections)
    }

    /// Replaces `detections` (already filtered) in `texts`, counting them.
    fn replace(
        &self,
        texts: &[String],
        detections: &[Vec<Detection>],
    ) -> Result<Vec<String>, Unscanned> {
        // Without the session (none, or out of reach) the request's own placeholders
        // are in no memory: they must not be handed out again.
        let with_taken = || {
            let mut seen = texts.to_vec();
            seen.extend_from_slice(self.restorer.replacements());
            seen
        };
        let tenant_only = Scope::tenant(&self.tenant);
        let replace = |scope: &Scope<'_>, seen: &[String]| {
            self.anonymizer
                .replace_detected(scope, texts, &[], detections, seen, &self.options)
        };
        let result = match self.session.as_deref() {
            Some(session) => {
                let scope = Scope {
                    tenant: &self.tenant,
                    session: Some(session),
                };
                match replace(&scope, texts) {
                    // Nothing leaks without the session; the placeholders are only
                    // not remembered for later turns.
                    Err(AnonymizeError::SessionStoreUnavailable | AnonymizeError::SessionFull) => {
                        replace(&tenant_only, &with_taken())
                    }
                    other => other,
                }
            }
            None => replace(&tenant_only, &with_taken()),
        };
        match result {
            Ok(done) => {
                self.count(detections.iter().flatten());
                Ok(done.texts)
            }
            Err(_) => self.failed(texts.to_vec()),
        }
    }

    fn failed(&self, texts: Vec<String>) -> Result<Vec<String>, Unscanned> {
        self.failures.fetch_add(1, Ordering::Relaxed);
        match self.mode {
            ScanAnswers::Monitor => Ok(texts),
            _ => Err(Unscanned),
        }
    }

    fn count<'a>(&self, detections: impl Iterator<Item = &'a Detection>) {
        if let Ok(mut found) = self.found.lock() {
            for d in detections {
                *found.entry(d.label.as_str()).or_insert(0) += 1;
            }
        }
    }

    /// `inner`'s restored fragments, scanned as they stream.
    pub fn stream(self: &Arc<Self>, inner: Box<dyn TextStream>) -> Box<dyn TextStream> {
        Box::new(ScanStream {
            inner,
            scan: Arc::clone(self),
            context: String::new(),
            held: String::new(),
            batch: FIRST_BATCH,
        })
    }

    /// Scans `context + held`, releasing `held` up to a cut that splits no entity
    /// (all of it with `end`). Returns what goes out and the rest still held.
    fn release(&self, context: &str, held: &str, end: bool) -> Result<(String, usize), Unscanned> {
        let text = format!("{context}{held}");
        let offset = context.len();
        let mut kept = self.restorer.originals_in(&text);
        kept.push(0..offset);
        let texts = [text];
        let mut detections = match self
            .anonymizer
            .detect_besides(&texts, &[kept], &self.options)
        {
            Ok(mut d) => d.pop().unwrap_or_default(),
            Err(_) => return self.failed(Vec::new()).map(|_| (String::new(), held.len())),
        };
        let [text] = texts;
        let mut cut = if end {
            text.len()
        } else {
            let limit = text.len().saturating_sub(LOOKBACK);
            // At a space, so a word being written is not split; never into a char.
            text[..limit]
                .rfind(char::is_whitespace)
                .map_or(offset, |i| i + 1)
        };
        // Never through an entity: move the cut to its start.
        while let Some(d) = detections
            .iter()
            .find(|d| d.span.start < cut && d.span.end > cut)
        {
            cut = d.span.start;
        }
        if cut <= offset {
            return Ok((String::new(), 0));
        }
        detections.retain(|d| d.span.end <= cut);
        if self.mode == ScanAnswers::Monitor || detections.is_empty() {
            self.count(detections.iter());
            return Ok((text[offset..cut].to_owned(), cut - offset));
        }
        let out = self.replace(&[text[..cut].to_owned()], &[detections])?;
        let released = out.into_iter().next().unwrap_or_default();
        Ok((released[offset..].to_owned(), cut - offset))
    }
}

/// One streamed text field, restored by `inner`, then scanned.
struct ScanStream {
    inner: Box<dyn TextStream>,
    scan: Arc<AnswerScan>,
    /// The end of what went out (as restored), for the next scan's context.
    context: String,
    /// Restored text not sent yet; in monitor mode, a copy of what was sent.
    held: String,
    batch: usize,
}

impl ScanStream {
    fn release(&mut self, end: bool) -> String {
        let (out, used) = match self.scan.release(&self.context, &self.held, end) {
            Ok(done) => done,
            // Withheld: what could not be scanned does not go out.
            Err(Unscanned) => (String::new(), self.held.len()),
        };
        self.context.push_str(&self.held[..used]);
        self.held.drain(..used);
        if self.context.len() > CONTEXT {
            let mut from = self.context.len() - CONTEXT;
            while !self.context.is_char_boundary(from) {
                from += 1;
            }
            self.context.drain(..from);
        }
        self.batch = (self.batch * 2).min(MAX_BATCH);
        out
    }
}

impl TextStream for ScanStream {
    fn push(&mut self, chunk: &str) -> String {
        let restored = self.inner.push(chunk);
        if self.scan.mode == ScanAnswers::Monitor {
            if self.held.len() < MONITOR_LIMIT {
                self.held.push_str(&restored);
            }
            return restored;
        }
        self.held.push_str(&restored);
        if self.held.len() < LOOKBACK + self.batch {
            return String::new();
        }
        self.release(false)
    }

    fn flush(&mut self) -> String {
        let restored = self.inner.flush();
        if self.scan.mode == ScanAnswers::Monitor {
            self.held.push_str(&restored);
            let _ = self.scan.texts(vec![std::mem::take(&mut self.held)]);
            return restored;
        }
        self.held.push_str(&restored);
        self.release(true)
    }
}

#[cfg(test)]
mod tests;
