//! The first say over every client connection, before pingora's HTTP code reads it:
//! a cap on open connections, and a deadline for each request's whole header. pingora
//! only times single reads out (60 s each), so a client sending one header byte a
//! second would hold its connection, a file descriptor and a task forever.
//!
//! Each request's header is read here into a buffer (with the deadline), then handed
//! back to the socket's rewind buffer, from which pingora parses it as usual.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::BytesMut;
use pingora::apps::{HttpServerApp, ServerApp};
use pingora::protocols::http::ServerSession;
use pingora::protocols::l4::stream::Stream as TcpStream;
use pingora::protocols::Stream;
use pingora::server::ShutdownWatch;
use tokio::io::AsyncReadExt;
use tokio::sync::Semaphore;
use tokio::time::{timeout, timeout_at, Instant};

use crate::telemetry::metrics;

/// pingora's own bound on a request header (`MAX_HEADER_SIZE`): past it the header is
/// handed over unfinished, and pingora answers 400.
const MAX_HEADER_BYTES: usize = 1024 * 1024;

/// Limits on client connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub keepalive_timeout: Duration,
}

/// Wraps an HTTP app (pingora's proxy) with [`ConnectionLimits`].
pub struct Guard<A> {
    app: Arc<A>,
    slots: Arc<Semaphore>,
    limits: ConnectionLimits,
}

impl<A> Guard<A> {
    pub fn new(app: A, limits: ConnectionLimits) -> Self {
        Self {
            app: Arc::new(app),
            slots: Arc::new(Semaphore::new(limits.max_connections)),
            limits,
        }
    }
}

/// Why a connection was closed by the guard, for the metric.
#[derive(Debug, Clone, Copy)]
enum Closed {
    OverLimit,
    HeaderTimeout,
}

impl Closed {
    fn as_str(self) -> &'static str {
        match self {
            Closed::OverLimit => "over_limit",
            Closed::HeaderTimeout => "header_timeout",
        }
    }

    fn count(self) {
        metrics::CONNECTIONS_CLOSED
            .with_label_values(&[self.as_str()])
            .inc();
    }
}

impl<A> Guard<A> {
    /// Reads the next request's header within the deadline and puts it back for
    /// pingora. `None`: the client closed, idled past the keep-alive timeout, or was too
    /// slow (the connection is then dropped, which closes it).
    async fn await_header(&self, stream: Stream, reused: bool) -> Option<Stream> {
        // Our listener is plain TCP; another stream type has no rewind buffer to
        // hand the header back through, so it is served without the deadline.
        if stream.as_any().downcast_ref::<TcpStream>().is_none() {
            return Some(stream);
        }
        let mut tcp = stream.into_any().downcast::<TcpStream>().ok()?;
        let mut buf = BytesMut::with_capacity(4096);
        if reused {
            // Between requests only the keep-alive timeout applies; the header deadline
            // starts with the next request's first byte.
            match timeout(self.limits.keepalive_timeout, tcp.read_buf(&mut buf)).await {
                Ok(Ok(n)) if n > 0 => {}
                _ => return None,
            }
        }
        let deadline = Instant::now() + self.limits.header_timeout;
        while !header_complete(&buf) && buf.len() <= MAX_HEADER_BYTES {
            match timeout_at(deadline, tcp.read_buf(&mut buf)).await {
                Ok(Ok(n)) if n > 0 => {}
                Ok(_) => return None,
                Err(_) => {
                    Closed::HeaderTimeout.count();
                    return None;
                }
            }
        }
        tcp.rewind(&buf);
        Some(tcp)
    }
}

/// Whether `buf` holds a whole request header (ended by an empty line; leading empty
/// lines, which RFC 9112 §2.2 lets a server ignore, do not count).
fn header_complete(buf: &[u8]) -> bool {
    let start = buf
        .iter()
        .position(|b| *b != b'\r' && *b != b'\n')
        .unwrap_or(buf.len());
    let rest = &buf[start..];
    rest.windows(2).any(|w| w == b"\n\n") || rest.windows(4).any(|w| w == b"\r\n\r\n")
}

#[async_trait]
impl<A> ServerApp for Guard<A>
where
    A: HttpServerApp + Send + Sync + 'static,
{
    async fn process_new(
        self: &Arc<Self>,
        stream: Stream,
        shutdown: &ShutdownWatch,
    ) -> Option<Stream> {
        let Ok(_slot) = Arc::clone(&self.slots).try_acquire_owned() else {
            Closed::OverLimit.count();
            return None;
        };
        let stream = self.await_header(stream, false).await?;
        // As pingora's own HTTP/1 loop (`apps::ServerApp for HttpServerApp`), with the
        // header deadline before each request.
        let mut session = ServerSession::new_http1(stream);
        let keepalive = (!*shutdown.borrow()).then_some(self.limits.keepalive_timeout.as_secs());
        session.set_keepalive(keepalive);
        let mut result = self.app.process_new_http(session, shutdown).await;
        while let Some(reused) = result {
            let (stream, settings) = reused.consume();
            let stream = self.await_header(stream, true).await?;
            let mut session = ServerSession::new_http1(stream);
            if let Some(settings) = settings {
                settings.apply_to_session(&mut session);
            }
            result = self.app.process_new_http(session, shutdown).await;
        }
        None
    }

    async fn cleanup(&self) {
        self.app.http_cleanup().await;
    }
}

#[cfg(test)]
mod tests {
    use super::header_complete;

    #[test]
    fn a_header_is_complete_at_its_empty_line() {
        assert!(header_complete(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(header_complete(b"GET / HTTP/1.1\nHost: x\n\nbody"));
        assert!(!header_complete(b"GET / HTTP/1.1\r\nHost: x\r\n"));
        assert!(!header_complete(b"\r\n\r\nGET / HTTP/1.1\r\n"));
        assert!(!header_complete(b""));
    }
}
