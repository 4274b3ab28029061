//! AWS Signature Version 4, both ways, for the Bedrock routes: a caller's SDK signs
//! with a tenant's name as its access key id and one of that tenant's keys as its
//! secret, and the proxy checks that signature exactly as AWS would (the body's hash
//! included); after rewriting the body, the proxy signs the request again with the AWS
//! credentials it is configured with. Pure: headers, bytes and a clock in, strings out.
//!
//! The canonical request is AWS's for every service but S3: the path as sent,
//! URI-encoded once more (`%3A` in a model id is `%253A` there), the query sorted, the
//! signed headers lower-cased with their values trimmed, and the hex SHA-256 of the body.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::{Hmac, Mac};
use http::header::{HeaderMap, HeaderName, HeaderValue};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::methods::fake::date::{civil_from_days, days_from_civil};

const ALGORITHM: &str = "AWS4-HMAC-SHA256";
/// How far a request's `X-Amz-Date` may be from our clock (AWS allows 15 minutes).
pub const MAX_SKEW: Duration = Duration::from_secs(15 * 60);

/// The `Authorization` header of a SigV4-signed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presented {
    pub access_key_id: String,
    /// `YYYYMMDD` of the credential scope.
    pub date: String,
    pub region: String,
    pub service: String,
    /// Lower-case, in the order given.
    pub signed_headers: Vec<String>,
    pub signature: String,
}

impl Presented {
    /// Parses `AWS4-HMAC-SHA256 Credential=AKID/DATE/REGION/SERVICE/aws4_request,
    /// SignedHeaders=a;b, Signature=hex`; `None` for anything else.
    pub fn parse(value: &str) -> Option<Presented> {
        let rest = value.trim().strip_prefix(ALGORITHM)?;
        let (mut credential, mut signed, mut signature) = (None, None, None);
        for part in rest.split(',') {
            let (key, value) = part.trim().split_once('=')?;
            match key.trim() {
                "Credential" => credential = Some(value.trim()),
                "SignedHeaders" => signed = Some(value.trim()),
                "Signature" => signature = Some(value.trim()),
                _ => return None,
            }
        }
        let mut scope = credential?.rsplitn(5, '/');
        let (terminator, service, region, date, access_key_id) = (
            scope.next()?,
            scope.next()?,
            scope.next()?,
            scope.next()?,
            scope.next()?,
        );
        let signature = signature?;
        let signed = signed?;
        let ok = terminator == "aws4_request"
            && date.len() == 8
            && date.bytes().all(|b| b.is_ascii_digit())
            && !access_key_id.is_empty()
            && signature.len() == 64
            && signature.bytes().all(|b| b.is_ascii_hexdigit());
        ok.then(|| Presented {
            access_key_id: access_key_id.to_owned(),
            date: date.to_owned(),
            region: region.to_owned(),
            service: service.to_owned(),
            signed_headers: signed.split(';').map(str::to_ascii_lowercase).collect(),
            signature: signature.to_ascii_lowercase(),
        })
    }
}

/// Why a signature was not accepted (never said to the caller beyond "invalid").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejected {
    /// No `X-Amz-Date`, or one that is not `YYYYMMDDTHHMMSSZ` of the credential's day.
    BadDate,
    /// `X-Amz-Date` further than [`MAX_SKEW`] from now.
    Expired,
    /// A signed header the request does not carry, or `host` not signed.
    BadHeaders,
    /// The signature is not the one the secret gives.
    Mismatch,
}

/// Checks `presented` against `secret` for this request (the path and query as sent).
///
/// # Errors
/// Why it is not the signature AWS would accept.
pub fn verify(
    presented: &Presented,
    secret: &str,
    method: &str,
    path_and_query: &str,
    headers: &HeaderMap,
    body: &[u8],
    now: SystemTime,
) -> Result<(), Rejected> {
    let amz_date = headers
        .get("x-amz-date")
        .and_then(|v| v.to_str().ok())
        .ok_or(Rejected::BadDate)?;
    let when = parse_amz_date(amz_date).ok_or(Rejected::BadDate)?;
    if !amz_date.starts_with(&presented.date) {
        return Err(Rejected::BadDate);
    }
    let skew = match now.duration_since(when) {
        Ok(d) => d,
        Err(e) => e.duration(),
    };
    if skew > MAX_SKEW {
        return Err(Rejected::Expired);
    }
    if !presented.signed_headers.iter().any(|h| h == "host")
        || presented
            .signed_headers
            .iter()
            .any(|h| !headers.contains_key(h.as_str()))
    {
        return Err(Rejected::BadHeaders);
    }
    let canonical = canonical_request(
        method,
        path_and_query,
        headers,
        &presented.signed_headers,
        &hex(&Sha256::digest(body)),
    );
    let scope = format!(
        "{}/{}/{}/aws4_request",
        presented.date, presented.region, presented.service
    );
    let expected = signature(
        secret,
        &presented.date,
        &presented.region,
        &presented.service,
        &string_to_sign(amz_date, &scope, &canonical),
    );
    if bool::from(expected.as_bytes().ct_eq(presented.signature.as_bytes())) {
        Ok(())
    } else {
        Err(Rejected::Mismatch)
    }
}

/// A caller's signature to check, with the secrets of the tenant it names.
pub struct SignatureCheck {
    pub presented: Presented,
    pub secrets: Vec<crate::secret::Secret<String>>,
}

impl SignatureCheck {
    /// Whether one of the secrets gives the presented signature for this request.
    pub fn verifies(
        &self,
        method: &str,
        path_and_query: &str,
        headers: &HeaderMap,
        body: &[u8],
        now: SystemTime,
    ) -> bool {
        self.secrets.iter().any(|secret| {
            verify(
                &self.presented,
                secret.expose(),
                method,
                path_and_query,
                headers,
                body,
                now,
            )
            .is_ok()
        })
    }
}

