//! The pingora `ProxyHttp` service. Phases appear in execution order. Today every
//! request is answered in `request_filter`; the proxy routes of the reverse-proxy mode
//! will continue to `upstream_peer` from the same service.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use bytes::BytesMut;
use pingora::prelude::*;
use pingora::proxy::{FailToProxy, ProxyHttp, Session};
use pingora::ErrorType;

use super::auth::{AuthError, KeyRing};
use super::ctx::RequestCtx;
use super::forward::{self, Exchange};
use super::limits::RateLimiter;
use super::respond;
use super::router::{route, Endpoint, Route as Served};
use crate::anonymizer::Anonymizer;
use crate::api::{Api, ApiError, Caller, ErrorCode, Outcome};
use crate::methods::Memory;
use crate::proxy::route::{AuthMode, CompiledSession, Route};
use crate::session::SessionStore;
use crate::telemetry::metrics;

/// Bodies above this size are processed on the blocking pool so a large request does
/// not stall other connections on the same worker thread (unmeasured first choice).
const INLINE_BODY_LIMIT: usize = 64 * 1024;
/// `X-Session-Id` is opaque, at most this many visible ASCII characters.
const MAX_SESSION_ID: usize = 128;

pub struct ApiService {
    api: Arc<Api>,
    anonymizer: Arc<Anonymizer>,
    sessions: Arc<dyn SessionStore<Memory>>,
    routes: Vec<Arc<Route>>,
    keys: KeyRing,
    rate_limiter: Option<RateLimiter>,
}

/// What `handle` decided: answer here, or forward to the route's upstream.
enum Handled {
    Respond(Outcome),
    Forward,
}

impl ApiService {
    pub fn new(
        api: Arc<Api>,
        anonymizer: Arc<Anonymizer>,
        sessions: Arc<dyn SessionStore<Memory>>,
        routes: Vec<Route>,
        keys: KeyRing,
        rate_limiter: Option<RateLimiter>,
    ) -> Self {
        Self {
            api,
            anonymizer,
            sessions,
            routes: routes.into_iter().map(Arc::new).collect(),
            keys,
            rate_limiter,
        }
    }

    /// Handles a request end to end; `Err(ApiError)` is answered in our error shape.
    async fn handle(
        &self,
        session: &mut Session,
        ctx: &mut RequestCtx,
    ) -> std::result::Result<Handled, Failure> {
        let header = session.req_header();
        let method = header.method.as_str().to_owned();
        let path = header.uri.path().to_owned();
        let endpoint = match route(&method, &path) {
            Served::Serve(endpoint) => endpoint,
            Served::NotFound => return self.forward(session, ctx, &method, &path),
            Served::MethodNotAllowed { allow } => {
                return Err(Failure {
                    error: ApiError::new(ErrorCode::MethodNotAllowed),
                    headers: vec![("allow", allow.to_owned())],
                    close: false,
                })
            }
        };
        ctx.endpoint = endpoint;

        let caller = if endpoint.needs_key() {
            Some(self.authorize(session, ctx)?)
        } else {
            None
        };

        let outcome = match endpoint {
            Endpoint::Healthz => Ok(Outcome {
                body: br#"{"status":"ok"}"#.to_vec(),
                ..Outcome::default()
            }),
            Endpoint::Readyz => Ok(self.api.readyz()),
            Endpoint::Entities => Ok(self.api.entities()),
            Endpoint::Anonymize | Endpoint::Deanonymize => {
                let caller = caller.ok_or_else(|| ApiError::new(ErrorCode::Internal))?;
                check_content_type(session)?;
                let body = read_body(session, self.api.limits().max_body_bytes).await?;
                self.run(endpoint, caller, body)
                    .await
                    .map_err(Failure::from)
            }
            Endpoint::Proxy | Endpoint::Other => Err(ApiError::new(ErrorCode::NotFound).into()),
        };
        outcome.map(Handled::Respond)
    }

