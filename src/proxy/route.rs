//! Proxy routes: the YAML schema of `routes:` and its compiled, matchable form.
//! A route names one upstream; nothing else is ever reachable (never an open proxy).

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use super::credentials::{self, KeyLocation};
use super::format::logs::loki::LokiFields;
use super::format::logs::otlp::OtlpFields;
use super::format::logs::LogFields;
use super::format::BodyFormat;
use super::jsonpath::JsonPath;
use super::presets;
use super::scan::ScanAnswers;
use crate::anonymizer::Options;
use crate::methods::Method;
use crate::policy::{from_config, Limits, RequestMay, Spec};
use crate::secret::Secret;
use crate::text::{Label, LabelSet};

/// How callers of a route authenticate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AuthMode {
    /// A key of ours, where the route's `api_key_in` says (by default where the
    /// preset's SDK puts its key), checked and never forwarded.
    #[default]
    ApiKey,
    /// No key of ours: the caller's own upstream credentials go through untouched
    /// (a key of ours found at `api_key_in` is still taken off).
    Passthrough,
}

/// Whose credential the provider gets on an `api_key` route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKey {
    /// The operator's, from `upstream.add_headers`; an empty value there is a
    /// start-up error.
    #[default]
    Configured,
    /// The caller's own (bring your own key): whatever sits at `provider_key_in` goes
    /// upstream; our key is read elsewhere (`api_key_in`, by default `x-api-key`).
    Caller,
    /// The operator's when `add_headers` gives one, else the caller's: decided at
    /// start-up from whether the variables the values read are set.
    ConfiguredOrCaller,
}

/// What an answer that cannot be restored becomes. Requests always fail closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RestoreFailure {
    /// A 502 in our error shape (whole answers); a stream ends where it failed.
    #[default]
    Error,
    /// The upstream's bytes as they came (placeholders and all).
    Passthrough,
}

/// What to do with a body the route cannot parse (e.g. another content type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OnUnparsed {
    #[default]
    Reject,
    Passthrough,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteConfig {
    /// Name used in metrics and logs.
    pub name: String,
    #[serde(rename = "match", default)]
    pub matcher: MatchConfig,
    pub upstream: UpstreamConfig,
    /// A preset name (`openai_chat`, `loki_push`, …) supplying body format and paths.
    #[serde(default)]
    pub preset: Option<String>,
    /// Request fields to anonymize (added to the preset's).
    #[serde(default)]
    pub anonymize: Vec<String>,
    /// Response fields to restore (added to the preset's); `["$"]` means every string.
    #[serde(default)]
    pub restore: Vec<String>,
    /// Fields of streamed (SSE) events that carry fragments of a text (added to the
    /// preset's).
    #[serde(default)]
    pub restore_stream: Vec<String>,
    /// Fields of streamed events that carry a complete text (added to the preset's).
    #[serde(default)]
    pub restore_events: Vec<String>,
    /// Signed fields, never touched either way (added to the preset's).
    #[serde(default)]
    pub signed: Vec<String>,
    /// Where callers put our key (`bearer`, a header name, `query:NAME`); empty = the
    /// preset's default (else `x-api-key`).
    #[serde(default)]
    pub api_key_in: Vec<String>,
    /// Whose credential the provider gets (see [`ProviderKey`]).
    #[serde(default)]
    pub provider_key: ProviderKey,
    /// Where the provider reads its credential; empty = the preset's.
    #[serde(default)]
    pub provider_key_in: Vec<String>,
    /// Prefixes of request headers that mirror body fields (added to the preset's).
    #[serde(default)]
    pub mirrored_headers: Vec<String>,
    /// What an answer that cannot be restored becomes.
    #[serde(default)]
    pub restore_failure: RestoreFailure,
    /// Personal data an answer introduces (not restored by us): `off`, `anonymize`
    /// or `monitor`.
    #[serde(default)]
    pub scan_answers: ScanAnswers,
    /// Body format (`json`, `ndjson`, `elasticsearch_bulk`, `lines`); default from the
    /// preset, else `json`.
    #[serde(default)]
    pub body: Option<BodyFormat>,
    #[serde(default)]
    pub auth: AuthMode,
    #[serde(default)]
    pub on_unparsed: OnUnparsed,
    /// Where a conversation's session id comes from.
    #[serde(default)]
    pub session: Option<SessionSource>,
    /// Labels to detect; empty = the service default.
    #[serde(default)]
    pub entities: Vec<String>,
    /// Confidence threshold; default = the service default.
    #[serde(default)]
    pub threshold: Option<f64>,
    /// De-identification method; default = the service default.
    #[serde(default)]
    pub method: Option<String>,
    /// Per-label policy: thresholds, operators, actions (`block`, `monitor`), allow
    /// list, the route's own recognizers, context words; the fields of a `/v1`
    /// request's `detection_config` and `anonymization_config`, side by side.
    #[serde(default)]
    pub policy: Option<serde_json::Value>,
    /// OTLP logs routes: which attribute values are anonymized besides record bodies
    /// (`log_attributes` on, `resource_attributes` and `scope_attributes` off by default).
    #[serde(default)]
    pub otlp: OtlpFields,
    /// Loki push routes: `structured_metadata` values too (off by default).
    #[serde(default)]
    pub loki: LokiFields,
    /// AWS routes (Bedrock): the credentials, region and service the forwarded
    /// request is signed with (SigV4), after its body was rewritten.
    #[serde(default)]
    pub aws: Option<AwsConfig>,
    /// Vertex AI routes: the operator's Google access token, from the metadata server or
    /// a service-account key file.
    #[serde(default)]
    pub google_credentials: Option<GoogleCredentials>,
}

