//! Sessions: the entity-map cache that keeps replacements consistent across the
//! requests of one (tenant, `X-Session-Id`).
//!
//! [`SessionStore`] is the small seam a shared store (for several replicas) can
//! implement later; [`memory::MemoryStore`] is the in-process one (dashmap, sliding TTL,
//! bounds, sweeper). The store does not know what a session holds: any
//! [`SessionState`] (the anonymizer uses `methods::Memory`). Knows nothing about HTTP,
//! methods or metrics registries.

pub mod memory;

use std::fmt;

pub use memory::{MemoryStore, SessionConfig};

/// The tenant a request was authenticated as.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TenantId(String);

impl TenantId {
    pub fn new(name: impl Into<String>) -> Self {
        Self(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An `X-Session-Id` value, already checked by the server (≤ 128 visible ASCII).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

impl SessionId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Session ids are caller-chosen and may carry meaning; keep them out of logs.
        f.write_str("SessionId(..)")
    }
}

/// Where a session lives: tenants with the same session id never share state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionKey {
    pub tenant: TenantId,
    pub id: SessionId,
}

impl SessionKey {
    pub fn new(tenant: &str, id: &str) -> Self {
        Self {
            tenant: TenantId::new(tenant),
            id: SessionId::new(id),
        }
    }
}

/// What a session holds, as far as the store's bounds are concerned.
pub trait SessionState: Send + 'static {
    /// A new, empty state that may hold at most `max_entries` entries.
    fn with_capacity(max_entries: usize) -> Self;
    /// Entries held now.
    fn entry_count(&self) -> usize;
    /// Estimated heap bytes held now.
    fn byte_size(&self) -> usize;
}

/// A snapshot of the store's counters, for the telemetry module to export. Gauges
/// (`sessions`, `entries`, `bytes`) are current values; the rest only grow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionCounters {
    pub sessions: u64,
    pub entries: u64,
    pub bytes: u64,
    pub hits: u64,
    pub misses: u64,
    pub expirations: u64,
    pub evictions: u64,
}

/// The session cache seam.
pub trait SessionStore<S: SessionState>: Send + Sync {
    /// Runs `f` with exclusive access to the session's state, creating it (a miss) when
    /// absent or expired. Calls for one session are serialised, so two concurrent
    /// requests never hand out the same placeholder number.
    fn update(&self, key: &SessionKey, f: &mut dyn FnMut(&mut S));

    /// Runs `f` on the session's state if it exists (a hit) and returns whether it did.
    fn read(&self, key: &SessionKey, f: &mut dyn FnMut(&S)) -> bool;

    fn counters(&self) -> SessionCounters;
}