    /// Looks for a proxy route; authenticates the caller as the route says.
    fn forward(
        &self,
        session: &mut Session,
        ctx: &mut RequestCtx,
        method: &str,
        path: &str,
    ) -> std::result::Result<Handled, Failure> {
        let header = session.req_header();
        let host = header
            .headers
            .get("host")
            .and_then(|v| v.to_str().ok())
            .or_else(|| header.uri.host());
        let Some(route) = self.routes.iter().find(|r| r.matches(method, host, path)) else {
            return Err(ApiError::new(ErrorCode::NotFound).into());
        };
        ctx.endpoint = Endpoint::Proxy;
        ctx.route = Some(route.name.clone());
        let mut caller = match route.auth {
            AuthMode::ApiKey => self.authorize(session, ctx)?,
            AuthMode::Passthrough => Caller {
                // Callers without our key share one scope per route.
                tenant: format!("route:{}", route.name),
                session_id: None,
            },
        };
        if let Some(CompiledSession::Header(name)) = &route.session {
            caller.session_id = session_header(session, name)?;
        }
        let mut exchange = Exchange::new(Arc::clone(route), caller);
        exchange.plan_request(session.req_header())?;
        if !route.restore.is_empty() || !route.restore_stream.is_empty() {
            // Compressed answers are decompressed before our filters see them.
            session.upstream_compression.adjust_decompression(true);
        }
        ctx.exchange = Some(Box::new(exchange));
        Ok(Handled::Forward)
    }

    /// Authenticates, rate-limits and reads `X-Session-Id`.
    fn authorize(&self, session: &Session, ctx: &mut RequestCtx) -> Result<Caller, Failure> {
        let header = session.req_header();
        let key = header.headers.get("x-api-key").map(|v| v.as_bytes());
        let (key_id, tenant) = self.keys.authenticate(key).map_err(|e| {
            ApiError::new(match e {
                AuthError::Missing => ErrorCode::MissingApiKey,
                AuthError::Invalid => ErrorCode::InvalidApiKey,
            })
        })?;
        ctx.tenant = Some(tenant.to_owned());
        if let Some(limiter) = &self.rate_limiter {
            if let Err(wait) = limiter.check(key_id, Instant::now()) {
                let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
                return Err(Failure {
                    error: ApiError::new(ErrorCode::RateLimited),
                    headers: vec![("retry-after", secs.to_string())],
                    close: false,
                });
            }
        }
        let session_id = session_header(session, "x-session-id")?;
        Ok(Caller {
            tenant: tenant.to_owned(),
            session_id,
        })
    }

    async fn run(
        &self,
        endpoint: Endpoint,
        caller: Caller,
        body: BytesMut,
    ) -> std::result::Result<Outcome, ApiError> {
        let inline = body.len() <= INLINE_BODY_LIMIT;
        let api = Arc::clone(&self.api);
        let work = move || match endpoint {
            Endpoint::Anonymize => api.anonymize(&caller, &body),
            _ => api.deanonymize(&caller, &body),
        };
        // Small bodies are cheaper inline than a thread hop.
        if inline {
            return work();
        }
        tokio::task::spawn_blocking(work)
            .await
            .unwrap_or_else(|_| Err(ApiError::new(ErrorCode::Internal)))
    }
}

