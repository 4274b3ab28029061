//! The merge rules ([`MERGE`]): adjacent resolved detections that are parts of one
//! entity become one, exact spans never.
//!
//! ```text
//! "Mr" "John Smith"            PERSON + PERSON                → PERSON "Mr John Smith"
//! "JOHNSON" ", " "MARY"        PERSON + PERSON (capitals)     → PERSON
//! "Children's Hospital" " of " "Denver"  ORGANIZATION + LOCATION → ORGANIZATION
//! "10 Downing Street, London"  ADDRESS + ", " + LOCATION      → ADDRESS
//! "London SW1A 2AA"            LOCATION + UK_POSTCODE          → ADDRESS
//! "3 March 2024 at 14:05"      DATE_TIME + " at " + DATE_TIME → DATE_TIME
//! "Ian Vance, MD"              PERSON + LOCATION "MD"          → PERSON, the degree dropped
//! ```
//!
//! Each detection meets the one before it (already merged with its own predecessors);
//! the first rule in [`MERGE`] order that applies decides.

use super::{ex, Action, Rule, Stage, Switches};
use crate::engine::lexicon::words::{is_credential_word, is_given_name, is_institution_head};
use crate::engine::Detection;
use crate::text::Label;

/// Merge rules, in the order they are tried on each pair of neighbours.
pub(super) const MERGE: &[Rule] = &[
    Rule {
        name: "degree_after_person",
        labels: &["PERSON", "LOCATION", "ORGANIZATION"],
        reason: "a degree after a name (\"Vance, M.D.\", \"Ulmer MD\") is no place or organisation",
        action: Action::Absorb(degree_after_person),
        examples: &[ex(
            "Ian Vance, MD said",
            "Ian Vance:PERSON | MD:LOCATION",
            "",
            "Ian Vance:PERSON",
        )],
        counter_examples: &[ex(
            "Baltimore, MD today",
            "Baltimore:LOCATION | MD:LOCATION",
            "",
            "Baltimore:LOCATION | MD:LOCATION",
        )],
    },
    Rule::new(
        "adjacent_names",
        &["PERSON"],
        "a tier tags the parts of one name apart (a title and the name, given name and surname)",
        Action::Join(|text, left, gap, right| {
            let spaces = !gap.is_empty() && gap.len() <= 2 && gap.chars().all(|c| c == ' ');
            // One name written twice is two mentions (the `name_written_twice` rule).
            let twice =
                text[left.span.start..left.span.end] == text[right.span.start..right.span.end];
            (pair(left, right, "PERSON", &["PERSON"]) && spaces && !twice).then_some(left.label)
        }),
        &[ex(
            "Mr John Smith",
            "Mr:PERSON | John Smith:PERSON",
            "",
            "Mr John Smith:PERSON",
        )],
        &[ex(
            "Diah Diah",
            "Diah:PERSON | Diah:PERSON",
            "",
            "Diah:PERSON | Diah:PERSON",
        )],
    ),
    Rule::new(
        "inverted_name",
        &["PERSON"],
        "record headers write a name in capitals surname first (\"JOHNSON, MARY\")",
        Action::Join(|text, left, gap, right| {
            let words = |d: &Detection| &text[d.span.start..d.span.end];
            (pair(left, right, "PERSON", &["PERSON"])
                && gap == ", "
                && inverted_name(words(left), words(right)))
            .then_some(left.label)
        }),
        &[ex(
            "PT JOHNSON, MARY MRN",
            "JOHNSON:PERSON | MARY:PERSON",
            "",
            "JOHNSON, MARY:PERSON",
        )],
        &[ex(
            "Smith, Mary and John",
            "Smith:PERSON | Mary:PERSON",
            "",
            "Smith:PERSON | Mary:PERSON",
        )],
    ),
    Rule::new(
        "place_after_institution",
        &["ORGANIZATION", "LOCATION"],
        "an institution named after its place (\"Children's Hospital of Denver\") is one name",
        Action::Join(|text, left, gap, right| {
            let organization = &text[left.span.start..left.span.end];
            (pair(left, right, "ORGANIZATION", &["LOCATION"])
                && gap == " of "
                && named_after_place(organization))
            .then_some(left.label)
        }),
        &[ex(
            "at Children's Hospital of Denver",
            "Children's Hospital:ORGANIZATION | Denver:LOCATION",
            "",
            "Children's Hospital of Denver:ORGANIZATION",
        )],
        &[ex(
            "Kia Motor Corp of South Korea",
            "Kia Motor Corp:ORGANIZATION | South Korea:LOCATION",
            "",
            "Kia Motor Corp:ORGANIZATION | South Korea:LOCATION",
        )],
    ),
    Rule::new(
        "address_parts",
        &["ADDRESS", "UK_POSTCODE", "LOCATION"],
        "an address goes on over its town and postcode after a comma",
        Action::Join(|_, left, gap, right| {
            (pair(
                left,
                right,
                "ADDRESS",
                &["ADDRESS", "UK_POSTCODE", "LOCATION"],
            ) && comma(gap))
            .then_some(left.label)
        }),
        &[ex(
            "at 10 Downing Street, London now",
            "10 Downing Street:ADDRESS | London:LOCATION",
            "",
            "10 Downing Street, London:ADDRESS",
        )],
        &[ex(
            "10 Downing Street and London",
            "10 Downing Street:ADDRESS | London:LOCATION",
            "",
            "10 Downing Street:ADDRESS | London:LOCATION",
        )],
    ),
    Rule::new(
        "town_and_postcode",
        &["LOCATION", "UK_POSTCODE"],
        "a town and its postcode together are an address",
        Action::Join(|_, left, gap, right| {
            (pair(left, right, "LOCATION", &["UK_POSTCODE"]) && comma(gap))
                .then(|| Label::builtin("ADDRESS"))
        }),
        &[ex(
            "in London SW1A 2AA",
            "London:LOCATION | SW1A 2AA:UK_POSTCODE",
            "",
            "London SW1A 2AA:ADDRESS",
        )],
        &[ex(
            "London or SW1A 2AA",
            "London:LOCATION | SW1A 2AA:UK_POSTCODE",
            "",
            "London:LOCATION | SW1A 2AA:UK_POSTCODE",
        )],
    ),
    Rule::new(
        "date_and_time",
        &["DATE_TIME"],
        "a date and its time (\"3 March 2024 at 14:05\") are one moment",
        Action::Join(|_, left, gap, right| {
            (pair(left, right, "DATE_TIME", &["DATE_TIME"])
                && (comma(gap) || matches!(gap, " at " | ", at " | "T")))
            .then_some(left.label)
        }),
        &[ex(
            "on 3 March 2024 at 14:05",
            "3 March 2024:DATE_TIME | 14:05:DATE_TIME",
            "",
            "3 March 2024 at 14:05:DATE_TIME",
        )],
        &[ex(
            "from 3 March to 14 May",
            "3 March:DATE_TIME | 14 May:DATE_TIME",
            "",
            "3 March:DATE_TIME | 14 May:DATE_TIME",
        )],
    ),
];

