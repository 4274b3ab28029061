//! anonymizer: finds personal data in text, replaces it, and restores it later — as a
//! JSON API and as a reverse proxy in front of LLM APIs and log backends.
//!
//! Layers depend downward only:
//! `server → {api, proxy} → anonymizer → {engine, methods, restore, session} → text`;
//! `proxy` (the reverse proxy as a pingora-free exchange) also reads `api`'s errors.
//! `app` wires them together; `config` and `telemetry` are read by `app` and `server`.
//! `secret` (the redacting wrapper of keys and passwords) imports nothing and is used by all.
#![forbid(unsafe_code)]

pub mod anonymizer;
pub mod api;
pub mod app;
pub mod config;
pub mod engine;
pub mod eval;
pub mod methods;
pub mod policy;
pub mod proxy;
pub mod restore;
pub mod secret;
pub mod server;
pub mod session;
pub mod telemetry;
pub mod text;
pub mod validate;
