//! Writing complete JSON responses through a pingora session.

use bytes::Bytes;
use pingora::http::ResponseHeader;
use pingora::prelude::*;
use pingora::proxy::Session;

use super::ctx::RequestCtx;
use crate::api::ApiError;

pub const REQUEST_ID: &str = "x-request-id";

/// Writes a whole JSON response. `close` drops keep-alive (used when the request body
/// was not fully read, so the connection cannot be reused safely).
pub async fn json(
    session: &mut Session,
    ctx: &mut RequestCtx,
    status: u16,
    body: Vec<u8>,
    extra: &[(&'static str, String)],
    close: bool,
) -> Result<()> {
    let mut header = ResponseHeader::build(status, Some(4 + extra.len()))?;
    header.insert_header("content-type", "application/json")?;
    header.insert_header("content-length", body.len().to_string())?;
    header.insert_header(REQUEST_ID, ctx.request_id.as_str())?;
    for (name, value) in extra {
        header.insert_header(*name, value.as_str())?;
    }
    if close {
        session.set_keepalive(None);
    }
    ctx.status = status;
    session
        .write_response_header(Box::new(header), false)
        .await?;
    session
        .write_response_body(Some(Bytes::from(body)), true)
        .await?;
    Ok(())
}

/// Writes an error in the one error shape.
pub async fn error(
    session: &mut Session,
    ctx: &mut RequestCtx,
    err: &ApiError,
    extra: &[(&'static str, String)],
    close: bool,
) -> Result<()> {
    for (label, n) in &err.blocked {
        *ctx.actions.entry((label, "block")).or_default() += n;
    }
    json(session, ctx, err.status(), err.to_body(), extra, close).await
}
