//! The dictionary recognizer kind: whole-word Aho-Corasick matching of word lists.
//!
//! A list is one [`DictionarySpec`] (a label, a score, a newline-separated word list
//! compiled into the binary from `lists/`). All lists run as one automaton
//! (leftmost-longest) of each entry as listed and in capitals ("London", "LONDON", not
//! "london": lower-case "turkey" and "china" are rarely places), searched only at the
//! starts of words that begin as some entry does. The configured deny list uses the
//! same kind, in any case, searched everywhere.

use std::collections::HashSet;
use std::sync::LazyLock;

use aho_corasick::{
    AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, Anchored, Input, MatchKind, StartKind,
};

use crate::engine::lexicon;
use crate::engine::lexicon::words::{is_english_word, is_given_name};
use crate::engine::{context, BuildError, Candidate, Proof, Recognizer, Trace};
use crate::text::{ByteSpan, Label, LabelSet};

/// A word list for one label.
#[derive(Debug)]
pub struct DictionarySpec {
    pub name: &'static str,
    pub label: &'static str,
    /// One entry a line; blank lines and lines starting with `#` are ignored.
    pub words: &'static str,
    pub score: f32,
    /// Words near a hit that raise confidence.
    pub context: &'static [&'static str],
    /// Which written forms of an entry match besides the entry itself.
    pub forms: Forms,
}

/// The forms of a list's entries that match, declared per list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forms {
    /// The entry as listed (and in capitals).
    Listed,
    /// Also its plurals and demonyms' endings ("Singaporeans", "Tajiks").
    WithPeoplesEndings,
    /// Also with two neighbouring letters swapped, at a lower score ("Britian",
    /// "GEMRANY"): long place names are mistyped in chat and mail.
    WithSwappedLetters,
}

/// Countries, US states, regions, capitals and large cities.
pub const LOCATIONS: DictionarySpec = DictionarySpec {
    name: "locations",
    label: "LOCATION",
    words: crate::engine::lexicon::lists::LOCATIONS,
    score: 0.7,
    context: &[
        "in", "from", "to", "near", "city", "country", "born", "lives", "visit",
    ],
    forms: Forms::WithSwappedLetters,
};

/// International bodies, large companies, news agencies.
pub const ORGANIZATIONS: DictionarySpec = DictionarySpec {
    name: "organizations",
    label: "ORGANIZATION",
    words: crate::engine::lexicon::lists::ORGANIZATIONS,
    score: 0.65,
    context: &[
        "company",
        "agency",
        "said",
        "spokesman",
        "spokeswoman",
        "firm",
        "group",
    ],
    forms: Forms::Listed,
};

/// Nationalities, ethnic and religious groups (Presidio's NRP).
pub const NATIONALITIES: DictionarySpec = DictionarySpec {
    name: "nationalities",
    label: "NRP",
    words: crate::engine::lexicon::lists::NATIONALITIES,
    score: 0.6,
    context: &[
        "national",
        "citizen",
        "origin",
        "nationality",
        "faith",
        "religion",
    ],
    forms: Forms::WithPeoplesEndings,
};

/// Whether `word`, in any case and maybe plural ("singaporeans"), is an entry of
/// [`NATIONALITIES`]: a people, never a place, person or organisation by itself.
pub fn is_nationality(word: &str) -> bool {
    static WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| lower_case(&NATIONALITIES));
    let lower = word.to_lowercase();
    WORDS.contains(&lower) || lower.strip_suffix('s').is_some_and(|w| WORDS.contains(w))
}

/// Whether `name`, in any case, is a whole entry of [`LOCATIONS`] ("Paris"; not the
/// "Diego" of "San Diego").
pub fn is_place(name: &str) -> bool {
    static NAMES: LazyLock<HashSet<String>> = LazyLock::new(|| lower_case(&LOCATIONS));
    NAMES.contains(&name.to_lowercase())
}

fn lower_case(spec: &DictionarySpec) -> HashSet<String> {
    lexicon::entries(spec.words)
        .map(str::to_lowercase)
        .collect()
}

/// How much less sure a misspelt place is than a listed one.
const TYPO_PENALTY: f32 = 0.1;

/// The misspellings of a one-word place of seven letters or more that swap two
/// neighbouring letters after the first ("Britian", "Gemrany"), as chat writes them and a
/// model misses them. Shorter names and forms that are English words or given names
/// are left out: there a swap makes another word too often.
fn swapped_letters(place: &str) -> Vec<String> {
    let letters: Vec<char> = place.chars().collect();
    if letters.len() < 7 || !letters.iter().all(|c| c.is_alphabetic()) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for i in 1..letters.len() - 1 {
        if letters[i] == letters[i + 1] {
            continue;
        }
        let mut typo = letters.clone();
        typo.swap(i, i + 1);
        let typo: String = typo.into_iter().collect();
        let another_word = is_english_word(&typo.to_lowercase()) || is_given_name(&typo);
        if !another_word && !is_place(&typo) && !out.contains(&typo) {
            out.push(typo);
        }
    }
    out
}

