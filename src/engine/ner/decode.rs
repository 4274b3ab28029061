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
use crate::engine::{Candidate, Proof};

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

/// Drops whitespace-separated runs without a letter or digit from both ends of a span
/// ("Lear Corp ." → "Lear Corp", "( KDP" → "KDP"); `None` when nothing is left ("."). A
/// model tags such stray punctuation now and then; no entity starts or ends with it.
/// Punctuation glued to a word ("Corp.", "U.S.") stays.
fn trim_loose_punctuation(text: &str, span: ByteSpan) -> Option<ByteSpan> {
    let inner = text.get(span.start..span.end)?;
    // Byte ranges, inside the span, of its whitespace-separated words with a letter or digit.
    let mut kept = inner
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(|w| {
            let at = w.as_ptr() as usize - inner.as_ptr() as usize;
            (at, at + w.len())
        });
    let (start, first_end) = kept.next()?;
    let end = kept.next_back().map_or(first_end, |(_, end)| end);
    Some(ByteSpan::new(span.start + start, span.start + end))
}

/// Takes the closing bracket after a span that opened one and left it open ("Mladost ( BJ"
/// → "Mladost ( BJ )"): trimming loose punctuation cut it, and half a bracket is no name.
fn close_bracket(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let open = inner.matches('(').count() > inner.matches(')').count();
    let rest = &text[span.end..];
    let after = rest.trim_start_matches([' ', '\t']);
    if open && after.starts_with(')') {
        return ByteSpan::new(span.start, span.end + (rest.len() - after.len()) + 1);
    }
    span
}

/// Regnal numbers that follow a name ("Elizabeth II", "Henry VIII"). A lone "I" counts only
/// before punctuation or the end of the line: "when Pedro I said" is the pronoun.
#[rustfmt::skip]
const REGNAL: &[&str] = &[
    "I", "II", "III", "IV", "VI", "VII", "VIII", "IX", "XI", "XII", "XIII", "XIV", "XV",
    "XVI",
];

/// A person's span with the regnal number after it ("Baudouin" → "Baudouin I").
fn with_regnal_number(text: &str, span: ByteSpan) -> ByteSpan {
    let rest = &text[span.end..];
    let Some(after) = rest.strip_prefix(' ') else {
        return span;
    };
    let len = after
        .find(|c: char| !c.is_ascii_uppercase())
        .unwrap_or(after.len());
    let (number, next) = after.split_at(len);
    let ends_clause = next
        .trim_start_matches(' ')
        .chars()
        .next()
        .is_none_or(|c| c.is_ascii_punctuation() || c == '\n');
    let fits = REGNAL.contains(&number)
        && !next.starts_with(char::is_alphanumeric)
        && (number != "I" || ends_clause);
    if fits {
        return ByteSpan::new(span.start, span.end + 1 + len);
    }
    span
}

/// Company-form abbreviations whose dot is part of the name ("First Albany Corp.").
const COMPANY_ABBREVIATIONS: &[&str] = &["Corp", "Inc", "Ltd", "Co", "Cos", "Bros", "Assn"];

/// An organisation's span with the dot of its closing abbreviation, which the tokenizer
/// splits off and the model leaves out.
fn with_abbreviation_dot(text: &str, span: ByteSpan) -> ByteSpan {
    let inner = &text[span.start..span.end];
    let last = inner.rsplit(' ').next().unwrap_or(inner);
    if COMPANY_ABBREVIATIONS.contains(&last) && text[span.end..].starts_with('.') {
        return ByteSpan::new(span.start, span.end + 1);
    }
    span
}

/// Months that are no organisation's or place's first word ("August National Association
/// of …" is the month, then the association). "May" and "March" also start names ("May
/// Department Stores") and stay, and so do weekdays ("Sunday Telegraph").
#[rustfmt::skip]
const MONTHS: &[&str] = &[
    "January", "February", "April", "June", "July", "August", "September", "October",
    "November", "December",
];