/// Where a route's Google access token comes from: one of the two.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoogleCredentials {
    /// The metadata server, `host[:port]` (`metadata.google.internal` on Google Cloud).
    #[serde(default)]
    pub metadata_host: Option<String>,
    /// A service-account key file (JSON), elsewhere.
    #[serde(default)]
    pub service_account_file: Option<String>,
}

/// How a route signs what it forwards to AWS.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AwsConfig {
    pub region: String,
    #[serde(default = "default_aws_service")]
    pub service: String,
    pub access_key_id: String,
    pub secret_access_key: Secret<String>,
    /// Temporary credentials' token; empty = none.
    #[serde(default)]
    pub session_token: Option<Secret<String>>,
}

fn default_aws_service() -> String {
    "bedrock".into()
}

/// A compiled [`AwsConfig`].
#[derive(Debug, Clone)]
pub struct AwsSigning {
    pub region: String,
    pub service: String,
    pub credentials: super::sigv4::Credentials,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct MatchConfig {
    /// `Host` header (without port), case-insensitive; absent = any host.
    #[serde(default)]
    pub host: Option<String>,
    /// Path prefix, matched on whole segments; absent = every path.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Whole paths, `*` standing for any one segment (`/*/_bulk`); empty = any path.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Methods; empty = any.
    #[serde(default)]
    pub methods: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamConfig {
    /// `http://host[:port][/base]` or `https://…`.
    pub url: String,
    #[serde(default = "default_connect_ms")]
    pub connect_timeout_ms: u64,
    #[serde(default = "default_read_ms")]
    pub read_timeout_ms: u64,
    /// Replace the matched `path_prefix` with this before forwarding.
    #[serde(default)]
    pub rewrite_prefix: Option<String>,
    /// Headers set on every forwarded request, e.g. the provider's API key from
    /// `${PROVIDER_KEY}` when callers authenticate with our key. Values are secrets.
    #[serde(default)]
    pub add_headers: std::collections::BTreeMap<String, Secret<String>>,
}

fn default_connect_ms() -> u64 {
    5_000
}

fn default_read_ms() -> u64 {
    120_000
}

/// Where a conversation's session id comes from: exactly one of the two.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SessionSource {
    /// A request header holding the session id.
    #[serde(default)]
    pub header: Option<String>,
    /// A JSON path into the request body (e.g. `$.user`).
    #[serde(default)]
    pub json_path: Option<String>,
}

/// A validated upstream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// Path prepended to every forwarded path (from the URL), without trailing `/`.
    pub base_path: String,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    pub rewrite_prefix: Option<String>,
    /// Values are provider credentials: secrets, and marked sensitive for HTTP/2's
    /// header compression.
    pub add_headers: Vec<(http::HeaderName, Secret<http::HeaderValue>)>,
}

