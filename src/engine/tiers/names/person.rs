//! Person rules. Scan rules ([`super::ScanFn`]) are tried at each word of a left-to-right
//! scan and return the words they take; text rules ([`super::PersonTextFn`]) look at the
//! whole text after the scan. Scores are named in `mod.rs`'s rule table.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

use super::tokens::{adjacent, is_name_word, is_particle, name_run, Token};
use super::{Found, Words};
use crate::engine::lexicon::words::{
    is_chatter, is_frequent_word, is_org_suffix, is_stop_any_case, is_title, lists, title_case,
    ABSTRACT_NOUN_ENDINGS, BEFORE_A_GREETING, CUES, GENERIC, HONORIFICS, INTRODUCTIONS, ORG_HEADS,
    POSTS, RANKS, ROLES, VOCATIVE_CUES,
};
use crate::text::ByteSpan;

/// Whether token `i + 1` exists and only spaces separate it from token `i`.
fn next_adjacent(words: &Words<'_>, i: usize) -> bool {
    i + 1 < words.tokens.len() && adjacent(words.text, &words.tokens[i], &words.tokens[i + 1])
}

/// An honorific and up to four name words after it, title included: `Mr C. Whomersley`,
/// `Dr. Ana de la Cruz`; after a rank, the name words alone: `Judge [Olga Lavrentyeva]`.
pub(super) fn honorific(words: &Words<'_>, i: usize) -> Option<(usize, usize)> {
    let bare = words.tokens[i].text.trim_end_matches('.');
    let rank = RANKS.contains(&bare);
    if !is_title(bare) || !next_adjacent(words, i) {
        return None;
    }
    let first = if rank { i + 1 } else { i };
    name_run(words.text, &words.tokens, i + 1, 4).map(|last| (first, last))
}

/// An honorific in capitals and one or two words in capitals after it, in text written
/// in capitals (clinical notes, forms): `DR. PATEL`, `MR. O'BRIEN`, `MS. ANA RUIZ`. The period
/// is required: in capitals, `MR`, `MS` and `DR` are also mitral regurgitation, multiple
/// sclerosis and diabetic retinopathy.
pub(super) fn honorific_in_capitals(words: &Words<'_>, i: usize) -> Option<(usize, usize)> {
    let tokens = &words.tokens;
    let title = tokens[i].text;
    let is_title = title.len() >= 2
        && HONORIFICS
            .iter()
            .any(|h| h.len() == title.len() && h.eq_ignore_ascii_case(title))
        && is_capitals(title);
    // The tokenizer leaves the period out of the title's token: the gap is ". ".
    let next = tokens.get(i + 1)?;
    let gap = &words.text[tokens[i].end..next.start];
    let period_then_space = gap
        .strip_prefix('.')
        .is_some_and(|rest| (1..=2).contains(&rest.len()) && rest.chars().all(|c| c == ' '));
    if !is_title || !period_then_space {
        return None;
    }
    let word = |j: usize| {
        tokens
            .get(j)
            .filter(|t| is_capitals(t.text) && !is_stop_any_case(t.text))
    };
    let first = word(i + 1)?;
    // A second word only after a known given name (`MS. ANA RUIZ`); otherwise capitals
    // give no hint where the name ends (`MR. O'BRIEN RE MEDS`).
    let given: String = first
        .text
        .chars()
        .enumerate()
        .map(|(k, c)| if k == 0 { c } else { c.to_ascii_lowercase() })
        .collect();
    let two = lists().given.contains(given.as_str())
        && word(i + 2).is_some_and(|second| adjacent(words.text, first, second));
    Some((i, if two { i + 2 } else { i + 1 }))
}

/// A word in capitals: two or more letters, all upper-case, apostrophes and hyphens
/// inside (`O'BRIEN`, `SMITH-JONES`).
fn is_capitals(word: &str) -> bool {
    word.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && word
            .chars()
            .all(|c| c.is_uppercase() || matches!(c, '\'' | '’' | '-'))
}

