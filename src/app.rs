//! Wiring: settings → engine, anonymizer, API, metrics → a pingora `Server`.

pub mod allocator;
pub mod reload;

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
use crate::engine::{BuildError, Engine, Recognizer};
use crate::methods::{KeyRing as MethodKeys, Memory};
use crate::server::auth::KeyRing;
use crate::server::guard::{ConnectionLimits, Guard};
use crate::server::limits::RateLimiter;
use crate::server::{ApiService, Live};
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
    /// What a configuration reload replaces ([`App::watch_config`]).
    pub reloadable: Option<reload::Reloadable>,
    /// Sweeps expired sessions until dropped (memory store only; Redis expires its own).
    _sweeper: Option<Ticker>,
}

impl App {
    /// Reloads the configuration at `path` (`None`: the built-in default) on SIGHUP and
    /// whenever the file changes.
    ///
    /// # Errors
    /// When the watching thread or its signal handler cannot be set up.
    pub fn watch_config(&mut self, path: Option<std::path::PathBuf>) -> std::io::Result<()> {
        match self.reloadable.take() {
            Some(reloadable) => reloadable.watch(path),
            None => Ok(()),
        }
    }
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
    let base = base_recognizers(settings)?;
    let engine = Arc::new(engine_over(&base, &settings.detection)?);
    let tiers = engine.tiers();
    let models = engine.models().into_iter().cloned().collect();
    let defaults = defaults_for(settings, &engine);
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
            .with_policies(settings.policies.clone()),
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
    let live = Live::new(settings.routes.clone(), KeyRing::new(&keys), rate_limiter);
    let presidio = settings.presidio.as_ref().map(|(listen, header)| {
        let service = ApiService::new(
            Arc::clone(&api),
            Arc::clone(&anonymizer),
            Arc::clone(&sessions),
            Arc::clone(&live),
        )
        .presidio(header.clone());
        (listen.clone(), service)
    });
    let service = ApiService::new(
        Arc::clone(&api),
        Arc::clone(&anonymizer),
        sessions,
        Arc::clone(&live),
    );
    let reloadable = reload::Reloadable {
        anonymizer: Arc::clone(&anonymizer),
        api: Arc::clone(&api),
        live: Arc::clone(&live),
        base,
        started: settings.clone(),
    };

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
        reloadable: Some(reloadable),
        _sweeper: sweeper,
    })
}

/// The configured defaults, their labels narrowed to what `engine` can detect: a label
/// without a recognizer would silently find nothing.
fn defaults_for(settings: &Settings, engine: &Engine) -> crate::anonymizer::Defaults {
    let mut defaults = settings.defaults.clone();
    defaults.labels = crate::text::LabelSet::new(
        defaults
            .labels
            .iter()
            .filter(|l| engine.supported_labels().contains(*l))
            .collect(),
    );
    defaults
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
    Ok(engine_over(
        &base_recognizers(settings)?,
        &settings.detection,
    )?)
}

/// The recognizers an engine is built over whatever the detection options: the
/// built-in tiers and the loaded models, shared by every engine a reload builds.
///
/// # Errors
/// A bad built-in recognizer, or a required model that cannot be loaded.
pub fn base_recognizers(settings: &Settings) -> Result<Vec<Arc<dyn Recognizer>>, StartError> {
    let mut models = Vec::new();
    let mut name_guesses = true;
    for model in settings.model.iter().chain(&settings.extra_models) {
        match Engine::model_tier(model) {
            Ok(ner) => {
                name_guesses &= model.name_guesses;
                models.push(ner);
            }
            Err(e) if model.required => return Err(e.into()),
            Err(e) => tracing::warn!(error = %e, "a model tier is disabled; starting without it"),
        }
    }
    let builtin = if name_guesses {
        Engine::builtin_recognizers()?
    } else {
        Engine::builtin_recognizers_beside_model()?
    };
    let mut base: Vec<Arc<dyn Recognizer>> = builtin.into_iter().map(Arc::from).collect();
    for ner in models {
        base.push(Arc::new(ner));
    }
    Ok(base)
}

/// An engine of `base` with the configured detection options (allow and deny lists,
/// patterns).
///
/// # Errors
/// A configured pattern that does not compile.
pub fn engine_over(
    base: &[Arc<dyn Recognizer>],
    options: &crate::engine::EngineOptions,
) -> Result<Engine, BuildError> {
    let recognizers: Vec<Box<dyn Recognizer>> = base
        .iter()
        .map(|r| Box::new(Arc::clone(r)) as Box<dyn Recognizer>)
        .collect();
    Engine::with_options(recognizers, options)
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
