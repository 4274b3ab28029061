//! The only pingora code: the HTTP front door. Routes, authenticates, limits and reads
//! requests, hands bodies to `api`, and writes responses, metrics and the request log.
//! Knows nothing about detection or replacement.

pub mod auth;
pub mod ctx;
pub mod forward;
pub mod limits;
pub mod respond;
pub mod router;
pub mod service;

pub use service::ApiService;
