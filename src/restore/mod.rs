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

use crate::text::{token, Label};

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
    /// Also placeholders mangled by an LLM: other case (`[person_1]`), spaces for
    /// underscores (`[PERSON 1]`, `[email address 2]`), no brackets (`PERSON_1`, then
    /// only as a whole word).
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
    /// Tie-break between matchers at one start and end: lower wins.
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
        sorted.sort_unstable();
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

/// What stream hold-back asks about; built on first use, since whole texts never ask.
struct StreamPrefixes {
    exact: Prefixes,
    /// Normalised bracketed lenient keys and bare lenient keys.
    lenient: Option<(Prefixes, Prefixes)>,
}

/// A bracketed pattern `[…]`: no other bracket inside, so at most one such pattern
/// starts at any `[` (the text up to the next `]`), found with a hash lookup.
fn is_bracketed(p: &str) -> bool {
    p.len() >= 2
        && p.starts_with('[')
        && p.ends_with(']')
        && !p[1..p.len() - 1].contains(['[', ']'])
}

/// Lenient key of a bracketed text (see `text::token`).
fn normalise(s: &str) -> String {
    token::lenient_key(s)
}

/// Whether `p` is a placeholder `[LABEL_id]` (`text::token`), the only entries the
/// lenient forms apply to; returns the bare form `label_id`.
fn placeholder_bare(p: &str) -> Option<String> {
    let (label, id) = token::split_placeholder(p)?;
    Some(format!("{label}{}{id}", token::ID_SEPARATOR).to_ascii_lowercase())
}

/// Pattern → original index, for patterns found by hashing.
struct Table {
    map: HashMap<String, usize>,
    max_len: usize,
}

impl Table {
    fn new(map: HashMap<String, usize>) -> Option<Self> {
        let max_len = map.keys().map(String::len).max()?;
        Some(Self { map, max_len })
    }
}

/// How a restored original is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// As it is.
    Text,
    /// Escaped as the inside of a JSON string (no quotes around it).
    JsonString,
}

impl Output {
    fn write(self, out: &mut String, original: &str) {
        match self {
            Output::Text => out.push_str(original),
            Output::JsonString => {
                let quoted = serde_json::Value::from(original).to_string();
                out.push_str(&quoted[1..quoted.len() - 1]);
            }
        }
    }
}

/// A compiled entity map, with an optional token opener.
///
/// Bracketed patterns (`[PERSON_1]`, `[PERSON_9f86d081884c]`: the common case) are
/// found by hashing the text between a `[` and the next `]`; only other patterns
/// (pseudonyms) go into an Aho-Corasick automaton. Both are leftmost-longest over the
/// union, because at most one bracketed pattern can start at any `[`. This keeps a
/// 10,000-entry map cheap to build per request.
pub struct Restorer {
    patterns: Vec<String>,
    originals: Vec<String>,
    /// Exact bracketed patterns, by hash.
    bracketed: Option<Table>,
    /// Every other exact pattern, leftmost-longest, with each pattern's original index.
    others: Option<(AhoCorasick, Vec<usize>)>,
    /// Lenient keys: normalised bracketed forms and bare `label_id` words.
    lenient: Option<(Option<Table>, Option<Table>)>,
    prefixes: OnceLock<StreamPrefixes>,
    /// Finds the originals in restored text (built on first use: answer scanning).
    finder: OnceLock<Option<AhoCorasick>>,
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

fn is_word(c: char) -> bool {
    c.is_alphabetic() || c.is_numeric() || c == '_'
}

impl Restorer {
    /// An exact-mode restorer for `entries`.
    ///
    /// # Errors
    /// An empty replacement, or one replacement mapped to two different originals.
    pub fn new(entries: &[MapEntry]) -> Result<Self, MapError> {
        Self::with_mode(entries, MatchMode::Exact)
    }

    /// A restorer with an empty map: returns texts unchanged (unless given an opener).
    pub fn empty() -> Self {
        Self {
            patterns: Vec::new(),
            originals: Vec::new(),
            bracketed: None,
            others: None,
            lenient: None,
            prefixes: OnceLock::new(),
            finder: OnceLock::new(),
            opener: None,
            failed_tokens: AtomicU64::new(0),
        }
    }

