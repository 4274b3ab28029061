//! Answer scanning: personal data an answer brings that its request did not (a name a
//! tool looked up, an address the model made up), found after our own placeholders are
//! restored, and anonymized (`scan_answers: anonymize`) or only counted (`monitor`).
//! The values a restorer put back, and every other occurrence of them, are the caller's
//! own and are never touched.
//!
//! Whole texts are scanned as one batch. A streamed text is held back only as far as
//! an entity still being written could reach: the word being written and the words
//! before it that could belong to an entity (capitalised, with digits, `@`, `+` or
//! letters without case), at most [`MAX_HOLD`] bytes, and never through an entity the
//! scan found. The first words go out as soon as they are safe; after that text is
//! released once a batch is safe: [`BATCH`] bytes while the stream is slow (a reader
//! waits for each word), doubling up to [`MAX_BATCH`] while releases follow each other
//! within [`QUICK`] (text arrives faster than it is read, and each scan costs a model
//! pass), so a long answer costs a handful of scans.
//! Monitor mode changes nothing and delays nothing: it keeps a copy of the answer's
//! texts (up to [`MONITOR_LIMIT`] bytes) and scans them when the exchange is reported,
//! after the answer went out.

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

/// The most a streamed text is held back while its end could still be an entity
/// (a long run of capitalised words, or text without spaces): past it, all but the
/// last [`LOOKBACK`] bytes go.
pub const MAX_HOLD: usize = 256;
/// What stays held when [`MAX_HOLD`] forces a release.
pub const LOOKBACK: usize = 48;
/// After the first release, text goes once this many bytes are safe to send…
pub const BATCH: usize = 64;
/// …or up to this many, doubling, while releases come quicker than [`QUICK`].
pub const MAX_BATCH: usize = 1024;
pub const QUICK: std::time::Duration = std::time::Duration::from_millis(50);
/// Bytes of text already sent that a streamed scan sees before the held text.
const CONTEXT: usize = 64;
/// What monitor mode keeps of an answer's texts to scan once it went out.
pub const MONITOR_LIMIT: usize = 256 * 1024;

/// The scanner of one exchange's answer.
pub struct AnswerScan {
    anonymizer: Arc<Anonymizer>,
    tenant: String,
    session: Option<String>,
    options: Options,
    mode: ScanAnswers,
    /// What restores this answer: its originals are left alone.
    restorer: Mutex<Arc<Restorer>>,
    found: Mutex<BTreeMap<&'static str, u64>>,
    failures: AtomicU64,
    /// Monitor mode: texts kept to scan once the answer went out.
    deferred: Mutex<(Vec<String>, usize)>,
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
                restorer: Mutex::new(restorer),
                found: Mutex::default(),
                failures: AtomicU64::new(0),
                deferred: Mutex::default(),
            })
        })
    }

    /// The answer's restorer was read again (a session's map grew while it streamed).
    pub fn set_restorer(&self, restorer: Arc<Restorer>) {
        if let Ok(mut r) = self.restorer.lock() {
            *r = restorer;
        }
    }

    fn restorer(&self) -> Arc<Restorer> {
        self.restorer
            .lock()
            .map(|r| Arc::clone(&r))
            .unwrap_or_else(|_| Arc::new(Restorer::empty()))
    }

    /// Entities found in the answer, by label (anonymized, or only counted): in monitor
    /// mode the kept texts are scanned now.
    pub fn found(&self) -> BTreeMap<&'static str, u64> {
        let kept = self
            .deferred
            .lock()
            .map(|mut d| std::mem::take(&mut d.0))
            .unwrap_or_default();
        if !kept.is_empty() {
            let ours: Vec<Vec<Range<usize>>> = kept
                .iter()
                .map(|t| self.restorer().originals_in(t))
                .collect();
            match self.anonymizer.detect_besides(&kept, &ours, &self.options) {
                Ok(found) => self.count(found.iter().flatten()),
                Err(_) => {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        self.found.lock().map(|f| f.clone()).unwrap_or_default()
    }

    /// Monitor mode: keeps `text` to scan once the answer went out.
    fn defer(&self, text: &str) {
        if let Ok(mut d) = self.deferred.lock() {
            if d.1 + text.len() <= MONITOR_LIMIT && !text.trim().is_empty() {
                d.1 += text.len();
                d.0.push(text.to_owned());
            }
        }
    }

    /// Texts that could not be scanned (withheld, or failed the answer).
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Restored texts of one answer, scanned as one batch.
    ///
    /// # Errors
    /// [`Unscanned`] when detection fails (never in monitor mode, which changes nothing
    /// and scans later, see [`AnswerScan::found`]).
    pub fn texts(&self, texts: Vec<String>) -> Result<Vec<String>, Unscanned> {
        if texts.iter().all(|t| t.trim().is_empty()) {
            return Ok(texts);
        }
        if self.mode == ScanAnswers::Monitor {
            for text in &texts {
                self.defer(text);
            }
            return Ok(texts);
        }
        let kept: Vec<Vec<Range<usize>>> = texts
            .iter()
            .map(|t| self.restorer().originals_in(t))
            .collect();
        let detections = match self.anonymizer.detect_besides(&texts, &kept, &self.options) {
            Ok(d) => d,
            Err(_) => return self.failed(),
        };
        if detections.iter().all(Vec::is_empty) {
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
            seen.extend_from_slice(self.restorer().replacements());
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
            Err(_) => self.failed(),
        }
    }

    /// Counts a text that could not be scanned: it must not go out.
    fn failed<T>(&self) -> Result<T, Unscanned> {
        self.failures.fetch_add(1, Ordering::Relaxed);
        Err(Unscanned)
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
            released: None,
            batch: BATCH,
        })
    }

    /// Scans `context + held`, releasing `held` up to `safe` bytes (all of it with
    /// `end`), moved back to the start of any entity the cut would split. Returns what
    /// goes out and how many bytes of `held` it used.
    fn release(
        &self,
        context: &str,
        held: &str,
        safe: usize,
        end: bool,
    ) -> Result<(String, usize), Unscanned> {
        let text = format!("{context}{held}");
        let offset = context.len();
        let mut kept = self.restorer().originals_in(&text);
        kept.push(0..offset);
        let texts = [text];
        let mut detections = match self
            .anonymizer
            .detect_besides(&texts, &[kept], &self.options)
        {
            Ok(mut d) => d.pop().unwrap_or_default(),
            Err(_) => return self.failed(),
        };
        let [text] = texts;
        let mut cut = if end { text.len() } else { offset + safe };
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
        if detections.is_empty() {
            return Ok((text[offset..cut].to_owned(), cut - offset));
        }
        let out = self.replace(&[text[..cut].to_owned()], &[detections])?;
        // Nothing was replaced in the context (it was kept), so it is still a prefix.
        let released = out.into_iter().next().unwrap_or_default();
        match released.get(offset..) {
            Some(new) => Ok((new.to_owned(), cut - offset)),
            None => self.failed(),
        }
    }
}

