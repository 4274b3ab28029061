//! A name in a list of names: "Team: Ole Gunnar, Bjørn-Erik Hansen, Åsa Öberg, Đorđe
//! Đoković". Where two or more items of a comma-separated list are people and the others
//! are written as names (one to three capitalised words), an item that no tier found, or
//! found only in part, is a person too: a model misses a name it cannot read now and
//! then, and the list's other items say what it is. So is the second of a pair joined
//! by "and" or "&" whose first is a person: "Where is Vinkare and Herbalisti".

use crate::engine::lexicon::words::{is_english_word, is_frequent_word, is_listed_word};
use crate::engine::{dictionary, Detection, Proof, Trace};
use crate::text::{ByteSpan, Label, LabelSet};

/// Below the model's and the rules' sure readings: the list, not the words, tells.
const SCORE: f32 = 0.6;

/// `detections` (sorted, non-overlapping, of `text`) with every name-shaped item of a
/// list of people that no tier found, or found only in part, made a whole `PERSON`.
/// Sorted and non-overlapping, as it came.
pub(crate) fn with_list_names(
    text: &str,
    labels: &LabelSet,
    mut detections: Vec<Detection>,
) -> Vec<Detection> {
    let person = Label::builtin("PERSON");
    if !labels.contains(person) {
        return detections;
    }
    let mut added = second_of_pairs(text, &detections, person);
    added.extend(names_in_lists(text, &detections, person));
    if !added.is_empty() {
        // A part of the name that a tier found gives way to the whole name.
        detections.retain(|d| {
            !added
                .iter()
                .any(|a: &Detection| d.span.start < a.span.end && a.span.start < d.span.end)
        });
        detections.extend(added);
        detections.sort_by_key(|d| d.span.start);
    }
    detections
}

/// The unfound names of every line's list of people.
fn names_in_lists(text: &str, detections: &[Detection], person: Label) -> Vec<Detection> {
    let mut added = Vec::new();
    if !text.contains(", ") {
        return added;
    }
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        // Each line reads only its own detections (sorted and disjoint, so their ends
        // are sorted too), and a line without a comma or a person is no list of people.
        let from = detections.partition_point(|d| d.span.end <= line_start);
        let to = detections.partition_point(|d| d.span.start < line_end);
        let own = &detections[from..to];
        if line.contains(", ") && own.iter().any(|d| d.label == person) {
            added.extend(names_in_line(
                text,
                line_start,
                line.trim_end(),
                own,
                person,
            ));
        }
        line_start = line_end;
    }
    added
}

/// The second of every pair whose first is a person: one word written as a name after
/// " and " or " & ", that no tier found and that is no English word, place, people or
/// listed organisation ("Milosevic and Yugoslav politicians", "Ana and Google"), nor the
/// first word of a longer name, which the tiers read better.
fn second_of_pairs(text: &str, detections: &[Detection], person: Label) -> Vec<Detection> {
    let mut out = Vec::new();
    for (i, d) in detections.iter().enumerate() {
        if d.label != person {
            continue;
        }
        let rest = &text[d.span.end..];
        let Some(after) = rest
            .strip_prefix(" and ")
            .or_else(|| rest.strip_prefix(" & "))
        else {
            continue;
        };
        let len = after
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(after.len());
        let (word, tail) = after.split_at(len);
        let mut tail_chars = tail.chars();
        let ends = match tail_chars.next() {
            None => true,
            Some(' ') => !tail_chars.next().is_some_and(char::is_uppercase),
            Some(c) => !c.is_alphanumeric() && !matches!(c, '-' | '\'' | '’'),
        };
        let start = text.len() - after.len();
        let span = ByteSpan::new(start, start + len);
        let free = detections
            .get(i + 1)
            .is_none_or(|next| next.span.start >= span.end);
        let lower = word.to_lowercase();
        let a_name = name_shaped(word)
            && !is_english_word(&lower)
            && !is_frequent_word(word)
            && !is_listed_word(word)
            && !dictionary::is_nationality(word)
            && !dictionary::is_place(word);
        if ends && free && a_name {
            out.push(Detection {
                span,
                label: person,
                score: SCORE,
                alternative: None,
                proof: Proof::None,
                trace: Trace::default(),
            });
        }
    }
    out
}

/// The names of one line's list that no tier found whole (`line` starts at byte `at` of
/// `text`; `detections` are those that overlap it).
fn names_in_line(
    text: &str,
    at: usize,
    line: &str,
    detections: &[Detection],
    person: Label,
) -> Vec<Detection> {
    let items = items(line)
        .into_iter()
        .map(|s| ByteSpan::new(at + s.start, at + s.end))
        .collect::<Vec<_>>();
    if items.len() < 3 {
        return Vec::new();
    }
    let overlapping = |item: ByteSpan| {
        detections
            .iter()
            .filter(move |d| d.span.start < item.end && item.start < d.span.end)
    };
    // An item is a person when a person is all of it, after the list's heading for the
    // first ("Team: Ole Gunnar").
    let is_person = |item: ByteSpan| {
        overlapping(item).any(|d| {
            d.label == person
                && d.span.end == item.end
                && d.span.start >= item.start
                && (d.span.start == item.start || text[item.start..d.span.start].ends_with(": "))
        })
    };
    // Each item read once: (span, a person is all of it, written as a name).
    let read: Vec<(ByteSpan, bool, bool)> = items
        .into_iter()
        .map(|item| {
            (
                item,
                is_person(item),
                name_shaped(&text[item.start..item.end]),
            )
        })
        .collect();
    let people = read.iter().filter(|&&(_, person, _)| person).count();
    // A list, not a sentence with commas: every item is a person or written as a name.
    let a_list = read.iter().all(|&(_, person, shaped)| person || shaped);
    if people < 2 || !a_list {
        return Vec::new();
    }
    // Unfound, or found only in part by a person reading ("Đorđe" of "Đorđe Đoković").
    read.into_iter()
        .filter(|&(item, is_person, shaped)| {
            shaped
                && !is_person
                && overlapping(item).all(|d| d.label == person && d.proof == Proof::None)
        })
        .map(|(span, _, _)| Detection {
            span,
            label: person,
            score: SCORE,
            alternative: None,
            proof: Proof::None,
            trace: Trace::default(),
        })
        .collect()
}

