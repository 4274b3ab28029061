//! The language a text is written in: detected from its script and letters (`whatlang`,
//! trigram statistics, no model files) or given by the caller as an ISO 639-1 hint.
//!
//! Detection decides which NER model reads a text (a model section's `languages` and
//! `skip_languages`), and is reported per text. Only a prefix is read: a large body's
//! language is its opening's, and detection stays a small fixed cost.

use std::fmt;

/// Characters of a text that detection reads.
const SAMPLE_CHARS: usize = 2_000;

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

    /// The language `text` is written in, when its opening says so reliably: Chinese,
    /// Japanese and Korean by their scripts, other languages only when whatlang's
    /// trigram statistics are confident (a short or mixed text is `None`, not a guess).
    pub fn detect(text: &str) -> Option<Language> {
        let sample = match text.char_indices().nth(SAMPLE_CHARS) {
            Some((end, _)) => &text[..end],
            None => text,
        };
        if let Some(cjk) = by_cjk_script(sample) {
            return Some(cjk);
        }
        let info = whatlang::detect(sample)?;
        if !info.is_reliable() {
            return None;
        }
        let three = info.lang().code();
        let language = CODES
            .iter()
            .find(|(code, _)| *code == three)
            .map(|&(_, two)| Language(two))?;
        confirmed(language, sample).then_some(language)
    }
}

/// The letters and the most frequent function words of the Latin-script languages a
/// model is chosen for: letter statistics alone call a table of names and scores
/// "Spanish" with full confidence, while text in a language uses its own letters or
/// function words.
const CONFIRMING: &[(&str, &str, &[&str])] = &[
    (
        "de",
        "ßäöü",
        &[
            "der", "die", "das", "und", "ist", "nicht", "ich", "sie", "mit", "den", "ein", "eine",
            "zu", "auf", "für", "von", "wir", "bitte", "ihre", "im", "dem", "es", "sich", "auch",
            "vielen",
        ],
    ),
    (
        "fr",
        "éèêàçœùûîôëï",
        &[
            "le", "la", "les", "de", "des", "et", "est", "un", "une", "je", "vous", "pour", "pas",
            "que", "qui", "dans", "du", "au", "sur", "avec", "nous", "merci", "il", "elle", "ce",
        ],
    ),
    (
        "es",
        "ñáéíóú¿¡",
        &[
            "el", "la", "los", "las", "de", "del", "que", "y", "en", "es", "un", "una", "por",
            "para", "con", "no", "se", "su", "al", "lo", "como", "mi", "gracias", "pero", "está",
        ],
    ),
    (
        "it",
        "àèéìòù",
        &[
            "il", "la", "le", "di", "del", "della", "che", "e", "è", "un", "una", "per", "non",
            "con", "sono", "mi", "ho", "si", "da", "al", "nel", "alla", "grazie", "lo", "gli",
        ],
    ),
    (
        "nl",
        "ëï",
        &[
            "de", "het", "een", "en", "van", "is", "niet", "ik", "je", "u", "op", "dat", "met",
            "voor", "zijn", "we", "er", "te", "naar", "bij", "ook", "maar", "graag", "wij", "uw",
        ],
    ),
    (
        "pt",
        "ãõçáéíóúâêôà",
        &[
            "o", "a", "os", "as", "de", "do", "da", "dos", "das", "que", "e", "é", "um", "uma",
            "para", "com", "não", "em", "no", "na", "por", "se", "obrigado", "obrigada", "você",
        ],
    ),
    (
        "pl",
        "ąćęłńóśźż",
        &[
            "i",
            "w",
            "z",
            "na",
            "się",
            "nie",
            "do",
            "że",
            "jest",
            "to",
            "o",
            "od",
            "po",
            "jak",
            "ale",
            "dla",
            "pan",
            "pani",
            "proszę",
            "dziękuję",
            "czy",
            "jestem",
            "mam",
            "już",
            "przez",
        ],
    ),
    (
        "sv",
        "åäö",
        &[
            "och", "att", "det", "i", "en", "ett", "är", "som", "på", "för", "med", "inte", "jag",
            "du", "vi", "har", "till", "av", "om", "den", "kan", "tack", "hej", "mvh", "ni",
        ],
    ),
    (
        "tr",
        "çğıİöşü",
        &[
            "ve",
            "bir",
            "bu",
            "da",
            "de",
            "için",
            "ile",
            "ben",
            "sen",
            "biz",
            "çok",
            "ne",
            "mi",
            "var",
            "yok",
            "olarak",
            "gibi",
            "ama",
            "daha",
            "teşekkürler",
            "merhaba",
            "lütfen",
            "olan",
            "sayın",
            "rica",
        ],
    ),
];