/// A compiled route.
#[derive(Debug, Clone)]
pub struct Route {
    pub name: String,
    pub host: Option<String>,
    pub path_prefix: Option<String>,
    pub paths: Vec<String>,
    pub methods: Vec<String>,
    pub upstream: Upstream,
    pub body: BodyFormat,
    pub anonymize: Vec<JsonPath>,
    pub restore: Vec<JsonPath>,
    pub restore_stream: Vec<JsonPath>,
    pub restore_events: Vec<JsonPath>,
    /// Signed fields: every other path skips what these select.
    pub signed: Vec<JsonPath>,
    pub auth: AuthMode,
    /// Where our key may be; credentials found here are never forwarded.
    pub key_locations: Vec<KeyLocation>,
    /// Where callers' own provider credentials are forwarded from (bring your own
    /// key); empty when the operator's key goes upstream. A key of ours found here is
    /// still taken off.
    pub caller_key_in: Vec<KeyLocation>,
    /// Lower-case prefixes of request headers whose values mirror body fields.
    pub mirrored_headers: Vec<String>,
    pub restore_failure: RestoreFailure,
    pub scan_answers: ScanAnswers,
    pub on_unparsed: OnUnparsed,
    pub session: Option<CompiledSession>,
    /// Detection and method options; `None` fields fall back to the service defaults.
    pub options: Arc<Options>,
    /// What `options` were compiled from, for a tenant's policy to refine.
    pub policy: Spec,
    /// Which texts of log messages (OTLP, Loki) are anonymized.
    pub log_fields: LogFields,
    /// Signs forwarded requests (AWS routes).
    pub aws: Option<AwsSigning>,
    /// The operator's Google access token, sent as the bearer (Vertex AI routes).
    pub google: Option<std::sync::Arc<super::google_token::GoogleToken>>,
}

#[derive(Debug, Clone)]
pub enum CompiledSession {
    Header(String),
    JsonPath(JsonPath),
}

impl Route {
    /// Whether this route serves a request.
    pub fn matches(&self, method: &str, host: Option<&str>, path: &str) -> bool {
        if !self.methods.is_empty() && !self.methods.iter().any(|m| m.eq_ignore_ascii_case(method))
        {
            return false;
        }
        if let Some(want) = &self.host {
            let got = host.map(|h| h.rsplit_once(':').map_or(h, |(name, _)| name));
            if !got.is_some_and(|h| h.eq_ignore_ascii_case(want)) {
                return false;
            }
        }
        if !self.paths.is_empty() && !self.paths.iter().any(|p| path_matches(p, path)) {
            return false;
        }
        match &self.path_prefix {
            None => true,
            Some(prefix) => {
                path == prefix
                    || (path.starts_with(prefix.as_str())
                        && (prefix.ends_with('/')
                            || path.as_bytes().get(prefix.len()) == Some(&b'/')))
            }
        }
    }

    /// Rewrites a request path (with query) for the upstream.
    pub fn upstream_path(&self, path_and_query: &str) -> String {
        let rest = match (&self.path_prefix, &self.upstream.rewrite_prefix) {
            (Some(prefix), Some(replacement)) => {
                format!(
                    "{replacement}{}",
                    path_and_query.get(prefix.len()..).unwrap_or("")
                )
            }
            _ => path_and_query.to_owned(),
        };
        format!("{}{}", self.upstream.base_path, rest)
    }

    /// Whether request bodies are rewritten at all.
    pub fn rewrites_request(&self) -> bool {
        !self.anonymize.is_empty() || self.body.chooses_texts()
    }
}

/// Whether `path` is `pattern`, segment by segment, `*` matching any one non-empty
/// segment.
fn path_matches(pattern: &str, path: &str) -> bool {
    let mut want = pattern.split('/');
    let mut got = path.split('/');
    loop {
        match (want.next(), got.next()) {
            (None, None) => return true,
            (Some("*"), Some(seg)) if !seg.is_empty() => {}
            (Some(w), Some(g)) if w == g => {}
            _ => return false,
        }
    }
}

