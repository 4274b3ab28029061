//! Logging set-up: `tracing` to stderr, text or JSON lines. The request line itself is
//! written by the server's `logging` phase with fixed fields only.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `RUST_LOG`, when set, overrides `level`.
/// Calling it twice is harmless (the second call keeps the first subscriber).
pub fn init(level: &str, json: bool, rust_log: Option<String>) {
    let filter = rust_log
        .and_then(|v| EnvFilter::try_new(v).ok())
        .or_else(|| EnvFilter::try_new(level).ok())
        .unwrap_or_else(|| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false);
    let _ = if json {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
}
