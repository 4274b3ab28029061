//! Wiring: settings → engine, anonymizer, API, metrics → a pingora `Server`.

use std::sync::Arc;
use std::time::Duration;

use pingora::server::configuration::ServerConf;
use pingora::server::Server;
use pingora::services::listening::Service;

use crate::anonymizer::Anonymizer;
use crate::api::Api;
use crate::config::settings::Secret;
use crate::config::settings::SessionBackend;
use crate::config::{ApiKey, Settings};
use crate::engine::tiers::ner::NerRecognizer;
use crate::engine::{BuildError, Engine};
use crate::methods::{KeyRing as MethodKeys, Memory};
use crate::server::auth::KeyRing;
use crate::server::guard::{ConnectionLimits, Guard};
use crate::server::limits::RateLimiter;
use crate::server::ApiService;
use crate::session::redis::RedisStore;
use crate::session::ticker::Ticker;
use crate::session::{MemoryStore, SessionStore};
use crate::telemetry::metrics;

/// A server ready to run, and what start-up should tell the operator.
pub struct App {
    pub server: Server,
    /// A key generated because none was configured (print it once).
    pub generated_key: Option<String>,
    /// No master secret is configured: HASH/ENCRYPT tokens change at every start.
    pub generated_secret: bool,
    pub tiers: Vec<&'static str>,
    /// The loaded models' names, versions and checksums (logged at start).
    pub models: Vec<crate::engine::tiers::ner::ModelIdentity>,
    /// Sweeps expired sessions until dropped (memory store only; Redis expires its own).
    _sweeper: Option<Ticker>,
}

