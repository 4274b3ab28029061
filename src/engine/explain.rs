//! Decision traces: why a detection stands — which tier and recognizer proposed it,
//! its score before and after context, the word that raised it, and what validated it.
//! Computed only when a caller asks (`return_decision_process`), from the detection's
//! trace, so detection itself records nothing extra.

use super::extra::{Extra, NAMED_EVIDENCE};
use super::{Detection, Engine, Proof};

/// What a recognizer knows about one of its detections.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Basis {
    /// Its score before context.
    pub base_score: f32,
    /// The positive context word near it, as written.
    pub context_word: Option<String>,
}

/// Why one detection stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    pub tier: &'static str,
    /// The pattern, list, name rule or model that proposed it.
    pub recognizer: &'static str,
    /// Corrective rules that reshaped it, in order.
    pub rules: Vec<&'static str>,
    pub original_score: f32,
    pub score: f32,
    /// What context (the recognizer's words or the call's) added.
    pub context_improvement: f32,
    pub context_word: Option<String>,
    /// `checksum`, `grammar`, `deny_list`, `declared_pattern` (a call's own), or `none`.
    pub validation: &'static str,
    /// The caller named a validated label, which made context unnecessary.
    pub named_evidence: bool,
}

impl Engine {
    /// Why `d`, found in `text` by a call with `extra`, stands.
    pub fn explain(&self, text: &str, d: &Detection, extra: Option<&Extra>) -> Explanation {
        let recognizers = self.recognizers.iter().map(|r| r.as_ref()).chain(
            extra
                .into_iter()
                .flat_map(|e| e.recognizers.iter().map(|r| r.as_ref())),
        );
        let basis = recognizers
            .filter(|r| r.tier() == d.trace.tier || d.trace.tier == "custom")
            .find_map(|r| r.basis(text, d))
            .unwrap_or(Basis {
                base_score: d.score,
                context_word: None,
            });
        let call_word = extra
            .and_then(|e| e.context.as_ref())
            .and_then(|w| w.supporting(text, d.span));
        let named_evidence = extra.is_some_and(|e| e.named)
            && matches!(d.proof, Proof::Checksum | Proof::Grammar)
            && d.score >= NAMED_EVIDENCE
            && basis.context_word.is_none()
            && call_word.is_none()
            && basis.base_score < NAMED_EVIDENCE;
        let original_score = basis.base_score.min(d.score);
        Explanation {
            tier: d.trace.tier,
            recognizer: d.trace.by,
            rules: d.trace.rules.clone(),
            original_score,
            score: d.score,
            context_improvement: if named_evidence {
                0.0
            } else {
                (d.score - original_score).max(0.0)
            },
            context_word: basis.context_word.or(call_word),
            validation: match d.proof {
                Proof::None => "none",
                Proof::Grammar => "grammar",
                Proof::Checksum => "checksum",
                Proof::Listed if d.trace.tier == "custom" => "declared_pattern",
                Proof::Listed => "deny_list",
            },
            named_evidence,
        }
    }
}