    /// # Errors
    /// An empty replacement, or one replacement mapped to two different originals.
    pub fn with_mode(entries: &[MapEntry], mode: MatchMode) -> Result<Self, MapError> {
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
        let mut bracketed = HashMap::new();
        let mut others = Vec::new();
        let mut other_ids = Vec::new();
        let mut lenient_bracketed = HashMap::new();
        let mut bare = HashMap::new();
        for (i, p) in patterns.iter().enumerate() {
            if is_bracketed(p) {
                bracketed.insert(p.clone(), i);
            } else {
                others.push(p.as_str());
                other_ids.push(i);
            }
            if mode == MatchMode::Lenient {
                if let Some(word) = placeholder_bare(p) {
                    lenient_bracketed.entry(normalise(p)).or_insert(i);
                    bare.entry(word).or_insert(i);
                }
            }
        }
        let others = match others.is_empty() {
            true => None,
            false => Some((
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&others)
                    .map_err(|_| MapError {
                        kind: MapErrorKind::TooLarge,
                        index: 0,
                    })?,
                other_ids,
            )),
        };
        let lenient = match mode {
            MatchMode::Exact => None,
            MatchMode::Lenient => Some((Table::new(lenient_bracketed), Table::new(bare))),
        };
        Ok(Self {
            patterns,
            originals,
            bracketed: Table::new(bracketed),
            others,
            lenient,
            prefixes: OnceLock::new(),
            finder: OnceLock::new(),
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
        self.step_as(buf, prev, eof, out, Output::Text)
    }

    /// The replacements this restorer knows (the request's, or the session's).
    pub fn replacements(&self) -> &[String] {
        &self.patterns
    }

    /// Where the originals this restorer puts back occur in `text` (leftmost-longest,
    /// byte ranges): what answer scanning leaves alone, since the caller sent it.
    pub fn originals_in(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        let finder = self.finder.get_or_init(|| {
            let originals: Vec<&str> = self
                .originals
                .iter()
                .map(String::as_str)
                .filter(|o| !o.is_empty())
                .collect();
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(originals)
                .ok()
        });
        finder.as_ref().map_or_else(Vec::new, |f| {
            f.find_iter(text).map(|m| m.start()..m.end()).collect()
        })
    }

    /// `text` restored as what it is: a text that is itself a JSON object or array (a
    /// tool's structured result as text, a JSON-mode answer) gets its originals escaped
    /// as JSON string content, so it stays the valid document it was; any other text
    /// gets them as they are.
    pub fn restore_text(&self, text: &str) -> String {
        let trimmed = text.trim_start();
        let document = (trimmed.starts_with('{') || trimmed.starts_with('['))
            && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
        if document {
            self.restore_json_text(text)
        } else {
            self.restore(text)
        }
    }

    /// `text` with every replacement restored as the inside of a JSON string: for
    /// placeholders inside JSON text (tool-call arguments as a string), so that an
    /// original holding `"` or `\` keeps the document valid.
    pub fn restore_json_text(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.step_as(text, None, true, &mut out, Output::JsonString);
        out
    }

    /// [`Restorer::step`], writing originals as `output` says.
    pub(crate) fn step_as(
        &self,
        buf: &str,
        prev: Option<char>,
        eof: bool,
        out: &mut String,
        output: Output,
    ) -> usize {
        let mut pos = 0;
        let mut hold = if eof {
            buf.len()
        } else {
            self.hold_from(buf, 0)
        };
        // The next candidate of each matcher, while still ahead of `pos`.
        let mut cached: [Option<Option<Found>>; 4] = [None, None, None, None];
        // Failed tokens before this offset are already counted.
        let mut counted_to = 0;
        loop {
            for (i, cache) in cached.iter_mut().enumerate() {
                if matches!(cache, Some(Some(f)) if f.start < pos) {
                    *cache = None;
                }
                if cache.is_none() {
                    *cache = Some(match i {
                        0 => self.next_bracketed(buf, pos, hold),
                        1 => self.next_other(buf, pos, hold),
                        2 => self.next_token(buf, pos, hold, &mut counted_to),
                        _ => self.next_lenient(buf, pos, hold, prev, eof),
                    });
                }
            }
            let best = cached
                .iter()
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
                Replacement::Original(i) => output.write(out, &self.originals[*i]),
                Replacement::Opened(text) => output.write(out, text),
            }
            pos = found.end;
            if pos > hold {
                // The match ran past the old hold: what is still live starts later.
                hold = self.hold_from(buf, pos);
                cached = [None, None, None, None];
            }
        }
        let end = hold.max(pos);
        out.push_str(&buf[pos..end]);
        end
    }

    /// The first `[…]` at or after `from` (and before `hold`) for which `key` finds an
    /// original; `[…]` is the text up to the next `]`, at most `max_len` bytes.
    fn scan_brackets(
        buf: &str,
        mut from: usize,
        hold: usize,
        max_len: usize,
        find: &dyn Fn(&str) -> Option<usize>,
    ) -> Option<(usize, usize, usize)> {
        let bytes = buf.as_bytes();
        while from < hold {
            let start = from + buf[from..hold].find('[')?;
            let window_end = (start + max_len).min(buf.len());
            from = start + 1;
            let Some(close) = bytes[start + 1..window_end]
                .iter()
                .position(|&b| b == b']' || b == b'[')
            else {
                continue;
            };
            let end = start + 1 + close;
            if bytes[end] == b'[' {
                continue;
            }
            if let Some(i) = find(&buf[start..=end]) {
                return Some((start, end + 1, i));
            }
        }
        None
    }

