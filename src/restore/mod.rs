//! Restoring original text: every occurrence of a replacement is swapped back for its
//! original, leftmost-longest (so `[PERSON_10]` is never read as `[PERSON_1]` + `0]`),
//! in a single pass (restored text is never scanned again). Besides the map, `ENCRYPT`
//! tokens `[LABEL:payload]` are opened by a [`TokenOpener`], and in
//! [`MatchMode::Lenient`] the forms LLMs mangle placeholders into are restored too.
//!
//! Whole texts and streams share one scanner ([`Restorer::step`]); `stream` feeds it
//! chunks. Knows nothing about how replacements were made, keys or sessions.

pub mod stream;

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use aho_corasick::{AhoCorasick, Input, MatchKind};
use regex::Regex;

use crate::text::Label;

/// One `entities_map` entry: `anonymized` is replaced by `original`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapEntry {
    pub original: String,
    pub anonymized: String,
}

/// Why a map cannot be used; `index` points into the caller's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapError {
    kind: MapErrorKind,
    index: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapErrorKind {
    /// An entry whose replacement is empty.
    EmptyReplacement,
    /// Two entries with the same replacement but different originals.
    Ambiguous,
    /// The map exceeds the matcher's size limits.
    TooLarge,
}

impl MapError {
    pub fn kind(&self) -> MapErrorKind {
        self.kind
    }

    pub fn index(&self) -> usize {
        self.index
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            MapErrorKind::EmptyReplacement => {
                write!(f, "entry {} has an empty replacement", self.index)
            }
            MapErrorKind::Ambiguous => write!(
                f,
                "entry {} repeats a replacement with a different original",
                self.index
            ),
            MapErrorKind::TooLarge => f.write_str("the map is too large"),
        }
    }
}

impl std::error::Error for MapError {}

/// How map entries are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatchMode {
    /// Byte-exact occurrences only.
    #[default]
    Exact,
    /// Also placeholders mangled by an LLM: other case (`[person_1]`), no brackets
    /// (`PERSON_1`, then only as a whole word), spaces (`[PERSON 1]`, `[EMAIL ADDRESS 2]`).
    Lenient,
}

/// Opens `[LABEL:payload]` tokens (the `ENCRYPT` method) without any map.
pub trait TokenOpener: Send + Sync {
    /// The original text, or `None` when the token does not authenticate.
    fn open(&self, label: &str, payload: &str) -> Option<String>;
    /// Longest payload worth trying; bounds what a stream holds back.
    fn max_payload_len(&self) -> usize;
}

/// One candidate replacement found by the scanner.
#[derive(Debug, Clone)]
struct Found {
    start: usize,
    end: usize,
    /// Tie-break between matchers at one start: lower wins (exact, token, lenient).
    rank: u8,
    replacement: Replacement,
}

#[derive(Debug, Clone)]
enum Replacement {
    Original(usize),
    Opened(String),
}

/// Sorted patterns, for "could this tail still become a match?" questions.
struct Prefixes {
    sorted: Vec<String>,
    max_len: usize,
}

impl Prefixes {
    fn new(mut sorted: Vec<String>) -> Self {
        sorted.sort();
        sorted.dedup();
        let max_len = sorted.iter().map(String::len).max().unwrap_or(0);
        Self { sorted, max_len }
    }

    /// Whether some pattern is longer than `tail` and starts with it.
    fn extends(&self, tail: &str) -> bool {
        let at = self.sorted.partition_point(|p| p.as_str() < tail);
        self.sorted[at..]
            .iter()
            .take_while(|p| p.starts_with(tail))
            .any(|p| p.len() > tail.len())
    }

    fn contains(&self, tail: &str) -> bool {
        self.sorted
            .binary_search_by(|p| p.as_str().cmp(tail))
            .is_ok()
    }
}

struct Lenient {
    matcher: AhoCorasick,
    /// Per pattern: the original's index and whether it must stand as a whole word.
    targets: Vec<(usize, bool)>,
    /// Lower-cased patterns, and those needing a word boundary after them.
    prefixes: Prefixes,
    bare: Prefixes,
}

