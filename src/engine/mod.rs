//! Detection: text in, labelled spans out.
//!
//! The engine runs the recognizers for the requested labels, scores candidates with
//! their context, resolves overlaps and applies the threshold. It knows nothing about
//! HTTP, JSON bodies, tenants, metrics or how entities get replaced.

pub mod context;
pub mod ner;
pub mod patterns;
pub mod recognizer;
pub mod resolve;
pub mod validators;

use std::fmt;

use crate::text::{ByteSpan, Label, LabelSet};
pub use recognizer::{Candidate, PatternRecognizer, PatternSpec, Recognizer};

/// One detected entity, in byte offsets of the text it was found in.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    pub span: ByteSpan,
    pub label: Label,
    pub score: f32,
    /// The best competing label for the same region, if any recognizer proposed one.
    pub alternative: Option<(Label, f32)>,
}

/// Why the engine could not be built (a bad built-in or configured recognizer).
#[derive(Debug)]
pub struct BuildError {
    recognizer: String,
    reason: String,
}

impl BuildError {
    pub(crate) fn new(recognizer: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            recognizer: recognizer.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "recognizer {}: {}", self.recognizer, self.reason)
    }
}

impl std::error::Error for BuildError {}

/// The detection engine: an immutable set of recognizers, shared by all requests.
pub struct Engine {
    recognizers: Vec<Box<dyn Recognizer>>,
    supported: LabelSet,
}

impl Engine {
    /// The engine with every built-in recognizer.
    ///
    /// # Errors
    /// If a built-in pattern fails to compile — a bug, caught by the registry tests.
    pub fn builtin() -> Result<Engine, BuildError> {
        let patterns = PatternRecognizer::new(patterns::ALL)?;
        Ok(Engine::from_recognizers(vec![Box::new(patterns)]))
    }

    pub fn from_recognizers(recognizers: Vec<Box<dyn Recognizer>>) -> Engine {
        let supported = LabelSet::new(
            recognizers
                .iter()
                .flat_map(|r| r.labels().iter().copied())
                .collect(),
        );
        Engine {
            recognizers,
            supported,
        }
    }

    /// Labels some recognizer of this engine can emit.
    pub fn supported_labels(&self) -> &LabelSet {
        &self.supported
    }

    /// Names of the loaded detection tiers, for `/readyz` and `/v1/entities`.
    pub fn tiers(&self) -> Vec<&'static str> {
        let mut tiers: Vec<&'static str> = self.recognizers.iter().map(|r| r.tier()).collect();
        tiers.dedup();
        tiers
    }

    /// Detects entities of `labels` in `text` with confidence `>= threshold`.
    ///
    /// The result is sorted by start offset and free of overlaps.
    pub fn detect(&self, text: &str, labels: &LabelSet, threshold: f32) -> Vec<Detection> {
        let mut candidates = Vec::new();
        for recognizer in &self.recognizers {
            if recognizer.labels().iter().any(|l| labels.contains(*l)) {
                recognizer.recognize(text, labels, &mut candidates);
            }
        }
        candidates.retain(|c| labels.contains(c.label));
        resolve::resolve(candidates, threshold)
    }
}