/// Suffixes that extend a nationality into one span ("Turkish national").
const NATIONALITY_SUFFIXES: &[&str] = &[" national", " nationals", " citizen", " citizens"];

/// The built-in dictionaries.
pub static ALL: &[&DictionarySpec] = &[&LOCATIONS, &ORGANIZATIONS, &NATIONALITIES];

struct Entry {
    /// The list it is from (`deny_list`: the operator's).
    list: &'static str,
    label: Label,
    score: f32,
    context: &'static [&'static str],
    proof: Proof,
}

/// Several word lists compiled into one automaton.
pub struct DictionaryRecognizer {
    automaton: AhoCorasick,
    /// The entry of each of the automaton's patterns.
    entries: Vec<Entry>,
    labels: Vec<Label>,
    /// Built-in lists: the bytes their written forms begin with. Their automaton is
    /// anchored and exact in case, and is searched only at word starts on such a byte:
    /// a few in a hundred bytes of prose, where an unanchored search read every byte
    /// through a DFA of megabytes. `None`: a deny list, any case, searched everywhere.
    first_bytes: Option<[bool; 256]>,
}

impl DictionaryRecognizer {
    /// The built-in lists.
    ///
    /// # Errors
    /// If a list names an unknown label or the automaton cannot be built.
    pub fn new(specs: &[&'static DictionarySpec]) -> Result<Self, BuildError> {
        let mut patterns = Vec::new();
        let mut entries = Vec::new();
        for spec in specs {
            let label = Label::parse(spec.label)
                .filter(|l| l.as_str() == spec.label)
                .ok_or_else(|| BuildError::new(spec.name, "unknown label"))?;
            for word in lexicon::entries(spec.words) {
                // Lists may repeat a city under two headings; the first one counts.
                if patterns.iter().any(|p| p == word) {
                    continue;
                }
                let forms: Vec<String> = if spec.forms == Forms::WithPeoplesEndings {
                    std::iter::once(word.to_owned())
                        .chain(NATIONALITY_SUFFIXES.iter().map(|s| format!("{word}{s}")))
                        .collect()
                } else {
                    vec![word.to_owned()]
                };
                let typos = if spec.forms == Forms::WithSwappedLetters {
                    swapped_letters(word)
                } else {
                    Vec::new()
                };
                let scored = forms
                    .into_iter()
                    .map(|f| (f, spec.score))
                    .chain(typos.into_iter().map(|f| (f, spec.score - TYPO_PENALTY)));
                for (form, score) in scored {
                    let capitals = Some(form.to_uppercase()).filter(|c| *c != form);
                    for form in std::iter::once(form).chain(capitals) {
                        patterns.push(form);
                        entries.push(Entry {
                            list: spec.name,
                            label,
                            score,
                            context: spec.context,
                            proof: Proof::None,
                        });
                    }
                }
            }
        }
        let mut first_bytes = [false; 256];
        for form in &patterns {
            first_bytes[usize::from(form.as_bytes()[0])] = true;
        }
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .start_kind(StartKind::Anchored)
            // Each search reads a few bytes of one word: a contiguous NFA is as fast there
            // as a DFA, which would hold ~17 MB more for the lists with their capitals.
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(&patterns)
            .map_err(|e| BuildError::new("dictionary", e.to_string()))?;
        Ok(Self::with(automaton, entries, Some(first_bytes)))
    }

    /// A deny list: each phrase is always flagged with its label, in any case.
    ///
    /// # Errors
    /// If the automaton cannot be built.
    pub fn deny_list(phrases: &[(String, Label)]) -> Result<Self, BuildError> {
        let mut patterns = Vec::new();
        let mut entries = Vec::new();
        for (phrase, label) in phrases {
            patterns.push(phrase.clone());
            entries.push(Entry {
                list: "deny_list",
                label: *label,
                score: 1.0,
                context: &[],
                proof: Proof::Listed,
            });
        }
        // Whatever automaton its size allows: a request's list of thousands of long
        // phrases would make a DFA of gigabytes.
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .ascii_case_insensitive(true)
            .build(&patterns)
            .map_err(|e| BuildError::new("deny list", e.to_string()))?;
        Ok(Self::with(automaton, entries, None))
    }

    fn with(automaton: AhoCorasick, entries: Vec<Entry>, first_bytes: Option<[bool; 256]>) -> Self {
        let mut labels: Vec<Label> = entries.iter().map(|e| e.label).collect();
        labels.sort();
        labels.dedup();
        Self {
            automaton,
            entries,
            labels,
            first_bytes,
        }
    }

    /// The automaton's matches, leftmost-longest, each search going on after the last
    /// match: at the word starts on one of `first_bytes`, or everywhere.
    fn matches<'t>(&'t self, text: &'t str) -> Box<dyn Iterator<Item = aho_corasick::Match> + 't> {
        let Some(first) = &self.first_bytes else {
            return Box::new(self.automaton.find_iter(text));
        };
        let bytes = text.as_bytes();
        let mut at = 0;
        Box::new(std::iter::from_fn(move || {
            while at < bytes.len() {
                let start = at;
                at += 1;
                if !first[usize::from(bytes[start])] || !starts_word(text, start) {
                    continue;
                }
                let input = Input::new(text).range(start..).anchored(Anchored::Yes);
                if let Some(m) = self.automaton.find(input) {
                    at = m.end();
                    return Some(m);
                }
            }
            None
        }))
    }
}

/// True when `at` is a character boundary with no letter or digit just before it.
fn starts_word(text: &str, at: usize) -> bool {
    text.is_char_boundary(at)
        && text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
}

/// True when `span` is not glued to letters or digits on either side (and its ends are
/// character boundaries).
pub fn whole_word(text: &str, span: ByteSpan) -> bool {
    starts_word(text, span.start)
        && text
            .get(span.end..)
            .is_some_and(|after| after.chars().next().is_none_or(|c| !c.is_alphanumeric()))
}

impl Recognizer for DictionaryRecognizer {
    fn labels(&self) -> &[Label] {
        &self.labels
    }