/// A role and two or three name words after it, role left out: `President [Ana Ruiz]`.
pub(super) fn role(words: &Words<'_>, i: usize) -> Option<(usize, usize)> {
    if !ROLES.contains(&words.tokens[i].text) || !next_adjacent(words, i) {
        return None;
    }
    let last = name_run(words.text, &words.tokens, i + 1, 3)?;
    // A single capitalised word after a role is often a place ("King Street").
    (last > i + 1).then_some((i + 1, last))
}

/// A known given name and one to three name words after it: `Phil Simmons`.
pub(super) fn given_name(words: &Words<'_>, i: usize) -> Option<(usize, usize)> {
    let tokens = &words.tokens;
    if !lists().given.contains(tokens[i].text)
        || !next_adjacent(words, i)
        || !is_name_word(&tokens[i + 1])
    {
        return None;
    }
    let last = name_run(words.text, tokens, i, 4)?;
    (last > i).then_some((i, last))
}

/// Two or three capitalised words with no cue at all (`Olubukunola Obasa`): a guess.
/// Not in Title Case Text, not the tail of a longer capitalised phrase ("Great [Barrier
/// Reef]"), and no word of the run may be a common word, a place, or a word of titles,
/// institutions or organisations.
pub(super) fn capitalised_guess(words: &Words<'_>, i: usize) -> Option<(usize, usize)> {
    let tokens = &words.tokens;
    let t = &tokens[i];
    let after_capital =
        i > 0 && adjacent(words.text, &tokens[i - 1], t) && tokens[i - 1].capitalised();
    if !words.guesses
        || !next_adjacent(words, i)
        || after_capital
        || !is_name_word(t)
        || t.text.ends_with('.')
    {
        return None;
    }
    let last = name_run(words.text, tokens, i, 3)?;
    (last > i && !tokens[i..=last].iter().any(is_other_word)).then_some((i, last))
}

/// Whether `w` is a common word, a place, or a word of titles, institutions or
/// organisations: no word of a guessed name.
fn is_other_word(w: &Token<'_>) -> bool {
    let lists = lists();
    GENERIC.contains(&w.text)
        || lists.common.contains(w.text.to_lowercase().as_str())
        || lists.places.contains(w.text)
        || is_org_suffix(w.text)
        || ORG_HEADS.contains(&w.text)
        || ROLES.contains(&w.text)
        || is_title(w.text.trim_end_matches('.'))
}

/// The name words right after a cue phrase: `my name is Ana Ruiz`, `Dear Ana`,
/// `Name: Ana Ruiz`; not a post after it (`attn: Chief of Staff`).
pub(super) fn cue_phrase(words: &Words<'_>, _found: &[Found]) -> Vec<(usize, usize)> {
    let mut found = after_phrases(words, Phrases::Cues);
    found.retain(|&(first, _)| !POSTS.contains(&words.tokens[first].text));
    found
}

/// The name after a self-introduction that may also say what someone is: "ik ben Sanne
/// de Vries", but not "ich bin Deutscher" or "ich bin Student der Informatik". A known
/// given name alone, or two or three name words none of which is a common, place or
/// institution word.
pub(super) fn introduction(words: &Words<'_>, _found: &[Found]) -> Vec<(usize, usize)> {
    let tokens = &words.tokens;
    let given = &lists().given;
    after_phrases(words, Phrases::Introductions)
        .into_iter()
        .filter(|&(first, last)| {
            let run = &tokens[first..=last];
            // Particles ("de", "van") are judged by the name words around them; an
            // article alone joins nouns ("Student der Informatik"), "van der" a name.
            let article = run.windows(2).any(|w| {
                ["der", "den", "das", "dem", "des"].contains(&w[1].text) && !is_particle(&w[0])
            });
            let named: Vec<&Token<'_>> = run.iter().filter(|t| is_name_word(t)).collect();
            !article
                && (named.len() >= 2 || given.contains(tokens[first].text))
                && !named.into_iter().any(is_other_word)
        })
        .collect()
}

/// The phrase lists [`after_phrases`] reads.
#[derive(Clone, Copy)]
pub(super) enum Phrases {
    Cues,
    Introductions,
}

