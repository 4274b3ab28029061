//! Restoring original text: every occurrence of a replacement is swapped back for its
//! original, leftmost-longest (so `[PERSON_10]` is never read as `[PERSON_1]` + `0]`),
//! in a single pass (restored text is never scanned again).

use std::collections::HashMap;
use std::fmt;

use aho_corasick::{AhoCorasick, MatchKind};

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

/// A compiled entity map.
pub struct Restorer {
    matcher: Option<AhoCorasick>,
    originals: Vec<String>,
    replacements: Vec<String>,
}

impl Restorer {
    /// # Errors
    /// An empty replacement, or one replacement mapped to two different originals.
    pub fn new(entries: &[MapEntry]) -> Result<Self, MapError> {
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
                    patterns.push(entry.anonymized.as_str());
                    originals.push(entry.original.clone());
                }
            }
        }
        let matcher = if patterns.is_empty() {
            None
        } else {
            Some(
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&patterns)
                    .map_err(|_| MapError {
                        kind: MapErrorKind::TooLarge,
                        index: 0,
                    })?,
            )
        };
        let replacements = patterns.iter().map(|p| (*p).to_owned()).collect();
        Ok(Self {
            matcher,
            originals,
            replacements,
        })
    }

    /// A restorer with an empty map: returns texts unchanged.
    pub fn empty() -> Self {
        Self {
            matcher: None,
            originals: Vec::new(),
            replacements: Vec::new(),
        }
    }

    /// Length of the longest suffix of `text` that is a proper prefix of a replacement
    /// (so more text could still complete it). Always on a char boundary.
    pub fn partial_suffix_len(&self, text: &str) -> usize {
        let longest = self.replacements.iter().map(String::len).max().unwrap_or(0);
        let max = longest.saturating_sub(1).min(text.len());
        for k in (1..=max).rev() {
            let start = text.len() - k;
            if !text.is_char_boundary(start) {
                continue;
            }
            let suffix = &text[start..];
            if self
                .replacements
                .iter()
                .any(|r| r.len() > k && r.starts_with(suffix))
            {
                return k;
            }
        }
        0
    }

    pub fn restore(&self, text: &str) -> String {
        match &self.matcher {
            None => text.to_owned(),
            Some(ac) => ac.replace_all(text, &self.originals),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(original: &str, anonymized: &str) -> MapEntry {
        MapEntry {
            original: original.into(),
            anonymized: anonymized.into(),
        }
    }

    #[test]
    fn leftmost_longest_single_pass() {
        let r = Restorer::new(&[
            entry("Ann", "[PERSON_1]"),
            entry("Bob", "[PERSON_10]"),
            entry("[PERSON_1]", "X"),
        ])
        .unwrap();
        assert_eq!(
            r.restore("[PERSON_10] met [PERSON_1]; X"),
            "Bob met Ann; [PERSON_1]"
        );
    }

    #[test]
    fn rejects_empty_and_ambiguous_entries() {
        let empty = Restorer::new(&[entry("a", "")]).err().unwrap();
        assert_eq!(empty.kind(), MapErrorKind::EmptyReplacement);
        let amb = Restorer::new(&[entry("a", "[X_1]"), entry("b", "[X_1]")])
            .err()
            .unwrap();
        assert_eq!((amb.kind(), amb.index()), (MapErrorKind::Ambiguous, 1));
        assert!(Restorer::new(&[entry("a", "[X_1]"), entry("a", "[X_1]")]).is_ok());
    }
}
