//! The pingora `ProxyHttp` service. Every request is answered in `request_filter`:
//! `/v1` requests by the API, and requests on a proxy route by [`ApiService::proxy`],
//! which reads the whole body, has its `proxy::Exchange` anonymize it, and only then
//! opens the upstream leg (`upstream.rs`), so a refused body reaches no upstream at all.
//! pingora's own upstream phases are not used: they would send the request headers
//! before the body is read and the client's response header before the upstream body.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use bytes::{Bytes, BytesMut};
use pingora::http::ResponseHeader;
use pingora::prelude::*;
use pingora::protocols::http::v1::client::HttpSession as UpstreamSession;
use pingora::proxy::{FailToProxy, ProxyHttp, Session};
use pingora::ErrorType;

use super::auth::{AuthError, KeyId};
use super::body::{self, ReadError};
use super::ctx::RequestCtx;
use super::live::Live;
use super::respond;
use super::router::{presidio_route, route, Endpoint, Route as Served};
use super::upstream::{self, Upstreams};
use crate::anonymizer::Anonymizer;
use crate::api::{presidio, Api, ApiError, Caller, ErrorCode, Outcome};
use crate::methods::Memory;
use crate::proxy::credentials::{self, KeyLocation};
use crate::proxy::fault::Fault;
use crate::proxy::headers::HeaderEdits;
use crate::proxy::route::AuthMode;
use crate::proxy::scan::ScanAnswers;
use crate::proxy::sigv4;
use crate::proxy::sigv4::SignatureCheck;
use crate::proxy::{Exchange, Reason, Refusal, RequestHead, RequestStep};
use crate::session::SessionStore;
use crate::telemetry::metrics;

/// Bodies above this size are processed on the blocking pool so a large request does
/// not stall other connections on the same worker thread. Work that runs a model goes
/// there whatever its size (`runs_model`): a 2 KB prompt holds the model for tens of
/// milliseconds, and two such streams held both workers while a pattern-label stream
/// beside them waited (`benches/served`, shape e). Rules-only work stays inline below
/// this size: the hop costs ~50 µs, a fifth of a 1 KB pattern-label request.
const INLINE_BODY_LIMIT: usize = 64 * 1024;

