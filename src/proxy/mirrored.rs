//! Request headers that mirror a value of the body, so an intermediary can route on it
//! without reading the body: MCP's `Mcp-Param-<name>` headers (the 2026 revision of
//! Streamable HTTP) repeat the `tools/call` arguments their tool's schema marks with
//! `x-mcp-header`, and the server refuses a request whose headers and body disagree.
//!
//! A mirrored value is personal data like the argument it repeats: it is anonymized
//! with the body, in the same batch, and a header that equals one of the body's texts
//! gets exactly that text's replacement, so the two still agree upstream. A header we
//! cannot read is refused, not forwarded.

use base64::Engine as _;
use http::header::{HeaderMap, HeaderName, HeaderValue};

/// MCP's wrapper for a value that is not plain printable ASCII: `=?base64?<b64>?=`.
const PREFIX: &str = "=?base64?";
const SUFFIX: &str = "?=";

/// A mirrored header the request carries, with its value decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mirrored {
    pub name: HeaderName,
    pub value: String,
}

/// The headers named with one of `prefixes` (lower case), decoded.
///
/// # Errors
/// The name of a header whose value is not UTF-8 or carries a malformed wrapper.
pub fn collect(prefixes: &[String], headers: &HeaderMap) -> Result<Vec<Mirrored>, HeaderName> {
    if prefixes.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (name, value) in headers {
        if !prefixes
            .iter()
            .any(|p| name.as_str().starts_with(p.as_str()))
        {
            continue;
        }
        let decoded = value.to_str().ok().and_then(decode);
        match decoded {
            Some(value) => out.push(Mirrored {
                name: name.clone(),
                value,
            }),
            None => return Err(name.clone()),
        }
    }
    Ok(out)
}

/// A header value as MCP writes it: unchanged, or the wrapped base64 of its UTF-8.
/// `None`: a wrapper that is malformed (MCP servers refuse those too).
pub fn decode(value: &str) -> Option<String> {
    let Some(payload) = value
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix(SUFFIX))
    else {
        return Some(value.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(payload)
        .ok()?;
    // Only the canonical encoding is one (the SDKs check it too).
    if base64::engine::general_purpose::STANDARD.encode(&bytes) != payload {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// `value` as a header: as it is when it is printable ASCII without edge spaces and
/// does not look wrapped, else wrapped.
pub fn encode(value: &str) -> HeaderValue {
    let plain = value.bytes().all(|b| (0x20..0x7f).contains(&b))
        && value.trim() == value
        && !(value.starts_with(PREFIX) && value.ends_with(SUFFIX));
    let text = if plain {
        value.to_owned()
    } else {
        let b64 = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("{PREFIX}{b64}{SUFFIX}")
    };
    // Printable ASCII either way.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The upstream values of `mirrored`: where a header equals one of the body's
/// `originals`, that text's `replacement`; otherwise its own anonymized text (`own`,
/// in the order of `mirrored`).
pub fn rewritten(
    mirrored: &[Mirrored],
    originals: &[String],
    replacements: &[String],
    own: &[String],
) -> Vec<(HeaderName, HeaderValue)> {
    mirrored
        .iter()
        .zip(own)
        .map(|(m, own)| {
            let value = originals
                .iter()
                .position(|o| *o == m.value)
                .and_then(|i| replacements.get(i))
                .unwrap_or(own);
            (m.name.clone(), encode(value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_plain_or_wrapped_as_mcp_writes_them() {
        for (value, wire) in [
            ("grace.hopper@example.com", "grace.hopper@example.com"),
            ("[EMAIL_ADDRESS_1]", "[EMAIL_ADDRESS_1]"),
            ("Zoë", "=?base64?Wm/Dqw==?="),
            (" padded", "=?base64?IHBhZGRlZA==?="),
            ("=?base64?eA==?=", "=?base64?PT9iYXNlNjQ/ZUE9PT89?="),
        ] {
            assert_eq!(encode(value), wire, "{value}");
            assert_eq!(decode(wire).as_deref(), Some(value), "{wire}");
        }
        // Not canonical, not base64, not UTF-8: unreadable.
        for bad in ["=?base64?WmR=?=", "=?base64?!!?=", "=?base64?/w==?="] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn collects_only_the_prefixed_headers_and_refuses_unreadable_ones() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "mcp-param-customer",
            HeaderValue::from_static("=?base64?WmR=?="),
        );
        headers.insert("mcp-name", HeaderValue::from_static("lookup"));
        let prefixes = vec!["mcp-param-".to_owned()];
        assert_eq!(
            collect(&prefixes, &headers).unwrap_err().as_str(),
            "mcp-param-customer"
        );
        headers.insert(
            "mcp-param-customer",
            HeaderValue::from_static("=?base64?WmQ=?="),
        );
        assert_eq!(
            collect(&prefixes, &headers).unwrap(),
            [Mirrored {
                name: HeaderName::from_static("mcp-param-customer"),
                value: "Zd".into()
            }]
        );
        assert!(collect(&[], &headers).unwrap().is_empty());
    }

    #[test]
    fn a_header_equal_to_a_body_text_gets_that_texts_replacement() {
        let m = |v: &str| Mirrored {
            name: HeaderName::from_static("mcp-param-x"),
            value: v.into(),
        };
        let originals = ["Zoë Díaz".to_owned(), "ACC-1".to_owned()];
        let replacements = ["[PERSON_1]".to_owned(), "ACC-1".to_owned()];
        let got = rewritten(
            &[m("Zoë Díaz"), m("bob@example.com")],
            &originals,
            &replacements,
            &["[PERSON_9]".to_owned(), "[EMAIL_ADDRESS_1]".to_owned()],
        );
        assert_eq!(got[0].1, "[PERSON_1]");
        assert_eq!(got[1].1, "[EMAIL_ADDRESS_1]");
    }
}