/// A compiled entity map, with an optional token opener.
pub struct Restorer {
    exact: Option<AhoCorasick>,
    exact_prefixes: Prefixes,
    originals: Vec<String>,
    lenient: Option<Lenient>,
    opener: Option<Arc<dyn TokenOpener>>,
    failed_tokens: AtomicU64,
}

impl fmt::Debug for Restorer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Restorer")
            .field("entries", &self.originals.len())
            .field("lenient", &self.lenient.is_some())
            .field("opener", &self.opener.is_some())
            .finish()
    }
}

fn token_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Built-in literal pattern; a failure is a bug every test shows.
    RE.get_or_init(|| Regex::new(r"\[([A-Z][A-Z0-9_]*):([A-Za-z0-9_-]+)\]").expect("valid regex"))
}

fn build(patterns: &[String], case_insensitive: bool) -> Result<AhoCorasick, MapError> {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .ascii_case_insensitive(case_insensitive)
        .build(patterns)
        .map_err(|_| MapError {
            kind: MapErrorKind::TooLarge,
            index: 0,
        })
}

/// The lenient spellings of a placeholder `[LABEL_ID]` (lower-cased), each with whether
/// it needs a word boundary; empty when `anonymized` is not placeholder-shaped.
fn lenient_forms(anonymized: &str) -> Vec<(String, bool)> {
    let Some(inner) = anonymized
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
    else {
        return Vec::new();
    };
    let Some((label, id)) = inner.rsplit_once('_') else {
        return Vec::new();
    };
    let label_ok = label.starts_with(|c: char| c.is_ascii_uppercase())
        && label
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let id_ok = !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric());
    if !label_ok || !id_ok {
        return Vec::new();
    }
    let label = label.to_ascii_lowercase();
    let id = id.to_ascii_lowercase();
    let spaced = label.replace('_', " ");
    let mut forms = Vec::with_capacity(5);
    for l in [&label, &spaced] {
        for sep in ['_', ' '] {
            let form = format!("[{l}{sep}{id}]");
            if !forms.iter().any(|(f, _)| f == &form) {
                forms.push((form, false));
            }
        }
    }
    forms.push((format!("{label}_{id}"), true));
    forms
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Restorer {
    /// # Errors
    /// An empty replacement, or one replacement mapped to two different originals.
    pub fn new(entries: &[MapEntry], mode: MatchMode) -> Result<Self, MapError> {
        let mut seen: HashMap<&str, &str> = HashMap::with_capacity(entries.len());
        let mut patterns = Vec::with_capacity(entries.len());
        let mut originals = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            if entry.anonymized.is_empty() {
                return Err(MapError {
                    kind: MapErrorKind::EmptyReplacement,
                    index,
                });
            }
            match seen.get(entry.anonymized.as_str()) {
                Some(original) if *original != entry.original => {
                    return Err(MapError {
                        kind: MapErrorKind::Ambiguous,
                        index,
                    })
                }
                Some(_) => continue,
                None => {
                    seen.insert(&entry.anonymized, &entry.original);
                    patterns.push(entry.anonymized.clone());
                    originals.push(entry.original.clone());
                }
            }
        }
        let exact = match patterns.is_empty() {
            true => None,
            false => Some(build(&patterns, false)?),
        };
        let lenient = match mode {
            MatchMode::Exact => None,
            MatchMode::Lenient => {
                let mut forms: HashMap<String, (usize, bool)> = HashMap::new();
                for (i, p) in patterns.iter().enumerate() {
                    for (form, bare) in lenient_forms(p) {
                        forms.entry(form).or_insert((i, bare));
                    }
                }
                let mut lenient_patterns = Vec::with_capacity(forms.len());
                let mut targets = Vec::with_capacity(forms.len());
                let mut bare = Vec::new();
                for (form, (i, needs_boundary)) in forms {
                    if needs_boundary {
                        bare.push(form.clone());
                    }
                    lenient_patterns.push(form);
                    targets.push((i, needs_boundary));
                }
                match lenient_patterns.is_empty() {
                    true => None,
                    false => Some(Lenient {
                        matcher: build(&lenient_patterns, true)?,
                        targets,
                        prefixes: Prefixes::new(lenient_patterns),
                        bare: Prefixes::new(bare),
                    }),
                }
            }
        };
        Ok(Self {
            exact,
            exact_prefixes: Prefixes::new(patterns),
            originals,
            lenient,
            opener: None,
            failed_tokens: AtomicU64::new(0),
        })
    }

    /// Also opens `[LABEL:payload]` tokens with `opener`, wherever they are found.
    pub fn with_opener(mut self, opener: Arc<dyn TokenOpener>) -> Self {
        self.opener = Some(opener);
        self
    }

    /// Tokens that looked like ours but did not open, since this restorer was built.
    pub fn failed_tokens(&self) -> u64 {
        self.failed_tokens.load(Ordering::Relaxed)
    }

    /// `text` with every replacement restored.
    pub fn restore(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.step(text, None, true, &mut out);
        out
    }

    /// Restores the longest prefix of `buf` that no later text can change, appending it
    /// to `out`, and returns its length in bytes; the rest must be fed again with more
    /// text. With `eof` everything is final. `prev` is the character before `buf`.
    ///
    /// Why holding back the earliest "live" tail is enough: a match starting before it
    /// is already complete (its start cannot begin a longer pattern), and leftmost-
    /// longest only ever looks at the leftmost start. Example with `[PERSON_1]` and
    /// `[PERSON_10]` in the map: `"hi [PERSON_1"` releases `"hi "` and holds
    /// `"[PERSON_1"`; then `"0] x"` arrives and `"[PERSON_10] x"` restores as a whole.
    pub(crate) fn step(&self, buf: &str, prev: Option<char>, eof: bool, out: &mut String) -> usize {
        let mut pos = 0;
        let mut hold = if eof {
            buf.len()
        } else {
            self.hold_from(buf, 0)
        };
        let mut exact: Option<Option<Found>> = None;
        let mut lenient: Option<Option<Found>> = None;
        let mut token: Option<Option<Found>> = None;
        // Failed tokens before this offset are already counted.
        let mut counted_to = 0;
        loop {
            for cache in [&mut exact, &mut lenient, &mut token] {
                if matches!(cache, Some(Some(f)) if f.start < pos) {
                    *cache = None;
                }
            }
            if exact.is_none() {
                exact = Some(self.next_exact(buf, pos, hold));
            }
            if lenient.is_none() {
                lenient = Some(self.next_lenient(buf, pos, hold, prev, eof));
            }
            if token.is_none() {
                token = Some(self.next_token(buf, pos, hold, &mut counted_to));
            }
            let best = [&exact, &lenient, &token]
                .into_iter()
                .filter_map(|c| c.as_ref().and_then(Option::as_ref))
                .min_by(|a, b| {
                    a.start
                        .cmp(&b.start)
                        .then(b.end.cmp(&a.end))
                        .then(a.rank.cmp(&b.rank))
                })
                .cloned();
            let Some(found) = best else { break };
            out.push_str(&buf[pos..found.start]);
            match &found.replacement {
                Replacement::Original(i) => out.push_str(&self.originals[*i]),
                Replacement::Opened(text) => out.push_str(text),
            }
            pos = found.end;
            if pos > hold {
                // The match ran past the old hold: what is still live starts later.
                hold = self.hold_from(buf, pos);
                exact = None;
                lenient = None;
                token = None;
            }
        }
        let end = hold.max(pos);
        out.push_str(&buf[pos..end]);
        end
    }

    fn next_exact(&self, buf: &str, from: usize, hold: usize) -> Option<Found> {
        let m = self
            .exact
            .as_ref()?
            .find(Input::new(buf).span(from..buf.len()))?;
        (m.start() < hold).then(|| Found {
            start: m.start(),
            end: m.end(),
            rank: 0,
            replacement: Replacement::Original(m.pattern().as_usize()),
        })
    }

    fn next_lenient(
        &self,
        buf: &str,
        mut from: usize,
        hold: usize,
        prev: Option<char>,
        eof: bool,
    ) -> Option<Found> {
        let lenient = self.lenient.as_ref()?;
        loop {
            let m = lenient
                .matcher
                .find(Input::new(buf).span(from..buf.len()))?;
            if m.start() >= hold {
                return None;
            }
            let (original, needs_boundary) = lenient.targets[m.pattern().as_usize()];
            let before = match m.start() {
                0 => prev,
                s => buf[..s].chars().next_back(),
            };
            let after = buf[m.end()..].chars().next();
            let bounded = !before.is_some_and(is_word)
                && (after.is_some() || eof)
                && !after.is_some_and(is_word);
            if !needs_boundary || bounded {
                return Some(Found {
                    start: m.start(),
                    end: m.end(),
                    rank: 2,
                    replacement: Replacement::Original(original),
                });
            }
            from = m.start() + buf[m.start()..].chars().next().map_or(1, char::len_utf8);
        }
    }

    fn next_token(
        &self,
        buf: &str,
        mut from: usize,
        hold: usize,
        counted_to: &mut usize,
    ) -> Option<Found> {
        let opener = self.opener.as_ref()?;
        loop {
            let caps = token_regex().captures_at(buf, from)?;
            let (whole, label, payload) = (caps.get(0)?, caps.get(1)?, caps.get(2)?);
            if whole.start() >= hold {
                return None;
            }
            from = whole.start() + 1;
            // Only tokens naming one of our labels are ours; `[TODO:x]` is just text.
            if Label::parse(label.as_str()).is_none_or(|l| l.as_str() != label.as_str()) {
                continue;
            }
            match opener.open(label.as_str(), payload.as_str()) {
                Some(text) => {
                    return Some(Found {
                        start: whole.start(),
                        end: whole.end(),
                        rank: 1,
                        replacement: Replacement::Opened(text),
                    })
                }
                None if whole.start() >= *counted_to => {
                    *counted_to = whole.start() + 1;
                    self.failed_tokens.fetch_add(1, Ordering::Relaxed);
                }
                None => {}
            }
        }
    }

    /// The earliest offset `>= from` whose tail could still grow into a match once more
    /// text arrives; `buf.len()` when there is none.
    fn hold_from(&self, buf: &str, from: usize) -> usize {
        let mut hold = buf.len();
        if let Some(opener) = &self.opener {
            // Token characters never include `[`, so only the last `[` can start a
            // token that is still open.
            if let Some(at) = buf[from..].rfind('[').map(|i| from + i) {
                let tail = &buf[at..];
                if tail.len() <= opener.max_payload_len() + 64 && token_prefix(tail) {
                    hold = at;
                }
            }
        }
        let mut longest = self.exact_prefixes.max_len;
        if let Some(l) = &self.lenient {
            longest = longest.max(l.prefixes.max_len);
        }
        let window_start = buf.len().saturating_sub(longest).max(from);
        for q in window_start..hold {
            if !buf.is_char_boundary(q) {
                continue;
            }
            let tail = &buf[q..];
            if self.exact_prefixes.extends(tail) {
                return q;
            }
            if let Some(l) = &self.lenient {
                let lower = tail.to_ascii_lowercase();
                if l.prefixes.extends(&lower) || l.bare.contains(&lower) {
                    return q;
                }
            }
        }
        hold
    }
}

/// Whether `tail` (starting with `[`) is a prefix of `[LABEL:payload]`.
fn token_prefix(tail: &str) -> bool {
    let mut chars = tail.chars();
    if chars.next() != Some('[') {
        return false;
    }
    let rest = chars.as_str();
    let (label, payload) = match rest.split_once(':') {
        Some((l, p)) => (l, Some(p)),
        None => (rest, None),
    };
    let label_ok = label
        .chars()
        .enumerate()
        .all(|(i, c)| c.is_ascii_uppercase() || (i > 0 && (c.is_ascii_digit() || c == '_')));
    let payload_ok = payload.is_none_or(|p| {
        !label.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    });
    label_ok && payload_ok
}

#[cfg(test)]
mod tests;