/// Whether `left` carries `first` and `right` one of `second`.
fn pair(left: &Detection, right: &Detection, first: &str, second: &[&str]) -> bool {
    left.label.as_str() == first && second.contains(&right.label.as_str())
}

/// A comma, a comma and a space, or one space.
fn comma(gap: &str) -> bool {
    matches!(gap, ", " | "," | " ")
}

/// Whether two people's words, a comma apart, are one name written surname first in
/// capitals ("JOHNSON, MARY"): a model tags the two words apart now and then. Elsewhere a
/// comma between names parts two people ("Smith, Jones and Brown").
fn inverted_name(surname: &str, given: &str) -> bool {
    let capitals = |w: &str| {
        w.chars().count() > 1 && w.chars().all(|c| c.is_uppercase() || c == '-' || c == '\'')
    };
    let mut chars = given.chars();
    let titled: String = chars
        .next()
        .into_iter()
        .chain(chars.flat_map(char::to_lowercase))
        .collect();
    capitals(surname) && capitals(given) && is_given_name(&titled)
}

/// Whether an organisation ends on a head that takes its place after "of" ("Children's
/// Hospital" + "Denver", "Bank" + "Japan"). After a company form the place is where the
/// company is ("Kia Motor Corp of South Korea").
fn named_after_place(organization: &str) -> bool {
    organization
        .rsplit(' ')
        .next()
        .is_some_and(is_institution_head)
}

/// Whether `next` is a degree or licence written after the person `prev` ("Vance, M.D.",
/// and in signatures without the comma: "Yolanda H Ulmer MD on …"), which a model may read
/// as a place or an organisation.
fn degree_after_person(text: &str, prev: &Detection, gap: &str, next: &Detection) -> bool {
    pair(prev, next, "PERSON", &["LOCATION", "ORGANIZATION"])
        && comma(gap)
        && is_credential_word(&text[next.span.start..next.span.end])
}

/// Merges adjacent parts of one entity with the merge rules `switches` runs. `detections`
/// must be sorted and non-overlapping, as overlap resolution returns them; so is the
/// result.
pub fn merge_adjacent(
    text: &str,
    detections: Vec<Detection>,
    switches: &Switches,
) -> Vec<Detection> {
    let rules: Vec<&Rule> = switches.of(Stage::Merge).collect();
    let mut out: Vec<Detection> = Vec::with_capacity(detections.len());
    'next: for d in detections {
        // An exact span is one whole entity: nothing joins it.
        if let Some(prev) = out
            .last_mut()
            .filter(|p| !p.proof.is_exact() && !d.proof.is_exact())
        {
            let gap = text.get(prev.span.end..d.span.start).unwrap_or("\n");
            for rule in &rules {
                match rule.action {
                    Action::Absorb(f) if f(text, prev, gap, &d) => {
                        prev.trace.rules.push(rule.name);
                        continue 'next;
                    }
                    Action::Join(f) => {
                        if let Some(label) = f(text, prev, gap, &d) {
                            if label != prev.label {
                                prev.alternative = Some((prev.label, prev.score));
                                prev.label = label;
                            }
                            prev.span.end = d.span.end;
                            prev.score = prev.score.max(d.score);
                            prev.trace.rules.push(rule.name);
                            continue 'next;
                        }
                    }
                    _ => {}
                }
            }
        }
        out.push(d);
    }
    out
}
