//! An acronym defined in brackets right after a name stands for it: `John Smith (JS)`,
//! `Employment Appeal Tribunal (“the EAT”)`. Every occurrence of the acronym, the
//! definition included, gets the name's label and confidence, so "JS approved it" later
//! in the text does not give away what the name's placeholder hides.
//!
//! Only for names (people, organisations, places): the code after an amount,
//! `4,393 pounds sterling (GBP)`, is no alias of anyone.

use std::collections::HashSet;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;

use crate::engine::context::floor_boundary;
use crate::engine::tiers::dictionary::whole_word;
use crate::engine::{Detection, Proof, Trace};
use crate::text::{ByteSpan, Label};

/// The definition right after a name: `(JS)`, `("JS")`, `(“the EAT”)`, `(the 'NHS')`.
/// Two to six capitals or digits, starting with a capital: words in brackets
/// (`(“the applicant”)`, `(the “Government”)`) define roles, not acronyms.
static DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s?\((?:the\s+)?["“'‘]?(?:the\s+)?(\p{Lu}[\p{Lu}\d&]{1,5})["”'’]?\)"#)
        .expect("acronym definition grammar is valid")
});

/// How far after a name its definition may end, in bytes.
const DEFINITION_REACH: usize = 24;

/// `detections` (sorted, non-overlapping, of `text`) with every occurrence of an
/// acronym defined right after one of them added where nothing else was found, and
/// relabelled where the acronym rule's guess (an ORGANIZATION, `Proof::None`) is exactly
/// it: the definition says more. Other labels found on it stay ("Acme Inc (USA)" does not
/// make every "USA" an organisation). Sorted and non-overlapping, as it came. One pass over the text
/// for all acronyms.
pub(crate) fn with_aliases(text: &str, mut detections: Vec<Detection>) -> Vec<Detection> {
    let mut acronyms: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    // The label and confidence each acronym stands for, by pattern index.
    let mut sources: Vec<(Label, f32)> = Vec::new();
    for d in &detections {
        if !matches!(d.label.as_str(), "PERSON" | "ORGANIZATION" | "LOCATION") {
            continue;
        }
        let until = floor_boundary(text, (d.span.end + DEFINITION_REACH).min(text.len()));
        let Some(after) = text.get(d.span.end..until) else {
            continue;
        };
        let name = text.get(d.span.start..d.span.end).unwrap_or("");
        if let Some(acronym) = DEFINITION.captures(after).and_then(|c| c.get(1)) {
            if stands_for(acronym.as_str(), name) && seen.insert(acronym.as_str()) {
                acronyms.push(acronym.as_str());
                sources.push((d.label, d.score));
            }
        }
    }
    if acronyms.is_empty() {
        return detections;
    }
    let Ok(finder) = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&acronyms)
    else {
        return detections;
    };
    let mut added: Vec<Detection> = Vec::new();
    let mut relabelled: Vec<(usize, usize)> = Vec::new();
    for m in finder.find_iter(text) {
        let (start, end) = (m.start(), m.end());
        if !whole_word(text, ByteSpan::new(start, end)) {
            continue;
        }
        // Detections are sorted and disjoint, so their ends are sorted too.
        let next = detections.partition_point(|d| d.span.end <= start);
        let taken = detections.get(next).filter(|d| d.span.start < end);
        let source = sources[m.pattern().as_usize()];
        match taken {
            Some(d)
                if d.span == ByteSpan::new(start, end)
                    && d.label.as_str() == "ORGANIZATION"
                    && !d.proof.is_exact() =>
            {
                relabelled.push((next, m.pattern().as_usize()));
            }
            Some(_) => {}
            None => added.push(Detection {
                span: ByteSpan::new(start, end),
                label: source.0,
                score: source.1,
                alternative: None,
                proof: Proof::None,
                trace: Trace::default(),
            }),
        }
    }
    for (i, s) in relabelled {
        let (d, (label, score)) = (&mut detections[i], sources[s]);
        if d.label != label {
            d.alternative = Some((d.label, d.score));
            d.label = label;
            d.score = d.score.max(score);
            d.trace.rules.push("alias_of_name");
        }
    }
    if !added.is_empty() {
        detections.extend(added);
        detections.sort_by_key(|d| d.span.start);
    }
    detections
}

