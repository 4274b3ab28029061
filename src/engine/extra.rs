//! What one call adds to the engine's own recognizers: its ad-hoc recognizers
//! (patterns and deny lists, any label), allow rules, context words, per-label
//! thresholds, and whether the caller named its labels. Built per request (or per
//! tenant) by `policy`; the engine applies it around [`super::Engine::settle`].

use regex::{Regex, RegexBuilder};

use super::context::Words;
use super::recognizer::UNVALIDATED_MAX;
use super::tiers::custom::{AllowList, REGEX_SIZE_LIMIT};
use super::{Candidate, Detection, Proof, Recognizer};
use crate::text::{ByteSpan, Label, LabelSet};

/// The score a checksum- or grammar-proven candidate gets when the caller named its
/// label: the validation is the evidence they asked for, so no context word is needed.
/// Above every default threshold, below a context-backed checksum's certainty.
pub const NAMED_EVIDENCE: f32 = 0.85;

/// How allow-list entries are compared with a detected text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AllowMatch {
    /// The whole detected text, ignoring case and surrounding spaces.
    #[default]
    Exact,
    /// A regular expression that must match the whole detected text.
    Regex,
    /// A regular expression that may match anywhere in the detected text (Presidio's
    /// `allow_list_match: regex`).
    RegexAnywhere,
}

/// Detected texts never flagged.
#[derive(Debug, Default)]
pub struct Allow {
    exact: AllowList,
    regex: Option<Regex>,
}

impl Allow {
    /// # Errors
    /// An entry that does not compile (its index), or the union being too large.
    pub fn new(entries: &[String], how: AllowMatch) -> Result<Self, AllowError> {
        match how {
            AllowMatch::Exact => Ok(Self {
                exact: AllowList::new(entries),
                regex: None,
            }),
            AllowMatch::Regex | AllowMatch::RegexAnywhere if entries.is_empty() => {
                Ok(Self::default())
            }
            AllowMatch::Regex | AllowMatch::RegexAnywhere => {
                let union = entries
                    .iter()
                    .map(|e| format!("(?:{e})"))
                    .collect::<Vec<_>>()
                    .join("|");
                let whole = if how == AllowMatch::Regex {
                    format!("^(?:{union})$")
                } else {
                    union
                };
                // The entries are compiled one by one only to name the one that fails.
                let regex = compile(&whole).map_err(|()| {
                    entries
                        .iter()
                        .position(|e| compile(e).is_err())
                        .map_or(AllowError::TooLarge, AllowError::Entry)
                })?;
                Ok(Self {
                    exact: AllowList::default(),
                    regex: Some(regex),
                })
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.regex.is_none()
    }

    pub fn allows(&self, found: &str) -> bool {
        self.exact.contains(found) || self.regex.as_ref().is_some_and(|r| r.is_match(found))
    }
}

fn compile(pattern: &str) -> Result<Regex, ()> {
    RegexBuilder::new(pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|_| ())
}

/// Why an allow list could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllowError {
    /// This entry is not a valid regex, or too large.
    Entry(usize),
    /// The entries together are too large.
    TooLarge,
}

/// One call's additions; `Extra::default()` adds nothing.
#[derive(Default)]
pub struct Extra {
    /// Recognizers of this call alone (`tier()` `custom`).
    pub recognizers: Vec<std::sync::Arc<dyn Recognizer>>,
    pub allow: Allow,
    /// Words that make any candidate near them more likely.
    pub context: Option<Words>,
    /// Thresholds that replace the call's threshold for their label.
    pub thresholds: Vec<(Label, f32)>,
    /// The caller named the labels (rather than taking the default set): a proven
    /// candidate of a named label needs no context ([`NAMED_EVIDENCE`]).
    pub named: bool,
}

impl Extra {
    /// The labels its recognizers emit, which a call asks for whatever its label set.
    pub fn labels(&self) -> impl Iterator<Item = Label> + '_ {
        self.recognizers
            .iter()
            .flat_map(|r| r.labels().iter().copied())
    }

    /// The lowest threshold any label of this call has: what overlap resolution runs
    /// with before [`Extra::keeps`] applies each label's own.
    pub fn lowest_threshold(&self, threshold: f32) -> f32 {
        self.thresholds
            .iter()
            .map(|(_, t)| *t)
            .fold(threshold, f32::min)
    }

    /// `label`'s threshold in this call.
    pub fn threshold(&self, label: Label, threshold: f32) -> f32 {
        self.thresholds
            .iter()
            .find(|(l, _)| *l == label)
            .map_or(threshold, |(_, t)| *t)
    }

    /// Raises candidates by the call's context words and, for named labels, by their
    /// proof; drops what the call's allow list allows.
    pub fn adjust(&self, text: &str, labels: &LabelSet, found: &mut Vec<Candidate>) {
        for c in found.iter_mut() {
            let ceiling = if c.proof == Proof::Checksum {
                1.0
            } else {
                UNVALIDATED_MAX.max(c.score)
            };
            if let Some(words) = &self.context {
                let boost = words.adjust(text, c.span).max(0.0);
                c.score = (c.score + boost).min(ceiling);
            }
            if self.named
                && matches!(c.proof, Proof::Checksum | Proof::Grammar)
                && labels.contains(c.label)
            {
                c.score = c.score.max(NAMED_EVIDENCE);
            }
        }
        // Thresholds apply after resolution ([`Extra::keeps`]): key-value fields may
        // still raise a candidate before then.
        found.retain(|c| !self.allowed(text, c.span));
    }

    fn allowed(&self, text: &str, span: ByteSpan) -> bool {
        !self.allow.is_empty()
            && text
                .get(span.start..span.end)
                .is_some_and(|found| self.allow.allows(found))
    }

    /// Whether a resolved detection stands under this call's per-label thresholds.
    pub fn keeps(&self, d: &Detection, threshold: f32) -> bool {
        d.score >= self.threshold(d.label, threshold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_allow_entries_ignore_case_regex_ones_match_whole_or_anywhere() {
        let exact = Allow::new(&["Acme Support".into()], AllowMatch::Exact).expect("builds");
        assert!(exact.allows("acme support"));
        assert!(!exact.allows("Acme"));
        let whole = Allow::new(&[r"[a-z]+@example\.com".into()], AllowMatch::Regex).expect("ok");
        assert!(whole.allows("bob@example.com"));
        assert!(!whole.allows("bob@example.com.evil.io"));
        let anywhere =
            Allow::new(&[r"example\.com".into()], AllowMatch::RegexAnywhere).expect("ok");
        assert!(anywhere.allows("bob@example.com.evil.io"));
        assert_eq!(
            Allow::new(&["ok".into(), "(".into()], AllowMatch::Regex).err(),
            Some(AllowError::Entry(1))
        );
    }
}
