//! Presidio's REST API (analyzer and anonymizer) over our detectors, for clients that
//! speak it: LiteLLM's Presidio guardrail, Presidio's own examples and in-house tools.
//! Like `handlers`, plain functions of a request body; the server serves them on their
//! own listener (`presidio_api.listen`).
//!
//! Shapes follow Presidio 2.2: offsets are code points, as in Python. Errors keep our
//! one error shape (Presidio's is a bare `{"error": …}` string, which no client parses).

use aes::cipher::{block_padding::Pkcs7, BlockDecryptMut, BlockEncryptMut, KeyIvInit};
use base64::Engine as _;
use serde::Serialize;
use serde_json::{Map, Value};
use sha2::Digest;

use super::dto::round;
use super::error::{ApiError, Detail, ErrorCode};
use super::handlers::{parse_object, to_json, Api, Caller, Outcome};
use crate::anonymizer::{Actions, AnonymizeError, Scope};
use crate::engine::AllowMatch;
use crate::methods::{Method, Operator};
use crate::policy::{parse_fields, Fields, Spec};
use crate::text::Label;
use crate::validate::{reject_unknown, Problems};

/// `POST /analyze`.
///
/// # Errors
/// 400 for bad JSON, 422 for schema violations, 503 when detection failed.
pub fn analyze(api: &Api, caller: &Caller, body: &[u8]) -> Result<Outcome, ApiError> {
    let root = parse_object(body)?;
    let mut p = Problems::default();
    reject_unknown(
        &root,
        "",
        &[
            "text",
            "language",
            "entities",
            "correlation_id",
            "score_threshold",
            "return_decision_process",
            "ad_hoc_recognizers",
            "context",
            "allow_list",
            "allow_list_match",
            "regex_flags",
        ],
        &mut p,
    );
    let text = match root.get("text") {
        Some(Value::String(s)) if s.chars().count() <= api.limits().max_text_chars => s.clone(),
        Some(Value::String(_)) => {
            p.add("text", "is too long");
            String::new()
        }
        _ => {
            p.add("text", "is required: a string");
            String::new()
        }
    };
    if !matches!(root.get("language"), Some(Value::String(_))) {
        p.add("language", "is required: a language code such as \"en\"");
    }
    let mut detection = Map::new();
    for key in [
        "entities",
        "ad_hoc_recognizers",
        "context",
        "allow_list",
        "return_decision_process",
    ] {
        if let Some(v) = root.get(key) {
            detection.insert(key.to_owned(), v.clone());
        }
    }
    let mut asked = Spec::default();
    let engine = api.anonymizer().engine();
    let supported = engine.supported_labels();
    let declared = api.declared(caller);
    parse_fields(
        &detection,
        "",
        Fields::Detection,
        supported,
        &declared,
        &mut asked,
        &mut p,
    );
    match root.get("allow_list_match") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if s == "exact" => asked.allow_list_match = AllowMatch::Exact,
        // Presidio searches each detected text for the expressions.
        Some(Value::String(s)) if s == "regex" => {
            asked.allow_list_match = AllowMatch::RegexAnywhere;
        }
        Some(_) => p.add("allow_list_match", "must be \"exact\" or \"regex\""),
    }
    match root.get("score_threshold") {
        None | Some(Value::Null) => {}
        Some(v) => match v.as_f64() {
            Some(t) if (0.0..=1.0).contains(&t) => asked.threshold = Some(t as f32),
            _ => p.add("score_threshold", "must be a number between 0 and 1"),
        },
    }
    if !p.is_empty() {
        return Err(ApiError::validation(p.0));
    }
    let mut options = api.options(caller, &asked)?;
    // Analysis reports; it neither replaces nor refuses.
    options.default_operator = Some(Operator::new(Method::Keep));
    options.operators.clear();
    options.actions = Actions::default();
    let texts = vec![text];
    let result = api
        .anonymizer()
        .anonymize(&Scope::tenant(&caller.tenant), &texts, &options)
        .map_err(|e| match e {
            AnonymizeError::DetectionFailed(e) => e.into(),
            _ => ApiError::new(ErrorCode::Internal),
        })?;
    let mut outcome = Outcome {
        texts: 1,
        chars: texts[0].chars().count(),
        ..Outcome::default()
    };
    let found: Vec<RecognizerResult> = result
        .entities
        .iter()
        .map(|e| {
            *outcome.entities.entry(e.label.metric_name()).or_default() += 1;
            RecognizerResult {
                entity_type: e.label.as_str(),
                start: e.span.start,
                end: e.span.end,
                score: round(e.confidence),
                analysis_explanation: e.explanation.as_ref().map(|x| AnalysisExplanation {
                    recognizer: x.recognizer,
                    pattern_name: (x.tier == "patterns" || x.tier == "custom")
                        .then_some(x.recognizer),
                    original_score: round(x.original_score),
                    score: round(x.score),
                    textual_explanation: format!("{} tier, {}", x.tier, x.recognizer),
                    score_context_improvement: round(x.context_improvement),
                    supportive_context_word: x.context_word.clone().unwrap_or_default(),
                    validation_result: match x.validation {
                        "checksum" => Some(true),
                        _ => None,
                    },
                }),
                recognition_metadata: Metadata {
                    recognizer_name: e
                        .explanation
                        .as_ref()
                        .map_or("anonymizer", |x| x.recognizer),
                    recognizer_identifier: e.label.as_str(),
                },
            }
        })
        .collect();
    outcome.body = to_json(&found);
    Ok(outcome)
}

