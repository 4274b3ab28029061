//! What a replacer remembers: placeholder numbers, which (method, label, text) got which
//! replacement, pseudonyms handed out, literals seen in inputs, the date shift and the
//! random source of fakes. One request owns one; a session keeps one across requests.

use std::collections::{HashMap, HashSet};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::placeholder::Numbering;
use super::Method;
use crate::text::Label;

/// Rough per-entry overhead in bytes (hash-map slots, `String` headers) added to the
/// text bytes in [`Memory::byte_size`]; an estimate, not a measurement.
const ENTRY_OVERHEAD: usize = 96;
/// Largest date shift in days, either way.
const MAX_DATE_SHIFT_DAYS: i64 = 365;

/// The memory is full: it holds its maximum number of entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryFull;

impl std::fmt::Display for MemoryFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the entity map holds its maximum number of entries")
    }
}

impl std::error::Error for MemoryFull {}

pub struct Memory {
    pub(super) numbering: Numbering,
    /// (method, label, original) → replacement.
    assigned: HashMap<(Method, Label, String), String>,
    /// replacement → original, for restoring.
    originals: HashMap<String, String>,
    /// Pseudonyms handed out, checked for containment against new ones.
    pub(super) pseudonyms: Vec<String>,
    /// Placeholder-shaped literals seen in inputs; never handed out.
    pub(super) reserved: HashSet<String>,
    pub(super) rng: StdRng,
    pub(super) date_offset_days: i64,
    /// Pseudonyms made since the request began: (label, original, replacement).
    fresh: Vec<(Label, String, String)>,
    /// Pseudonyms a retry of this request must not pick again.
    rejected: HashSet<String>,
    capacity: usize,
    bytes: usize,
    /// Counts changes to what is kept between requests ([`Memory::revision`]).
    revision: u64,
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Entity texts must never reach a log.
        f.debug_struct("Memory")
            .field("entries", &self.assigned.len())
            .field("bytes", &self.bytes)
            .finish()
    }
}

impl Default for Memory {
    fn default() -> Self {
        Self::new(usize::MAX)
    }
}

impl Memory {
    /// An empty memory that refuses to hold more than `capacity` entries.
    pub fn new(capacity: usize) -> Self {
        Self::with_rng(capacity, StdRng::from_entropy())
    }

    /// Like [`Memory::new`] with a seeded random source, for reproducible tests.
    pub fn seeded(capacity: usize, seed: u64) -> Self {
        Self::with_rng(capacity, StdRng::seed_from_u64(seed))
    }

    fn with_rng(capacity: usize, mut rng: StdRng) -> Self {
        let mut date_offset_days = rng.gen_range(-MAX_DATE_SHIFT_DAYS..MAX_DATE_SHIFT_DAYS);
        if date_offset_days >= 0 {
            date_offset_days += 1;
        }
        Self {
            numbering: Numbering::default(),
            assigned: HashMap::new(),
            originals: HashMap::new(),
            pseudonyms: Vec::new(),
            reserved: HashSet::new(),
            rng,
            date_offset_days,
            fresh: Vec::new(),
            rejected: HashSet::new(),
            capacity,
            bytes: 0,
            revision: 0,
        }
    }

    /// Entries held (one per remembered replacement).
    pub fn len(&self) -> usize {
        self.assigned.len()
    }

    pub fn is_empty(&self) -> bool {
        self.assigned.is_empty()
    }

    /// Estimated heap bytes.
    pub fn byte_size(&self) -> usize {
        self.bytes
    }

    /// The date shift of this memory's fakes, never 0.
    pub fn date_offset_days(&self) -> i64 {
        self.date_offset_days
    }

    /// `(original, replacement)` pairs, for building a restorer.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.originals
            .iter()
            .map(|(replacement, original)| (original.as_str(), replacement.as_str()))
    }

    /// Differs whenever something kept between requests may have changed since it
    /// was last asked: a shared store writes the memory back only then.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub(super) fn reserve(&mut self, literal: &str) {
        if !self.reserved.contains(literal) {
            self.revision += 1;
            self.bytes += literal.len() + ENTRY_OVERHEAD / 2;
            self.reserved.insert(literal.to_owned());
        }
    }

    pub(super) fn lookup(&self, method: Method, label: Label, original: &str) -> Option<&str> {
        // Building the key allocates; acceptable next to detection (unmeasured).
        self.assigned
            .get(&(method, label, original.to_owned()))
            .map(String::as_str)
    }

    /// Whether a replacement is in use or reserved.
    pub(super) fn is_taken(&self, replacement: &str) -> bool {
        self.originals.contains_key(replacement) || self.reserved.contains(replacement)
    }

    pub(super) fn clashes_with_replacement(&self, candidate: &str) -> bool {
        self.is_taken(candidate)
            || self.rejected.contains(candidate)
            || self
                .pseudonyms
                .iter()
                .any(|p| p.contains(candidate) || candidate.contains(p.as_str()))
    }

    /// Remembers `original → replacement`.
    ///
    /// # Errors
    /// [`MemoryFull`] at capacity; nothing is remembered then.
    pub(super) fn remember(
        &mut self,
        method: Method,
        label: Label,
        original: &str,
        replacement: &str,
    ) -> Result<(), MemoryFull> {
        if self.assigned.len() >= self.capacity {
            return Err(MemoryFull);
        }
        self.revision += 1;
        self.bytes += original.len() * 2 + replacement.len() * 2 + ENTRY_OVERHEAD;
        self.assigned
            .insert((method, label, original.to_owned()), replacement.to_owned());
        // A 48-bit HASH collision could map one token to two texts; the first one wins.
        self.originals
            .entry(replacement.to_owned())
            .or_insert_with(|| original.to_owned());
        if method == Method::Pseudonymize {
            self.pseudonyms.push(replacement.to_owned());
            self.fresh
                .push((label, original.to_owned(), replacement.to_owned()));
        }
        Ok(())
    }
}

