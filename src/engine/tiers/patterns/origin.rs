//! A person's race where the text describes them by it: "discriminated against as a black
//! woman", "the suspect is a white male", "a 45 yo Caucasian female". Racial or ethnic
//! origin is a special category of personal data (GDPR art. 9), and TAB's annotators mask
//! it (`DEM`). The named groups ("Hispanic", "Caucasian", "African American") are the
//! `NRP` dictionary's; this is the colour words, which are a race only before a person.

use super::phrase::ends_before;
use crate::engine::PatternSpec;
use crate::text::ByteSpan;

/// A colour or group word and a person noun after an article ("a", "the") and an optional
/// age ("a 45 yo"). The span is both words, which together say the race: "as a [NRP_1]
/// with a disability".
pub(super) const RACE_DESCRIPTOR: PatternSpec = PatternSpec {
    name: "race_descriptor",
    label: "NRP",
    regex: r"(?ix)
        \b(?: an? | the ) \s+
        (?: \d{1,3} [\s\-]* (?: (?:years?|yrs?)[\s\-]*old | yo | y/o ) \s+ )?
        ( (?: black | white | brown | mixed[\s\-‑]race | biracial )
          \s+ (?: woman | man | male | female | person | girl | boy | lady | gentleman | guy
               | teenager | teen | child | kid | student | patient | applicant | mother
               | father | wife | husband | son | daughter | individual | adult | youth ) )\b",
    group: 1,
    score: 0.85,
    surroundings: Some(ends_the_phrase),
    negative_context: &[],
    examples: &[
        (
            "she had been discriminated against as a black woman with a disability",
            "black woman",
        ),
        ("The suspect is a white male in his 40s.", "white male"),
        (
            "The victim, a black teenager, was taken to hospital.",
            "black teenager",
        ),
    ],
    counter_examples: &[
        "Read the white paper before the meeting.",
        "Plug the white male connector into the port.",
        "a black box recorder",
        "the white house on the corner",
        "a black man's jacket, size M",
    ],
    ..PatternSpec::BASE
};

/// The person noun must end the phrase: "a white male connector" is a plug, "a black
/// man's jacket" a garment's owner described by no one in particular.
fn ends_the_phrase(text: &str, span: ByteSpan) -> bool {
    ends_before(&text[span.end..], FOLLOWERS)
}

/// Words that can follow a person described by their race: "a black woman with", "a
/// white male in his 40s", "a black teenager who".
#[rustfmt::skip]
const FOLLOWERS: &[&str] = &[
    "with", "in", "who", "and", "or", "from", "of", "at", "on", "was", "is", "had", "has",
    "named", "called", "aged", "wearing", "driving", "living", "born", "whose", "that",
    "to", "for", "by", "as", "but", "when", "while",
];
