//! The `/v1` endpoints as plain functions of a request body.

use std::collections::BTreeMap;
use std::sync::Arc;

use arc_swap::ArcSwap;
use serde_json::Value;

use super::dto::{
    AnonymizeResponse, DeanonymizeResponse, EntitiesResponse, EntityDto, LabelDto, ReadyResponse,
    SessionStoreDto,
};
use super::error::{ApiError, ErrorCode};
use super::Limits;
use crate::anonymizer::{Action, AnonymizeError, Anonymizer, Options, RestoreError, Scope};
use crate::methods::Method;
use crate::policy::{parse_fields, Fields, Policies, RequestMay, Spec};
use crate::restore::{MapEntry, MapErrorKind, MatchMode};
use crate::validate::{join, optional_object, reject_unknown, string_array, Problems};

/// What a handled request produced: the body and the counts that metrics and the
/// request log need (never the texts themselves).
#[derive(Debug, Default)]
pub struct Outcome {
    pub body: Vec<u8>,
    pub texts: usize,
    pub chars: usize,
    pub entities: BTreeMap<&'static str, u64>,
    /// `ENCRYPT` tokens that did not open during a deanonymize (for a metric).
    pub failed_tokens: u64,
    /// Entities a policy monitored or blocked, by (label, action).
    pub actions: BTreeMap<(&'static str, &'static str), u64>,
}

impl Outcome {
    pub fn entity_count(&self) -> u64 {
        self.entities.values().sum()
    }
}

/// A `/v1/anonymize` body read and checked, not yet run ([`Api::read_anonymize`]).
pub struct AnonymizeCall {
    texts: Vec<String>,
    options: Options,
}

/// Who is calling: the tenant of the API key and the optional `X-Session-Id`.
/// The server has authenticated and shape-checked both before a handler runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub tenant: String,
    pub session_id: Option<String>,
}

impl Caller {
    fn scope(&self) -> Scope<'_> {
        Scope {
            tenant: &self.tenant,
            session: self.session_id.as_deref(),
        }
    }
}

/// The `/v1` API over one anonymizer.
pub struct Api {
    anonymizer: Arc<Anonymizer>,
    limits: Limits,
    /// Swapped whole when the configuration is reloaded.
    policies: ArcSwap<Policies>,
}

impl Api {
    pub fn new(anonymizer: Arc<Anonymizer>, limits: Limits) -> Self {
        Self {
            anonymizer,
            limits,
            policies: ArcSwap::default(),
        }
    }

    /// Tenants' policies, which requests refine.
    pub fn with_policies(self, policies: Policies) -> Self {
        self.set_policies(policies);
        self
    }

    /// Serves `policies` from the next call on (a reloaded configuration).
    pub fn set_policies(&self, policies: Policies) {
        self.policies.store(Arc::new(policies));
    }

