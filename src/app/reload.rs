//! Configuration reload without a restart: on SIGHUP, or when the file changes, the
//! file is read and validated whole; a valid one replaces the tenants' policies, the
//! API keys, the routes, the default labels, threshold and method, and the configured
//! allow list, deny list and patterns, from the next request on. An invalid one is
//! refused with its errors logged, and the running configuration stays.
//!
//! Listeners, threads, limits, the model, sessions and secrets are read at start only:
//! a reload that changes them says so in the log and keeps the running ones.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::anonymizer::Anonymizer;
use crate::api::Api;
use crate::config::{env, Settings};
use crate::engine::Recognizer;
use crate::server::auth::KeyRing;
use crate::server::limits::RateLimiter;
use crate::server::Live;
use crate::telemetry::metrics;

/// How often the file's modification time is looked at.
const POLL: Duration = Duration::from_secs(1);

/// What a reload replaces, and what it is checked against.
pub struct Reloadable {
    pub anonymizer: Arc<Anonymizer>,
    pub api: Arc<Api>,
    pub live: Arc<Live>,
    /// The built-in tiers and loaded models every new engine is built over.
    pub base: Vec<Arc<dyn Recognizer>>,
    /// The settings the process started with, for what a reload cannot change.
    pub started: Settings,
}

/// Why a reload was refused; never holds a configured value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub Vec<String>);

impl Reloadable {
    /// Reads, validates and applies the configuration in `text`.
    ///
    /// # Errors
    /// Every problem of the file; nothing was applied.
    pub fn apply(&self, text: &str) -> Result<(), Refused> {
        let settings = Settings::from_yaml(text, &env::process_lookup)
            .map_err(|errors| Refused(errors.iter().map(ToString::to_string).collect()))?;
        let engine = super::engine_over(&self.base, &settings.detection)
            .map_err(|e| Refused(vec![e.to_string()]))?;
        for key in restart_only(&self.started, &settings) {
            tracing::warn!(
                key,
                "config reload: this key takes effect at the next start; the running value stays"
            );
        }
        let defaults = super::defaults_for(&settings, &engine);
        self.anonymizer.reload(Arc::new(engine), defaults);
        self.api.set_policies(settings.policies.clone());
        // Without configured keys the process runs on the key it generated at start.
        let keys = (!settings.api_keys.is_empty()).then(|| KeyRing::new(&settings.api_keys));
        let count = if settings.api_keys.is_empty() {
            1
        } else {
            settings.api_keys.len()
        };
        let limiter = settings
            .rate_limit
            .map(|limit| RateLimiter::new(limit, count));
        self.live.replace(settings.routes.clone(), keys, limiter);
        Ok(())
    }

    /// Reloads from `path` (or the built-in default when `None`), logging and counting
    /// the outcome.
    pub fn reload_from(&self, path: Option<&PathBuf>, why: &'static str) {
        let text = match path {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => {
                    metrics::CONFIG_RELOADS
                        .with_label_values(&["refused"])
                        .inc();
                    tracing::warn!(error = %e.kind(), why, "config reload refused: the file cannot be read; the running configuration stays");
                    return;
                }
            },
            None => crate::config::DEFAULT_YAML.to_owned(),
        };
        match self.apply(&text) {
            Ok(()) => {
                metrics::CONFIG_RELOADS
                    .with_label_values(&["applied"])
                    .inc();
                tracing::info!(why, "config reloaded");
            }
            Err(Refused(errors)) => {
                metrics::CONFIG_RELOADS
                    .with_label_values(&["refused"])
                    .inc();
                tracing::warn!(
                    why,
                    errors = ?errors,
                    "config reload refused; the running configuration stays"
                );
            }
        }
    }

    /// Watches `path` for SIGHUP and changes, on a thread of its own, for the life of the
    /// process.
    ///
    /// # Errors
    /// When the thread or its signal handler cannot be set up.
    pub fn watch(self, path: Option<PathBuf>) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        // Registered here, before the server runs: SIGHUP must never take the default
        // action (ending the process).
        let mut hangup = runtime.block_on(async {
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        })?;
        std::thread::Builder::new()
            .name("config-reload".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let mut seen = modified(path.as_ref());
                    let mut tick = tokio::time::interval(POLL);
                    loop {
                        tokio::select! {
                            _ = hangup.recv() => {
                                seen = modified(path.as_ref());
                                self.reload_from(path.as_ref(), "SIGHUP");
                            }
                            _ = tick.tick() => {
                                let now = modified(path.as_ref());
                                if now != seen {
                                    seen = now;
                                    self.reload_from(path.as_ref(), "file changed");
                                }
                            }
                        }
                    }
                });
            })?;
        Ok(())
    }
}

fn modified(path: Option<&PathBuf>) -> Option<SystemTime> {
    std::fs::metadata(path?).and_then(|m| m.modified()).ok()
}

/// The keys read at start only whose value `next` changes.
fn restart_only(started: &Settings, next: &Settings) -> Vec<&'static str> {
    let mut changed = Vec::new();
    let mut check = |key: &'static str, same: bool| {
        if !same {
            changed.push(key);
        }
    };
    check("server.listen", started.listen == next.listen);
    check(
        "server.metrics_listen",
        started.metrics_listen == next.metrics_listen,
    );
    check("server.threads", started.threads == next.threads);
    check("limits", started.limits == next.limits);
    check("presidio_api", started.presidio == next.presidio);
    check(
        "model",
        format!("{:?}", started.model) == format!("{:?}", next.model)
            && format!("{:?}", started.extra_models) == format!("{:?}", next.extra_models),
    );
    check(
        "sessions",
        format!("{:?}", started.sessions) == format!("{:?}", next.sessions)
            && format!("{:?}", started.session_store) == format!("{:?}", next.session_store),
    );
    check(
        "secrets.master_secret",
        started
            .master_secret
            .as_ref()
            .map(|s| s.as_bytes().to_vec())
            == next.master_secret.as_ref().map(|s| s.as_bytes().to_vec()),
    );
    changed
}
