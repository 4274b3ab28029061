//! Every built-in pattern entity type. Adding one: declare a `const PatternSpec` in the
//! file of its family and list it in [`ALL`].

mod finance;
mod generic;

use super::PatternSpec;

/// All built-in pattern recognizers.
pub static ALL: &[&PatternSpec] = &[
    &generic::EMAIL,
    &generic::URL,
    &generic::IPV4,
    &generic::IPV6,
    &generic::PHONE,
    &finance::CREDIT_CARD,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, PatternRecognizer};
    use crate::text::LabelSet;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_every_pattern_compiles() {
        let mut names = HashSet::new();
        for spec in ALL {
            assert!(
                names.insert(spec.name),
                "duplicate pattern name {}",
                spec.name
            );
        }
        PatternRecognizer::new(ALL).expect("built-in patterns compile");
    }

    #[test]
    fn every_example_is_found_and_no_counter_example_is() {
        let engine = Engine::builtin().expect("engine builds");
        let labels = LabelSet::all();
        for spec in ALL {
            assert!(!spec.examples.is_empty(), "{} has no examples", spec.name);
            assert!(
                !spec.counter_examples.is_empty(),
                "{} has no counter-examples",
                spec.name
            );
            for (text, want) in spec.examples {
                let found = engine.detect(text, &labels, 0.5);
                assert!(
                    found
                        .iter()
                        .any(|d| &text[d.span.start..d.span.end] == *want
                            && d.label.as_str() == spec.label),
                    "{}: {want:?} not found in {text:?}, got {found:?}",
                    spec.name
                );
            }
            for text in spec.counter_examples {
                let found: Vec<_> = engine
                    .detect(text, &labels, 0.5)
                    .into_iter()
                    .filter(|d| d.label.as_str() == spec.label)
                    .collect();
                assert!(
                    found.is_empty(),
                    "{}: false hit in {text:?}: {found:?}",
                    spec.name
                );
            }
        }
    }
}
