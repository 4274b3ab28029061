//! Long texts → overlapping token windows the model can take, and the windows' per-token
//! results → one result per token of the text.
//!
//! Windows overlap so that every token is seen with some context on both sides. Each
//! token's result is taken from exactly one window (the one it is further from the
//! edge of), so an entity in an overlap is decoded once, never twice.
//!
//! Worked example, 10 tokens, `budget` 6, `overlap` 2 (no multi-token words):
//!
//! ```text
//! tokens   0 1 2 3 4 5 6 7 8 9
//! window A [0 . . . . 6)            owns [0, 5)
//! window B         [4 . . . . 10)   owns [5, 10)
//! ```
//!
//! The overlap `[4, 6)` is split at its middle, 5. A window never starts inside a word
//! when it can help it, and the split point also moves to a word start.

use super::model::TokenClass;

/// A slice `[start, end)` of a text's tokens, of which `[own_start, own_end)` are
/// decoded from this window's results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: usize,
    pub end: usize,
    pub own_start: usize,
    pub own_end: usize,
}

/// Plans windows of at most `budget` tokens over tokens whose word ids are `words`.
/// `overlap` is clamped below `budget`. No tokens → no windows.
pub fn plan(words: &[u32], budget: usize, overlap: usize) -> Vec<Window> {
    let count = words.len();
    let budget = budget.max(1);
    let overlap = overlap.min(budget - 1);
    let mut windows: Vec<Window> = Vec::new();
    let mut start = 0;
    while start < count {
        let end = (start + budget).min(count);
        windows.push(Window {
            start,
            end,
            own_start: start,
            own_end: end,
        });
        if end == count {
            break;
        }
        let mut next = end - overlap;
        // Back to the start of the word there, but always forward of `start`.
        while next - 1 > start && words[next] == words[next - 1] {
            next -= 1;
        }
        start = next.max(start + 1);
    }
    for i in 1..windows.len() {
        let (left, right) = (windows[i - 1], windows[i]);
        // The overlap is [right.start, left.end); split it in the middle, at a word start.
        let mut split = (right.start + left.end) / 2;
        while split > right.start && words[split] == words[split - 1] {
            split -= 1;
        }
        // Never before what the left window already owns (possible only when a long
        // word pulled window starts back by more than half a window).
        let split = split.max(left.own_start);
        windows[i - 1].own_end = split;
        windows[i].own_start = split;
    }
    windows
}

/// Stitches per-window results (`results[w]` holds `windows[w].end - windows[w].start`
/// entries) into one entry per token.
pub fn stitch(windows: &[Window], results: &[Vec<TokenClass>], count: usize) -> Vec<TokenClass> {
    let mut merged = Vec::with_capacity(count);
    for (window, result) in windows.iter().zip(results) {
        let from = window.own_start - window.start;
        let to = window.own_end - window.start;
        merged.extend_from_slice(result.get(from..to).unwrap_or(&[]));
    }
    // Only a short model result could leave a gap; pad as "outside, no confidence".
    merged.resize(count, (0, 0.0));
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn each_word_one_token(n: usize) -> Vec<u32> {
        (0..n as u32).collect()
    }

    #[test]
    fn a_short_text_is_one_window() {
        let w = plan(&each_word_one_token(5), 8, 2);
        assert_eq!(
            w,
            [Window {
                start: 0,
                end: 5,
                own_start: 0,
                own_end: 5
            }]
        );
        assert!(plan(&[], 8, 2).is_empty());
    }

    #[test]
    fn the_worked_example_of_the_module_doc() {
        let w = plan(&each_word_one_token(10), 6, 2);
        assert_eq!(
            w,
            [
                Window {
                    start: 0,
                    end: 6,
                    own_start: 0,
                    own_end: 5
                },
                Window {
                    start: 4,
                    end: 10,
                    own_start: 5,
                    own_end: 10
                },
            ]
        );
    }

    #[test]
    fn windows_start_at_word_starts_and_ownership_covers_every_token_once() {
        // Words of 3 tokens each: 0 0 0 1 1 1 2 2 2 …
        let words: Vec<u32> = (0..100u32).map(|i| i / 3).collect();
        for (budget, overlap) in [(10, 3), (7, 2), (16, 8), (4, 3), (1, 0), (2, 5)] {
            let windows = plan(&words, budget, overlap);
            let mut owned = 0;
            for (i, w) in windows.iter().enumerate() {
                assert!(w.end - w.start <= budget, "{budget}/{overlap}: {w:?}");
                assert!(w.start <= w.own_start && w.own_end <= w.end);
                assert_eq!(w.own_start, owned, "{budget}/{overlap}: gap before {i}");
                owned = w.own_end;
                if i > 0 && budget >= overlap + 6 {
                    assert_ne!(words[w.start], words[w.start - 1], "{w:?} starts mid-word");
                }
            }
            assert_eq!(owned, words.len());
        }
    }

    #[test]
    fn stitching_takes_each_token_from_its_owner() {
        let windows = plan(&each_word_one_token(10), 6, 2);
        let a: Vec<TokenClass> = (0..6).map(|i| (1, i as f32)).collect();
        let b: Vec<TokenClass> = (4..10).map(|i| (2, i as f32)).collect();
        let merged = stitch(&windows, &[a, b], 10);
        let classes: Vec<u16> = merged.iter().map(|t| t.0).collect();
        assert_eq!(classes, [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
        let positions: Vec<f32> = merged.iter().map(|t| t.1).collect();
        assert_eq!(positions, [0., 1., 2., 3., 4., 5., 6., 7., 8., 9.]);
    }
}
