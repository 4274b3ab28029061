//! The rules that drop or add resolved detections: [`DROP`], [`ADD`] (merges are in
//! `merge.rs`).
//! Each row's function lives in the module named for what it knows.

use super::{
    ages_beside_names, aliases, constant_names, ex, greetings, identifier_names, languages,
    name_lists, public_bodies, technologies, Action, Rule,
};

const NAMED: &[&str] = &["PERSON", "ORGANIZATION", "LOCATION"];

/// Drop rules: after overlaps are settled, so that "Turkish" of a dropped "Turkish
/// Government" does not come back as a nationality.
pub(super) const DROP: &[Rule] = &[
    Rule {
        name: "public_body",
        labels: &["ORGANIZATION", "LOCATION"],
        reason: "a national government, or a state that is a party to a case, names no person",
        action: Action::Drop(public_bodies::names_no_one),
        examples: &[
            ex(
                "the Turkish Government",
                "Turkish Government",
                "ORGANIZATION",
                "",
            ),
            ex(
                "an application against the Republic of Turkey",
                "Republic of Turkey",
                "LOCATION",
                "",
            ),
        ],
        counter_examples: &[ex(
            "he moved to the Republic of Ireland",
            "Republic of Ireland",
            "LOCATION",
            "Republic of Ireland",
        )],
    },
    Rule {
        name: "technology",
        labels: NAMED,
        reason: "a protocol, format, language or developer tool read as a name names no one",
        action: Action::Drop(technologies::names_no_one),
        examples: &[ex(
            "deploy Kafka on Kubernetes",
            "Kubernetes",
            "LOCATION",
            "",
        )],
        counter_examples: &[ex(
            "Kafka Smith wrote",
            "Kafka Smith",
            "PERSON",
            "Kafka Smith",
        )],
    },
    Rule {
        name: "identifier_name",
        labels: NAMED,
        reason: "the name of an identifier right before its value names no one",
        action: Action::Drop(identifier_names::names_no_one),
        examples: &[ex("Steuer-ID: 65929970489", "Steuer", "PERSON", "")],
        counter_examples: &[ex(
            "She works for the NHS in Leeds.",
            "NHS",
            "ORGANIZATION",
            "NHS",
        )],
    },
    Rule {
        name: "constant_name",
        labels: NAMED,
        reason: "a word of a constant's name in code or configuration names no one",
        action: Action::Drop(constant_names::names_no_one),
        examples: &[ex("GOOGLE_API_KEY=x", "GOOGLE", "ORGANIZATION", "")],
        counter_examples: &[ex("NASA launched it", "NASA", "ORGANIZATION", "NASA")],
    },
    Rule {
        name: "language",
        labels: &["NRP", "LOCATION", "PERSON", "ORGANIZATION"],
        reason: "a language is no nationality, place or people (\"Translate to Spanish\")",
        action: Action::Drop(languages::names_no_one),
        examples: &[ex("Translate to Spanish: hola", "Spanish", "NRP", "")],
        counter_examples: &[ex("a Spanish citizen", "Spanish", "NRP", "Spanish")],
    },
    Rule {
        name: "greeting",
        labels: NAMED,
        reason: "greetings, thanks and \"please\" in other languages name no one",
        action: Action::Drop(greetings::names_no_one),
        examples: &[ex("Selamat pagi. Apa kabar?", "Selamat pagi", "PERSON", "")],
        counter_examples: &[ex("Merhaba Ayşe", "Merhaba Ayşe", "PERSON", "Merhaba Ayşe")],
    },
];

/// Add rules.
pub(super) const ADD: &[Rule] = &[
    Rule {
        name: "alias_of_name",
        labels: NAMED,
        reason: "an acronym defined in brackets after a name stands for it wherever it stands",
        action: Action::Add(|text, _, found| aliases::with_aliases(text, found)),
        examples: &[ex(
            "John Smith (JS) approved it. Later JS signed.",
            "John Smith:PERSON",
            "",
            "John Smith:PERSON | JS:PERSON | JS:PERSON",
        )],
        counter_examples: &[ex(
            "4,393 pounds sterling (GBP) paid",
            "4,393 pounds sterling:MONEY",
            "",
            "4,393 pounds sterling:MONEY",
        )],
    },
    Rule {
        name: "name_in_list_of_names",
        labels: &["PERSON"],
        reason: "an unfound item of a list whose other items are people is a person",
        action: Action::Add(name_lists::with_list_names),
        examples: &[ex(
            "Team: Ana Ruiz, Bo Chen, Đorđe Đoković",
            "Ana Ruiz:PERSON | Bo Chen:PERSON",
            "",
            "Ana Ruiz:PERSON | Bo Chen:PERSON | Đorđe Đoković:PERSON",
        )],
        counter_examples: &[ex(
            "Paris, Rome, Ana Ruiz, Berlin",
            "Ana Ruiz:PERSON",
            "",
            "Ana Ruiz:PERSON",
        )],
    },
    Rule {
        name: "age_after_name",
        labels: &["PERSON", "AGE"],
        reason: "a number right after a person's name, as news and notes write it, is their age",
        action: Action::Add(ages_beside_names::with_ages),
        examples: &[ex(
            "Tomás Herrera, 34, joined",
            "Tomás Herrera:PERSON",
            "",
            "Tomás Herrera:PERSON | 34:AGE",
        )],
        counter_examples: &[ex(
            "Room 12, 34 chairs",
            "Room 12:LOCATION",
            "",
            "Room 12:LOCATION",
        )],
    },
];