/// An error answer: the error, extra headers, and whether the connection must close.
struct Failure {
    error: ApiError,
    headers: Vec<(&'static str, String)>,
    close: bool,
}

impl From<ApiError> for Failure {
    fn from(error: ApiError) -> Self {
        Failure {
            error,
            headers: Vec::new(),
            close: false,
        }
    }
}

/// A session id header: opaque, 1–128 visible ASCII characters.
fn session_header(session: &Session, name: &str) -> Result<Option<String>, Failure> {
    let Some(value) = session.req_header().headers.get(name) else {
        return Ok(None);
    };
    let bytes = value.as_bytes();
    let ok = !bytes.is_empty()
        && bytes.len() <= MAX_SESSION_ID
        && bytes.iter().all(|b| b.is_ascii_graphic());
    if !ok {
        return Err(ApiError::validation(vec![crate::api::error::Detail {
            field: "X-Session-Id".into(),
            reason: format!("must be 1-{MAX_SESSION_ID} visible ASCII characters"),
        }])
        .into());
    }
    // Visible ASCII is valid UTF-8.
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

fn check_content_type(session: &Session) -> Result<(), Failure> {
    let value = session
        .req_header()
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mut parts = value.split(';').map(str::trim);
    let essence_ok = parts
        .next()
        .is_some_and(|m| m.eq_ignore_ascii_case("application/json"));
    let params_ok = parts.all(|p| {
        p.is_empty()
            || p.split_once('=').is_some_and(|(k, v)| {
                k.trim().eq_ignore_ascii_case("charset")
                    && v.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
            })
    });
    if essence_ok && params_ok {
        Ok(())
    } else {
        Err(ApiError::new(ErrorCode::UnsupportedMediaType).into())
    }
}

/// Reads the whole body, refusing more than `max` bytes (declared or actual).
async fn read_body(session: &mut Session, max: usize) -> Result<BytesMut, Failure> {
    let too_large = || Failure {
        error: ApiError::new(ErrorCode::PayloadTooLarge)
            .with_message(format!("request body is larger than {max} bytes")),
        headers: Vec::new(),
        // The rest of the body is unread: the connection cannot be reused.
        close: true,
    };
    let declared = session
        .req_header()
        .headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(too_large());
    }
    let mut body = BytesMut::with_capacity(declared.unwrap_or(0));
    loop {
        match session.read_request_body().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(_) => {
                return Err(Failure {
                    error: ApiError::new(ErrorCode::InvalidJson)
                        .with_message("the request body could not be read"),
                    headers: Vec::new(),
                    close: true,
                })
            }
        }
    }
}

#[async_trait]
impl ProxyHttp for ApiService {
    type CTX = RequestCtx;

    fn new_ctx(&self) -> Self::CTX {
        RequestCtx::new()
    }

    async fn request_filter(&self, session: &mut Session, ctx: &mut Self::CTX) -> Result<bool> {
        match self.handle(session, ctx).await {
            Ok(Handled::Forward) => return Ok(false),
            Ok(Handled::Respond(outcome)) => {
                ctx.texts = outcome.texts;
                ctx.chars = outcome.chars;
                ctx.entities = outcome.entities;
                respond::json(session, ctx, 200, outcome.body, &[], false).await?;
            }
            Err(failure) => {
                respond::error(
                    session,
                    ctx,
                    &failure.error,
                    &failure.headers,
                    failure.close,
                )
                .await?;
            }
        }
        Ok(true)
    }

    async fn upstream_peer(
        &self,
        _session: &mut Session,
        ctx: &mut Self::CTX,
    ) -> Result<Box<HttpPeer>> {
        // request_filter answers every request that has no exchange.
        let Some(exchange) = ctx.exchange.as_mut() else {
            return Err(Error::new(ErrorType::InternalError));
        };
        let up = &exchange.route.upstream;
        // Resolved here, asynchronously: HttpPeer::new would block and panic on failure.
        let addr = tokio::net::lookup_host((up.host.as_str(), up.port))
            .await
            .ok()
            .and_then(|mut addrs| addrs.next())
            .ok_or_else(|| {
                Error::explain(ErrorType::ConnectError, "upstream host did not resolve")
            })?;
        let mut peer = HttpPeer::new(addr, up.tls, up.host.clone());
        peer.options.connection_timeout = Some(up.connect_timeout);
        peer.options.total_connection_timeout = Some(up.connect_timeout);
        peer.options.read_timeout = Some(up.read_timeout);
        exchange.upstream_started = Some(Instant::now());
        Ok(Box::new(peer))
    }