/// Compiles a route; errors are `(field, message)` relative to the route.
pub fn compile(config: &RouteConfig) -> Result<Route, Vec<(String, String)>> {
    compile_with(config, &Spec::default())
}

/// [`compile`] over `base`, the service-wide policy, which the route's refines.
///
/// # Errors
/// As [`compile`].
pub fn compile_with(config: &RouteConfig, base: &Spec) -> Result<Route, Vec<(String, String)>> {
    let mut errors: Vec<(String, String)> = Vec::new();
    let mut err = |field: &str, message: &str| errors.push((field.to_owned(), message.to_owned()));
    if config.name.is_empty()
        || !config
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        err("name", "must be letters, digits, '-' or '_'");
    }
    let preset = match &config.preset {
        None => None,
        Some(name) => {
            let found = presets::find(name);
            if found.is_none() {
                let names: Vec<&str> = presets::PRESETS.iter().map(|p| p.name).collect();
                errors.push((
                    "preset".into(),
                    format!("unknown preset; one of {}", names.join(", ")),
                ));
            }
            found
        }
    };
    let mut parse_paths = |field: &str, preset_paths: &[&str], extra: &[String]| -> Vec<JsonPath> {
        let mut out = Vec::new();
        for p in preset_paths {
            if let Ok(path) = JsonPath::parse(p) {
                out.push(path);
            }
        }
        for (i, p) in extra.iter().enumerate() {
            match JsonPath::parse(p) {
                Ok(path) => out.push(path),
                Err(e) => errors.push((format!("{field}[{i}]"), e.to_string())),
            }
        }
        out
    };
    let anonymize = parse_paths(
        "anonymize",
        preset.map_or(&[], |p| p.anonymize),
        &config.anonymize,
    );
    let restore = parse_paths(
        "restore",
        preset.map_or(&[], |p| p.restore),
        &config.restore,
    );
    let restore_stream = parse_paths(
        "restore_stream",
        preset.map_or(&[], |p| p.restore_stream),
        &config.restore_stream,
    );
    let restore_events = parse_paths(
        "restore_events",
        preset.map_or(&[], |p| p.restore_events),
        &config.restore_events,
    );
    let signed = parse_paths("signed", preset.map_or(&[], |p| p.signed), &config.signed);
    // Signed fields are left out of every other path, both ways.
    let except: std::sync::Arc<[JsonPath]> = signed.clone().into();
    let exclude = |paths: Vec<JsonPath>| -> Vec<JsonPath> {
        paths
            .into_iter()
            .map(|p| p.excluding(std::sync::Arc::clone(&except)))
            .collect()
    };
    let (anonymize, restore) = (exclude(anonymize), exclude(restore));
    let (restore_stream, restore_events) = (exclude(restore_stream), exclude(restore_events));
    let (key_locations, caller_key_in) = compile_keys(config, preset, &mut errors);
    let session = match &config.session {
        None => None,
        Some(SessionSource {
            header: Some(name),
            json_path: None,
        }) => {
            if http::HeaderName::from_bytes(name.as_bytes()).is_err() {
                errors.push(("session.header".into(), "not a valid header name".into()));
            }
            Some(CompiledSession::Header(name.to_ascii_lowercase()))
        }
        Some(SessionSource {
            header: None,
            json_path: Some(p),
        }) => match JsonPath::parse(p) {
            Ok(path) => Some(CompiledSession::JsonPath(path)),
            Err(e) => {
                errors.push(("session.json_path".into(), e.to_string()));
                None
            }
        },
        Some(_) => {
            errors.push((
                "session".into(),
                "give exactly one of header or json_path".into(),
            ));
            None
        }
    };
    let mut options = Options::default();
    if !config.entities.is_empty() {
        let mut labels = Vec::new();
        for (i, name) in config.entities.iter().enumerate() {
            match Label::parse(name) {
                Some(label) => labels.push(label),
                None => errors.push((format!("entities[{i}]"), "unknown label".into())),
            }
        }
        options.labels = Some(LabelSet::new(labels));
    }
    if let Some(t) = config.threshold {
        if (0.0..=1.0).contains(&t) {
            options.threshold = Some(t as f32);
        } else {
            errors.push(("threshold".into(), "must be between 0 and 1".into()));
        }
    }
    if let Some(name) = &config.method {
        match Method::parse(name) {
            Some(m) => options.method = Some(m),
            None => errors.push(("method".into(), "unknown method".into())),
        }
    }
    let mut policy = Spec {
        entities: options.labels.clone(),
        threshold: options.threshold,
        method: options.method,
        ..Spec::default()
    };
    if let Some(fields) = &config.policy {
        match from_config(fields, "policy", &base.declared(), policy.clone()) {
            Ok(with_fields) => policy = with_fields,
            Err(problems) => errors.extend(problems.into_iter().map(|d| (d.field, d.reason))),
        }
    }
    if !base.is_empty() {
        // The service-wide policy under the route's: the route's fields win.
        if let Ok(over) = base.over(&policy, RequestMay::default(), 0.0) {
            policy = over;
        }
    }
    match policy.options(&Limits::default()) {
        Ok(compiled) => options = compiled,
        Err(e) => errors.push((e.field.replacen("detection_config", "policy", 1), e.reason)),
    }
    if let Some(prefix) = &config.matcher.path_prefix {
        if !prefix.starts_with('/') {
            errors.push(("match.path_prefix".into(), "must start with '/'".into()));
        }
    }
    for (i, p) in config.matcher.paths.iter().enumerate() {
        if !p.starts_with('/') {
            errors.push((format!("match.paths[{i}]"), "must start with '/'".into()));
        }
    }
    let mut upstream = match parse_upstream(&config.upstream) {
        Ok(u) => Some(u),
        Err(message) => {
            errors.push(("upstream.url".into(), message.into()));
            None
        }
    };
    for (name, value) in &config.upstream.add_headers {
        if is_unset(value.expose()) {
            // A provider key left to the caller (or an error reported above).
            continue;
        }
        let parsed = (
            http::HeaderName::from_bytes(name.as_bytes()),
            http::HeaderValue::from_str(value.expose()),
        );
        match (parsed, upstream.as_mut()) {
            ((Ok(n), Ok(mut v)), Some(up)) => {
                v.set_sensitive(true);
                up.add_headers.push((n, Secret::new(v)));
            }
            ((Ok(_), Ok(_)), None) => {}
            _ => errors.push((
                "upstream.add_headers".into(),
                "invalid header name or value".into(),
            )),
        }
    }
    let mirrored_headers = compile_mirrored(config, preset, &mut errors);
    let aws = compile_aws(config, &mut errors);
    let google = config.google_credentials.as_ref().and_then(|g| {
        if !caller_key_in.is_empty() || config.upstream.add_headers.contains_key("authorization") {
            errors.push((
                "google_credentials".into(),
                "the operator's token is the bearer: no `provider_key: caller` and no \
                 `authorization` in add_headers beside it"
                    .into(),
            ));
        }
        fn given(v: &Option<String>) -> Option<&str> {
            v.as_deref().map(str::trim).filter(|v| !v.is_empty())
        }
        match (given(&g.metadata_host), given(&g.service_account_file)) {
            (Some(host), None) => Some(super::google_token::GoogleToken::metadata(host)),
            (None, Some(path)) => match super::google_token::GoogleToken::service_account(path) {
                Ok(token) => Some(token),
                Err(why) => {
                    errors.push(("google_credentials.service_account_file".into(), why));
                    None
                }
            },
            (Some(_), Some(_)) => {
                errors.push((
                    "google_credentials".into(),
                    "takes `metadata_host` or `service_account_file`, not both".into(),
                ));
                None
            }
            (None, None) => {
                errors.push((
                    "google_credentials".into(),
                    "needs `metadata_host` or `service_account_file` (is its variable set?)".into(),
                ));
                None
            }
        }
    });
    match upstream {
        Some(upstream) if errors.is_empty() => Ok(Route {
            name: config.name.clone(),
            host: config.matcher.host.clone(),
            path_prefix: config.matcher.path_prefix.clone(),
            paths: config.matcher.paths.clone(),
            methods: config.matcher.methods.clone(),
            upstream,
            body: config
                .body
                .or(preset.map(|p| p.body))
                .unwrap_or(BodyFormat::Json),
            anonymize,
            restore,
            restore_stream,
            restore_events,
            signed,
            auth: config.auth,
            key_locations,
            caller_key_in,
            mirrored_headers,
            restore_failure: config.restore_failure,
            scan_answers: config.scan_answers,
            on_unparsed: config.on_unparsed,
            session,
            options: Arc::new(options),
            policy,
            log_fields: LogFields {
                otlp: config.otlp,
                loki: config.loki,
            },
            aws,
            google,
        }),
        _ => Err(errors),
    }
}

