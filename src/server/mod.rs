//! The only pingora code: the HTTP front door. Routes, authenticates, limits and reads
//! requests, hands bodies to `api` and proxied exchanges to `proxy::Exchange` (a thin
//! adapter over pingora's phases), and writes responses, metrics and the request log.
//! Knows nothing about detection, replacement or body formats.

pub mod auth;
pub mod body;
pub mod ctx;
pub mod guard;
pub mod limits;
pub mod live;
pub mod respond;
pub mod router;
pub mod service;
pub mod upstream;

pub use live::Live;
pub use service::ApiService;