impl Phrases {
    /// Its phrases, and where the first is among those [`Phrases::finder`] searches for.
    fn list(self) -> (&'static [&'static str], usize) {
        match self {
            Phrases::Cues => (CUES, 0),
            Phrases::Introductions => (INTRODUCTIONS, CUES.len()),
        }
    }

    /// Every occurrence of every phrase of both lists, in one pass (a search per phrase
    /// cost the names tier most of its time on short log messages, a search per list
    /// a sixth of it).
    fn finder() -> &'static AhoCorasick {
        static FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
            AhoCorasick::new(CUES.iter().chain(INTRODUCTIONS)).expect("a phrase list builds")
        });
        &FINDER
    }
}

/// Every (phrase, start) of both lists of [`Phrases`] in `text` lower-cased, in that
/// order.
pub(super) fn phrases_in(text: &str) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = Phrases::finder()
        .find_overlapping_iter(&text.to_lowercase())
        .map(|m| (m.pattern().as_usize(), m.start()))
        .collect();
    found.sort_unstable();
    found
}

/// The name words right after one of `phrases` (lower-case). By phrase, then as each
/// phrase's own search finds them (no two of one phrase overlap).
fn after_phrases(words: &Words<'_>, phrases: Phrases) -> Vec<(usize, usize)> {
    let text = words.text;
    let tokens = &words.tokens;
    let (list, first) = phrases.list();
    let found = (words.phrases().iter())
        .filter(|&&(id, _)| (first..first + list.len()).contains(&id))
        .map(|&(id, at)| (id - first, at));
    let mut out = Vec::new();
    let mut free_from = (usize::MAX, 0); // (phrase, where its next match may start)
    for (phrase, at) in found {
        if free_from.0 == phrase && at < free_from.1 {
            continue;
        }
        let cue = list[phrase];
        let end = at + cue.len();
        free_from = (phrase, end);
        // `to_lowercase` can change byte lengths outside ASCII; only trust
        // positions that still line up with the original text ("Меня зовут" does,
        // in any case).
        if !text.is_char_boundary(at)
            || !text.is_char_boundary(end.min(text.len()))
            || text[at..end.min(text.len())].to_lowercase() != *cue
        {
            continue;
        }
        if !crate::engine::tiers::dictionary::whole_word(
            text,
            ByteSpan::new(at, at + cue.trim_end_matches([':', ',']).len()),
        ) {
            continue;
        }
        let first = tokens.partition_point(|t| t.start < end);
        if first < tokens.len() {
            let gap = &text[end..tokens[first].start];
            if gap.len() <= 2 && !gap.contains('\n') {
                if let Some(last) = name_run(text, tokens, first, 3) {
                    out.push((first, last));
                }
            }
        }
    }
    out
}

/// A cue of [`VOCATIVE_CUES`], any case, and the space or ", " after it.
static VOCATIVE_CUE: LazyLock<Regex> = LazyLock::new(|| {
    let cues: Vec<String> = VOCATIVE_CUES.iter().map(|c| regex::escape(c)).collect();
    Regex::new(&format!(r"(?i)(?-u:\b)(?:{})(?:, ?| )", cues.join("|")))
        .expect("vocative cue regex")
});

/// Whether `text` has a greeting, thanks or praise a name may follow ([`vocative`]).
pub(super) fn has_vocative_cue(text: &str) -> bool {
    VOCATIVE_CUE.is_match(text)
}

