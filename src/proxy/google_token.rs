//! Google access tokens from the metadata server, for Vertex AI routes whose upstream
//! credential is the operator's: what GKE, Cloud Run and Compute Engine workloads use
//! instead of key files. `GET /computeMetadata/v1/instance/service-accounts/default/token`
//! with `Metadata-Flavor: Google` answers `{"access_token", "expires_in"}` (about an
//! hour); the token is kept until a minute before it expires, and one fetch at a time
//! refreshes it. Plain HTTP on the link-local metadata address, as Google's own client
//! libraries do (`GCE_METADATA_HOST` moves it, e.g. to a test server).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;

use crate::secret::Secret;

const PATH: &str = "/computeMetadata/v1/instance/service-accounts/default/token";
/// Refreshed this long before it expires, so no request carries a dying token.
const MARGIN: Duration = Duration::from_secs(60);
const TIMEOUT: Duration = Duration::from_secs(3);
const MAX_ANSWER: usize = 64 * 1024;

/// Why no token could be had (never carries the token or the answer's body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    Unreachable,
    /// Not a 200 with `access_token` and `expires_in`.
    BadAnswer,
}

/// The token source of one route.
pub struct MetadataToken {
    /// `host[:port]` of the metadata server.
    host: String,
    cached: Mutex<Option<(Secret<String>, Instant)>>,
}

impl std::fmt::Debug for MetadataToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetadataToken")
            .field("host", &self.host)
            .finish_non_exhaustive()
    }
}

impl MetadataToken {
    /// The token source of the metadata server at `host`: one per server in the
    /// process, so every route that uses it shares one token and one refresh.
    pub fn shared(host: &str) -> Arc<MetadataToken> {
        static SOURCES: OnceLock<std::sync::Mutex<HashMap<String, Arc<MetadataToken>>>> =
            OnceLock::new();
        let host = host
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        let mut sources = SOURCES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(sources.entry(host.clone()).or_insert_with(|| {
            Arc::new(MetadataToken {
                host,
                cached: Mutex::new(None),
            })
        }))
    }

    /// A token valid for at least a minute more.
    ///
    /// # Errors
    /// The metadata server cannot be reached or gives no token.
    pub async fn token(&self) -> Result<Secret<String>, TokenError> {
        // Held across the fetch: one refresh at a time, the others wait for it.
        let mut cached = self.cached.lock().await;
        if let Some((token, until)) = cached.as_ref() {
            if Instant::now() < *until {
                return Ok(token.clone());
            }
        }
        let (token, expires_in) = tokio::time::timeout(TIMEOUT, fetch(&self.host))
            .await
            .map_err(|_| TokenError::Unreachable)??;
        let until = Instant::now() + Duration::from_secs(expires_in).saturating_sub(MARGIN);
        *cached = Some((token.clone(), until));
        Ok(token)
    }
}

async fn fetch(host: &str) -> Result<(Secret<String>, u64), TokenError> {
    let mut stream = TcpStream::connect(host)
        .await
        .map_err(|_| TokenError::Unreachable)?;
    let request = format!(
        "GET {PATH} HTTP/1.1\r\nHost: metadata.google.internal\r\nMetadata-Flavor: Google\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|_| TokenError::Unreachable)?;
    let mut answer = Vec::new();
    (&mut stream)
        .take(MAX_ANSWER as u64)
        .read_to_end(&mut answer)
        .await
        .map_err(|_| TokenError::Unreachable)?;
    parse(&answer)
}

/// The token and its lifetime in seconds from a whole HTTP/1.1 answer.
fn parse(answer: &[u8]) -> Result<(Secret<String>, u64), TokenError> {
    let text = std::str::from_utf8(answer).map_err(|_| TokenError::BadAnswer)?;
    let (head, body) = text.split_once("\r\n\r\n").ok_or(TokenError::BadAnswer)?;
    let mut lines = head.lines();
    let status_ok = lines
        .next()
        .is_some_and(|l| l.split_whitespace().nth(1) == Some("200"));
    if !status_ok {
        return Err(TokenError::BadAnswer);
    }
    let chunked = lines.any(|l| {
        l.to_ascii_lowercase()
            .replace(' ', "")
            .starts_with("transfer-encoding:chunked")
    });
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_owned()
    };
    let doc: serde_json::Value = serde_json::from_str(&body).map_err(|_| TokenError::BadAnswer)?;
    match (doc["access_token"].as_str(), doc["expires_in"].as_u64()) {
        (Some(token), Some(expires_in)) if !token.is_empty() => {
            Ok((Secret::new(token.to_owned()), expires_in))
        }
        _ => Err(TokenError::BadAnswer),
    }
}

fn dechunk(mut body: &str) -> Result<String, TokenError> {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n").ok_or(TokenError::BadAnswer)?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| TokenError::BadAnswer)?;
        if size == 0 {
            return Ok(out);
        }
        let chunk = rest.get(..size).ok_or(TokenError::BadAnswer)?;
        out.push_str(chunk);
        body = rest.get(size + 2..).ok_or(TokenError::BadAnswer)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_whole_or_chunked_and_anything_else_is_refused() {
        let body = r#"{"access_token":"ya29.abc","expires_in":3599,"token_type":"Bearer"}"#;
        let whole = format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{body}");
        let (token, ttl) = parse(whole.as_bytes()).unwrap();
        assert_eq!((token.expose().as_str(), ttl), ("ya29.abc", 3599));
        let chunked = format!(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        );
        assert_eq!(parse(chunked.as_bytes()).unwrap().1, 3599);
        for bad in [
            "HTTP/1.1 404 Not Found\r\n\r\n{}".to_owned(),
            "HTTP/1.1 200 OK\r\n\r\n{\"access_token\":\"\",\"expires_in\":1}".to_owned(),
            "HTTP/1.1 200 OK\r\n\r\nnot json".to_owned(),
            "garbage".to_owned(),
        ] {
            assert_eq!(
                parse(bad.as_bytes()).unwrap_err(),
                TokenError::BadAnswer,
                "{bad}"
            );
        }
    }
}
