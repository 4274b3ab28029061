//! The tiers that propose spans, each knowing one kind of evidence: the pattern registry
//! ([`patterns`]), named fields of serialized payloads ([`fields`]), the word lists
//! ([`dictionary`]), the name rules ([`names`]), a NER model ([`ner`]) and the operator's
//! own patterns ([`custom`]). What they propose is corrected by `engine::refine`.

pub mod custom;
pub mod dictionary;
pub mod fields;
pub mod names;
pub mod ner;
pub mod patterns;
