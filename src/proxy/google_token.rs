//! Google access tokens for Vertex AI routes whose upstream credential is the operator's,
//! from one of two sources, as Google's own client libraries get them:
//!
//! - **The metadata server**, what GKE, Cloud Run and Compute Engine workloads use instead
//!   of key files: `GET /computeMetadata/v1/instance/service-accounts/default/token` with
//!   `Metadata-Flavor: Google`, over plain HTTP on the link-local metadata address
//!   (`GCE_METADATA_HOST` moves it, e.g. to a test server).
//! - **A service-account key file** (the JSON a console download or `gcloud iam
//!   service-accounts keys create` gives), anywhere else: a JWT naming the account and the
//!   `cloud-platform` scope, signed RS256 with the file's private key, is exchanged at the
//!   file's `token_uri` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, RFC 7523),
//!   over HTTPS with the Mozilla roots (or plain HTTP where the file names an `http://`
//!   token URI, as a test server does).
//!
//! Both answer `{"access_token", "expires_in"}` (about an hour); the token is kept until a
//! minute before it expires, and one fetch at a time refreshes it.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use ring::signature::RsaKeyPair;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
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

/// Where a token comes from.
enum Source {
    /// `host[:port]` of the metadata server.
    Metadata(String),
    ServiceAccount(Box<ServiceAccount>),
}

/// The token source of one route.
pub struct GoogleToken {
    source: Source,
    cached: Mutex<Option<(Secret<String>, Instant)>>,
}

impl std::fmt::Debug for GoogleToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match &self.source {
            Source::Metadata(host) => format!("metadata server {host}"),
            Source::ServiceAccount(sa) => format!("service account {}", sa.email),
        };
        f.debug_struct("GoogleToken")
            .field("source", &source)
            .finish_non_exhaustive()
    }
}

/// The token source of the metadata server at `host` or of the key file at `path`
/// (keyed `metadata:` / `file:`): one per source in the process, so every route that
/// uses it shares one token and one refresh.
fn shared(key: String, make: impl FnOnce() -> GoogleToken) -> Arc<GoogleToken> {
    static SOURCES: OnceLock<std::sync::Mutex<HashMap<String, Arc<GoogleToken>>>> = OnceLock::new();
    let mut sources = SOURCES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(sources.entry(key).or_insert_with(|| Arc::new(make())))
}

impl GoogleToken {
    /// The token source of the metadata server at `host`.
    pub fn metadata(host: &str) -> Arc<GoogleToken> {
        let host = host
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        shared(format!("metadata:{host}"), || GoogleToken {
            source: Source::Metadata(host),
            cached: Mutex::new(None),
        })
    }

    /// The token source of the service-account key file at `path`, read now.
    ///
    /// # Errors
    /// Why the file cannot be used (never any of its contents).
    pub fn service_account(path: &str) -> Result<Arc<GoogleToken>, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot be read ({})", e.kind()))?;
        // Read anew each time (a rotated file under the same name), shared when equal.
        let account = ServiceAccount::parse(&text)?;
        let key = format!("file:{path}:{}", account.fingerprint());
        Ok(shared(key, || GoogleToken {
            source: Source::ServiceAccount(Box::new(account)),
            cached: Mutex::new(None),
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
        let fetched = match &self.source {
            Source::Metadata(host) => tokio::time::timeout(TIMEOUT, from_metadata(host)).await,
            Source::ServiceAccount(sa) => tokio::time::timeout(TIMEOUT, sa.exchange()).await,
        };
        let (token, expires_in) = fetched.map_err(|_| TokenError::Unreachable)??;
        let until = Instant::now() + Duration::from_secs(expires_in).saturating_sub(MARGIN);
        *cached = Some((token.clone(), until));
        Ok(token)
    }
}

async fn from_metadata(host: &str) -> Result<(Secret<String>, u64), TokenError> {
    let stream = TcpStream::connect(host)
        .await
        .map_err(|_| TokenError::Unreachable)?;
    let request = format!(
        "GET {PATH} HTTP/1.1\r\nHost: metadata.google.internal\r\nMetadata-Flavor: Google\r\nConnection: close\r\n\r\n"
    );
    round_trip(stream, request.as_bytes()).await
}

/// Sends `request` and reads the whole answer (the request asks to close).
async fn round_trip<S>(mut stream: S, request: &[u8]) -> Result<(Secret<String>, u64), TokenError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    stream
        .write_all(request)
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

/// What a service-account key file gives: who signs, with what, and where the signed
/// assertion is exchanged for a token.
struct ServiceAccount {
    email: String,
    key: RsaKeyPair,
    token_uri: TokenUri,
}

/// A token URI taken apart for one HTTP/1.1 request.
struct TokenUri {
    /// As the key file gives it: the assertion's audience.
    url: String,
    tls: bool,
    /// As written in the URI: the `Host` header.
    authority: String,
    host: String,
    port: u16,
    path: String,
}

/// What the tokens are for: Vertex AI is one of the Cloud Platform APIs.
const SCOPE: &str = "https://www.googleapis.com/auth/cloud-platform";
/// The assertion's lifetime: Google accepts at most an hour.
const ASSERTION_SECS: u64 = 3600;

impl ServiceAccount {
    fn parse(text: &str) -> Result<ServiceAccount, String> {
        let doc: serde_json::Value =
            serde_json::from_str(text).map_err(|_| "is not JSON".to_owned())?;
        let field = |name: &str| {
            doc[name]
                .as_str()
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("has no `{name}`"))
        };
        if field("type")? != "service_account" {
            return Err("is not a service-account key (`type`)".into());
        }
        let email = field("client_email")?.to_owned();
        let der = pkcs8_der(field("private_key")?)
            .ok_or_else(|| "`private_key` is not a PEM private key".to_owned())?;
        let key = RsaKeyPair::from_pkcs8(&der)
            .map_err(|_| "`private_key` is not an RSA key ring can sign with".to_owned())?;
        let uri = doc["token_uri"]
            .as_str()
            .unwrap_or("https://oauth2.googleapis.com/token");
        let token_uri =
            TokenUri::parse(uri).ok_or_else(|| "`token_uri` is not an http(s) URL".to_owned())?;
        Ok(ServiceAccount {
            email,
            key,
            token_uri,
        })
    }

    /// Tells two keys apart without holding anything secret: the public key's digest.
    fn fingerprint(&self) -> String {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(self.key.public().as_ref());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }

    /// The signed assertion (RFC 7523) for now.
    fn assertion(&self, now: u64) -> Result<String, TokenError> {
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        use base64::Engine;
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"RS256","typ":"JWT"}"#);
        let claims = serde_json::json!({
            "iss": self.email,
            "scope": SCOPE,
            "aud": self.token_uri.url,
            "iat": now,
            "exp": now + ASSERTION_SECS,
        });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let mut signature = vec![0; self.key.public().modulus_len()];
        self.key
            .sign(
                &ring::signature::RSA_PKCS1_SHA256,
                &ring::rand::SystemRandom::new(),
                signed.as_bytes(),
                &mut signature,
            )
            .map_err(|_| TokenError::BadAnswer)?;
        Ok(format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature)))
    }

    async fn exchange(&self) -> Result<(Secret<String>, u64), TokenError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let body = format!(
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion={}",
            self.assertion(now)?
        );
        let uri = &self.token_uri;
        let request = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            uri.path,
            uri.authority,
            body.len()
        );
        let stream = TcpStream::connect((uri.host.as_str(), uri.port))
            .await
            .map_err(|_| TokenError::Unreachable)?;
        if !uri.tls {
            return round_trip(stream, request.as_bytes()).await;
        }
        let name = tokio_rustls::rustls::pki_types::ServerName::try_from(uri.host.clone())
            .map_err(|_| TokenError::Unreachable)?;
        let tls = tls_connector()
            .ok_or(TokenError::Unreachable)?
            .connect(name, stream)
            .await
            .map_err(|_| TokenError::Unreachable)?;
        round_trip(tls, request.as_bytes()).await
    }
}

