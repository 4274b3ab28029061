//! Every word list the engine reads, each in one place: the `.txt` lists under `lists/`
//! (one entry a line, `#` comments; matched as listed or in capitals unless a reader says
//! otherwise) and the short lists of cue, title, organisation and clinical words
//! ([`words`]). Tiers and rules ask here; they hold no list of their own.

pub mod words;

/// The `.txt` lists, each compiled in once here; readers take them from these constants.
pub mod lists {
    /// Frequent English words that are no one's name when capitalised.
    pub const COMMON_WORDS: &str = include_str!("lists/common_words.txt");
    /// English words (SCOWL; `english_words.LICENSE`): a word of them, lower-case, is read as a word before a name.
    pub const ENGLISH_WORDS: &str = include_str!("lists/english_words.txt");
    /// Given names of many cultures, capitalised.
    pub const GIVEN_NAMES: &str = include_str!("lists/given_names.txt");
    /// Greetings, thanks and "please" in many languages, lower-case.
    pub const GREETINGS: &str = include_str!("lists/greetings.txt");
    /// Countries, US states, regions, capitals and large cities.
    pub const LOCATIONS: &str = include_str!("lists/locations.txt");
    /// Nationalities, ethnic and religious groups (Presidio's NRP).
    pub const NATIONALITIES: &str = include_str!("lists/nationalities.txt");
    /// International bodies, large companies, news agencies.
    pub const ORGANIZATIONS: &str = include_str!("lists/organizations.txt");
    /// Protocols, formats, programming languages, operating systems, databases and developer tools.
    pub const TECHNOLOGIES: &str = include_str!("lists/technologies.txt");
}

/// Entries of a list: trimmed, non-empty, not comments.
pub fn entries(words: &str) -> impl Iterator<Item = &str> {
    words
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}
