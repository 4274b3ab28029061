//! Reading a request body whole within the limit, and draining the rest of one we
//! refuse: a client such as Python's `urllib` sends its whole body before it reads a
//! response, and a server that closes on it mid-send makes it see a broken pipe instead
//! of our 413.

use std::time::Duration;

use bytes::BytesMut;
use pingora::proxy::Session;
use tokio::time::{timeout_at, Instant};

/// At most this much of a refused body is read and dropped after our answer...
const DRAIN_MAX_BYTES: usize = 64 * 1024 * 1024;
/// ...for at most this long; then the connection is closed (unmeasured choice: enough
/// for 64 MiB on a slow link is not the point, a bound is).
const DRAIN_MAX_TIME: Duration = Duration::from_secs(10);

/// Why a body was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// Over the limit, declared or as it arrived. `drain`: the client is sending it
    /// (it did not wait for a `100 Continue` we never sent).
    TooLarge { drain: bool },
    /// The connection failed or the framing was broken.
    Unreadable,
}

/// Whether the client waits for `100 Continue` before it sends its body (then a
/// refused body is never on its way, and there is nothing to drain).
pub fn expects_continue(session: &Session) -> bool {
    let header = session.req_header();
    header.version == http::Version::HTTP_11
        && header
            .headers
            .get("expect")
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"))
}

/// Reads the whole body, refusing more than `max` bytes (declared or actual). A client
/// that waits for `100 Continue` gets it once the declared length is known to fit.
///
/// # Errors
/// [`ReadError`].
pub async fn read_whole(session: &mut Session, max: usize) -> Result<BytesMut, ReadError> {
    let expects_continue = expects_continue(session);
    let header = session.req_header();
    let declared = header
        .headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(ReadError::TooLarge {
            drain: !expects_continue,
        });
    }
    if expects_continue && !session.as_mut().is_body_empty() {
        // RFC 9110 §10.1.1: the client waits for this before sending the body.
        session
            .write_continue_response()
            .await
            .map_err(|_| ReadError::Unreadable)?;
    }
    let mut body = BytesMut::with_capacity(declared.unwrap_or(0));
    loop {
        match session.read_request_body().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(ReadError::TooLarge { drain: true });
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(_) => return Err(ReadError::Unreadable),
        }
    }
}

/// Reads and drops what is left of the request body, within bounds, after the answer
/// has been written; the connection is closed afterwards either way.
pub async fn drain(session: &mut Session) {
    let deadline = Instant::now() + DRAIN_MAX_TIME;
    let mut drained = 0usize;
    while drained <= DRAIN_MAX_BYTES {
        match timeout_at(deadline, session.read_request_body()).await {
            Ok(Ok(Some(chunk))) => drained += chunk.len(),
            _ => return,
        }
    }
}