/// AWS credentials the proxy signs with.
#[derive(Clone)]
pub struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: crate::secret::Secret<String>,
    pub session_token: Option<crate::secret::Secret<String>>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .finish_non_exhaustive()
    }
}

/// A request as it goes upstream, for [`sign`].
#[derive(Debug, Clone, Copy)]
pub struct Outgoing<'a> {
    pub method: &'a str,
    pub path_and_query: &'a str,
    /// The upstream's `Host`.
    pub host: &'a str,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

/// The headers that sign `request`: `x-amz-date`, `x-amz-security-token` with a session
/// token, and `authorization`, over `host`, `content-type`, the date, the token and
/// every `x-amz-*` / `x-amzn-*` header the request carries.
pub fn sign(
    credentials: &Credentials,
    region: &str,
    service: &str,
    request: &Outgoing<'_>,
    now: SystemTime,
) -> Vec<(HeaderName, HeaderValue)> {
    let Outgoing {
        method,
        path_and_query,
        host,
        headers,
        body,
    } = *request;
    let amz_date = format_amz_date(now);
    let date = &amz_date[..8];
    let mut signing = HeaderMap::new();
    for (name, value) in headers {
        let n = name.as_str();
        let signed = n == "content-type"
            || ((n.starts_with("x-amz-") || n.starts_with("x-amzn-"))
                && n != "x-amz-date"
                && n != "x-amz-security-token"
                && n != "x-amz-content-sha256");
        if signed {
            signing.append(name.clone(), value.clone());
        }
    }
    let mut out = Vec::new();
    let mut add = |name: &'static str, value: String, signing: &mut HeaderMap| {
        if let Ok(v) = HeaderValue::from_str(&value) {
            signing.insert(name, v.clone());
            out.push((HeaderName::from_static(name), v));
        }
    };
    add("x-amz-date", amz_date.clone(), &mut signing);
    if let Some(token) = &credentials.session_token {
        add("x-amz-security-token", token.expose().clone(), &mut signing);
    }
    if let Ok(h) = HeaderValue::from_str(host) {
        signing.insert(http::header::HOST, h);
    }
    let mut names: Vec<String> = signing.keys().map(|n| n.as_str().to_owned()).collect();
    names.sort();
    names.dedup();
    let canonical = canonical_request(
        method,
        path_and_query,
        &signing,
        &names,
        &hex(&Sha256::digest(body)),
    );
    let scope = format!("{date}/{region}/{service}/aws4_request");
    let sig = signature(
        credentials.secret_access_key.expose(),
        date,
        region,
        service,
        &string_to_sign(&amz_date, &scope, &canonical),
    );
    let authorization = format!(
        "{ALGORITHM} Credential={}/{scope}, SignedHeaders={}, Signature={sig}",
        credentials.access_key_id,
        names.join(";")
    );
    if let Ok(mut v) = HeaderValue::from_str(&authorization) {
        v.set_sensitive(true);
        out.push((http::header::AUTHORIZATION, v));
    }
    if let Some(token) = out
        .iter_mut()
        .find(|(n, _)| n.as_str() == "x-amz-security-token")
    {
        token.1.set_sensitive(true);
    }
    out
}

fn canonical_request(
    method: &str,
    path_and_query: &str,
    headers: &HeaderMap,
    signed: &[String],
    payload_hash: &str,
) -> String {
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let path = if path.is_empty() { "/" } else { path };
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (encode(&decode(k), false), encode(&decode(v), false))
        })
        .collect();
    pairs.sort();
    let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut out = format!("{method}\n{}\n{}\n", encode(path, true), query.join("&"));
    for name in signed {
        let values: Vec<String> = headers
            .get_all(name.as_str())
            .iter()
            .map(|v| collapse(&String::from_utf8_lossy(v.as_bytes())))
            .collect();
        out.push_str(&format!("{name}:{}\n", values.join(",")));
    }
    out.push_str(&format!("\n{}\n{payload_hash}", signed.join(";")));
    out
}

fn string_to_sign(amz_date: &str, scope: &str, canonical: &str) -> String {
    format!(
        "{ALGORITHM}\n{amz_date}\n{scope}\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    )
}

fn signature(secret: &str, date: &str, region: &str, service: &str, to_sign: &str) -> String {
    let k_date = hmac(format!("AWS4{secret}").as_bytes(), date.as_bytes());
    let k_region = hmac(&k_date, region.as_bytes());
    let k_service = hmac(&k_region, service.as_bytes());
    let k_signing = hmac(&k_service, b"aws4_request");
    hex(&hmac(&k_signing, to_sign.as_bytes()))
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// URI-encodes every byte but the unreserved ones (and `/` in a path).
fn encode(text: &str, path: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) || (path && b == b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn collapse(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `YYYYMMDDTHHMMSSZ` as a time.
fn parse_amz_date(text: &str) -> Option<SystemTime> {
    let b = text.as_bytes();
    if b.len() != 16 || b[8] != b'T' || b[15] != b'Z' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<u64>().ok();
    let (y, m, d) = (num(0..4)?, num(4..6)?, num(6..8)?);
    let (hh, mm, ss) = (num(9..11)?, num(11..13)?, num(13..15)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    let days = days_from_civil(y as i64, m as i64, d as i64);
    let secs = u64::try_from(days).ok()? * 86_400 + hh * 3600 + mm * 60 + ss;
    Some(UNIX_EPOCH + Duration::from_secs(secs))
}

fn format_amz_date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let rem = secs % 86_400;
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests;