/// Where our key is read (`api_key_in`) and, when callers bring their own provider
/// key, where theirs is forwarded from (`provider_key`, `provider_key_in`).
fn compile_keys(
    config: &RouteConfig,
    preset: Option<&presets::Preset>,
    errors: &mut Vec<(String, String)>,
) -> (Vec<KeyLocation>, Vec<KeyLocation>) {
    let provider_places = if config.provider_key_in.is_empty() {
        credentials::parse_all(preset.map_or(&[][..], |p| p.provider_key_in)).unwrap_or_default()
    } else {
        credentials::parse_all(&config.provider_key_in).unwrap_or_else(|(i, message)| {
            errors.push((format!("provider_key_in[{i}]"), message.to_owned()));
            Vec::new()
        })
    };
    let unset: Vec<&str> = config
        .upstream
        .add_headers
        .iter()
        .filter(|(_, value)| is_unset(value.expose()))
        .map(|(name, _)| name.as_str())
        .collect();
    let callers_bring_keys = config.auth == AuthMode::ApiKey
        && match config.provider_key {
            ProviderKey::Configured => {
                for name in &unset {
                    errors.push((
                        format!("upstream.add_headers.{name}"),
                        "is empty: set the variable it reads, or let callers bring their own \
                         key (`provider_key: caller` or `configured_or_caller`)"
                            .into(),
                    ));
                }
                false
            }
            ProviderKey::Caller => true,
            ProviderKey::ConfiguredOrCaller => !unset.is_empty(),
        };
    let key_locations = if config.api_key_in.is_empty() {
        // When callers bring their own, the SDK's key is theirs: ours comes in our header.
        let default = match preset {
            Some(p) if !callers_bring_keys => p.api_key_in,
            _ => presets::OUR_HEADER,
        };
        credentials::parse_all(default).unwrap_or_default()
    } else {
        credentials::parse_all(&config.api_key_in).unwrap_or_else(|(i, message)| {
            errors.push((format!("api_key_in[{i}]"), message.to_owned()));
            Vec::new()
        })
    };
    let caller_key_in = if callers_bring_keys {
        if provider_places.is_empty() {
            errors.push((
                "provider_key_in".into(),
                "name where the provider reads its key: callers bring their own here".into(),
            ));
        }
        if let Some(shared) = key_locations.iter().find(|l| provider_places.contains(l)) {
            errors.push((
                "api_key_in".into(),
                format!(
                    "{shared} is where the provider reads the caller's own key; name another \
                     place for ours (e.g. x-anonymizer-key)"
                ),
            ));
        }
        for name in config.upstream.add_headers.keys() {
            let at_provider_place = provider_places.iter().any(|l| {
                l.header_name()
                    .is_some_and(|h| h.as_str().eq_ignore_ascii_case(name))
            });
            if at_provider_place && !unset.contains(&name.as_str()) {
                errors.push((
                    format!("upstream.add_headers.{name}"),
                    "would replace the caller's own key: leave it out (or empty) here".into(),
                ));
            }
        }
        provider_places
    } else {
        Vec::new()
    };
    (key_locations, caller_key_in)
}

