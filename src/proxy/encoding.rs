//! The request's `Content-Encoding` step: a body is decoded before its format reads it
//! and encoded again after, so the upstream gets what the client declared. A codec is
//! one [`Codec`] listed in [`CODECS`]; an encoding not listed there is refused (415)
//! on routes that anonymize, since we could not read what we must anonymize.

use std::fmt;

/// Why a body does not decode; never carries body content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodecError {
    /// The bytes are not in the encoding they claim.
    Corrupt,
    /// Decoding would produce more than the limit.
    TooLarge,
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::Corrupt => f.write_str("the body does not decode"),
            CodecError::TooLarge => f.write_str("the decoded body is over the limit"),
        }
    }
}

impl std::error::Error for CodecError {}

/// One content coding (RFC 9110 §8.4.1).
pub trait Codec: Send + Sync {
    /// The `Content-Encoding` token, lower case (`gzip`).
    fn name(&self) -> &'static str;
    /// Decodes `body`, producing at most `max` bytes.
    ///
    /// # Errors
    /// Corrupt input, or output over `max`.
    fn decode(&self, body: &[u8], max: usize) -> Result<Vec<u8>, CodecError>;
    /// Encodes `body` again for the upstream.
    ///
    /// # Errors
    /// Only on an internal fault of the codec.
    fn encode(&self, body: &[u8]) -> Result<Vec<u8>, CodecError>;
}

/// Every codec the proxy reads. Empty until the codecs land: `identity` (or no header)
/// needs none, everything else is refused.
pub const CODECS: &[&dyn Codec] = &[];

/// What a request's `Content-Encoding` header asks of us.
#[derive(Clone, Copy)]
pub enum RequestEncoding {
    /// No header, or `identity`.
    Identity,
    /// A coding we read.
    Coded(&'static dyn Codec),
}

impl fmt::Debug for RequestEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestEncoding::Identity => f.write_str("identity"),
            RequestEncoding::Coded(c) => f.write_str(c.name()),
        }
    }
}

impl RequestEncoding {
    /// The encoding a header value names; `None` for one we cannot read, including a
    /// list of several codings (`gzip, br`), which no shipper sends.
    pub fn from_header(value: Option<&[u8]>) -> Option<RequestEncoding> {
        let Some(value) = value else {
            return Some(RequestEncoding::Identity);
        };
        let name = std::str::from_utf8(value).ok()?.trim();
        if name.is_empty() || name.eq_ignore_ascii_case("identity") {
            return Some(RequestEncoding::Identity);
        }
        CODECS
            .iter()
            .copied()
            .find(|c| c.name().eq_ignore_ascii_case(name))
            .map(RequestEncoding::Coded)
    }

    /// # Errors
    /// See [`Codec::decode`].
    pub fn decode<'a>(
        &self,
        body: &'a [u8],
        max: usize,
    ) -> Result<std::borrow::Cow<'a, [u8]>, CodecError> {
        match self {
            RequestEncoding::Identity => Ok(body.into()),
            RequestEncoding::Coded(c) => c.decode(body, max).map(Into::into),
        }
    }

    /// # Errors
    /// See [`Codec::encode`].
    pub fn encode(&self, body: Vec<u8>) -> Result<Vec<u8>, CodecError> {
        match self {
            RequestEncoding::Identity => Ok(body),
            RequestEncoding::Coded(c) => c.encode(&body),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_read_and_unknown_codings_are_not() {
        for ok in [None, Some(&b"identity"[..]), Some(b" IDENTITY ")] {
            assert!(matches!(
                RequestEncoding::from_header(ok),
                Some(RequestEncoding::Identity)
            ));
        }
        for refused in [&b"x-unknown"[..], b"gzip, br", b"\xff"] {
            assert!(RequestEncoding::from_header(Some(refused)).is_none());
        }
        let e = RequestEncoding::Identity;
        assert_eq!(e.decode(b"abc", 1).unwrap().as_ref(), b"abc");
        assert_eq!(e.encode(b"abc".to_vec()).unwrap(), b"abc");
    }
}
