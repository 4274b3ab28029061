//! One proxied exchange as a state machine, with no HTTP server in it: plain `http`
//! types and bytes in, decisions and bytes out. `server/` only carries them between
//! pingora's phases, so everything here is tested without sockets.
//!
//! ```text
//! Exchange::start(route, caller, head, max)   request headers in → a Plan, or a Refusal
//! .check_signature(head, raw, now)           a caller's AWS signature, once the body is in
//! .request_body(chunk, end)                  → Pass | Hold | Anonymize(job)
//!     job.run(&anonymizer)                   CPU-bound: on whichever thread the server likes
//! .anonymized(result)                        → the anonymized body, or a Refusal
//! .upstream_request(uri, headers, body)      → upstream URI + header edits (mirrored
//!                                              headers anonymized, AWS signed again)
//! .response_head(status, headers)            → header edits, or a Refusal
//! .response_body(chunk, end)                 → restored bytes, or a Refusal
//! .report()                                  → entities and placeholders, for metrics
//! ```
//!
//! Fail closed: a refused request body yields no byte at all. The body is held whole
//! until it is anonymized (the format must see every part before any can go), and an
//! error anywhere drops it.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};
use http::header::{HeaderMap, HeaderValue};
use http::{StatusCode, Uri};

use super::answer::{Answer, Bounds, Framing, Live};
use super::credentials::{self, KeyLocation};
use super::encoding::{Coding, Codings};
use super::fault::Fault;
use super::headers::{self, HeaderEdits};
use super::job::{AnonymizeJob, AnonymizedBody, BodyPlan};
use super::mirrored::{self, Mirrored};
use super::refusal::{Reason, Refusal};
use super::route::{AuthMode, CompiledSession, OnUnparsed, RestoreFailure, Route};
use super::scan::{AnswerScan, ScanAnswers};
use super::sigv4;
use super::sse::EventPaths;
use super::tally::Tally;
use crate::anonymizer::{Anonymizer, Options};
use crate::api::{ApiError, Caller, ErrorCode};
use crate::restore::Restorer;

/// The request line and headers, as the client sent them.
#[derive(Debug, Clone, Copy)]
pub struct RequestHead<'a> {
    pub method: &'a http::Method,
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
}

/// What the headers decided.
#[derive(Debug, Clone)]
pub struct Plan {
    /// How the request body is anonymized; `None`: it goes upstream as it is.
    pub body: Option<BodyPlan>,
    /// Whether answers are read (restored): they must come uncompressed.
    pub restores: bool,
}

/// What to do with a request body chunk.
#[derive(Debug)]
pub enum RequestStep {
    /// Forward the chunk as it is.
    Pass,
    /// Held: send nothing yet.
    Hold,
    /// The whole body is in: run the job, then hand its result to
    /// [`Exchange::anonymized`].
    Anonymize(AnonymizeJob),
}

/// What an exchange did, for metrics and the request log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Entities anonymized in the request, by label.
    pub entities: BTreeMap<&'static str, u64>,
    /// Entities a monitoring policy left in place, by label.
    pub monitored: BTreeMap<&'static str, u64>,
    /// Placeholders restored and left unresolved in the answer.
    pub tally: Tally,
    /// Entities the answer introduced, by label, and what was done with them.
    pub answer_entities: BTreeMap<&'static str, u64>,
    pub scan: ScanAnswers,
}

enum RequestState {
    /// The body is forwarded untouched.
    Passthrough,
    /// The body is being buffered.
    Buffering(BytesMut),
    /// The whole body went to the anonymizer.
    Done,
}

/// State of one proxied exchange.
pub struct Exchange {
    route: Arc<Route>,
    caller: Caller,
    plan: Plan,
    request: RequestState,
    restorer: Arc<Restorer>,
    answer: Answer,
    entities: BTreeMap<&'static str, u64>,
    monitored: BTreeMap<&'static str, u64>,
    /// Shared with the stream restorers of the answer (per event).
    tally: Arc<Mutex<Tally>>,
    /// Largest answer buffered to be restored (`limits.max_response_bytes`).
    max_response_bytes: usize,
    /// Where credentials of ours sit in this request: taken off before forwarding.
    ours: Vec<KeyLocation>,
    /// Headers that mirror body fields, as the client sent them (anonymized with the
    /// body), then as they go upstream.
    mirrored: Vec<Mirrored>,
    mirrored_out: Vec<(http::HeaderName, HeaderValue)>,
    /// What scans answers and reads sessions (see [`Exchange::with_anonymizer`]).
    anonymizer: Option<Arc<Anonymizer>>,
    scan: Option<Arc<AnswerScan>>,
    /// The conversation's session, once known (a header, or the body).
    session: Option<String>,
    /// A caller's SigV4 signature, checked once the body is read.
    signature: Option<sigv4::SignatureCheck>,
    /// The request's method (what an AWS signature covers).
    method: http::Method,
    /// The route's own upstream token (Google), fetched for this request.
    provider_token: Option<crate::secret::Secret<String>>,
    /// The caller's tenant policy over the route's, when the tenant has one.
    options: Option<Arc<Options>>,
}