/// The items of a comma-separated list in `line`, trimmed, with a closing full stop,
/// and an "and" that opens the last item, left out.
fn items(line: &str) -> Vec<ByteSpan> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in line.match_indices(", ").chain([(line.len(), "")]) {
        let mut s = start;
        let mut e = i;
        let item = &line[s..e];
        if let Some(rest) = item.strip_prefix("and ") {
            s += item.len() - rest.len();
        }
        let trimmed = line[s..e].trim_end_matches(['.', ';', ' ']);
        e = s + trimmed.len();
        out.push(ByteSpan::new(s, e));
        start = i + 2;
    }
    out
}

/// One to three words, each a capital and then lower-case letters (a hyphen or an
/// apostrophe inside): "Đorđe Đoković", "Jean-Luc", "O'Neil".
fn name_shaped(item: &str) -> bool {
    let words: Vec<&str> = item.split(' ').collect();
    (1..=3).contains(&words.len())
        && words.iter().all(|w| {
            let mut chars = w.chars();
            chars.next().is_some_and(char::is_uppercase)
                && w.chars().count() >= 2
                && chars.all(|c| c.is_lowercase() || c == '-' || c == '\'' || c == '’')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::detection_at;

    fn added(text: &str, people: &[&str]) -> Vec<String> {
        let found = people
            .iter()
            .map(|p| detection_at(text, p, "PERSON", Proof::None))
            .collect();
        let all = with_list_names(text, &LabelSet::all(), found);
        assert!(all.windows(2).all(|w| w[0].span.end <= w[1].span.start));
        all.iter()
            .filter(|d| d.score == SCORE)
            .map(|d| text[d.span.start..d.span.end].to_owned())
            .collect()
    }

    #[test]
    fn an_unfound_name_in_a_list_of_people_is_a_person() {
        let text = "Team: Ole Gunnar, Bjørn-Erik Hansen, Åsa Öberg, Đorđe Đoković";
        assert_eq!(
            added(text, &["Ole Gunnar", "Bjørn-Erik Hansen", "Åsa Öberg"]),
            ["Đorđe Đoković"]
        );
        let text = "Speakers: Ana Ruiz, Đorđe Đoković, and Bo Chen.";
        assert_eq!(added(text, &["Ana Ruiz", "Bo Chen"]), ["Đorđe Đoković"]);
        assert_eq!(
            added(text, &["Ana Ruiz", "Đorđe", "Bo Chen"]),
            ["Đorđe Đoković"]
        );
    }

    #[test]
    fn the_second_of_a_pair_after_a_person_is_a_person() {
        assert_eq!(
            added(
                "Where is Vinkare and Herbalisti # torillatavataa",
                &["Vinkare"]
            ),
            ["Herbalisti"]
        );
        assert_eq!(added("Ana & Đorđe.", &["Ana"]), ["Đorđe"]);
        for (text, first) in [
            (
                "Slobodan Milosevic and Yugoslav politicians",
                "Slobodan Milosevic",
            ),
            ("Ana and Paris", "Ana"),
            ("Ana and Google", "Ana"),
            ("Ana and Then we left", "Ana"),
            ("Ana and Đorđe Đoković", "Ana"),
            ("Ana and Jean-Luc", "Ana"),
            ("Ana and IBM", "Ana"),
        ] {
            assert!(added(text, &[first]).is_empty(), "{text}");
        }
    }

    #[test]
    fn other_lists_and_other_items_stay() {
        // One person only, or items that are no name.
        assert!(added("Paris, Rome, Ana Ruiz, Berlin", &["Ana Ruiz"]).is_empty());
        assert!(added(
            "Ana Ruiz, Bo Chen, the new intern, 3 others",
            &["Ana Ruiz", "Bo Chen"]
        )
        .is_empty());
        assert!(added("Ana Ruiz, Bo Chen, IBM", &["Ana Ruiz", "Bo Chen"]).is_empty());
        // A person that starts before an item and ends with it is no item of its own.
        assert!(added("Ana Ruiz, Bo Chen, Li Na", &["Ana Ruiz", "Bo Chen, Li Na"]).is_empty());
        // A sentence with commas is no list.
        let text = "The Irish, under manager Mick McCarthy, took a lead through Ana Ruiz, Bo Chen";
        assert!(added(text, &["Mick McCarthy", "Ana Ruiz", "Bo Chen"]).is_empty());
    }
}
