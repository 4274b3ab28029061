//! Raw config → validated `Settings`. Collects every error (with where it is) instead
//! of stopping at the first, and never quotes a configured value back.

use std::fmt;
use std::net::SocketAddr;

use regex::Regex;

use super::env::{self, InterpolateError};
use super::{Config, ModelSection, TagMapping};
use crate::anonymizer::Defaults;
use crate::api::Limits;
use crate::engine::tiers::ner::{ModelSettings, TagTarget};
use crate::engine::{CustomPattern, EngineOptions};
use crate::methods::{MasterSecret, Method};
use crate::proxy::route::{self, Route};
use crate::session::redis::topology::split_host_port;
use crate::session::redis::{Deployment, RedisConfig};
use crate::session::SessionConfig;
use crate::text::{Label, LabelSet, Language, LanguageScope};

/// A configuration problem: where (`auth.api_keys[1].key`, `line 12`) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: String,
    pub message: String,
}

impl ConfigError {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

pub use crate::secret::Secret;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub tenant: String,
    pub key: Secret<String>,
}

/// Where sessions live (`sessions.store`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionBackend {
    Memory,
    Redis(RedisConfig),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    pub requests_per_sec: f64,
    pub burst: u32,
}

/// Everything the program needs, validated.
#[derive(Debug, Clone)]
pub struct Settings {
    pub listen: String,
    pub metrics_listen: String,
    pub threads: usize,
    pub grace_period_secs: u64,
    pub shutdown_timeout_secs: u64,
    pub max_connections: usize,
    pub header_timeout_ms: u64,
    pub keepalive_timeout_secs: u64,
    /// Configured keys; empty means "generate one at start".
    pub api_keys: Vec<ApiKey>,
    pub limits: Limits,
    pub rate_limit: Option<RateLimit>,
    pub defaults: Defaults,
    pub sessions: SessionConfig,
    /// Where sessions live.
    pub session_store: SessionBackend,
    /// `None`: nothing configured; the app generates one and warns (see
    /// `methods::KeyRing::is_generated`).
    pub master_secret: Option<MasterSecret>,
    /// The NER tier to load; `None` when `model.enabled` is false.
    pub model: Option<ModelSettings>,
    /// Further NER models (`extra_models`), loaded beside `model`.
    pub extra_models: Vec<ModelSettings>,
    pub log_level: String,
    pub log_json: bool,
    /// Configured recognizers for `Engine::from_options`.
    pub detection: crate::engine::EngineOptions,
    pub routes: Vec<Route>,
    /// Tenants' policies.
    pub policies: crate::policy::Policies,
    /// Presidio's REST API: its address and the header our key is read from (`None`:
    /// no key, loopback only).
    pub presidio: Option<(String, Option<http::HeaderName>)>,
}

/// Shortest accepted configured API key.
const MIN_KEY_LEN: usize = 16;
/// Shortest accepted master secret, in bytes.
const MIN_SECRET_LEN: usize = 32;

