//! The use case both front doors share (the `/v1` API and, later, the proxy):
//! detect entities in a batch of texts, replace them, and restore texts from a map.
//!
//! Knows nothing about HTTP or JSON bodies; works on plain texts and typed options.

use std::sync::Arc;

use crate::engine::Engine;
use crate::methods::{Method, Replacer};
use crate::restore::{MapEntry, MapError, Restorer};
use crate::text::{CharIndex, CharSpan, Label, LabelSet};

/// Defaults applied when a request leaves an option out (from config).
#[derive(Debug, Clone)]
pub struct Defaults {
    pub labels: LabelSet,
    pub threshold: f32,
    pub method: Method,
}

/// Options of one anonymize call; `None` means "use the default".
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub labels: Option<LabelSet>,
    pub threshold: Option<f32>,
    pub method: Option<Method>,
}

/// One replaced entity, in code-point offsets of `texts[text_index]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub text_index: usize,
    pub span: CharSpan,
    pub label: Label,
    pub text: String,
    pub confidence: f32,
    pub alternative: Option<(Label, f32)>,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Anonymized {
    pub texts: Vec<String>,
    /// Ordered by `(text_index, span.start)`.
    pub entities: Vec<Entity>,
}

pub struct Anonymizer {
    engine: Arc<Engine>,
    defaults: Defaults,
}

impl Anonymizer {
    pub fn new(engine: Arc<Engine>, defaults: Defaults) -> Self {
        Self { engine, defaults }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn anonymize(&self, texts: &[String], options: &Options) -> Anonymized {
        let labels = options.labels.as_ref().unwrap_or(&self.defaults.labels);
        let threshold = options.threshold.unwrap_or(self.defaults.threshold);
        let method = options.method.unwrap_or(self.defaults.method);
        let mut replacer = Replacer::new(method, texts);

        let mut out_texts = Vec::with_capacity(texts.len());
        let mut entities = Vec::new();
        for (text_index, text) in texts.iter().enumerate() {
            let detections = self.engine.detect(text, labels, threshold);
            let chars = CharIndex::new(text);
            let mut out = String::with_capacity(text.len());
            let mut cursor = 0;
            for d in detections {
                let original = &text[d.span.start..d.span.end];
                let replacement = replacer.replace(d.label, original);
                out.push_str(&text[cursor..d.span.start]);
                out.push_str(&replacement);
                cursor = d.span.end;
                entities.push(Entity {
                    text_index,
                    span: chars.char_span(d.span),
                    label: d.label,
                    text: original.to_owned(),
                    confidence: d.score,
                    alternative: d.alternative,
                    replacement,
                });
            }
            out.push_str(&text[cursor..]);
            out_texts.push(out);
        }
        Anonymized {
            texts: out_texts,
            entities,
        }
    }

    /// Restores `texts` with `map`.
    ///
    /// # Errors
    /// When the map is unusable (empty or ambiguous replacements).
    pub fn deanonymize(&self, texts: &[String], map: &[MapEntry]) -> Result<Vec<String>, MapError> {
        let restorer = Restorer::new(map)?;
        Ok(texts.iter().map(|t| restorer.restore(t)).collect())
    }
}
