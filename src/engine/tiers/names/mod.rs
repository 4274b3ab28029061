//! Capitalisation and cue rules for PERSON and ORGANIZATION, the part of names that needs
//! no model. One small function per rule (`person.rs`, `organization.rs`), listed with
//! its score in the rule tables below:
//!
//! - an honorific and the capitalised words after it: `Mr C. Whomersley`, `Dr Ana Ruiz`;
//!   a rank before them, left out: `Judge [Olga Lavrentyeva]`;
//! - a role before two or three capitalised words: `President Ana Ruiz`;
//! - a known given name and a capitalised word after it: `Phil Simmons`;
//! - two or three capitalised words with no cue at all: a guess at the threshold;
//! - a cue phrase: `my name is Ana Ruiz`, `Dear Ana`, `Name: Ana Ruiz`;
//! - a name a greeting or thanks calls someone by in chat, in any case: `hey tanner,`;
//! - a surname already found in the same text, met again alone: `… Simmons took four`;
//! - an acronym in running text: `LIFFE`;
//! - capitalised words ending in an organisation suffix (`Strix Television AB`,
//!   `Pierce Glynn Solicitors`) or following an organisation head (`University of Leeds`,
//!   `Ministry of Justice`).
//!
//! Rules stay cautious: all-capital words are not names (headlines), and a list of
//! capitalised function words (`The`, `In`, months, days) never joins a name.
//!
//! Adding a rule: write its function next to its kind, give it a named score here, add
//! a row (with an example) to its table; the table test checks the example, and
//! `anonymizer eval` measures it.

mod organization;
mod person;
mod tokens;

pub(crate) use organization::after_employment_cue;

use crate::engine::{Candidate, Proof, Recognizer, Trace};
use crate::text::{ByteSpan, Label, LabelSet};
use tokens::{tokenize, Token};

/// The text and its words, as every rule sees them.
pub(super) struct Words<'t> {
    text: &'t str,
    tokens: Vec<Token<'t>>,
    /// Whether uncued capitalised runs may be guessed to be names: not in Title Case
    /// Text (headlines, many social posts), where capitals say nothing.
    guesses: bool,
    /// The cue phrases of the text ([`person::phrases_in`]), found when a rule first asks.
    phrases: std::cell::OnceCell<Vec<(usize, usize)>>,
}

impl<'t> Words<'t> {
    fn new(text: &'t str) -> Self {
        let tokens = tokenize(text);
        let long = tokens.iter().filter(|t| t.text.chars().count() > 3);
        let (capitalised, total) = long.fold((0usize, 0usize), |(c, n), t| {
            (c + usize::from(t.capitalised()), n + 1)
        });
        Words {
            text,
            tokens,
            // Title Case Text: more than three long words in four capitalised.
            guesses: capitalised * 100 <= total * 75,
            phrases: std::cell::OnceCell::new(),
        }
    }

    fn phrases(&self) -> &[(usize, usize)] {
        self.phrases.get_or_init(|| person::phrases_in(self.text))
    }
}

/// A person name found so far: tokens `first..=last`, with its rule's score.
#[derive(Debug, Clone, Copy)]
pub(super) struct Found {
    first: usize,
    last: usize,
    score: f32,
    rule: &'static str,
}