impl TokenUri {
    /// Read as the route's upstream URL is (`route.rs`, `parse_upstream`).
    fn parse(uri: &str) -> Option<TokenUri> {
        let parsed: http::Uri = uri.parse().ok()?;
        let tls = match parsed.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => return None,
        };
        let authority = parsed.authority()?.as_str().to_owned();
        let host = parsed.host()?.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return None;
        }
        // A port that is written must be a number (`Uri` keeps `h:port` and drops it).
        let port = match parsed.port_u16() {
            Some(port) => port,
            None if authority.ends_with(parsed.host()?) => {
                if tls {
                    443
                } else {
                    80
                }
            }
            None => return None,
        };
        Some(TokenUri {
            url: uri.to_owned(),
            tls,
            host: host.to_owned(),
            port,
            path: parsed
                .path_and_query()
                .map_or("/", |p| p.as_str())
                .to_owned(),
            authority,
        })
    }
}

/// TLS to Google's token endpoint, with the Mozilla roots, built once.
fn tls_connector() -> Option<tokio_rustls::TlsConnector> {
    static CONFIG: OnceLock<Option<Arc<tokio_rustls::rustls::ClientConfig>>> = OnceLock::new();
    let config = CONFIG.get_or_init(|| {
        let roots = tokio_rustls::rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let config = tokio_rustls::rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .ok()?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Some(Arc::new(config))
    });
    config.clone().map(tokio_rustls::TlsConnector::from)
}

/// The DER of the first PEM `PRIVATE KEY` block (PKCS #8, what key files hold).
fn pkcs8_der(pem: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine;
    let start = pem.find("-----BEGIN PRIVATE KEY-----")? + "-----BEGIN PRIVATE KEY-----".len();
    let end = start + pem[start..].find("-----END PRIVATE KEY-----")?;
    let b64: String = pem[start..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    STANDARD.decode(b64).ok()
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
    fn token_uris_give_their_host_port_and_path_and_other_schemes_are_refused() {
        let google = TokenUri::parse("https://oauth2.googleapis.com/token").unwrap();
        assert_eq!(
            (
                google.tls,
                google.host.as_str(),
                google.port,
                google.path.as_str()
            ),
            (true, "oauth2.googleapis.com", 443, "/token")
        );
        assert_eq!(google.authority, "oauth2.googleapis.com");
        let local = TokenUri::parse("http://127.0.0.1:8089/token").unwrap();
        assert_eq!((local.tls, local.port), (false, 8089));
        assert_eq!(local.authority, "127.0.0.1:8089");
        for bad in [
            "ftp://x/token",
            "https://:443/token",
            "http://h:port/",
            "oauth2",
        ] {
            assert!(TokenUri::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn key_files_that_are_not_service_account_keys_are_refused_without_their_contents() {
        for (text, why) in [
            ("not json", "is not JSON"),
            (
                r#"{"type": "authorized_user"}"#,
                "is not a service-account key (`type`)",
            ),
            (r#"{"type": "service_account"}"#, "has no `client_email`"),
            (
                r#"{"type": "service_account", "client_email": "a@b", "private_key": "secret-ish"}"#,
                "`private_key` is not a PEM private key",
            ),
        ] {
            match ServiceAccount::parse(text) {
                Err(e) => assert_eq!(e, why),
                Ok(_) => panic!("accepted {text}"),
            }
        }
    }

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
