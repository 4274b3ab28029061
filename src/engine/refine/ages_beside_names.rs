//! An age written right after a person's name, as news, reports and interview notes
//! give it: "Tomás Herrera, 34, joined …", "Max Müller (34) sagte …", "Jordan turns 40
//! on June 3rd". The number is that person's age; alone it is any number, so only the
//! name before it tells, and only a resolved `PERSON` counts.

use crate::engine::{Detection, Proof, Trace};
use crate::text::{ByteSpan, Label, LabelSet};

/// Same as the `AGE` pattern's: an age is as sure as the name it follows.
const SCORE: f32 = 0.85;

/// `detections` (sorted, non-overlapping, of `text`) with an `AGE` added after every
/// person whose name is followed by `, 34,`, ` (34)` or ` turns 40`, where nothing else
/// was found. Sorted and non-overlapping, as it came.
pub(crate) fn with_ages(
    text: &str,
    labels: &LabelSet,
    mut detections: Vec<Detection>,
) -> Vec<Detection> {
    let age = Label::builtin("AGE");
    if !labels.contains(age) {
        return detections;
    }
    let mut added: Vec<Detection> = Vec::new();
    for (i, d) in detections.iter().enumerate() {
        if d.label.as_str() != "PERSON" {
            continue;
        }
        let Some(span) = age_after(text, d.span.end) else {
            continue;
        };
        let free = detections
            .get(i + 1)
            .is_none_or(|next| next.span.start >= span.end);
        if free {
            added.push(Detection {
                span,
                label: age,
                score: SCORE,
                alternative: None,
                proof: Proof::None,
                trace: Trace::default(),
            });
        }
    }
    if !added.is_empty() {
        detections.extend(added);
        detections.sort_by_key(|d| d.span.start);
    }
    detections
}

/// The span of the age in `, 34, `, ` (34)` or ` turns 40 ` right at `at`: one to three
/// digits, a human age (1 to 119), closed by a comma and a space, the bracket, or what
/// ends the thought after "turns" ("Smith, 34,000" has no closing space, and "Smith, 12,
/// 14 and 16" is a list).
fn age_after(text: &str, at: usize) -> Option<ByteSpan> {
    let rest = text.get(at..)?;
    let turns = [" turns ", " turned ", " just turned "]
        .into_iter()
        .find(|t| rest.starts_with(t));
    let (open, close): (&str, &[&str]) = if rest.starts_with(", ") {
        (", ", &[", "])
    } else if rest.starts_with(" (") {
        (" (", &[")"])
    } else if let Some(turns) = turns {
        // "Jordan turns 40 on June 3rd", not "turns 90 degrees".
        (
            turns,
            &[
                " on",
                " in",
                " this",
                " next",
                " today",
                " tomorrow",
                ".",
                ",",
                "!",
                ";",
            ],
        )
    } else {
        return None;
    };
    let after_open = &rest[open.len()..];
    let digits = after_open.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=3).contains(&digits) {
        return None;
    }
    let tail = &after_open[digits..];
    if !close.iter().any(|c| tail.starts_with(c)) {
        return None;
    }
    // A list of numbers after a name ("Smith, 12, 14 and 16") is no age.
    if tail.starts_with(", ") && tail[2..].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let years: u32 = after_open[..digits].parse().ok()?;
    let start = at + open.len();
    (1..=119)
        .contains(&years)
        .then(|| ByteSpan::new(start, start + digits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::detection_at;

    fn ages<'t>(text: &'t str, name: &str) -> Vec<&'t str> {
        let person = detection_at(text, name, "PERSON", Proof::None);
        with_ages(text, &LabelSet::all(), vec![person])
            .iter()
            .filter(|d| d.label.as_str() == "AGE")
            .map(|d| &text[d.span.start..d.span.end])
            .collect()
    }

    #[test]
    fn an_age_right_after_a_name_is_that_persons() {
        assert_eq!(
            ages("candidate Tomás Herrera, 34, currently at", "Tomás Herrera"),
            ["34"]
        );
        assert_eq!(ages("Max Müller (34) sagte", "Max Müller"), ["34"]);
        assert_eq!(ages("Jordan turns 40 on June 3rd", "Jordan"), ["40"]);
    }

    #[test]
    fn other_numbers_after_a_name_are_no_age() {
        for (text, name) in [
            ("paid Jane Smith, 34,000 euros", "Jane Smith"),
            ("see Smith, 12, 14 and 16", "Smith"),
            ("Jane Smith, 250, is the count", "Jane Smith"),
            ("Jane Smith, 34 Oak Road", "Jane Smith"),
            ("Jane Smith (1990) held", "Jane Smith"),
            ("Jane Smith turns 90 degrees", "Jane Smith"),
        ] {
            assert!(ages(text, name).is_empty(), "{text}");
        }
    }

    #[test]
    fn only_where_ages_are_asked_for_and_nothing_else_was_found() {
        let text = "Tomás Herrera, 34, said";
        let person = detection_at(text, "Tomás Herrera", "PERSON", Proof::None);
        let only_people = LabelSet::new(vec![Label::builtin("PERSON")]);
        assert_eq!(with_ages(text, &only_people, vec![person.clone()]).len(), 1);
        let number = detection_at(text, "34", "US_BANK_NUMBER", Proof::None);
        assert_eq!(
            with_ages(text, &LabelSet::all(), vec![person, number]).len(),
            2
        );
    }
}
