//! Technologies that name no person: protocols, formats, programming languages, operating
//! systems, databases and developer tools (`lists/technologies.txt`). A model reads
//! "HTTP", "Kubernetes" or "Kafka" as an organisation or a person now and then, and
//! masking them takes the point out of a developer's prompt ("Explain TCP vs UDP").
//!
//! Only a span that is one listed name, as listed or in capitals, is dropped: "Kafka
//! Smith" and "Rust Belt Bank" stay. Spans the operator's deny list names are kept.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::engine::Detection;

/// Every listed name, as listed and in capitals.
static TECHNOLOGIES: LazyLock<HashSet<String>> = LazyLock::new(|| {
    crate::engine::lexicon::entries(crate::engine::lexicon::lists::TECHNOLOGIES)
        .flat_map(|name| [name.to_owned(), name.to_uppercase()])
        .collect()
});

/// Whether `detection` (in `text`) is a technology read as a person, place or
/// organisation.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    let Some(span) = text.get(detection.span.start..detection.span.end) else {
        return false;
    };
    TECHNOLOGIES.contains(span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lexicon::words::is_given_name;
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    fn dropped_as(text: &str, part: &str, label: &str, proof: Proof) -> bool {
        crate::engine::refine::drops("technology", text, &detection_at(text, part, label, proof))
    }

    #[test]
    fn a_technology_read_as_a_name_names_no_one() {
        let text = "Explain HTTP vs TCP, then deploy Kafka on Kubernetes with PYTHON. \
                    Our Postgres on EKS sits behind Istio; the chatbot runs Llama. \
                    Convert the PNG to JPEG and attach the DOCX.";
        for (part, label) in [
            ("HTTP", "ORGANIZATION"),
            ("TCP", "ORGANIZATION"),
            ("Kafka", "PERSON"),
            ("Kubernetes", "LOCATION"),
            ("PYTHON", "ORGANIZATION"),
            ("Postgres", "ORGANIZATION"),
            ("EKS", "ORGANIZATION"),
            ("Istio", "PERSON"),
            ("Llama", "PERSON"),
            ("JPEG", "ORGANIZATION"),
            ("DOCX", "ORGANIZATION"),
        ] {
            assert!(dropped_as(text, part, label, Proof::None), "{part}");
        }
    }

    #[test]
    fn longer_names_other_labels_and_listed_phrases_are_kept() {
        let text = "Kafka Smith of Rust Belt Bank wrote python notes on the HTTP day.";
        assert!(!dropped_as(text, "Kafka Smith", "PERSON", Proof::None));
        assert!(!dropped_as(
            text,
            "Rust Belt Bank",
            "ORGANIZATION",
            Proof::None
        ));
        assert!(!dropped_as(text, "python", "ORGANIZATION", Proof::None));
        assert!(!dropped_as(text, "HTTP", "DATE_TIME", Proof::None));
        assert!(!dropped_as(text, "HTTP", "ORGANIZATION", Proof::Listed));
    }

    #[test]
    fn no_technology_is_a_given_name() {
        let clash: Vec<_> = TECHNOLOGIES.iter().filter(|t| is_given_name(t)).collect();
        assert!(clash.is_empty(), "{clash:?}");
    }
}