impl Settings {
    /// Interpolates, parses and validates config `text`, then applies environment overrides.
    ///
    /// # Errors
    /// Every problem found, each with its location.
    pub fn from_yaml(
        text: &str,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, Vec<ConfigError>> {
        let text = env::interpolate(text, lookup).map_err(|errs| {
            errs.into_iter()
                .map(|InterpolateError { line, message }| {
                    ConfigError::new(format!("line {line}"), message)
                })
                .collect::<Vec<_>>()
        })?;
        // An empty file is the all-defaults config.
        let config: Config = if text.trim().is_empty() {
            Config::default()
        } else {
            serde_yaml::from_str(&text).map_err(|e| vec![yaml_error(&e)])?
        };
        Settings::compile(config, lookup)
    }

    /// Validates a parsed config and applies environment overrides.
    ///
    /// # Errors
    /// Every problem found, each with its location.
    pub fn compile(
        config: Config,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, Vec<ConfigError>> {
        let mut errors = Vec::new();

        let listen = lookup(env::LISTEN).unwrap_or(config.server.listen);
        let metrics_listen = lookup(env::METRICS_LISTEN).unwrap_or(config.server.metrics_listen);
        for (path, addr) in [
            ("server.listen", &listen),
            ("server.metrics_listen", &metrics_listen),
        ] {
            if addr.parse::<SocketAddr>().is_err() {
                errors.push(ConfigError::new(path, "must be an IP:port socket address"));
            }
        }
        if config.server.threads == 0 || config.server.threads > 256 {
            errors.push(ConfigError::new(
                "server.threads",
                "must be between 1 and 256",
            ));
        }

        for (path, value) in [
            (
                "server.max_connections",
                config.server.max_connections as u64,
            ),
            ("server.header_timeout_ms", config.server.header_timeout_ms),
            (
                "server.keepalive_timeout_secs",
                config.server.keepalive_timeout_secs,
            ),
        ] {
            if value == 0 {
                errors.push(ConfigError::new(path, "must be greater than 0"));
            }
        }

        let mut api_keys = Vec::new();
        for (i, entry) in config.auth.api_keys.into_iter().enumerate() {
            match check_key(&entry.tenant, entry.key.expose()) {
                Ok(()) => api_keys.push(ApiKey {
                    tenant: entry.tenant,
                    key: entry.key,
                }),
                Err(message) => {
                    errors.push(ConfigError::new(format!("auth.api_keys[{i}]"), message))
                }
            }
        }
        if let Some(list) = lookup(env::API_KEYS) {
            for (i, item) in list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .enumerate()
            {
                let (tenant, key) = match item.split_once(':') {
                    Some((tenant, key)) => (tenant.to_owned(), key.to_owned()),
                    None => (super::default_tenant(), item.to_owned()),
                };
                match check_key(&tenant, &key) {
                    Ok(()) => api_keys.push(ApiKey {
                        tenant,
                        key: Secret::new(key),
                    }),
                    Err(message) => {
                        errors.push(ConfigError::new(format!("{}[{i}]", env::API_KEYS), message))
                    }
                }
            }
        }
        for i in 1..api_keys.len() {
            if api_keys[..i].iter().any(|k| k.key == api_keys[i].key) {
                errors.push(ConfigError::new(
                    "auth.api_keys",
                    "the same key is configured twice",
                ));
                break;
            }
        }

        let limits = config.limits;
        for (path, value) in [
            ("limits.max_body_bytes", limits.max_body_bytes),
            ("limits.max_texts", limits.max_texts),
            ("limits.max_text_chars", limits.max_text_chars),
            ("limits.max_map_entries", limits.max_map_entries),
            ("limits.max_response_bytes", limits.max_response_bytes),
        ] {
            if value == 0 {
                errors.push(ConfigError::new(path, "must be greater than 0"));
            }
        }

        let rate_limit = if config.rate_limit.enabled {
            let rl = &config.rate_limit;
            if !(rl.requests_per_sec.is_finite() && rl.requests_per_sec > 0.0) {
                errors.push(ConfigError::new(
                    "rate_limit.requests_per_sec",
                    "must be a positive number",
                ));
            }
            if rl.burst == 0 {
                errors.push(ConfigError::new("rate_limit.burst", "must be at least 1"));
            }
            Some(RateLimit {
                requests_per_sec: rl.requests_per_sec,
                burst: rl.burst,
            })
        } else {
            None
        };

        let labels = labels_at(
            &config.detection.default_entities,
            "default_entities",
            &mut errors,
        );
        let excluded = labels_at(
            &config.detection.excluded_entities,
            "excluded_entities",
            &mut errors,
        );
        let labels = if labels.is_empty() {
            LabelSet::defaults()
        } else {
            LabelSet::new(labels)
        }
        .without(&excluded);
        let threshold = config.detection.threshold;
        if !(0.0..=1.0).contains(&threshold) {
            errors.push(ConfigError::new(
                "detection.threshold",
                "must be between 0 and 1",
            ));
        }
        let detection = compile_detection(&config.detection, &mut errors);
        let method = Method::parse(&config.anonymization.method).unwrap_or_else(|| {
            let names: Vec<&str> = Method::ALL.iter().map(Method::as_str).collect();
            errors.push(ConfigError::new(
                "anonymization.method",
                format!("unknown method; one of {}", names.join(", ")),
            ));
            Method::Redact
        });

        let sc = &config.sessions;
        for (path, value) in [
            ("sessions.ttl_secs", sc.ttl_secs as usize),
            ("sessions.max_sessions", sc.max_sessions),
            (
                "sessions.max_entries_per_session",
                sc.max_entries_per_session,
            ),
            ("sessions.max_total_bytes", sc.max_total_bytes),
            (
                "sessions.sweep_interval_secs",
                sc.sweep_interval_secs as usize,
            ),
        ] {
            if value == 0 {
                errors.push(ConfigError::new(path, "must be greater than 0"));
            }
        }
        let sessions = SessionConfig {
            ttl: std::time::Duration::from_secs(sc.ttl_secs),
            max_sessions: sc.max_sessions,
            max_entries_per_session: sc.max_entries_per_session,
            max_total_bytes: sc.max_total_bytes,
            sweep_interval: std::time::Duration::from_secs(sc.sweep_interval_secs),
        };
        let session_store = compile_session_store(sc, lookup, &mut errors);

        let (secret_path, secret) = match lookup(env::SECRET).filter(|s| !s.is_empty()) {
            Some(value) => (env::SECRET, Secret::new(value)),
            None => ("secrets.master_secret", config.secrets.master_secret),
        };
        let secret_missing = secret.expose().is_empty();
        let master_secret = if secret_missing {
            None
        } else if secret.expose().len() < MIN_SECRET_LEN {
            errors.push(ConfigError::new(
                secret_path,
                format!("must be at least {MIN_SECRET_LEN} bytes"),
            ));
            None
        } else {
            Some(MasterSecret::new(secret.expose().as_bytes().to_vec()))
        };
        if matches!(session_store, SessionBackend::Redis(_)) && secret_missing {
            // Sessions are sealed and named with keys derived from the secret: every
            // replica needs the same one, and a generated one would differ per start.
            errors.push(ConfigError::new(
                secret_path,
                "is required with sessions.store: redis (the same on every replica)",
            ));
        }
        // `model.enabled: false` switches the model tier off: no model of `extra_models`
        // loads either (rules only).
        let tier_on = config.model.enabled;
        let model = compile_model(config.model, "model", &mut errors);
        let extra_models = config
            .extra_models
            .into_iter()
            .filter(|_| tier_on)
            .enumerate()
            .filter_map(|(i, section)| {
                compile_model(section, &format!("extra_models[{i}]"), &mut errors)
            })
            .collect::<Vec<_>>();
        unread_languages(model.as_ref(), &extra_models, &mut errors);

        let log_json = match config.logging.format.as_str() {
            "text" => false,
            "json" => true,
            _ => {
                errors.push(ConfigError::new("logging.format", "must be text or json"));
                false
            }
        };
        if tracing_subscriber::EnvFilter::try_new(&config.logging.level).is_err() {
            errors.push(ConfigError::new(
                "logging.level",
                "not a valid tracing filter",
            ));
        }

        let policies = policies(
            config.policy.as_ref(),
            &config.tenants,
            threshold as f32,
            &mut errors,
        );
        let mut routes = Vec::with_capacity(config.routes.len());
        for (i, rc) in config.routes.iter().enumerate() {
            match route::compile_with(rc, &policies.global) {
                Ok(r) => routes.push(r),
                Err(errs) => errors.extend(errs.into_iter().map(|(field, message)| {
                    ConfigError::new(format!("routes[{i}].{field}"), message)
                })),
            }
        }
        for i in 1..routes.len() {
            if routes[..i].iter().any(|r| r.name == routes[i].name) {
                errors.push(ConfigError::new(
                    format!("routes[{i}].name"),
                    "route names must be unique",
                ));
            }
        }
        let presidio = presidio_listener(&config.presidio_api, &mut errors);

        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Settings {
            listen,
            metrics_listen,
            threads: config.server.threads,
            grace_period_secs: config.server.grace_period_secs,
            shutdown_timeout_secs: config.server.shutdown_timeout_secs,
            max_connections: config.server.max_connections,
            header_timeout_ms: config.server.header_timeout_ms,
            keepalive_timeout_secs: config.server.keepalive_timeout_secs,
            api_keys,
            limits,
            rate_limit,
            defaults: Defaults {
                labels,
                threshold: threshold as f32,
                method,
            },
            sessions,
            session_store,
            master_secret,
            model,
            extra_models,
            log_level: config.logging.level,
            log_json,
            policies,
            presidio,
            detection,
            routes,
        })
    }
}

/// The allow list, deny list and extra patterns of `detection:`, checked.
fn compile_detection(
    section: &super::DetectionSection,
    errors: &mut Vec<ConfigError>,
) -> EngineOptions {
    let mut options = EngineOptions::default();
    for (i, text) in section.allow_list.iter().enumerate() {
        if text.trim().is_empty() {
            errors.push(ConfigError::new(
                format!("detection.allow_list[{i}]"),
                "must not be empty",
            ));
        } else {
            options.allow_list.push(text.clone());
        }
    }
    for (i, entry) in section.deny_list.iter().enumerate() {
        let path = format!("detection.deny_list[{i}]");
        let label = Label::parse(&entry.label);
        if label.is_none() {
            errors.push(ConfigError::new(
                format!("{path}.label"),
                "unknown label (see GET /v1/entities)",
            ));
        }
        if entry.text.trim().is_empty() {
            errors.push(ConfigError::new(
                format!("{path}.text"),
                "must not be empty",
            ));
        }
        if let (Some(label), false) = (label, entry.text.trim().is_empty()) {
            options
                .deny_list
                .push((entry.text.trim().to_owned(), label));
        }
    }
    let mut names = std::collections::HashSet::new();
    for (i, entry) in section.patterns.iter().enumerate() {
        let path = format!("detection.patterns[{i}]");
        let before = errors.len();
        if entry.name.trim().is_empty() || !names.insert(entry.name.as_str()) {
            errors.push(ConfigError::new(
                format!("{path}.name"),
                "must be non-empty and unique",
            ));
        }
        let label = Label::parse(&entry.label);
        if label.is_none() {
            errors.push(ConfigError::new(
                format!("{path}.label"),
                "unknown label (see GET /v1/entities)",
            ));
        }
        // The same size limit the engine uses; the message never quotes the pattern.
        match Regex::new(&entry.regex) {
            Ok(re) if re.is_match("") => errors.push(ConfigError::new(
                format!("{path}.regex"),
                "must not match the empty string",
            )),
            Ok(_) => {}
            Err(regex::Error::CompiledTooBig(_)) => errors.push(ConfigError::new(
                format!("{path}.regex"),
                "compiles too large; simplify it",
            )),
            Err(_) => errors.push(ConfigError::new(
                format!("{path}.regex"),
                "not a valid regex (Rust regex syntax, no look-around or backreferences)",
            )),
        }
        if !(0.0..=1.0).contains(&entry.score) {
            errors.push(ConfigError::new(
                format!("{path}.score"),
                "must be between 0 and 1",
            ));
        }
        if let (Some(label), true) = (label, errors.len() == before) {
            options.patterns.push(CustomPattern {
                name: entry.name.clone(),
                label,
                regex: entry.regex.clone(),
                score: entry.score as f32,
                context: entry.context.iter().map(|w| w.to_lowercase()).collect(),
                proof: crate::engine::Proof::None,
            });
        }
    }
    options
}

/// Validates the `model:` section; `None` when the tier is disabled.
fn compile_model(
    section: ModelSection,
    prefix: &str,
    errors: &mut Vec<ConfigError>,
) -> Option<ModelSettings> {
    if !section.enabled {
        return None;
    }
    let mut check = |ok: bool, path: &str, message: &str| {
        if !ok {
            errors.push(ConfigError::new(format!("{prefix}.{path}"), message));
        }
    };
    check(!section.path.trim().is_empty(), "path", "must not be empty");
    check(
        !section.runtime_library.trim().is_empty(),
        "runtime_library",
        "must not be empty",
    );
    check(
        (1..=64).contains(&section.threads),
        "threads",
        "must be between 1 and 64",
    );
    check(
        (1..=16).contains(&section.workers),
        "workers",
        "must be between 1 and 16",
    );
    check(
        (8..=8192).contains(&section.window_tokens),
        "window_tokens",
        "must be between 8 and 8192",
    );
    check(
        section.window_overlap_tokens <= section.window_tokens / 2,
        "window_overlap_tokens",
        "must be at most half of window_tokens",
    );
    check(
        (section.window_tokens + 2..=1 << 20).contains(&section.max_batch_tokens),
        "max_batch_tokens",
        "must be at least window_tokens + 2 and at most 1048576",
    );
    check(
        (1..=100_000).contains(&section.queue_capacity),
        "queue_capacity",
        "must be between 1 and 100000",
    );
    check(
        section.inference_timeout_ms > 0,
        "inference_timeout_ms",
        "must be greater than 0",
    );
    let mut codes = |list: &[String], key: &str| {
        let reason = "must be an ISO 639-1 language code such as \"de\"";
        parsed_at(
            list,
            &format!("{prefix}.{key}"),
            Language::from_code,
            reason,
            errors,
        )
    };
    let languages = LanguageScope {
        only: (!section.languages.is_empty()).then(|| codes(&section.languages, "languages")),
        except: codes(&section.skip_languages, "skip_languages"),
    };
    let mut tags = Vec::with_capacity(section.labels.len());
    for (tag, mapping) in section.labels {
        let mut label_of = |name: &str, path: String| {
            let label = Label::parse(name);
            if label.is_none() {
                errors.push(ConfigError::new(
                    path,
                    "unknown label (see GET /v1/entities)",
                ));
            }
            label
        };
        let (label, alone) = match mapping {
            TagMapping::Label(None) => (None, None),
            TagMapping::Label(Some(name)) => {
                (label_of(&name, format!("{prefix}.labels.{tag}")), None)
            }
            TagMapping::Detailed(detail) => (
                label_of(&detail.label, format!("{prefix}.labels.{tag}.label")),
                detail
                    .alone
                    .and_then(|name| label_of(&name, format!("{prefix}.labels.{tag}.alone"))),
            ),
        };
        tags.push(TagTarget { tag, label, alone });
    }
    Some(ModelSettings {
        dir: section.path.into(),
        runtime_library: section.runtime_library.into(),
        required: section.required,
        name_guesses: section.name_guesses,
        tags,
        threads: section.threads,
        spinning: section.spinning,
        workers: section.workers,
        window_tokens: section.window_tokens,
        window_overlap_tokens: section.window_overlap_tokens,
        max_batch_tokens: section.max_batch_tokens,
        queue_capacity: section.queue_capacity,
        inference_timeout: std::time::Duration::from_millis(section.inference_timeout_ms),
        languages,
    })
}

/// A language some model skips must be read by another: otherwise its texts would get
/// no model at all, and names in them would pass.
fn unread_languages(
    model: Option<&ModelSettings>,
    extra: &[ModelSettings],
    errors: &mut Vec<ConfigError>,
) {
    let all: Vec<(String, &ModelSettings)> = model
        .map(|m| ("model".to_owned(), m))
        .into_iter()
        .chain(
            extra
                .iter()
                .enumerate()
                .map(|(i, m)| (format!("extra_models[{i}]"), m)),
        )
        .collect();
    for (path, m) in &all {
        for language in &m.languages.except {
            if !all.iter().any(|(_, o)| o.languages.admits(Some(*language))) {
                errors.push(ConfigError::new(
                    format!("{path}.skip_languages"),
                    format!("no model reads {language}: list it in another model's languages, or read it here"),
                ));
            }
        }
    }
}

fn check_key(tenant: &str, key: &str) -> Result<(), &'static str> {
    let tenant_ok = !tenant.is_empty()
        && tenant.len() <= 64
        && tenant
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !tenant_ok {
        return Err("tenant must be 1-64 letters, digits, '-', '_' or '.'");
    }
    if key.len() < MIN_KEY_LEN || !key.chars().all(|c| c.is_ascii_graphic()) {
        return Err("key must be at least 16 visible ASCII characters");
    }
    Ok(())
}