/// Whether every letter of `acronym` opens a word of `name`: "JS" for "John Smith", "ECJ"
/// for "Court of Justice of the European Community". A role in capitals after a name
/// ("Kurt Ueda (HCP)", the health care proxy) is no acronym of it.
fn stands_for(acronym: &str, name: &str) -> bool {
    let initials: Vec<char> = name
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter_map(|w| w.chars().next())
        .collect();
    acronym
        .chars()
        .filter(|c| c.is_alphabetic())
        .all(|c| initials.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, part: &str, label: &str) -> Detection {
        let start = text.find(part).expect("part is in text");
        Detection {
            span: ByteSpan::new(start, start + part.len()),
            label: Label::builtin(label),
            score: 0.8,
            alternative: None,
            proof: Proof::None,
            trace: crate::engine::Trace::default(),
        }
    }

    fn labelled<'t>(text: &'t str, detections: &[Detection]) -> Vec<(&'t str, &'static str)> {
        detections
            .iter()
            .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
            .collect()
    }

    fn found(text: &str, detections: Vec<Detection>) -> Vec<(&str, &'static str)> {
        labelled(text, &with_aliases(text, detections))
    }

    #[test]
    fn an_acronym_defined_after_a_name_is_that_name_wherever_it_stands() {
        let text = "John Smith (JS) approved it. Later JS, not JSON, signed for Acme.";
        let got = found(
            text,
            vec![
                at(text, "John Smith", "PERSON"),
                at(text, "Acme", "ORGANIZATION"),
            ],
        );
        assert_eq!(
            got,
            [
                ("John Smith", "PERSON"),
                ("JS", "PERSON"),
                ("JS", "PERSON"),
                ("Acme", "ORGANIZATION")
            ]
        );
        let text = "the Employment Appeal Tribunal (“the EAT”) held; the EAT then ruled";
        let got = found(
            text,
            vec![at(text, "Employment Appeal Tribunal", "ORGANIZATION")],
        );
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            got[1..].iter().all(|&g| g == ("EAT", "ORGANIZATION")),
            "{got:?}"
        );
    }

    #[test]
    fn roles_codes_after_amounts_and_found_spans_are_left_as_they_are() {
        let text = "Her husband, Mr. Kurt Ueda (HCP), is the HCP.";
        let detections = vec![at(text, "Mr. Kurt Ueda", "PERSON")];
        assert_eq!(with_aliases(text, detections.clone()), detections);
        let text = "Mr Robert Murray (“the applicant”) paid 4,393 pounds sterling (GBP); GBP fell.";
        let detections = vec![
            at(text, "Mr Robert Murray", "PERSON"),
            at(text, "4,393 pounds sterling", "MONEY"),
        ];
        assert_eq!(with_aliases(text, detections.clone()), detections);
        // An occurrence some other recognizer already found keeps its own label.
        let text = "Anna Berg (AB) works at AB Volvo.";
        let got = found(
            text,
            vec![
                at(text, "Anna Berg", "PERSON"),
                at(text, "AB Volvo", "ORGANIZATION"),
            ],
        );
        assert_eq!(
            got,
            [
                ("Anna Berg", "PERSON"),
                ("AB", "PERSON"),
                ("AB Volvo", "ORGANIZATION")
            ]
        );
    }

    #[test]
    fn a_place_found_on_the_acronym_stays_a_place() {
        let text = "Acme Inc (USA) sells in the USA.";
        let detections = vec![
            at(text, "Acme Inc", "ORGANIZATION"),
            at(text, "USA", "LOCATION"),
            Detection {
                span: ByteSpan::new(28, 31),
                ..at(text, "USA", "LOCATION")
            },
        ];
        assert_eq!(with_aliases(text, detections.clone()), detections);
    }

    #[test]
    fn a_guess_on_exactly_the_acronym_takes_the_name_s_label() {
        let text = "Anna Berg (AB) said AB would call.";
        let mut guess = at(text, "Anna Berg", "PERSON");
        guess.span = ByteSpan::new(20, 22);
        guess.label = Label::builtin("ORGANIZATION");
        guess.score = 0.6;
        let got = with_aliases(text, vec![at(text, "Anna Berg", "PERSON"), guess]);
        assert_eq!(
            labelled(text, &got),
            [("Anna Berg", "PERSON"), ("AB", "PERSON"), ("AB", "PERSON")]
        );
        assert_eq!(
            got[2].alternative,
            Some((Label::builtin("ORGANIZATION"), 0.6))
        );
        assert_eq!(got[2].score, 0.8);
    }

    #[test]
    fn text_ending_inside_a_definition_or_a_character_is_no_trouble() {
        let text = "Zoë Ångström (ZÅ";
        let got = found(text, vec![at(text, "Zoë Ångström", "PERSON")]);
        assert_eq!(got, [("Zoë Ångström", "PERSON")]);
        let text = "Åsa (ÅÅ) ÅÅ";
        assert_eq!(found(text, vec![at(text, "Åsa", "PERSON")]).len(), 3);
    }
}
