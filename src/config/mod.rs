//! Configuration: the YAML schema (this file), environment handling (`env`), and the
//! compiled, validated form the rest of the program uses (`settings`).
//!
//! Every struct rejects unknown fields and defaults to the values of the commented
//! `conf/anonymizer.yaml` (a test holds them equal).

pub mod env;
pub mod settings;

#[cfg(test)]
mod redaction_tests;

use std::collections::BTreeMap;

use serde::Deserialize;

pub use crate::secret::Secret;
pub use settings::{ApiKey, ConfigError, RateLimit, Settings};

/// The default configuration file, compiled in.
pub const DEFAULT_YAML: &str = include_str!("../../conf/anonymizer.yaml");
/// Where the default file is looked for, relative to the working directory.
pub const DEFAULT_PATH: &str = "conf/anonymizer.yaml";

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub server: ServerSection,
    pub auth: AuthSection,
    pub limits: crate::api::Limits,
    pub rate_limit: RateLimitSection,
    pub detection: DetectionSection,
    pub model: ModelSection,
    /// More NER models run beside `model` (e.g. Rampart); their entities compete in
    /// overlap resolution like any tier's. Each entry is a full `model` section.
    pub extra_models: Vec<ModelSection>,
    pub anonymization: AnonymizationSection,
    pub sessions: SessionsSection,
    pub secrets: SecretsSection,
    pub logging: LoggingSection,
    /// Reverse-proxy routes (see `proxy::route`).
    pub routes: Vec<crate::proxy::route::RouteConfig>,
    /// The service-wide policy, which routes, tenants and requests refine: the fields
    /// of a request's `detection_config` and `anonymization_config`, side by side.
    pub policy: Option<serde_json::Value>,
    /// Policies of tenants (the owners of API keys), by tenant name.
    pub tenants: std::collections::BTreeMap<String, TenantSection>,
    /// Presidio's REST API on a listener of its own (off unless `listen` is set).
    pub presidio_api: PresidioApiSection,
}

