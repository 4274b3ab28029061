//! Which language a text is written in: Chinese, Japanese and Korean by their scripts,
//! others by `whatlang`'s letter-trigram statistics (no model files), confirmed by the
//! language's own letters or function words (`lexicon::words::LANGUAGE_MARKS`).
//!
//! It decides which NER model reads a text (a model section's `languages` and
//! `skip_languages`) and is reported per text. Only the opening is read: a large body's
//! language is its opening's, and detection stays a small fixed cost (about 120 µs).

use super::lexicon::words;
use crate::text::{is_han, Language};

/// Characters of a text that detection reads.
const SAMPLE_CHARS: usize = 2_000;

/// The language of each text: `hint` for every text when the caller gave one, else
/// detected (`None` where its opening does not say).
pub fn of_each(texts: &[&str], hint: Option<Language>) -> Vec<Option<Language>> {
    texts
        .iter()
        .map(|text| hint.or_else(|| detect(text)))
        .collect()
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
    let language = Language::from_iso639_3(info.lang().code())?;
    confirmed(language, sample).then_some(language)
}

/// Whether `sample` holds one of the letters or function words of `language`, where the
/// lexicon lists them (other languages are taken as whatlang says).
fn confirmed(language: Language, sample: &str) -> bool {
    let Some((letters, words)) = words::language_marks(language.code()) else {
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
            _ if is_han(c) => han += 1,
            _ if c.is_alphabetic() => letters += 1,
            _ => {}
        }
    }
    let cjk = han + kana + hangul;
    if cjk < 2 || cjk * 3 < letters {
        return None;
    }
    Some(if hangul >= han + kana {
        Language::KOREAN
    } else if kana > 0 {
        Language::JAPANESE
    } else {
        Language::CHINESE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Option<&'static str> {
        detect(text).map(Language::code)
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
}
