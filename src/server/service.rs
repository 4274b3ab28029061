//! The pingora `ProxyHttp` service. Phases appear in execution order. `/v1` requests are
//! answered in `request_filter`; a request on a proxy route continues to
//! `upstream_peer`, each phase handing plain `http` types and bytes to its
//! `proxy::Exchange` and applying what it returns.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use bytes::BytesMut;
use pingora::prelude::*;
use pingora::proxy::{FailToProxy, ProxyHttp, Session};
use pingora::ErrorType;

use super::auth::{AuthError, KeyId, KeyRing};
use super::ctx::RequestCtx;
use super::limits::RateLimiter;
use super::respond;
use super::router::{route, Endpoint, Route as Served};
use crate::anonymizer::Anonymizer;
use crate::api::{Api, ApiError, Caller, ErrorCode, Outcome};
use crate::methods::Memory;
use crate::proxy::credentials::{self, KeyLocation};
use crate::proxy::fault::Fault;
use crate::proxy::headers::HeaderEdits;
use crate::proxy::route::{AuthMode, Route};
use crate::proxy::{Exchange, Refusal, RequestHead, RequestStep};
use crate::session::SessionStore;
use crate::telemetry::metrics;

/// Bodies above this size are processed on the blocking pool so a large request does
/// not stall other connections on the same worker thread (unmeasured first choice).
const INLINE_BODY_LIMIT: usize = 64 * 1024;
/// Proxied bodies declared at most this long are read and anonymized in
/// `request_filter`, before any upstream connection. It is the size of pingora's retry
/// buffer (`BODY_BUF_LIMIT`), through which a body read that early reaches the
/// request-body phase again, where the anonymized one replaces it.
const PREREAD_LIMIT: usize = 64 * 1024;

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
            let key = session.req_header().headers.get("x-api-key");
            let key = self.keys.authenticate(key.map(|v| v.as_bytes()));
            Some(self.authorize(session, ctx, key)?)
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
        // Credentials where the route's SDK puts its key (`api_key_in`).
        let found =
            credentials::presented(&route.key_locations, &header.headers, header.uri.query());
        let caller = match route.auth {
            AuthMode::ApiKey => {
                let presented: Vec<&[u8]> = found.iter().map(|(_, c)| c.as_ref()).collect();
                let key = self.keys.authenticate_any(&presented);
                self.authorize(session, ctx, key)?
            }
            AuthMode::Passthrough => Caller {
                // Callers without our key share one scope per route.
                tenant: format!("route:{}", route.name),
                session_id: None,
            },
        };
        // A key of ours on a passthrough route is still never forwarded.
        let ours: Vec<KeyLocation> = match route.auth {
            AuthMode::Passthrough => found
                .iter()
                .filter(|(_, c)| self.keys.authenticate(Some(c)).is_ok())
                .map(|(l, _)| (*l).clone())
                .collect(),
            AuthMode::ApiKey => Vec::new(),
        };
        let header = session.req_header();
        let head = RequestHead {
            method: &header.method,
            uri: &header.uri,
            headers: &header.headers,
        };
        let max = self.api.limits().max_body_bytes;
        let mut exchange =
            Exchange::start(Arc::clone(route), caller, &head, max).map_err(|refusal| {
                ctx.refused = Some(refusal.reason);
                Failure {
                    error: refusal.error,
                    headers: Vec::new(),
                    // The body is left unread: the connection cannot be reused.
                    close: true,
                }
            })?;
        for location in ours {
            exchange.strip_credential(location);
        }
        if exchange.plan().restores {
            // Compressed answers are decompressed before our filters see them.
            session.upstream_compression.adjust_decompression(true);
        }
        ctx.exchange = Some(Box::new(exchange));
        Ok(Handled::Forward)
    }

    /// Takes the outcome of authentication, rate-limits and reads `X-Session-Id`.
    fn authorize(
        &self,
        session: &Session,
        ctx: &mut RequestCtx,
        key: Result<(KeyId, &str), AuthError>,
    ) -> Result<Caller, Failure> {
        let (key_id, tenant) = key.map_err(|e| {
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
        let session_id = match session.req_header().headers.get("x-session-id") {
            Some(value) => Some(crate::api::session_id("X-Session-Id", value.as_bytes())?),
            None => None,
        };
        Ok(Caller {
            tenant: tenant.to_owned(),
            session_id,
        })
    }

    /// Reads and anonymizes a small proxied body before the upstream is chosen, so that
    /// a refusal reaches no upstream at all (not even the request headers). Bodies
    /// without a declared length, or longer than [`PREREAD_LIMIT`], are anonymized
    /// as pingora streams them instead (`request_body_filter`).
    async fn preread(&self, session: &mut Session, ctx: &mut RequestCtx) -> Result<(), Refusal> {
        let Some(exchange) = ctx.exchange.as_mut() else {
            return Ok(());
        };
        let declared = session
            .req_header()
            .headers
            .get("content-length")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<usize>().ok());
        if exchange.plan().body.is_none() || declared.is_none_or(|n| n > PREREAD_LIMIT) {
            return Ok(());
        }
        let read_error = || {
            Refusal::new(
                crate::proxy::Reason::Malformed,
                ApiError::new(ErrorCode::InvalidJson)
                    .with_message("the request body could not be read"),
            )
        };
        let header = session.req_header();
        let expects_continue = header.version == http::Version::HTTP_11
            && header
                .headers
                .get("expect")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
        if expects_continue {
            // The client waits for this before sending the body (RFC 9110 §10.1.1); the
            // upstream, which would have sent it, is not connected yet.
            session
                .write_continue_response()
                .await
                .map_err(|_| read_error())?;
        }
        session.as_mut().enable_retry_buffering();
        loop {
            let chunk = session
                .read_request_body()
                .await
                .map_err(|_| read_error())?;
            let end = chunk.is_none();
            match exchange.request_body(chunk.as_deref(), end)? {
                RequestStep::Hold if !end => {}
                RequestStep::Anonymize(job) => {
                    // At most PREREAD_LIMIT bytes: cheaper inline than a thread hop.
                    ctx.prepared_body = Some(exchange.anonymized(job.run(&self.anonymizer))?);
                    return Ok(());
                }
                _ => return Err(Refusal::internal()),
            }
        }
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
            Ok(Handled::Forward) => match self.preread(session, ctx).await {
                Ok(()) => return Ok(false),
                Err(refusal) => {
                    ctx.refused = Some(refusal.reason);
                    respond::error(session, ctx, &refusal.error, &[], true).await?;
                }
            },
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
        let Some(exchange) = ctx.exchange.as_ref() else {
            return Err(Error::new(ErrorType::InternalError));
        };
        let up = &exchange.route().upstream;
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
        ctx.upstream_started = Some(Instant::now());
        Ok(Box::new(peer))
    }

    async fn upstream_request_filter(
        &self,
        _session: &mut Session,
        upstream_request: &mut pingora::http::RequestHeader,
        ctx: &mut Self::CTX,
    ) -> Result<()> {
        let Some(exchange) = ctx.exchange.as_ref() else {
            return Err(Error::new(ErrorType::InternalError));
        };
        match exchange.upstream_request(&upstream_request.uri, &upstream_request.headers) {
            Ok((uri, edits)) => {
                upstream_request.set_uri(uri);
                if ctx.prepared_body.is_some() {
                    // The body is in hand (and the client had its 100 Continue).
                    upstream_request.remove_header("expect");
                }
                apply_to_request(upstream_request, edits)
            }
            Err(refusal) => refuse(ctx, refusal),
        }
    }

    async fn request_body_filter(
        &self,
        _session: &mut Session,
        body: &mut Option<bytes::Bytes>,
        end_of_stream: bool,
        ctx: &mut Self::CTX,
    ) -> Result<()> {
        if let Some(prepared) = &ctx.prepared_body {
            // Anonymized in request_filter; pingora replays the raw body from its retry
            // buffer (on a retry too), and the anonymized body takes its place.
            *body = Some(if end_of_stream {
                prepared.clone()
            } else {
                bytes::Bytes::new()
            });
            return Ok(());
        }
        let Some(exchange) = ctx.exchange.as_mut() else {
            return Ok(());
        };
        let job = match exchange.request_body(body.as_deref(), end_of_stream) {
            Ok(RequestStep::Pass) => return Ok(()),
            Ok(RequestStep::Hold) => {
                // "Nothing yet": `None` would end the upstream body.
                *body = Some(bytes::Bytes::new());
                return Ok(());
            }
            Ok(RequestStep::Anonymize(job)) => job,
            Err(refusal) => return refuse(ctx, refusal),
        };
        let result = if job.len() <= INLINE_BODY_LIMIT {
            job.run(&self.anonymizer)
        } else {
            let anonymizer = Arc::clone(&self.anonymizer);
            tokio::task::spawn_blocking(move || job.run(&anonymizer))
                .await
                .unwrap_or_else(|_| Err(Refusal::internal()))
        };
        match exchange.anonymized(result) {
            Ok(anonymized) => {
                *body = Some(anonymized);
                Ok(())
            }
            // Fail closed: the error aborts the upstream request before any body byte.
            Err(refusal) => refuse(ctx, refusal),
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
        if let Some(started) = ctx.upstream_started {
            metrics::UPSTREAM_DURATION
                .with_label_values(&[&exchange.route().name])
                .observe(started.elapsed().as_secs_f64());
        }
        upstream_response.insert_header(respond::REQUEST_ID, request_id)?;
        ctx.status = upstream_response.status.as_u16();
        match exchange.response_head(upstream_response.status, &upstream_response.headers) {
            Ok(edits) => {
                for name in &edits.remove {
                    upstream_response.remove_header(name);
                }
                for (name, value) in edits.insert {
                    upstream_response.insert_header(name, value)?;
                }
                Ok(())
            }
            Err(refusal) => refuse(ctx, refusal),
        }
    }

    fn response_body_filter(
        &self,
        _session: &mut Session,
        body: &mut Option<bytes::Bytes>,
        end_of_stream: bool,
        ctx: &mut Self::CTX,
    ) -> Result<Option<std::time::Duration>> {
        if let Some(exchange) = ctx.exchange.as_mut() {
            // An answer that cannot be restored (route `restore_failure: error`) is
            // aborted rather than sent with its placeholders.
            match exchange.response_body(body.take(), end_of_stream) {
                Ok(restored) => *body = restored,
                // A whole answer whose head is not out yet becomes our 502; a stream
                // already under way is cut.
                Err(_) => return refuse(ctx, Refusal::unrestorable()),
            }
        }
        Ok(None)
    }

    async fn fail_to_proxy(
        &self,
        session: &mut Session,
        e: &Error,
        ctx: &mut Self::CTX,
    ) -> FailToProxy {
        let refused = ctx.refusal.take().map(|r| r.error);
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
        if let (Some(route), Some(reason)) = (ctx.route.as_deref(), ctx.refused) {
            metrics::PROXY_REFUSALS
                .with_label_values(&[route, reason.as_str()])
                .inc();
        }
        if let Some(route) = ctx.route.as_deref() {
            metrics::PROXY_REQUESTS
                .with_label_values(&[route, &ctx.status.to_string()])
                .inc();
        }
        if let Some(exchange) = ctx.exchange.as_ref() {
            let route = exchange.route().name.as_str();
            let report = exchange.report();
            for (label, count) in &report.entities {
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
            metrics::PROXY_PLACEHOLDERS
                .with_label_values(&[route, "restored"])
                .inc_by(report.tally.restored);
            metrics::PROXY_UNRESOLVED
                .with_label_values(&[route])
                .inc_by(report.tally.unresolved);
            for fault in Fault::ALL {
                let n = report.tally.faults.get(fault);
                if n > 0 {
                    metrics::PROXY_RESTORE_FAILURES
                        .with_label_values(&[route, fault.as_str()])
                        .inc_by(n);
                }
            }
            ctx.entities = report.entities;
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
            store_failures: c.failures,
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

/// Records a refusal raised inside a proxy phase and aborts the phase; `fail_to_proxy`
/// answers it in our error shape.
fn refuse<T>(ctx: &mut RequestCtx, refusal: Refusal) -> Result<T> {
    let status = refusal.error.status();
    ctx.refused = Some(refusal.reason);
    ctx.refusal = Some(refusal);
    Err(Error::explain(
        ErrorType::HTTPStatus(status),
        "exchange refused",
    ))
}

/// Applies an exchange's header edits through pingora, which keeps header-name case
/// beside the map and must see every change.
fn apply_to_request(req: &mut pingora::http::RequestHeader, edits: HeaderEdits) -> Result<()> {
    for name in &edits.remove {
        req.remove_header(name);
    }
    for (name, value) in edits.insert {
        req.insert_header(name, value)?;
    }
    Ok(())
}