    fn next_bracketed(&self, buf: &str, from: usize, hold: usize) -> Option<Found> {
        let table = self.bracketed.as_ref()?;
        let (start, end, i) = Self::scan_brackets(buf, from, hold, table.max_len, &|s| {
            table.map.get(s).copied()
        })?;
        Some(Found {
            start,
            end,
            rank: 0,
            replacement: Replacement::Original(i),
        })
    }

    fn next_other(&self, buf: &str, from: usize, hold: usize) -> Option<Found> {
        let (ac, ids) = self.others.as_ref()?;
        let m = ac.find(Input::new(buf).span(from..buf.len()))?;
        (m.start() < hold).then(|| Found {
            start: m.start(),
            end: m.end(),
            rank: 0,
            replacement: Replacement::Original(ids[m.pattern().as_usize()]),
        })
    }

    fn next_lenient(
        &self,
        buf: &str,
        from: usize,
        hold: usize,
        prev: Option<char>,
        eof: bool,
    ) -> Option<Found> {
        let (bracketed, bare) = self.lenient.as_ref()?;
        let in_brackets = bracketed.as_ref().and_then(|table| {
            Self::scan_brackets(buf, from, hold, table.max_len, &|s| {
                table.map.get(&normalise(s)).copied()
            })
        });
        let limit = in_brackets
            .map_or(hold, |(start, _, _)| start + 1)
            .min(hold);
        let bare_word = bare.as_ref().and_then(|table| {
            let mut at = from;
            while at < limit {
                // Every bare form holds `_`: find one, then the word around it.
                let underscore = at + buf[at..limit].find('_')?;
                let start = buf[..underscore]
                    .char_indices()
                    .rev()
                    .take_while(|(_, c)| is_word(*c))
                    .last()
                    .map_or(underscore, |(i, _)| i);
                let end = buf[underscore..]
                    .char_indices()
                    .find(|(_, c)| !is_word(*c))
                    .map_or(buf.len(), |(i, _)| underscore + i);
                at = end.max(underscore + 1);
                let before = match start {
                    0 => prev,
                    s => buf[..s].chars().next_back(),
                };
                // A bare form must be a whole word, and the word must be over.
                if start < from || before.is_some_and(is_word) || (end == buf.len() && !eof) {
                    continue;
                }
                if end - start <= table.max_len {
                    if let Some(i) = table.map.get(&buf[start..end].to_ascii_lowercase()) {
                        return Some((start, end, *i));
                    }
                }
            }
            None
        });
        let (start, end, i) = match (in_brackets, bare_word) {
            (Some(b), Some(w)) if w.0 < b.0 => w,
            (Some(b), _) => b,
            (None, w) => w?,
        };
        Some(Found {
            start,
            end,
            rank: 2,
            replacement: Replacement::Original(i),
        })
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
            let caps = token::sealed_token().captures_at(buf, from)?;
            let (whole, label, payload) = (caps.get(0)?, caps.get(1)?, caps.get(2)?);
            if whole.start() >= hold {
                return None;
            }
            from = whole.start() + 1;
            // Only tokens naming one of our labels are ours; `[TODO:x]` is just text.
            if Label::known(label.as_str()).is_none_or(|l| l.as_str() != label.as_str()) {
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

    fn stream_prefixes(&self) -> &StreamPrefixes {
        self.prefixes.get_or_init(|| StreamPrefixes {
            exact: Prefixes::new(self.patterns.clone()),
            lenient: self.lenient.as_ref().map(|(bracketed, bare)| {
                let keys = |t: &Option<Table>| {
                    t.as_ref()
                        .map(|t| t.map.keys().cloned().collect())
                        .unwrap_or_default()
                };
                (Prefixes::new(keys(bracketed)), Prefixes::new(keys(bare)))
            }),
        })
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
                if tail.len() <= opener.max_payload_len() + 64 && token::is_sealed_prefix(tail) {
                    hold = at;
                }
            }
        }
        let prefixes = self.stream_prefixes();
        let mut longest = prefixes.exact.max_len;
        if let Some((bracketed, bare)) = &prefixes.lenient {
            longest = longest.max(bracketed.max_len).max(bare.max_len);
        }
        let window_start = buf.len().saturating_sub(longest).max(from);
        for q in window_start..hold {
            if !buf.is_char_boundary(q) {
                continue;
            }
            let tail = &buf[q..];
            if prefixes.exact.extends(tail) {
                return q;
            }
            if let Some((bracketed, bare)) = &prefixes.lenient {
                let lower = tail.to_ascii_lowercase();
                if bracketed.extends(&normalise(tail))
                    || bare.extends(&lower)
                    || bare.contains(&lower)
                {
                    return q;
                }
            }
        }
        hold
    }
}

#[cfg(test)]
mod tests;