    pub fn anonymizer(&self) -> &Arc<Anonymizer> {
        &self.anonymizer
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// `POST /v1/anonymize`.
    ///
    /// # Errors
    /// 400 for bad JSON, 422 for schema violations, 503 when detection failed.
    pub fn anonymize(&self, caller: &Caller, body: &[u8]) -> Result<Outcome, ApiError> {
        let call = self.read_anonymize(caller, body)?;
        self.run_anonymize(caller, call)
    }

    /// Whether `call` runs a model: the server runs such calls off its event loop.
    pub fn runs_model(&self, call: &AnonymizeCall) -> bool {
        self.anonymizer.runs_model(&call.options)
    }

    /// The first half of [`Api::anonymize`]: the body read and checked, nothing detected.
    ///
    /// # Errors
    /// 400 for bad JSON, 422 for schema violations.
    pub fn read_anonymize(&self, caller: &Caller, body: &[u8]) -> Result<AnonymizeCall, ApiError> {
        let root = &parse_object(body)?;
        let mut p = Problems::default();
        reject_unknown(
            root,
            "",
            &["text", "detection_config", "anonymization_config"],
            &mut p,
        );
        let texts = match root.get("text") {
            None => {
                p.add("text", "is required");
                Vec::new()
            }
            Some(v) => string_array(
                v,
                "text",
                self.limits.max_texts,
                self.limits.max_text_chars,
                &mut p,
            ),
        };
        let mut asked = Spec::default();
        let engine = self.anonymizer.engine();
        let supported = engine.supported_labels();
        let declared = self.declared(caller);
        if let Some(dc) = optional_object(root, "detection_config", "", &mut p) {
            let path = "detection_config";
            parse_fields(
                dc,
                path,
                Fields::Detection,
                supported,
                &declared,
                &mut asked,
                &mut p,
            );
        }
        if let Some(ac) = optional_object(root, "anonymization_config", "", &mut p) {
            let path = "anonymization_config";
            parse_fields(
                ac,
                path,
                Fields::Anonymization,
                supported,
                &declared,
                &mut asked,
                &mut p,
            );
        }
        if !p.is_empty() {
            return Err(ApiError::validation(p.0));
        }
        let options = self.options(caller, &asked)?;
        let texts = texts.into_iter().map(str::to_owned).collect();
        Ok(AnonymizeCall { texts, options })
    }

    /// The second half of [`Api::anonymize`]: detection and replacement.
    ///
    /// # Errors
    /// 422 when a session is full, 503 when detection or the session store failed.
    pub fn run_anonymize(&self, caller: &Caller, call: AnonymizeCall) -> Result<Outcome, ApiError> {
        let AnonymizeCall { texts, options } = call;
        let result = self
            .anonymizer
            .anonymize(&caller.scope(), &texts, &options)
            .map_err(|e| match e {
                AnonymizeError::Blocked(b) => b.into(),
                AnonymizeError::SessionFull => {
                    let mut p = Problems::default();
                    p.add(
                        "X-Session-Id",
                        "the session holds its maximum number of entries; start a new session",
                    );
                    ApiError::validation(p.0)
                }
                AnonymizeError::DetectionFailed(e) => e.into(),
                AnonymizeError::SessionStoreUnavailable => {
                    ApiError::new(ErrorCode::SessionStoreUnavailable)
                }
            })?;
        let mut outcome = Outcome {
            texts: texts.len(),
            chars: texts.iter().map(|t| t.chars().count()).sum(),
            ..Outcome::default()
        };
        for e in &result.entities {
            if e.replaced() {
                *outcome.entities.entry(e.label.metric_name()).or_default() += 1;
            }
            if e.action != Action::Anonymize {
                *outcome
                    .actions
                    .entry((e.label.metric_name(), e.action.as_str()))
                    .or_default() += 1;
            }
        }
        outcome.body = to_json(&AnonymizeResponse {
            anonymized_text: &result.texts,
            detected_entities: result.entities.iter().map(EntityDto::from).collect(),
            languages: (result.languages.iter())
                .map(|l| l.map(crate::text::Language::code))
                .collect(),
        });
        Ok(outcome)
    }

    /// `POST /v1/deanonymize`.
    ///
    /// # Errors
    /// 400 for bad JSON, 422 for schema violations and unusable maps.
    pub fn deanonymize(&self, caller: &Caller, body: &[u8]) -> Result<Outcome, ApiError> {
        let root = &parse_object(body)?;
        let mut p = Problems::default();
        reject_unknown(
            root,
            "",
            &["anonymized_text", "entities_map", "match"],
            &mut p,
        );
        let texts = match root.get("anonymized_text") {
            None => {
                p.add("anonymized_text", "is required");
                Vec::new()
            }
            Some(v) => string_array(
                v,
                "anonymized_text",
                self.limits.max_texts,
                self.limits.max_text_chars,
                &mut p,
            ),
        };
        let entries = match root.get("entities_map") {
            None | Some(Value::Null) => None,
            Some(v) => Some(self.map_entries(v, &mut p)),
        };
        let mode = match root.get("match") {
            None | Some(Value::Null) => MatchMode::Exact,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("exact") => MatchMode::Exact,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("lenient") => MatchMode::Lenient,
            Some(_) => {
                p.add("match", "must be \"exact\" or \"lenient\"");
                MatchMode::Exact
            }
        };
        if !p.is_empty() {
            return Err(ApiError::validation(p.0));
        }
        let texts: Vec<String> = texts.into_iter().map(str::to_owned).collect();
        let restored = self
            .anonymizer
            .deanonymize(&caller.scope(), &texts, entries.as_deref(), mode)
            .map_err(|e| {
                let e = match e {
                    RestoreError::Map(e) => e,
                    RestoreError::SessionStoreUnavailable => {
                        return ApiError::new(ErrorCode::SessionStoreUnavailable)
                    }
                };
                let reason = match e.kind() {
                    MapErrorKind::EmptyReplacement => "must not be empty",
                    MapErrorKind::Ambiguous => {
                        "repeats an earlier entry's anonymized_text with a different text"
                    }
                    MapErrorKind::TooLarge => "the map is too large",
                };
                let mut p = Problems::default();
                p.add(
                    format!("entities_map[{}].anonymized_text", e.index()),
                    reason,
                );
                ApiError::validation(p.0)
            })?;
        Ok(Outcome {
            texts: texts.len(),
            chars: texts.iter().map(|t| t.chars().count()).sum(),
            body: to_json(&DeanonymizeResponse {
                deanonymized_text: &restored.texts,
            }),
            failed_tokens: restored.failed_tokens,
            ..Outcome::default()
        })
    }

    /// `GET /readyz`: answered only once every detector has loaded (start-up fails
    /// otherwise), so it reports what is loaded rather than probing it.
    pub fn readyz(&self) -> Outcome {
        let engine = self.anonymizer.engine();
        let store = self.anonymizer.session_health();
        Outcome {
            body: to_json(&ReadyResponse {
                status: "ready",
                tiers: engine.tiers(),
                models: engine.models(),
                session_store: SessionStoreDto {
                    kind: store.kind,
                    reachable: store.reachable,
                },
            }),
            ..Outcome::default()
        }
    }

    /// `GET /v1/entities`.
    pub fn entities(&self) -> Outcome {
        let engine = self.anonymizer.engine();
        let entities = engine
            .supported_labels()
            .iter()
            .filter_map(|label| label.info())
            .map(|info| LabelDto {
                label: info.name,
                aliases: info.aliases,
                description: info.description,
                default: info.default_on,
            })
            .collect();
        Outcome {
            body: to_json(&EntitiesResponse {
                entities,
                tiers: engine.tiers(),
                methods: Method::ALL.iter().map(Method::as_str).collect(),
            }),
            ..Outcome::default()
        }
    }

    /// `GET /v1/openapi.json`: the description of this API.
    pub fn openapi(&self) -> Outcome {
        Outcome {
            body: super::openapi::V1.as_bytes().to_vec(),
            ..Outcome::default()
        }
    }

    /// The options a proxy route serves `tenant` with: the tenant's policy over the
    /// route's (`route`); `None` when the tenant has no policy.
    ///
    /// # Errors
    /// Never in practice: a tenant's policy compiled when the configuration was read.
    pub fn route_options(&self, tenant: &str, route: &Spec) -> Result<Option<Options>, ApiError> {
        let policies = self.policies.load();
        let Some(tenant) = policies.of(tenant) else {
            return Ok(None);
        };
        let spec = route
            .over(
                &tenant.own,
                RequestMay::default(),
                policies.default_threshold,
            )
            .map_err(|_| ApiError::new(ErrorCode::Internal))?;
        spec.options(&policies.limits)
            .map(Some)
            .map_err(|_| ApiError::new(ErrorCode::Internal))
    }

    /// The custom labels the service-wide policy and the caller's tenant declare.
    pub fn declared(&self, caller: &Caller) -> Vec<crate::text::Label> {
        let policies = self.policies.load();
        match policies.of(&caller.tenant) {
            Some(tenant) => tenant.effective.declared(),
            None => policies.global.declared(),
        }
    }

    /// The options of a call asking `asked`, over its tenant's policy.
    ///
    /// # Errors
    /// 422 for fields the tenant's policy does not let a request set, and for
    /// recognizers or allow entries that do not compile or exceed the limits.
    pub fn options(&self, caller: &Caller, asked: &Spec) -> Result<Options, ApiError> {
        let policies = self.policies.load();
        let spec = policies
            .for_call(&caller.tenant, asked)
            .map_err(|forbidden| {
                ApiError::validation(
                    forbidden
                        .into_iter()
                        .map(|f| super::error::Detail {
                            field: f.field.into(),
                            reason: f.reason.into(),
                        })
                        .collect(),
                )
            })?;
        spec.options(&policies.limits).map_err(|e| {
            ApiError::validation(vec![super::error::Detail {
                field: e.field,
                reason: e.reason,
            }])
        })
    }

    fn map_entries(&self, value: &Value, p: &mut Problems) -> Vec<MapEntry> {
        let path = "entities_map";
        let Value::Array(items) = value else {
            p.add(path, "must be an array of objects");
            return Vec::new();
        };
        if items.len() > self.limits.max_map_entries {
            p.add(
                path,
                format!("must have at most {} items", self.limits.max_map_entries),
            );
            return Vec::new();
        }
        let mut entries = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let item_path = format!("{path}[{i}]");
            let Value::Object(obj) = item else {
                p.add(item_path, "must be an object");
                continue;
            };
            reject_unknown(obj, &item_path, &["text", "anonymized_text"], p);
            let mut field = |key: &str| match obj.get(key) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => {
                    p.add(join(&item_path, key), "must be a string");
                    None
                }
                None => {
                    p.add(join(&item_path, key), "is required");
                    None
                }
            };
            let original = field("text");
            let anonymized = field("anonymized_text");
            if let (Some(original), Some(anonymized)) = (original, anonymized) {
                entries.push(MapEntry {
                    original,
                    anonymized,
                });
            }
        }
        entries
    }
}