/// Drops from both ends of an organisation or place that has a capitalised word the
/// words no such name has there: all-lower-case words other than name particles
/// ("Pamir mountains" → "Pamir", "NLD party" → "NLD", "the Oval" → "Oval", but
/// "al-Aqsa", "de Gaulle" and the "s" of a split "McDonald ' s" stay) and a leading
/// month or year, a date of its own ("June Comelf" → "Comelf", "1979 Democracy Wall" →
/// "Democracy Wall"). A model runs on over such words in cased text; no gold organisation or place with a
/// capital in CoNLL-2003 dev ends in a lower-case word. All-lower-case spans ("east
/// portland") are left as they are: there case says nothing. Never empties a span.
fn trim_common_edges(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let words: Vec<(usize, &str)> = inner
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - inner.as_ptr() as usize, w))
        .collect();
    let capitalised = |w: &str| w.starts_with(char::is_uppercase);
    if !words.iter().any(|(_, w)| capitalised(w)) {
        return span;
    }
    let common = |w: &str| {
        w.chars().count() > 1
            && w.chars().all(char::is_lowercase)
            && !crate::engine::names::PARTICLES.contains(&w)
    };
    let mut first = 0;
    while first < words.len() && common(words[first].1) {
        first += 1;
    }
    let year = |w: &str| {
        w.len() == 4
            && w.bytes().all(|b| b.is_ascii_digit())
            && (w.starts_with("19") || w.starts_with("20"))
    };
    if first + 1 < words.len() && (MONTHS.contains(&words[first].1) || year(words[first].1)) {
        first += 1;
    }
    let mut last = words.len() - 1;
    while last > first && common(words[last].1) {
        last -= 1;
    }
    if first >= words.len() || !words[first..=last].iter().any(|(_, w)| capitalised(w)) {
        return span;
    }
    let (start, _) = words[first];
    let (at, word) = words[last];
    ByteSpan::new(span.start + start, span.start + at + word.len())
}

/// Widens a span that cuts an ASCII word to the whole word: a model tags "/22" of
/// "7/22" now and then (the tokenizer splits at the slash and the first piece came out
/// `O`), and a cut identifier or date would leave digits in the clear. Only ASCII
/// letters and digits are taken: scripts written without spaces have no word to widen to.
fn whole_ascii_words(text: &str, span: ByteSpan) -> ByteSpan {
    let bytes = text.as_bytes();
    let mut start = span.start;
    while start > 0 && bytes[start - 1].is_ascii_alphanumeric() {
        start -= 1;
    }
    let mut end = span.end;
    while end < bytes.len() && bytes[end].is_ascii_alphanumeric() {
        end += 1;
    }
    ByteSpan::new(start, end)
}

