//! Where a caller's credential sits in a request, as each provider's SDK puts it, and
//! taking it off before the request goes upstream.
//!
//! The OpenAI SDK sends its `api_key` as `Authorization: Bearer …`, Anthropic's as
//! `x-api-key` (its `auth_token` as a bearer), Azure's as `api-key`, Gemini's as
//! `x-goog-api-key` or the `key=` query parameter. A route lists the places our key may
//! be (`api_key_in`, by default its preset's); a credential found there that is ours is
//! never forwarded, and the provider key comes from `upstream.add_headers` instead.

use std::borrow::Cow;
use std::fmt;

use http::header::{HeaderMap, HeaderName};

/// One place a credential can sit. Spelled in the config as `bearer`, a header name
/// (`x-api-key`), or `query:NAME` (`query:key`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyLocation {
    /// `Authorization: Bearer <key>`.
    Bearer,
    /// A header holding the key alone.
    Header(HeaderName),
    /// A query parameter holding the key (percent-encoded on the wire).
    Query(String),
    /// An AWS SigV4 signature (`Authorization: AWS4-HMAC-SHA256 …`) whose access key id
    /// is a tenant and whose secret is one of its keys: checked over the whole request
    /// once its body is read (`sigv4`), never a value compared here.
    SigV4,
}

impl KeyLocation {
    /// # Errors
    /// A name that is neither `bearer`, `query:NAME` nor a valid header name.
    pub fn parse(text: &str) -> Result<KeyLocation, &'static str> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("bearer") {
            return Ok(KeyLocation::Bearer);
        }
        if text.eq_ignore_ascii_case("sigv4") {
            return Ok(KeyLocation::SigV4);
        }
        if let Some(name) = text.strip_prefix("query:") {
            let ok = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b));
            return if ok {
                Ok(KeyLocation::Query(name.to_owned()))
            } else {
                Err("a query parameter name is letters, digits, '-', '_', '.' or '~'")
            };
        }
        if text.eq_ignore_ascii_case("authorization") {
            // A bare header would compare "Bearer …" with our key and never match.
            return Err("write `bearer` for `Authorization: Bearer <key>`");
        }
        HeaderName::from_bytes(text.as_bytes())
            .map(KeyLocation::Header)
            .map_err(|_| "`bearer`, `query:NAME` or a header name")
    }

    /// The credential at this location, if the request has one.
    pub fn find<'a>(
        &self,
        headers: &'a HeaderMap,
        query: Option<&'a str>,
    ) -> Option<Cow<'a, [u8]>> {
        match self {
            KeyLocation::Bearer => {
                let value = headers.get(http::header::AUTHORIZATION)?.as_bytes();
                let (scheme, token) = split_once(value, b' ')?;
                scheme
                    .eq_ignore_ascii_case(b"bearer")
                    .then(|| Cow::Borrowed(token.trim_ascii()))
            }
            KeyLocation::Header(name) => headers.get(name).map(|v| Cow::Borrowed(v.as_bytes())),
            // Not a value: see `sigv4`.
            KeyLocation::SigV4 => None,
            KeyLocation::Query(name) => query?
                .split('&')
                .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
                .find(|(k, _)| *k == name)
                .map(|(_, v)| percent_decode(v)),
        }
    }

    /// The header this location reads (`Authorization` for a bearer), if a header.
    pub fn header_name(&self) -> Option<HeaderName> {
        match self {
            KeyLocation::Bearer | KeyLocation::SigV4 => Some(http::header::AUTHORIZATION),
            KeyLocation::Header(name) => Some(name.clone()),
            KeyLocation::Query(_) => None,
        }
    }

    /// Whether the request carries anything at this location (a credential of any
    /// scheme: `Authorization: Basic …` counts for `bearer`).
    fn present(&self, headers: &HeaderMap, query: Option<&str>) -> bool {
        match self {
            KeyLocation::Bearer | KeyLocation::SigV4 => {
                headers.contains_key(http::header::AUTHORIZATION)
            }
            KeyLocation::Header(name) => headers.contains_key(name),
            KeyLocation::Query(_) => self.find(headers, query).is_some(),
        }
    }
}

impl fmt::Display for KeyLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyLocation::Bearer => f.write_str("bearer"),
            KeyLocation::SigV4 => f.write_str("sigv4"),
            KeyLocation::Header(name) => f.write_str(name.as_str()),
            KeyLocation::Query(name) => write!(f, "query:{name}"),
        }
    }
}

/// Parses a list of locations (a route's `api_key_in`, or a preset's default).
///
/// # Errors
/// The index and reason of the first location that does not parse.
pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<KeyLocation>, (usize, &'static str)> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| KeyLocation::parse(t.as_ref()).map_err(|e| (i, e)))
        .collect()
}

