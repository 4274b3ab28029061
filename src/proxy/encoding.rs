//! Content codings of request bodies (RFC 9110 §8.4): parse `Content-Encoding`, decode
//! a body with its decoded size bounded *while* decoding (a compression bomb stops at the
//! limit instead of filling memory), and encode a rewritten body the same way again.
//!
//! Owns: gzip (`x-gzip`), deflate (zlib or raw DEFLATE, whichever arrived), zstd, br, and
//! snappy (block format, as Prometheus remote write and Loki use it). Knows nothing of
//! HTTP types, routes or body formats; `proxy::job` (and `proxy::exchange` for the
//! header) map [`DecodeErrorKind`] to refusals: 413, 415, and 422 for bytes that are
//! not their coding.

use std::fmt;
use std::io::{Read, Write};

/// At most this many stacked codings (`gzip, br` is two). No client stacks more than
/// two; a longer list is refused rather than decoded layer after layer.
pub const MAX_CODINGS: usize = 4;

/// gzip and deflate level when re-encoding: 1, nginx's default `gzip_comp_level`, since
/// the proxy pays for it on every request. Unmeasured against 6; see `benches/codecs.rs`.
const DEFLATE_LEVEL: u32 = 1;
/// zstd's own default level.
const ZSTD_LEVEL: i32 = 3;
/// Brotli quality for dynamic content (11 is for static assets and far slower).
/// Unmeasured choice.
const BROTLI_QUALITY: u32 = 5;
/// Brotli window (log2 bytes); 22 is the encoder's default.
const BROTLI_WINDOW_LOG: u32 = 22;
/// RFC 9659 §3 caps the window of the HTTP `zstd` coding at 8 MB (2^23): larger frames
/// are refused instead of making the decoder allocate up to zstd's own 128 MB default.
const ZSTD_WINDOW_LOG_MAX: u32 = 23;
/// Internal buffer of the brotli decoder.
const BROTLI_BUFFER: usize = 16 * 1024;

/// One content coding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Gzip,
    /// HTTP's `deflate` is the zlib format (RFC 9110 §8.4.1.2); [`decode`] reports
    /// [`Coding::RawDeflate`] instead when the body is raw DEFLATE, as some senders write
    /// it and as Loki reads it (Go's `compress/flate`), so the re-encoded body keeps the
    /// format its reader expects.
    Deflate,
    /// Raw DEFLATE (RFC 1951) sent as `deflate`. Never produced by [`Codings::parse`].
    RawDeflate,
    Zstd,
    Brotli,
    /// Snappy block format (no framing), as in Prometheus remote write and Loki pushes.
    Snappy,
}

impl Coding {
    /// The `Content-Encoding` token.
    pub fn token(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate | Coding::RawDeflate => "deflate",
            Coding::Zstd => "zstd",
            Coding::Brotli => "br",
            Coding::Snappy => "snappy",
        }
    }

    fn from_token(token: &str) -> Option<Option<Coding>> {
        let coding = match token.to_ascii_lowercase().as_str() {
            // `identity` means no transformation; RFC 9110 §8.4.1.3 asks recipients to
            // read `x-gzip` as `gzip`.
            "identity" => return Some(None),
            "gzip" | "x-gzip" => Coding::Gzip,
            "deflate" => Coding::Deflate,
            "zstd" => Coding::Zstd,
            "br" => Coding::Brotli,
            "snappy" => Coding::Snappy,
            _ => return None,
        };
        Some(Some(coding))
    }
}

/// The codings of a body in the order the sender applied them (`gzip, br`: gzip first).
/// Empty means identity.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Codings(Vec<Coding>);

