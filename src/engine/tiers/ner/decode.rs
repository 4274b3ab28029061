//! Per-token classes → entity spans with our labels and confidences.
//!
//! Three steps, each a pure function of the previous one:
//!
//! 1. **Words.** A word (the tokenizer's pre-token: `springfield` = `spring ##field`)
//!    takes the class of its first sub-word, as Hugging Face's `first` aggregation does.
//! 2. **BIO.** A word of type T continues the open entity of type T when it is glued to
//!    it (no gap: `john` `@` `example` of an e-mail, whatever their B/I prefix; an
//!    untagged apostrophe between is no gap: `Songo'o`). A word tagged `I-` continues the
//!    open entity, whatever their types, when only whitespace separates them: the entity
//!    keeps the type of its first word. Anything else starts a new entity (a stray `I-`
//!    after `O` included) or, for `O`, closes it.
//! 3. **Labels.** Each model type maps to one of our labels (`GIVEN_NAME` → PERSON). Adjacent
//!    entities with the same label merge into one: across whitespace always, across a
//!    comma only when their model types differ (`42 Elm Street, Springfield` is one
//!    ADDRESS; `John, Mary` stays two). A merged group of only types that have an
//!    `alone` label (CITY, STATE → LOCATION) takes that label instead. The comma rule
//!    is a judgement call, not measured.
//!
//! An entity's confidence is the mean of its tokens' softmax maxima.

use crate::text::{ByteSpan, Label, LabelSet};

use super::model::{Bio, TagScheme, TokenClass};
use super::tokenize::Tokens;
use crate::engine::{Candidate, Proof, Trace};

/// What one model entity type becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub label: Label,
    /// Label when no differently-labelled neighbour is merged in (see module doc).
    pub alone: Option<Label>,
}

/// One model entity (step 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypedSpan {
    pub entity_type: usize,
    pub span: ByteSpan,
    pub probability_sum: f32,
    pub tokens: u32,
}

/// Steps 1 and 2: words and BIO.
pub fn bio_entities(
    text: &str,
    tokens: &Tokens,
    classes: &[TokenClass],
    scheme: &TagScheme,
) -> Vec<TypedSpan> {
    let mut entities: Vec<TypedSpan> = Vec::new();
    let mut open = false;
    let mut i = 0;
    let count = tokens.len().min(classes.len());
    while i < count {
        // The word is tokens[i..j].
        let word = tokens.words[i];
        let mut j = i + 1;
        while j < count && tokens.words[j] == word {
            j += 1;
        }
        let (class, _) = classes[i];
        let (bio, entity_type) = scheme
            .classes
            .get(class as usize)
            .copied()
            .unwrap_or((Bio::Outside, 0));
        let mut span: Option<ByteSpan> = None;
        for s in &tokens.spans[i..j] {
            if !s.is_empty() {
                span = Some(match span {
                    Some(sp) => ByteSpan::new(sp.start.min(s.start), sp.end.max(s.end)),
                    None => *s,
                });
            }
        }
        let probability_sum: f32 = classes[i..j].iter().map(|c| c.1).sum();
        let word_tokens = (j - i) as u32;
        i = j;
        let Some(span) = span else {
            // Zero-width word (all its characters normalised away): neither part of an
            // entity nor a break in one.
            continue;
        };
        if bio == Bio::Outside {
            // An apostrophe inside a word ("Songo'o") does not end the entity before it.
            let inside_word = open
                && entities
                    .last()
                    .is_some_and(|last| last.span.end == span.start)
                && text.get(span.start..span.end).is_some_and(apostrophe);
            open = inside_word;
            continue;
        }
        if open {
            if let Some(last) = entities.last_mut() {
                let glued = span.start <= last.span.end
                    || text.get(last.span.end..span.start).is_some_and(apostrophe);
                // A line break ends an entity whatever the tag says (headline lists
                // such as "MILWAUKEE\nCLEVELAND" are two teams, not one).
                let spaced = bio == Bio::Inside
                    && text
                        .get(last.span.end..span.start)
                        .is_some_and(|gap| gap.chars().all(|c| c.is_whitespace() && c != '\n'));
                // An I- tag continues the open entity even when its type differs: the
                // model is surer where a name goes on than of its type ("Suu Kyi" tagged
                // B-PER I-ORG is one person, of its first word's type).
                if spaced || (glued && last.entity_type == entity_type) {
                    last.span = ByteSpan::new(last.span.start, span.end.max(last.span.end));
                    last.probability_sum += probability_sum;
                    last.tokens += word_tokens;
                    continue;
                }
            }
        }
        entities.push(TypedSpan {
            entity_type,
            span,
            probability_sum,
            tokens: word_tokens,
        });
        open = true;
    }
    entities
}

