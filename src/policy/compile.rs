//! A [`Spec`] into the engine's per-call [`Extra`]: request-time recognizers compiled
//! under limits, and cached by content so a client that sends the same recognizers
//! with every request (LiteLLM, a Presidio client) compiles them once.

use std::fmt;
use std::sync::Arc;

use dashmap::DashMap;

use super::{AdHoc, Spec};
use crate::engine::context::Words;
use crate::engine::tiers::dictionary::DictionaryRecognizer;
use crate::engine::{Allow, CustomPattern, CustomRecognizer, Extra, Recognizer};

/// What one call may declare; a request over them is refused with 422.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_recognizers: usize,
    /// Patterns over all recognizers.
    pub max_patterns: usize,
    /// Longest regex, in bytes (its compiled size is bounded too).
    pub max_regex_bytes: usize,
    /// Deny-list and allow-list entries, each.
    pub max_list_entries: usize,
    /// Bytes of all deny-list and allow-list entries together.
    pub max_list_bytes: usize,
    pub max_context_words: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_recognizers: 32,
            max_patterns: 64,
            max_regex_bytes: 2_000,
            max_list_entries: 10_000,
            max_list_bytes: 256 << 10,
            max_context_words: 200,
        }
    }
}

/// Why a policy could not be compiled: a field path and a reason, never the pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub field: String,
    pub reason: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for CompileError {}

fn error(field: impl Into<String>, reason: impl Into<String>) -> CompileError {
    CompileError {
        field: field.into(),
        reason: reason.into(),
    }
}

/// Compiled recognizers by their declaration; cleared when full, so a client sending a
/// new declaration with every call costs compile time, never unbounded memory.
type Cache = DashMap<String, Arc<[Arc<dyn Recognizer>]>>;
const CACHE_ENTRIES: usize = 256;
static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();

/// The [`Extra`] of `spec`; `None` when it adds nothing to the engine.
///
/// # Errors
/// Limits exceeded, or a regex that does not compile.
pub fn extra(spec: &Spec, limits: &Limits) -> Result<Option<Arc<Extra>>, CompileError> {
    let named = spec.entities.is_some();
    let plain = spec.recognizers.is_empty()
        && spec.allow_list.is_empty()
        && spec.context.is_empty()
        && spec.thresholds.is_empty();
    if plain && !named {
        return Ok(None);
    }
    check_limits(spec, limits)?;
    let recognizers = recognizers(&spec.recognizers)?;
    let allow = Allow::new(&spec.allow_list, spec.allow_list_match).map_err(|e| match e {
        crate::engine::extra::AllowError::Entry(i) => error(
            format!("detection_config.allow_list[{i}]"),
            "is not a valid regular expression, or too large",
        ),
        crate::engine::extra::AllowError::TooLarge => error(
            "detection_config.allow_list",
            "the expressions together are too large",
        ),
    })?;
    let context = (!spec.context.is_empty()).then(|| {
        let words: Vec<&str> = spec.context.iter().map(String::as_str).collect();
        Words::new(&words, &[])
    });
    Ok(Some(Arc::new(Extra {
        recognizers: recognizers.to_vec(),
        allow,
        context,
        thresholds: spec.thresholds.clone(),
        named,
    })))
}

fn check_limits(spec: &Spec, limits: &Limits) -> Result<(), CompileError> {
    let path = "detection_config.ad_hoc_recognizers";
    if spec.recognizers.len() > limits.max_recognizers {
        return Err(error(
            path,
            format!("must have at most {} items", limits.max_recognizers),
        ));
    }
    let patterns: usize = spec.recognizers.iter().map(|r| r.patterns.len()).sum();
    if patterns > limits.max_patterns {
        return Err(error(
            path,
            format!("must have at most {} patterns in all", limits.max_patterns),
        ));
    }
    for (i, r) in spec.recognizers.iter().enumerate() {
        for (j, (_, regex, _)) in r.patterns.iter().enumerate() {
            if regex.len() > limits.max_regex_bytes {
                return Err(error(
                    format!("{path}[{i}].patterns[{j}].regex"),
                    format!("must be at most {} bytes", limits.max_regex_bytes),
                ));
            }
        }
        if r.deny_list.len() > limits.max_list_entries {
            return Err(error(
                format!("{path}[{i}].deny_list"),
                format!("must have at most {} items", limits.max_list_entries),
            ));
        }
        if r.context.len() > limits.max_context_words {
            return Err(error(
                format!("{path}[{i}].context"),
                format!("must have at most {} items", limits.max_context_words),
            ));
        }
    }
    if spec.allow_list.len() > limits.max_list_entries {
        return Err(error(
            "detection_config.allow_list",
            format!("must have at most {} items", limits.max_list_entries),
        ));
    }
    let list_bytes: usize = spec
        .recognizers
        .iter()
        .flat_map(|r| &r.deny_list)
        .chain(&spec.allow_list)
        .map(String::len)
        .sum();
    if list_bytes > limits.max_list_bytes {
        return Err(error(
            "detection_config",
            format!(
                "deny and allow lists must hold at most {} bytes together",
                limits.max_list_bytes
            ),
        ));
    }
    if spec.context.len() > limits.max_context_words {
        return Err(error(
            "detection_config.context",
            format!("must have at most {} items", limits.max_context_words),
        ));
    }
    Ok(())
}

fn recognizers(declared: &[AdHoc]) -> Result<Arc<[Arc<dyn Recognizer>]>, CompileError> {
    if declared.is_empty() {
        return Ok(Arc::from(Vec::new()));
    }
    let key = format!("{declared:?}");
    let cache = CACHE.get_or_init(DashMap::new);
    if let Some(hit) = cache.get(&key) {
        return Ok(hit.clone());
    }
    let mut out: Vec<Arc<dyn Recognizer>> = Vec::new();
    for (i, r) in declared.iter().enumerate() {
        let path = format!("detection_config.ad_hoc_recognizers[{i}]");
        if !r.patterns.is_empty() {
            let patterns: Vec<CustomPattern> = r
                .patterns
                .iter()
                .map(|(_, regex, score)| CustomPattern {
                    name: r.name.clone(),
                    label: r.label,
                    regex: regex.clone(),
                    score: *score,
                    context: r.context.clone(),
                    proof: crate::engine::Proof::Listed,
                })
                .collect();
            let compiled = CustomRecognizer::new(&patterns).map_err(|_| {
                // Which one: compiled again one by one, on this error path only.
                let j = patterns
                    .iter()
                    .position(|p| CustomRecognizer::new(std::slice::from_ref(p)).is_err())
                    .unwrap_or(0);
                error(
                    format!("{path}.patterns[{j}].regex"),
                    "is not a valid regular expression (Rust regex syntax: no look-around or backreferences), or compiles too large",
                )
            })?;
            out.push(Arc::new(compiled));
        }
        if !r.deny_list.is_empty() {
            let phrases: Vec<(String, crate::text::Label)> =
                r.deny_list.iter().map(|p| (p.clone(), r.label)).collect();
            let compiled = DictionaryRecognizer::deny_list(&phrases)
                .map_err(|_| error(format!("{path}.deny_list"), "too large"))?;
            out.push(Arc::new(compiled));
        }
    }
    let out: Arc<[Arc<dyn Recognizer>]> = Arc::from(out);
    if cache.len() >= CACHE_ENTRIES {
        cache.clear();
    }
    cache.insert(key, out.clone());
    Ok(out)
}