impl Codings {
    /// Parses every `Content-Encoding` field value of a request (a header may repeat;
    /// each value is a comma-separated list). `identity` and empty elements are dropped.
    ///
    /// # Errors
    /// [`DecodeErrorKind::Unsupported`] for a coding we cannot read, or more than
    /// [`MAX_CODINGS`] of them.
    pub fn parse<'a>(values: impl IntoIterator<Item = &'a str>) -> Result<Codings, DecodeError> {
        let mut codings = Vec::new();
        for value in values {
            for token in value.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                match Coding::from_token(token) {
                    Some(Some(coding)) => codings.push(coding),
                    Some(None) => {}
                    None => return Err(DecodeError::new(DecodeErrorKind::Unsupported)),
                }
            }
        }
        if codings.len() > MAX_CODINGS {
            return Err(DecodeError::new(DecodeErrorKind::Unsupported));
        }
        Ok(Codings(codings))
    }

    /// [`Codings::parse`] over raw header values (`http::HeaderValue::as_bytes`): a value
    /// that is not visible ASCII names no coding we know, so it is unsupported.
    ///
    /// # Errors
    /// As [`Codings::parse`].
    pub fn parse_bytes<'a>(
        values: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<Codings, DecodeError> {
        let mut texts = Vec::new();
        for value in values {
            let text = std::str::from_utf8(value)
                .ok()
                .filter(|t| t.is_ascii())
                .ok_or(DecodeError::new(DecodeErrorKind::Unsupported))?;
            texts.push(text);
        }
        Codings::parse(texts)
    }

    pub fn from_codings(codings: Vec<Coding>) -> Codings {
        Codings(codings)
    }

    pub fn as_slice(&self) -> &[Coding] {
        &self.0
    }

    pub fn is_identity(&self) -> bool {
        self.0.is_empty()
    }

    /// The `Content-Encoding` value to send with a body encoded by [`encode`], or `None`
    /// for identity (the header is then removed).
    pub fn header_value(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let tokens: Vec<&str> = self.0.iter().map(|c| c.token()).collect();
        Some(tokens.join(", "))
    }

    /// These codings without a last `snappy`. Loki's protobuf push is snappy-compressed
    /// as part of its format, and Loki treats `Content-Encoding: snappy` on it as a
    /// marker, not another layer (grafana/loki#3407); for such a body decode only the
    /// codings before it and keep the header.
    pub fn without_final_snappy(&self) -> Codings {
        let mut codings = self.0.clone();
        if codings.last() == Some(&Coding::Snappy) {
            codings.pop();
        }
        Codings(codings)
    }
}

/// What went wrong, for the exchange to refuse the request with the right reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The decoded body (or an intermediate layer) is larger than the limit.
    TooLarge,
    /// A coding we cannot read: refused, never forwarded.
    Unsupported,
    /// The bytes are not in the announced coding (corrupt, truncated, wrong format).
    Malformed,
}

/// Why a body could not be decoded. Never carries body bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
}

impl DecodeError {
    pub(crate) fn new(kind: DecodeErrorKind) -> DecodeError {
        DecodeError { kind }
    }

    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            DecodeErrorKind::TooLarge => "the decoded body is over the size limit",
            DecodeErrorKind::Unsupported => "the content coding is not supported",
            DecodeErrorKind::Malformed => "the body is not in its announced content coding",
        })
    }
}

impl std::error::Error for DecodeError {}

/// Why a body could not be encoded (a body too large for snappy's 32-bit lengths, or
/// an encoder failure). Never carries body bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError;

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the body could not be encoded")
    }
}

impl std::error::Error for EncodeError {}

/// A decoded body and the codings to encode it with again (`deflate` resolved to the
/// zlib or raw format that arrived).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub body: Vec<u8>,
    pub codings: Codings,
}

/// Undoes `codings` (last applied, first undone). Every layer's output is bounded by
/// `limit` bytes as it is produced. An identity body is copied: skip the call when
/// [`Codings::is_identity`].
///
/// # Errors
/// [`DecodeErrorKind::TooLarge`] past `limit`, [`DecodeErrorKind::Malformed`] for bytes
/// that are not in the coding.
pub fn decode(codings: &Codings, body: &[u8], limit: usize) -> Result<Decoded, DecodeError> {
    if body.is_empty() {
        // Clients send empty bodies with a `Content-Encoding` header they set on every
        // request; there is nothing to decode and nothing to hide.
        return Ok(Decoded {
            body: Vec::new(),
            codings: Codings::default(),
        });
    }
    let mut resolved = codings.0.clone();
    let mut current: Option<Vec<u8>> = None;
    for (i, coding) in codings.0.iter().enumerate().rev() {
        let input = current.as_deref().unwrap_or(body);
        let (output, actual) = decode_one(*coding, input, limit)?;
        resolved[i] = actual;
        current = Some(output);
    }
    let body = match current {
        Some(body) => body,
        None if body.len() > limit => return Err(DecodeError::new(DecodeErrorKind::TooLarge)),
        None => body.to_vec(),
    };
    Ok(Decoded {
        body,
        codings: Codings(resolved),
    })
}

fn decode_one(
    coding: Coding,
    input: &[u8],
    limit: usize,
) -> Result<(Vec<u8>, Coding), DecodeError> {
    let output = match coding {
        Coding::Gzip => read_bounded(flate2::read::MultiGzDecoder::new(input), limit)?,
        Coding::Deflate if is_zlib_header(input) => {
            read_bounded(flate2::read::ZlibDecoder::new(input), limit)?
        }
        // Not a zlib header: read it as raw DEFLATE, the common mistake (and Loki's reading).
        Coding::Deflate | Coding::RawDeflate => {
            let output = read_bounded(flate2::read::DeflateDecoder::new(input), limit)?;
            return Ok((output, Coding::RawDeflate));
        }
        Coding::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(input)
                .map_err(|_| DecodeError::new(DecodeErrorKind::Malformed))?;
            decoder
                .window_log_max(ZSTD_WINDOW_LOG_MAX)
                .map_err(|_| DecodeError::new(DecodeErrorKind::Malformed))?;
            read_bounded(decoder, limit)?
        }
        Coding::Brotli => read_bounded(brotli::Decompressor::new(input, BROTLI_BUFFER), limit)?,
        Coding::Snappy => decode_snappy_block(input, limit)?,
    };
    Ok((output, coding))
}

