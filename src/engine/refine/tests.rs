//! Every rule's examples and counter-examples, each through its own rule alone.

use super::*;
use crate::engine::Detection;

/// The byte span of the first `part` of `text`.
fn at(text: &str, part: &str) -> ByteSpan {
    let start = text
        .find(part)
        .unwrap_or_else(|| panic!("{part:?} is not in {text:?}"));
    ByteSpan::new(start, start + part.len())
}

fn detection(text: &str, part: &str, label: &str) -> Detection {
    Detection {
        span: at(text, part),
        label: Label::parse(label).unwrap_or_else(|| panic!("unknown label {label}")),
        score: 0.9,
        alternative: None,
        proof: Proof::None,
        trace: crate::engine::Trace::default(),
    }
}

/// `a:LABEL | b:LABEL` as detections of `text`, each at the first occurrence of its text
/// after the previous one.
fn detections(text: &str, list: &str) -> Vec<Detection> {
    let mut from = 0;
    list.split(" | ")
        .map(|item| {
            let (part, label) = item.rsplit_once(':').expect("text:LABEL");
            let mut d = detection(&text[from..], part, label);
            d.span = ByteSpan::new(d.span.start + from, d.span.end + from);
            from = d.span.end;
            d
        })
        .collect()
}

fn listed(text: &str, found: &[Detection]) -> String {
    found
        .iter()
        .map(|d| format!("{}:{}", &text[d.span.start..d.span.end], d.label.as_str()))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The entity types of the readings below: the labels of the model-span rules.
const TYPES: &[&str] = &["PERSON", "LOCATION", "ORGANIZATION"];

/// The shipped English model's tokens of `text` and, from `entities` (first reading
/// `text:LABEL | …`, then ` || ` and the second reading's), its reading. Each entity
/// has the confidence 0.9.
fn reading(text: &str, entities: &str) -> Reading {
    use super::second_reading::unknown_words;
    use crate::engine::tiers::ner::decode::{Target, TypedSpan};
    use crate::engine::tiers::ner::reading::SecondReading;
    use crate::engine::tiers::ner::tokenize::Tokenizer;
    static TOKENIZER: LazyLock<Tokenizer> = LazyLock::new(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/anonymizer-ner");
        Tokenizer::load(&dir.join("tokenizer.json")).expect("the shipped tokenizer loads")
    });
    let tokens = TOKENIZER.tokenize(text).expect("tokenizes");
    let typed = |list: &str| -> Vec<TypedSpan> {
        if list.trim().is_empty() {
            return Vec::new();
        }
        detections(text, list.trim())
            .iter()
            .map(|d| TypedSpan {
                entity_type: TYPES
                    .iter()
                    .position(|t| *t == d.label.as_str())
                    .expect("a label of TYPES"),
                span: d.span,
                probability_sum: 0.9,
                tokens: 1,
            })
            .collect()
    };
    let (first, second) = match entities.split_once("||") {
        Some((first, second)) => (first, Some(second)),
        None => (entities, None),
    };
    let second = second.map(|list| SecondReading {
        unknown: unknown_words(text, &tokens),
        entities: typed(list),
    });
    Reading {
        entities: typed(first),
        second,
        targets: TYPES
            .iter()
            .map(|l| {
                Some(Target {
                    label: Label::builtin(l),
                    alone: None,
                })
            })
            .collect(),
        whole_words: true,
        tokens: tokens.into(),
        corrected: Vec::new(),
    }
}