pub struct ApiService {
    api: Arc<Api>,
    anonymizer: Arc<Anonymizer>,
    sessions: Arc<dyn SessionStore<Memory>>,
    /// Routes, keys and rate limiter: replaced when the configuration is reloaded.
    live: Arc<Live>,
    upstreams: Upstreams,
    /// Serving Presidio's REST API instead of `/v1` and the routes: the header our key
    /// is read from, or `None` for a loopback listener without keys.
    presidio: Option<Option<http::HeaderName>>,
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
        live: Arc<Live>,
    ) -> Self {
        Self {
            api,
            anonymizer,
            sessions,
            live,
            upstreams: Upstreams::new(),
            presidio: None,
        }
    }

    /// This service answering Presidio's REST API (and no proxy route) on its own
    /// listener, our key read from `key_header` (`None`: no key, for a loopback listener).
    pub fn presidio(mut self, key_header: Option<http::HeaderName>) -> Self {
        self.presidio = Some(key_header);
        self
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
        let served = match &self.presidio {
            Some(_) => presidio_route(&method, &path),
            None => route(&method, &path),
        };
        let endpoint = match served {
            Served::Serve(endpoint) => endpoint,
            Served::NotFound if self.presidio.is_some() => {
                return Err(ApiError::new(ErrorCode::NotFound).into())
            }
            Served::NotFound => return self.forward(session, ctx, &method, &path),
            Served::MethodNotAllowed { allow } => {
                return Err(Failure {
                    headers: vec![("allow", allow.to_owned())],
                    ..Failure::from(ApiError::new(ErrorCode::MethodNotAllowed))
                })
            }
        };
        ctx.endpoint = endpoint;

        let key_header = match &self.presidio {
            Some(None) => None,
            Some(Some(name)) => Some(name.as_str()),
            None => Some("x-api-key"),
        };
        let caller = match (endpoint.needs_key(), key_header) {
            (true, Some(header)) => {
                let key = session.req_header().headers.get(header);
                let keys = self.live.keys();
                let key = keys.authenticate(key.map(|v| v.as_bytes()));
                Some(self.authorize(session, ctx, key)?)
            }
            // A keyless Presidio listener (loopback only): one scope for its callers.
            (true, None) => Some(Caller {
                tenant: "presidio".into(),
                session_id: None,
            }),
            (false, _) => None,
        };

        let outcome = match endpoint {
            Endpoint::Healthz => Ok(Outcome {
                body: br#"{"status":"ok"}"#.to_vec(),
                ..Outcome::default()
            }),
            Endpoint::Readyz => Ok(self.api.readyz()),
            Endpoint::Entities => Ok(self.api.entities()),
            Endpoint::OpenApi => Ok(self.api.openapi()),
            Endpoint::PresidioHealth => Ok(Outcome {
                body: br#""Presidio Analyzer service is up""#.to_vec(),
                ..Outcome::default()
            }),
            Endpoint::PresidioRecognizers => Ok(presidio::recognizers(&self.api)),
            Endpoint::PresidioSupportedEntities => Ok(presidio::supported_entities(&self.api)),
            Endpoint::Anonymize
            | Endpoint::Deanonymize
            | Endpoint::PresidioAnalyze
            | Endpoint::PresidioAnonymize
            | Endpoint::PresidioDeanonymize => {
                let caller = caller.ok_or_else(|| ApiError::new(ErrorCode::Internal))?;
                check_content_type(session)?;
                let body = body::read_whole(session, self.api.limits().max_body_bytes)
                    .await
                    .map_err(Failure::from)?;
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
        let routes = self.live.routes();
        let Some(route) = routes.iter().find(|r| r.matches(method, host, path)) else {
            return Err(ApiError::new(ErrorCode::NotFound).into());
        };
        ctx.endpoint = Endpoint::Proxy;
        ctx.route = Some(route.name.clone());
        // Credentials where the route's SDK puts its key (`api_key_in`).
        let found =
            credentials::presented(&route.key_locations, &header.headers, header.uri.query());
        // An AWS signature names its tenant; it is checked once the body is read.
        let signature = match route.auth {
            AuthMode::ApiKey if route.key_locations.contains(&KeyLocation::SigV4) => header
                .headers
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(sigv4::Presented::parse),
            _ => None,
        };
        let mut check = None;
        let caller = match (route.auth, signature) {
            (AuthMode::ApiKey, Some(presented)) => {
                let keys = self.live.keys().tenant_keys(&presented.access_key_id);
                let key = match keys.first() {
                    Some((id, _)) => Ok((*id, presented.access_key_id.as_str())),
                    None => Err(AuthError::Invalid),
                };
                let caller = self.authorize(session, ctx, key)?;
                check = Some(SignatureCheck {
                    secrets: keys.into_iter().map(|(_, s)| s).collect(),
                    presented,
                });
                caller
            }
            (AuthMode::ApiKey, None) => {
                let presented: Vec<&[u8]> = found.iter().map(|(_, c)| c.as_ref()).collect();
                let keys = self.live.keys();
                let key = keys.authenticate_any(&presented);
                self.authorize(session, ctx, key)?
            }
            (AuthMode::Passthrough, _) => Caller {
                // Callers without our key share one scope per route.
                tenant: format!("route:{}", route.name),
                session_id: None,
            },
        };
        // A key of ours is never forwarded: not on a passthrough route, and not where a
        // caller's own provider key is expected (an SDK given ours by mistake).
        let header = session.req_header();
        let ours_among = |found: &[(&KeyLocation, std::borrow::Cow<'_, [u8]>)]| {
            found
                .iter()
                .filter(|(_, c)| self.live.keys().authenticate(Some(c)).is_ok())
                .map(|(l, _)| (*l).clone())
                .collect::<Vec<KeyLocation>>()
        };
        let ours: Vec<KeyLocation> = match route.auth {
            AuthMode::Passthrough => ours_among(&found),
            AuthMode::ApiKey => ours_among(&credentials::presented(
                &route.caller_key_in,
                &header.headers,
                header.uri.query(),
            )),
        };
        let head = request_head(header);
        let limits = self.api.limits();
        let tenant = caller.tenant.clone();
        let mut exchange = Exchange::start(Arc::clone(route), caller, &head, limits.max_body_bytes)
            .map_err(|refusal| {
                ctx.refused = Some(refusal.reason);
                let too_large = refusal.reason == Reason::TooLarge;
                Failure {
                    error: refusal.error,
                    headers: Vec::new(),
                    // The body is left unread: the connection cannot be reused.
                    close: true,
                    // A client sending a body over the limit reads our 413 first.
                    drain: too_large && !body::expects_continue(session),
                    reason: Some(refusal.reason),
                }
            })?
            .with_response_limit(limits.max_response_bytes)
            .with_anonymizer(&self.anonymizer);
        if let Some(options) = self.api.route_options(&tenant, &route.policy)? {
            exchange = exchange.with_options(options);
        }
        for location in ours {
            exchange.strip_credential(location);
        }
        if let Some(check) = check {
            exchange.expect_signature(check);
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
        if let Some(limiter) = self.live.limiter().as_ref() {
            if let Err(wait) = limiter.check(key_id, Instant::now()) {
                let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
                return Err(Failure {
                    headers: vec![("retry-after", secs.to_string())],
                    ..Failure::from(ApiError::new(ErrorCode::RateLimited))
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

    /// Answers a request on a proxy route: reads the whole body, anonymizes it, sends
    /// it upstream and writes the (restored) answer. Nothing reaches the upstream, not
    /// even the request line, until the body has been read and anonymized.
    ///
    /// # Errors
    /// Only when the answer fails after its header went out: the connection is then
    /// closed without ending the body, so the client sees a failed transfer.
    async fn proxy(&self, session: &mut Session, ctx: &mut RequestCtx) -> Result<()> {
        let Some(mut exchange) = ctx.exchange.take() else {
            return refuse(session, ctx, Refusal::internal(), false).await;
        };
        let max = self.api.limits().max_body_bytes;
        let raw = match body::read_whole(session, max).await {
            Ok(raw) => raw.freeze(),
            Err(e) => {
                let failure = Failure::from(e).with_reason(ctx);
                return answer_failure(session, ctx, failure).await;
            }
        };
        let header = session.req_header();
        let head = request_head(header);
        if let Err(refusal) = exchange.check_signature(&head, &raw, std::time::SystemTime::now()) {
            return refuse(session, ctx, refusal, false).await;
        }
        let body = match exchange.request_body(Some(&raw), true) {
            Ok(RequestStep::Pass) => raw,
            Ok(RequestStep::Anonymize(job)) => {
                drop(raw);
                let result = if job.len() <= INLINE_BODY_LIMIT && !job.runs_model(&self.anonymizer)
                {
                    job.run(&self.anonymizer)
                } else {
                    let anonymizer = Arc::clone(&self.anonymizer);
                    tokio::task::spawn_blocking(move || job.run(&anonymizer))
                        .await
                        .unwrap_or_else(|_| Err(Refusal::internal()))
                };
                match exchange.anonymized(result) {
                    Ok(body) => body,
                    Err(refusal) => return refuse(session, ctx, refusal, false).await,
                }
            }
            Ok(RequestStep::Hold) => return refuse(session, ctx, Refusal::internal(), false).await,
            Err(refusal) => return refuse(session, ctx, refusal, true).await,
        };
        let result = self.forward_body(session, ctx, &mut exchange, body).await;
        ctx.exchange = Some(exchange);
        result
    }

    /// The upstream leg and the answer, once the body to send is known.
    async fn forward_body(
        &self,
        session: &mut Session,
        ctx: &mut RequestCtx,
        exchange: &mut Exchange,
        body: bytes::Bytes,
    ) -> Result<()> {
        if let Some(google) = exchange.route().google.clone() {
            match google.token().await {
                Ok(token) => exchange.use_provider_token(token),
                Err(_) => return refuse(session, ctx, Refusal::no_credential(), false).await,
            }
        }
        let request = match upstream_request(session, exchange, &body) {
            Ok(request) => request,
            Err(refusal) => return refuse(session, ctx, refusal, false).await,
        };
        let up = &exchange.route().upstream;
        let route = exchange.route().name.clone();
        let peer = match Upstreams::peer(up).await {
            Ok(peer) => peer,
            Err(failure) => return upstream_failed(session, ctx, &route, failure).await,
        };
        let started = Instant::now();
        let sent = self
            .upstreams
            .send(&peer, &request, &body, up.read_timeout)
            .await;
        drop(body);
        let mut upstream = match sent {
            Ok(upstream) => upstream,
            Err(e) => {
                let failure = upstream::Failure::from_error(&e);
                return upstream_failed(session, ctx, &route, failure).await;
            }
        };
        metrics::UPSTREAM_DURATION
            .with_label_values(&[&route])
            .observe(started.elapsed().as_secs_f64());
        let Some(mut head) = upstream.resp_header().cloned() else {
            return refuse(session, ctx, Refusal::internal(), false).await;
        };
        match exchange.response_head(head.status, &head.headers) {
            Ok(edits) => apply_to_response(&mut head, edits)?,
            Err(refusal) => {
                upstream.shutdown().await;
                return refuse(session, ctx, refusal, false).await;
            }
        }
        head.set_version(http::Version::HTTP_11);
        head.insert_header(respond::REQUEST_ID, ctx.request_id.as_str())?;
        ctx.status = head.status.as_u16();
        let leg = Leg {
            upstream,
            peer,
            route,
        };
        // A HEAD answer has nothing to restore: its header goes as it is. A JSON answer
        // whose framing its first byte decides starts as a whole one.
        let buffered = exchange.buffers_answer() || exchange.answer_undecided();
        if buffered && !without_body(session, &head) {
            self.answer_whole(session, ctx, exchange, leg, head).await
        } else {
            self.answer_streamed(session, ctx, exchange, leg, head, Vec::new())
                .await
        }
    }

    /// An answer read, decoded and restored whole before anything of it goes out: its
    /// length is known, and any failure on the way is still an error answer.
    async fn answer_whole(
        &self,
        session: &mut Session,
        ctx: &mut RequestCtx,
        exchange: &mut Exchange,
        mut leg: Leg,
        mut head: ResponseHeader,
    ) -> Result<()> {
        let mut parts = Vec::new();
        loop {
            let chunk = match leg.upstream.read_body_bytes().await {
                Ok(chunk) => chunk,
                Err(e) => {
                    leg.upstream.shutdown().await;
                    let failure = upstream::Failure::from_error(&e);
                    return upstream_failed(session, ctx, &leg.route, failure).await;
                }
            };
            let end = chunk.is_none();
            match exchange.response_body(chunk, end) {
                Ok(out) => parts.extend(out),
                Err(refusal) => {
                    leg.upstream.shutdown().await;
                    return refuse(session, ctx, refusal, false).await;
                }
            }
            if end {
                break;
            }
            if !exchange.buffers_answer() && !exchange.answer_undecided() {
                // A JSON array: its elements go out as they come.
                return self
                    .answer_streamed(session, ctx, exchange, leg, head, parts)
                    .await;
            }
        }
        self.upstreams.release(leg.upstream, &leg.peer).await;
        let answer = match parts.len() {
            1 => parts.pop().unwrap_or_default(),
            _ => parts.concat().into(),
        };
        head.remove_header("transfer-encoding");
        head.insert_header("content-length", answer.len().to_string())?;
        session.write_response_header(Box::new(head), false).await?;
        session.write_response_body(Some(answer), true).await?;
        Ok(())
    }

    /// An answer that goes out as it arrives (events restored one by one, or bytes
    /// untouched): framed by the upstream's length when the bytes pass unchanged,
    /// chunked otherwise.
    ///
    /// # Errors
    /// A failure after the header went out: the connection then ends without the
    /// body's end, which the client sees as a failed transfer.
    async fn answer_streamed(
        &self,
        session: &mut Session,
        ctx: &mut RequestCtx,
        exchange: &mut Exchange,
        mut leg: Leg,
        mut head: ResponseHeader,
        early: Vec<Bytes>,
    ) -> Result<()> {
        let no_body = without_body(session, &head);
        if !no_body
            && !head.headers.contains_key("content-length")
            && !head.headers.contains_key("transfer-encoding")
        {
            head.insert_header("transfer-encoding", "chunked")?;
        }
        session
            .write_response_header(Box::new(head), no_body)
            .await?;
        // What came while the framing was not known yet (see `answer_whole`).
        for part in early {
            session.write_response_body(Some(part), false).await?;
        }
        let mut end = no_body;
        while !end {
            let chunk = match leg.upstream.read_body_bytes().await {
                Ok(chunk) => chunk,
                Err(e) => {
                    count_upstream_error(&leg.route, upstream::Failure::from_error(&e));
                    leg.upstream.shutdown().await;
                    return Err(e);
                }
            };
            end = chunk.is_none();
            let out = match exchange.response_body(chunk, end) {
                Ok(out) => out,
                Err(refusal) => {
                    ctx.refused = Some(refusal.reason);
                    leg.upstream.shutdown().await;
                    return Err(Error::explain(
                        ErrorType::HTTPStatus(refusal.error.status()),
                        "answer refused mid-stream",
                    ));
                }
            };
            if out.is_some() || end {
                session.write_response_body(out, end).await?;
            }
        }
        self.upstreams.release(leg.upstream, &leg.peer).await;
        Ok(())
    }

    async fn run(
        &self,
        endpoint: Endpoint,
        caller: Caller,
        body: BytesMut,
    ) -> std::result::Result<Outcome, ApiError> {
        let inline = body.len() <= INLINE_BODY_LIMIT;
        let api = Arc::clone(&self.api);
        if inline && endpoint == Endpoint::Anonymize {
            // Read here, so that only a call that runs the model pays for the hop.
            let call = api.read_anonymize(&caller, &body)?;
            if !api.runs_model(&call) {
                return api.run_anonymize(&caller, call);
            }
            return off_the_loop(move || api.run_anonymize(&caller, call)).await;
        }
        let work = move || match endpoint {
            Endpoint::Anonymize => api.anonymize(&caller, &body),
            Endpoint::PresidioAnalyze => presidio::analyze(&api, &caller, &body),
            Endpoint::PresidioAnonymize => presidio::anonymize(&api, &body),
            Endpoint::PresidioDeanonymize => presidio::deanonymize(&api, &body),
            _ => api.deanonymize(&caller, &body),
        };
        // Small bodies are cheaper inline than a thread hop; Presidio's analyze runs the
        // model on its default labels.
        if inline && endpoint != Endpoint::PresidioAnalyze {
            return work();
        }
        off_the_loop(work).await
    }
}

/// `work` on the blocking pool; a panic in it is an internal error.
async fn off_the_loop(
    work: impl FnOnce() -> std::result::Result<Outcome, ApiError> + Send + 'static,
) -> std::result::Result<Outcome, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Err(ApiError::new(ErrorCode::Internal)))
}

/// The request line and headers as the exchange reads them.
fn request_head(header: &pingora::http::RequestHeader) -> RequestHead<'_> {
    RequestHead {
        method: &header.method,
        uri: &header.uri,
        headers: &header.headers,
    }
}

/// Whether the answer to this request has no body (HEAD, 1xx, 204, 304).
fn without_body(session: &Session, head: &ResponseHeader) -> bool {
    session.req_header().method == http::Method::HEAD
        || matches!(head.status.as_u16(), 204 | 304)
        || head.status.is_informational()
}

/// An error answer: the error, extra headers, whether the connection must close, and
/// whether the rest of the request body is drained first (so the client reads it).
struct Failure {
    error: ApiError,
    headers: Vec<(&'static str, String)>,
    close: bool,
    drain: bool,
    reason: Option<Reason>,
}

impl From<ApiError> for Failure {
    fn from(error: ApiError) -> Self {
        Failure {
            error,
            headers: Vec::new(),
            close: false,
            drain: false,
            reason: None,
        }
    }
}

impl From<ReadError> for Failure {
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::TooLarge { drain } => Failure {
                error: ApiError::new(ErrorCode::PayloadTooLarge)
                    .with_message("request body is larger than limits.max_body_bytes"),
                headers: Vec::new(),
                // The rest of the body is unread: the connection cannot be reused.
                close: true,
                drain,
                reason: Some(Reason::TooLarge),
            },
            ReadError::Unreadable => Failure {
                error: ApiError::new(ErrorCode::InvalidJson)
                    .with_message("the request body could not be read"),
                headers: Vec::new(),
                close: true,
                drain: false,
                reason: Some(Reason::Malformed),
            },
        }
    }
}

impl Failure {
    /// Records the refusal reason (proxy routes count it).
    fn with_reason(self, ctx: &mut RequestCtx) -> Self {
        if ctx.route.is_some() {
            ctx.refused = self.reason;
        }
        self
    }
}

/// Writes a failure, then drains the request body when asked.
async fn answer_failure(
    session: &mut Session,
    ctx: &mut RequestCtx,
    failure: Failure,
) -> Result<()> {
    respond::error(
        session,
        ctx,
        &failure.error,
        &failure.headers,
        failure.close,
    )
    .await?;
    if failure.drain {
        body::drain(session).await;
    }
    Ok(())
}

/// Answers a refused exchange in our error shape. `close`: the body was not read to
/// its end, so the connection cannot be reused.
async fn refuse(
    session: &mut Session,
    ctx: &mut RequestCtx,
    refusal: Refusal,
    close: bool,
) -> Result<()> {
    ctx.refused = Some(refusal.reason);
    respond::error(session, ctx, &refusal.error, &[], close).await
}

/// The upstream's request header: the client's, with the exchange's edits, the body's
/// length, and no `Expect` (the body is in hand).
fn upstream_request(
    session: &Session,
    exchange: &Exchange,
    body: &bytes::Bytes,
) -> std::result::Result<pingora::http::RequestHeader, Refusal> {
    let mut request = session.req_header().clone();
    let (uri, edits) = exchange.upstream_request(&request.uri, &request.headers, body)?;
    request.set_uri(uri);
    let framed = request.headers.contains_key("content-length")
        || request.headers.contains_key("transfer-encoding");
    apply_to_request(&mut request, edits).map_err(|_| Refusal::internal())?;
    request.remove_header("transfer-encoding");
    request.remove_header("content-length");
    request.remove_header("expect");
    if framed || !body.is_empty() {
        request
            .insert_header("content-length", body.len().to_string())
            .map_err(|_| Refusal::internal())?;
    }
    request.set_version(http::Version::HTTP_11);
    Ok(request)
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

#[async_trait]
impl ProxyHttp for ApiService {
    type CTX = RequestCtx;

    fn new_ctx(&self) -> Self::CTX {
        RequestCtx::new()
    }

    async fn request_filter(&self, session: &mut Session, ctx: &mut Self::CTX) -> Result<bool> {
        match self.handle(session, ctx).await {
            Ok(Handled::Forward) => self.proxy(session, ctx).await?,
            Ok(Handled::Respond(outcome)) => {
                ctx.texts = outcome.texts;
                ctx.chars = outcome.chars;
                ctx.entities = outcome.entities;
                ctx.actions = outcome.actions;
                respond::json(session, ctx, 200, outcome.body, &[], false).await?;
            }
            Err(failure) => answer_failure(session, ctx, failure).await?,
        }
        Ok(true)
    }

    async fn upstream_peer(
        &self,
        _session: &mut Session,
        _ctx: &mut Self::CTX,
    ) -> Result<Box<HttpPeer>> {
        // request_filter answers every request (see the module doc).
        Err(Error::new(ErrorType::InternalError))
    }

    async fn fail_to_proxy(
        &self,
        session: &mut Session,
        e: &Error,
        ctx: &mut Self::CTX,
    ) -> FailToProxy {
        let downstream = e.esource() == &pingora::ErrorSource::Downstream;
        let status = if session.response_written().is_none() && !downstream {
            let err = ApiError::new(ErrorCode::Internal);
            // The connection is already failing: a write error here changes nothing.
            let _ = respond::error(session, ctx, &err, &[], true).await;
            err.status()
        } else {
            // The answer's header went out: closing without its end is how the client
            // learns the transfer failed.
            0
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
            for (label, count) in &report.monitored {
                *ctx.actions.entry((label, "monitor")).or_default() += count;
            }
            let action = match report.scan {
                ScanAnswers::Monitor => "monitored",
                _ => "anonymized",
            };
            for (label, count) in &report.answer_entities {
                metrics::PROXY_ANSWER_ENTITIES
                    .with_label_values(&[route, label, action])
                    .inc_by(*count);
            }
            ctx.answer_entities = report.answer_entities.values().sum();
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
        for ((label, action), count) in &ctx.actions {
            metrics::POLICY_ACTIONS
                .with_label_values(&[label, action])
                .inc_by(*count);
        }
        let c = self.sessions.counters();
        metrics::set_session_stats(&metrics::SessionStats {
            sessions: c.sessions,
            entries: c.entries_counted.then_some(c.entries),
            bytes: c.bytes,
            hits: c.hits,
            misses: c.misses,
            expirations: c.expirations,
            evictions: c.evictions,
            store_failures: c.failures,
            conflicts: c.conflicts,
        });
        metrics::set_failed_tokens(self.anonymizer.failed_tokens_total());
        metrics::set_detection_failures(self.anonymizer.detection_failures_total());
        metrics::set_pattern_scan_fallbacks(crate::engine::scan_set::fallbacks_total());
        metrics::set_pattern_scan_cache_bytes(crate::engine::scan_set::cache_bytes());
        let m = self.anonymizer.engine().model_stats();
        metrics::set_model_stats(&metrics::ModelStats {
            passes: m.passes,
            windows: m.windows,
            tokens: m.tokens,
            padding: m.padding,
            seconds: m.seconds,
            reread: m.reread,
        });
        let entities: u64 = ctx.entities.values().sum();
        let acted = |action: &str| -> u64 {
            ctx.actions
                .iter()
                .filter(|((_, a), _)| *a == action)
                .map(|(_, n)| n)
                .sum()
        };
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
            monitored = acted("monitor"),
            blocked = acted("block"),
            answer_entities = ctx.answer_entities,
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

/// An upstream connection with its answer's header read.
struct Leg {
    upstream: UpstreamSession,
    peer: HttpPeer,
    route: String,
}

fn count_upstream_error(route: &str, failure: upstream::Failure) {
    metrics::PROXY_UPSTREAM_ERRORS
        .with_label_values(&[route, failure.kind])
        .inc();
}

/// Answers an upstream failure (nothing of the answer has gone out) in our shape.
async fn upstream_failed(
    session: &mut Session,
    ctx: &mut RequestCtx,
    route: &str,
    failure: upstream::Failure,
) -> Result<()> {
    count_upstream_error(route, failure);
    respond::error(session, ctx, &ApiError::new(failure.code), &[], false).await
}

fn apply_to_response(head: &mut ResponseHeader, edits: HeaderEdits) -> Result<()> {
    for name in &edits.remove {
        head.remove_header(name);
    }
    for (name, value) in edits.insert {
        head.insert_header(name, value)?;
    }
    Ok(())
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
