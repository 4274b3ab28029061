//! Observability: Prometheus metrics (every metric declared once, labels from enums
//! and config names only) and logging set-up. Never sees request text or keys.

pub mod cpu;
pub mod log;
pub mod metrics;