/// The first reading's entities of `reading` as `text:LABEL | …`.
fn listed_entities(text: &str, reading: &Reading) -> String {
    reading
        .entities
        .iter()
        .map(|e| {
            format!(
                "{}:{}",
                &text[e.span.start..e.span.end],
                TYPES[e.entity_type]
            )
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// What `rule` alone makes of `example`, in the example's `expect` notation. A span of a
/// label the rule does not touch is left as it is.
fn outcome(rule: &Rule, e: &Example) -> String {
    let label = || Label::parse(e.label).unwrap_or_else(|| panic!("unknown label {}", e.label));
    let listed_input = matches!(
        rule.action,
        Action::Read(_) | Action::Add(_) | Action::Join(_) | Action::Absorb(_)
    );
    if !listed_input && !rule.touches(label()) {
        return match rule.action {
            Action::Relabel(_) => e.label.to_owned(),
            _ => e.span.to_owned(),
        };
    }
    match rule.action {
        Action::Read(f) => {
            let mut reading = reading(e.text, e.span);
            f(e.text, &mut reading);
            listed_entities(e.text, &reading)
        }
        Action::Split(f) => {
            let span = at(e.text, e.span);
            f(e.text, span)
                .unwrap_or_else(|| vec![span])
                .iter()
                // Without the spaces around each part, which the shape stage trims.
                .map(|s| e.text[s.start..s.end].trim())
                .collect::<Vec<_>>()
                .join(" | ")
        }
        Action::Reshape(f) => f(e.text, at(e.text, e.span), label())
            .map_or(String::new(), |s| e.text[s.start..s.end].to_owned()),
        Action::Reject(f) => {
            if f(e.text, at(e.text, e.span), label()) {
                String::new()
            } else {
                e.span.to_owned()
            }
        }
        Action::Relabel(f) => f(e.text, at(e.text, e.span), label())
            .unwrap_or(label())
            .as_str()
            .to_owned(),
        Action::Drop(_) => {
            if dropped_by(rule, e.text, &detection(e.text, e.span, e.label)) {
                String::new()
            } else {
                e.span.to_owned()
            }
        }
        Action::Add(f) => {
            let input = detections(e.text, e.span);
            listed(e.text, &f(e.text, &LabelSet::all(), input))
        }
        Action::Join(_) | Action::Absorb(_) => {
            // This merge rule alone.
            let others: Vec<&str> = rules()
                .iter()
                .filter(|r| r.stage() == Stage::Merge && r.name != rule.name)
                .map(|r| r.name)
                .collect();
            let switches = Switches::without(&others).expect("known rules");
            let input = detections(e.text, e.span);
            listed(e.text, &merge::merge_adjacent(e.text, input, &switches))
        }
    }
}

#[test]
fn every_rule_does_what_its_examples_say_and_not_what_its_counter_examples_say() {
    let mut failures = Vec::new();
    for rule in rules() {
        assert!(
            !rule.examples.is_empty() && !rule.counter_examples.is_empty(),
            "{}: a rule needs an example and a counter-example",
            rule.name
        );
        for e in rule.examples {
            let got = outcome(rule, e);
            if got != e.expect {
                failures.push(format!(
                    "{}: {:?} gave {got:?}, not {:?}",
                    rule.name, e.text, e.expect
                ));
            }
        }
        for e in rule.counter_examples {
            let got = outcome(rule, e);
            // A counter-example is left as it was.
            let unchanged = match rule.action {
                Action::Relabel(_) => e.label.to_owned(),
                // The first reading's entities.
                Action::Read(_) => e.span.split("||").next().unwrap_or("").trim().to_owned(),
                _ => e.span.to_owned(),
            };
            if got != unchanged || got != e.expect {
                failures.push(format!(
                    "{}: counter-example {:?} gave {got:?}",
                    rule.name, e.text
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rule_names_are_unique_snake_case_and_stages_run_in_declared_order() {
    let all = rules();
    for (i, rule) in all.iter().enumerate() {
        assert!(
            rule.name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{}",
            rule.name
        );
        assert!(
            all[..i].iter().all(|r| r.name != rule.name),
            "{} twice",
            rule.name
        );
        assert!(!rule.reason.is_empty(), "{}: no reason", rule.name);
    }
    let order: Vec<usize> = all
        .iter()
        .map(|r| {
            STAGES
                .iter()
                .position(|s| *s == r.stage())
                .expect("declared")
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
}

#[test]
fn an_unknown_rule_name_is_refused() {
    assert!(Switches::without(&["no_such_rule"]).is_err());
    assert_ne!(
        Switches::without(&["lower_case_god"]).expect("known"),
        Switches::default()
    );
}

#[test]
fn a_detection_says_who_proposed_it_and_which_rules_corrected_it() {
    let engine = crate::engine::Engine::builtin().expect("builds");
    let text = "Mail ana@example.com. John Smith (JS) approved; JS signed.";
    let found = engine
        .detect(text, &LabelSet::all(), 0.5)
        .expect("rule tiers do not fail");
    let traces: Vec<(&str, String)> = found
        .iter()
        .map(|d| (&text[d.span.start..d.span.end], d.trace.to_string()))
        .collect();
    assert!(
        traces.contains(&("ana@example.com", "patterns:email".to_owned())),
        "{traces:?}"
    );
    // The acronym rule's guess, relabelled by the alias rule; every rule named is a row.
    assert!(
        traces.contains(&("JS", "names:acronym+alias_of_name".to_owned())),
        "{traces:?}"
    );
    for d in &found {
        let by = (d.trace.tier == "refine").then_some(&d.trace.by);
        for rule in d.trace.rules.iter().chain(by) {
            assert!(rules().iter().any(|r| r.name == *rule), "{rule}");
        }
    }
    // A model span's trace lists the rules that moved or relabelled it.
    let c = Candidate {
        span: at("the NLD party said", "NLD party"),
        label: Label::builtin("ORGANIZATION"),
        score: 0.9,
        proof: Proof::None,
        trace: crate::engine::Trace::new("model", "ner"),
    };
    let out = model_candidates(
        "the NLD party said",
        &LabelSet::all(),
        vec![c],
        &Switches::default(),
    );
    assert_eq!(out[0].trace.to_string(), "model:ner+common_words_at_edges");
}
