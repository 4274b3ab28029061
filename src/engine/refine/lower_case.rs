//! Names in chat typed in lower case, corrected with what the model's tokens show: the
//! reading rules, which run on the model tier's entities of a whole text before they
//! are merged and labelled ([`Reading`]).
//!
//! - `second_reading_persons`: the model reads a window again with its unknown
//!   lower-case words capitalised (`second_reading.rs`); a person of that
//!   reading is kept when it is sure, made only of such words, and touches no capitalised
//!   entity of the first reading. Measured on the dev sets, full engine
//!   (`eval/README.md`): WNUT-17 F1 0.682 → 0.689; news, judgments, payloads and notes
//!   barely change.
//! - `lower_case_surnames`: the model reads "rick" of "rick astley" as a name and
//!   "astley", a word its vocabulary does not know whole, as nothing: the surname, the
//!   rarer and more telling half of the name, would stay in the clear.

use super::{ex, Action, Rule};
use crate::engine::lexicon::words::{is_frequent_word, ABSTRACT_NOUN_ENDINGS};
use crate::engine::tiers::ner::decode::TypedSpan;
use crate::engine::tiers::ner::reading::Reading;
use crate::text::{ByteSpan, Label};

/// The reading rules, in the order they run: a person the second reading adds may take
/// its surname after it.
pub(super) const READ: &[Rule] = &[
    Rule {
        name: "second_reading_persons",
        labels: &["PERSON"],
        reason: "lower-case chat hides names from a model that sees case as one bit a word",
        action: Action::Read(second_reading_persons),
        examples: &[
            ex(
                "wow emma and kaite is so cute",
                "emma:PERSON || kaite:PERSON",
                "PERSON",
                "emma:PERSON | kaite:PERSON",
            ),
            ex(
                "salute to sitaram katel",
                "katel:PERSON || sitaram:PERSON",
                "PERSON",
                "sitaram:PERSON | katel:PERSON",
            ),
        ],
        counter_examples: &[
            ex(
                "the seamer kaite Martin",
                "Martin:PERSON || kaite:PERSON",
                "PERSON",
                "Martin:PERSON",
            ),
            ex("wow kaite is here", " || is:PERSON", "PERSON", ""),
            ex(
                "wow kaite is here",
                "kaite:LOCATION || kaite:PERSON",
                "PERSON",
                "kaite:LOCATION",
            ),
        ],
    },
    Rule {
        name: "lower_case_surnames",
        labels: &["PERSON"],
        reason: "a surname the vocabulary does not know whole is left out of a lower-case name",
        action: Action::Read(extend_over_surnames),
        examples: &[ex(
            "i love rick astley songs",
            "rick:PERSON",
            "PERSON",
            "rick astley:PERSON",
        )],
        counter_examples: &[
            ex(
                "kishan plays well",
                "kishan:PERSON",
                "PERSON",
                "kishan:PERSON",
            ),
            ex("rick laughed", "rick:PERSON", "PERSON", "rick:PERSON"),
            ex("Rick astley", "Rick:PERSON", "PERSON", "Rick:PERSON"),
        ],
    },
];

/// Least mean token confidence of a person the second reading adds. At 0.6, WNUT-17 dev
/// gains 3 more persons and 4 more false ones, and news and payloads 6 more false ones.
const MIN_CONFIDENCE: f32 = 0.7;

/// Adds each person of the second reading with mean confidence above
/// [`MIN_CONFIDENCE`] whose tokens all belong to unknown words, and which neither
/// overlaps an entity of the first reading nor touches a capitalised one; the added
/// spans.
fn second_reading_persons(text: &str, reading: &mut Reading) -> Vec<ByteSpan> {
    let person = Label::builtin("PERSON");
    let Some(second) = reading.second.take() else {
        return Vec::new();
    };
    let mut added = Vec::new();
    let spans = &reading.tokens.spans;
    for entity in &second.entities {
        let confidence = entity.probability_sum / entity.tokens.max(1) as f32;
        let first = spans.partition_point(|s| s.end <= entity.span.start);
        let all_unknown = spans[first..]
            .iter()
            .zip(&second.unknown[first..])
            .take_while(|(s, _)| s.start < entity.span.end)
            .filter(|(s, _)| !s.is_empty())
            .all(|(_, &u)| u);
        // Touching counts too (spans only spaces apart merge into one person), unless the
        // neighbour is lower-case as well: "sitaram" joins "katel", "seamer" must not
        // join "Peter Martin".
        let blocked = reading.entities.iter().any(|e| {
            let gap = if e.span.end <= entity.span.start {
                text.get(e.span.end..entity.span.start)
            } else if entity.span.end <= e.span.start {
                text.get(entity.span.end..e.span.start)
            } else {
                return true;
            };
            let touching = gap.is_some_and(|g| g.chars().all(|c| c == ' '));
            let capitalised = text
                .get(e.span.start..e.span.end)
                .is_some_and(|s| s.chars().any(char::is_uppercase));
            touching && capitalised
        });
        if reading.is(entity, person) && confidence > MIN_CONFIDENCE && all_unknown && !blocked {
            let at = reading
                .entities
                .partition_point(|e| e.span.start < entity.span.start);
            reading.entities.insert(at, *entity);
            added.push(entity.span);
        }
    }
    reading.second = Some(second);
    added
}

