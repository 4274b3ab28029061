//! Why an exchange was refused, as a closed set: the `reason` label of
//! `anonymizer_proxy_refusals_total{route, reason}` and the error the client gets.
//! Neither ever carries body content.

use crate::api::error::Detail;
use crate::api::{ApiError, ErrorCode};

/// The reason of a refusal; metric label values come from [`Reason::as_str`] only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The request's `Content-Type` is not one the route's format reads.
    UnsupportedMediaType,
    /// The request's `Content-Encoding` is not one we can decode.
    UnsupportedEncoding,
    /// The body claims an encoding but does not decode (or decodes past the limit).
    Undecodable,
    /// The body does not fit the route's format (not JSON, a bulk line out of place).
    Malformed,
    /// A line is not text and so cannot be anonymized.
    NotText,
    /// The body is over `limits.max_body_bytes`.
    TooLarge,
    /// The session id is not 1–128 visible ASCII characters.
    BadSession,
    /// The session holds its maximum number of entries.
    SessionFull,
    /// A detection tier failed: nothing was anonymized.
    DetectionFailed,
    /// The route's policy blocks what the body carries.
    Blocked,
    /// The session store was unreachable or too slow: nothing was anonymized.
    SessionStoreUnavailable,
    /// A response we must restore comes in a form we cannot read.
    UnreadableResponse,
    /// A response we must restore is over `limits.max_response_bytes`.
    ResponseTooLarge,
    /// An AWS signature (SigV4) that does not verify.
    BadSignature,
    /// The route's own upstream credential could not be had (a Google token).
    NoCredential,
    /// A bug.
    Internal,
}

impl Reason {
    pub const ALL: &'static [Reason] = &[
        Reason::UnsupportedMediaType,
        Reason::UnsupportedEncoding,
        Reason::Undecodable,
        Reason::Malformed,
        Reason::NotText,
        Reason::TooLarge,
        Reason::BadSession,
        Reason::SessionFull,
        Reason::DetectionFailed,
        Reason::Blocked,
        Reason::SessionStoreUnavailable,
        Reason::UnreadableResponse,
        Reason::ResponseTooLarge,
        Reason::BadSignature,
        Reason::NoCredential,
        Reason::Internal,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Reason::UnsupportedMediaType => "unsupported_media_type",
            Reason::UnsupportedEncoding => "unsupported_encoding",
            Reason::Undecodable => "undecodable",
            Reason::Malformed => "malformed",
            Reason::NotText => "not_text",
            Reason::TooLarge => "too_large",
            Reason::BadSession => "bad_session",
            Reason::SessionFull => "session_full",
            Reason::DetectionFailed => "detection_failed",
            Reason::Blocked => "blocked_by_policy",
            Reason::SessionStoreUnavailable => "session_store_unavailable",
            Reason::UnreadableResponse => "unreadable_response",
            Reason::ResponseTooLarge => "response_too_large",
            Reason::BadSignature => "bad_signature",
            Reason::NoCredential => "no_credential",
            Reason::Internal => "internal",
        }
    }
}

/// A refused exchange: why (for metrics) and what the client is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: Reason,
    pub error: ApiError,
}

impl Refusal {
    pub fn new(reason: Reason, error: ApiError) -> Self {
        Self { reason, error }
    }

    /// A refusal with the error code's default message.
    pub fn code(reason: Reason, code: ErrorCode) -> Self {
        Self::new(reason, ApiError::new(code))
    }

    /// A 422 naming one field of the request.
    pub fn field(reason: Reason, field: impl Into<String>, why: impl Into<String>) -> Self {
        Self::new(
            reason,
            ApiError::validation(vec![Detail {
                field: field.into(),
                reason: why.into(),
            }])
            .with_message("the request body could not be anonymized; nothing was forwarded"),
        )
    }

    pub fn internal() -> Self {
        Self::code(Reason::Internal, ErrorCode::Internal)
    }

    /// An answer that cannot be restored on a route with `restore_failure: error`.
    pub fn unrestorable() -> Self {
        Self::new(
            Reason::UnreadableResponse,
            ApiError::new(ErrorCode::BadGateway)
                .with_message("the upstream's answer could not be restored"),
        )
    }

    /// The upstream's answer is over `limits.max_response_bytes`.
    pub fn response_too_large() -> Self {
        Self::new(
            Reason::ResponseTooLarge,
            ApiError::new(ErrorCode::BadGateway)
                .with_message("the upstream answer is larger than the proxy restores"),
        )
    }

    /// The upstream's answer is not in the coding its headers announce.
    /// The route's upstream credential could not be had (the metadata server).
    pub fn no_credential() -> Self {
        Self::new(
            Reason::NoCredential,
            ApiError::new(ErrorCode::BadGateway).with_message(
                "no access token for the upstream could be had; nothing was forwarded",
            ),
        )
    }

    pub fn unreadable_response() -> Self {
        Self::new(
            Reason::UnreadableResponse,
            ApiError::new(ErrorCode::BadGateway)
                .with_message("the upstream answered in an encoding that cannot be restored"),
        )
    }
}