    async fn upstream_request_filter(
        &self,
        _session: &mut Session,
        upstream_request: &mut pingora::http::RequestHeader,
        ctx: &mut Self::CTX,
    ) -> Result<()> {
        match ctx.exchange.as_ref() {
            Some(exchange) => exchange.upstream_request(upstream_request),
            None => Err(Error::new(ErrorType::InternalError)),
        }
    }

    async fn request_body_filter(
        &self,
        _session: &mut Session,
        body: &mut Option<bytes::Bytes>,
        end_of_stream: bool,
        ctx: &mut Self::CTX,
    ) -> Result<()> {
        let Some(exchange) = ctx.exchange.as_mut() else {
            return Ok(());
        };
        if !exchange.rewrite_request {
            return Ok(());
        }
        let max = self.api.limits().max_body_bytes;
        let result = match exchange.buffer_request(body, end_of_stream, max) {
            Ok(None) => return Ok(()),
            Ok(Some(input)) => {
                let route = Arc::clone(&exchange.route);
                let caller = exchange.caller.clone();
                if input.len() <= INLINE_BODY_LIMIT {
                    forward::anonymize_request(&route, &self.anonymizer, &caller, &input)
                } else {
                    let anonymizer = Arc::clone(&self.anonymizer);
                    tokio::task::spawn_blocking(move || {
                        forward::anonymize_request(&route, &anonymizer, &caller, &input)
                    })
                    .await
                    .unwrap_or_else(|_| Err(ApiError::new(ErrorCode::Internal)))
                }
            }
            Err(err) => Err(err),
        };
        match result {
            Ok(anonymized) => {
                exchange.set_anonymized(anonymized, body);
                Ok(())
            }
            Err(err) => {
                // Fail closed: the error aborts the upstream request before any body byte.
                let status = err.status();
                exchange.error = Some(err);
                Err(Error::explain(
                    ErrorType::HTTPStatus(status),
                    "request body refused",
                ))
            }
        }
    }

    async fn response_filter(
        &self,
        _session: &mut Session,
        upstream_response: &mut pingora::http::ResponseHeader,
        ctx: &mut Self::CTX,
    ) -> Result<()> {
        let request_id = ctx.request_id.clone();
        let Some(exchange) = ctx.exchange.as_mut() else {
            return Ok(());
        };
        if let Some(started) = exchange.upstream_started {
            metrics::UPSTREAM_DURATION
                .with_label_values(&[&exchange.route.name])
                .observe(started.elapsed().as_secs_f64());
        }
        upstream_response.insert_header(respond::REQUEST_ID, request_id)?;
        ctx.status = upstream_response.status.as_u16();
        if let Err(err) = exchange.response_header(upstream_response) {
            let status = err.status();
            exchange.error = Some(err);
            return Err(Error::explain(
                ErrorType::HTTPStatus(status),
                "response refused",
            ));
        }
        Ok(())
    }

    fn response_body_filter(
        &self,
        _session: &mut Session,
        body: &mut Option<bytes::Bytes>,
        end_of_stream: bool,
        ctx: &mut Self::CTX,
    ) -> Result<Option<std::time::Duration>> {
        if let Some(exchange) = ctx.exchange.as_mut() {
            exchange.response_body(body, end_of_stream);
        }
        Ok(None)
    }

    async fn fail_to_proxy(
        &self,
        session: &mut Session,
        e: &Error,
        ctx: &mut Self::CTX,
    ) -> FailToProxy {
        let refused = ctx.exchange.as_mut().and_then(|x| x.error.take());
        let code = match e.etype() {
            _ if refused.is_some() => refused.as_ref().map(|r| r.code),
            ErrorType::ReadError | ErrorType::WriteError | ErrorType::ConnectionClosed
                if e.esource() == &pingora::ErrorSource::Downstream =>
            {
                None
            }
            ErrorType::ConnectTimedout | ErrorType::ReadTimedout | ErrorType::WriteTimedout => {
                Some(ErrorCode::UpstreamTimeout)
            }
            _ if e.esource() == &pingora::ErrorSource::Upstream => Some(ErrorCode::BadGateway),
            ErrorType::ConnectRefused | ErrorType::ConnectError | ErrorType::ConnectNoRoute => {
                Some(ErrorCode::BadGateway)
            }
            _ => Some(ErrorCode::Internal),
        };
        let status = match code {
            Some(code) if session.response_written().is_none() => {
                let err = refused.unwrap_or_else(|| ApiError::new(code));
                // The connection is already failing: a write error here changes nothing.
                let _ = respond::error(session, ctx, &err, &[], true).await;
                code.status()
            }
            _ => 0,
        };
        FailToProxy {
            error_code: status,
            can_reuse_downstream: false,
        }
    }

