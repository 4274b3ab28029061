//! A word of a constant's name in code or configuration names no one: `GOOGLE_API_KEY`,
//! `AZURE_OPENAI_ENDPOINT`, `LONDON_DB_HOST`. A model, or the rules' guess at an acronym,
//! reads its capitalised part as an organisation or a place now and then; masking it
//! breaks the name and hides nothing (its value is what the secret patterns are for).
//!
//! Only a span inside one name of capitals, digits and underscores, with an underscore:
//! user names such as `jane_doe` or `Jane_Doe` stay, and so does "NASA" in prose.

use crate::engine::Detection;

/// Whether `detection` (in `text`) lies inside a constant's name.
pub(crate) fn names_no_one(text: &str, detection: &Detection) -> bool {
    let bytes = text.as_bytes();
    let in_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let (mut start, mut end) = (detection.span.start, detection.span.end);
    if !bytes
        .get(start..end)
        .is_some_and(|s| s.iter().all(|&b| in_name(b)))
    {
        return false;
    }
    while start > 0 && in_name(bytes[start - 1]) {
        start -= 1;
    }
    while end < bytes.len() && in_name(bytes[end]) {
        end += 1;
    }
    let name = &bytes[start..end];
    name.contains(&b'_')
        && name
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

#[cfg(test)]
mod tests {
    use crate::engine::tests::detection_at;
    use crate::engine::Proof;

    fn dropped(text: &str, part: &str, label: &str) -> bool {
        crate::engine::refine::drops(
            "constant_name",
            text,
            &detection_at(text, part, label, Proof::None),
        )
    }

    #[test]
    fn a_word_of_a_constants_name_names_no_one() {
        assert!(dropped("GOOGLE_API_KEY=AIzaSy…", "GOOGLE", "ORGANIZATION"));
        assert!(dropped(
            "export AZURE_OPENAI_ENDPOINT=x",
            "AZURE",
            "LOCATION"
        ));
        assert!(dropped("set LONDON_DB_HOST", "LONDON", "LOCATION"));
    }

    #[test]
    fn names_in_prose_user_names_and_listed_phrases_stay() {
        assert!(!dropped("NASA launched it", "NASA", "ORGANIZATION"));
        assert!(!dropped("user jane_doe logged in", "jane", "PERSON"));
        assert!(!dropped("user Jane_Doe logged in", "Jane", "PERSON"));
        assert!(!dropped("GOOGLE API KEY", "GOOGLE", "ORGANIZATION"));
        let listed = detection_at("GOOGLE_API_KEY", "GOOGLE", "ORGANIZATION", Proof::Listed);
        assert!(!crate::engine::refine::drops(
            "constant_name",
            "GOOGLE_API_KEY",
            &listed
        ));
    }
}
