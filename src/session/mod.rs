//! Sessions: the entity-map cache that keeps replacements consistent across the
//! requests of one (tenant, `X-Session-Id`).
//!
//! [`SessionStore`] is the seam both stores implement: [`memory::MemoryStore`] is the
//! in-process one (dashmap, sliding TTL, bounds, sweeper) and [`redis::RedisStore`] the
//! shared one several replicas use (sealed blobs, compare-and-set in a Lua script). The
//! store does not know what a session holds: any [`SessionState`] (the anonymizer uses
//! `methods::Memory`). Knows nothing about HTTP, methods or metrics registries.

pub mod memory;
pub mod redis;
pub mod ticker;

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
    /// The state as bytes, for a store outside the process (sealed before it leaves).
    fn to_bytes(&self) -> Vec<u8>;
    /// A number that differs whenever what [`SessionState::to_bytes`] writes may
    /// have changed, so a shared store knows, without serialising, whether a request
    /// allocated anything. This default digests the bytes; a state should count its
    /// changes instead.
    fn revision(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.to_bytes().hash(&mut hasher);
        hasher.finish()
    }
    /// The state [`SessionState::to_bytes`] wrote, or `None` when `bytes` is not one.
    fn from_bytes(bytes: &[u8], max_entries: usize) -> Option<Self>
    where
        Self: Sized;
}

/// The session store cannot be reached, or did not answer in time. The request that
/// needed its session must fail closed: nothing of it may be anonymized or restored
/// with a map that might be incomplete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreUnavailable;

impl fmt::Display for StoreUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the session store is unavailable")
    }
}

impl std::error::Error for StoreUnavailable {}

/// What `/readyz` says about the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreHealth {
    /// `memory` or `redis`.
    pub kind: &'static str,
    /// Whether the last contact with the store succeeded (always true in memory).
    pub reachable: bool,
}

/// A snapshot of the store's counters, for the telemetry module to export. Gauges
/// (`sessions`, `entries`, `bytes`) are current values; the rest only grow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionCounters {
    pub sessions: u64,
    pub entries: u64,
    /// Whether `entries` was counted: a store that holds sessions sealed (Redis)
    /// cannot, and its `entries` is not to be published.
    pub entries_counted: bool,
    pub bytes: u64,
    pub hits: u64,
    pub misses: u64,
    pub expirations: u64,
    pub evictions: u64,
    /// Requests refused because the store was unreachable or too slow.
    pub failures: u64,
    /// Writes that found the shared state changed by another replica and ran again on
    /// the newer one (always 0 in memory).
    pub conflicts: u64,
}

/// The session cache seam.
pub trait SessionStore<S: SessionState>: Send + Sync {
    /// Runs `f` with exclusive access to the session's state, creating it (a miss) when
    /// absent or expired. Calls for one session are serialised, so two concurrent
    /// requests never hand out the same placeholder number. A shared store may run `f`
    /// more than once (on a newer state each time, when another replica wrote first);
    /// only the last run's state is kept, so `f` must overwrite what it reports.
    ///
    /// # Errors
    /// [`StoreUnavailable`] when the store cannot be reached in time; nothing is kept.
    fn update(&self, key: &SessionKey, f: &mut dyn FnMut(&mut S)) -> Result<(), StoreUnavailable>;

    /// Runs `f` on the session's state if it exists (a hit) and returns whether it did.
    ///
    /// # Errors
    /// [`StoreUnavailable`] when the store cannot be reached in time.
    fn read(&self, key: &SessionKey, f: &mut dyn FnMut(&S)) -> Result<bool, StoreUnavailable>;

    fn counters(&self) -> SessionCounters;

    /// For `/readyz`; never waits for the network.
    fn health(&self) -> StoreHealth {
        StoreHealth {
            kind: "memory",
            reachable: true,
        }
    }
}
