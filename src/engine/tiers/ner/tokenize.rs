//! Text → sub-word tokens with byte spans into the original text, through the model's
//! own `tokenizer.json` (the `tokenizers` crate, no network features; a Unigram model
//! through our [`CompactUnigram`], which gives the same tokens in far less memory).
//!
//! `tokenizers::Tokenizer::encode` reports offsets in **bytes** of the original text
//! (`encode_char_offsets` would give chars); normalisation (lower-casing, accent
//! stripping, CJK splitting) is undone by its alignment tracking, so several tokens may
//! share one character's span (a decomposed character) and a span may be empty. We
//! still snap every span outward to char boundaries so that a slice can never panic.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokenizers::{
    DecoderWrapper, Encoding, Model, ModelWrapper, NormalizerWrapper, PostProcessorWrapper,
    PreTokenizerWrapper, TokenizerImpl,
};

use crate::text::ByteSpan;

use super::unigram::CompactUnigram;
use super::NerError;

/// The tokens of one text, without special tokens.
#[derive(Debug, Default, Clone)]
pub struct Tokens {
    pub ids: Vec<u32>,
    /// Byte span of each token in the text (on char boundaries; may be empty).
    pub spans: Vec<ByteSpan>,
    /// Pre-tokenizer word index of each token; sub-words of one word share it.
    pub words: Vec<u32>,
    /// Word-shape bit of each token: its word starts with an upper-case letter. Fed as
    /// `token_type_ids` to models trained with it (the uncased encoder cannot see case).
    pub capitalised: Vec<bool>,
}

impl Tokens {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// These tokens with each run of two or more inside one of `known` (ascending,
    /// disjoint byte spans: values another tier proved, log machinery) read as the run's
    /// last token over the run's span, and which tokens are such stand-ins. The model
    /// then spends one position, not dozens, on a key, an address or a timestamp it has
    /// nothing to find in. The last token, not the first: a value's first token is what
    /// reads as a word (a log header's month, `Jun`, before the message's first name;
    /// a year), its last mostly a sub-word or a closing mark, and the dev sets it moved
    /// gained with the last (`training/MODEL_CARD.md`, inference path).
    pub fn standing_in(&self, known: &[ByteSpan]) -> (Tokens, Vec<bool>) {
        let mut out = Tokens::default();
        let mut stand_in = Vec::new();
        let mut spans = known.iter().peekable();
        let mut i = 0;
        while i < self.len() {
            let at = self.spans[i];
            while spans.next_if(|k| k.end <= at.start).is_some() {}
            let run = spans.peek().map_or(0, |k| {
                self.spans[i..].iter().take_while(|s| k.contains(s)).count()
            });
            // (the token read, its span, its capital) of a stand-in or of the token as is
            let (read, span, capitalised) = if run >= 2 {
                let end = self.spans[i..i + run].iter().map(|s| s.end).max();
                let span = ByteSpan::new(at.start, end.unwrap_or(at.end));
                (i + run - 1, span, false)
            } else {
                (i, at, self.capitalised[i])
            };
            out.ids.push(self.ids[read]);
            out.spans.push(span);
            out.words.push(self.words[read]);
            out.capitalised.push(capitalised);
            stand_in.push(run >= 2);
            i = read + 1;
        }
        (out, stand_in)
    }
}

/// The `tokenizers` pipeline (normalizer, pre-tokenizer, added tokens) around model `M`.
type Pipeline<M> =
    TokenizerImpl<M, NormalizerWrapper, PreTokenizerWrapper, PostProcessorWrapper, DecoderWrapper>;

/// A `tokenizer.json` with the model the crate reads, or with a Unigram model as ours.
enum Inner {
    Stock(Box<Pipeline<ModelWrapper>>),
    Unigram(Box<Pipeline<CompactUnigram>>),
}

impl Inner {
    fn read(json: &str) -> Result<Inner, String> {
        /// Only the model's type, to pick the model.
        #[derive(Deserialize)]
        struct Head {
            model: ModelType,
        }
        #[derive(Deserialize)]
        struct ModelType {
            #[serde(rename = "type")]
            kind: Option<String>,
        }
        let head: Head = serde_json::from_str(json).map_err(|e| e.to_string())?;
        Ok(if head.model.kind.as_deref() == Some("Unigram") {
            Inner::Unigram(Box::new(pipeline(json)?))
        } else {
            Inner::Stock(Box::new(pipeline(json)?))
        })
    }

    fn encode(&self, text: &str) -> tokenizers::Result<Encoding> {
        match self {
            Inner::Stock(t) => t.encode(text, false),
            Inner::Unigram(t) => t.encode(text, false),
        }
    }

