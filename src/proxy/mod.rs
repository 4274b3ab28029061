//! Reverse-proxy logic without any HTTP server: one exchange as a state machine
//! (`exchange`), its request side (`job`: decode, format, anonymize, encode) and answer
//! side (`answer`; streams: `sse`, `ndjson_stream`, `array_stream`), routes and presets, JSON paths, body formats and content
//! encodings. Plain `http` types and bytes only; `server/` drives it from pingora's
//! phases.

mod answer;
mod array_stream;
pub mod credentials;
mod doc_stream;
pub mod encoding;
pub mod eventstream;
pub mod exchange;
pub mod fault;
pub mod format;
pub mod google_token;
pub mod headers;
pub mod job;
pub mod jsonpath;
pub mod mirrored;
mod ndjson_stream;
pub mod presets;
pub mod refusal;
pub mod route;
pub mod scan;
pub mod sigv4;
pub mod sse;
pub mod tally;

pub use exchange::{Exchange, Plan, Report, RequestHead, RequestStep};
pub use refusal::{Reason, Refusal};
