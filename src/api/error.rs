//! The one error shape of the service and its table of codes.
//!
//! Messages are fixed text or built from our own data (label names, limits); they never
//! contain request text, entity values or keys.

use serde::Serialize;

use crate::engine::DetectError;

/// One row of the error table in `api-decisions.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidJson,
    MissingApiKey,
    InvalidApiKey,
    NotFound,
    MethodNotAllowed,
    PayloadTooLarge,
    UnsupportedMediaType,
    ValidationFailed,
    BlockedByPolicy,
    RateLimited,
    Internal,
    BadGateway,
    DetectionUnavailable,
    SessionStoreUnavailable,
    UpstreamTimeout,
}

impl ErrorCode {
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::InvalidJson,
        ErrorCode::MissingApiKey,
        ErrorCode::InvalidApiKey,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::ValidationFailed,
        ErrorCode::BlockedByPolicy,
        ErrorCode::RateLimited,
        ErrorCode::Internal,
        ErrorCode::BadGateway,
        ErrorCode::DetectionUnavailable,
        ErrorCode::SessionStoreUnavailable,
        ErrorCode::UpstreamTimeout,
    ];

    pub fn status(&self) -> u16 {
        match self {
            ErrorCode::InvalidJson => 400,
            ErrorCode::MissingApiKey | ErrorCode::InvalidApiKey => 401,
            ErrorCode::NotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::ValidationFailed | ErrorCode::BlockedByPolicy => 422,
            ErrorCode::RateLimited => 429,
            ErrorCode::Internal => 500,
            ErrorCode::BadGateway => 502,
            ErrorCode::DetectionUnavailable | ErrorCode::SessionStoreUnavailable => 503,
            ErrorCode::UpstreamTimeout => 504,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::MissingApiKey => "missing_api_key",
            ErrorCode::InvalidApiKey => "invalid_api_key",
            ErrorCode::NotFound => "not_found",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::ValidationFailed => "validation_failed",
            ErrorCode::BlockedByPolicy => "blocked_by_policy",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::Internal => "internal",
            ErrorCode::BadGateway => "bad_gateway",
            ErrorCode::DetectionUnavailable => "detection_unavailable",
            ErrorCode::SessionStoreUnavailable => "session_store_unavailable",
            ErrorCode::UpstreamTimeout => "upstream_timeout",
        }
    }

    /// The message used when nothing more specific is said.
    pub fn default_message(&self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "request body is not valid UTF-8 JSON",
            ErrorCode::MissingApiKey => "the X-API-Key header is required",
            ErrorCode::InvalidApiKey => "the X-API-Key header does not hold a valid key",
            ErrorCode::NotFound => "no such endpoint",
            ErrorCode::MethodNotAllowed => "method not allowed on this endpoint",
            ErrorCode::PayloadTooLarge => "request body is larger than the limit",
            ErrorCode::UnsupportedMediaType => "Content-Type must be application/json",
            ErrorCode::ValidationFailed => "request does not match the schema",
            ErrorCode::BlockedByPolicy => {
                "the policy blocks what this request carries; nothing was processed or forwarded"
            }
            ErrorCode::RateLimited => "rate limit exceeded; retry later",
            ErrorCode::Internal => "internal error",
            ErrorCode::BadGateway => "the upstream could not be reached",
            ErrorCode::DetectionUnavailable => {
                "the detection model is unavailable; nothing was anonymized"
            }
            ErrorCode::SessionStoreUnavailable => {
                "the session store is unavailable; nothing was anonymized or restored"
            }
            ErrorCode::UpstreamTimeout => "the upstream did not answer in time",
        }
    }
}

/// A failed detection tier is a 503 with a fixed message: the tier's own message (a
/// runtime error) is for the log, and no input text is involved.
impl From<DetectError> for ApiError {
    fn from(_: DetectError) -> Self {
        ApiError::new(ErrorCode::DetectionUnavailable)
    }
}

/// A call its policy blocked: one detail per blocked label found (`entities.US_SSN`,
/// with its count), never the values.
impl From<crate::anonymizer::Blocked> for ApiError {
    fn from(b: crate::anonymizer::Blocked) -> Self {
        Self {
            details: b
                .0
                .iter()
                .map(|(label, n)| Detail {
                    field: format!("entities.{label}"),
                    reason: format!(
                        "found {n} time{}; blocked by policy",
                        if *n == 1 { "" } else { "s" }
                    ),
                })
                .collect(),
            blocked: b.0.iter().map(|(l, n)| (l.metric_name(), *n)).collect(),
            ..Self::new(ErrorCode::BlockedByPolicy)
        }
    }
}

pub use crate::validate::Detail;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    pub details: Vec<Detail>,
    /// For `blocked_by_policy`: each blocked label (its metric name) and count, for
    /// metrics and the request log; not part of the body beyond `details`.
    pub blocked: Vec<(&'static str, u64)>,
}

impl ApiError {
    pub fn new(code: ErrorCode) -> Self {
        Self {
            code,
            message: code.default_message().to_owned(),
            details: Vec::new(),
            blocked: Vec::new(),
        }
    }

    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    pub fn validation(details: Vec<Detail>) -> Self {
        Self {
            details,
            ..Self::new(ErrorCode::ValidationFailed)
        }
    }

    pub fn status(&self) -> u16 {
        self.code.status()
    }

    /// The JSON body: `{"error": {"code", "message", "details"}}`.
    pub fn to_body(&self) -> Vec<u8> {
        #[derive(Serialize)]
        struct Inner<'a> {
            code: &'static str,
            message: &'a str,
            details: &'a [Detail],
        }
        #[derive(Serialize)]
        struct Outer<'a> {
            error: Inner<'a>,
        }
        let body = Outer {
            error: Inner {
                code: self.code.as_str(),
                message: &self.message,
                details: &self.details,
            },
        };
        // Serializing plain strings and numbers cannot fail.
        serde_json::to_vec(&body).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_distinct_name_and_an_error_status() {
        let mut names = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(names.insert(code.as_str()));
            assert!((400..600).contains(&code.status()));
            let body: serde_json::Value =
                serde_json::from_slice(&ApiError::new(*code).to_body()).unwrap();
            assert_eq!(body["error"]["code"], code.as_str());
            assert!(body["error"]["details"].as_array().unwrap().is_empty());
        }
    }
}
