//! The rule tables and each rule, on examples.

use super::*;
use crate::engine::lexicon::words::{HONORIFICS, RANKS, ROLES};

fn found(text: &str) -> Vec<(String, &'static str)> {
    found_by(&NameRecognizer::new(), text)
}

fn found_by(rules: &NameRecognizer, text: &str) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    rules.recognize(text, &LabelSet::all(), &mut out);
    crate::engine::resolve::resolve(text, out, 0.0)
        .iter()
        .map(|d| (text[d.span.start..d.span.end].to_owned(), d.label.as_str()))
        .collect()
}

#[test]
fn beside_a_model_only_cued_person_rules_and_organisation_rules_run() {
    let beside = NameRecognizer::beside_model();
    let text = "all-rounder Phil Simmons took four for LIFFE. Simmons then left.";
    assert_eq!(found_by(&beside, text), vec![]);
    assert_eq!(
        found(text),
        vec![
            ("Phil Simmons".into(), "PERSON"),
            ("LIFFE".into(), "ORGANIZATION"),
            ("Simmons".into(), "PERSON")
        ]
    );
    assert_eq!(
        found_by(
            &beside,
            "Mr Robert Murray works at Pierce Glynn Solicitors. My name is Ana Ruiz."
        ),
        vec![
            ("Mr Robert Murray".into(), "PERSON"),
            ("Pierce Glynn Solicitors".into(), "ORGANIZATION"),
            ("Ana Ruiz".into(), "PERSON")
        ]
    );
}

#[test]
fn honorifics_take_the_name_after_them() {
    assert_eq!(
        found("represented by Mr C. Whomersley of the Office"),
        vec![("Mr C. Whomersley".into(), "PERSON")]
    );
    assert_eq!(
        found("Dr. Ana de la Cruz said"),
        vec![("Dr. Ana de la Cruz".into(), "PERSON")]
    );
    // A rank is left out, as a role is, but one name word after it is enough.
    assert_eq!(
        found("ruled Judge Lavrentyeva and Prof. Ana Ruiz"),
        vec![
            ("Lavrentyeva".into(), "PERSON"),
            ("Ana Ruiz".into(), "PERSON")
        ]
    );
}

#[test]
fn given_names_and_cues_and_repeated_surnames() {
    assert_eq!(
        found("all-rounder Phil Simmons took four. Simmons then left."),
        vec![
            ("Phil Simmons".into(), "PERSON"),
            ("Simmons".into(), "PERSON")
        ]
    );
    assert_eq!(
        found("Hi, my name is Zoltan Kovacs."),
        vec![("Zoltan Kovacs".into(), "PERSON")]
    );
    assert_eq!(found("Dear Priyanka,"), vec![("Priyanka".into(), "PERSON")]);
    // A post after a cue is no one; a name that could be a post ("Dean") is someone.
    for post in [
        "attn: Chief of Staff",
        "Attention: Head of Procurement",
        "attn: Director of Finance",
        "Dear Hiring Manager,",
    ] {
        assert_eq!(person(post), Vec::<String>::new(), "{post}");
    }
    assert_eq!(person("Dear Dean,"), ["Dean"]);
    for intro in [
        "Hola, me llamo Lucía Fernández.",
        "Olá, meu nome é Lucía Fernández.",
        "Hallo, ich heiße Lucía Fernández.",
        "Hoi, ik heet Lucía Fernández.",
        "Merhaba, benim adım Lucía Fernández.",
    ] {
        assert_eq!(
            found(intro),
            vec![("Lucía Fernández".into(), "PERSON")],
            "{intro}"
        );
    }
    assert_eq!(
        found("Здравствуйте, меня зовут Иван Петров, мой телефон"),
        vec![("Иван Петров".into(), "PERSON")]
    );
    // A cue that opens the sentence, capitalised outside ASCII; beside the model, where
    // no capitalised guess finds the name without it.
    let beside = NameRecognizer::beside_model();
    for (intro, name) in [
        ("Меня зовут Иван Петров.", "Иван Петров"),
        ("Мене звати Олена Коваленко.", "Олена Коваленко"),
    ] {
        assert_eq!(
            found_by(&beside, intro),
            vec![(name.to_owned(), "PERSON")],
            "{intro}"
        );
    }
}

#[test]
fn organisations_by_suffix_and_head() {
    assert_eq!(
        found("broadcast by Strix Television AB in Sweden"),
        vec![("Strix Television AB".into(), "ORGANIZATION")]
    );
    assert_eq!(
        found("the London Borough of Southwark said"),
        vec![("London Borough of Southwark".into(), "ORGANIZATION")]
    );
    assert_eq!(
        found("studied at the University of Leeds"),
        vec![("University of Leeds".into(), "ORGANIZATION")]
    );
}

