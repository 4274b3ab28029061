//! Every word list the engine reads, each in one place: the `.txt` lists under `lists/`
//! (one entry a line, `#` comments; matched as listed or in capitals unless a reader says
//! otherwise) and the short lists of cue, title, organisation and clinical words
//! ([`words`]). Tiers and rules ask here; they hold no list of their own.

pub mod words;

/// Entries of a list: trimmed, non-empty, not comments.
pub fn entries(words: &str) -> impl Iterator<Item = &str> {
    words
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}
