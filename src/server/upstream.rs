//! The upstream leg of a proxied exchange: resolve the route's upstream, send it a
//! request whose body is already in hand (anonymized, with its length), and read its
//! response header. Connections are pooled by pingora's connector and reused when the
//! upstream keeps them alive.
//!
//! The server drives this itself, after the request body has been read, instead of
//! through pingora's proxy phases: there, the upstream connection and request headers go
//! out before the body is read, and the client's response header goes out before the
//! upstream's body is, so neither a refused request nor an unreadable answer could be
//! answered cleanly.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use pingora::connectors::http::v1::Connector;
use pingora::http::RequestHeader;
use pingora::protocols::http::v1::client::HttpSession;
use pingora::upstreams::peer::HttpPeer;
use pingora::{BError, Error, ErrorType};

use crate::api::ErrorCode;
use crate::proxy::route::Upstream;

/// How long an idle pooled upstream connection is kept (unmeasured choice; shorter than
/// the usual 60 s server keep-alive, so the upstream rarely closes one we are reusing).
const POOL_IDLE: Duration = Duration::from_secs(30);
/// Pooled connections tried that turn out closed, before the error is the client's. Each
/// failed one is dropped from the pool, so a burst of stale ones runs out.
const STALE_RETRIES: usize = 4;

/// Why the upstream leg failed, as the client is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    pub code: ErrorCode,
    /// pingora's error kind, for `anonymizer_proxy_upstream_errors_total{kind}`.
    pub kind: &'static str,
}

impl Failure {
    pub fn from_error(e: &Error) -> Self {
        let code = match e.etype() {
            ErrorType::ConnectTimedout | ErrorType::ReadTimedout | ErrorType::WriteTimedout => {
                ErrorCode::UpstreamTimeout
            }
            _ => ErrorCode::BadGateway,
        };
        Failure {
            code,
            kind: e.etype().as_str(),
        }
    }
}

pub struct Upstreams {
    connector: Connector,
}

impl Upstreams {
    pub fn new() -> Self {
        Self {
            connector: Connector::new(None),
        }
    }

    /// The peer for `up`, resolved asynchronously (`HttpPeer::new` would block).
    ///
    /// # Errors
    /// When the host does not resolve.
    pub async fn peer(up: &Upstream) -> Result<HttpPeer, Failure> {
        let addr: SocketAddr = tokio::net::lookup_host((up.host.as_str(), up.port))
            .await
            .ok()
            .and_then(|mut addrs| addrs.next())
            .ok_or(Failure {
                code: ErrorCode::BadGateway,
                kind: ErrorType::ConnectError.as_str(),
            })?;
        let mut peer = HttpPeer::new(addr, up.tls, up.host.clone());
        peer.options.connection_timeout = Some(up.connect_timeout);
        peer.options.total_connection_timeout = Some(up.connect_timeout);
        peer.options.read_timeout = Some(up.read_timeout);
        peer.options.idle_timeout = Some(POOL_IDLE);
        Ok(peer)
    }

    /// Sends `request` with `body` and reads the final response header (1xx skipped).
    /// A pooled connection the upstream had closed is replaced: the body is in memory,
    /// so it is sent again whole ([`stale`] says which failures mean that).
    ///
    /// # Errors
    /// Connect, write or read failures and timeouts.
    pub async fn send(
        &self,
        peer: &HttpPeer,
        request: &RequestHeader,
        body: &Bytes,
        read_timeout: Duration,
    ) -> Result<HttpSession, BError> {
        let mut attempt = 0;
        loop {
            let (mut session, reused) = self.connector.get_http_session(peer).await?;
            session.read_timeout = Some(read_timeout);
            session.write_timeout = Some(read_timeout);
            match exchange(&mut session, request, body).await {
                Ok(()) => return Ok(session),
                Err(mut e) => {
                    session.shutdown().await;
                    e.retry.decide_reuse(reused);
                    let again = e.retry() || (reused && stale(&e));
                    if !(again && attempt < STALE_RETRIES) {
                        return Err(e);
                    }
                    attempt += 1;
                }
            }
        }
    }

    /// Returns a finished session to the pool when the upstream allows it.
    pub async fn release(&self, session: HttpSession, peer: &HttpPeer) {
        self.connector
            .release_http_session(session, peer, Some(POOL_IDLE))
            .await;
    }
}

impl Default for Upstreams {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether a failure on a reused connection means the upstream had closed it while it sat
/// in the pool. pingora marks a reset or end of stream while reading the response header
/// retryable on reused connections, but not a failed write: yet when the upstream's
/// reset arrives between our header and our body (under load, often), the body's write
/// is what fails (broken pipe, reset). An upstream that reset the connection before
/// answering did not take the request, so sending it again is safe; a write that timed
/// out is not such a failure.
fn stale(e: &Error) -> bool {
    matches!(
        e.etype(),
        ErrorType::WriteError | ErrorType::ConnectionClosed
    )
}

async fn exchange(
    session: &mut HttpSession,
    request: &RequestHeader,
    body: &Bytes,
) -> pingora::Result<()> {
    session
        .write_request_header(Box::new(request.clone()))
        .await?;
    if !body.is_empty() {
        session.write_body(body).await?;
    }
    session.finish_body().await?;
    loop {
        session.read_response().await?;
        let informational = session
            .get_status()
            .is_some_and(|s| s.is_informational() && s.as_u16() != 101);
        if !informational {
            return Ok(());
        }
    }
}
