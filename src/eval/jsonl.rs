//! The annotated corpus format (`../shared/data/README.md`): one JSON document a line,
//! `{"id", "text", "entities": [{"start", "end", "label", "identifier_type"?}]}`, with
//! 0-based code-point offsets, end exclusive; optionally `"negatives": [{"start", "end",
//! "kind"}]`, spans that must not be flagged (the payload set's log machinery).

use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Document {
    #[serde(default)]
    pub id: String,
    pub text: String,
    #[serde(default)]
    pub entities: Vec<GoldEntity>,
    /// Spans that must not be flagged at all (the payload set's log machinery:
    /// timestamps, request ids, UUIDs, …), each with its kind.
    #[serde(default)]
    pub negatives: Vec<NegativeSpan>,
}

/// A span no prediction may touch (`eval/payloads.py` writes them).
#[derive(Debug, Clone, Deserialize)]
pub struct NegativeSpan {
    pub start: usize,
    pub end: usize,
    pub kind: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GoldEntity {
    pub start: usize,
    pub end: usize,
    pub label: String,
    /// TAB only: `DIRECT`, `QUASI` or `NO_MASK`.
    #[serde(default)]
    pub identifier_type: Option<String>,
}

/// Parses every line of `text`.
///
/// # Errors
/// The first line that is not a document, by number.
pub fn parse(text: &str) -> Result<Vec<Document>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| format!("line {}: not a document: {e}", i + 1))
        })
        .collect()
}

/// The dataset-label → service-label map (`eval/labels/*.json`):
///
/// ```json
/// {"gold": {"PER": "PERSON", "MISC": null},
///  "predicted": {"ADDRESS": "LOCATION"},
///  "detect": ["PERSON", "LOCATION", "ORGANIZATION"]}
/// ```
///
/// `gold` maps dataset labels (unlisted or null: not scored); `predicted` renames engine
/// labels before scoring; `detect` is the label set the engine runs (default: the
/// default-on labels).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelMap {
    #[serde(default)]
    pub gold: std::collections::BTreeMap<String, Option<String>>,
    #[serde(default)]
    pub predicted: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    pub detect: Vec<String>,
}
