//! The `/v1` JSON contract, without any HTTP server: request bodies in, response bodies
//! or [`ApiError`]s out. `server/` calls these; so can tests and benches.

pub mod dto;
pub mod error;
pub mod handlers;
pub mod openapi;
pub mod presidio;

pub use error::{ApiError, ErrorCode};
pub use handlers::{AnonymizeCall, Api, Caller, Outcome};

/// A session id is opaque: at most this many visible ASCII characters.
pub const MAX_SESSION_ID: usize = 128;

/// The session id in a header value (`X-Session-Id`, or a route's own header).
///
/// # Errors
/// 422 naming `field` when the value is not 1–128 visible ASCII characters.
pub fn session_id(field: &str, value: &[u8]) -> Result<String, ApiError> {
    let ok = !value.is_empty()
        && value.len() <= MAX_SESSION_ID
        && value.iter().all(|b| b.is_ascii_graphic());
    if !ok {
        return Err(ApiError::validation(vec![error::Detail {
            field: field.to_owned(),
            reason: format!("must be 1-{MAX_SESSION_ID} visible ASCII characters"),
        }]));
    }
    // Visible ASCII is valid UTF-8.
    Ok(String::from_utf8_lossy(value).into_owned())
}

use serde::Deserialize;

/// Request-size limits of the `/v1` API.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Largest request body in bytes.
    pub max_body_bytes: usize,
    /// Most texts per request.
    pub max_texts: usize,
    /// Longest text in code points.
    pub max_text_chars: usize,
    /// Most `entities_map` entries per deanonymize request.
    pub max_map_entries: usize,
    /// Largest upstream answer a proxy route buffers to restore, on the wire and
    /// decoded (502 above it).
    pub max_response_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 10 * 1024 * 1024,
            max_texts: 1000,
            max_text_chars: 1_000_000,
            max_map_entries: 100_000,
            max_response_bytes: 16 * 1024 * 1024,
        }
    }
}
