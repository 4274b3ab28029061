//! The policy fields of a request's `detection_config` and `anonymization_config`, of
//! a `policy:` in the config, and of Presidio's `/analyze`, from JSON into a [`Spec`],
//! every problem reported with its field path and without echoing input.

use serde_json::{Map, Value};

use super::{AdHoc, Spec};
use crate::anonymizer::Action;
use crate::engine::AllowMatch;
use crate::methods::{MaskOptions, Method, Operator};
use crate::text::{Label, LabelSet, Language};
use crate::validate::{join, reject_unknown, string_array, Detail, Problems};

/// Which object is read: each takes its own keys; the config takes both side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    Detection,
    Anonymization,
    Both,
}

const DETECTION: &[&str] = &[
    "entities",
    "thresholds",
    "allow_list",
    "allow_list_match",
    "ad_hoc_recognizers",
    "context",
    "return_decision_process",
    "language",
];
const ANONYMIZATION: &[&str] = &[
    "deidentification_method",
    "threshold",
    "operators",
    "action",
    "actions",
];

/// A policy of the config (the service's `policy:`, a route's, a tenant's) at `path`,
/// over `base`; `declared` are custom labels declared elsewhere that it may name.
///
/// # Errors
/// Every problem, with its path: the fields, and recognizers that do not compile.
pub fn from_config(
    value: &Value,
    path: &str,
    declared: &[Label],
    base: Spec,
) -> Result<Spec, Vec<Detail>> {
    let Value::Object(fields) = value else {
        return Err(vec![Detail {
            field: path.to_owned(),
            reason: "must be a map".into(),
        }]);
    };
    let mut spec = base;
    let mut p = Problems::default();
    let all = LabelSet::all();
    parse_fields(
        fields,
        path,
        Fields::Both,
        &all,
        declared,
        &mut spec,
        &mut p,
    );
    if !p.is_empty() {
        return Err(p.0);
    }
    spec.options(&super::Limits::default()).map_err(|e| {
        vec![Detail {
            field: e.field.replacen("detection_config", path, 1),
            reason: e.reason,
        }]
    })?;
    Ok(spec)
}

/// Longest list entry or context word, in code points.
const MAX_PHRASE: usize = 500;

/// Reads `object`'s policy fields (those of `fields`) into `spec`. `supported` are the
/// catalogue labels the engine can find; custom labels are accepted where a recognizer
/// of `spec` or of `declared` (the tenant's) declares them.
pub fn parse_fields(
    object: &Map<String, Value>,
    path: &str,
    fields: Fields,
    supported: &LabelSet,
    declared: &[Label],
    spec: &mut Spec,
    p: &mut Problems,
) {
    let allowed: Vec<&str> = match fields {
        Fields::Detection => DETECTION.to_vec(),
        Fields::Anonymization => ANONYMIZATION.to_vec(),
        Fields::Both => DETECTION.iter().chain(ANONYMIZATION).copied().collect(),
    };
    reject_unknown(object, path, &allowed, p);
    let get = |key: &str| match object.get(key) {
        None | Some(Value::Null) => None,
        Some(v) if allowed.contains(&key) => Some(v),
        Some(_) => None,
    };
    // Recognizers first: they declare the custom labels the other fields may name.
    if let Some(v) = get("ad_hoc_recognizers") {
        spec.recognizers = recognizers(v, &join(path, "ad_hoc_recognizers"), p);
    }
    let own: Vec<Label> = spec
        .recognizers
        .iter()
        .map(|r| r.label)
        .chain(declared.iter().copied())
        .collect();
    let label = |name: &str| {
        Label::parse(name)
            .filter(|l| supported.contains(*l))
            .or_else(|| Label::known(name).filter(|l| own.contains(l)))
    };
    if let Some(v) = get("entities") {
        let field = join(path, "entities");
        let names = string_array(v, &field, 1000, 64, p);
        let listed = || {
            let names: Vec<&str> = supported.iter().map(|l| l.as_str()).collect();
            format!("supported: {}", names.join(", "))
        };
        if matches!(v, Value::Array(items) if items.is_empty()) {
            p.add(&field, format!("must not be empty; {}", listed()));
        }
        let mut labels = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            match label(name) {
                Some(l) => labels.push(l),
                None => p.add(
                    format!("{field}[{i}]"),
                    format!(
                        "unknown or unsupported label, and no recognizer of this call declares it; {}",
                        listed()
                    ),
                ),
            }
        }
        spec.entities = Some(LabelSet::new(labels));
    }
    if let Some(v) = get("thresholds") {
        spec.thresholds = per_label(v, &join(path, "thresholds"), &label, p, |v, field, p| {
            score(v, field, p)
        });
    }
    if let Some(v) = get("allow_list") {
        let field = join(path, "allow_list");
        spec.allow_list = string_array(v, &field, usize::MAX, MAX_PHRASE, p)
            .into_iter()
            .map(str::to_owned)
            .collect();
    }
    if let Some(v) = get("allow_list_match") {
        let field = join(path, "allow_list_match");
        spec.allow_list_match = match v.as_str().map(str::to_ascii_lowercase).as_deref() {
            Some("exact") => AllowMatch::Exact,
            Some("regex") => AllowMatch::Regex,
            _ => {
                p.add(field, "must be \"exact\" or \"regex\"");
                AllowMatch::Exact
            }
        };
    }
    if let Some(v) = get("context") {
        spec.context = words(v, &join(path, "context"), p);
    }
    if let Some(v) = get("return_decision_process") {
        match v {
            Value::Bool(b) => spec.explain = *b,
            _ => p.add(join(path, "return_decision_process"), "must be a boolean"),
        }
    }
    if let Some(v) = get("language") {
        match v.as_str().and_then(Language::from_code) {
            Some(language) => spec.language = Some(language),
            None => p.add(
                join(path, "language"),
                "must be an ISO 639-1 language code such as \"de\"",
            ),
        }
    }
    if let Some(v) = get("deidentification_method") {
        spec.method = method(v, &join(path, "deidentification_method"), p);
    }
    if let Some(v) = get("threshold") {
        spec.threshold = score(v, &join(path, "threshold"), p);
    }
    if let Some(v) = get("operators") {
        let field = join(path, "operators");
        if let Value::Object(map) = v {
            if let Some(default) = map.get("DEFAULT") {
                spec.default_operator = operator(default, &join(&field, "DEFAULT"), p);
            }
        }
        let rest = match v {
            Value::Object(map) => {
                let mut rest = map.clone();
                rest.remove("DEFAULT");
                Value::Object(rest)
            }
            other => other.clone(),
        };
        spec.operators = per_label(&rest, &field, &label, p, operator);
    }
    if let Some(v) = get("action") {
        spec.action = action(v, &join(path, "action"), p);
    }
    if let Some(v) = get("actions") {
        spec.actions = per_label(v, &join(path, "actions"), &label, p, action);
    }
}