/// A YAML error with its line, its quoted values blanked out (they may be secrets).
fn yaml_error(e: &serde_yaml::Error) -> ConfigError {
    static QUOTED: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let quoted = QUOTED.get_or_init(|| {
        // Built-in literal pattern.
        Regex::new(r#""[^"]*"|invalid (type|value): [a-z ]+`[^`]*`"#).expect("valid regex")
    });
    let raw = e.to_string();
    // serde_yaml appends " at line L column C"; we report the location separately.
    let raw = raw.split(" at line ").next().unwrap_or("");
    let message = quoted
        .replace_all(raw, |caps: &regex::Captures| match caps.get(1) {
            Some(kind) => format!("invalid {}", kind.as_str()),
            None => "\"…\"".to_owned(),
        })
        .into_owned();
    let path = match e.location() {
        Some(loc) => format!("line {}", loc.line()),
        None => "config".to_owned(),
    };
    ConfigError::new(path, message)
}

/// `sessions.store` and `sessions.redis`, with `ANONYMIZER_SESSION_STORE` and
/// `ANONYMIZER_REDIS_URL` overriding them. The URL is never quoted in an error.
fn compile_session_store(
    sc: &super::SessionsSection,
    lookup: &dyn Fn(&str) -> Option<String>,
    errors: &mut Vec<ConfigError>,
) -> SessionBackend {
    let (store_path, store) = match lookup(env::SESSION_STORE).filter(|s| !s.is_empty()) {
        Some(value) => (env::SESSION_STORE, value),
        None => ("sessions.store", sc.store.clone()),
    };
    match store.to_ascii_lowercase().as_str() {
        "memory" => return SessionBackend::Memory,
        "redis" => {}
        _ => {
            errors.push(ConfigError::new(store_path, "must be memory or redis"));
            return SessionBackend::Memory;
        }
    }
    let rc = &sc.redis;
    let (url_path, url) = match lookup(env::REDIS_URL).filter(|s| !s.is_empty()) {
        Some(value) => (env::REDIS_URL, Secret::new(value)),
        None => ("sessions.redis.url", rc.url.clone()),
    };
    if !(url.expose().starts_with("redis://") || url.expose().starts_with("rediss://")) {
        errors.push(ConfigError::new(
            url_path,
            "must start with redis:// or rediss:// (TLS)",
        ));
    }
    if !rc.ca_file.is_empty() && !url.expose().starts_with("rediss://") {
        errors.push(ConfigError::new(
            "sessions.redis.ca_file",
            "is only used with a rediss:// URL",
        ));
    }
    for (path, value) in [
        ("sessions.redis.pool_size", rc.pool_size as u64),
        ("sessions.redis.connect_timeout_ms", rc.connect_timeout_ms),
        ("sessions.redis.timeout_ms", rc.timeout_ms),
    ] {
        if value == 0 {
            errors.push(ConfigError::new(path, "must be greater than 0"));
        }
    }
    if rc.wait_replicas > 0 && rc.wait_timeout_ms == 0 {
        errors.push(ConfigError::new(
            "sessions.redis.wait_timeout_ms",
            "must be greater than 0 with wait_replicas",
        ));
    }
    let deployment = compile_deployment(rc, url_path, &url, errors);
    SessionBackend::Redis(RedisConfig {
        url,
        deployment,
        pool_size: rc.pool_size,
        connect_timeout: std::time::Duration::from_millis(rc.connect_timeout_ms),
        timeout: std::time::Duration::from_millis(rc.timeout_ms),
        key_prefix: rc.key_prefix.clone(),
        lease: std::time::Duration::from_millis(rc.lease_ms),
        ca_file: (!rc.ca_file.is_empty()).then(|| std::path::PathBuf::from(&rc.ca_file)),
        wait_replicas: rc.wait_replicas,
        wait_timeout: std::time::Duration::from_millis(rc.wait_timeout_ms),
    })
}

/// One Redis (the URL), a Sentinel-watched primary or a Cluster: `sentinels` with
/// `sentinel_service`, or `cluster_nodes`, never both.
fn compile_deployment(
    rc: &super::RedisSection,
    url_path: &str,
    url: &Secret<String>,
    errors: &mut Vec<ConfigError>,
) -> Deployment {
    let addresses = |list: &[String], key: &str, errors: &mut Vec<ConfigError>| {
        for (i, node) in list.iter().enumerate() {
            if split_host_port(node).is_none() {
                errors.push(ConfigError::new(
                    format!("sessions.redis.{key}[{i}]"),
                    "must be host:port",
                ));
            }
        }
    };
    addresses(&rc.cluster_nodes, "cluster_nodes", errors);
    addresses(&rc.sentinels, "sentinels", errors);
    match (rc.cluster_nodes.is_empty(), rc.sentinels.is_empty()) {
        (false, false) => {
            errors.push(ConfigError::new(
                "sessions.redis.sentinels",
                "cannot be used with sessions.redis.cluster_nodes (a cluster fails over by itself)",
            ));
            Deployment::Single
        }
        (false, true) => {
            if !rc.sentinel_service.is_empty() {
                errors.push(ConfigError::new(
                    "sessions.redis.sentinel_service",
                    "is only used with sessions.redis.sentinels",
                ));
            }
            // A cluster has database 0 only.
            let database = redis::IntoConnectionInfo::into_connection_info(url.expose().as_str())
                .map(|info| info.redis_settings().db());
            if database.is_ok_and(|db| db != 0) {
                errors.push(ConfigError::new(
                    url_path,
                    "must name database 0 (or none) with sessions.redis.cluster_nodes",
                ));
            }
            if rc.key_prefix.contains(['{', '}']) {
                errors.push(ConfigError::new(
                    "sessions.redis.key_prefix",
                    "cannot hold { or } with sessions.redis.cluster_nodes (the session's hash tag follows it)",
                ));
            }
            Deployment::Cluster {
                nodes: rc.cluster_nodes.clone(),
            }
        }
        (true, false) => {
            if rc.sentinel_service.is_empty() {
                errors.push(ConfigError::new(
                    "sessions.redis.sentinel_service",
                    "is required with sessions.redis.sentinels",
                ));
            }
            Deployment::Sentinel {
                sentinels: rc.sentinels.clone(),
                service: rc.sentinel_service.clone(),
            }
        }
        (true, true) => {
            if !rc.sentinel_service.is_empty() {
                errors.push(ConfigError::new(
                    "sessions.redis.sentinel_service",
                    "is only used with sessions.redis.sentinels",
                ));
            }
            Deployment::Single
        }
    }
}

/// The labels named under `detection.<key>`; an unknown name is an error at its index.
fn labels_at(names: &[String], key: &str, errors: &mut Vec<ConfigError>) -> Vec<Label> {
    parsed_at(
        names,
        &format!("detection.{key}"),
        Label::parse,
        "unknown label (see GET /v1/entities)",
        errors,
    )
}

/// Each entry of the list at `path` parsed; one that does not parse is an error at its
/// index, with `reason`.
fn parsed_at<T>(
    entries: &[String],
    path: &str,
    parse: impl Fn(&str) -> Option<T>,
    reason: &str,
    errors: &mut Vec<ConfigError>,
) -> Vec<T> {
    let mut out = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        match parse(entry) {
            Some(value) => out.push(value),
            None => errors.push(ConfigError::new(format!("{path}[{i}]"), reason)),
        }
    }
    out
}

