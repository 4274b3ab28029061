//! Configured recognizers: extra regex patterns, the deny list and the allow list, as
//! plain data ([`EngineOptions`]) the config layer fills in. The engine knows nothing
//! about YAML or where the options came from.

use regex::{Regex, RegexBuilder};

use crate::engine::{context, BuildError, Candidate, Proof, Recognizer, Trace};
use crate::text::intern::Interner;
use crate::text::{ByteSpan, Label, LabelSet};

/// Detection options from configuration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineOptions {
    /// Texts never flagged (compared case-insensitively with the detected text).
    pub allow_list: Vec<String>,
    /// Phrases always flagged with their label (whole words, any case).
    pub deny_list: Vec<(String, Label)>,
    /// Extra regex recognizers.
    pub patterns: Vec<CustomPattern>,
}

/// An extra regex recognizer declared in configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomPattern {
    pub name: String,
    pub label: Label,
    /// A `regex` crate pattern; capture group 1, if present, is the entity.
    pub regex: String,
    pub score: f32,
    /// Lower-case words near a match that raise its score.
    pub context: Vec<String>,
    /// What a match rests on: [`Proof::None`] for the operator's patterns, which
    /// compete with the built-ins; [`Proof::Listed`] for a caller's own recognizer,
    /// whose label they asked for by declaring it, so it wins its span.
    pub proof: Proof,
}

/// Bytes one pattern's compiled program and lazy DFA may take: what a request may
/// make the server hold for one of its patterns (the crate's default is 10 MB).
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Recognizer names, for traces; past the cap (callers choosing a new name per
/// request), traces say `custom`.
static NAMES: Interner = Interner::new(4096);

struct Compiled {
    /// The declared name, for traces.
    name: &'static str,
    label: Label,
    regex: Regex,
    score: f32,
    context: Vec<String>,
    proof: Proof,
}

/// The configured regex recognizers.
pub struct CustomRecognizer {
    patterns: Vec<Compiled>,
    labels: Vec<Label>,
}

impl CustomRecognizer {
    /// # Errors
    /// If a pattern does not compile.
    pub fn new(patterns: &[CustomPattern]) -> Result<Self, BuildError> {
        let mut compiled = Vec::with_capacity(patterns.len());
        for p in patterns {
            let regex = RegexBuilder::new(&p.regex)
                .size_limit(REGEX_SIZE_LIMIT)
                .dfa_size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map_err(|_| {
                    BuildError::new(p.name.clone(), "regex does not compile or is too large")
                })?;
            compiled.push(Compiled {
                name: NAMES.intern(&p.name).unwrap_or("custom"),
                label: p.label,
                regex,
                score: p.score.clamp(0.0, 1.0),
                context: p.context.iter().map(|w| w.to_lowercase()).collect(),
                proof: p.proof,
            });
        }
        let mut labels: Vec<Label> = compiled.iter().map(|p| p.label).collect();
        labels.sort();
        labels.dedup();
        Ok(Self {
            patterns: compiled,
            labels,
        })
    }
}

impl Recognizer for CustomRecognizer {
    fn labels(&self) -> &[Label] {
        &self.labels
    }

    fn basis(&self, text: &str, d: &crate::engine::Detection) -> Option<crate::engine::Basis> {
        let p = self.patterns.iter().find(|p| p.name == d.trace.by)?;
        let words: Vec<&str> = p.context.iter().map(String::as_str).collect();
        Some(crate::engine::Basis {
            base_score: p.score,
            context_word: context::Words::new(&words, &[]).supporting(text, d.span),
        })
    }

    fn tier(&self) -> &'static str {
        "patterns"
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        for p in &self.patterns {
            if !wanted.contains(p.label) {
                continue;
            }
            for caps in p.regex.captures_iter(text) {
                let Some(m) = caps.get(1).or_else(|| caps.get(0)) else {
                    continue;
                };
                if m.is_empty() {
                    continue;
                }
                let span = ByteSpan::new(m.start(), m.end());
                let words: Vec<&str> = p.context.iter().map(String::as_str).collect();
                out.push(Candidate {
                    span,
                    label: p.label,
                    score: (p.score + context::boost(text, span, &words)).min(1.0),
                    proof: p.proof,
                    trace: Trace::new("custom", p.name),
                });
            }
        }
    }
}

/// Lower-cased allow-list entries, sorted for binary search.
#[derive(Debug, Default)]
pub struct AllowList(Vec<String>);

impl AllowList {
    pub fn new(entries: &[String]) -> Self {
        let mut v: Vec<String> = entries.iter().map(|e| e.trim().to_lowercase()).collect();
        v.sort();
        v.dedup();
        Self(v)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, found: &str) -> bool {
        !self.0.is_empty() && self.0.binary_search(&found.trim().to_lowercase()).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_patterns_use_group_one_and_context() {
        let rec = CustomRecognizer::new(&[CustomPattern {
            name: "employee_id".into(),
            label: Label::builtin("PERSON"),
            regex: r"\bEMP-(\d{6})\b".into(),
            score: 0.4,
            context: vec!["Employee".into()],
            proof: Proof::None,
        }])
        .expect("compiles");
        let mut out = Vec::new();
        rec.recognize("employee EMP-123456", &LabelSet::all(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].span, ByteSpan::new(13, 19));
        assert!(out[0].score > 0.7);
    }

    #[test]
    fn bad_regex_is_a_build_error_naming_the_pattern() {
        let err = CustomRecognizer::new(&[CustomPattern {
            name: "broken".into(),
            label: Label::builtin("PERSON"),
            regex: "(".into(),
            score: 0.5,
            context: vec![],
            proof: Proof::None,
        }])
        .err()
        .expect("fails");
        assert!(err.to_string().contains("broken"));
    }

    #[test]
    fn allow_list_ignores_case_and_spaces() {
        let allow = AllowList::new(&["Acme Support".into()]);
        assert!(allow.contains("acme support"));
        assert!(!allow.contains("acme"));
    }
}
