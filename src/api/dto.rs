//! Response bodies of the `/v1` API, as serde types.

use serde::Serialize;

use crate::anonymizer::{Action, Entity};
use crate::engine::tiers::ner::ModelIdentity;
use crate::engine::Explanation;

/// Confidences are rounded to 4 decimals so `0.95f32` prints as `0.95`.
pub(crate) fn round(score: f32) -> f64 {
    (f64::from(score) * 10_000.0).round() / 10_000.0
}

#[derive(Serialize)]
pub struct AnonymizeResponse<'a> {
    pub anonymized_text: &'a [String],
    pub detected_entities: Vec<EntityDto<'a>>,
    /// The ISO 639-1 language each text was read as (`null`: not known).
    pub languages: Vec<Option<&'static str>>,
}

#[derive(Serialize)]
pub struct SpanDto {
    pub start: usize,
    pub end: usize,
}

#[derive(Serialize)]
pub struct AlternativeDto {
    pub label: &'static str,
    pub confidence: f64,
}

#[derive(Serialize)]
pub struct EntityDto<'a> {
    pub text: &'a str,
    pub label: &'static str,
    pub span: SpanDto,
    pub confidence: f64,
    pub alternatives: Option<AlternativeDto>,
    pub anonymized_text: &'a str,
    pub text_index: usize,
    /// What the policy did, when it did not replace it (`monitor`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<ExplanationDto<'a>>,
}

/// Why an entity was detected (`return_decision_process`).
#[derive(Serialize)]
pub struct ExplanationDto<'a> {
    pub tier: &'static str,
    pub recognizer: &'static str,
    pub rules: &'a [&'static str],
    pub original_score: f64,
    pub score: f64,
    pub score_context_improvement: f64,
    pub supportive_context_word: Option<&'a str>,
    pub validation: &'static str,
    pub named_evidence: bool,
}

impl<'a> From<&'a Explanation> for ExplanationDto<'a> {
    fn from(x: &'a Explanation) -> Self {
        ExplanationDto {
            tier: x.tier,
            recognizer: x.recognizer,
            rules: &x.rules,
            original_score: round(x.original_score),
            score: round(x.score),
            score_context_improvement: round(x.context_improvement),
            supportive_context_word: x.context_word.as_deref(),
            validation: x.validation,
            named_evidence: x.named_evidence,
        }
    }
}

impl<'a> From<&'a Entity> for EntityDto<'a> {
    fn from(e: &'a Entity) -> Self {
        EntityDto {
            text: &e.text,
            label: e.label.as_str(),
            span: SpanDto {
                start: e.span.start,
                end: e.span.end,
            },
            confidence: round(e.confidence),
            alternatives: e.alternative.map(|(label, score)| AlternativeDto {
                label: label.as_str(),
                confidence: round(score),
            }),
            anonymized_text: &e.replacement,
            text_index: e.text_index,
            action: (e.action != Action::Anonymize).then(|| e.action.as_str()),
            explanation: e.explanation.as_ref().map(ExplanationDto::from),
        }
    }
}

#[derive(Serialize)]
pub struct DeanonymizeResponse<'a> {
    pub deanonymized_text: &'a [String],
}

#[derive(Serialize)]
pub struct EntitiesResponse {
    pub entities: Vec<LabelDto>,
    /// Detection tiers that are loaded, e.g. `["patterns"]`.
    pub tiers: Vec<&'static str>,
    pub methods: Vec<&'static str>,
}

/// `GET /readyz`: what is loaded and detecting.
#[derive(Serialize)]
pub struct ReadyResponse<'a> {
    pub status: &'static str,
    pub tiers: Vec<&'static str>,
    /// Every loaded model's name, version and weights checksum.
    pub models: Vec<&'a ModelIdentity>,
    /// Where sessions live and whether it answers. A Redis that does not leaves the
    /// replica ready: requests without a session still work, and every replica shares
    /// the one Redis, so taking them all out of service would help nobody.
    pub session_store: SessionStoreDto,
}

#[derive(Serialize)]
pub struct SessionStoreDto {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub reachable: bool,
}

#[derive(Serialize)]
pub struct LabelDto {
    pub label: &'static str,
    pub aliases: &'static [&'static str],
    pub description: &'static str,
    pub default: bool,
}
