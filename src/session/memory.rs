//! The in-process session store: a `dashmap` of sessions keyed by (tenant, id), each
//! behind its own mutex, with a sliding TTL, hard bounds and a background sweeper.
//!
//! Bounds: `max_sessions` (creating one more evicts the least recently used),
//! `max_entries_per_session` (the state refuses more, see [`SessionState`]) and
//! `max_total_bytes` (exceeding it evicts least recently used sessions other than the
//! one just written). Expired sessions are removed on access and by the sweeper.
//!
//! Locking rule: no thread waits for a session's mutex while holding a dashmap guard
//! (the map is only ever `try_lock`ed from inside), so the two can never deadlock.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;

use super::ticker::Ticker;
use super::{SessionCounters, SessionKey, SessionState, SessionStore, StoreUnavailable};

/// Bounds and timing of the store (from config `sessions:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// Idle time after which a session expires; every access restarts it.
    pub ttl: Duration,
    pub max_sessions: usize,
    pub max_entries_per_session: usize,
    pub max_total_bytes: usize,
    /// How often the sweeper removes expired sessions.
    pub sweep_interval: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(3600),
            max_sessions: 10_000,
            max_entries_per_session: 10_000,
            max_total_bytes: 256 * 1024 * 1024,
            sweep_interval: Duration::from_secs(60),
        }
    }
}

/// Time since some fixed start; replaceable in tests.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> Duration;
}

/// The real monotonic clock.
#[derive(Debug)]
pub struct SystemClock(Instant);

impl Default for SystemClock {
    fn default() -> Self {
        Self(Instant::now())
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// A clock that moves only when told to, for tests.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    pub fn advance(&self, by: Duration) {
        let millis = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.0.fetch_add(millis, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        Duration::from_millis(self.0.load(Ordering::SeqCst))
    }
}

struct Slot<S> {
    inner: Mutex<SlotInner<S>>,
}

struct SlotInner<S> {
    state: S,
    last_access: Duration,
    /// Entries and bytes as last added to the store's totals.
    entries: usize,
    bytes: usize,
    /// Taken out of the map; a request that still holds it must look again.
    removed: bool,
}

fn lock<S>(slot: &Slot<S>) -> MutexGuard<'_, SlotInner<S>> {
    // A panic inside `f` poisons the mutex; the state is still a valid map.
    slot.inner.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Debug, Default)]
struct Counters {
    entries: AtomicI64,
    bytes: AtomicI64,
    hits: AtomicU64,
    misses: AtomicU64,
    expirations: AtomicU64,
    evictions: AtomicU64,
}

/// Why a session leaves the store.
#[derive(Clone, Copy)]
enum Removal {
    Expired,
    Evicted,
}

pub struct MemoryStore<S> {
    sessions: DashMap<SessionKey, Arc<Slot<S>>>,
    config: SessionConfig,
    clock: Arc<dyn Clock>,
    counters: Counters,
}

impl<S> std::fmt::Debug for MemoryStore<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryStore")
            .field("sessions", &self.sessions.len())
            .field("config", &self.config)
            .finish()
    }
}

impl<S: SessionState> MemoryStore<S> {
    pub fn new(config: SessionConfig) -> Self {
        Self::with_clock(config, Arc::new(SystemClock::default()))
    }

    pub fn with_clock(config: SessionConfig, clock: Arc<dyn Clock>) -> Self {
        Self {
            sessions: DashMap::new(),
            config,
            clock,
            counters: Counters::default(),
        }
    }

    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    fn expired(&self, last_access: Duration, now: Duration) -> bool {
        now.saturating_sub(last_access) >= self.config.ttl
    }

    /// Removes every expired session; returns how many. The sweeper calls this.
    pub fn sweep(&self) -> usize {
        let now = self.clock.now();
        let expired: Vec<(SessionKey, Arc<Slot<S>>)> = self
            .sessions
            .iter()
            .filter(|e| {
                e.value()
                    .inner
                    .try_lock()
                    .is_ok_and(|i| self.expired(i.last_access, now))
            })
            .map(|e| (e.key().clone(), Arc::clone(e.value())))
            .collect();
        expired
            .iter()
            .filter(|(key, slot)| {
                self.remove(key, slot, Removal::Expired, &|i| {
                    self.expired(i.last_access, now)
                })
            })
            .count()
    }

    /// Takes `slot` out of the map if it is still there, not in use, and `still(inner)`.
    fn remove(
        &self,
        key: &SessionKey,
        slot: &Arc<Slot<S>>,
        why: Removal,
        still: &dyn Fn(&SlotInner<S>) -> bool,
    ) -> bool {
        let taken = self.sessions.remove_if(key, |_, current| {
            // `try_lock` only: we hold a map guard here (see the locking rule).
            Arc::ptr_eq(current, slot)
                && current
                    .inner
                    .try_lock()
                    .is_ok_and(|i| !i.removed && still(&i))
        });
        if taken.is_none() {
            return false;
        }
        let mut inner = lock(slot);
        if !inner.removed {
            inner.removed = true;
            self.account(-(inner.entries as i64), -(inner.bytes as i64));
        }
        match why {
            Removal::Expired => &self.counters.expirations,
            Removal::Evicted => &self.counters.evictions,
        }
        .fetch_add(1, Ordering::Relaxed);
        true
    }

