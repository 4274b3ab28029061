//! Greetings, thanks and "please" name no one: "Xin chào", "Merhaba" or "Selamat pagi"
//! open a message in Vietnamese, Turkish or Indonesian, "Bitte" a German request, and a
//! model trained on English news reads them as names. A span that is exactly one listed greeting (`lists/greetings.txt`),
//! in any case, is dropped: "Hola Maria" and "Merhaba Ayşe" keep their names. Spans the
//! operator's deny list names are kept.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::engine::Detection;

/// Every listed greeting, lower-cased.
static GREETINGS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    crate::engine::lexicon::entries(crate::engine::lexicon::lists::GREETINGS)
        .map(str::to_lowercase)
        .collect()
});

/// Whether `detection` (in `text`) is a greeting read as a person, place or organisation.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    text.get(detection.span.start..detection.span.end)
        .is_some_and(|span| GREETINGS.contains(&span.to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lexicon::words::is_given_name;
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    #[test]
    fn a_greeting_read_as_a_name_names_no_one() {
        let text = "Xin chào, tôi muốn hỏi. MERHABA! Selamat pagi. Bitte überweisen Sie.";
        for part in ["Xin chào", "MERHABA", "Selamat pagi", "Bitte"] {
            let d = detection_at(text, part, "PERSON", Proof::None);
            assert!(crate::engine::refine::drops("greeting", text, &d), "{part}");
        }
    }

    #[test]
    fn a_name_after_a_greeting_and_listed_phrases_are_kept() {
        let text = "Merhaba Ayşe, hola from Hola Labs";
        let d = detection_at(text, "Merhaba Ayşe", "PERSON", Proof::None);
        assert!(!crate::engine::refine::drops("greeting", text, &d));
        let d = detection_at(text, "Merhaba", "PERSON", Proof::Listed);
        assert!(!crate::engine::refine::drops("greeting", text, &d));
        let d = detection_at(text, "hola", "DATE_TIME", Proof::None);
        assert!(!crate::engine::refine::drops("greeting", text, &d));
    }

    #[test]
    fn no_greeting_is_a_given_name() {
        // Given names are listed capitalised ("Maria"), greetings lower-cased.
        let capitalised = |g: &str| {
            let mut chars = g.chars();
            chars
                .next()
                .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
        };
        let clash: Vec<_> = GREETINGS
            .iter()
            .filter(|g| is_given_name(&capitalised(g)))
            .collect();
        assert!(clash.is_empty(), "{clash:?}");
    }
}
