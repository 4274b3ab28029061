//! The proxy half of the service: per-request state of a forwarded exchange and the
//! pingora-facing steps of each phase (headers, request body rewrite, response restore).
//! The JSON work itself lives in `crate::proxy`.

use std::sync::Arc;
use std::time::Instant;

use bytes::{Bytes, BytesMut};
use pingora::http::{RequestHeader, ResponseHeader};
use pingora::prelude::*;

use crate::anonymizer::Anonymizer;
use crate::anonymizer::{AnonymizeError, Scope};
use crate::api::error::Detail;
use crate::api::{ApiError, Caller, ErrorCode};
use crate::proxy::rewrite::{self, RewriteError};
use crate::proxy::route::CompiledSession;
use crate::proxy::route::{OnUnparsed, Route};
use crate::proxy::sse::{SseRestorer, TextStream};
use crate::proxy::tally::Tally;
use crate::restore::stream::StreamRestorer;
use crate::restore::{MapEntry, MatchMode, Restorer};

/// Hop-by-hop headers (RFC 9110 §7.6.1) and ours, never forwarded in either direction.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "upgrade",
];
/// Our credential: it never reaches an upstream.
const API_KEY_HEADER: &str = "x-api-key";

/// How the response body is handled.
pub enum ResponseMode {
    /// Bytes go through untouched.
    Passthrough,
    /// Buffered, then restored as one JSON document.
    Whole(BytesMut),
    /// Server-Sent Events, restored event by event as they arrive.
    Stream(Box<SseRestorer>),
}

/// State of one forwarded exchange.
pub struct Exchange {
    pub route: Arc<Route>,
    pub caller: Caller,
    /// Whether the request body is anonymized (false for `on_unparsed: passthrough`
    /// bodies of another content type).
    pub rewrite_request: bool,
    pub request_body: BytesMut,
    /// Restores the response: the request's map, or the session's whole map.
    pub restorer: Arc<Restorer>,
    pub response: ResponseMode,
    pub error: Option<ApiError>,
    pub upstream_started: Option<Instant>,
    pub entities: std::collections::BTreeMap<&'static str, u64>,
    /// Placeholders restored and left unresolved in the answer (streams: per event, so
    /// a token split across events is not counted).
    pub tally: Arc<std::sync::Mutex<Tally>>,
}

impl Exchange {
    pub fn new(route: Arc<Route>, caller: Caller) -> Self {
        Self {
            route,
            caller,
            rewrite_request: false,
            request_body: BytesMut::new(),
            restorer: Arc::new(Restorer::empty()),
            response: ResponseMode::Passthrough,
            error: None,
            upstream_started: None,
            entities: Default::default(),
            tally: Default::default(),
        }
    }

    /// Decides from the request headers whether the body is rewritten.
    ///
    /// # Errors
    /// 415 when the route must anonymize a body that is not JSON and `on_unparsed: reject`.
    pub fn plan_request(&mut self, req: &RequestHeader) -> Result<(), ApiError> {
        if !self.route.rewrites_request() {
            return Ok(());
        }
        let content_type = req
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let has_body = req
            .headers
            .get("content-length")
            .is_some_and(|v| v.as_bytes() != b"0")
            || req.headers.get("transfer-encoding").is_some();
        let json = content_type.contains("json");
        if json || !has_body && content_type.is_empty() {
            self.rewrite_request = has_body;
            return Ok(());
        }
        match self.route.on_unparsed {
            OnUnparsed::Passthrough => Ok(()),
            OnUnparsed::Reject => Err(ApiError::new(ErrorCode::UnsupportedMediaType)
                .with_message("this route only forwards JSON bodies")),
        }
    }

    /// Prepares the request header for the upstream.
    ///
    /// # Errors
    /// Only on header values pingora rejects (a bug).
    pub fn upstream_request(&self, req: &mut RequestHeader) -> Result<()> {
        let path = req
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned();
        let upstream_path = self.route.upstream_path(&path);
        let uri = upstream_path
            .parse::<http::Uri>()
            .or_err(ErrorType::InternalError, "rewriting the upstream path")?;
        req.set_uri(uri);
        for name in hop_by_hop(&req.headers) {
            req.remove_header(&name);
        }
        req.remove_header(API_KEY_HEADER);
        let up = &self.route.upstream;
        let default_port = if up.tls { 443 } else { 80 };
        let host = if up.port == default_port {
            up.host.clone()
        } else {
            format!("{}:{}", up.host, up.port)
        };
        req.insert_header("host", host)?;
        for (name, value) in &up.add_headers {
            req.insert_header(name.clone(), value.clone())?;
        }
        if !self.route.restore.is_empty() || !self.route.restore_stream.is_empty() {
            // We must read what comes back: ask for it uncompressed.
            req.remove_header("accept-encoding");
        }
        if self.rewrite_request {
            // The rewritten body has another length.
            req.remove_header("content-length");
            req.insert_header("transfer-encoding", "chunked")?;
        }
        Ok(())
    }

