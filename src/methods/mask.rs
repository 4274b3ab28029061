//! `MASK`: every code point of the entity becomes `*`, so lengths are preserved.

pub fn mask(original: &str) -> String {
    "*".repeat(original.chars().count())
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_code_point_length() {
        assert_eq!(super::mask("Zoë 😀"), "*****");
    }
}