/// The header prefixes whose values repeat body fields: the preset's and the route's.
fn compile_mirrored(
    config: &RouteConfig,
    preset: Option<&presets::Preset>,
    errors: &mut Vec<(String, String)>,
) -> Vec<String> {
    let mut mirrored_headers: Vec<String> = preset
        .map_or(&[][..], |p| p.mirrored_headers)
        .iter()
        .map(|p| (*p).to_owned())
        .collect();
    for (i, prefix) in config.mirrored_headers.iter().enumerate() {
        if prefix.is_empty() || http::HeaderName::from_bytes(prefix.as_bytes()).is_err() {
            errors.push((
                format!("mirrored_headers[{i}]"),
                "must be the start of a header name".into(),
            ));
        }
        mirrored_headers.push(prefix.to_ascii_lowercase());
    }
    mirrored_headers
}

/// The AWS signing of an AWS route (Bedrock), its fields checked.
fn compile_aws(config: &RouteConfig, errors: &mut Vec<(String, String)>) -> Option<AwsSigning> {
    config.aws.as_ref().map(|aws| {
        for (field, value) in [
            ("aws.region", aws.region.as_str()),
            ("aws.service", aws.service.as_str()),
            ("aws.access_key_id", aws.access_key_id.as_str()),
            (
                "aws.secret_access_key",
                aws.secret_access_key.expose().as_str(),
            ),
        ] {
            if value.trim().is_empty() {
                errors.push((field.into(), "is empty (is its variable set?)".into()));
            }
        }
        AwsSigning {
            region: aws.region.clone(),
            service: aws.service.clone(),
            credentials: super::sigv4::Credentials {
                access_key_id: aws.access_key_id.clone(),
                secret_access_key: aws.secret_access_key.clone(),
                session_token: aws
                    .session_token
                    .clone()
                    .filter(|t| !t.expose().trim().is_empty()),
            },
        }
    })
}