#[test]
fn uncued_capitalised_pairs_are_a_threshold_guess() {
    assert_eq!(
        found("the applicant, Olubukunola Obasa, appealed"),
        vec![("Olubukunola Obasa".into(), "PERSON")]
    );
    assert!(found("the European Convention on Human Rights and Fundamental Freedoms").is_empty());
    assert!(found("a Turkish Criminal Code provision").is_empty());
    assert!(found("off the Great Barrier Reef today").is_empty());
    assert!(found("I use Visual Studio Code and Google Chrome daily")
        .iter()
        .all(|(_, label)| *label != "PERSON"));
}

#[test]
fn acronyms_in_running_text_are_organisations() {
    assert_eq!(
        found("traders on the LIFFE floor said prices fell"),
        vec![("LIFFE".into(), "ORGANIZATION")]
    );
    assert!(found("ST LOUIS 1996-08-28").is_empty());
    assert!(found("we watched TV and it was OK really").is_empty());
}

#[test]
fn is_cautious() {
    assert!(found("The Court held that Article 8 applied.").is_empty());
    assert!(found("LEICESTERSHIRE TAKE OVER AT TOP").is_empty());
    assert!(found("Will you call me tomorrow?").is_empty());
    assert!(found("Mr").is_empty());
}

/// Every rule is named once, and the recognizer finds each rule's example.
#[test]
fn every_rule_in_the_tables_finds_its_example() {
    let mut names = std::collections::HashSet::new();
    let rows = SCAN_RULES
        .iter()
        .map(|r| (r.name, r.example, "PERSON"))
        .chain(
            PERSON_TEXT_RULES
                .iter()
                .map(|r| (r.name, r.example, "PERSON")),
        )
        .chain(
            ORGANIZATION_RULES
                .iter()
                .map(|r| (r.name, r.example, "ORGANIZATION")),
        );
    for (name, (text, want), label) in rows {
        assert!(names.insert(name), "rule {name} is listed twice");
        assert!(
            found(text).contains(&(want.to_owned(), label)),
            "rule {name}: {want:?} not found in {text:?}: {:?}",
            found(text)
        );
    }
}

/// The scan tries its rules only at capitalised words: no scan rule may start anywhere
/// else, whatever the case of its cue (the lists are capitalised, the name words too).
#[test]
fn no_scan_rule_starts_at_a_word_that_is_not_capitalised() {
    let texts = [
        "mr smith and dr. patel met president ana ruiz, phil simmons and judge olga",
        "mr Smith and dr. Patel met president Ana Ruiz, phil Simmons and judge Olga Ruiz",
        "MR. O'BRIEN RE MEDS, mr. o'brien, ms. ana ruiz, DR. PATEL TODAY",
        "level=info user=ana ruiz ts=2026-01-02 prof jones 42 Phil Simmons",
        "é élodie dupont, ömer çelik, 3M Company, x Ana Ruiz",
    ];
    let lists = crate::engine::lexicon::words::lists();
    for word in HONORIFICS
        .iter()
        .chain(RANKS)
        .chain(ROLES)
        .chain(lists.given.iter())
    {
        assert!(word.starts_with(char::is_uppercase), "{word}");
    }
    for text in texts {
        let words = Words::new(text);
        for (i, token) in words.tokens.iter().enumerate() {
            if token.capitalised() {
                continue;
            }
            for rule in SCAN_RULES {
                assert_eq!(
                    (rule.find)(&words, i),
                    None,
                    "{} at {:?}",
                    rule.name,
                    token.text
                );
            }
        }
    }
}

#[test]
fn an_honorific_in_capitals_keeps_its_title_but_not_a_condition_or_the_next_words() {
    let r = NameRecognizer::beside_model();
    for (text, want) in [
        ("SEEN ON ROUNDS WITH DR. PATEL TODAY", vec!["DR. PATEL"]),
        ("CALLBACK FOR MR. O'BRIEN RE MEDS", vec!["MR. O'BRIEN"]),
        ("MS. ANA RUIZ CALLED", vec!["MS. ANA RUIZ"]),
        ("DR. PATEL ON ROUNDS", vec!["DR. PATEL"]),
        ("SEVERE MR NOTED, DR FOLLOW UP", vec![]),
    ] {
        let mut out = Vec::new();
        r.recognize(text, &crate::text::LabelSet::all(), &mut out);
        let got: Vec<&str> = out
            .iter()
            .filter(|c| c.label.as_str() == "PERSON")
            .map(|c| &text[c.span.start..c.span.end])
            .collect();
        assert_eq!(got, want, "{text}");
    }
}

