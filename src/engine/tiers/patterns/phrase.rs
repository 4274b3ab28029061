//! Where a phrase found in prose ends. The word after a match decides whether it is the
//! whole phrase ("a nurse at", "asthma and", "a black woman with") or the modifier of a
//! noun after it ("a driver handle", "cancer research", "a white male connector").

/// The word after `after`'s leading blanks; "" at punctuation or the end.
pub(super) fn next_word(after: &str) -> &str {
    after
        .trim_start_matches([' ', '\t'])
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
}

/// Whether a phrase ends where `after` begins: punctuation, a line end, a capitalised word
/// or one of `followers` comes next, but not a possessive's or a compound's tail glued to
/// it ("a black man's jacket", "stroke-making").
pub(super) fn ends_before(after: &str, followers: &[&str]) -> bool {
    let mut chars = after.chars();
    if matches!(chars.next(), Some('\'' | '’' | '-' | '‑'))
        && chars.next().is_some_and(char::is_alphabetic)
    {
        return false;
    }
    let rest = after.trim_start_matches([' ', '\t']);
    !rest.starts_with(char::is_lowercase)
        || followers
            .iter()
            .any(|f| f.eq_ignore_ascii_case(next_word(rest)))
}