    fn token_to_id(&self, token: &str) -> Option<u32> {
        match self {
            Inner::Stock(t) => t.token_to_id(token),
            Inner::Unigram(t) => t.token_to_id(token),
        }
    }
}

/// The pipeline of `json` with model `M`. Windows and padding are ours: a truncation or
/// padding the file sets is dropped.
fn pipeline<M: Model + DeserializeOwned>(json: &str) -> Result<Pipeline<M>, String> {
    let mut pipeline: Pipeline<M> = serde_json::from_str(json).map_err(|e| e.to_string())?;
    pipeline.with_truncation(None).map_err(|e| e.to_string())?;
    pipeline.with_padding(None);
    Ok(pipeline)
}

/// A loaded `tokenizer.json` plus the ids of its `[CLS]`/`[SEP]` wrappers.
pub struct Tokenizer {
    inner: Inner,
    pub cls: u32,
    pub sep: u32,
    pub pad: u32,
    /// Each token is its own word ([`super::model::Words::Tokens`]).
    token_words: bool,
}

impl Tokenizer {
    /// # Errors
    /// The file is missing or not a tokenizer, or it lacks `[CLS]`/`[SEP]`.
    pub fn load(path: &Path) -> Result<Tokenizer, NerError> {
        if !path.is_file() {
            return Err(NerError::missing(path));
        }
        let json = std::fs::read_to_string(path)
            .map_err(|e| NerError::runtime(format!("loading {}: {e}", path.display())))?;
        let inner = Inner::read(&json)
            .map_err(|e| NerError::runtime(format!("loading {}: {e}", path.display())))?;
        let special = |names: &[&str]| names.iter().find_map(|n| inner.token_to_id(n));
        let cls = special(&["[CLS]", "<s>"]);
        let sep = special(&["[SEP]", "</s>"]);
        let pad = special(&["[PAD]", "<pad>"]).unwrap_or(0);
        match (cls, sep) {
            (Some(cls), Some(sep)) => Ok(Tokenizer {
                inner,
                cls,
                sep,
                pad,
                token_words: false,
            }),
            _ => Err(NerError::runtime(
                "tokenizer has no [CLS]/[SEP] (or <s>/</s>) token",
            )),
        }
    }

    /// Makes each token its own word, for a model that tags every sub-word.
    pub fn with_token_words(mut self, token_words: bool) -> Tokenizer {
        self.token_words = token_words;
        self
    }

    /// The tokenizer's own encoding of `text`, without special tokens.
    #[cfg(test)]
    pub(super) fn encoding(&self, text: &str) -> tokenizers::Result<Encoding> {
        self.inner.encode(text)
    }

    /// Tokenizes `text` without special tokens.
    ///
    /// # Errors
    /// The tokenizer fails (it does not on valid UTF-8 in practice).
    pub fn tokenize(&self, text: &str) -> Result<Tokens, NerError> {
        if text.is_empty() {
            return Ok(Tokens::default());
        }
        let encoding = self
            .inner
            .encode(text)
            .map_err(|e| NerError::runtime(format!("tokenizing: {e}")))?;
        let mut tokens = Tokens {
            ids: encoding.get_ids().to_vec(),
            spans: Vec::with_capacity(encoding.len()),
            words: Vec::with_capacity(encoding.len()),
            capitalised: Vec::with_capacity(encoding.len()),
        };
        let mut last_word = None;
        let mut capitalised = false;
        for (i, &(start, end)) in encoding.get_offsets().iter().enumerate() {
            let span = without_leading_space(text, snap(text, start, end));
            // A token without a word (none in BERT vocabularies) is its own word.
            let word = match encoding.get_word_ids().get(i).copied().flatten() {
                _ if self.token_words => i as u32,
                Some(w) => w,
                None => last_word.unwrap_or(0u32).wrapping_add(1 << 20),
            };
            if last_word != Some(word) {
                // Same rule as training/bio.py `casing_type_ids`: the word's first char.
                capitalised = text
                    .get(span.start..)
                    .and_then(|rest| rest.chars().next())
                    .is_some_and(char::is_uppercase);
            }
            last_word = Some(word);
            tokens.spans.push(span);
            tokens.words.push(word);
            tokens.capitalised.push(capitalised);
        }
        Ok(tokens)
    }
}

