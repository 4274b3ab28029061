//! Counting replacement tokens in text that comes back from an upstream, for the
//! "placeholders restored" and "placeholders unresolved" metrics.

use super::fault::Faults;
use crate::text::token;

/// Number of replacement tokens (`text::token`'s grammar) in `text`.
pub fn tokens(text: &str) -> u64 {
    token::any_token().find_iter(text).count() as u64
}

/// Restored and unresolved counts of one restore: tokens before and after.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub restored: u64,
    pub unresolved: u64,
    /// Answers (or streamed events) that could not be restored.
    pub faults: Faults,
}

impl Tally {
    /// Adds one restore of `before` into `after`.
    pub fn add(&mut self, before: &str, after: &str) {
        let (b, a) = (tokens(before), tokens(after));
        self.restored += b.saturating_sub(a);
        self.unresolved += a;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_token_form_and_what_a_restore_resolved() {
        assert_eq!(
            tokens("[PERSON_1] [EMAIL_ADDRESS_9f86d081884c] [PERSON:AbC-_9] [x_1] [PERSON_]"),
            3
        );
        let mut t = Tally::default();
        t.add("[PERSON_1] met [PERSON_2]", "Ann met [PERSON_2]");
        assert_eq!(
            t,
            Tally {
                restored: 1,
                unresolved: 1,
                faults: Default::default()
            }
        );
    }
}