/// Why the service cannot start; the message names no configured value.
#[derive(Debug)]
pub struct StartError(String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<BuildError> for StartError {
    fn from(e: BuildError) -> Self {
        StartError(e.to_string())
    }
}

/// Builds the engine and the pingora server for `settings`.
///
/// # Errors
/// When the detection engine cannot be built.
pub fn build(settings: &Settings) -> Result<App, StartError> {
    let engine = Arc::new(build_engine(settings)?);
    let tiers = engine.tiers();
    let models = engine.models().into_iter().cloned().collect();
    // Only labels the loaded engine can detect are defaults: a label without a
    // recognizer would silently find nothing.
    let mut defaults = settings.defaults.clone();
    defaults.labels = crate::text::LabelSet::new(
        defaults
            .labels
            .iter()
            .filter(|l| engine.supported_labels().contains(*l))
            .collect(),
    );
    let keys = MethodKeys::new(settings.master_secret.clone());
    let generated_secret = keys.is_generated();
    let (sessions, sweeper) = build_sessions(settings)?;
    let anonymizer = Arc::new(
        Anonymizer::new(engine, defaults)
            .with_keys(keys)
            .with_sessions(Arc::clone(&sessions)),
    );
    let api = Arc::new(
        Api::new(Arc::clone(&anonymizer), settings.limits.clone())
            .with_policies(Arc::new(settings.policies.clone())),
    );

    let mut keys = settings.api_keys.clone();
    let generated_key = if keys.is_empty() {
        let key = generate_key();
        keys.push(ApiKey {
            tenant: "default".into(),
            key: Secret::new(key.clone()),
        });
        Some(key)
    } else {
        None
    };
    let rate_limiter = settings
        .rate_limit
        .map(|limit| RateLimiter::new(limit, keys.len()));
    let presidio = settings.presidio.as_ref().map(|(listen, header)| {
        let service = ApiService::new(
            Arc::clone(&api),
            Arc::clone(&anonymizer),
            Arc::clone(&sessions),
            Vec::new(),
            KeyRing::new(&keys),
            settings
                .rate_limit
                .map(|limit| RateLimiter::new(limit, keys.len())),
        )
        .presidio(header.clone());
        (listen.clone(), service)
    });
    let service = ApiService::new(
        api,
        anonymizer,
        sessions,
        settings.routes.clone(),
        KeyRing::new(&keys),
        rate_limiter,
    );

    let conf = ServerConf {
        threads: settings.threads,
        grace_period_seconds: Some(settings.grace_period_secs),
        graceful_shutdown_timeout_seconds: Some(settings.shutdown_timeout_secs),
        ..ServerConf::default()
    };
    let mut server = Server::new_with_opt_and_conf(None, conf);
    server.bootstrap();
    let proxy = pingora::proxy::http_proxy(&server.configuration, service);
    let limits = ConnectionLimits {
        max_connections: settings.max_connections,
        header_timeout: Duration::from_millis(settings.header_timeout_ms),
        keepalive_timeout: Duration::from_secs(settings.keepalive_timeout_secs),
    };
    let mut listener = Service::new("anonymizer".into(), Guard::new(proxy, limits));
    listener.add_tcp(&settings.listen);
    server.add_service(listener);
    if let Some((listen, service)) = presidio {
        let proxy = pingora::proxy::http_proxy(&server.configuration, service);
        let mut listener = Service::new("presidio-api".into(), Guard::new(proxy, limits));
        listener.add_tcp(&listen);
        server.add_service(listener);
    }

    metrics::init();
    let mut prometheus = pingora_prometheus::prometheus_http_service();
    prometheus.add_tcp(&settings.metrics_listen);
    server.add_service(prometheus);

    Ok(App {
        server,
        generated_key,
        generated_secret,
        tiers,
        models,
        _sweeper: sweeper,
    })
}

/// A session store and, for the memory store, its sweeper.
type Sessions = (Arc<dyn SessionStore<Memory>>, Option<Ticker>);

/// The session store the settings name: in memory (with its sweeper), or the shared
/// Redis store, sealed with keys from the master secret (the settings require one).
fn build_sessions(settings: &Settings) -> Result<Sessions, StartError> {
    match (&settings.session_store, &settings.master_secret) {
        (SessionBackend::Redis(redis), Some(secret)) => {
            let store =
                RedisStore::<Memory>::new(redis.clone(), settings.sessions, secret.as_bytes())
                    .map_err(|e| StartError(e.to_string()))?;
            Ok((Arc::new(store), None))
        }
        (SessionBackend::Redis(_), None) => Err(StartError(
            "sessions.store: redis needs a configured master secret".into(),
        )),
        (SessionBackend::Memory, _) => {
            let store = Arc::new(MemoryStore::<Memory>::new(settings.sessions));
            let sweeper = store
                .start_sweeper()
                .map_err(|e| StartError(format!("cannot start the session sweeper: {e}")))?;
            Ok((store, Some(sweeper)))
        }
    }
}

/// The detection engine the settings describe: patterns, dictionaries, and the model
/// tier when configured (required unless `model.required: false`).
///
/// # Errors
/// A bad recognizer, or a required model that cannot be loaded.
pub fn build_engine(settings: &Settings) -> Result<Engine, StartError> {
    let mut models = Vec::new();
    let mut name_guesses = true;
    for model in settings.model.iter().chain(&settings.extra_models) {
        match NerRecognizer::load(model) {
            Ok(ner) => {
                name_guesses &= model.name_guesses;
                models.push(ner);
            }
            Err(e) if model.required => return Err(e.into()),
            Err(e) => tracing::warn!(error = %e, "a model tier is disabled; starting without it"),
        }
    }
    let mut recognizers = if name_guesses {
        Engine::builtin_recognizers()?
    } else {
        Engine::builtin_recognizers_beside_model()?
    };
    for ner in models {
        recognizers.push(Box::new(ner));
    }
    Ok(Engine::with_options(recognizers, &settings.detection)?)
}

/// 32 random bytes, base64url: a key nobody can guess.
fn generate_key() -> String {
    use base64::Engine as _;
    let bytes: [u8; 32] = rand::random();
    format!(
        "anon_{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    )
}
