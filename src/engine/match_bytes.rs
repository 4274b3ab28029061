//! The bytes a regex's matches can hold, read from its NFA: where a pattern's matches
//! cannot hold a space, a match ending at some offset starts after the last byte before
//! it that no match holds. One forward pass over a token bounds the starts of every
//! match ending in it, where a reverse search from each end reads the token again for
//! each (a 40-character key ends a match at each of its last 20 characters).

use regex_automata::nfa::thompson::{self, State, WhichCaptures};
use regex_automata::util::primitives::StateID;

/// A set of bytes.
#[derive(Clone)]
pub struct MatchBytes {
    member: Box<[bool; 256]>,
}

impl MatchBytes {
    /// Every byte some match of `form` can hold (look-arounds read, not hold, theirs).
    ///
    /// # Errors
    /// When `form` does not compile.
    pub fn of(form: &str) -> Result<Self, String> {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::None))
            .build(form)
            .map_err(|e| e.to_string())?;
        let mut member = Box::new([false; 256]);
        let mut seen = vec![false; nfa.states().len()];
        // From the anchored start: the unanchored prefix (`(?s-u:.)*?`) holds every byte
        // and is no part of a match.
        let mut todo = vec![nfa.start_anchored()];
        let mut hold = |start: u8, end: u8| member[start as usize..=end as usize].fill(true);
        while let Some(id) = todo.pop() {
            if std::mem::replace(&mut seen[id.as_usize()], true) {
                continue;
            }
            match nfa.state(id) {
                State::ByteRange { trans } => {
                    hold(trans.start, trans.end);
                    todo.push(trans.next);
                }
                State::Sparse(sparse) => {
                    for t in sparse.transitions.iter() {
                        hold(t.start, t.end);
                        todo.push(t.next);
                    }
                }
                State::Dense(dense) => {
                    for (byte, &next) in (0..=255u8).zip(dense.transitions.iter()) {
                        if next != StateID::ZERO {
                            hold(byte, byte);
                            todo.push(next);
                        }
                    }
                }
                State::Look { next, .. } | State::Capture { next, .. } => todo.push(*next),
                State::Union { alternates } => todo.extend(alternates.iter().copied()),
                State::BinaryUnion { alt1, alt2 } => todo.extend([*alt1, *alt2]),
                State::Fail | State::Match { .. } => {}
            }
        }
        Ok(Self { member })
    }

    /// Whether no match holds an ASCII space, tab or line break: text is cut into
    /// tokens at least that often.
    pub fn stops_at_whitespace(&self) -> bool {
        !b" \t\r\n".iter().any(|&b| self.member[usize::from(b)])
    }

    /// For each of `ends` (ascending), the earliest offset a match ending there can
    /// start at: after the last byte before it that no match holds, on a character
    /// boundary. One pass over the haystack up to the last end.
    pub fn starts<'a>(
        &'a self,
        haystack: &'a str,
        ends: &'a [usize],
    ) -> impl Iterator<Item = usize> + 'a {
        let bytes = haystack.as_bytes();
        // Bytes before `read` are classified; the last one no match holds ends before `after`.
        let (mut read, mut after) = (0, 0);
        ends.iter().map(move |&end| {
            if end < read {
                // Not ascending: start over (never in the set's own order).
                (read, after) = (0, 0);
            }
            while read < end {
                if !self.member[usize::from(bytes[read])] {
                    after = read + 1;
                }
                read += 1;
            }
            // A match starts on a character: the first boundary at or after is no later.
            let mut start = after;
            while !haystack.is_char_boundary(start) {
                start += 1;
            }
            start
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_are_the_ones_the_match_holds_not_its_look_arounds_or_the_search_prefix() {
        let key = MatchBytes::of(r"(?-u:\b)sk-[a-z0-9]{4,}").expect("compiles");
        assert!(key.stops_at_whitespace());
        for b in b"sk-az09" {
            assert!(key.member[usize::from(*b)], "{}", *b as char);
        }
        for b in b" \"'A_.@" {
            assert!(!key.member[usize::from(*b)], "{}", *b as char);
        }
        assert!(!MatchBytes::of(r"phone:\s*[0-9]+")
            .expect("compiles")
            .stops_at_whitespace());
        // Non-ASCII classes hold their UTF-8 bytes.
        let word = MatchBytes::of(r"[é]+").expect("compiles");
        assert!(word.member[0xC3] && word.member[0xA9] && !word.member[usize::from(b'e')]);
    }

    #[test]
    fn each_end_starts_after_the_last_byte_no_match_holds() {
        let key = MatchBytes::of(r"sk-[a-z0-9]{4,}").expect("compiles");
        let text = "key \"sk-abcd1234\" and sk-zz99 é sk-qq";
        let ends = [13, 15, 16, 28, 37];
        assert_eq!(
            key.starts(text, &ends).collect::<Vec<_>>(),
            vec![5, 5, 5, 22, 33]
        );
        // Out of order: still the same starts.
        assert_eq!(key.starts(text, &[28, 13]).collect::<Vec<_>>(), vec![22, 5]);
        // After a character no match holds, the next boundary: here the byte after `é`.
        let ascii = MatchBytes::of(r"[a-z]+").expect("compiles");
        assert_eq!(ascii.starts("aéb", &[4]).collect::<Vec<_>>(), vec![3]);
        // `ũ` is C5 A9 and `é` C3 A9: a match of `é` holds the second byte of `ũ` but not
        // its first, and starts at the next character.
        let e = MatchBytes::of(r"é+").expect("compiles");
        assert_eq!(e.starts("ũé", &[4]).collect::<Vec<_>>(), vec![2]);
    }
}
