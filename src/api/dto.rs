//! Response bodies of the `/v1` API, as serde types.

use serde::Serialize;

use crate::anonymizer::Entity;
use crate::engine::tiers::ner::ModelIdentity;

/// Confidences are rounded to 4 decimals so `0.95f32` prints as `0.95`.
fn round(score: f32) -> f64 {
    (f64::from(score) * 10_000.0).round() / 10_000.0
}

#[derive(Serialize)]
pub struct AnonymizeResponse<'a> {
    pub anonymized_text: &'a [String],
    pub detected_entities: Vec<EntityDto<'a>>,
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