/// A lone apostrophe, which joins the parts of a name ("Songo'o") whatever its tag.
fn apostrophe(s: &str) -> bool {
    matches!(s, "'" | "\u{2019}")
}

/// Step 3: maps and merges model entities into candidates for the labels in `wanted`,
/// as the model tagged them (the model-span rules of `engine::refine` correct them).
/// `targets[t]` is what model type `t` becomes (`None`: ignored).
pub fn candidates(
    text: &str,
    entities: &[TypedSpan],
    targets: &[Option<Target>],
    wanted: &LabelSet,
    out: &mut Vec<Candidate>,
) {
    struct Group {
        label: Label,
        alone: Option<Label>,
        last_type: usize,
        span: ByteSpan,
        probability_sum: f32,
        tokens: u32,
    }
    let flush = |group: Option<Group>, out: &mut Vec<Candidate>| {
        let Some(g) = group else { return };
        let label = g.alone.unwrap_or(g.label);
        if !wanted.contains(label) || g.tokens == 0 {
            return;
        }
        let score = (g.probability_sum / g.tokens as f32).clamp(0.0, 1.0);
        out.push(Candidate {
            span: g.span,
            label,
            score,
            proof: Proof::None,
            trace: Trace::new(super::TIER, "ner"),
        });
    };
    let mut group: Option<Group> = None;
    for entity in entities {
        let Some(target) = targets.get(entity.entity_type).copied().flatten() else {
            // An ignored type still separates its neighbours.
            flush(group.take(), out);
            continue;
        };
        if let Some(g) = group.as_mut() {
            // Spans may touch or even share a character (tokens of one decomposed
            // character); that is no gap at all.
            let gap = if entity.span.start <= g.span.end {
                ""
            } else {
                text.get(g.span.end..entity.span.start).unwrap_or("x")
            };
            let commas = gap.chars().filter(|&c| c == ',').count();
            let only_space_and_commas = gap.chars().all(|c| c == ',' || c.is_whitespace());
            // Parts of one thing may continue on the next line (a street, then its city),
            // two entities of the same type may not.
            let same_type = g.last_type == entity.entity_type;
            let joins = g.label == target.label
                && only_space_and_commas
                && (commas == 0 || (commas == 1 && !same_type))
                && !(same_type && gap.contains('\n'));
            if joins {
                g.span = ByteSpan::new(g.span.start, entity.span.end.max(g.span.end));
                g.probability_sum += entity.probability_sum;
                g.tokens += entity.tokens;
                g.last_type = entity.entity_type;
                // Alone only while every member has the same alone label.
                if g.alone != target.alone {
                    g.alone = None;
                }
                continue;
            }
        }
        flush(group.take(), out);
        group = Some(Group {
            label: target.label,
            alone: target.alone,
            last_type: entity.entity_type,
            span: entity.span,
            probability_sum: entity.probability_sum,
            tokens: entity.tokens,
        });
    }
    flush(group, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tiers::ner::model::TagScheme;

    /// Whitespace "tokenizer" for tests: one token per word, `##` marks a sub-word of the
    /// previous word. Returns tokens and the tag of each from `tags`.
    fn toks(text: &str) -> Tokens {
        let mut t = Tokens::default();
        let mut word = 0u32;
        let mut pos = 0;
        for piece in text.split(' ') {
            for (k, sub) in piece.split('|').enumerate() {
                if k == 0 {
                    word += 1;
                }
                t.ids.push(0);
                t.spans.push(ByteSpan::new(pos, pos + sub.len()));
                t.words.push(word);
                pos += sub.len();
            }
            pos += 1;
        }
        t
    }

    /// Tokens of `words` (one token each) joined by `separators[i]` after word `i`.
    fn lines(words: &[&str], separators: &[&str]) -> (String, Tokens) {
        let mut text = String::new();
        let mut t = Tokens::default();
        for (i, w) in words.iter().enumerate() {
            t.ids.push(0);
            t.spans
                .push(ByteSpan::new(text.len(), text.len() + w.len()));
            t.words.push(i as u32);
            text.push_str(w);
            text.push_str(separators.get(i).copied().unwrap_or(""));
        }
        (text, t)
    }

    #[test]
    fn a_line_break_ends_an_entity_but_not_a_multi_line_address() {
        let scheme = scheme();
        let targets = |text: &str, tokens: &Tokens, classes: &[u16]| {
            let classes: Vec<TokenClass> = classes.iter().map(|&c| (c, 0.9)).collect();
            let entities = bio_entities(text, tokens, &classes, &scheme);
            let label = Label::builtin;
            let address = Some(Target {
                label: label("ADDRESS"),
                alone: None,
            });
            let city = Some(Target {
                label: label("ADDRESS"),
                alone: Some(label("LOCATION")),
            });
            let targets = vec![None, None, address, city, address, None];
            let wanted = LabelSet::new(vec![label("ADDRESS"), label("LOCATION")]);
            let mut out = Vec::new();
            candidates(text, &entities, &targets, &wanted, &mut out);
            out.iter()
                .map(|c| (text[c.span.start..c.span.end].to_owned(), c.label.as_str()))
                .collect::<Vec<_>>()
        };
        // B-STREET, I-STREET across a line break: two streets.
        let (text, tokens) = lines(&["Milwaukee", "Cleveland"], &["\n"]);
        assert_eq!(
            targets(&text, &tokens, &[4, 5]),
            [
                ("Milwaukee".to_owned(), "ADDRESS"),
                ("Cleveland".to_owned(), "ADDRESS")
            ]
        );
        // On one line the I- tag continues the entity.
        let (text, tokens) = lines(&["Elm", "Street"], &[" "]);
        assert_eq!(
            targets(&text, &tokens, &[4, 5]),
            [("Elm Street".to_owned(), "ADDRESS")]
        );
        // Number, street, then the city on the next line: one address.
        let (text, tokens) = lines(&["42", "Elm", "Street", "Springfield"], &[" ", " ", "\n"]);
        assert_eq!(
            targets(&text, &tokens, &[7, 4, 5, 6]),
            [("42 Elm Street\nSpringfield".to_owned(), "ADDRESS")]
        );
    }

    fn scheme() -> TagScheme {
        TagScheme::from_config_json(
            r#"{"id2label": {"0": "O", "1": "B-GIVEN", "2": "I-GIVEN", "3": "B-SUR",
                "4": "B-STREET", "5": "I-STREET", "6": "B-CITY", "7": "B-NUM", "8": "B-MAIL"}}"#,
        )
        .unwrap()
    }

    fn run(marked: &str, classes: &[u16]) -> Vec<(String, &'static str, f32)> {
        let text = marked.replace('|', "");
        let tokens = toks(marked);
        assert_eq!(tokens.len(), classes.len(), "test tags");
        let classes: Vec<TokenClass> = classes.iter().map(|&c| (c, 0.8)).collect();
        let scheme = scheme();
        let entities = bio_entities(&text, &tokens, &classes, &scheme);
        let label = |n| Label::builtin(n);
        let targets = vec![
            Some(Target {
                label: label("PERSON"),
                alone: None,
            }), // GIVEN
            Some(Target {
                label: label("PERSON"),
                alone: None,
            }), // SUR
            Some(Target {
                label: label("ADDRESS"),
                alone: None,
            }), // STREET
            Some(Target {
                label: label("ADDRESS"),
                alone: Some(label("LOCATION")),
            }), // CITY
            Some(Target {
                label: label("ADDRESS"),
                alone: None,
            }), // NUM
            None, // MAIL
        ];
        let wanted = LabelSet::new(vec![label("PERSON"), label("ADDRESS"), label("LOCATION")]);
        let mut out = Vec::new();
        candidates(&text, &entities, &targets, &wanted, &mut out);
        // As the engine corrects them.
        let switches = crate::engine::refine::Switches::default();
        crate::engine::refine::model_candidates(&text, &wanted, out, &switches)
            .iter()
            .map(|c| {
                (
                    text[c.span.start..c.span.end].to_owned(),
                    c.label.as_str(),
                    c.score,
                )
            })
            .collect()
    }

    fn names<'a>(r: &'a [(String, &'static str, f32)]) -> Vec<(&'a str, &'static str)> {
        r.iter().map(|(t, l, _)| (t.as_str(), *l)).collect()
    }

    #[test]
    fn given_name_and_surname_merge_into_one_person() {
        let r = run("hi john smith !", &[0, 1, 3, 0]);
        assert_eq!(names(&r), [("john smith", "PERSON")]);
        assert!((r[0].2 - 0.8).abs() < 1e-6);
    }

    #[test]
    fn address_parts_merge_across_one_comma_and_a_lone_city_is_a_location() {
        let r = run(
            "at 42 elm street , springfield . in paris",
            &[0, 7, 4, 5, 0, 6, 0, 0, 6],
        );
        // The comma token is O here, so the gap check sees " , " — one comma.
        assert_eq!(
            names(&r),
            [
                ("42 elm street , springfield", "ADDRESS"),
                ("paris", "LOCATION")
            ]
        );
    }

    #[test]
    fn sub_words_follow_their_first_piece_and_glued_pieces_join() {
        let r = run("spring|field", &[6, 7]);
        assert_eq!(names(&r), [("springfield", "LOCATION")]);
        // The later pieces' classes do not matter.
        let r = run("x jo|hn|ny y", &[0, 1, 3, 0, 0]);
        assert_eq!(names(&r), [("johnny", "PERSON")]);
    }

    #[test]
    fn an_untagged_apostrophe_inside_a_name_does_not_split_it() {
        let scheme = scheme();
        let persons = |words: &[&str], separators: &[&str], classes: &[u16]| {
            let (text, tokens) = lines(words, separators);
            let classes: Vec<TokenClass> = classes.iter().map(|&c| (c, 0.9)).collect();
            bio_entities(&text, &tokens, &classes, &scheme)
                .iter()
                .map(|e| text[e.span.start..e.span.end].to_owned())
                .collect::<Vec<_>>()
        };
        // B-GIVEN, then B-SUR "songo", O "'", B-SUR "o", all glued.
        let words = ["jacques", "songo", "'", "o", "came"];
        assert_eq!(
            persons(&words, &[" ", "", "", " "], &[1, 3, 0, 3, 0]),
            ["jacques", "songo'o"]
        );
        // With spaces around it, it is no part of a name.
        assert_eq!(
            persons(&words, &[" ", " ", " ", " "], &[1, 3, 0, 3, 0]),
            ["jacques", "songo", "o"]
        );
    }

    #[test]
    fn an_inside_tag_continues_the_open_entity_whatever_its_type() {
        // B-GIVEN I-STREET: one entity of the first word's type.
        let r = run("suu kyi said", &[1, 5, 0]);
        assert_eq!(names(&r), [("suu kyi", "PERSON")]);
        // After O, an I- tag starts an entity of its own type.
        let r = run("suu , kyi", &[1, 0, 5]);
        assert_eq!(names(&r), [("suu", "PERSON"), ("kyi", "ADDRESS")]);
    }

    #[test]
    fn a_pair_tagged_as_one_person_becomes_two_and_chat_leaves_the_name() {
        let r = run("jason & michelle lol came", &[1, 2, 2, 2, 0]);
        assert_eq!(names(&r), [("jason", "PERSON"), ("michelle", "PERSON")]);
        assert!(r.iter().all(|(_, _, score)| (score - 0.8).abs() < 1e-6));
        let r = run("was mason here", &[1, 2, 0]);
        assert_eq!(names(&r), [("mason", "PERSON")]);
    }

    #[test]
    fn same_type_words_separated_by_a_comma_stay_apart() {
        let r = run("john , mary", &[1, 0, 1]);
        assert_eq!(names(&r), [("john", "PERSON"), ("mary", "PERSON")]);
    }

    #[test]
    fn a_b_tag_after_whitespace_starts_a_new_entity_that_then_merges_by_label() {
        // B-GIVEN B-GIVEN: two model entities, one PERSON after label merging.
        let r = run("anna maria", &[1, 1]);
        assert_eq!(names(&r), [("anna maria", "PERSON")]);
        // B-STREET I-STREET is one entity; a stray I- after O starts a new one.
        let r = run("elm street x street", &[4, 5, 0, 5]);
        assert_eq!(
            names(&r),
            [("elm street", "ADDRESS"), ("street", "ADDRESS")]
        );
    }

    #[test]
    fn ignored_types_break_groups_and_unknown_classes_are_outside() {
        let r = run("john mail smith", &[1, 8, 3]);
        assert_eq!(names(&r), [("john", "PERSON"), ("smith", "PERSON")]);
        let r = run("john smith", &[1, 999]);
        assert_eq!(names(&r), [("john", "PERSON")]);
    }
}