/// `policy:` and `tenants:` into [`crate::policy::Policies`], each policy compiled once
/// here to report its errors with their paths. Custom labels the service-wide policy
/// declares may be named by every tenant's.
fn policies(
    policy: Option<&serde_json::Value>,
    tenants: &std::collections::BTreeMap<String, super::TenantSection>,
    threshold: f32,
    errors: &mut Vec<ConfigError>,
) -> crate::policy::Policies {
    let mut policies = crate::policy::Policies::default();
    policies.default_threshold = threshold;
    policies.global = policy_of(policy, "policy", &[], errors);
    let declared = policies.global.declared();
    for (name, tenant) in tenants {
        let path = format!("tenants.{name}.policy");
        let spec = policy_of(tenant.policy.as_ref(), &path, &declared, errors);
        policies.add_tenant(name.clone(), spec, tenant.request_may);
    }
    policies
}

/// One policy of the config at `path`, its problems added to `errors`.
fn policy_of(
    value: Option<&serde_json::Value>,
    path: &str,
    declared: &[Label],
    errors: &mut Vec<ConfigError>,
) -> crate::policy::Spec {
    let Some(value) = value else {
        return crate::policy::Spec::default();
    };
    crate::policy::from_config(value, path, declared, crate::policy::Spec::default())
        .unwrap_or_else(|problems| {
            errors.extend(
                problems
                    .into_iter()
                    .map(|d| ConfigError::new(d.field, d.reason)),
            );
            crate::policy::Spec::default()
        })
}

