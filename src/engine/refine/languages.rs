//! A language is no nationality, place or people: masking the language of "Translate
//! to Spanish" or "Reply in French." takes the point out of a prompt. The nationality
//! list (`lists/nationalities.txt`) names both; the words around a hit decide, for a
//! dictionary hit and a model's span alike.

use crate::engine::{dictionary, Detection};
use crate::text::ByteSpan;

/// Whether `detection` (in `text`) is a nationality word read as a language. Spans the
/// deny list names are kept.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    let Some(word) = text.get(detection.span.start..detection.span.end) else {
        return false;
    };
    let lower = word.to_ascii_lowercase();
    // A language no people is named for is never a place, person or organisation.
    let only_a_language = LANGUAGES.contains(&lower.as_str()) && detection.label.as_str() != "NRP";
    only_a_language || (nationality_or_language(&lower) && is_a_language(text, detection.span))
}

/// Words before a nationality that make it a language: "reply in Spanish.", "translate
/// this into French", "she speaks Turkish".
const BEFORE_A_LANGUAGE: &[&str] = &[
    "speak",
    "speaks",
    "speaking",
    "spoke",
    "learn",
    "learning",
    "fluent",
    "native",
    "translate",
    "translated",
    "translating",
];

/// Words that join or qualify the languages of a list: "into German, French and
/// Japanese", "learn Mandarin Chinese".
const WITHIN_A_LIST_OF_LANGUAGES: &[&str] = &[
    "and",
    "or",
    "&",
    "simplified",
    "traditional",
    "standard",
    "modern",
    "classical",
];

/// Languages that no nationality of the list is named for (a model tags them as
/// places now and then: "Reply in Arabic.").
const LANGUAGES: &[&str] = &[
    "arabic",
    "hindi",
    "urdu",
    "swahili",
    "farsi",
    "persian",
    "tagalog",
    "hebrew",
    "latin",
    "esperanto",
    "mandarin",
    "cantonese",
    "punjabi",
    "tamil",
    "telugu",
    "bengali",
    "yiddish",
    "catalan",
    "basque",
    "gaelic",
    "flemish",
    "malay",
    "javanese",
    "marathi",
    "gujarati",
];

/// Whether `word` (lower case) is a nationality of the list or a language.
fn nationality_or_language(word: &str) -> bool {
    dictionary::is_nationality(word) || LANGUAGES.contains(&word)
}

/// Whether `word` (lower case) is a nationality or joins a list of them.
fn within_a_list(word: &str) -> bool {
    nationality_or_language(word) || WITHIN_A_LIST_OF_LANGUAGES.contains(&word)
}

/// Whether the nationality word at `span` is read as a language. "in", "into", "to" and
/// "from" mark a language only at the end of a phrase: "in Spanish waters" stays. The
/// other languages of a list count as part of it: "into German, French and Japanese."
fn is_a_language(text: &str, span: ByteSpan) -> bool {
    let before = text[..span.start]
        .split_whitespace()
        .rev()
        .map(|w| w.trim_end_matches(',').to_ascii_lowercase())
        .find(|w| !within_a_list(w))
        .unwrap_or_default();
    let ends = |c: char| matches!(c, '.' | ',' | '!' | '?' | ';' | ':' | ')' | '"' | '\n');
    let after = &text[span.end..];
    let mut phrase_ends = after.chars().next().is_none_or(ends);
    if !phrase_ends {
        for word in after.split_whitespace() {
            let bare = word.trim_end_matches(ends);
            if !within_a_list(&bare.to_ascii_lowercase()) {
                break;
            }
            if bare.len() < word.len() {
                phrase_ends = true;
                break;
            }
        }
    }
    BEFORE_A_LANGUAGE.contains(&before.as_str())
        || (phrase_ends && matches!(before.as_str(), "in" | "into" | "to" | "from"))
}

#[cfg(test)]
mod tests {
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    fn dropped(text: &str, part: &str, label: &str) -> bool {
        crate::engine::refine::drops(
            "language",
            text,
            &detection_at(text, part, label, Proof::None),
        )
    }

    #[test]
    fn a_language_is_no_nationality_place_or_people() {
        for (text, language, label) in [
            ("Translate to Spanish: hola", "Spanish", "NRP"),
            ("Reply in Arabic.", "Arabic", "LOCATION"),
            ("The language is in Arabic in my TV", "Arabic", "LOCATION"),
            ("translate this into German, please", "German", "NRP"),
            ("She speaks Turkish at home.", "Turkish", "NRP"),
            ("into German, French and Japanese.", "French", "NRP"),
            ("into German, French and Japanese.", "Japanese", "NRP"),
            ("learn Mandarin Chinese in 6 months", "Chinese", "NRP"),
        ] {
            assert!(dropped(text, language, label), "{language} in {text}");
        }
        for (text, nationality) in [
            ("a Spanish citizen", "Spanish citizen"),
            ("in Spanish waters", "Spanish"),
            ("He is Turkish.", "Turkish"),
            ("into German cuisine", "German"),
            // Court judgments count a language among what identifies someone.
            ("presented in the Swedish language", "Swedish"),
        ] {
            assert!(!dropped(text, nationality, "NRP"), "{text}");
        }
        assert!(!dropped("Reply in French.", "French", "DATE_TIME"));
    }
}