    fn tier(&self) -> &'static str {
        "dictionary"
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        for m in self.matches(text) {
            let entry = &self.entries[m.pattern().as_usize()];
            if !wanted.contains(entry.label) {
                continue;
            }
            let span = ByteSpan::new(m.start(), m.end());
            // Off a character boundary (never, with ASCII case folding) is no word either.
            if !whole_word(text, span) {
                continue;
            }
            out.push(Candidate {
                span,
                label: entry.label,
                score: (entry.score + context::boost(text, span, entry.context) / 2.0).min(1.0),
                proof: entry.proof,
                trace: Trace::new("dictionary", entry.list),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, &'static str)> {
        let rec = DictionaryRecognizer::new(ALL).expect("lists build");
        let mut out = Vec::new();
        rec.recognize(text, &LabelSet::all(), &mut out);
        out.iter()
            .map(|c| (text[c.span.start..c.span.end].to_owned(), c.label.as_str()))
            .collect()
    }

    #[test]
    fn finds_whole_words_as_listed_or_in_capitals() {
        assert_eq!(
            found("From London to NEW YORK via Reuters."),
            vec![
                ("London".into(), "LOCATION"),
                ("NEW YORK".into(), "LOCATION"),
                ("Reuters".into(), "ORGANIZATION")
            ]
        );
        assert!(found("londoner turkey china Londonderry").is_empty());
    }

    #[test]
    fn a_long_place_with_two_letters_swapped_is_a_place() {
        assert_eq!(
            found("flights to Britian and GEMRANY"),
            vec![
                ("Britian".into(), "LOCATION"),
                ("GEMRANY".into(), "LOCATION")
            ]
        );
        // Too short, or a word once swapped.
        assert!(found("Prais Chian Tokoy").is_empty());
        assert!(swapped_letters("Britain").contains(&"Britian".to_owned()));
        assert!(swapped_letters("Spain").is_empty());
    }

    #[test]
    fn an_entry_in_another_case_hides_no_entry_within_it() {
        // "new Mexico" is no written form of "New Mexico"; its "Mexico" still counts.
        assert_eq!(
            found("flights across new Mexico and SOUTH sudan"),
            vec![("Mexico".into(), "LOCATION")]
        );
        assert!(found("xLondon LondonParis").is_empty());
        // Capitals beyond ASCII.
        assert_eq!(found("DÜSSELDORF"), vec![("DÜSSELDORF".into(), "LOCATION")]);
    }

    #[test]
    fn longest_entry_wins() {
        assert_eq!(
            found("in United States of America"),
            vec![("United States of America".into(), "LOCATION")]
        );
    }

    #[test]
    fn deny_list_matches_any_case_and_is_exact() {
        let rec = DictionaryRecognizer::deny_list(&[(
            "Project Falcon".into(),
            Label::builtin("ORGANIZATION"),
        )])
        .expect("builds");
        let mut out = Vec::new();
        rec.recognize("about project falcon.", &LabelSet::all(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].proof, Proof::Listed);
        assert_eq!(out[0].score, 1.0);
    }
}