/// Whether an `add_headers` value came out empty: nothing, or an `Authorization`
/// scheme with no credential (`Bearer ${OPENAI_API_KEY:-}` with the variable unset).
fn is_unset(value: &str) -> bool {
    let value = value.trim();
    value.is_empty()
        || ["bearer", "basic"]
            .iter()
            .any(|s| value.eq_ignore_ascii_case(s))
}

fn parse_upstream(config: &UpstreamConfig) -> Result<Upstream, &'static str> {
    let uri: http::Uri = config
        .url
        .parse()
        .map_err(|_| "must be an http:// or https:// URL")?;
    let tls = match uri.scheme_str() {
        Some("http") => false,
        Some("https") => true,
        _ => return Err("must be an http:// or https:// URL"),
    };
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        // Credentials in the URL would be dropped silently and are not kept secret.
        return Err("must not hold credentials (use add_headers)");
    }
    let host = uri.host().ok_or("must name a host")?;
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
    if uri.query().is_some() {
        return Err("must not have a query");
    }
    let base_path = uri.path().trim_end_matches('/').to_owned();
    Ok(Upstream {
        tls,
        host,
        port,
        base_path,
        connect_timeout: Duration::from_millis(config.connect_timeout_ms),
        read_timeout: Duration::from_millis(config.read_timeout_ms),
        rewrite_prefix: config.rewrite_prefix.clone(),
        add_headers: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(yaml: &str) -> Route {
        let config: RouteConfig = serde_yaml::from_str(yaml).unwrap();
        compile(&config).unwrap()
    }

    #[test]
    fn matches_prefix_on_segments_host_and_method() {
        let r = route("name: a\nmatch: {path_prefix: /v1/chat, host: api.test, methods: [POST]}\nupstream: {url: 'https://up.test/base/'}\npreset: openai_chat\n");
        assert!(r.matches("POST", Some("api.test:443"), "/v1/chat/completions"));
        assert!(r.matches("post", Some("API.test"), "/v1/chat"));
        assert!(!r.matches("POST", Some("api.test"), "/v1/chatty"));
        assert!(!r.matches("GET", Some("api.test"), "/v1/chat"));
        assert!(!r.matches("POST", Some("other"), "/v1/chat"));
        assert_eq!(r.upstream.port, 443);
        assert!(r.upstream.tls);
        assert_eq!(
            r.upstream_path("/v1/chat/completions?x=1"),
            "/base/v1/chat/completions?x=1"
        );
        assert_eq!(r.anonymize.len(), presets::OPENAI_CHAT.anonymize.len());
    }

    #[test]
    fn whole_paths_match_with_one_segment_wildcards() {
        let r = route("name: a\nmatch: {paths: [/_bulk, '/*/_bulk']}\nupstream: {url: 'http://127.0.0.1:9'}\npreset: elasticsearch_bulk\n");
        assert!(r.matches("POST", None, "/_bulk"));
        assert!(r.matches("POST", None, "/logs-2026/_bulk"));
        assert!(!r.matches("POST", None, "//_bulk"));
        assert!(!r.matches("POST", None, "/a/b/_bulk"));
        assert!(!r.matches("POST", None, "/_bulkx"));
        assert!(!r.matches("POST", None, "/logs/_doc"));
    }

    #[test]
    fn rewrites_the_prefix() {
        let r = route("name: a\nmatch: {path_prefix: /logs}\nupstream: {url: 'http://127.0.0.1:9', rewrite_prefix: /loki/api/v1/push}\npreset: loki_push\n");
        assert_eq!(r.upstream_path("/logs"), "/loki/api/v1/push");
        assert!(!r.upstream.tls);
    }

    fn errors(yaml: &str) -> Vec<String> {
        let config: RouteConfig = serde_yaml::from_str(yaml).unwrap();
        compile(&config)
            .unwrap_err()
            .into_iter()
            .map(|(f, _)| f)
            .collect()
    }

    const OPENAI_UNSET: &str = "name: a\nupstream: {url: 'http://127.0.0.1:9', add_headers: {authorization: 'Bearer '}}\npreset: openai_chat\n";

    #[test]
    fn an_empty_provider_key_is_an_error_unless_callers_bring_their_own() {
        assert_eq!(errors(OPENAI_UNSET), ["upstream.add_headers.authorization"]);
        let r = route(&format!(
            "{OPENAI_UNSET}provider_key: configured_or_caller\n"
        ));
        assert_eq!(r.caller_key_in, [KeyLocation::Bearer]);
        // The SDK's bearer is the caller's own key now: ours comes in our header.
        assert_eq!(r.key_locations, [KeyLocation::parse("x-api-key").unwrap()]);
        assert!(r.upstream.add_headers.is_empty());
        let set = OPENAI_UNSET.replace("'Bearer '", "'Bearer sk-op'");
        let r = route(&format!("{set}provider_key: configured_or_caller\n"));
        assert!(r.caller_key_in.is_empty());
        assert_eq!(r.key_locations.len(), 2);
        assert_eq!(r.upstream.add_headers.len(), 1);
        // A passthrough route forwards callers' credentials anyway.
        let r = route(&format!(
            "{OPENAI_UNSET}provider_key: caller\nauth: passthrough\n"
        ));
        assert!(r.caller_key_in.is_empty());
    }

    #[test]
    fn callers_keys_never_share_a_place_with_ours_or_the_operators() {
        let anthropic = "name: a\nupstream: {url: 'http://127.0.0.1:9'}\npreset: anthropic_messages\nprovider_key: caller\n";
        assert_eq!(errors(anthropic), ["api_key_in"]);
        let r = route(&format!("{anthropic}api_key_in: [x-anonymizer-key]\n"));
        assert_eq!(r.caller_key_in.len(), 2);
        let set = OPENAI_UNSET.replace("'Bearer '", "'Bearer sk-op'");
        assert_eq!(
            errors(&format!("{set}provider_key: caller\n")),
            ["upstream.add_headers.authorization"]
        );
        let no_preset = "name: a\nupstream: {url: 'http://127.0.0.1:9'}\nprovider_key: caller\n";
        assert_eq!(errors(no_preset), ["provider_key_in"]);
        let r = route(&format!("{no_preset}provider_key_in: [bearer]\n"));
        assert_eq!(r.caller_key_in, [KeyLocation::Bearer]);
    }

    #[test]
    fn reports_bad_fields() {
        let config: RouteConfig = serde_yaml::from_str(
            "name: 'a b'\nupstream: {url: 'ftp://x'}\npreset: nope\nanonymize: ['x']\n",
        )
        .unwrap();
        let errors = compile(&config).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(fields, ["name", "preset", "anonymize[0]", "upstream.url"]);
    }
}