    async fn logging(&self, session: &mut Session, error: Option<&Error>, ctx: &mut Self::CTX) {
        if ctx.status == 0 {
            ctx.status = session.response_written().map_or(0, |r| r.status.as_u16());
        }
        if let Some(exchange) = ctx.exchange.as_ref() {
            let route = exchange.route.name.as_str();
            metrics::PROXY_REQUESTS
                .with_label_values(&[route, &ctx.status.to_string()])
                .inc();
            for (label, count) in &exchange.entities {
                metrics::PROXY_ENTITIES
                    .with_label_values(&[route, label])
                    .inc_by(*count);
            }
            if let Some(e) = error {
                if e.esource() == &pingora::ErrorSource::Upstream {
                    metrics::PROXY_UPSTREAM_ERRORS
                        .with_label_values(&[route, e.etype().as_str()])
                        .inc();
                }
            }
            if let Ok(tally) = exchange.tally.lock() {
                metrics::PROXY_PLACEHOLDERS
                    .with_label_values(&[route, "restored"])
                    .inc_by(tally.restored);
                metrics::PROXY_UNRESOLVED
                    .with_label_values(&[route])
                    .inc_by(tally.unresolved);
            }
            ctx.entities = exchange.entities.clone();
        }
        let endpoint = ctx.endpoint.as_str();
        let status = ctx.status;
        let tenant = ctx.tenant.as_deref().unwrap_or("-");
        let elapsed = ctx.started.elapsed();
        metrics::REQUESTS
            .with_label_values(&[endpoint, &status.to_string(), tenant])
            .inc();
        metrics::REQUEST_DURATION
            .with_label_values(&[endpoint])
            .observe(elapsed.as_secs_f64());
        if ctx.texts > 0 {
            metrics::TEXTS
                .with_label_values(&[endpoint])
                .inc_by(ctx.texts as u64);
            metrics::CHARACTERS
                .with_label_values(&[endpoint])
                .inc_by(ctx.chars as u64);
        }
        for (label, count) in &ctx.entities {
            metrics::ENTITIES.with_label_values(&[label]).inc_by(*count);
        }
        let c = self.sessions.counters();
        metrics::set_session_stats(&metrics::SessionStats {
            sessions: c.sessions,
            entries: c.entries,
            bytes: c.bytes,
            hits: c.hits,
            misses: c.misses,
            expirations: c.expirations,
            evictions: c.evictions,
        });
        metrics::set_failed_tokens(self.anonymizer.failed_tokens_total());
        metrics::set_detection_failures(self.anonymizer.detection_failures_total());
        let entities: u64 = ctx.entities.values().sum();
        tracing::info!(
            request_id = %ctx.request_id,
            endpoint,
            route = ctx.route.as_deref(),
            status,
            tenant,
            duration_ms = (elapsed.as_secs_f64() * 1e6).round() / 1e3,
            texts = ctx.texts,
            chars = ctx.chars,
            entities,
            error = error.map(|e| e.etype().as_str()),
            "request"
        );
    }

    fn request_summary(&self, _session: &Session, ctx: &Self::CTX) -> String {
        // pingora puts this in its error logs; the raw path and query could carry data.
        format!(
            "request {} endpoint {}",
            ctx.request_id,
            ctx.endpoint.as_str()
        )
    }
}