/// `presidio_api:` checked: a valid address, and no keyless listener off loopback.
fn presidio_listener(
    section: &super::PresidioApiSection,
    errors: &mut Vec<ConfigError>,
) -> Option<(String, Option<http::HeaderName>)> {
    if section.listen.is_empty() {
        return None;
    }
    let Ok(addr) = section.listen.parse::<std::net::SocketAddr>() else {
        errors.push(ConfigError::new(
            "presidio_api.listen",
            "must be an address such as 127.0.0.1:5002",
        ));
        return None;
    };
    let header = if section.api_key_header.is_empty() {
        if !addr.ip().is_loopback() {
            errors.push(ConfigError::new(
                "presidio_api.api_key_header",
                "may be empty (no key) only when presidio_api.listen is a loopback address",
            ));
        }
        None
    } else {
        match http::HeaderName::from_bytes(section.api_key_header.as_bytes()) {
            Ok(name) => Some(name),
            Err(_) => {
                errors.push(ConfigError::new(
                    "presidio_api.api_key_header",
                    "not a valid header name",
                ));
                None
            }
        }
    };
    Some((section.listen.clone(), header))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn defaults_compile() {
        let s = Settings::from_yaml(super::super::DEFAULT_YAML, &no_env).unwrap();
        assert_eq!(s.listen, "0.0.0.0:8080");
        assert!(s.api_keys.is_empty());
        assert_eq!(s.defaults.method, Method::Redact);
    }

    #[test]
    fn environment_overrides_listeners_and_adds_keys() {
        let env = |name: &str| match name {
            "ANONYMIZER_LISTEN" => Some("127.0.0.1:1".into()),
            "ANONYMIZER_API_KEYS" => Some("team-a:aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb".into()),
            _ => None,
        };
        let s = Settings::from_yaml("", &env).unwrap();
        assert_eq!(s.listen, "127.0.0.1:1");
        let tenants: Vec<&str> = s.api_keys.iter().map(|k| k.tenant.as_str()).collect();
        assert_eq!(tenants, ["team-a", "default"]);
    }

    #[test]
    fn collects_every_error_with_its_path_and_no_values() {
        let yaml = "server:\n  listen: nowhere\ndetection:\n  threshold: 2\n  default_entities: [NOPE]\nauth:\n  api_keys:\n    - key: short-secret\n";
        let errs = Settings::from_yaml(yaml, &no_env).unwrap_err();
        let paths: Vec<&str> = errs.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "server.listen",
                "auth.api_keys[0]",
                "detection.default_entities[0]",
                "detection.threshold"
            ]
        );
        assert!(errs.iter().all(|e| !e.message.contains("short-secret")));
    }

    #[test]
    fn excluded_entities_leave_the_default_set_and_unknown_ones_are_errors() {
        let yaml = "detection:\n  excluded_entities: [MEDICAL_CONDITION, PROFESSION]\n";
        let s = Settings::from_yaml(yaml, &no_env).unwrap();
        let labels = &s.defaults.labels;
        assert!(!labels.contains(Label::builtin("MEDICAL_CONDITION")));
        assert!(!labels.contains(Label::builtin("OCCUPATION")));
        assert!(labels.contains(Label::builtin("PERSON")));
        let yaml = "detection:\n  default_entities: [PERSON, AGE]\n  excluded_entities: [AGE]\n";
        let s = Settings::from_yaml(yaml, &no_env).unwrap();
        assert_eq!(
            s.defaults.labels.iter().collect::<Vec<_>>(),
            [Label::builtin("PERSON")]
        );
        let errs =
            Settings::from_yaml("detection:\n  excluded_entities: [NOPE]\n", &no_env).unwrap_err();
        assert_eq!(errs[0].path, "detection.excluded_entities[0]");
    }

    #[test]
    fn detection_lists_and_patterns_compile_into_engine_options() {
        let yaml = r#"
detection:
  allow_list: ["Acme Support"]
  deny_list:
    - {text: "Project Falcon", label: ORG}
  patterns:
    - name: employee_id
      label: PERSON
      regex: '\bEMP-(\d{6})\b'
      score: 0.8
      context: [Employee]
"#;
        let s = Settings::from_yaml(yaml, &no_env).unwrap();
        assert_eq!(s.detection.allow_list, ["Acme Support"]);
        assert_eq!(
            s.detection.deny_list,
            [("Project Falcon".to_owned(), Label::builtin("ORGANIZATION"))]
        );
        assert_eq!(s.detection.patterns[0].context, ["employee"]);
        crate::engine::Engine::from_options(&s.detection).expect("engine builds");
    }

    #[test]
    fn bad_detection_entries_are_reported_by_path_without_values() {
        let yaml = r#"
detection:
  allow_list: [" "]
  deny_list:
    - {text: "secret-phrase", label: NOPE}
  patterns:
    - {name: a, label: PERSON, regex: "(unclosed-secret", score: 2}
    - {name: a, label: PERSON, regex: "x*"}
"#;
        let errs = Settings::from_yaml(yaml, &no_env).unwrap_err();
        let paths: Vec<&str> = errs.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "detection.allow_list[0]",
                "detection.deny_list[0].label",
                "detection.patterns[0].regex",
                "detection.patterns[0].score",
                "detection.patterns[1].name",
                "detection.patterns[1].regex",
            ]
        );
        assert!(errs.iter().all(|e| !e.message.contains("secret")));
    }

    #[test]
    fn sessions_and_secrets_compile_with_env_overriding_the_file() {
        let s = Settings::from_yaml(super::super::DEFAULT_YAML, &no_env).unwrap();
        assert_eq!(s.sessions, SessionConfig::default());
        assert!(s.master_secret.is_none());
        let env = |name: &str| (name == "ANONYMIZER_SECRET").then(|| "e".repeat(32));
        let yaml = "secrets:\n  master_secret: \"short-file-secret\"\n";
        let s = Settings::from_yaml(yaml, &env).unwrap();
        assert_eq!(s.master_secret, Some(MasterSecret::new(b"e".repeat(32))));
        assert!(!format!("{s:?}").contains("eeee"));
        let errs = Settings::from_yaml(yaml, &no_env).unwrap_err();
        assert_eq!(errs[0].path, "secrets.master_secret");
        assert!(!errs[0].message.contains("short-file-secret"));
        let errs = Settings::from_yaml("sessions:\n  ttl_secs: 0\n", &no_env).unwrap_err();
        assert_eq!(errs[0].path, "sessions.ttl_secs");
    }

    #[test]
    fn the_session_store_is_memory_unless_redis_is_asked_for_by_file_or_env() {
        let s = Settings::from_yaml(super::super::DEFAULT_YAML, &no_env).unwrap();
        assert_eq!(s.session_store, SessionBackend::Memory);
        let secret = "s".repeat(32);
        let url = "redis://app:pa55word@redis.internal:6380/2";
        let env = |name: &str| match name {
            "ANONYMIZER_SESSION_STORE" => Some("redis".to_owned()),
            "ANONYMIZER_REDIS_URL" => Some(url.to_owned()),
            "ANONYMIZER_SECRET" => Some(secret.clone()),
            _ => None,
        };
        let s = Settings::from_yaml("sessions:\n  redis:\n    timeout_ms: 250\n", &env).unwrap();
        let SessionBackend::Redis(redis) = &s.session_store else {
            panic!("redis store expected");
        };
        assert_eq!(redis.url.expose(), url);
        assert_eq!(redis.timeout, std::time::Duration::from_millis(250));
        assert!(
            !format!("{s:?}").contains("pa55word"),
            "Debug hides the URL"
        );
        let errs = Settings::from_yaml(
            "sessions:\n  store: disk\n  redis: {url: 'x:pa55word'}\n",
            &no_env,
        )
        .unwrap_err();
        assert_eq!(errs[0].path, "sessions.store");
        let errs = Settings::from_yaml(
            "sessions:\n  store: redis\n  redis: {url: 'x:pa55word', pool_size: 0}\n",
            &no_env,
        )
        .unwrap_err();
        let paths: Vec<&str> = errs.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "sessions.redis.url",
                "sessions.redis.pool_size",
                "secrets.master_secret"
            ]
        );
        assert!(errs.iter().all(|e| !e.message.contains("pa55word")));
    }

    #[test]
    fn a_cluster_or_sentinels_are_named_by_their_addresses_never_both() {
        let env = |name: &str| (name == "ANONYMIZER_SECRET").then(|| "s".repeat(32));
        let redis = |yaml: &str| {
            let text = format!("sessions:\n  store: redis\n  redis:\n{yaml}");
            Settings::from_yaml(&text, &env)
        };
        let deployment = |yaml: &str| match redis(yaml).unwrap().session_store {
            SessionBackend::Redis(config) => (config.deployment, config.wait_replicas),
            SessionBackend::Memory => panic!("redis store expected"),
        };
        assert_eq!(deployment("    pool_size: 2\n"), (Deployment::Single, 0));
        let nodes = vec!["10.0.0.1:7000".to_owned(), "redis-2:7001".to_owned()];
        assert_eq!(
            deployment("    cluster_nodes: [10.0.0.1:7000, 'redis-2:7001']\n"),
            (
                Deployment::Cluster {
                    nodes: nodes.clone()
                },
                0
            )
        );
        // `${VAR}` of a comma-separated variable gives one string.
        assert_eq!(
            deployment("    cluster_nodes: '10.0.0.1:7000, redis-2:7001,'\n    wait_replicas: 1\n"),
            (
                Deployment::Cluster {
                    nodes: nodes.clone()
                },
                1
            )
        );
        assert_eq!(
            deployment("    sentinels: '10.0.0.1:26379'\n    sentinel_service: mymaster\n"),
            (
                Deployment::Sentinel {
                    sentinels: vec!["10.0.0.1:26379".into()],
                    service: "mymaster".into()
                },
                0
            )
        );
        let paths = |yaml: &str| -> Vec<String> {
            let errs = redis(yaml).unwrap_err();
            assert!(errs
                .iter()
                .all(|e| !e.message.contains("pa55") && !e.message.contains("10.9")));
            errs.into_iter().map(|e| e.path).collect()
        };
        assert_eq!(
            paths("    cluster_nodes: [10.9.0.1:7000]\n    sentinels: [10.9.0.2:26379]\n    sentinel_service: m\n"),
            ["sessions.redis.sentinels"]
        );
        assert_eq!(
            paths("    sentinels: [10.9.0.2:26379]\n"),
            ["sessions.redis.sentinel_service"]
        );
        assert_eq!(
            paths("    sentinel_service: m\n"),
            ["sessions.redis.sentinel_service"]
        );
        assert_eq!(
            paths("    cluster_nodes: '10.9.0.1:7000,10.9.0.1,pa55:x'\n"),
            [
                "sessions.redis.cluster_nodes[1]",
                "sessions.redis.cluster_nodes[2]"
            ]
        );
        assert_eq!(
            paths("    url: redis://:pa55@h/2\n    cluster_nodes: [10.9.0.1:7000]\n    key_prefix: 'a{b}'\n"),
            ["sessions.redis.url", "sessions.redis.key_prefix"]
        );
        assert_eq!(
            paths("    wait_replicas: 1\n    wait_timeout_ms: 0\n"),
            ["sessions.redis.wait_timeout_ms"]
        );
    }

    #[test]
    fn the_default_model_is_ours_and_rampart_comes_with_its_own_file() {
        let models = std::path::Path::new("models");
        let s = Settings::from_yaml(super::super::DEFAULT_YAML, &no_env).unwrap();
        let english = ModelSettings {
            languages: LanguageScope {
                only: None,
                except: crate::engine::tiers::ner::multilingual_languages(),
            },
            ..ModelSettings::anonymizer_ner(models)
        };
        assert_eq!(s.model, Some(english));
        assert_eq!(s.extra_models, [ModelSettings::multilingual(models)]);
        let yaml = include_str!("../../conf/models/rampart.yaml");
        let s = Settings::from_yaml(yaml, &no_env).unwrap();
        assert_eq!(s.model, Some(ModelSettings::rampart(models)));
        assert!(s.extra_models.is_empty());
        let yaml = include_str!("../../conf/models/anonymizer-ner-rampart.yaml");
        let s = Settings::from_yaml(yaml, &no_env).unwrap();
        assert_eq!(s.model, Some(ModelSettings::anonymizer_ner(models)));
        assert_eq!(s.extra_models, [ModelSettings::rampart(models)]);
        let s = Settings::from_yaml("model:\n  enabled: false\n", &no_env).unwrap();
        assert!(s.model.is_none() && s.extra_models.is_empty(), "rules only");
        let errs = Settings::from_yaml("extra_models: []\n", &no_env).unwrap_err();
        assert_eq!(errs[0].path, "model.skip_languages");
        assert!(
            errs[0].message.contains("no model reads de"),
            "{}",
            errs[0].message
        );
        let errs = Settings::from_yaml("extra_models:\n  - threads: 0\n", &no_env).unwrap_err();
        assert_eq!(errs[0].path, "extra_models[0].threads");
        let s = Settings::from_yaml("model:\n  enabled: false\n", &no_env).unwrap();
        assert!(s.model.is_none());
        let s = Settings::from_yaml("model:\n  inference_timeout_ms: 250\n", &no_env).unwrap();
        assert_eq!(
            s.model.expect("model on").inference_timeout,
            std::time::Duration::from_millis(250)
        );
        let s = Settings::from_yaml("model:\n  spinning: true\n", &no_env).unwrap();
        assert!(s.model.expect("model on").spinning);
        assert!(!s.extra_models[0].spinning, "each model its own");
    }

    #[test]
    fn model_errors_name_their_field_and_label_row() {
        let yaml = "model:\n  threads: 0\n  window_tokens: 64\n  window_overlap_tokens: 40\n  inference_timeout_ms: 0\n  labels:\n    PER: PERSON\n    ORG: NOPE\n    LOC: {label: ADDRESS, alone: NOWHERE}\n    MISC: ~\n";
        let errs = Settings::from_yaml(yaml, &no_env).unwrap_err();
        let paths: Vec<&str> = errs.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "model.threads",
                "model.window_overlap_tokens",
                "model.inference_timeout_ms",
                "model.labels.LOC.alone",
                "model.labels.ORG"
            ]
        );
        let yaml = "model:\n  labels:\n    PER: PERSON\n    MISC: ~\n    CITY: {label: ADDRESS, alone: LOC}\n";
        let model = Settings::from_yaml(yaml, &no_env).unwrap().model.unwrap();
        let rows: Vec<(&str, Option<&str>, Option<&str>)> = model
            .tags
            .iter()
            .map(|t| {
                (
                    t.tag.as_str(),
                    t.label.map(|l| l.as_str()),
                    t.alone.map(|l| l.as_str()),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("CITY", Some("ADDRESS"), Some("LOCATION")),
                ("MISC", None, None),
                ("PER", Some("PERSON"), None)
            ]
        );
    }

    #[test]
    fn yaml_errors_name_the_line_and_hide_values() {
        let errs =
            Settings::from_yaml("server:\n  threads: \"secret-value\"\n", &no_env).unwrap_err();
        assert_eq!(errs[0].path, "line 2");
        assert!(
            !errs[0].message.contains("secret-value"),
            "{}",
            errs[0].message
        );
        let errs = Settings::from_yaml("servr: {}\n", &no_env).unwrap_err();
        assert!(
            errs[0].message.contains("unknown field `servr`"),
            "{}",
            errs[0].message
        );
    }
}