/// An object from label names to values read by `read`.
fn per_label<T>(
    value: &Value,
    field: &str,
    label: &dyn Fn(&str) -> Option<Label>,
    p: &mut Problems,
    read: impl Fn(&Value, &str, &mut Problems) -> Option<T>,
) -> Vec<(Label, T)> {
    let Value::Object(map) = value else {
        p.add(field, "must be an object keyed by label");
        return Vec::new();
    };
    let mut out = Vec::with_capacity(map.len());
    for (name, v) in map {
        let Some(l) = label(name) else {
            let shown = if name.len() <= 64
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                join(field, name)
            } else {
                join(field, "<unnamed>")
            };
            p.add(shown, "unknown or unsupported label");
            continue;
        };
        if let Some(t) = read(v, &join(field, name), p) {
            out.push((l, t));
        }
    }
    out
}

fn score(v: &Value, field: &str, p: &mut Problems) -> Option<f32> {
    match v.as_f64() {
        Some(t) if (0.0..=1.0).contains(&t) => Some(t as f32),
        Some(_) => {
            p.add(field, "must be between 0 and 1");
            None
        }
        None => {
            p.add(field, "must be a number between 0 and 1");
            None
        }
    }
}

fn method(v: &Value, field: &str, p: &mut Problems) -> Option<Method> {
    let names = Method::ALL
        .iter()
        .map(Method::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    match v.as_str().and_then(Method::parse) {
        Some(m) => Some(m),
        None => {
            p.add(field, format!("unknown method; one of {names}"));
            None
        }
    }
}

fn action(v: &Value, field: &str, p: &mut Problems) -> Option<Action> {
    match v.as_str().and_then(Action::parse) {
        Some(a) => Some(a),
        None => {
            p.add(field, "must be one of anonymize, block, monitor");
            None
        }
    }
}

/// `{"type": "MASK", "masking_char": "#", "chars_to_mask": 12, "from_end": false}`.
fn operator(v: &Value, field: &str, p: &mut Problems) -> Option<Operator> {
    let Value::Object(o) = v else {
        p.add(field, "must be an object with a type");
        return None;
    };
    reject_unknown(
        o,
        field,
        &["type", "masking_char", "chars_to_mask", "from_end"],
        p,
    );
    let method = match o.get("type") {
        Some(t) => method(t, &join(field, "type"), p)?,
        None => {
            p.add(join(field, "type"), "is required");
            return None;
        }
    };
    let mut mask = MaskOptions::default();
    if method != Method::Mask && o.len() > 1 {
        p.add(
            field,
            "only MASK takes masking_char, chars_to_mask and from_end",
        );
        return None;
    }
    if let Some(c) = o.get("masking_char") {
        match c.as_str().map(|s| {
            let mut chars = s.chars();
            (chars.next(), chars.next())
        }) {
            Some((Some(c), None)) if !c.is_control() => mask.masking_char = c,
            _ => p.add(join(field, "masking_char"), "must be one character"),
        }
    }
    if let Some(n) = o.get("chars_to_mask") {
        match n.as_u64() {
            Some(n) => mask.chars_to_mask = Some(usize::try_from(n).unwrap_or(usize::MAX)),
            None => p.add(
                join(field, "chars_to_mask"),
                "must be a whole number, 0 or more",
            ),
        }
    }
    if let Some(b) = o.get("from_end") {
        match b {
            Value::Bool(b) => mask.from_end = *b,
            _ => p.add(join(field, "from_end"), "must be a boolean"),
        }
    }
    Some(Operator { method, mask })
}

fn words(v: &Value, field: &str, p: &mut Problems) -> Vec<String> {
    string_array(v, field, usize::MAX, MAX_PHRASE, p)
        .into_iter()
        .map(str::to_lowercase)
        .filter(|w| !w.trim().is_empty())
        .collect()
}

/// Presidio's ad-hoc recognizer shape.
fn recognizers(v: &Value, field: &str, p: &mut Problems) -> Vec<AdHoc> {
    let Value::Array(items) = v else {
        p.add(field, "must be an array of objects");
        return Vec::new();
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("{field}[{i}]");
        let Value::Object(o) = item else {
            p.add(path, "must be an object");
            continue;
        };
        reject_unknown(
            o,
            &path,
            &[
                "name",
                "supported_entity",
                "supported_language",
                "patterns",
                "deny_list",
                "deny_list_score",
                "context",
                "global_regex_flags",
            ],
            p,
        );
        for (key, ok) in [
            (
                "supported_language",
                o.get("supported_language").is_none_or(Value::is_string),
            ),
            (
                "deny_list_score",
                o.get("deny_list_score").is_none_or(Value::is_number),
            ),
            (
                "global_regex_flags",
                o.get("global_regex_flags")
                    .is_none_or(|v| v.is_i64() || v.is_u64()),
            ),
        ] {
            if !ok {
                p.add(
                    join(&path, key),
                    "has the wrong type (accepted and ignored otherwise)",
                );
            }
        }
        let name = match o.get("name").and_then(Value::as_str) {
            Some(n) if !n.is_empty() && n.len() <= 100 => n.to_owned(),
            _ => {
                p.add(join(&path, "name"), "is required: a string of 1-100 bytes");
                continue;
            }
        };
        let label = match o.get("supported_entity").and_then(Value::as_str) {
            Some(n) => match Label::custom(n) {
                Ok(l) => l,
                Err(e) => {
                    p.add(join(&path, "supported_entity"), e.to_string());
                    continue;
                }
            },
            None => {
                p.add(join(&path, "supported_entity"), "is required");
                continue;
            }
        };
        let mut patterns = Vec::new();
        if let Some(v) = o.get("patterns") {
            let field = join(&path, "patterns");
            match v {
                Value::Array(list) => {
                    for (j, pat) in list.iter().enumerate() {
                        let pp = format!("{field}[{j}]");
                        let Value::Object(po) = pat else {
                            p.add(pp, "must be an object");
                            continue;
                        };
                        reject_unknown(po, &pp, &["name", "regex", "score"], p);
                        let regex = match po.get("regex").and_then(Value::as_str) {
                            Some(r) if !r.is_empty() => r.to_owned(),
                            _ => {
                                p.add(join(&pp, "regex"), "is required: a non-empty string");
                                continue;
                            }
                        };
                        let s = match po.get("score") {
                            None => 0.5,
                            Some(v) => score(v, &join(&pp, "score"), p).unwrap_or(0.5),
                        };
                        let n = match po.get("name") {
                            None => name.as_str(),
                            Some(Value::String(n)) => n.as_str(),
                            Some(_) => {
                                p.add(join(&pp, "name"), "must be a string");
                                continue;
                            }
                        };
                        patterns.push((n.to_owned(), regex, s));
                    }
                }
                _ => p.add(field, "must be an array of objects"),
            }
        }
        let deny_list: Vec<String> = match o.get("deny_list") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => string_array(v, &join(&path, "deny_list"), usize::MAX, MAX_PHRASE, p)
                .into_iter()
                .filter(|s| !s.trim().is_empty())
                .map(str::to_owned)
                .collect(),
        };
        if patterns.is_empty() && deny_list.is_empty() {
            p.add(&path, "needs patterns or a deny_list");
            continue;
        }
        let context = match o.get("context") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => words(v, &join(&path, "context"), p),
        };
        out.push(AdHoc {
            name,
            label,
            patterns,
            deny_list,
            context,
        });
    }
    out
}