#[derive(Serialize)]
struct RecognizerResult {
    entity_type: &'static str,
    start: usize,
    end: usize,
    score: f64,
    analysis_explanation: Option<AnalysisExplanation>,
    recognition_metadata: Metadata,
}

#[derive(Serialize)]
struct AnalysisExplanation {
    recognizer: &'static str,
    pattern_name: Option<&'static str>,
    original_score: f64,
    score: f64,
    textual_explanation: String,
    score_context_improvement: f64,
    supportive_context_word: String,
    validation_result: Option<bool>,
}

#[derive(Serialize)]
struct Metadata {
    recognizer_name: &'static str,
    recognizer_identifier: &'static str,
}

/// One operator of `/anonymize` or `/deanonymize`.
enum Op {
    Replace(Option<String>),
    Redact,
    Mask(crate::methods::MaskOptions),
    Hash(HashType),
    Encrypt(Vec<u8>),
    Decrypt(Vec<u8>),
    Keep,
}

#[derive(Clone, Copy)]
enum HashType {
    Sha256,
    Sha512,
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Replace(_) => "replace",
            Op::Redact => "redact",
            Op::Mask(_) => "mask",
            Op::Hash(_) => "hash",
            Op::Encrypt(_) => "encrypt",
            Op::Decrypt(_) => "decrypt",
            Op::Keep => "keep",
        }
    }

    /// The replacement of `original`, found as `entity`; `None` when a token does not
    /// decrypt.
    fn apply(&self, entity: &str, original: &str) -> Option<String> {
        Some(match self {
            Op::Replace(None) => format!("<{entity}>"),
            Op::Replace(Some(v)) => v.clone(),
            Op::Redact => String::new(),
            Op::Mask(m) => crate::methods::mask::mask(original, m),
            Op::Hash(HashType::Sha256) => hex(&sha2::Sha256::digest(original.as_bytes())),
            Op::Hash(HashType::Sha512) => hex(&sha2::Sha512::digest(original.as_bytes())),
            Op::Encrypt(key) => encrypt(key, original),
            Op::Decrypt(key) => decrypt(key, original)?,
            Op::Keep => original.to_owned(),
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

type Aes128Enc = cbc::Encryptor<aes::Aes128>;
type Aes192Enc = cbc::Encryptor<aes::Aes192>;
type Aes256Enc = cbc::Encryptor<aes::Aes256>;
type Aes128Dec = cbc::Decryptor<aes::Aes128>;
type Aes192Dec = cbc::Decryptor<aes::Aes192>;
type Aes256Dec = cbc::Decryptor<aes::Aes256>;

/// Presidio's `encrypt`: AES-CBC with a random IV, PKCS7, base64 of IV and ciphertext.
fn encrypt(key: &[u8], text: &str) -> String {
    let iv: [u8; 16] = rand::random();
    let plain = text.as_bytes();
    let sealed = match key.len() {
        16 => Aes128Enc::new(key.into(), &iv.into()).encrypt_padded_vec_mut::<Pkcs7>(plain),
        24 => Aes192Enc::new(key.into(), &iv.into()).encrypt_padded_vec_mut::<Pkcs7>(plain),
        _ => Aes256Enc::new(key.into(), &iv.into()).encrypt_padded_vec_mut::<Pkcs7>(plain),
    };
    let mut out = iv.to_vec();
    out.extend(sealed);
    base64::engine::general_purpose::STANDARD.encode(out)
}

fn decrypt(key: &[u8], token: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(token.trim())
        .ok()?;
    if bytes.len() < 32 {
        return None;
    }
    let (iv, sealed) = bytes.split_at(16);
    let iv: [u8; 16] = iv.try_into().ok()?;
    let plain = match key.len() {
        16 => Aes128Dec::new(key.into(), &iv.into()).decrypt_padded_vec_mut::<Pkcs7>(sealed),
        24 => Aes192Dec::new(key.into(), &iv.into()).decrypt_padded_vec_mut::<Pkcs7>(sealed),
        _ => Aes256Dec::new(key.into(), &iv.into()).decrypt_padded_vec_mut::<Pkcs7>(sealed),
    }
    .ok()?;
    String::from_utf8(plain).ok()
}

/// `POST /anonymize`.
///
/// # Errors
/// 400 for bad JSON, 422 for schema violations.
pub fn anonymize(api: &Api, body: &[u8]) -> Result<Outcome, ApiError> {
    transform(api, body, "analyzer_results", "anonymizers", false)
}

/// `POST /deanonymize`: `decrypt` operators undo `encrypt`.
///
/// # Errors
/// 400 for bad JSON, 422 for schema violations and tokens that do not decrypt.
pub fn deanonymize(api: &Api, body: &[u8]) -> Result<Outcome, ApiError> {
    transform(api, body, "anonymizer_results", "deanonymizers", true)
}

fn transform(
    api: &Api,
    body: &[u8],
    results_key: &str,
    operators_key: &str,
    reverse: bool,
) -> Result<Outcome, ApiError> {
    let root = parse_object(body)?;
    let mut p = Problems::default();
    reject_unknown(&root, "", &["text", results_key, operators_key], &mut p);
    let text = match root.get("text") {
        Some(Value::String(s)) if s.chars().count() <= api.limits().max_text_chars => s.clone(),
        _ => {
            p.add("text", "is required: a string within the size limit");
            String::new()
        }
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut spans: Vec<(usize, usize, String, f64)> = Vec::new();
    match root.get(results_key) {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let path = format!("{results_key}[{i}]");
                let Value::Object(o) = item else {
                    p.add(path, "must be an object");
                    continue;
                };
                let start = o.get("start").and_then(Value::as_u64).map(|n| n as usize);
                let end = o.get("end").and_then(Value::as_u64).map(|n| n as usize);
                let entity = o.get("entity_type").and_then(Value::as_str);
                match (start, end, entity) {
                    (Some(s), Some(e), Some(t)) if s < e && e <= chars.len() => {
                        let score = o.get("score").and_then(Value::as_f64).unwrap_or(1.0);
                        spans.push((s, e, t.to_owned(), score));
                    }
                    _ => p.add(
                        path,
                        "needs entity_type and start < end within the text (code points)",
                    ),
                }
            }
        }
        None | Some(Value::Null) => {}
        Some(_) => p.add(results_key, "must be an array"),
    }
    let operators = operators(root.get(operators_key), operators_key, reverse, &mut p);
    if !p.is_empty() {
        return Err(ApiError::validation(p.0));
    }
    // Overlaps: the higher score keeps its span (then the longer), as Presidio's
    // conflict resolution does for contained results.
    spans.sort_by(|a, b| {
        b.3.total_cmp(&a.3)
            .then((b.1 - b.0).cmp(&(a.1 - a.0)))
            .then(a.0.cmp(&b.0))
    });
    let mut kept: Vec<(usize, usize, String)> = Vec::new();
    for (s, e, t, _) in spans {
        if kept.iter().all(|(ks, ke, _)| e <= *ks || *ke <= s) {
            kept.push((s, e, t));
        }
    }
    kept.sort_by_key(|k| k.0);
    let byte = |i: usize| chars.get(i).map_or(text.len(), |(b, _)| *b);
    let mut out = String::with_capacity(text.len());
    let mut items = Vec::with_capacity(kept.len());
    let mut cursor = 0;
    for (s, e, entity) in &kept {
        let (bs, be) = (byte(*s), byte(*e));
        out.push_str(&text[cursor..bs]);
        let op = operators
            .iter()
            .find(|(name, _)| name == entity)
            .or_else(|| operators.iter().find(|(name, _)| name == "DEFAULT"))
            .map(|(_, op)| op);
        let default = if reverse { Op::Keep } else { Op::Replace(None) };
        let op = op.unwrap_or(&default);
        let Some(replacement) = op.apply(entity, &text[bs..be]) else {
            return Err(ApiError::validation(vec![Detail {
                field: results_key.to_owned(),
                reason: format!("a {entity} span does not decrypt with its key"),
            }]));
        };
        let start = out.chars().count();
        out.push_str(&replacement);
        items.push(Item {
            start,
            end: start + replacement.chars().count(),
            entity_type: entity.clone(),
            text: replacement,
            operator: op.name(),
        });
        cursor = be;
    }
    out.push_str(&text[cursor..]);
    Ok(Outcome {
        texts: 1,
        chars: chars.len(),
        body: to_json(&Transformed { text: out, items }),
        ..Outcome::default()
    })
}

#[derive(Serialize)]
struct Transformed {
    text: String,
    items: Vec<Item>,
}

#[derive(Serialize)]
struct Item {
    start: usize,
    end: usize,
    entity_type: String,
    text: String,
    operator: &'static str,
}

fn operators(
    value: Option<&Value>,
    field: &str,
    reverse: bool,
    p: &mut Problems,
) -> Vec<(String, Op)> {
    let map = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(map)) => map,
        Some(_) => {
            p.add(field, "must be an object keyed by entity type or DEFAULT");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (entity, config) in map {
        let path = if entity.len() <= 64
            && entity
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            format!("{field}.{entity}")
        } else {
            format!("{field}.<unnamed>")
        };
        let Value::Object(o) = config else {
            p.add(path, "must be an object with a type");
            continue;
        };
        let kind = o.get("type").and_then(Value::as_str).unwrap_or_default();
        let key = || -> Option<Vec<u8>> {
            let k = o.get("key").and_then(Value::as_str)?.as_bytes().to_vec();
            [16, 24, 32].contains(&k.len()).then_some(k)
        };
        let op = match (kind, reverse) {
            ("replace", false) => Some(Op::Replace(
                o.get("new_value")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            )),
            ("redact", false) => Some(Op::Redact),
            ("keep", _) => Some(Op::Keep),
            ("mask", false) => {
                let masking_char = o
                    .get("masking_char")
                    .and_then(Value::as_str)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('*');
                Some(Op::Mask(crate::methods::MaskOptions {
                    masking_char,
                    chars_to_mask: o
                        .get("chars_to_mask")
                        .and_then(Value::as_u64)
                        .map(|n| n as usize),
                    from_end: o.get("from_end").and_then(Value::as_bool).unwrap_or(false),
                }))
            }
            ("hash", false) => match o.get("hash_type").and_then(Value::as_str) {
                None | Some("sha256") => Some(Op::Hash(HashType::Sha256)),
                Some("sha512") => Some(Op::Hash(HashType::Sha512)),
                Some(_) => {
                    p.add(format!("{path}.hash_type"), "must be sha256 or sha512");
                    None
                }
            },
            ("encrypt", false) | ("decrypt", true) => match key() {
                Some(k) if reverse => Some(Op::Decrypt(k)),
                Some(k) => Some(Op::Encrypt(k)),
                None => {
                    p.add(
                        format!("{path}.key"),
                        "must be a string of 16, 24 or 32 bytes",
                    );
                    None
                }
            },
            _ => {
                p.add(
                    format!("{path}.type"),
                    if reverse {
                        "must be decrypt or keep"
                    } else {
                        "must be one of replace, redact, mask, hash, encrypt, keep"
                    },
                );
                None
            }
        };
        if let Some(op) = op {
            out.push((entity.clone(), op));
        }
    }
    out
}

/// `GET /supportedentities`.
pub fn supported_entities(api: &Api) -> Outcome {
    let labels: Vec<&'static str> = api
        .anonymizer()
        .engine()
        .supported_labels()
        .iter()
        .map(|l: Label| l.as_str())
        .collect();
    Outcome {
        body: to_json(&labels),
        ..Outcome::default()
    }
}

/// `GET /recognizers`: the names of our built-in recognizers, by tier.
pub fn recognizers(api: &Api) -> Outcome {
    let mut names: Vec<&'static str> = crate::engine::tiers::patterns::ALL
        .iter()
        .map(|p| p.name)
        .collect();
    names.extend(api.anonymizer().engine().tiers());
    names.dedup();
    Outcome {
        body: to_json(&names),
        ..Outcome::default()
    }
}