impl std::fmt::Debug for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchange")
            .field("route", &self.route.name)
            .field("plan", &self.plan)
            .finish()
    }
}

impl Exchange {
    /// Plans an exchange on `route` from the request headers; `caller` is who the
    /// server authenticated (with `X-Session-Id` already read for `api_key` routes).
    ///
    /// # Errors
    /// 415 for a content type the route's format does not read (`on_unparsed: reject`)
    /// or an encoding we cannot decode, 413 for a declared length over `max_bytes`,
    /// 422 for a bad session header.
    pub fn start(
        route: Arc<Route>,
        mut caller: Caller,
        head: &RequestHead<'_>,
        max_bytes: usize,
    ) -> Result<Exchange, Refusal> {
        if let Some(CompiledSession::Header(name)) = &route.session {
            if let Some(value) = head.headers.get(name.as_str()) {
                let id = crate::api::session_id(name, value.as_bytes())
                    .map_err(|e| Refusal::new(Reason::BadSession, e))?;
                caller.session_id = Some(id);
            }
        }
        let body = body_plan(&route, head.headers, max_bytes)?;
        let mirrored =
            mirrored::collect(&route.mirrored_headers, head.headers).map_err(|name| {
                Refusal::field(
                    Reason::Malformed,
                    format!("headers.{name}"),
                    "not a value that can be read (UTF-8, or MCP's =?base64?…?= wrapper)",
                )
            })?;
        if !mirrored.is_empty() && body.is_none() {
            // Nothing would anonymize them: they must not go as they are.
            return Err(Refusal::field(
                Reason::Malformed,
                format!("headers.{}", mirrored[0].name),
                "mirrors a body field, but the request has no body this route reads",
            ));
        }
        let restores = !route.restore.is_empty()
            || !route.restore_stream.is_empty()
            || !route.restore_events.is_empty();
        let request = match body {
            Some(_) => RequestState::Buffering(BytesMut::new()),
            None => RequestState::Passthrough,
        };
        // On an `api_key` route whatever sits where our key may be is ours (the server
        // checked it); on a passthrough route the server names what it found ours.
        let ours = match route.auth {
            AuthMode::ApiKey => route.key_locations.clone(),
            AuthMode::Passthrough => Vec::new(),
        };
        let session = caller.session_id.clone();
        Ok(Exchange {
            route,
            caller,
            plan: Plan { body, restores },
            request,
            restorer: Arc::new(Restorer::empty()),
            answer: Answer::Passthrough,
            entities: BTreeMap::new(),
            monitored: BTreeMap::new(),
            tally: Arc::default(),
            max_response_bytes: crate::api::Limits::default().max_response_bytes,
            ours,
            mirrored,
            mirrored_out: Vec::new(),
            anonymizer: None,
            scan: None,
            session,
            signature: None,
            method: head.method.clone(),
            provider_token: None,
            options: None,
        })
    }

    /// Scans answers with `anonymizer` when the route asks for it (`scan_answers`), and
    /// reads the session's map for answers whose request brought none (a stream opened
    /// with `GET`).
    pub fn with_anonymizer(mut self, anonymizer: &Arc<Anonymizer>) -> Self {
        self.anonymizer = Some(Arc::clone(anonymizer));
        self
    }

