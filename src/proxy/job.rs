//! Anonymizing one whole request body: decode it, cut it into texts with the route's
//! format, anonymize them as one batch (so placeholders agree across fields and lines),
//! write them back and encode again. Pure and `Send`: the server runs big bodies off
//! its executor.

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;

use super::encoding::Codings;
use super::encoding::{self, DecodeErrorKind};
use super::format::{BodyFormat, FormatError};
use super::jsonpath::JsonPath;
use super::mirrored::{self, Mirrored};
use super::refusal::{Reason, Refusal};
use super::route::{CompiledSession, Route};
use crate::anonymizer::{Action, AnonymizeError, Anonymizer, Options, RestoreError, Scope};
use crate::api::{ApiError, Caller, ErrorCode};
use crate::restore::{MatchMode, Restorer};

/// How a request body is read.
#[derive(Debug, Clone)]
pub struct BodyPlan {
    /// The route's format as this body's content type selects it.
    pub format: BodyFormat,
    /// The content codings to undo before the format reads the body and to redo after,
    /// in the order the client applied them. The upstream gets the same codings, so the
    /// client's `Content-Encoding` goes up unchanged. A Loki protobuf push ends in its
    /// snappy block here whatever its header says.
    pub codings: Codings,
    /// Largest body, on the wire and decoded (every layer).
    pub max_bytes: usize,
}

/// A whole request body and what it needs to be anonymized.
#[derive(Debug)]
pub struct AnonymizeJob {
    pub(super) route: Arc<Route>,
    /// The route's options, or the caller's tenant policy over them.
    pub(super) options: Arc<Options>,
    pub(super) caller: Caller,
    pub(super) body: Bytes,
    pub(super) plan: BodyPlan,
    /// Request headers that repeat body fields: anonymized in the same batch.
    pub(super) mirrored: Vec<Mirrored>,
}

/// An anonymized body and what restores its answer.
pub struct AnonymizedBody {
    pub body: Bytes,
    /// The mirrored headers as they go upstream.
    pub headers: Vec<(http::HeaderName, http::HeaderValue)>,
    /// The session the body was anonymized in (from a header or the body).
    pub session: Option<String>,
    pub restorer: Restorer,
    pub entities: BTreeMap<&'static str, u64>,
    /// The ones a monitoring policy left in place instead.
    pub monitored: BTreeMap<&'static str, u64>,
}

impl std::fmt::Debug for AnonymizedBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the body: it is what we anonymized, but the log must not depend on that.
        f.debug_struct("AnonymizedBody")
            .field("bytes", &self.body.len())
            .field("entities", &self.entities)
            .finish()
    }
}

impl AnonymizeJob {
    /// The body's size in bytes, for choosing where to run the job.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// Whether the route's detection runs a model, for choosing where to run the job.
    pub fn runs_model(&self, anonymizer: &Anonymizer) -> bool {
        anonymizer.runs_model(&self.options)
    }