/// Endings of verb and adverb forms and of agent nouns, which follow a name more often
/// than a surname does ("rick laughed", "jake running", "trump impersonator").
const WORD_ENDINGS: &[&str] = &["ed", "ing", "ly", "ator"];

/// Extends each lower-case person of one or two words over the word one space after it,
/// when that word is three or more lower-case letters that the tokenizer splits into
/// sub-words (a word its vocabulary does not know whole: "astley", "pouler"; not "plays"
/// or "downtown"), ends its run of letters, is no frequent word, chat or form of address,
/// has no verb, agent or abstract noun ending, and starts no entity of its own; the
/// extended spans. Only where the tokens' words are whitespace-separated words.
fn extend_over_surnames(text: &str, reading: &mut Reading) -> Vec<ByteSpan> {
    let person = Label::builtin("PERSON");
    let mut extended = Vec::new();
    if !reading.whole_words {
        return extended;
    }
    for k in 0..reading.entities.len() {
        let entity: TypedSpan = reading.entities[k];
        let Some(name) = text.get(entity.span.start..entity.span.end) else {
            continue;
        };
        if !reading.is(&entity, person)
            || name.chars().any(|c| !(c.is_lowercase() || c == ' '))
            || name.split(' ').count() > 2
        {
            continue;
        }
        let Some(rest) = text
            .get(entity.span.end..)
            .and_then(|rest| rest.strip_prefix(' '))
        else {
            continue;
        };
        let len: usize = rest
            .chars()
            .take_while(|c| c.is_lowercase())
            .map(char::len_utf8)
            .sum();
        let word = &rest[..len];
        let mut after = rest[len..].chars();
        let ends_word = match after.next() {
            None => true,
            Some('.') => !after.next().is_some_and(char::is_alphanumeric),
            Some(c) => !c.is_alphanumeric() && !matches!(c, '\'' | '’' | '-' | '_' | '@' | '/'),
        };
        let start = entity.span.end + 1;
        let end = start + len;
        if word.chars().count() < 3
            || !ends_word
            || reading
                .entities
                .get(k + 1)
                .is_some_and(|next| next.span.start < end)
            || reading.tokens.sub_words(start, end) < 2
            || is_frequent_word(word)
            || WORD_ENDINGS
                .iter()
                .chain(ABSTRACT_NOUN_ENDINGS)
                .any(|e| word.ends_with(e))
        {
            continue;
        }
        let span = ByteSpan::new(entity.span.start, end);
        reading.entities[k].span = span;
        extended.push(span);
    }
    extended
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::refine::second_reading::unknown_words;
    use crate::engine::tiers::ner::decode::Target;
    use crate::engine::tiers::ner::reading::{SecondReading, TokenView};
    use crate::engine::tiers::ner::tokenize::marked_tokens;
    use crate::engine::tiers::ner::tokenize::Tokens;

    /// Model types 0 PERSON and 1 LOCATION.
    fn targets() -> Arc<[Option<Target>]> {
        ["PERSON", "LOCATION"]
            .iter()
            .map(|l| {
                Some(Target {
                    label: Label::builtin(l),
                    alone: None,
                })
            })
            .collect()
    }

    fn reading(tokens: Tokens, entities: Vec<TypedSpan>) -> Reading {
        Reading {
            tokens: TokenView::from(tokens),
            entities,
            targets: targets(),
            whole_words: true,
            ..Reading::default()
        }
    }

    fn words(text: &str, reading: &Reading) -> Vec<String> {
        reading
            .entities
            .iter()
            .map(|e| text[e.span.start..e.span.end].to_owned())
            .collect()
    }

    /// `marked` as [`marked_tokens`] reads it; each of `persons` a PERSON at the byte
    /// span given.
    fn run(marked: &str, persons: &[(usize, usize)]) -> Vec<String> {
        let (text, tokens) = marked_tokens(marked);
        let entities: Vec<TypedSpan> = persons
            .iter()
            .map(|&(start, end)| TypedSpan {
                entity_type: 0,
                span: ByteSpan::new(start, end),
                probability_sum: 1.0,
                tokens: 1,
            })
            .collect();
        let mut reading = reading(tokens, entities);
        extend_over_surnames(&text, &mut reading);
        words(&text, &reading)
    }

    #[test]
    fn a_surname_the_vocabulary_does_not_know_joins_the_lower_case_name_before_it() {
        assert_eq!(run("i love rick as|tley", &[(7, 11)]), ["rick astley"]);
        assert_eq!(run("ali ask|ar , chandu", &[(0, 3)]), ["ali askar"]);
        assert_eq!(run("a jake po|ule|r its", &[(2, 6)]), ["jake pouler"]);
    }

    #[test]
    fn known_words_verbs_chat_capitals_and_other_entities_stay_out() {
        // whole words of the vocabulary, chat, verb forms, abstract nouns
        assert_eq!(run("kishan plays well", &[(0, 6)]), ["kishan"]);
        assert_eq!(run("rick lo|l", &[(0, 4)]), ["rick"]);
        assert_eq!(run("rick sub|scribe|d", &[(0, 4)]), ["rick"]);
        assert_eq!(run("jake mon|eti|zation", &[(0, 4)]), ["jake"]);
        assert_eq!(run("trump imp|erson|ator", &[(0, 5)]), ["trump"]);
        // a capitalised name, a word that goes on, two spaces, another entity
        assert_eq!(run("Rick as|tley", &[(0, 4)]), ["Rick"]);
        assert_eq!(run("rick as|tley's", &[(0, 4)]), ["rick"]);
        assert_eq!(run("rick as|tley.com", &[(0, 4)]), ["rick"]);
        assert_eq!(run("rick  as|tley", &[(0, 4)]), ["rick"]);
        assert_eq!(run("rick as|tley", &[(0, 4), (5, 11)]), ["rick", "astley"]);
    }

    /// Runs [`second_reading_persons`] on `marked` with first-reading entities `first`
    /// and second-reading entities `second`, each `(word, type, confidence)`, type 0
    /// PERSON and 1 LOCATION.
    fn added(marked: &str, first: &[(&str, usize)], second: &[(&str, usize, f32)]) -> Vec<String> {
        let (text, tokens) = marked_tokens(marked);
        let unknown = unknown_words(&text, &tokens);
        let span = |word: &str| {
            let start = text.find(word).unwrap();
            ByteSpan::new(start, start + word.len())
        };
        let typed = |word: &str, entity_type: usize, confidence: f32| TypedSpan {
            entity_type,
            span: span(word),
            probability_sum: confidence * 2.0,
            tokens: 2,
        };
        let entities: Vec<TypedSpan> = first.iter().map(|&(w, t)| typed(w, t, 0.9)).collect();
        let second: Vec<TypedSpan> = second.iter().map(|&(w, t, c)| typed(w, t, c)).collect();
        let mut reading = reading(tokens, entities);
        reading.second = Some(SecondReading {
            unknown,
            entities: second,
        });
        second_reading_persons(&text, &mut reading);
        words(&text, &reading)
    }

    #[test]
    fn sure_persons_of_unknown_words_are_added_in_text_order() {
        assert_eq!(
            added(
                "wow emma and kaite are here",
                &[("emma", 0)],
                &[("kaite", 0, 0.85)]
            ),
            ["emma", "kaite"]
        );
        // A lower-case neighbour may join it: "sitaram" and "katel" become one person.
        assert_eq!(
            added(
                "salute to sitaram katel",
                &[("katel", 0)],
                &[("sitaram", 0, 0.8)]
            ),
            ["sitaram", "katel"]
        );
    }

    #[test]
    fn unsure_places_known_words_overlaps_and_capitalised_neighbours_are_not_added() {
        let unsure = added("wow kaite is here", &[], &[("kaite", 0, 0.65)]);
        assert!(unsure.is_empty());
        assert!(added("wow kaite is here", &[], &[("kaite", 1, 0.9)]).is_empty());
        assert!(added("wow kaite is here", &[], &[("is", 0, 0.9)]).is_empty());
        assert!(added("wow kaite is here", &[], &[("kaite is", 0, 0.9)]).is_empty());
        assert_eq!(
            added("wow kaite is here", &[("kaite", 1)], &[("kaite", 0, 0.9)]),
            ["kaite"]
        );
        assert_eq!(
            added(
                "the seamer kaite Martin",
                &[("Martin", 0)],
                &[("kaite", 0, 0.9)]
            ),
            ["Martin"]
        );
    }
}
