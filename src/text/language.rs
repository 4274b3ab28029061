//! The language a text is written in, by its ISO 639-1 code, and which texts a model
//! reads by their language. Detection itself is the engine's (`engine/language.rs`).

use std::fmt;

/// A language by its ISO 639-1 code (`de`, `zh`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Language(&'static str);

/// whatlang's ISO 639-3 codes with their ISO 639-1 codes: every language it detects.
const CODES: &[(&str, &str)] = &[
    ("afr", "af"),
    ("aka", "ak"),
    ("amh", "am"),
    ("ara", "ar"),
    ("aze", "az"),
    ("bel", "be"),
    ("ben", "bn"),
    ("bul", "bg"),
    ("cat", "ca"),
    ("ces", "cs"),
    ("cmn", "zh"),
    ("cym", "cy"),
    ("dan", "da"),
    ("deu", "de"),
    ("ell", "el"),
    ("eng", "en"),
    ("epo", "eo"),
    ("est", "et"),
    ("fin", "fi"),
    ("fra", "fr"),
    ("guj", "gu"),
    ("heb", "he"),
    ("hin", "hi"),
    ("hrv", "hr"),
    ("hun", "hu"),
    ("hye", "hy"),
    ("ind", "id"),
    ("ita", "it"),
    ("jav", "jv"),
    ("jpn", "ja"),
    ("kan", "kn"),
    ("kat", "ka"),
    ("khm", "km"),
    ("kor", "ko"),
    ("lat", "la"),
    ("lav", "lv"),
    ("lit", "lt"),
    ("mal", "ml"),
    ("mar", "mr"),
    ("mkd", "mk"),
    ("mya", "my"),
    ("nep", "ne"),
    ("nld", "nl"),
    ("nob", "nb"),
    ("ori", "or"),
    ("pan", "pa"),
    ("pes", "fa"),
    ("pol", "pl"),
    ("por", "pt"),
    ("ron", "ro"),
    ("rus", "ru"),
    ("sin", "si"),
    ("slk", "sk"),
    ("slv", "sl"),
    ("sna", "sn"),
    ("spa", "es"),
    ("srp", "sr"),
    ("swe", "sv"),
    ("tam", "ta"),
    ("tel", "te"),
    ("tgl", "tl"),
    ("tha", "th"),
    ("tuk", "tk"),
    ("tur", "tr"),
    ("ukr", "uk"),
    ("urd", "ur"),
    ("uzb", "uz"),
    ("vie", "vi"),
    ("yid", "yi"),
    ("zul", "zu"),
];

impl Language {
    pub const ENGLISH: Language = Language("en");
    pub const CHINESE: Language = Language("zh");
    pub const JAPANESE: Language = Language("ja");
    pub const KOREAN: Language = Language("ko");

    /// The language of an ISO 639-1 code or a BCP 47 tag that starts with one (`de`,
    /// `pt-BR`, `zh_Hant`), case-insensitive; `None` for codes detection never yields.
    pub fn from_code(code: &str) -> Option<Language> {
        let primary = code.split(['-', '_']).next().unwrap_or_default();
        CODES
            .iter()
            .find(|(_, two)| two.eq_ignore_ascii_case(primary))
            .map(|&(_, two)| Language(two))
    }

    /// The ISO 639-1 code.
    pub fn code(self) -> &'static str {
        self.0
    }

    /// The language of an ISO 639-3 code, as `whatlang` names them (`deu`).
    pub fn from_iso639_3(code: &str) -> Option<Language> {
        CODES
            .iter()
            .find(|(three, _)| *three == code)
            .map(|&(_, two)| Language(two))
    }
}

/// A Han letter (CJK unified ideographs, extension A, compatibility ideographs): the
/// script that makes a text Chinese, and the letters Chinese words are written in.
pub fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Which texts a model reads, by their language: `only` these (when set), and never
/// those in `except`. A text of no detected language passes `except` but not `only`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LanguageScope {
    pub only: Option<Vec<Language>>,
    pub except: Vec<Language>,
}

impl LanguageScope {
    /// Every text, whatever its language.
    pub const ALL: LanguageScope = LanguageScope {
        only: None,
        except: Vec::new(),
    };

    /// Whether every text passes.
    pub fn is_all(&self) -> bool {
        self.only.is_none() && self.except.is_empty()
    }

    pub fn admits(&self, language: Option<Language>) -> bool {
        if let Some(only) = &self.only {
            if !language.is_some_and(|l| only.contains(&l)) {
                return false;
            }
        }
        !language.is_some_and(|l| self.except.contains(&l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_tags_name_a_language() {
        assert_eq!(Language::from_code("DE"), Some(Language("de")));
        assert_eq!(Language::from_code("pt-BR"), Some(Language("pt")));
        assert_eq!(Language::from_code("zh_Hant"), Some(Language("zh")));
        assert_eq!(Language::from_code("xx"), None);
        assert_eq!(Language::from_code(""), None);
    }

    #[test]
    fn scopes_admit_by_only_and_except() {
        let de = Language::from_code("de");
        let en = Language::from_code("en");
        let only = LanguageScope {
            only: Some(vec![de.unwrap()]),
            except: Vec::new(),
        };
        assert!(only.admits(de) && !only.admits(en) && !only.admits(None));
        let except = LanguageScope {
            only: None,
            except: vec![de.unwrap()],
        };
        assert!(!except.admits(de) && except.admits(en) && except.admits(None));
        assert!(LanguageScope::default().is_all());
    }
}