/// A metaspace token (`▁Frau`) covers the space before its word; an entity starts at
/// the word. WordPiece spans never start with whitespace, so they pass unchanged.
fn without_leading_space(text: &str, span: ByteSpan) -> ByteSpan {
    let inner = &text[span.start..span.end];
    let trimmed = inner.len() - inner.trim_start().len();
    ByteSpan::new(span.start + trimmed, span.end)
}

/// Clamps a span to the text and widens it to char boundaries.
fn snap(text: &str, start: usize, end: usize) -> ByteSpan {
    let mut start = start.min(text.len());
    let mut end = end.clamp(start, text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    ByteSpan::new(start, end)
}

/// Tokens as BERT's pre-tokenizer splits words (at spaces, and each punctuation mark
/// alone) from `marked`, where `|` splits a word into sub-word tokens: the text and its
/// tokens, for tests here and of the reading rules.
#[cfg(test)]
pub(crate) fn marked_tokens(marked: &str) -> (String, Tokens) {
    let mut tokens = Tokens::default();
    let mut text = String::new();
    let mut word = 0u32;
    let mut in_word = false;
    for c in marked.chars() {
        match c {
            '|' => {
                tokens.spans.push(ByteSpan::new(text.len(), text.len()));
                tokens.words.push(word);
            }
            c if c.is_whitespace() => {
                text.push(c);
                if in_word {
                    word += 1;
                }
                in_word = false;
            }
            c if c.is_alphanumeric() => {
                if !in_word {
                    tokens.spans.push(ByteSpan::new(text.len(), text.len()));
                    tokens.words.push(word);
                }
                text.push(c);
                let last = tokens.spans.last_mut().unwrap();
                *last = ByteSpan::new(last.start, text.len());
                in_word = true;
            }
            c => {
                if in_word {
                    word += 1;
                }
                tokens
                    .spans
                    .push(ByteSpan::new(text.len(), text.len() + c.len_utf8()));
                tokens.words.push(word);
                text.push(c);
                word += 1;
                in_word = false;
            }
        }
    }
    tokens.ids = vec![0; tokens.spans.len()];
    tokens.capitalised = vec![false; tokens.spans.len()];
    (text, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapping_widens_to_char_boundaries_and_clamps() {
        let text = "aé😀";
        assert_eq!(snap(text, 2, 4), ByteSpan::new(1, 7));
        assert_eq!(snap(text, 5, 99), ByteSpan::new(3, 7));
        assert_eq!(snap(text, 9, 3), ByteSpan::new(7, 7));
    }

    #[test]
    fn a_known_value_of_several_tokens_is_read_as_one_stand_in() {
        let (text, tokens) = marked_tokens("mail ann@ex|ample.org or call");
        assert_eq!(tokens.len(), 9);
        let at = text.find("ann").unwrap();
        let known = [ByteSpan::new(at, at + "ann@example.org".len())];
        let tokens = Tokens {
            ids: (0..9).collect(),
            ..tokens
        };
        let (read, stand_in) = tokens.standing_in(&known);
        assert_eq!(read.ids, [0, 6, 7, 8]);
        assert_eq!(stand_in, [false, true, false, false]);
        let spans: Vec<&str> = read.spans.iter().map(|s| &text[s.start..s.end]).collect();
        assert_eq!(spans, ["mail", "ann@example.org", "or", "call"]);
        assert_eq!(read.words, [0, 5, 6, 7]);
        assert_eq!(read.capitalised.len(), 4);
    }

    #[test]
    fn a_known_value_of_one_token_or_cut_mid_token_is_read_as_it_was() {
        let (text, tokens) = marked_tokens("key abc|def and x");
        // One token inside: nothing to save. Half a token inside: the model reads it.
        let one = ByteSpan::new(text.find("and").unwrap(), text.find("and").unwrap() + 3);
        let half = ByteSpan::new(5, 7);
        let (read, stand_in) = tokens.standing_in(&[half, one]);
        assert_eq!(read.ids, tokens.ids);
        assert_eq!(read.spans, tokens.spans);
        assert!(!stand_in.contains(&true));
        let (read, _) = tokens.standing_in(&[]);
        assert_eq!(read.spans, tokens.spans);
    }

    #[test]
    fn a_metaspace_token_starts_at_its_word() {
        let text = "Frau  Müller";
        assert_eq!(
            without_leading_space(text, ByteSpan::new(4, 9)),
            ByteSpan::new(6, 9)
        );
        assert_eq!(
            without_leading_space(text, ByteSpan::new(4, 6)),
            ByteSpan::new(6, 6)
        );
        assert_eq!(
            without_leading_space(text, ByteSpan::new(0, 4)),
            ByteSpan::new(0, 4)
        );
    }
}