/// How much of `held` (a streamed text's unsent end) cannot be part of an entity still
/// being written: up to the last space, less the words before it that could belong to
/// one (see the module doc). Past [`MAX_HOLD`], all but [`LOOKBACK`] bytes.
pub fn safe_prefix(held: &str) -> usize {
    let mut cut = held.rfind(char::is_whitespace).map_or(0, |i| {
        i + held[i..].chars().next().map_or(1, char::len_utf8)
    });
    // Walk back over words that could be the start of an entity.
    loop {
        let before = held[..cut].trim_end();
        let start = before.rfind(char::is_whitespace).map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
        let word = &before[start..];
        if word.is_empty() || !could_be_entity(word) {
            break;
        }
        cut = start;
    }
    if cut == 0 && held.len() > MAX_HOLD {
        let mut at = held.len() - LOOKBACK;
        while !held.is_char_boundary(at) {
            at -= 1;
        }
        return at;
    }
    cut
}

/// A word that could be part of a name, an address, a number or an identifier. The
/// pronoun `I` (and `I'm`, `I'll`…) is none: a middle initial has its period.
fn could_be_entity(word: &str) -> bool {
    if word == "I" || word.starts_with("I'") || word.starts_with("I\u{2019}") {
        return false;
    }
    word.chars().any(|c| {
        c.is_uppercase()
            || c.is_ascii_digit()
            || matches!(c, '@' | '+' | '#')
            || (c.is_alphabetic() && !c.is_lowercase() && !c.is_ascii())
    })
}

/// One streamed text field, restored by `inner`, then scanned.
struct ScanStream {
    inner: Box<dyn TextStream>,
    scan: Arc<AnswerScan>,
    /// The end of what went out (as restored), for the next scan's context.
    context: String,
    /// Restored text not sent yet; in monitor mode, a copy of what was sent.
    held: String,
    /// When text last went out (the first words go without waiting for a batch).
    released: Option<std::time::Instant>,
    /// Bytes that must be safe before the next release.
    batch: usize,
}

impl ScanStream {
    fn release(&mut self, safe: usize, end: bool) -> String {
        let (out, used) = match self.scan.release(&self.context, &self.held, safe, end) {
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
        if used > 0 {
            let now = std::time::Instant::now();
            let quick = self.released.is_some_and(|t| now.duration_since(t) < QUICK);
            self.batch = if quick {
                (self.batch * 2).min(MAX_BATCH)
            } else {
                BATCH
            };
            self.released = Some(now);
        }
        out
    }
}

impl TextStream for ScanStream {
    fn push(&mut self, chunk: &str) -> String {
        let restored = self.inner.push(chunk);
        if self.scan.mode == ScanAnswers::Monitor {
            // A copy, scanned once the answer went out.
            if self.held.len() < MONITOR_LIMIT {
                self.held.push_str(&restored);
            }
            return restored;
        }
        self.held.push_str(&restored);
        let safe = safe_prefix(&self.held);
        if safe == 0 || (self.released.is_some() && safe < self.batch) {
            return String::new();
        }
        self.release(safe, false)
    }

    fn flush(&mut self) -> String {
        let restored = self.inner.flush();
        if self.scan.mode == ScanAnswers::Monitor {
            self.held.push_str(&restored);
            self.scan.defer(&std::mem::take(&mut self.held));
            return restored;
        }
        self.held.push_str(&restored);
        let all = self.held.len();
        self.release(all, true)
    }
}

#[cfg(test)]
mod tests;