    /// Buffers request body chunks. Returns the whole body once the last chunk is in;
    /// until then `body` is replaced by an empty chunk ("nothing yet": `None` would end
    /// the upstream body).
    ///
    /// # Errors
    /// 413 when the body grows over `max` bytes; nothing of it is forwarded.
    pub fn buffer_request(
        &mut self,
        body: &mut Option<Bytes>,
        end: bool,
        max: usize,
    ) -> Result<Option<BytesMut>, ApiError> {
        if let Some(chunk) = body.take() {
            if self.request_body.len() + chunk.len() > max {
                return Err(ApiError::new(ErrorCode::PayloadTooLarge)
                    .with_message(format!("request body is larger than {max} bytes")));
            }
            self.request_body.extend_from_slice(&chunk);
        }
        if end {
            Ok(Some(std::mem::take(&mut self.request_body)))
        } else {
            *body = Some(Bytes::new());
            Ok(None)
        }
    }

    /// Records an anonymized request: its restorer restores the response.
    pub fn set_anonymized(&mut self, request: AnonymizedRequest, body: &mut Option<Bytes>) {
        self.restorer = Arc::new(request.restorer);
        self.entities = request.entities;
        *body = Some(Bytes::from(request.body));
    }

    /// Chooses how to treat the response body from its headers.
    ///
    /// # Errors
    /// 502 when a body we must restore comes in an encoding we cannot read.
    pub fn response_header(&mut self, resp: &mut ResponseHeader) -> Result<(), ApiError> {
        for name in hop_by_hop(&resp.headers) {
            resp.remove_header(&name);
        }
        let content_type = resp
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let whole = content_type.contains("json") && !self.route.restore.is_empty();
        let stream =
            content_type.contains("text/event-stream") && !self.route.restore_stream.is_empty();
        if !whole && !stream {
            return Ok(());
        }
        let encoded = resp
            .headers
            .get("content-encoding")
            .is_some_and(|v| !v.as_bytes().eq_ignore_ascii_case(b"identity"));
        if encoded {
            return Err(ApiError::new(ErrorCode::BadGateway)
                .with_message("the upstream answered in an encoding that cannot be restored"));
        }
        resp.remove_header("content-length");
        self.response = if stream {
            let restorer = Arc::clone(&self.restorer);
            let tally = Arc::clone(&self.tally);
            ResponseMode::Stream(Box::new(SseRestorer::new(
                self.route.restore_stream.clone(),
                Box::new(move || {
                    Box::new(FieldStream::new(Arc::clone(&restorer), Arc::clone(&tally)))
                        as Box<dyn TextStream>
                }),
            )))
        } else {
            ResponseMode::Whole(BytesMut::new())
        };
        Ok(())
    }

    /// Restores response body chunks according to the response mode.
    pub fn response_body(&mut self, body: &mut Option<Bytes>, end: bool) {
        match &mut self.response {
            ResponseMode::Passthrough => {}
            ResponseMode::Whole(buffer) => {
                if let Some(chunk) = body.take() {
                    buffer.extend_from_slice(&chunk);
                }
                if end {
                    let restored = self.restore_whole();
                    *body = Some(Bytes::from(restored));
                }
            }
            ResponseMode::Stream(sse) => {
                let mut out = match body.take() {
                    Some(chunk) => sse.push(&chunk),
                    None => Vec::new(),
                };
                if end {
                    out.extend(sse.finish());
                }
                // `None` sends nothing now; an empty chunk would end a chunked body.
                *body = (!out.is_empty()).then(|| Bytes::from(out));
            }
        }
    }

    fn restore_whole(&mut self) -> Vec<u8> {
        let ResponseMode::Whole(buffer) = &self.response else {
            return Vec::new();
        };
        let restorer = &self.restorer;
        let mut tally = Tally::default();
        let mut restore = |t: &str| {
            let restored = restorer.restore(t);
            tally.add(t, &restored);
            restored
        };
        // A body that is not JSON after all is restored as text.
        let out = rewrite::rewrite(buffer, self.route.body, &self.route.restore, |texts| {
            texts.iter().map(|t| restore(t)).collect()
        })
        .unwrap_or_else(|_| restore(&String::from_utf8_lossy(buffer)).into_bytes());
        if let Ok(mut total) = self.tally.lock() {
            total.restored += tally.restored;
            total.unresolved += tally.unresolved;
        }
        out
    }
}

/// One streamed text field, restored as it arrives (see `restore::stream`).
struct FieldStream {
    restorer: Arc<Restorer>,
    stream: StreamRestorer,
    tally: Arc<std::sync::Mutex<Tally>>,
}

