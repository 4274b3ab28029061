//! What the model tier read in one text, in the text's terms (byte spans, no token ids):
//! its entities before they are merged and labelled, the tokens they were read from,
//! and a second reading where there was one. The engine hands it to the reading rules
//! of `engine::refine`, which correct the entities with what only the tokens show, and
//! then makes it candidates ([`Reading::candidates`]).

use std::sync::Arc;

use super::decode::{self, Target, TypedSpan};
use super::model::{TagScheme, TokenClass};
use super::tokenize::Tokens;
use super::window::Window;
use crate::engine::Candidate;
use crate::text::{ByteSpan, Label, LabelSet};

/// The tokens of a text as spans: where each sub-word is and which word it belongs to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TokenView {
    /// Byte span of each token (on char boundaries; may be empty).
    pub spans: Vec<ByteSpan>,
    /// Word index of each token; sub-words of one word share it.
    pub words: Vec<u32>,
}

impl TokenView {
    /// How many non-empty tokens the word at `start..end` was read as.
    pub fn sub_words(&self, start: usize, end: usize) -> usize {
        let first = self.spans.partition_point(|s| s.start < start);
        self.spans[first..]
            .iter()
            .take_while(|s| s.start < end)
            .filter(|s| !s.is_empty())
            .count()
    }
}

impl From<Tokens> for TokenView {
    fn from(tokens: Tokens) -> Self {
        TokenView {
            spans: tokens.spans,
            words: tokens.words,
        }
    }
}

/// How a model that takes the casing bit as its token types is read a second time: a
/// policy the engine gives the tier ([`super::NerRecognizer::with_second_reading`]), so
/// that what is fitted to one model's errors stays out of the tier.
#[derive(Clone, Copy)]
pub struct Reread {
    /// Per token of the text: whether its word is read as capitalised the second time.
    pub words: fn(&str, &Tokens) -> Vec<bool>,
    /// Whether a window is read again, from the first reading's classes of the text's
    /// tokens.
    pub window: fn(&Window, &str, &Tokens, &[TokenClass], &TagScheme) -> bool,
}

/// The windows read again with some words capitalised ([`Reread`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SecondReading {
    /// Per token: whether its word was read as capitalised ([`Reread::words`]).
    pub unknown: Vec<bool>,
    /// The entities of the windows read again, in text order.
    pub entities: Vec<TypedSpan>,
}

/// One text as the model read it.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub tokens: TokenView,
    /// The first reading's entities, in text order (decode step 2).
    pub entities: Vec<TypedSpan>,
    pub second: Option<SecondReading>,
    /// What each model entity type becomes (`None`: ignored).
    pub targets: Arc<[Option<Target>]>,
    /// Whether the tokens' words are the pre-tokenizer's (whitespace-separated), not
    /// each token its own.
    pub whole_words: bool,
    /// Spans the reading rules added or moved, with the rule: for the candidates'
    /// traces.
    pub corrected: Vec<(ByteSpan, &'static str)>,
}

impl Reading {
    /// Whether `entity` is of a type that becomes `label`.
    pub fn is(&self, entity: &TypedSpan, label: Label) -> bool {
        self.targets
            .get(entity.entity_type)
            .copied()
            .flatten()
            .is_some_and(|t| t.label == label)
    }

    /// Appends the candidates for the labels in `wanted` (decode step 3), each traced
    /// with the reading rules that made or moved a part of it.
    pub fn candidates(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        let from = out.len();
        decode::candidates(text, &self.entities, &self.targets, wanted, out);
        if self.corrected.is_empty() {
            return;
        }
        for c in &mut out[from..] {
            for &(span, rule) in &self.corrected {
                if c.span.start <= span.start && span.end <= c.span.end {
                    c.trace.rules.push(rule);
                }
            }
        }
    }
}