/// What a memory keeps between requests, as serialised for a store outside the
/// process. Per-request bookkeeping (`fresh`, `rejected`) and the random source are
/// not kept: a restored memory draws fresh randomness, which changes no replacement
/// already handed out.
#[derive(serde::Serialize, serde::Deserialize)]
struct Snapshot {
    /// Format version; another one is not read.
    v: u8,
    numbering: Vec<(String, u32)>,
    /// (method, label, original, replacement).
    assigned: Vec<(String, String, String, String)>,
    /// replacement → original (kept apart: on a HASH collision the first one wins).
    originals: Vec<(String, String)>,
    pseudonyms: Vec<String>,
    reserved: Vec<String>,
    date_offset_days: i64,
    bytes: usize,
}

const SNAPSHOT_VERSION: u8 = 1;

impl Memory {
    /// The memory as bytes (JSON), for a session store outside the process, which seals
    /// them before they leave it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let snapshot = Snapshot {
            v: SNAPSHOT_VERSION,
            numbering: self
                .numbering
                .counters()
                .map(|(label, n)| (label.as_str().to_owned(), n))
                .collect(),
            assigned: self
                .assigned
                .iter()
                .map(|((method, label, original), replacement)| {
                    (
                        method.as_str().to_owned(),
                        label.as_str().to_owned(),
                        original.clone(),
                        replacement.clone(),
                    )
                })
                .collect(),
            originals: self
                .originals
                .iter()
                .map(|(r, o)| (r.clone(), o.clone()))
                .collect(),
            pseudonyms: self.pseudonyms.clone(),
            reserved: self.reserved.iter().cloned().collect(),
            date_offset_days: self.date_offset_days,
            bytes: self.bytes,
        };
        // Serialising plain strings and numbers cannot fail.
        serde_json::to_vec(&snapshot).unwrap_or_default()
    }

    /// The memory [`Memory::to_bytes`] wrote, holding at most `capacity` entries; `None`
    /// when `bytes` is not one (another version, a label or method this build lacks).
    pub fn from_bytes(bytes: &[u8], capacity: usize) -> Option<Self> {
        let s: Snapshot = serde_json::from_slice(bytes).ok()?;
        if s.v != SNAPSHOT_VERSION {
            return None;
        }
        let mut numbering = Vec::with_capacity(s.numbering.len());
        for (label, n) in s.numbering {
            numbering.push((Label::custom(&label).ok()?, n));
        }
        let mut assigned = HashMap::with_capacity(s.assigned.len());
        for (method, label, original, replacement) in s.assigned {
            let key = (
                Method::parse(&method)?,
                Label::custom(&label).ok()?,
                original,
            );
            assigned.insert(key, replacement);
        }
        let mut memory = Memory::new(capacity);
        memory.numbering = Numbering::from_counters(numbering);
        memory.assigned = assigned;
        memory.originals = s.originals.into_iter().collect();
        memory.pseudonyms = s.pseudonyms;
        memory.reserved = s.reserved.into_iter().collect();
        memory.date_offset_days = s.date_offset_days;
        memory.bytes = s.bytes;
        Some(memory)
    }
}

impl Memory {
    /// Starts a request: forgets the previous request's bookkeeping.
    pub(super) fn begin_request(&mut self) {
        self.fresh.clear();
        self.rejected.clear();
    }

    /// Forgets the pseudonyms made since the request began and never picks them again
    /// in this request.
    pub(super) fn reject_fresh(&mut self) {
        for (label, original, replacement) in std::mem::take(&mut self.fresh) {
            self.revision += 1;
            self.assigned
                .remove(&(Method::Pseudonymize, label, original.clone()));
            self.originals.remove(&replacement);
            self.pseudonyms.retain(|p| p != &replacement);
            self.bytes = self
                .bytes
                .saturating_sub(original.len() * 2 + replacement.len() * 2 + ENTRY_OVERHEAD);
            self.rejected.insert(replacement);
        }
    }

    /// The next free placeholder of `label` (not in use, not a literal of an input).
    pub(super) fn next_placeholder(&mut self, label: Label) -> String {
        self.revision += 1;
        let Memory {
            numbering,
            originals,
            reserved,
            ..
        } = self;
        numbering.next(label, |c| originals.contains_key(c) || reserved.contains(c))
    }
}
