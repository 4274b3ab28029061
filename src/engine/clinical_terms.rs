//! Clinical abbreviations that name no person (`lists/clinical_abbreviations.txt`):
//! diagnoses, tests, vitals, orders and care roles. A model reads "SOB" (short of
//! breath), "Hgb" or "CVA" as a person or an organisation now and then; masking them
//! hides nothing about anyone and takes the findings out of the note.
//!
//! Only a span that is one listed abbreviation, as listed or in capitals, is dropped:
//! "CVA Holdings" stays. Spans the operator's deny list names are kept.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::{dictionary, droppable, Detection};

/// Every listed abbreviation, as listed and in capitals.
static ABBREVIATIONS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    dictionary::entries(include_str!("lists/clinical_abbreviations.txt"))
        .flat_map(|term| [term.to_owned(), term.to_uppercase()])
        .collect()
});

/// Whether `detection` (in `text`) is a clinical abbreviation read as a person, place or
/// organisation.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    if !droppable(detection, &["PERSON", "ORGANIZATION", "LOCATION"]) {
        return false;
    }
    text.get(detection.span.start..detection.span.end)
        .is_some_and(|span| ABBREVIATIONS.contains(span))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::names::is_given_name;
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    fn dropped_as(text: &str, part: &str, label: &str, proof: Proof) -> bool {
        names_no_one(text, &detection_at(text, part, label, proof))
    }

    #[test]
    fn an_abbreviation_read_as_a_name_names_no_one() {
        let text = "CC: SOB. Labs: Hgb 9.1. HX OF CVA. Consult GI. HGB stable.";
        for (part, label) in [
            ("SOB", "PERSON"),
            ("Hgb", "PERSON"),
            ("CVA", "ORGANIZATION"),
            ("GI", "PERSON"),
            ("HGB", "ORGANIZATION"),
        ] {
            assert!(dropped_as(text, part, label, Proof::None), "{part}");
        }
    }

    #[test]
    fn longer_names_units_other_labels_and_listed_phrases_are_kept() {
        let text = "CVA Holdings sent her to the MICU in Erie, PA on 2/3; SOB.";
        assert!(!dropped_as(
            text,
            "CVA Holdings",
            "ORGANIZATION",
            Proof::None
        ));
        assert!(!dropped_as(text, "MICU", "ORGANIZATION", Proof::None));
        assert!(!dropped_as(text, "PA", "LOCATION", Proof::None));
        assert!(!dropped_as(text, "SOB", "ORGANIZATION", Proof::Listed));
    }

    #[test]
    fn no_abbreviation_is_a_given_name() {
        let clash: Vec<_> = ABBREVIATIONS.iter().filter(|t| is_given_name(t)).collect();
        assert!(clash.is_empty(), "{clash:?}");
    }
}