/// A person rule tried at token `i` of the scan: the tokens it takes as a name.
type ScanFn = fn(&Words<'_>, usize) -> Option<(usize, usize)>;
/// A person rule over the whole text, after the scan; it sees what was found before it.
type PersonTextFn = fn(&Words<'_>, &[Found]) -> Vec<(usize, usize)>;
/// An organisation rule over the whole text.
type OrganizationFn = fn(&Words<'_>) -> Vec<ByteSpan>;

/// One row of a rule table.
pub(super) struct Rule<F> {
    // The name and example are read by the table test only.
    #[cfg_attr(not(test), allow(dead_code))]
    name: &'static str,
    score: f32,
    /// Runs beside a NER model too ([`NameRecognizer::beside_model`]).
    beside_model: bool,
    find: F,
    /// A text and the entity the recognizer finds in it thanks to this rule.
    #[cfg_attr(not(test), allow(dead_code))]
    example: (&'static str, &'static str),
}

// Scores rank the rules against each other and against the other tiers (the threshold is
// 0.5): judgement calls, not fitted one by one.

/// A title is the strongest cue: what follows "Mr" is a name.
const HONORIFIC: f32 = 0.85;
/// A cue phrase ("my name is") says a name follows, but less surely than a title
/// ("called Monday").
const CUE: f32 = 0.8;
/// A name after a greeting or thanks in chat ("hey tanner,"), in any case: a cue, but a
/// weaker one than "my name is" (a nickname, a pet, a product's name).
const VOCATIVE: f32 = 0.6;
/// A role ("President") before two or more name words: a name, or an office's title.
const ROLE: f32 = 0.75;
/// A known given name before a name word: "Phil Simmons", but also "Grace Road".
const GIVEN_NAME: f32 = 0.75;
/// A surname met again alone is the same person, but the word may have another sense
/// in between ("Baker"): below the rule that found it first.
const REPEATED_SURNAME: f32 = 0.65;
/// An uncued run of capitalised words ("Olubukunola Obasa", but also "Grace Road"): at
/// the threshold, so that word lists, patterns and organisation rules win over it.
/// Only names found above it teach surnames.
const GUESS: f32 = 0.5;
/// An acronym in running text: an organisation more often than not, at the threshold.
const ACRONYM: f32 = 0.5;
/// An organisation suffix ("Ltd", "University") after capitalised words.
const ORG_SUFFIX: f32 = 0.75;
/// An organisation head with "of" ("Ministry of Justice").
const ORG_HEAD: f32 = 0.75;
/// Capitalised words after an employment cue ("works at Zalando"): as sure as a suffix.
const EMPLOYER: f32 = 0.75;

/// Person rules tried at each capitalised word of a left-to-right scan, in order: the
/// first that matches takes its words and the scan goes on after them.
const SCAN_RULES: &[Rule<ScanFn>] = &[
    Rule {
        name: "honorific",
        score: HONORIFIC,
        // Its span has the title, which the model leaves out and which gives gender away.
        beside_model: true,
        find: person::honorific,
        example: (
            "represented by Mr C. Whomersley of the Office",
            "Mr C. Whomersley",
        ),
    },
    Rule {
        name: "honorific_in_capitals",
        score: HONORIFIC,
        // Notes and forms in capitals: the model finds the surname, this keeps the title.
        beside_model: true,
        find: person::honorific_in_capitals,
        example: ("SEEN ON ROUNDS WITH DR. PATEL TODAY", "DR. PATEL"),
    },
    Rule {
        name: "role",
        score: ROLE,
        beside_model: false,
        find: person::role,
        example: ("said President Ana Ruiz today", "Ana Ruiz"),
    },
    Rule {
        name: "given_name",
        score: GIVEN_NAME,
        beside_model: false,
        find: person::given_name,
        example: ("all-rounder Phil Simmons took four", "Phil Simmons"),
    },
    Rule {
        name: "capitalised_guess",
        score: GUESS,
        beside_model: false,
        find: person::capitalised_guess,
        example: (
            "the applicant, Olubukunola Obasa, appealed",
            "Olubukunola Obasa",
        ),
    },
];

/// Person rules over the whole text, in order, after the scan.
const PERSON_TEXT_RULES: &[Rule<PersonTextFn>] = &[
    Rule {
        name: "cue_phrase",
        score: CUE,
        beside_model: true,
        find: person::cue_phrase,
        example: ("Hi, my name is Zoltan Kovacs.", "Zoltan Kovacs"),
    },
    Rule {
        name: "introduction",
        score: CUE,
        beside_model: true,
        find: person::introduction,
        example: ("Hallo, ik ben Sanne de Vries.", "Sanne de Vries"),
    },
    Rule {
        name: "vocative",
        score: VOCATIVE,
        beside_model: true,
        find: person::vocative,
        example: ("hey tanner, can you send it?", "tanner"),
    },
    Rule {
        name: "repeated_surname",
        score: REPEATED_SURNAME,
        beside_model: false,
        find: person::repeated_surname,
        example: ("Mr Gary Oldman came. Then Oldman left.", "Oldman"),
    },
];

/// Organisation rules, in order.
const ORGANIZATION_RULES: &[Rule<OrganizationFn>] = &[
    Rule {
        name: "acronym",
        score: ACRONYM,
        beside_model: false,
        find: organization::acronym,
        example: ("traders on the LIFFE floor said prices fell", "LIFFE"),
    },
    Rule {
        name: "organisation_suffix",
        score: ORG_SUFFIX,
        beside_model: true,
        find: organization::suffix,
        example: (
            "broadcast by Strix Television AB in Sweden",
            "Strix Television AB",
        ),
    },
    Rule {
        name: "organisation_head",
        score: ORG_HEAD,
        beside_model: true,
        find: organization::head,
        example: ("studied at the University of Leeds", "University of Leeds"),
    },
    Rule {
        name: "employer",
        score: EMPLOYER,
        beside_model: true,
        find: organization::employer,
        example: ("I used to work for Revolut until May", "Revolut"),
    },
];

/// The rules recognizer.
pub struct NameRecognizer {
    labels: Vec<Label>,
    person: Label,
    organization: Label,
    /// Beside a NER model, whose names and acronyms are better than capitalisation
    /// guesses (measured on the dev sets): only the rules marked `beside_model` run.
    beside_model: bool,
}

impl Default for NameRecognizer {
    fn default() -> Self {
        Self::new()
    }
}

impl NameRecognizer {
    pub fn new() -> Self {
        let person = Label::builtin("PERSON");
        let organization = Label::builtin("ORGANIZATION");
        Self {
            labels: vec![person, organization],
            person,
            organization,
            beside_model: false,
        }
    }

    /// The rules to run beside a NER model tier: organisation rules, and only the person
    /// rules anchored on a cue (honorifics, "my name is").
    pub fn beside_model() -> Self {
        Self {
            beside_model: true,
            ..Self::new()
        }
    }

    /// Whether `rule` runs in this recognizer.
    fn runs<F>(&self, rule: &Rule<F>) -> bool {
        rule.beside_model || !self.beside_model
    }

    fn persons(&self, words: &Words<'_>, out: &mut Vec<Candidate>) {
        let scan: Vec<&Rule<ScanFn>> = SCAN_RULES.iter().filter(|r| self.runs(r)).collect();
        let mut found: Vec<Found> = Vec::new();
        let mut i = 0;
        'scan: while i < words.tokens.len() {
            // Every scan rule starts on a capitalised word (a title, a role, a listed given
            // name, a name word): most words of logs and prose are not one.
            if !words.tokens[i].capitalised() {
                i += 1;
                continue;
            }
            for rule in &scan {
                if let Some((first, last)) = (rule.find)(words, i) {
                    found.push(Found {
                        first,
                        last,
                        score: rule.score,
                        rule: rule.name,
                    });
                    i = last + 1;
                    continue 'scan;
                }
            }
            i += 1;
        }
        for rule in PERSON_TEXT_RULES.iter().filter(|r| self.runs(r)) {
            let more = (rule.find)(words, &found);
            found.extend(more.into_iter().map(|(first, last)| Found {
                first,
                last,
                score: rule.score,
                rule: rule.name,
            }));
        }
        for f in found {
            out.push(Candidate {
                span: ByteSpan::new(words.tokens[f.first].start, words.tokens[f.last].end),
                label: self.person,
                score: f.score,
                proof: Proof::None,
                trace: Trace::new("names", f.rule),
            });
        }
    }

    fn organizations(&self, words: &Words<'_>, out: &mut Vec<Candidate>) {
        for rule in ORGANIZATION_RULES.iter().filter(|r| self.runs(r)) {
            out.extend((rule.find)(words).into_iter().map(|span| Candidate {
                span,
                label: self.organization,
                score: rule.score,
                proof: Proof::None,
                trace: Trace::new("names", rule.name),
            }));
        }
    }
}

impl Recognizer for NameRecognizer {
    fn labels(&self) -> &[Label] {
        &self.labels
    }

    fn tier(&self) -> &'static str {
        "dictionary"
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        // Every rule but the greeted name needs a capital letter (logs and lower-case chat
        // have none).
        if !text.chars().any(char::is_uppercase) && !person::has_vocative_cue(text) {
            return;
        }
        let words = Words::new(text);
        if wanted.contains(self.person) {
            self.persons(&words, out);
        }
        if wanted.contains(self.organization) {
            self.organizations(&words, out);
        }
    }
}

#[cfg(test)]
mod tests;