/// The persons the rules that run beside a model find in `text`.
fn person(text: &str) -> Vec<String> {
    found_by(&NameRecognizer::beside_model(), text)
        .into_iter()
        .filter(|(_, label)| *label == "PERSON")
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn a_self_introduction_that_can_say_what_someone_is_needs_a_name_after_it() {
    assert_eq!(
        person("Hallo, ik ben Sanne de Vries en ik woon in Utrecht."),
        ["Sanne de Vries"]
    );
    assert_eq!(
        person("Hallo, ich bin Lukas Meyer aus Köln."),
        ["Lukas Meyer"]
    );
    assert_eq!(person("Ich bin Anna und brauche Hilfe."), ["Anna"]);
    assert_eq!(person("Hola, soy Lucía Fernández."), ["Lucía Fernández"]);
    assert_eq!(
        person("Ik ben Pieter van der Berg."),
        ["Pieter van der Berg"]
    );
    for none in [
        "Ich bin Deutscher und wohne hier.",
        "Ich bin Student der Informatik.",
        "ik ben Nederlander",
        "Je suis Français.",
        "Ich bin Software Engineer bei SAP.",
        "Ich bin Berliner.",
        "Soy de Madrid.",
    ] {
        assert_eq!(person(none), Vec::<String>::new(), "{none}");
    }
}

#[test]
fn a_name_a_greeting_or_thanks_calls_someone_by_in_any_case() {
    for (text, names) in [
        ("hey tanner, can you send me the report?", &["tanner"][..]),
        ("thanks kishan!", &["kishan"]),
        ("ok thanks Kishan :)", &["Kishan"]),
        ("Great work Olan !", &["Olan"]),
        ("THANK YOU JINX", &["JINX"]),
        ("hi emma, hi kaite!", &["emma", "kaite"]),
        ("hola maría, ¿cómo estás?", &["maría"]),
        ("grazie giulia!", &["giulia"]),
        (
            "Thanks, Ana Ruiz.\nhappy birthday nadia ❤",
            &["Ana Ruiz", "nadia"],
        ),
    ] {
        assert_eq!(person(text), names, "{text}");
    }
    for none in [
        // forms of address, frequent words, chat and what ends a thanks
        "thanks guys!",
        "thank you so much!",
        "hi there!",
        "hello world!",
        "love you mom!",
        "thanks in advance!",
        "hey what's up?",
        "Good luck tomorrow!",
        "thanks again, xx",
        "thanks chatgpt, that helped",
        // no clause end after the word, or the cue does not open its clause
        "hey tanner is your last name fox",
        "They did a good job finishing it.",
        "the thanks section.",
        // acronyms, places and possessives
        "thanks BBC!",
        "hello london!",
        "thanks kishan's mom",
        "Goodbye monetization ! # 1 on trending",
        "hola a todos!",
        "grazie mille!",
        "danke schön!",
        "merci beaucoup!",
        "hallo zusammen,",
    ] {
        assert_eq!(person(none), Vec::<String>::new(), "{none}");
    }
}

#[test]
fn an_employer_after_a_work_cue_is_an_organisation_but_a_person_or_listed_name_is_not() {
    let beside = NameRecognizer::beside_model();
    let employer = |text: &str| found_by(&beside, text);
    let org = |name: &str| vec![(name.to_owned(), "ORGANIZATION")];
    assert_eq!(employer("She works at Zalando in Berlin."), org("Zalando"));
    assert_eq!(employer("I used to work for Revolut."), org("Revolut"));
    assert_eq!(
        employer("employed by Acme Freight Logistics"),
        org("Acme Freight Logistics")
    );
    assert_eq!(
        employer("He works at the Daily Mirror now"),
        org("Daily Mirror")
    );
    assert_eq!(
        employer("an employee of Brightwave since 2019"),
        org("Brightwave")
    );
    // A given name is a person's; a listed place or body is its list's.
    assert_eq!(employer("He works for John Smith."), vec![]);
    assert_eq!(employer("I work for Google."), vec![]);
    assert_eq!(employer("They work in Paris at the moment."), vec![]);
    assert_eq!(employer("works at The end"), vec![]);
    assert_eq!(employer("the network Zalando built"), vec![]);
    assert!(after_employment_cue("Worked at Acme", 10));
    assert!(!after_employment_cue("looked at Acme", 10));
    assert!(!after_employment_cue("at Acme", 3));
}
