//! Which words of a text a model that takes the casing bit reads a second time as if
//! capitalised, and where: the policy the engine gives the model tier
//! ([`POLICY`]), kept here because it is fitted to a model's errors, not part of
//! reading one.
//!
//! The model sees case only through one bit per word (`Tokens::capitalised`), so in chat
//! typed in lower case ("wow emma and kaite is so cute") it has the words alone and
//! misses names it finds when they are capitalised. A window where it hesitated over a
//! lower-case word that is no English word is read again with the bit set on every such
//! word of the window. English words ("hope", "god", "john") keep their bit unset, so
//! the second reading sees them as the first did. Which of the second reading's persons
//! are kept is the rule `second_reading_persons` (`lower_case.rs`).

use crate::engine::lexicon::words::{is_english_word, is_frequent_word};
use crate::engine::tiers::ner::model::{Bio, TagScheme, TokenClass};
use crate::engine::tiers::ner::reading::Reread;
use crate::engine::tiers::ner::tokenize::Tokens;
use crate::engine::tiers::ner::window::Window;

/// The second reading the engine asks of a model that takes the casing bit.
pub const POLICY: Reread = Reread {
    words: unknown_words,
    window: hesitates,
};

/// A window is read again only when the first reading tagged the first token of one of
/// its unknown words outside with a probability below this. Where the first reading was
/// sure, the second seldom finds a person (on the dev sets, of the unknown words the
/// second reading tags as persons, 98 of 98 in tweets and 17 of 18 in news had been
/// hesitated over), and four in five of news text's unknown words are passed over.
const HESITATION: f32 = 0.999;

/// Per token: whether its word is an unknown lower-case word — three or more ASCII
/// letters starting lower-case, standing alone between spaces (or after an opening
/// bracket or quote, before closing punctuation), that is neither an English word, nor
/// a plural, British spelling, compound or long typo of one, nor chat. Parts of
/// identifiers (`customer_name`, `checkout-svc`, `@handle`, `example.com`) do not stand
/// alone.
pub fn unknown_words(text: &str, tokens: &Tokens) -> Vec<bool> {
    let mut unknown = vec![false; tokens.len()];
    let mut i = 0;
    while i < tokens.len() {
        let (j, start, end) = word_at(tokens, i);
        if is_unknown_at(text, start, end) {
            unknown[i..j].fill(true);
        }
        i = j;
    }
    unknown
}

/// The word whose first token is `i`: the token after it, and its byte span.
fn word_at(tokens: &Tokens, i: usize) -> (usize, usize, usize) {
    let mut j = i + 1;
    while j < tokens.len() && tokens.words[j] == tokens.words[i] {
        j += 1;
    }
    let start = tokens.spans[i].start;
    let end = tokens.spans[i..j]
        .iter()
        .map(|s| s.end)
        .max()
        .unwrap_or(start);
    (j, start, end)
}

/// Whether the word at `start..end` is an unknown lower-case word standing alone.
fn is_unknown_at(text: &str, start: usize, end: usize) -> bool {
    text.get(start..end)
        .is_some_and(|word| is_unknown(word) && stands_alone(text, start, end))
}

/// Whether `word` is an unknown lower-case word, wherever it stands.
fn is_unknown(word: &str) -> bool {
    if word.len() < 3
        || !word.bytes().all(|b| b.is_ascii_alphabetic())
        || !word.as_bytes()[0].is_ascii_lowercase()
    {
        return false;
    }
    // A letter three times over is chat drawn out ("shiiiit", "kkkkk"), seldom a name.
    if word
        .as_bytes()
        .windows(3)
        .any(|w| w[0] == w[1] && w[1] == w[2])
    {
        return false;
    }
    let lower = word.to_ascii_lowercase();
    let stem = lower.strip_suffix('s').unwrap_or(&lower);
    !(is_english_word(&lower)
        || is_english_word(stem)
        || is_frequent_word(&lower)
        || is_british_spelling(&lower)
        || is_compound(&lower)
        || (lower.len() >= MIN_TYPO_LETTERS && is_typo(&lower)))
}

/// Whether the word is the British spelling of an (American) English word of the list:
/// "colour", "rumours", "organised", "centre".
fn is_british_spelling(word: &str) -> bool {
    let american = word
        .replace("our", "or")
        .replace("isa", "iza")
        .replace("ise", "ize")
        .replace("isi", "izi");
    let american = match american.strip_suffix("tre") {
        Some(stem) => format!("{stem}ter"),
        None => american,
    };
    american != word && is_english_word(&american)
}

/// Whether the word is two English words of three or more letters run together, as
/// compounds are ("roadmap", "trailhead", "midfielder"); few names are.
fn is_compound(word: &str) -> bool {
    (3..word.len().saturating_sub(2))
        .any(|k| is_english_word(&word[..k]) && is_english_word(&word[k..]))
}

/// Words this long one letter away from an English word are typos of it ("horroble",
/// "couterpart"); shorter ones are as often names ("kaite", "messi", "romeo").
const MIN_TYPO_LETTERS: usize = 6;

/// Whether one deletion, insertion, substitution or swap of adjacent letters turns the
/// lower-case ASCII `word` into an English word.
fn is_typo(word: &str) -> bool {
    let w = word.as_bytes();
    let mut edit = Vec::with_capacity(w.len() + 1);
    let known = |edit: &[u8]| std::str::from_utf8(edit).is_ok_and(is_english_word);
    for i in 0..=w.len() {
        for c in b'a'..=b'z' {
            // insertion before i
            edit.clear();
            edit.extend_from_slice(&w[..i]);
            edit.push(c);
            edit.extend_from_slice(&w[i..]);
            if known(&edit) {
                return true;
            }
            // substitution at i
            if i < w.len() && w[i] != c {
                edit.clear();
                edit.extend_from_slice(w);
                edit[i] = c;
                if known(&edit) {
                    return true;
                }
            }
        }
        if i < w.len() {
            edit.clear();
            edit.extend_from_slice(&w[..i]);
            edit.extend_from_slice(&w[i + 1..]);
            if known(&edit) {
                return true;
            }
        }
        if i + 1 < w.len() {
            edit.clear();
            edit.extend_from_slice(w);
            edit.swap(i, i + 1);
            if known(&edit) {
                return true;
            }
        }
    }
    false
}

