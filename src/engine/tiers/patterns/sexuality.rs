//! A person's sexual orientation or gender identity where the text says it is theirs: "I'm
//! gay", "she is openly bisexual", "he came out as trans", "they identify as non-binary".
//! Sex life and sexual orientation are a special category of personal data (GDPR art. 9),
//! and an outing is among the most harmful leaks a log or a prompt can carry.
//!
//! The words alone are about no one ("gay rights", "a trans-Atlantic flight", "the queer
//! theory seminar"), so the regex requires the person's statement: a subject and a
//! copula, "came out as" or "identifies as". "Straight" is left out: "I'm straight" is as
//! often "I'm straight from work".

use super::phrase::ends_before;
use crate::engine::PatternSpec;
use crate::text::ByteSpan;

pub(super) const SEXUALITY: PatternSpec = PatternSpec {
    name: "sexuality",
    label: "SEXUALITY",
    regex: r"(?ix)
        \b(?: (?: i['’]m | i\s+am | (?:he|she)['’]s | (?:he|she)\s+(?:is|was)
              | (?:they|we)['’]re | (?:they|we)\s+(?:are|were) | you['’]re | you\s+are
              | (?:son|daughter|brother|sister|child|kid|friend|partner|husband|wife)\s+(?:is|was) )
              \s+ (?: (?:openly|also|not|both)\s+ )? (?:an?\s+)?
            | \b(?: came | coming | come | comes ) \s+ out \s+ (?:to\s+[a-z]+\s+)? as \s+ (?:an?\s+)?
            | \b(?: identif(?:y|ies|ied) ) \s+ as \s+ (?:an?\s+)? )
        ( gay | lesbian | bisexual | bi | queer | asexual | pansexual | homosexual
        | transgender | trans | non[\-‑]?binary | genderqueer | intersex )\b",
    group: 1,
    score: 0.85,
    surroundings: Some(ends_the_phrase),
    negative_context: &[],
    examples: &[
        ("I'm gay and my parents don't know yet.", "gay"),
        ("she is openly bisexual", "bisexual"),
        ("He came out as trans last year.", "trans"),
        ("They identify as non-binary.", "non-binary"),
        ("my son is gay, how do I support him?", "gay"),
    ],
    counter_examples: &[
        "We support gay rights.",
        "The trans-Atlantic flight was late.",
        "I'm straight from work, sorry.",
        "He is a bi-weekly columnist.",
        "She is queer theory's best-known critic.",
        "They are trans fats.",
    ],
    ..PatternSpec::BASE
};

/// The word must end the statement: "he is bi-weekly", "they are trans fats" are not.
fn ends_the_phrase(text: &str, span: ByteSpan) -> bool {
    ends_before(&text[span.end..], FOLLOWERS)
}

/// Words that can follow a stated orientation: "I'm gay and", "gay, how".
#[rustfmt::skip]
const FOLLOWERS: &[&str] = &[
    "and", "but", "or", "too", "now", "since", "so", "myself", "himself", "herself",
    "themselves", "though", "anyway", "yet", "at", "in", "to", "for", "with", "as", "if",
    "because", "which", "who", "lol", "last", "this", "when", "after", "before",
    "recently", "today", "yesterday", "years",
];
