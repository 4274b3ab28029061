//! Reverse-proxy logic without any HTTP server: routes, presets, JSON paths, body
//! rewriting (JSON, NDJSON) and streamed (SSE) restoring. `server/` drives it from
//! pingora's phases.

pub mod encoding;
pub mod formats;
pub mod jsonpath;
pub mod presets;
pub mod rewrite;
pub mod route;
pub mod sse;
pub mod tally;