/// Whether the word at `start..end` (char boundaries) stands alone in `text`.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let opens = before.is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '[' | '"' | '“'));
    let mut after = text[end..].chars();
    let closes = match after.next() {
        None => true,
        Some(c) if c.is_whitespace() || matches!(c, ',' | '!' | '?' | ';' | ':' | ')' | ']') => {
            true
        }
        Some('"' | '”') => true,
        // A full stop, not a domain's dot; a possessive, not a contraction's second word.
        Some('.') => !after.next().is_some_and(char::is_alphanumeric),
        Some('\'' | '’') => {
            after.next() == Some('s') && !after.next().is_some_and(char::is_alphanumeric)
        }
        Some(_) => false,
    };
    opens && closes
}

/// Whether the first reading hesitated in `window`: it owns the first token of an
/// unknown word tagged outside with a probability below [`HESITATION`]. The word is
/// looked up only where the tag hesitated, so sure text costs no dictionary lookup.
pub fn hesitates(
    window: &Window,
    text: &str,
    tokens: &Tokens,
    classes: &[TokenClass],
    scheme: &TagScheme,
) -> bool {
    (window.own_start..window.own_end.min(classes.len())).any(|t| {
        let first_of_word = t == 0 || tokens.words[t - 1] != tokens.words[t];
        let (class, probability) = classes[t];
        let outside = scheme
            .classes
            .get(class as usize)
            .is_some_and(|&(bio, _)| bio == Bio::Outside);
        first_of_word && outside && probability < HESITATION && {
            let (_, start, end) = word_at(tokens, t);
            is_unknown_at(text, start, end)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tiers::ner::tokenize::marked_tokens;

    fn unknown(marked: &str) -> Vec<String> {
        let (text, tokens) = marked_tokens(marked);
        let bits = unknown_words(&text, &tokens);
        let mut out: Vec<String> = Vec::new();
        for (t, &u) in bits.iter().enumerate() {
            let s = tokens.spans[t];
            if !u {
                continue;
            }
            if t > 0 && bits[t - 1] && tokens.words[t - 1] == tokens.words[t] {
                out.last_mut().unwrap().push_str(&text[s.start..s.end]);
            } else {
                out.push(text[s.start..s.end].to_owned());
            }
        }
        out
    }

    #[test]
    fn unknown_lower_case_words_are_the_ones_no_dictionary_knows() {
        assert_eq!(unknown("wow emma and ka|ite is so cute"), ["emma", "kaite"]);
        assert_eq!(unknown("my boy iDu|bz"), ["iDubz"]);
        assert_eq!(
            unknown("(kapil's face) \"domo\", momo."),
            ["kapil", "domo", "momo"]
        );
        // English words, plurals, chat, short words, capitals.
        assert!(unknown("i hope god and john like cats lol omg yo").is_empty());
        // Compounds, British spellings and long typos of English words.
        assert!(unknown("the roadmap trailhead colour rumours organised centre").is_empty());
        assert!(unknown("its couterpart was horroble").is_empty());
        assert!(unknown("shiiiiit kkkkkkk heh ohh").is_empty());
        assert!(unknown("Emma and KAITE").is_empty());
    }

    #[test]
    fn parts_of_identifiers_are_not_unknown_words() {
        for marked in [
            "customer_name=kapil",
            "checkout-svc",
            "@grian",
            "#kapil",
            "kapil.example.com",
            "don'tt",
            "a1b2 kapil2",
        ] {
            assert!(unknown(marked).is_empty(), "{marked}");
        }
    }

    #[test]
    fn a_window_is_read_again_only_where_the_first_reading_hesitated_over_an_unknown_word() {
        let scheme =
            TagScheme::from_config_json(r#"{"id2label": {"0": "O", "1": "B-PER", "2": "I-PER"}}"#)
                .unwrap();
        let (text, tokens) = marked_tokens("hi ka|ite and bob");
        let window = Window {
            start: 0,
            end: 5,
            own_start: 0,
            own_end: 5,
        };
        let read = |classes: &[TokenClass]| hesitates(&window, &text, &tokens, classes, &scheme);
        // "kaite" (tokens 1 and 2) outside, unsure: read again; sure, or a person: not.
        assert!(read(&[(0, 1.0), (0, 0.9), (0, 0.5), (0, 1.0), (0, 0.5)]));
        assert!(!read(&[
            (0, 1.0),
            (0, 0.9995),
            (0, 0.5),
            (0, 1.0),
            (0, 0.5)
        ]));
        assert!(!read(&[(0, 1.0), (1, 0.9), (2, 0.5), (0, 1.0), (0, 0.5)]));
        // "bob" is an English word: hesitating over it reads nothing again.
        assert!(!read(&[(0, 1.0), (0, 1.0), (0, 1.0), (0, 1.0), (0, 0.5)]));
        // A window that does not own the word does not read it again.
        let other = Window {
            start: 0,
            end: 5,
            own_start: 3,
            own_end: 5,
        };
        let classes = [(0, 1.0), (0, 0.9), (0, 0.5), (0, 1.0), (0, 0.5)];
        assert!(!hesitates(&other, &text, &tokens, &classes, &scheme));
    }
}
