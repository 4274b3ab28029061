//! Offsets into a text. Internally everything works on UTF-8 byte offsets (`ByteSpan`),
//! what the regex and aho-corasick crates produce; the public API speaks Unicode code
//! points (`CharSpan`), which is what Python's `text[start:end]` means. [`CharIndex`] is
//! the only place that converts between the two.

use serde::Serialize;

/// A half-open range of UTF-8 byte offsets, always on char boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteSpan {
    pub start: usize,
    pub end: usize,
}

impl ByteSpan {
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end);
        Self { start, end }
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn overlaps(&self, other: &ByteSpan) -> bool {
        self.start < other.end && other.start < self.end
    }

    pub fn contains(&self, other: &ByteSpan) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// `spans` sorted by start, overlapping or touching ones merged.
    pub fn union(mut spans: Vec<ByteSpan>) -> Vec<ByteSpan> {
        spans.sort_unstable_by_key(|s| (s.start, s.end));
        let mut out: Vec<ByteSpan> = Vec::with_capacity(spans.len());
        for s in spans {
            match out.last_mut() {
                Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
                _ => out.push(s),
            }
        }
        out
    }
}

/// A half-open range of 0-based Unicode code-point offsets (end exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CharSpan {
    pub start: usize,
    pub end: usize,
}

/// Converts byte offsets of one text to code-point offsets.
///
/// ASCII texts (the common case) need no table; others get a sorted table of
/// char-start byte offsets, searched by binary search.
pub struct CharIndex {
    /// `None` when the text is ASCII, so byte offset == char offset.
    starts: Option<Vec<usize>>,
    len_bytes: usize,
}

impl CharIndex {
    pub fn new(text: &str) -> Self {
        let starts = if text.is_ascii() {
            None
        } else {
            Some(text.char_indices().map(|(i, _)| i).collect())
        };
        Self {
            starts,
            len_bytes: text.len(),
        }
    }

    /// Code-point offset of a byte offset that lies on a char boundary (or at the end).
    pub fn char_offset(&self, byte: usize) -> usize {
        match &self.starts {
            None => byte,
            Some(starts) => {
                if byte >= self.len_bytes {
                    starts.len()
                } else {
                    // Boundaries are exact matches; a non-boundary rounds down (a bug upstream).
                    match starts.binary_search(&byte) {
                        Ok(i) => i,
                        Err(i) => i.saturating_sub(1),
                    }
                }
            }
        }
    }

    pub fn char_span(&self, span: ByteSpan) -> CharSpan {
        CharSpan {
            start: self.char_offset(span.start),
            end: self.char_offset(span.end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_offsets_are_identity() {
        let idx = CharIndex::new("hello world");
        assert_eq!(
            idx.char_span(ByteSpan::new(6, 11)),
            CharSpan { start: 6, end: 11 }
        );
    }

    #[test]
    fn multibyte_offsets_count_code_points() {
        // "é" is 2 bytes, "😀" is 4 bytes, "中" is 3 bytes.
        let text = "é😀中 a@b.co";
        let idx = CharIndex::new(text);
        let start = text.find("a@").unwrap();
        assert_eq!(start, 10);
        assert_eq!(
            idx.char_span(ByteSpan::new(start, text.len())),
            CharSpan { start: 4, end: 10 }
        );
    }

    #[test]
    fn combining_marks_are_separate_code_points() {
        let text = "e\u{301}x";
        let idx = CharIndex::new(text);
        assert_eq!(idx.char_offset(text.len() - 1), 2);
        assert_eq!(idx.char_offset(text.len()), 3);
    }
}
