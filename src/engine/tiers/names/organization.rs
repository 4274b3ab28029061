//! Organisation rules ([`super::OrganizationFn`]): each returns the spans it finds in
//! the whole text. Scores are named in `mod.rs`'s rule table.

use super::tokens::{adjacent, is_name_word, name_run, with_gloss};
use super::Words;
use crate::engine::lexicon::words::{
    is_listed_word, is_org_suffix, is_stop, lists, ACRONYM_STOP, LEGAL_FORMS, ORG_HEADS,
};
use crate::text::ByteSpan;

/// Acronyms in running text (`LIFFE`, `ECJ`) are mostly organisations; in an
/// all-capitals line (a headline) they say nothing.
pub(super) fn acronym(words: &Words<'_>) -> Vec<ByteSpan> {
    let tokens = &words.tokens;
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        let len = t.text.len();
        let acronym = (2..=6).contains(&len)
            && t.text.bytes().all(|b| b.is_ascii_uppercase())
            && !ACRONYM_STOP.contains(&t.text)
            && !lists().common.contains(t.text.to_lowercase().as_str());
        if !acronym {
            continue;
        }
        let lower_near = tokens[k.saturating_sub(3)..(k + 4).min(tokens.len())]
            .iter()
            .filter(|w| w.text.chars().any(char::is_lowercase))
            .count();
        let shouting = |w: Option<&super::tokens::Token<'_>>| {
            w.is_some_and(|w| w.text.len() >= 2 && w.text.bytes().all(|b| b.is_ascii_uppercase()))
        };
        let neighbours_shout =
            shouting(k.checked_sub(1).map(|i| &tokens[i])) || shouting(tokens.get(k + 1));
        if lower_near >= 3 && !neighbours_shout {
            out.push(ByteSpan::new(t.start, t.end));
        }
    }
    out
}

/// Capitalised words ending in an organisation suffix, with a gloss in brackets after
/// it: `Strix Television AB`, `Pierce Glynn Solicitors`.
pub(super) fn suffix(words: &Words<'_>) -> Vec<ByteSpan> {
    let (text, tokens) = (words.text, &words.tokens);
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if k == 0 || !is_org_suffix(t.text) {
            continue;
        }
        // Walk back over capitalised words (and "&", "and", "for").
        let mut first = k;
        let mut j = k;
        while j > 0 && adjacent(text, &tokens[j - 1], &tokens[j]) && k - j < 6 {
            let prev = &tokens[j - 1];
            // Another company's legal form or "X-based" ends this name
            // ("Johnson Controls Inc and Lear Corp" is two).
            if LEGAL_FORMS.contains(&prev.text) || prev.text.ends_with("-based") {
                break;
            }
            // Institution words are stop words for person names, not here
            // ("Ege University Hospital").
            let institution = is_org_suffix(prev.text) || ORG_HEADS.contains(&prev.text);
            let capital = prev.capitalised() && (institution || !is_stop(prev.text));
            // Not "of": "Rules of Court", "Convention of … Court" are no names.
            let joiner = matches!(prev.text, "&" | "and" | "for");
            if capital {
                first = j - 1;
            } else if !joiner {
                break;
            }
            j -= 1;
        }
        if first < k {
            out.push(ByteSpan::new(tokens[first].start, with_gloss(text, t.end)));
        }
    }
    out
}

/// An organisation head, `of`, and capitalised words: `University of Leeds`, `Ministry
/// of Justice`, with capitalised words right before the head (`London Borough of
/// Southwark`) and a gloss in brackets after it.
pub(super) fn head(words: &Words<'_>) -> Vec<ByteSpan> {
    let (text, tokens) = (words.text, &words.tokens);
    let capitalised = |j: usize| tokens[j].capitalised();
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if !capitalised(k)
            || !ORG_HEADS.contains(&t.text)
            || tokens.get(k + 1).is_none_or(|n| n.text != "of")
        {
            continue;
        }
        let mut j = k + 2;
        if tokens.get(j).is_some_and(|n| n.text == "the") {
            j += 1;
        }
        let mut last = None;
        while j < tokens.len()
            && adjacent(text, &tokens[j - 1], &tokens[j])
            && (capitalised(j) || matches!(tokens[j].text, "and" | "of"))
        {
            if capitalised(j) {
                last = Some(j);
            }
            j += 1;
        }
        if let Some(last) = last {
            let mut first = k;
            while first > 0
                && adjacent(text, &tokens[first - 1], &tokens[first])
                && is_name_word(&tokens[first - 1])
                && k - first < 3
            {
                first -= 1;
            }
            out.push(ByteSpan::new(
                tokens[first].start,
                with_gloss(text, tokens[last].end),
            ));
        }
    }
    out
}

/// What an employment cue ends on, by its preposition: "works at", "work for",
/// "employed by", "an employee of". A person's employer says who they are as much as
/// their town does, and a model reads an unknown employer as a place or a person now and
/// then ("She works at Zalando", "I used to work for Revolut").
#[rustfmt::skip]
const EMPLOYMENT_CUES: &[(&str, &[&str])] = &[
    ("at", &["work", "works", "worked", "working", "employed", "job", "intern", "interned",
             "interning", "internship", "position"]),
    ("for", &["work", "works", "worked", "working"]),
    ("by", &["employed", "hired"]),
    ("of", &["employee"]),
];

/// Whether the text before byte `at` ends with an employment cue and one space.
pub(crate) fn after_employment_cue(text: &str, at: usize) -> bool {
    let Some(before) = text.get(..at).and_then(|b| b.strip_suffix(' ')) else {
        return false;
    };
    let mut words = before.rsplit(' ');
    let (Some(preposition), Some(verb)) = (words.next(), words.next()) else {
        return false;
    };
    EMPLOYMENT_CUES.iter().any(|(p, verbs)| {
        preposition.eq_ignore_ascii_case(p) && verbs.iter().any(|v| verb.eq_ignore_ascii_case(v))
    })
}

/// Capitalised words after an employment cue ([`EMPLOYMENT_CUES`]) and an article:
/// `works at Zalando`, `employed by Acme Freight`, `works at the Guardian`. Not a given
/// name ("works for John Smith": a person) nor a listed place or organisation, which
/// their own lists find with their own label.
pub(super) fn employer(words: &Words<'_>) -> Vec<ByteSpan> {
    let (text, tokens) = (words.text, &words.tokens);
    let lists = lists();
    let mut out = Vec::new();
    for (k, cued) in tokens.iter().enumerate() {
        // The name starts here or after "the", and a name word is capitalised: test that
        // first, as it rules out most words.
        if !(cued.capitalised() || cued.text == "the") || !after_employment_cue(text, cued.start) {
            continue;
        }
        // "works at the Guardian": the article opens the phrase, not the name.
        let k = if matches!(cued.text, "the" | "The")
            && tokens.get(k + 1).is_some_and(|n| adjacent(text, cued, n))
        {
            k + 1
        } else {
            k
        };
        let t = &tokens[k];
        if !is_name_word(t) || lists.given.contains(t.text) || is_listed_word(t.text) {
            continue;
        }
        if let Some(last) = name_run(text, tokens, k, 4) {
            out.push(ByteSpan::new(t.start, tokens[last].end));
        }
    }
    out
}
