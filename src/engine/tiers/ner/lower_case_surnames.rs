//! A lower-case person's surname that the model leaves out. In chat written in lower case
//! the model reads "rick" of "rick astley" as a name and "astley", a word its vocabulary
//! does not know whole, as nothing: the surname, the rarer and more telling half of the
//! name, would stay in the clear.

use super::decode::{Target, TypedSpan};
use super::tokenize::Tokens;
use crate::engine::lexicon::words::{is_frequent_word, ABSTRACT_NOUN_ENDINGS};
use crate::text::{ByteSpan, Label};

/// Endings of verb and adverb forms and of agent nouns, which follow a name more often
/// than a surname does ("rick laughed", "jake running", "trump impersonator").
const WORD_ENDINGS: &[&str] = &["ed", "ing", "ly", "ator"];

/// Extends each lower-case person of one or two words over the word one space after it,
/// when that word is three or more lower-case letters that the tokenizer splits into
/// sub-words (a word its vocabulary does not know whole: "astley", "pouler"; not "plays"
/// or "downtown"), ends its run of letters, is no frequent word, chat or form of address,
/// has no verb, agent or abstract noun ending, and starts no entity of its own.
pub fn extend(text: &str, tokens: &Tokens, entities: &mut [TypedSpan], targets: &[Option<Target>]) {
    let person = Label::builtin("PERSON");
    for k in 0..entities.len() {
        let entity = entities[k];
        let is_person = targets
            .get(entity.entity_type)
            .copied()
            .flatten()
            .is_some_and(|t| t.label == person);
        let Some(name) = text.get(entity.span.start..entity.span.end) else {
            continue;
        };
        if !is_person
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
            || entities
                .get(k + 1)
                .is_some_and(|next| next.span.start < end)
            || sub_words(tokens, start, end) < 2
            || is_frequent_word(word)
            || WORD_ENDINGS
                .iter()
                .chain(ABSTRACT_NOUN_ENDINGS)
                .any(|e| word.ends_with(e))
        {
            continue;
        }
        entities[k].span = ByteSpan::new(entity.span.start, end);
    }
}

/// How many tokens the word at `start..end` was split into.
fn sub_words(tokens: &Tokens, start: usize, end: usize) -> usize {
    let first = tokens.spans.partition_point(|s| s.start < start);
    tokens.spans[first..]
        .iter()
        .take_while(|s| s.start < end)
        .filter(|s| !s.is_empty())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One token per `|`-separated piece, words split on spaces; entity `k` is PERSON
    /// at the byte span given.
    fn run(pieces: &str, persons: &[(usize, usize)]) -> Vec<String> {
        let mut tokens = Tokens::default();
        let mut text = String::new();
        for (w, word) in pieces.split(' ').enumerate() {
            if w > 0 {
                text.push(' ');
            }
            for piece in word.split('|') {
                tokens.ids.push(0);
                tokens
                    .spans
                    .push(ByteSpan::new(text.len(), text.len() + piece.len()));
                tokens.words.push(w as u32);
                text.push_str(piece);
            }
        }
        let mut entities: Vec<TypedSpan> = persons
            .iter()
            .map(|&(start, end)| TypedSpan {
                entity_type: 0,
                span: ByteSpan::new(start, end),
                probability_sum: 1.0,
                tokens: 1,
            })
            .collect();
        let targets = [Some(Target {
            label: Label::builtin("PERSON"),
            alone: None,
        })];
        extend(&text, &tokens, &mut entities, &targets);
        entities
            .iter()
            .map(|e| text[e.span.start..e.span.end].to_owned())
            .collect()
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
}