impl FieldStream {
    fn new(restorer: Arc<Restorer>, tally: Arc<std::sync::Mutex<Tally>>) -> Self {
        Self {
            stream: StreamRestorer::new(Arc::clone(&restorer)),
            restorer,
            tally,
        }
    }

    fn count(&self, before: &str, after: &str) {
        if let Ok(mut tally) = self.tally.lock() {
            tally.add(before, after);
        }
    }
}

impl TextStream for FieldStream {
    fn push(&mut self, chunk: &str) -> String {
        let out = self.stream.push(chunk);
        self.count(chunk, &out);
        out
    }

    fn flush(&mut self) -> String {
        let fresh = StreamRestorer::new(Arc::clone(&self.restorer));
        let out = std::mem::replace(&mut self.stream, fresh).finish();
        self.count("", &out);
        out
    }

    fn restore_whole(&self, text: &str) -> String {
        self.restorer.restore(text)
    }
}

/// A request body with the route's fields anonymized, and what restores the answer.
pub struct AnonymizedRequest {
    pub body: Vec<u8>,
    pub restorer: Restorer,
    pub entities: std::collections::BTreeMap<&'static str, u64>,
}

/// Anonymizes the fields `route` selects in `body`, all in one batch (so placeholders
/// are consistent across fields), in the caller's session when the route names one.
/// CPU-bound: callers run big bodies off the executor.
///
/// # Errors
/// 422 when the body is not JSON or the session is full, 503 when detection failed
/// (nothing may be forwarded in any of these), 500 on an internal fault.
pub fn anonymize_request(
    route: &Route,
    anonymizer: &Anonymizer,
    caller: &Caller,
    body: &[u8],
) -> Result<AnonymizedRequest, ApiError> {
    let session = match (&route.session, &caller.session_id) {
        (Some(CompiledSession::JsonPath(path)), _) => session_from_body(path, body),
        (_, id) => id.clone(),
    };
    let scope = Scope {
        tenant: &caller.tenant,
        session: session.as_deref(),
    };
    let mut map = Vec::new();
    let mut entities = std::collections::BTreeMap::new();
    let mut failure = None;
    let rewritten = rewrite::rewrite(body, route.body, &route.anonymize, |texts| match anonymizer
        .anonymize(&scope, &texts, &route.options)
    {
        Ok(result) => {
            for e in result.entities {
                *entities.entry(e.label.as_str()).or_insert(0u64) += 1;
                map.push(MapEntry {
                    original: e.text,
                    anonymized: e.replacement,
                });
            }
            result.texts
        }
        Err(e) => {
            failure = Some(e);
            texts
        }
    })
    .map_err(|e| match e {
        RewriteError::NotJson { document } => ApiError::validation(vec![Detail {
            field: format!("body[{document}]"),
            reason: "not valid JSON; nothing was forwarded".into(),
        }])
        .with_message("the request body could not be anonymized"),
        RewriteError::Incomplete => ApiError::new(ErrorCode::Internal),
    })?;
    // Fail closed: the texts were not anonymized, so no byte of the body goes upstream.
    match failure {
        Some(AnonymizeError::SessionFull) => {
            return Err(ApiError::validation(vec![Detail {
                field: "session".into(),
                reason: "the session holds its maximum number of entries".into(),
            }]));
        }
        Some(AnonymizeError::DetectionFailed(e)) => return Err(e.into()),
        None => {}
    }
    // With a session, the answer may quote placeholders of earlier turns too: restore
    // with the session's whole map.
    let map = if session.is_some() {
        None
    } else {
        Some(map.as_slice())
    };
    let restorer = anonymizer
        .restorer(&scope, map, MatchMode::Exact)
        .map_err(|_| ApiError::new(ErrorCode::Internal))?;
    Ok(AnonymizedRequest {
        body: rewritten,
        restorer,
        entities,
    })
}

/// The session id at `path` in a JSON body: the first string found, if any.
fn session_from_body(path: &crate::proxy::jsonpath::JsonPath, body: &[u8]) -> Option<String> {
    let mut value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let mut found = None;
    path.visit_mut(&mut value, &mut |_, s| {
        if found.is_none() && !s.is_empty() && s.len() <= 128 {
            found = Some(s.clone());
        }
    });
    found
}

/// Names of the hop-by-hop headers present, including those listed in `Connection`.
fn hop_by_hop(headers: &http::HeaderMap) -> Vec<String> {
    let mut names: Vec<String> = headers
        .get_all("connection")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    names.extend(HOP_BY_HOP.iter().map(|s| (*s).to_owned()));
    names.retain(|n| headers.contains_key(n.as_str()));
    names
}