    /// # Errors
    /// A refusal for every way the body cannot be anonymized; then nothing of it may be
    /// forwarded.
    pub fn run(self, anonymizer: &Anonymizer) -> Result<AnonymizedBody, Refusal> {
        let route = &self.route;
        let plan = self.plan;
        let decoded = encoding::decode(&plan.codings, &self.body, plan.max_bytes).map_err(|e| {
            match e.kind() {
                DecodeErrorKind::TooLarge => Refusal::new(
                    Reason::TooLarge,
                    ApiError::new(ErrorCode::PayloadTooLarge)
                        .with_message("the decoded request body is larger than the limit"),
                ),
                // Unknown codings were refused with the headers (415); `Unsupported`
                // cannot come from decoding, and is refused like corrupt bytes if it did.
                DecodeErrorKind::Malformed | DecodeErrorKind::Unsupported => Refusal::field(
                    Reason::Undecodable,
                    "body",
                    format!(
                        "does not decode as its Content-Encoding ({}); nothing was forwarded",
                        plan.codings.header_value().unwrap_or_default()
                    ),
                ),
            }
        })?;
        // `deflate` resolved to the zlib or raw format that arrived: encoded again so.
        let codings = decoded.codings;
        let decoded = decoded.body;
        let session = match (&route.session, &self.caller.session_id) {
            (Some(CompiledSession::JsonPath(path)), _) => session_from_body(path, &decoded),
            (_, id) => id.clone(),
        };
        let scope = Scope {
            tenant: &self.caller.tenant,
            session: session.as_deref(),
        };
        let parsed = plan
            .format
            .parse_with(&decoded, &route.anonymize, &route.log_fields)
            .map_err(refuse_format)?;
        let body_texts = parsed.texts().len();
        let mut monitored = BTreeMap::new();
        let mut unchanged = false;
        let (mut texts, map, entities) = if body_texts == 0 && self.mirrored.is_empty() {
            (Vec::new(), Vec::new(), BTreeMap::new())
        } else {
            let mut all = parsed.texts().to_vec();
            all.extend(self.mirrored.iter().map(|m| m.value.clone()));
            let result = anonymizer
                .anonymize_typed(&scope, &all, parsed.types(), &self.options)
                .map_err(|e| match e {
                    AnonymizeError::Blocked(b) => Refusal::new(Reason::Blocked, b.into()),
                    AnonymizeError::SessionFull => Refusal::field(
                        Reason::SessionFull,
                        "session",
                        "the session holds its maximum number of entries",
                    ),
                    AnonymizeError::DetectionFailed(e) => {
                        Refusal::new(Reason::DetectionFailed, e.into())
                    }
                    AnonymizeError::SessionStoreUnavailable => Refusal::code(
                        Reason::SessionStoreUnavailable,
                        ErrorCode::SessionStoreUnavailable,
                    ),
                })?;
            let mut entities = BTreeMap::new();
            for e in &result.entities {
                if e.replaced() {
                    *entities.entry(e.label.metric_name()).or_insert(0u64) += 1;
                }
                if e.action == Action::Monitor {
                    *monitored.entry(e.label.metric_name()).or_insert(0u64) += 1;
                }
            }
            if result.texts == all {
                // Nothing replaced (a monitoring policy, or nothing found): the body goes
                // on as it came, byte for byte.
                unchanged = true;
            }
            let map = result.restore_map();
            (result.texts, map, entities)
        };
        let own = texts.split_off(body_texts.min(texts.len()));
        let headers = mirrored::rewritten(&self.mirrored, parsed.texts(), &texts, &own);
        let body = if unchanged && headers.is_empty() {
            self.body.clone()
        } else {
            let written = parsed.write(&texts).map_err(refuse_format)?;
            Bytes::from(encoding::encode(&codings, &written).map_err(|_| Refusal::internal())?)
        };
        // With a session, the answer may quote placeholders of earlier turns too: restore
        // with the session's whole map.
        let map = if session.is_some() {
            None
        } else {
            Some(map.as_slice())
        };
        let restorer = anonymizer
            .restorer(&scope, map, MatchMode::Exact)
            .map_err(|e| match e {
                RestoreError::SessionStoreUnavailable => Refusal::code(
                    Reason::SessionStoreUnavailable,
                    ErrorCode::SessionStoreUnavailable,
                ),
                RestoreError::Map(_) => Refusal::internal(),
            })?;
        Ok(AnonymizedBody {
            body,
            headers,
            session,
            restorer,
            entities,
            monitored,
        })
    }
}

fn refuse_format(e: FormatError) -> Refusal {
    let field = |part: usize| format!("body[{part}]");
    match e {
        FormatError::NotJson { part } => Refusal::field(
            Reason::Malformed,
            field(part),
            "not valid JSON; nothing was forwarded",
        ),
        FormatError::NotText { part } => Refusal::field(
            Reason::NotText,
            field(part),
            "not UTF-8 text; nothing was forwarded",
        ),
        FormatError::Unexpected { part, why } => Refusal::field(
            Reason::Malformed,
            field(part),
            format!("{why}; nothing was forwarded"),
        ),
        FormatError::NotMessage { what } => Refusal::field(
            Reason::Malformed,
            "body",
            format!("{what}; nothing was forwarded"),
        ),
        FormatError::Incomplete => Refusal::internal(),
    }
}

/// The session id at `path` in a JSON body: the first string found, if any.
fn session_from_body(path: &JsonPath, body: &[u8]) -> Option<String> {
    let mut value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let mut found = None;
    path.visit_mut(&mut value, &mut |_, s| {
        if found.is_none() && !s.is_empty() && s.len() <= crate::api::MAX_SESSION_ID {
            found = Some(s.clone());
        }
    });
    found
}