/// The shipped configuration: our English model reads every text but those of the
/// multilingual model's twelve languages, which it reads.
impl Default for Config {
    fn default() -> Self {
        let twelve: Vec<String> = crate::engine::tiers::ner::MULTILINGUAL
            .iter()
            .map(|c| (*c).to_owned())
            .collect();
        let multilingual =
            crate::engine::tiers::ner::ModelSettings::multilingual(std::path::Path::new("models"));
        Self {
            server: ServerSection::default(),
            auth: AuthSection::default(),
            limits: crate::api::Limits::default(),
            rate_limit: RateLimitSection::default(),
            detection: DetectionSection::default(),
            model: ModelSection {
                skip_languages: twelve.clone(),
                ..ModelSection::default()
            },
            extra_models: vec![ModelSection {
                path: multilingual.dir.display().to_string(),
                languages: twelve,
                ..ModelSection::default()
            }],
            anonymization: AnonymizationSection::default(),
            sessions: SessionsSection::default(),
            secrets: SecretsSection::default(),
            logging: LoggingSection::default(),
            routes: Vec::new(),
            policy: None,
            tenants: std::collections::BTreeMap::new(),
            presidio_api: PresidioApiSection::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PresidioApiSection {
    /// `host:port`; empty: off.
    pub listen: String,
    /// The header our API key is read from; empty: no key, allowed only on a loopback
    /// address (Presidio clients such as LiteLLM send none by default).
    pub api_key_header: String,
}

impl Default for PresidioApiSection {
    fn default() -> Self {
        Self {
            listen: String::new(),
            api_key_header: "x-api-key".into(),
        }
    }
}

/// One tenant's policy, which its requests refine (`/v1`, Presidio's API, its proxy routes).
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct TenantSection {
    /// The fields of a request's `detection_config` and `anonymization_config`, side
    /// by side: entities, threshold, thresholds, method, operators, action, actions,
    /// allow_list, allow_list_match, ad_hoc_recognizers, context.
    pub policy: Option<serde_json::Value>,
    /// What a request may change of that policy.
    pub request_may: crate::policy::RequestMay,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerSection {
    /// API listener address.
    pub listen: String,
    /// Prometheus metrics listener address.
    pub metrics_listen: String,
    /// Worker threads of the API service.
    pub threads: usize,
    /// Seconds to keep serving after SIGTERM before closing listeners.
    pub grace_period_secs: u64,
    /// Seconds in-flight requests get to finish after the grace period.
    pub shutdown_timeout_secs: u64,
    /// Open client connections at most; one more is closed as soon as it is accepted.
    pub max_connections: usize,
    /// Milliseconds a client has to send a request's whole header, counted from the
    /// connection's start or, on a reused connection, from the request's first byte.
    pub header_timeout_ms: u64,
    /// Seconds a kept-alive connection may sit idle between requests.
    pub keepalive_timeout_secs: u64,
}

impl Default for ServerSection {
    fn default() -> Self {
        Self {
            listen: "0.0.0.0:8080".into(),
            metrics_listen: "127.0.0.1:9090".into(),
            threads: 2,
            grace_period_secs: 0,
            shutdown_timeout_secs: 10,
            max_connections: 4096,
            header_timeout_ms: 10_000,
            keepalive_timeout_secs: 60,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct AuthSection {
    /// Accepted API keys, each with its tenant.
    pub api_keys: Vec<ApiKeyEntry>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiKeyEntry {
    /// Tenant name: letters, digits, `-`, `_`, `.`.
    #[serde(default = "default_tenant")]
    pub tenant: String,
    /// The key itself (at least 16 characters).
    pub key: Secret<String>,
}

pub fn default_tenant() -> String {
    "default".into()
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitSection {
    pub enabled: bool,
    /// Sustained requests per second per key.
    pub requests_per_sec: f64,
    /// Requests a key may make at once after being idle.
    pub burst: u32,
}

impl Default for RateLimitSection {
    fn default() -> Self {
        Self {
            enabled: false,
            requests_per_sec: 50.0,
            burst: 100,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DetectionSection {
    /// Labels used when a request names none; empty = every default-on label.
    pub default_entities: Vec<String>,
    /// Labels taken out of that default set ("all but `MEDICAL_CONDITION`").
    pub excluded_entities: Vec<String>,
    /// Default confidence threshold in [0, 1].
    pub threshold: f64,
    /// Texts never flagged, compared case-insensitively with what was detected.
    pub allow_list: Vec<String>,
    /// Phrases always flagged with a label (whole words, any case).
    pub deny_list: Vec<DenyEntry>,
    /// Extra regex recognizers.
    pub patterns: Vec<PatternEntry>,
}

impl Default for DetectionSection {
    fn default() -> Self {
        Self {
            default_entities: Vec::new(),
            excluded_entities: Vec::new(),
            threshold: 0.5,
            allow_list: Vec::new(),
            deny_list: Vec::new(),
            patterns: Vec::new(),
        }
    }
}

/// One `detection.deny_list` entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenyEntry {
    /// The phrase to flag.
    pub text: String,
    /// Its label (a catalogue name or alias).
    pub label: String,
}

/// One `detection.patterns` entry: an extra regex recognizer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternEntry {
    /// Unique name, for errors and logs.
    pub name: String,
    /// Label of what it finds (a catalogue name or alias).
    pub label: String,
    /// A Rust `regex` pattern (linear time, no look-around); group 1, if any, is the entity.
    pub regex: String,
    /// Confidence without context, in [0, 1].
    #[serde(default = "default_pattern_score")]
    pub score: f64,
    /// Words near a match that add 0.35 to its confidence.
    #[serde(default)]
    pub context: Vec<String>,
}

fn default_pattern_score() -> f64 {
    0.6
}

/// The neural NER tier (`engine::tiers::ner`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelSection {
    /// Load the model tier at start.
    pub enabled: bool,
    /// Refuse to start when the model cannot be loaded; `false` starts with the other
    /// tiers and logs why.
    pub required: bool,
    /// Keep the rule tier's capitalisation guesses for names while this model is loaded;
    /// `false` for a model that is better at names than they are (ours).
    pub name_guesses: bool,
    /// Model directory (relative to the working directory): `config.json` with BIO
    /// `id2label`, `tokenizer.json`, and `onnx/model_q4.onnx`, `onnx/model.onnx` or `model.onnx`.
    pub path: String,
    /// The ONNX Runtime shared library, loaded at start.
    pub runtime_library: String,
    /// Threads one inference uses.
    pub threads: usize,
    /// Those threads spin between a forward pass's operators instead of sleeping:
    /// faster single requests, slower rules-only requests beside model traffic.
    pub spinning: bool,
    /// Inference workers, each with its own session and `threads` threads.
    pub workers: usize,
    /// Tokens per window for long texts, at most the model's positions less 2.
    pub window_tokens: usize,
    /// Tokens adjacent windows share (at most half of `window_tokens`).
    pub window_overlap_tokens: usize,
    /// Padded tokens in one forward pass of one request's windows.
    pub max_batch_tokens: usize,
    /// Requests that may wait for a worker before callers block.
    pub queue_capacity: usize,
    /// Milliseconds one request's inference may go without progress (no window finished),
    /// queueing included; past it the request fails with 503 `detection_unavailable`
    /// (nothing is anonymized or forwarded).
    pub inference_timeout_ms: u64,
    /// Model entity type (tag without `B-`/`I-`) → label. A value is a label, `~` to
    /// ignore the type, or `{label: L, alone: M}`: M when no part of another type is
    /// merged in. Types not listed map to the label or alias of the same name.
    pub labels: BTreeMap<String, TagMapping>,
    /// ISO 639-1 codes: the model reads only texts detected (or declared) in these
    /// languages. Empty: no such limit.
    pub languages: Vec<String>,
    /// ISO 639-1 codes: the model never reads texts in these languages (another model
    /// does). A text of no detected language is read.
    pub skip_languages: Vec<String>,
}

/// What one model entity type becomes (see [`ModelSection::labels`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum TagMapping {
    Label(Option<String>),
    Detailed(TagDetail),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagDetail {
    pub label: String,
    pub alone: Option<String>,
}

impl Default for ModelSection {
    fn default() -> Self {
        let defaults = crate::engine::tiers::ner::ModelSettings::anonymizer_ner(
            std::path::Path::new("models"),
        );
        Self {
            enabled: true,
            required: defaults.required,
            name_guesses: defaults.name_guesses,
            path: defaults.dir.display().to_string(),
            runtime_library: defaults.runtime_library.display().to_string(),
            threads: defaults.threads,
            spinning: defaults.spinning,
            workers: defaults.workers,
            window_tokens: defaults.window_tokens,
            window_overlap_tokens: defaults.window_overlap_tokens,
            max_batch_tokens: defaults.max_batch_tokens,
            queue_capacity: defaults.queue_capacity,
            inference_timeout_ms: u64::try_from(defaults.inference_timeout.as_millis())
                .unwrap_or(u64::MAX),
            // PER, ORG, LOC, DATE map to labels by alias.
            labels: BTreeMap::new(),
            languages: Vec::new(),
            skip_languages: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnonymizationSection {
    /// Default de-identification method.
    pub method: String,
}

impl Default for AnonymizationSection {
    fn default() -> Self {
        Self {
            method: "REDACT".into(),
        }
    }
}

/// The session cache (`X-Session-Id`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SessionsSection {
    /// Seconds a session lives after its last use.
    pub ttl_secs: u64,
    /// Most sessions held; one more evicts the least recently used.
    pub max_sessions: usize,
    /// Most remembered replacements per session; more is a 422.
    pub max_entries_per_session: usize,
    /// Estimated bytes all sessions may hold; more evicts least recently used sessions.
    pub max_total_bytes: usize,
    /// Seconds between sweeps for expired sessions.
    pub sweep_interval_secs: u64,
    /// Where sessions live: `memory` (this process) or `redis` (shared by replicas).
    pub store: String,
    /// The shared store, when `store: redis`.
    pub redis: RedisSection,
}

impl Default for SessionsSection {
    fn default() -> Self {
        Self {
            ttl_secs: 3600,
            max_sessions: 10_000,
            max_entries_per_session: 10_000,
            max_total_bytes: 268_435_456,
            sweep_interval_secs: 60,
            store: "memory".into(),
            redis: RedisSection::default(),
        }
    }
}

/// The Redis session store. The URL is a [`Secret`]: it may hold a password.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RedisSection {
    /// `redis://[user:password@]host:port/db`, `rediss://` for TLS.
    pub url: Secret<String>,
    /// Most connections per replica; a request holds one for one round trip.
    pub pool_size: usize,
    /// Longest wait for a connection, in milliseconds.
    pub connect_timeout_ms: u64,
    /// Longest a request waits for its session, retries included; past it, 503.
    pub timeout_ms: u64,
    /// Prefix of every key written.
    pub key_prefix: String,
    /// How long after Redis last confirmed a session a replica may answer a request
    /// that allocates nothing from its own copy, without a round trip; 0 = never.
    pub lease_ms: u64,
    /// PEM file of the CA a `rediss://` server's certificate must chain to; empty =
    /// the built-in web roots.
    pub ca_file: String,
    /// Redis Cluster startup nodes (`host:port`; a list or one comma-separated
    /// string); the URL then gives only credentials and TLS.
    #[serde(deserialize_with = "list_or_commas")]
    pub cluster_nodes: Vec<String>,
    /// Sentinels (`host:port`; a list or one comma-separated string) that name the
    /// primary of `sentinel_service`; the URL then gives only credentials, database
    /// and TLS.
    #[serde(deserialize_with = "list_or_commas")]
    pub sentinels: Vec<String>,
    /// The service (master name) the sentinels watch.
    pub sentinel_service: String,
    /// Replicas that must acknowledge each session write (`WAIT`) before the request
    /// is answered; fewer in time is a 503. 0 = do not wait.
    pub wait_replicas: u32,
    /// Longest wait for their acknowledgement, in milliseconds.
    pub wait_timeout_ms: u64,
}

/// A list of strings, or one string of comma-separated items (what `${VAR}` of a
/// comma-separated variable gives); blank items are dropped.
fn list_or_commas<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum ListOrCommas {
        List(Vec<String>),
        Commas(String),
    }
    let items = match ListOrCommas::deserialize(de)? {
        ListOrCommas::List(items) => items,
        ListOrCommas::Commas(text) => text.split(',').map(str::to_owned).collect(),
    };
    Ok(items
        .into_iter()
        .map(|item| item.trim().to_owned())
        .filter(|item| !item.is_empty())
        .collect())
}

impl Default for RedisSection {
    fn default() -> Self {
        Self {
            url: Secret::new("redis://127.0.0.1:6379".into()),
            pool_size: 4,
            connect_timeout_ms: 1000,
            timeout_ms: 1000,
            key_prefix: "anonymizer:session:".into(),
            lease_ms: 200,
            ca_file: String::new(),
            cluster_nodes: Vec::new(),
            sentinels: Vec::new(),
            sentinel_service: String::new(),
            wait_replicas: 0,
            wait_timeout_ms: 100,
        }
    }
}

/// Key material, a [`Secret`].
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct SecretsSection {
    /// Master secret that `HASH` and `ENCRYPT` keys are derived from (at least 32
    /// characters); empty = `ANONYMIZER_SECRET`, or a random one per start.
    pub master_secret: Secret<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoggingSection {
    /// tracing filter directive.
    pub level: String,
    /// `text` or `json`.
    pub format: String,
}

impl Default for LoggingSection {
    fn default() -> Self {
        Self {
            level: "info".into(),
            format: "text".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_yaml_equals_the_built_in_defaults() {
        let parsed: Config = serde_yaml::from_str(DEFAULT_YAML).expect("default yaml parses");
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn secrets_debug_print_redacted() {
        let section = SecretsSection {
            master_secret: Secret::new("do-not-print-this-secret-value-0123".into()),
        };
        assert!(!format!("{section:?}").contains("do-not-print"));
    }
}