/// The body as a JSON object: 400 when it is not JSON, 422 when it is not an object.
pub(super) fn parse_object(body: &[u8]) -> Result<serde_json::Map<String, Value>, ApiError> {
    match serde_json::from_slice(body) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(ApiError::validation(vec![super::error::Detail {
            field: String::new(),
            reason: "the body must be a JSON object".into(),
        }])),
        Err(_) => Err(ApiError::new(ErrorCode::InvalidJson)),
    }
}

pub(super) fn to_json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    // Our response types hold only strings and finite numbers: serializing cannot fail.
    serde_json::to_vec(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anonymizer::Defaults;
    use crate::engine::Engine;
    use crate::methods::{KeyRing, MasterSecret, Memory};
    use crate::session::{MemoryStore, SessionConfig};
    use crate::text::LabelSet;

    fn api(max_entries: usize) -> Api {
        let engine = Engine::builtin().expect("built-in engine");
        let defaults = Defaults {
            labels: LabelSet::defaults(),
            threshold: 0.5,
            method: Method::Redact,
        };
        let store = MemoryStore::<Memory>::new(SessionConfig {
            max_entries_per_session: max_entries,
            ..SessionConfig::default()
        });
        let anonymizer = Anonymizer::new(Arc::new(engine), defaults)
            .with_keys(KeyRing::new(Some(MasterSecret::new(b"k".repeat(32)))))
            .with_sessions(Arc::new(store));
        Api::new(Arc::new(anonymizer), Limits::default())
    }

    fn caller(tenant: &str, session: Option<&str>) -> Caller {
        Caller {
            tenant: tenant.into(),
            session_id: session.map(str::to_owned),
        }
    }

    fn json(outcome: &Outcome) -> Value {
        serde_json::from_slice(&outcome.body).unwrap()
    }

    #[test]
    fn encrypt_tokens_come_back_without_a_map() {
        let api = api(100);
        let me = caller("t", None);
        let body = br#"{"text": ["mail ann@example.org"],
            "anonymization_config": {"deidentification_method": "encrypt"}}"#;
        let out = json(&api.anonymize(&me, body).unwrap());
        let token = out["anonymized_text"][0].as_str().unwrap().to_owned();
        assert!(token.contains("[EMAIL_ADDRESS:"), "{token}");
        let body = serde_json::json!({ "anonymized_text": [token] }).to_string();
        let back = api.deanonymize(&me, body.as_bytes()).unwrap();
        assert_eq!(json(&back)["deanonymized_text"][0], "mail ann@example.org");
        let other = api
            .deanonymize(&caller("u", None), body.as_bytes())
            .unwrap();
        assert_eq!(other.failed_tokens, 1);
    }

    #[test]
    fn a_session_restores_lenient_forms_without_a_map() {
        let api = api(100);
        let me = caller("t", Some("s-1"));
        api.anonymize(&me, br#"{"text": ["mail ann@example.org"]}"#)
            .unwrap();
        let body = br#"{"anonymized_text": ["to email_address_1 and [email address 1]"],
            "match": "LENIENT"}"#;
        let back = json(&api.deanonymize(&me, body).unwrap());
        assert_eq!(
            back["deanonymized_text"][0],
            "to ann@example.org and ann@example.org"
        );
    }

    #[test]
    fn an_unknown_match_mode_is_a_validation_error() {
        let err = api(100)
            .deanonymize(
                &caller("t", None),
                br#"{"anonymized_text": [], "match": "fuzzy"}"#,
            )
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::ValidationFailed);
        assert_eq!(err.details[0].field, "match");
    }

    #[test]
    fn a_failed_detection_tier_is_a_503_with_a_fixed_message_and_no_input() {
        use crate::engine::tests::FailingTier;
        let mut recognizers = Engine::builtin_recognizers().expect("builds");
        recognizers.push(Box::new(FailingTier));
        let defaults = Defaults {
            labels: LabelSet::defaults(),
            threshold: 0.5,
            method: Method::Redact,
        };
        let anonymizer = Anonymizer::new(Arc::new(Engine::from_recognizers(recognizers)), defaults);
        let api = Api::new(Arc::new(anonymizer), Limits::default());
        let body = br#"{"text": ["Anna Lee, ann@example.org"]}"#;
        let err = api.anonymize(&caller("t", None), body).unwrap_err();
        assert_eq!(
            (err.code, err.status()),
            (ErrorCode::DetectionUnavailable, 503)
        );
        assert_eq!(
            String::from_utf8(err.to_body()).unwrap(),
            r#"{"error":{"code":"detection_unavailable","message":"the detection model is unavailable; nothing was anonymized","details":[]}}"#
        );
    }

    #[test]
    fn a_full_session_is_a_validation_error_that_names_no_input() {
        let api = api(1);
        let me = caller("t", Some("s"));
        let body = br#"{"text": ["ann@example.org bob@example.org"]}"#;
        let err = api.anonymize(&me, body).unwrap_err();
        assert_eq!(err.code, ErrorCode::ValidationFailed);
        assert_eq!(err.details[0].field, "X-Session-Id");
        assert!(!String::from_utf8(err.to_body())
            .unwrap()
            .contains("example.org"));
    }
}