/// The credentials present at `locations`, in their order, each with its location.
pub fn presented<'a>(
    locations: &'a [KeyLocation],
    headers: &'a HeaderMap,
    query: Option<&'a str>,
) -> Vec<(&'a KeyLocation, Cow<'a, [u8]>)> {
    locations
        .iter()
        .filter_map(|l| l.find(headers, query).map(|c| (l, c)))
        .filter(|(_, c)| !c.is_empty())
        .collect()
}

/// The headers to remove so that nothing at `locations` is forwarded.
pub fn headers_to_strip(locations: &[KeyLocation], headers: &HeaderMap) -> Vec<HeaderName> {
    let mut out = Vec::new();
    for location in locations {
        let Some(name) = location.header_name() else {
            continue;
        };
        if location.present(headers, None) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// `path_and_query` without the query parameters of `locations`; every other byte of
/// the query is kept as it came, and an emptied query loses its `?`.
pub fn strip_query<'a>(path_and_query: &'a str, locations: &[KeyLocation]) -> Cow<'a, str> {
    let names: Vec<&str> = locations
        .iter()
        .filter_map(|l| match l {
            KeyLocation::Query(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let Some((path, query)) = path_and_query.split_once('?') else {
        return Cow::Borrowed(path_and_query);
    };
    if names.is_empty() {
        return Cow::Borrowed(path_and_query);
    }
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| {
            let key = pair.split_once('=').map_or(*pair, |(k, _)| k);
            !names.contains(&key)
        })
        .collect();
    if kept.len() == query.split('&').count() {
        return Cow::Borrowed(path_and_query);
    }
    let kept: Vec<&str> = kept.into_iter().filter(|p| !p.is_empty()).collect();
    if kept.is_empty() {
        Cow::Owned(path.to_owned())
    } else {
        Cow::Owned(format!("{path}?{}", kept.join("&")))
    }
}

fn split_once(bytes: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let at = bytes.iter().position(|&b| b == sep)?;
    Some((&bytes[..at], &bytes[at + 1..]))
}

/// `%XX` and `+` (form encoding, as `requests` and `httpx` write spaces) decoded;
/// malformed escapes are kept as they are (and then match no key).
fn percent_decode(text: &str) -> Cow<'_, [u8]> {
    if !text.contains(['%', '+']) {
        return Cow::Borrowed(text.as_bytes());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    fn locations(texts: &[&str]) -> Vec<KeyLocation> {
        parse_all(texts).unwrap()
    }

    #[test]
    fn parses_each_spelling_and_refuses_the_rest() {
        assert_eq!(
            locations(&["bearer", "X-Api-Key", "query:key"]),
            [
                KeyLocation::Bearer,
                KeyLocation::Header(HeaderName::from_static("x-api-key")),
                KeyLocation::Query("key".into())
            ]
        );
        for bad in ["authorization", "query:", "query:a b", "bad header"] {
            assert!(KeyLocation::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_all(&["bearer", "query:"]).unwrap_err().0, 1);
    }

    #[test]
    fn finds_keys_where_each_sdk_puts_them() {
        let h = headers(&[
            ("authorization", "Bearer  ours-0123456789abcdef "),
            ("api-key", "azure-key"),
        ]);
        let q = Some("alt=sse&key=a%2Bb+c&x=1");
        let all = locations(&["bearer", "api-key", "x-api-key", "query:key"]);
        let found: Vec<(String, Vec<u8>)> = presented(&all, &h, q)
            .into_iter()
            .map(|(l, c)| (l.to_string(), c.into_owned()))
            .collect();
        assert_eq!(
            found,
            [
                ("bearer".into(), b"ours-0123456789abcdef".to_vec()),
                ("api-key".into(), b"azure-key".to_vec()),
                ("query:key".into(), b"a+b c".to_vec()),
            ]
        );
        // Another scheme is not a bearer key, but it is still taken off.
        let basic = headers(&[("authorization", "Basic dXNlcjpwdw==")]);
        assert!(presented(&all, &basic, None).is_empty());
        assert_eq!(
            headers_to_strip(&all, &basic),
            [http::header::AUTHORIZATION]
        );
    }

    #[test]
    fn strips_only_the_key_parameters_and_keeps_the_rest_as_it_came() {
        let l = locations(&["query:key", "bearer"]);
        let cases = [
            ("/v1/x", "/v1/x"),
            ("/v1/x?alt=sse", "/v1/x?alt=sse"),
            ("/v1/x?key=abc", "/v1/x"),
            ("/v1/x?alt=sse&key=abc", "/v1/x?alt=sse"),
            ("/v1/x?key=abc&alt=sse&key=d", "/v1/x?alt=sse"),
            ("/v1/x?keys=1&a=%20b&key", "/v1/x?keys=1&a=%20b"),
        ];
        for (input, want) in cases {
            assert_eq!(strip_query(input, &l), want, "{input}");
        }
        assert_eq!(
            strip_query("/v1/x?key=abc", &locations(&["bearer"])),
            "/v1/x?key=abc"
        );
    }
}