/// Decodes one snappy block. The block starts with its decoded length, so a bomb is
/// refused before anything is allocated.
///
/// # Errors
/// [`DecodeErrorKind::TooLarge`] when the declared length is over `limit`,
/// [`DecodeErrorKind::Malformed`] when the block is corrupt.
pub fn decode_snappy_block(input: &[u8], limit: usize) -> Result<Vec<u8>, DecodeError> {
    let declared = snap::raw::decompress_len(input)
        .map_err(|_| DecodeError::new(DecodeErrorKind::Malformed))?;
    if declared > limit {
        return Err(DecodeError::new(DecodeErrorKind::TooLarge));
    }
    snap::raw::Decoder::new()
        .decompress_vec(input)
        .map_err(|_| DecodeError::new(DecodeErrorKind::Malformed))
}

/// Encodes one snappy block.
///
/// # Errors
/// When `input` is too large for the format (about 4 GiB).
pub fn encode_snappy_block(input: &[u8]) -> Result<Vec<u8>, EncodeError> {
    snap::raw::Encoder::new()
        .compress_vec(input)
        .map_err(|_| EncodeError)
}

/// RFC 1950 §2.2: compression method 8 (deflate) with a window of at most 32 KiB, and
/// CMF·256 + FLG a multiple of 31. A raw DEFLATE stream passes this by chance with
/// probability under 1/248; such a body then fails as malformed rather than misread.
fn is_zlib_header(input: &[u8]) -> bool {
    match input {
        [cmf, flg, ..] => {
            (cmf & 0x0f) == 8
                && (cmf >> 4) <= 7
                && ((u16::from(*cmf) << 8) | u16::from(*flg)) % 31 == 0
        }
        _ => false,
    }
}

/// Reads a decoder to its end, stopping one byte past `limit`.
fn read_bounded(reader: impl Read, limit: usize) -> Result<Vec<u8>, DecodeError> {
    let mut output = Vec::new();
    // `limit + 1` bytes tell "exactly at the limit" from "over it".
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader
        .take(cap)
        .read_to_end(&mut output)
        .map_err(|_| DecodeError::new(DecodeErrorKind::Malformed))?;
    if output.len() > limit {
        return Err(DecodeError::new(DecodeErrorKind::TooLarge));
    }
    Ok(output)
}

/// Applies `codings` to `body` in order (first listed, first applied), as the sender did.
///
/// # Errors
/// When an encoder fails (snappy past its 32-bit length; writing to memory cannot fail
/// otherwise).
pub fn encode(codings: &Codings, body: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let mut current = body.to_vec();
    for coding in &codings.0 {
        current = encode_one(*coding, &current)?;
    }
    Ok(current)
}

fn encode_one(coding: Coding, input: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let level = flate2::Compression::new(DEFLATE_LEVEL);
    let out = Vec::with_capacity(input.len() / 4 + 64);
    match coding {
        Coding::Gzip => finish(flate2::write::GzEncoder::new(out, level), input, |e| {
            e.finish()
        }),
        Coding::Deflate => finish(flate2::write::ZlibEncoder::new(out, level), input, |e| {
            e.finish()
        }),
        Coding::RawDeflate => finish(flate2::write::DeflateEncoder::new(out, level), input, |e| {
            e.finish()
        }),
        Coding::Zstd => zstd::stream::encode_all(input, ZSTD_LEVEL).map_err(|_| EncodeError),
        Coding::Brotli => {
            let mut writer = brotli::CompressorWriter::new(
                out,
                BROTLI_BUFFER,
                BROTLI_QUALITY,
                BROTLI_WINDOW_LOG,
            );
            writer.write_all(input).map_err(|_| EncodeError)?;
            Ok(writer.into_inner())
        }
        Coding::Snappy => encode_snappy_block(input),
    }
}

fn finish<W: Write>(
    mut writer: W,
    input: &[u8],
    done: impl FnOnce(W) -> std::io::Result<Vec<u8>>,
) -> Result<Vec<u8>, EncodeError> {
    writer.write_all(input).map_err(|_| EncodeError)?;
    done(writer).map_err(|_| EncodeError)
}

#[cfg(test)]
mod tests;