/// A name someone is greeted, thanked or praised by in chat: `hey tanner,`, `thanks
/// Kishan!`, `great work Olan!`. Chat is often in lower case, where the model reads no
/// name. The cue opens its clause; one or two words follow it, in any case, and end the
/// clause (punctuation, an emoji, a line break or the end of the text follows). None of
/// them may be a frequent word, chat, a form of address (`guys`, `bro`, `mom`), a place
/// or an acronym (`thanks BBC!`).
pub(super) fn vocative(words: &Words<'_>, _found: &[Found]) -> Vec<(usize, usize)> {
    let text = words.text;
    let tokens = &words.tokens;
    let mut out = Vec::new();
    for cue in VOCATIVE_CUE.find_iter(text) {
        if !opens_clause(&text[..cue.start()]) {
            continue;
        }
        let first = tokens.partition_point(|t| t.start < cue.end());
        if tokens.get(first).is_none_or(|t| t.start != cue.end()) {
            continue;
        }
        for last in first..tokens.len().min(first + 2) {
            if (last > first && !adjacent(text, &tokens[last - 1], &tokens[last]))
                || !is_vocative_word(tokens[last].text)
            {
                break;
            }
            if ends_clause(&text[tokens[last].end..]) {
                out.push((first, last));
                break;
            }
        }
    }
    out
}

/// Whether a cue after `before` opens a clause: nothing, punctuation or a chat word ("ok",
/// "lol") before it.
fn opens_clause(before: &str) -> bool {
    let before = before.trim_end_matches([' ', '\t']);
    let word_start = before.rfind(|c: char| !c.is_alphanumeric()).map_or(0, |i| {
        i + before[i..].chars().next().map_or(1, char::len_utf8)
    });
    let word = &before[word_start..];
    word.is_empty()
        || is_chatter(word)
        || BEFORE_A_GREETING
            .iter()
            .any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether the text after a word ends its clause: the end, a line break, punctuation or a
/// symbol (an emoji), not a letter, digit, apostrophe or joiner.
fn ends_clause(after: &str) -> bool {
    after
        .trim_start_matches([' ', '\t'])
        .chars()
        .next()
        .is_none_or(|c| {
            !c.is_alphanumeric() && !matches!(c, '\'' | '’' | '-' | '&' | '@' | '/' | '#' | '_')
        })
}

/// A word that may be a name a greeting calls someone by: letters (inner `'` and `-`
/// allowed), two or more, none of the words [`vocative`] leaves out, nor an abstract
/// noun by its ending ("Goodbye monetization!").
fn is_vocative_word(word: &str) -> bool {
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 2
        || !word
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '\'' | '’' | '-'))
        || (letters <= 3 && word.chars().all(char::is_uppercase))
    {
        return false;
    }
    let lower = word.to_lowercase();
    let capitalised = title_case(&lower);
    !(ABSTRACT_NOUN_ENDINGS.iter().any(|end| lower.ends_with(end))
        || is_frequent_word(&lower)
        || VOCATIVE_CUES.contains(&lower.as_str())
        || GENERIC.contains(&capitalised.as_str())
        || lists().places.contains(capitalised.as_str()))
}

/// A surname of a name found so far with more than a guess's score, met again alone
/// in the same text: `Phil Simmons took four. Simmons then left.`
pub(super) fn repeated_surname(words: &Words<'_>, found: &[Found]) -> Vec<(usize, usize)> {
    let tokens = &words.tokens;
    let given = &lists().given;
    let mut surnames: Vec<&str> = found
        .iter()
        .filter(|f| f.score > super::GUESS)
        .filter(|f| f.last > f.first || !HONORIFICS.contains(&tokens[f.first].text))
        .map(|f| tokens[f.last].text)
        .filter(|s| s.chars().count() >= 3 && !s.ends_with('.') && !given.contains(s))
        .collect();
    surnames.sort_unstable();
    surnames.dedup();
    if surnames.is_empty() {
        return Vec::new();
    }
    let mut covered = vec![false; tokens.len()];
    for f in found {
        for flag in &mut covered[f.first..=f.last] {
            *flag = true;
        }
    }
    // Most words are ruled out by their first byte before any comparison.
    let mut first_bytes = [false; 256];
    for s in &surnames {
        first_bytes[usize::from(s.as_bytes()[0])] = true;
    }
    tokens
        .iter()
        .enumerate()
        .filter(|(k, t)| {
            !covered[*k]
                && first_bytes[usize::from(t.text.as_bytes()[0])]
                && surnames.binary_search(&t.text).is_ok()
        })
        .map(|(k, _)| (k, k))
        .collect()
}