/// Whether `sample` holds one of the letters or function words of `language`, where we
/// list them (other languages are taken as whatlang says).
fn confirmed(language: Language, sample: &str) -> bool {
    let Some((_, letters, words)) = CONFIRMING.iter().find(|(code, ..)| *code == language.0) else {
        return true;
    };
    sample.chars().any(|c| letters.contains(c))
        || sample
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| !w.is_empty() && w.len() <= 16)
            .any(|w| words.contains(&w.to_lowercase().as_str()))
}

/// Chinese, Japanese or Korean when at least a quarter of the letters of `sample` are
/// Han, kana or Hangul: a log line or JSON document whose messages are in one of them is
/// mostly Latin keys, yet its names are written in that script. Hangul makes it
/// Korean, any kana Japanese (Chinese has none), Han alone Chinese.
fn by_cjk_script(sample: &str) -> Option<Language> {
    let (mut han, mut kana, mut hangul, mut letters) = (0usize, 0usize, 0usize, 0usize);
    for c in sample.chars() {
        match c as u32 {
            0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => kana += 1,
            0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F => hangul += 1,
            0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => han += 1,
            _ if c.is_alphabetic() => letters += 1,
            _ => {}
        }
    }
    let cjk = han + kana + hangul;
    if cjk < 2 || cjk * 3 < letters {
        return None;
    }
    Some(if hangul >= han + kana {
        Language("ko")
    } else if kana > 0 {
        Language("ja")
    } else {
        Language("zh")
    })
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

    fn code(text: &str) -> Option<&'static str> {
        Language::detect(text).map(Language::code)
    }

    #[test]
    fn scripts_decide_chinese_japanese_and_korean() {
        assert_eq!(code("我叫王小明，住在北京市海淀区。"), Some("zh"));
        assert_eq!(code("田中太郎さんは東京に住んでいます。"), Some("ja"));
        assert_eq!(code("김민준 씨는 부산에 살고 있습니다."), Some("ko"));
        // Latin keys around the messages: the script of the messages decides.
        assert_eq!(
            code(r#"{"level":"info","ts":"2025-03-01T10:00:00Z","msg":"用户王小明登录成功"}"#),
            Some("zh")
        );
        assert_eq!(code("user=田中 msg=ログインしました"), Some("ja"));
        // A stray character does not.
        assert_eq!(
            code("Please send the signed contract to our office before Friday, thank you (谢谢)."),
            Some("en")
        );
    }

    #[test]
    fn latin_texts_are_named_only_when_the_statistics_are_sure() {
        assert_eq!(
            code("Sehr geehrte Frau Schneider, vielen Dank für Ihre Nachricht von gestern. Wir melden uns morgen."),
            Some("de")
        );
        assert_eq!(
            code("Bonjour, je voudrais changer l'adresse de livraison de ma commande passée la semaine dernière, car nous avons déménagé."),
            Some("fr")
        );
        assert_eq!(
            code(
                "Please send the signed contract to our office before Friday, thank you very much."
            ),
            Some("en")
        );
        // Names and scores are no running text in any language.
        assert_eq!(
            code("Hajduk 2 Proleter ( Z ) 0\nZemun 1 Rad ( B ) 0\nBorac 1 Mladost ( L ) 2\nCukaricki 1 Vojvodina 0\nPartizan 6 Becej 0"),
            None
        );
        // Too short to tell.
        assert_eq!(code("Ana"), None);
        assert_eq!(code(""), None);
    }

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
