//! Integration tests: one binary (one link of pingora), one module per area. Every test
//! starts the real `anonymizer` binary on loopback ports and talks HTTP to it.

mod support;

/// Layering rules over the source tree.
mod architecture;
/// Every row of the error table in api-decisions.md.
mod api_errors;
/// API keys, tenants, the generated key, rate limiting.
mod auth;
/// `/v1/anonymize` and `/v1/deanonymize` outputs, exactly.
mod endpoints;
/// Health, readiness, entities, metrics, logs, shutdown, CLI.
mod operations;