    fn account(&self, entries: i64, bytes: i64) {
        self.counters.entries.fetch_add(entries, Ordering::Relaxed);
        self.counters.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Evicts least recently used sessions (never `keep`, never one in use) while
    /// `over()` holds.
    fn evict_while(&self, keep: Option<&SessionKey>, over: &dyn Fn() -> bool) {
        if !over() {
            return;
        }
        // One scan, oldest first: O(n log n), only when a bound is hit.
        let mut candidates: Vec<(Duration, SessionKey, Arc<Slot<S>>)> = self
            .sessions
            .iter()
            .filter(|e| Some(e.key()) != keep)
            .filter_map(|e| {
                let last = e.value().inner.try_lock().ok()?.last_access;
                Some((last, e.key().clone(), Arc::clone(e.value())))
            })
            .collect();
        candidates.sort_by_key(|c| c.0);
        for (_, key, slot) in candidates {
            if !over() {
                break;
            }
            self.remove(&key, &slot, Removal::Evicted, &|_| true);
        }
    }

    fn total_bytes(&self) -> usize {
        usize::try_from(self.counters.bytes.load(Ordering::Relaxed)).unwrap_or(0)
    }

    /// Starts a thread that sweeps every `sweep_interval` until the handle is dropped
    /// or the store is gone.
    ///
    /// # Errors
    /// When the OS refuses a new thread.
    pub fn start_sweeper(self: &Arc<Self>) -> std::io::Result<Ticker> {
        let store: Weak<Self> = Arc::downgrade(self);
        Ticker::start("session-sweeper", self.config.sweep_interval, move || {
            store.upgrade().map(|store| store.sweep()).is_some()
        })
    }
}

impl<S: SessionState> SessionStore<S> for MemoryStore<S> {
    fn update(&self, key: &SessionKey, f: &mut dyn FnMut(&mut S)) -> Result<(), StoreUnavailable> {
        loop {
            let existing = self.sessions.get(key).map(|e| Arc::clone(e.value()));
            let (slot, created) = match existing {
                Some(slot) => (slot, false),
                None => {
                    let max = self.config.max_sessions;
                    self.evict_while(None, &|| self.sessions.len() >= max);
                    match self.sessions.entry(key.clone()) {
                        Entry::Occupied(e) => (Arc::clone(e.get()), false),
                        Entry::Vacant(e) => {
                            let slot = Arc::new(Slot {
                                inner: Mutex::new(SlotInner {
                                    state: S::with_capacity(self.config.max_entries_per_session),
                                    last_access: self.clock.now(),
                                    entries: 0,
                                    bytes: 0,
                                    removed: false,
                                }),
                            });
                            e.insert(Arc::clone(&slot));
                            (slot, true)
                        }
                    }
                }
            };
            let mut inner = lock(&slot);
            if inner.removed {
                drop(inner);
                std::thread::yield_now();
                continue;
            }
            let now = self.clock.now();
            if !created && self.expired(inner.last_access, now) {
                inner.removed = true;
                self.account(-(inner.entries as i64), -(inner.bytes as i64));
                drop(inner);
                self.sessions
                    .remove_if(key, |_, current| Arc::ptr_eq(current, &slot));
                self.counters.expirations.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            match created {
                true => &self.counters.misses,
                false => &self.counters.hits,
            }
            .fetch_add(1, Ordering::Relaxed);
            inner.last_access = now;
            f(&mut inner.state);
            let (entries, bytes) = (inner.state.entry_count(), inner.state.byte_size());
            self.account(
                entries as i64 - inner.entries as i64,
                bytes as i64 - inner.bytes as i64,
            );
            inner.entries = entries;
            inner.bytes = bytes;
            drop(inner);
            let max_bytes = self.config.max_total_bytes;
            self.evict_while(Some(key), &|| self.total_bytes() > max_bytes);
            return Ok(());
        }
    }

    fn read(&self, key: &SessionKey, f: &mut dyn FnMut(&S)) -> Result<bool, StoreUnavailable> {
        let Some(slot) = self.sessions.get(key).map(|e| Arc::clone(e.value())) else {
            self.counters.misses.fetch_add(1, Ordering::Relaxed);
            return Ok(false);
        };
        let now = self.clock.now();
        let mut inner = lock(&slot);
        if inner.removed || self.expired(inner.last_access, now) {
            drop(inner);
            self.remove(key, &slot, Removal::Expired, &|i| {
                !i.removed && self.expired(i.last_access, now)
            });
            self.counters.misses.fetch_add(1, Ordering::Relaxed);
            return Ok(false);
        }
        self.counters.hits.fetch_add(1, Ordering::Relaxed);
        inner.last_access = now;
        f(&inner.state);
        Ok(true)
    }

    fn counters(&self) -> SessionCounters {
        let c = &self.counters;
        let gauge = |v: &AtomicI64| u64::try_from(v.load(Ordering::Relaxed)).unwrap_or(0);
        SessionCounters {
            sessions: self.sessions.len() as u64,
            entries: gauge(&c.entries),
            entries_counted: true,
            bytes: gauge(&c.bytes),
            hits: c.hits.load(Ordering::Relaxed),
            misses: c.misses.load(Ordering::Relaxed),
            expirations: c.expirations.load(Ordering::Relaxed),
            evictions: c.evictions.load(Ordering::Relaxed),
            failures: 0,
            conflicts: 0,
        }
    }
}

#[cfg(test)]
mod tests;