    /// Anonymizes (and scans) with `options` rather than the route's: the caller's
    /// tenant policy over the route's.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = Some(Arc::new(options));
        self
    }

    /// The options this exchange anonymizes with.
    fn options(&self) -> Arc<Options> {
        self.options
            .clone()
            .unwrap_or_else(|| Arc::clone(&self.route.options))
    }

    /// The session's restorer, read again whenever an answer's event holds a
    /// placeholder the last one did not know: for answers to a request without a body
    /// to anonymize (which would have brought the map), in a session.
    fn live_restorer(&self) -> Option<Live> {
        if self.request_anonymized() {
            return None;
        }
        let anonymizer = Arc::clone(self.anonymizer.as_ref()?);
        let session = self.session.clone()?;
        let tenant = self.caller.tenant.clone();
        Some(Live(Arc::new(move || {
            let scope = crate::anonymizer::Scope {
                tenant: &tenant,
                session: Some(&session),
            };
            anonymizer
                .restorer(&scope, None, crate::restore::MatchMode::Exact)
                .ok()
        })))
    }

    /// Whether the request's body went through the anonymizer (which set the restorer).
    fn request_anonymized(&self) -> bool {
        matches!(self.request, RequestState::Done)
    }

    /// Sends `token` as the bearer upstream (the route's `google_credentials`).
    pub fn use_provider_token(&mut self, token: crate::secret::Secret<String>) {
        self.provider_token = Some(token);
    }

    /// Checks `check` over the whole request once its body is read
    /// ([`Exchange::check_signature`]).
    pub fn expect_signature(&mut self, check: sigv4::SignatureCheck) {
        self.signature = Some(check);
    }

    /// The caller's SigV4 signature over the request as it came (`raw` is its body as
    /// sent), when one is expected: valid with one of the tenant's keys, or refused.
    ///
    /// # Errors
    /// 401 `invalid_api_key`: the signature does not verify (nothing is forwarded).
    pub fn check_signature(
        &self,
        head: &RequestHead<'_>,
        raw: &[u8],
        now: std::time::SystemTime,
    ) -> Result<(), Refusal> {
        let Some(check) = &self.signature else {
            return Ok(());
        };
        let path = head.uri.path_and_query().map_or("/", |p| p.as_str());
        if check.verifies(head.method.as_str(), path, head.headers, raw, now) {
            Ok(())
        } else {
            Err(Refusal::new(
                Reason::BadSignature,
                ApiError::new(ErrorCode::InvalidApiKey).with_message(
                    "the request's AWS signature does not verify: sign with a tenant as the \
                     access key id and one of its keys as the secret",
                ),
            ))
        }
    }

    /// Bounds what is buffered of the answer (default: `limits.max_response_bytes`'s).
    pub fn with_response_limit(mut self, max_bytes: usize) -> Self {
        self.max_response_bytes = max_bytes;
        self
    }

    /// Also takes the credential at `location` off the forwarded request: the server
    /// found a key of ours there on a passthrough route.
    pub fn strip_credential(&mut self, location: KeyLocation) {
        if !self.ours.contains(&location) {
            self.ours.push(location);
        }
    }

    pub fn route(&self) -> &Route {
        &self.route
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The upstream's request URI (path rewritten, query kept) and header edits.
    ///
    /// # Errors
    /// Only when the rewritten path is not a valid URI (a bug).
    pub fn upstream_request(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Result<(Uri, HeaderEdits), Refusal> {
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        let path = credentials::strip_query(path, &self.ours);
        let upstream_uri = self
            .route
            .upstream_path(&path)
            .parse::<Uri>()
            .map_err(|_| Refusal::internal())?;
        let mut edits = HeaderEdits::default();
        edits.remove_hop_by_hop(headers);
        for name in credentials::headers_to_strip(&self.ours, headers) {
            edits.remove_present(headers, name.as_str());
        }
        edits.mark_credentials_sensitive(headers);
        let up = &self.route.upstream;
        let default_port = if up.tls { 443 } else { 80 };
        let host = if up.port == default_port {
            up.host.clone()
        } else {
            format!("{}:{}", up.host, up.port)
        };
        let host = HeaderValue::from_str(&host).map_err(|_| Refusal::internal())?;
        edits.insert(http::header::HOST, host);
        for (name, value) in &up.add_headers {
            edits.insert(name.clone(), value.expose().clone());
        }
        for (name, value) in &self.mirrored_out {
            edits.insert(name.clone(), value.clone());
        }
        if let Some(token) = &self.provider_token {
            let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
                .map_err(|_| Refusal::no_credential())?;
            value.set_sensitive(true);
            edits.insert(http::header::AUTHORIZATION, value);
        }
        if self.plan.restores {
            // We must read what comes back: ask for it uncompressed.
            edits.remove_present(headers, "accept-encoding");
        }
        if self.plan.body.is_some() {
            // The rewritten body has another length; the server frames it.
            edits.remove_present(headers, "content-length");
        }
        if let Some(aws) = &self.route.aws {
            // The caller's signature covered the body as it came: ours covers this one.
            for name in [
                "authorization",
                "x-amz-date",
                "x-amz-security-token",
                "x-amz-content-sha256",
            ] {
                edits.remove_present(headers, name);
            }
            let mut forwarded = headers.clone();
            edits.apply(&mut forwarded);
            let path = upstream_uri.path_and_query().map_or("/", |p| p.as_str());
            let host = forwarded
                .get(http::header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let request = sigv4::Outgoing {
                method: self.method.as_str(),
                path_and_query: path,
                host: &host,
                headers: &forwarded,
                body,
            };
            let now = std::time::SystemTime::now();
            for (name, value) in
                sigv4::sign(&aws.credentials, &aws.region, &aws.service, &request, now)
            {
                edits.insert(name, value);
            }
        }
        Ok((upstream_uri, edits))
    }

    /// Takes a request body chunk (`None`: no data with this call).
    ///
    /// # Errors
    /// 413 when the body grows over the limit; nothing of it is forwarded.
    pub fn request_body(
        &mut self,
        chunk: Option<&[u8]>,
        end: bool,
    ) -> Result<RequestStep, Refusal> {
        match self.request {
            RequestState::Passthrough => return Ok(RequestStep::Pass),
            // Nothing may follow the anonymized body.
            RequestState::Done => return Ok(RequestStep::Hold),
            RequestState::Buffering(_) => {}
        }
        let (Some(plan), RequestState::Buffering(buffer)) = (&self.plan.body, &mut self.request)
        else {
            return Err(Refusal::internal());
        };
        if let Some(chunk) = chunk {
            if buffer.len() + chunk.len() > plan.max_bytes {
                self.request = RequestState::Done;
                return Err(too_large(plan.max_bytes));
            }
            buffer.extend_from_slice(chunk);
        }
        if !end {
            return Ok(RequestStep::Hold);
        }
        let body = std::mem::take(buffer).freeze();
        let plan = plan.clone();
        self.request = RequestState::Done;
        let options = self.options();
        Ok(RequestStep::Anonymize(AnonymizeJob {
            route: Arc::clone(&self.route),
            options,
            caller: self.caller.clone(),
            body,
            plan,
            mirrored: std::mem::take(&mut self.mirrored),
        }))
    }

    /// Takes the result of the request's [`AnonymizeJob`]; returns the body to send.
    ///
    /// # Errors
    /// The job's refusal, passed on.
    pub fn anonymized(
        &mut self,
        result: Result<AnonymizedBody, Refusal>,
    ) -> Result<Bytes, Refusal> {
        let done = result?;
        self.mirrored_out = done.headers;
        self.session = done.session;
        self.restorer = Arc::new(done.restorer);
        self.entities = done.entities;
        self.monitored = done.monitored;
        Ok(done.body)
    }

    /// Chooses how to treat the answer from its status and headers.
    ///
    /// # Errors
    /// 502 when a body we must restore comes in an encoding we cannot read, or declares
    /// a length over the response limit.
    pub fn response_head(
        &mut self,
        status: StatusCode,
        headers: &HeaderMap,
    ) -> Result<HeaderEdits, Refusal> {
        let mut edits = HeaderEdits::default();
        edits.remove_hop_by_hop(headers);
        let content_type = headers::lower(headers, "content-type");
        let has_body = !(status.is_informational()
            || status == StatusCode::NO_CONTENT
            || status == StatusCode::NOT_MODIFIED);
        // Error answers quote the request (`error.message`): restored on every route
        // that restores anything, whatever its paths.
        let error = status.is_client_error() || status.is_server_error();
        let framing = Framing::of(
            &content_type,
            !self.route.restore.is_empty() || (error && self.plan.restores),
            !(self.route.restore_stream.is_empty() && self.route.restore_events.is_empty()),
        );
        let Some(framing) = framing.filter(|_| has_body) else {
            return Ok(edits);
        };
        let policy = self.route.restore_failure;
        let codings = Codings::parse_bytes(
            headers
                .get_all(http::header::CONTENT_ENCODING)
                .iter()
                .map(HeaderValue::as_bytes),
        );
        let codings = match codings {
            // Decoding a stream as it arrives is not supported; we asked for none.
            Ok(codings) if codings.is_identity() || !framing.is_streamed() => codings,
            _ => {
                if let Ok(mut tally) = self.tally.lock() {
                    tally.faults.add(Fault::UnreadableEncoding);
                }
                return match policy {
                    RestoreFailure::Passthrough => Ok(edits),
                    RestoreFailure::Error => Err(Refusal::unreadable_response()),
                };
            }
        };
        let declared = headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.max_response_bytes as u64) && !framing.is_streamed() {
            return Err(Refusal::response_too_large());
        }
        edits.remove_present(headers, "content-length");
        edits.remove_present(headers, "content-encoding");
        let scanning = self
            .anonymizer
            .as_ref()
            .filter(|_| self.route.scan_answers != ScanAnswers::Off);
        self.scan = scanning.and_then(|anonymizer| {
            AnswerScan::new(
                Arc::clone(anonymizer),
                &self.caller.tenant,
                self.session.as_deref(),
                &self.options(),
                self.route.scan_answers,
                Arc::clone(&self.restorer),
            )
        });
        self.answer = Answer::framed(
            framing,
            EventPaths {
                fragments: self.route.restore_stream.clone(),
                complete: self.route.restore_events.clone(),
            },
            Arc::clone(&self.restorer),
            Arc::clone(&self.tally),
            Bounds {
                codings,
                every_string: error,
                limit: self.max_response_bytes,
                policy,
                scan: self.scan.clone(),
                live: self.live_restorer(),
            },
        );
        Ok(edits)
    }

    /// Whether the answer is read whole before anything of it goes out (so its length
    /// is known, and a failure can still be answered with an error).
    pub fn buffers_answer(&self) -> bool {
        self.answer.is_whole()
    }

    /// Whether the answer's first bytes must be seen before [`Exchange::buffers_answer`]
    /// can tell (a JSON answer may be an array streamed element by element).
    pub fn answer_undecided(&self) -> bool {
        self.answer.is_undecided()
    }

    /// Takes an answer chunk; returns what goes to the client now (`None`: nothing).
    ///
    /// # Errors
    /// 502 when the answer is over the response limit or cannot be read as announced,
    /// or cannot be restored on a route whose `restore_failure` is `error` (what went
    /// out before was restored).
    pub fn response_body(
        &mut self,
        chunk: Option<Bytes>,
        end: bool,
    ) -> Result<Option<Bytes>, Refusal> {
        self.answer
            .push(chunk, end, &self.route.restore, &self.restorer, &self.tally)
    }

    pub fn report(&self) -> Report {
        let mut tally = self.tally.lock().map(|t| *t).unwrap_or_default();
        let answer_entities = self.scan.as_ref().map(|s| s.found()).unwrap_or_default();
        if let Some(scan) = &self.scan {
            tally.faults.add_n(Fault::Unscanned, scan.failures());
        }
        Report {
            entities: self.entities.clone(),
            monitored: self.monitored.clone(),
            tally,
            answer_entities,
            scan: self.route.scan_answers,
        }
    }
}

fn too_large(max: usize) -> Refusal {
    Refusal::new(
        Reason::TooLarge,
        ApiError::new(ErrorCode::PayloadTooLarge)
            .with_message(format!("request body is larger than {max} bytes")),
    )
}

/// Whether and how the request body is anonymized, from its headers.
fn body_plan(
    route: &Route,
    headers: &HeaderMap,
    max_bytes: usize,
) -> Result<Option<BodyPlan>, Refusal> {
    if !route.rewrites_request() {
        return Ok(None);
    }
    let has_body = headers
        .get(http::header::CONTENT_LENGTH)
        .is_some_and(|v| v.as_bytes() != b"0")
        || headers.contains_key(http::header::TRANSFER_ENCODING);
    if !has_body {
        return Ok(None);
    }
    let content_type = headers::lower(headers, "content-type");
    if !route.body.accepts(&content_type) {
        return match route.on_unparsed {
            OnUnparsed::Passthrough => Ok(None),
            OnUnparsed::Reject => Err(Refusal::new(
                Reason::UnsupportedMediaType,
                ApiError::new(ErrorCode::UnsupportedMediaType).with_message(format!(
                    "this route reads {} bodies only",
                    route.body.as_str()
                )),
            )),
        };
    }
    let declared = headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    if declared.is_some_and(|n| n > max_bytes) {
        return Err(too_large(max_bytes));
    }
    // A body we must read in an encoding we cannot: refused whatever `on_unparsed` says,
    // since its content type says it holds what the route anonymizes.
    let codings = Codings::parse_bytes(
        headers
            .get_all(http::header::CONTENT_ENCODING)
            .iter()
            .map(HeaderValue::as_bytes),
    )
    .map_err(|_| {
        Refusal::new(
            Reason::UnsupportedEncoding,
            ApiError::new(ErrorCode::UnsupportedMediaType)
                .with_message("this route cannot read the request's Content-Encoding"),
        )
    })?;
    let format = route.body.for_content_type(&content_type);
    let codings = if format.is_snappy_framed() {
        // Loki reads `Content-Encoding: snappy` on a protobuf push as naming the block
        // the format has anyway (grafana/loki#3407), not as a second layer.
        let mut codings = codings.without_final_snappy().as_slice().to_vec();
        codings.push(Coding::Snappy);
        Codings::from_codings(codings)
    } else {
        codings
    };
    Ok(Some(BodyPlan {
        format,
        codings,
        max_bytes,
    }))
}

#[cfg(test)]
mod tests;