/// Step 3: maps and merges model entities into candidates for the labels in `wanted`.
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
        let Some(span) = trim_loose_punctuation(text, g.span) else {
            return;
        };
        let span = close_bracket(text, span);
        let span = match label.as_str() {
            "ORGANIZATION" | "LOCATION" => trim_common_edges(text, span),
            "PERSON" => with_regnal_number(text, span),
            _ => span,
        };
        let span = whole_ascii_words(text, span);
        let span = match label.as_str() {
            "ORGANIZATION" => with_abbreviation_dot(text, span),
            _ => span,
        };
        if wanted.contains(label) && g.tokens > 0 {
            out.push(Candidate {
                span,
                label,
                score: (g.probability_sum / g.tokens as f32).clamp(0.0, 1.0),
                proof: Proof::None,
            });
        }
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
    use crate::engine::ner::model::TagScheme;

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

    #[test]
    fn loose_punctuation_is_trimmed_and_a_lone_dot_is_no_entity() {
        fn trim(text: &str) -> Option<&str> {
            trim_loose_punctuation(text, ByteSpan::new(0, text.len()))
                .map(|s| &text[s.start..s.end])
        }
        assert_eq!(trim("Lear Corp ."), Some("Lear Corp"));
        assert_eq!(trim("( KDP )"), Some("KDP"));
        assert_eq!(trim("The Oval ,"), Some("The Oval"));
        assert_eq!(trim("Lear Corp."), Some("Lear Corp."));
        assert_eq!(trim("U.S."), Some("U.S."));
        assert_eq!(trim("Élodie - Paris"), Some("Élodie - Paris"));
        assert_eq!(trim("."), None);
        assert_eq!(trim(" - "), None);
    }

    #[test]
    fn organisations_and_places_lose_common_words_at_their_edges_in_cased_text() {
        let trim = |text: &str| {
            let s = trim_common_edges(text, ByteSpan::new(0, text.len()));
            text[s.start..s.end].to_owned()
        };
        assert_eq!(trim("Pamir mountains"), "Pamir");
        assert_eq!(trim("First Union bank"), "First Union");
        assert_eq!(trim("the Oval"), "Oval");
        assert_eq!(trim("breakaway Chechnya republic"), "Chechnya");
        assert_eq!(trim("August National Association"), "National Association");
        // Particles, inner words, other scripts' case and lower-case text stay.
        assert_eq!(trim("al-Aqsa"), "al-Aqsa");
        assert_eq!(trim("de Gaulle Airport"), "de Gaulle Airport");
        assert_eq!(trim("Bank of England"), "Bank of England");
        assert_eq!(trim("east portland"), "east portland");
        assert_eq!(trim("May Department Stores"), "May Department Stores");
        assert_eq!(trim("Sunday Telegraph"), "Sunday Telegraph");
        assert_eq!(trim("McDonald ' s"), "McDonald ' s");
        assert_eq!(trim("August"), "August");
        assert_eq!(trim("1979 Democracy Wall movement"), "Democracy Wall");
        assert_eq!(trim("4 West"), "4 West");
    }

    #[test]
    fn brackets_company_abbreviations_and_regnal_numbers_are_whole() {
        let apply = |text: &str, f: fn(&str, ByteSpan) -> ByteSpan, part: &str| {
            let at = text.find(part).unwrap();
            let s = f(text, ByteSpan::new(at, at + part.len()));
            text[s.start..s.end].to_owned()
        };
        assert_eq!(
            apply("Mladost ( BJ ) 2", close_bracket, "Mladost ( BJ"),
            "Mladost ( BJ )"
        );
        assert_eq!(
            apply("Mladost (BJ) 2", close_bracket, "Mladost (BJ"),
            "Mladost (BJ)"
        );
        assert_eq!(apply("Acme ) said", close_bracket, "Acme"), "Acme");
        let dot = with_abbreviation_dot;
        assert_eq!(
            apply("at First Albany Corp. said", dot, "First Albany Corp"),
            "First Albany Corp."
        );
        assert_eq!(apply("Acme Inc.", dot, "Acme Inc"), "Acme Inc.");
        assert_eq!(apply("Acme Inc .", dot, "Acme Inc"), "Acme Inc");
        assert_eq!(apply("Acme Tools.", dot, "Acme Tools"), "Acme Tools");
        let name = with_regnal_number;
        assert_eq!(
            apply("Queen Elizabeth II said", name, "Elizabeth"),
            "Elizabeth II"
        );
        assert_eq!(apply("Henry VIII's wives", name, "Henry"), "Henry VIII");
        assert_eq!(apply("Baudouin I , king", name, "Baudouin"), "Baudouin I");
        assert_eq!(apply("when Pedro I said", name, "Pedro"), "Pedro");
        assert_eq!(apply("Ana IBM", name, "Ana"), "Ana");
        assert_eq!(apply("Ana IVa", name, "Ana"), "Ana");
    }

    #[test]
    fn a_span_that_cuts_an_ascii_word_takes_the_whole_word_but_never_crosses_other_scripts() {
        let widen = |text: &str, start: usize, end: usize| {
            let s = whole_ascii_words(text, ByteSpan::new(start, end));
            text[s.start..s.end].to_owned()
        };
        assert_eq!(widen("7/22 0800 PT", 1, 4), "7/22");
        assert_eq!(widen("seen 7/22.", 6, 9), "7/22");
        assert_eq!(widen("JOHNSON, MARY", 0, 7), "JOHNSON");
        assert_eq!(widen("Smithson said", 0, 5), "Smithson");
        // Byte offsets after "他的" (6 bytes): nothing to widen into.
        assert_eq!(widen("他的Anna说", 6, 10), "Anna");
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
        out.iter()
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
