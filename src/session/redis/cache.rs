//! The sessions this replica used last, opened: Redis stays the only truth, and this
//! saves opening and decoding a state Redis still holds unchanged, and, under a
//! lease, the round trip itself.
//!
//! An entry is (tag, state): the tag is the nonce of the sealed value the state was
//! read from or written as, and a nonce is random per seal, so a state whose tag
//! equals the stored value's is exactly what Redis holds. A state is taken out while
//! a request uses it, so two requests never share one; the second simply opens its
//! own.
//!
//! **Leases.** An entry also records when Redis last confirmed that tag (a read, a
//! write, or a touch that found it, [`super::touch`]). Within `lease` of that, a
//! request that allocates nothing may be answered from the entry without asking Redis:
//! a session only ever gains replacements, never changes one, so a newer state would
//! give the same answer. Any failed call to Redis revokes every lease at once
//! ([`StateCache::revoke_all`]), so a dead Redis fails requests closed within one
//! lease at most.
//!
//! Bounds, as in the memory store: at most `max_sessions` entries and `max_total_bytes`
//! of estimated state (arbitrary entries go first), and nothing idle longer than the
//! TTL ([`StateCache::sweep`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::seal::NONCE_LEN;
use crate::session::SessionState;

pub type Tag = [u8; NONCE_LEN];

/// The tag of a sealed value; `None` when it is too short to be one.
pub fn tag_of(sealed: &[u8]) -> Option<Tag> {
    sealed.get(..NONCE_LEN)?.try_into().ok()
}

struct Entry<S> {
    tag: Tag,
    state: S,
    bytes: usize,
    used: Instant,
    /// When Redis last confirmed `tag`.
    confirmed: Confirmed,
}

/// When Redis confirmed a state, and under which lease generation: a leased state
/// put back keeps it, so its lease runs on from there.
#[derive(Debug, Clone, Copy)]
pub struct Confirmed {
    at: Instant,
    generation: u64,
}

/// A state taken out under its lease.
pub struct Leased<S> {
    pub tag: Tag,
    pub state: S,
    pub confirmed: Confirmed,
}

struct Entries<S> {
    map: HashMap<String, Entry<S>>,
    bytes: usize,
}

pub struct StateCache<S> {
    entries: Mutex<Entries<S>>,
    max_sessions: usize,
    max_bytes: usize,
    ttl: Duration,
    lease: Duration,
    /// Bumped by [`StateCache::revoke_all`]: leases of older generations are void.
    generation: AtomicU64,
}

impl<S: SessionState> StateCache<S> {
    /// `lease` zero: every request asks Redis.
    pub fn new(max_sessions: usize, max_bytes: usize, ttl: Duration, lease: Duration) -> Self {
        Self {
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                bytes: 0,
            }),
            max_sessions,
            max_bytes,
            ttl,
            lease,
            generation: AtomicU64::new(0),
        }
    }

    fn entries(&self) -> MutexGuard<'_, Entries<S>> {
        // Every change below leaves `Entries` whole; a panic cannot split one.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the state of `key` out if it is the one tagged `tag`; a state under
    /// another tag is stale and dropped.
    pub fn take(&self, key: &str, tag: &Tag) -> Option<S> {
        let mut entries = self.entries();
        let entry = entries.map.remove(key)?;
        entries.bytes -= entry.bytes;
        (entry.tag == *tag && entry.used.elapsed() < self.ttl).then_some(entry.state)
    }

    /// Takes the state of `key` out if it is under another tag than `tag`: a writer of
    /// this replica wrote it after `tag` was read (or, rarely, put back an older one,
    /// which the compare-and-set then refuses).
    pub fn take_other(&self, key: &str, tag: Option<&Tag>) -> Option<(Tag, S)> {
        let mut entries = self.entries();
        let entry = entries.map.get(key)?;
        if Some(&entry.tag) == tag || entry.used.elapsed() >= self.ttl {
            return None;
        }
        let entry = entries.map.remove(key)?;
        entries.bytes -= entry.bytes;
        Some((entry.tag, entry.state))
    }

    /// Takes the state of `key` out if Redis confirmed it within the lease.
    pub fn take_leased(&self, key: &str) -> Option<Leased<S>> {
        if self.lease.is_zero() {
            return None;
        }
        let generation = self.generation();
        let mut entries = self.entries();
        let confirmed = entries.map.get(key)?.confirmed;
        if confirmed.generation != generation || confirmed.at.elapsed() >= self.lease {
            return None;
        }
        let entry = entries.map.remove(key)?;
        entries.bytes -= entry.bytes;
        Some(Leased {
            tag: entry.tag,
            state: entry.state,
            confirmed,
        })
    }

    /// Keeps `state` as the state of `key` tagged `tag`, which Redis confirmed just now.
    pub fn put(&self, key: &str, tag: Tag, state: S) {
        let confirmed = Confirmed {
            at: Instant::now(),
            generation: self.generation(),
        };
        self.insert(key, tag, state, confirmed);
    }

    /// Puts back a state answered from under its lease; the lease runs on from when
    /// Redis last confirmed it.
    pub fn put_leased(&self, key: &str, leased: Leased<S>) {
        self.insert(key, leased.tag, leased.state, leased.confirmed);
    }

    /// Redis still held `tag` for `key` at `at` (a touch found it): the lease restarts
    /// from then, unless a failure revoked leases since.
    pub fn confirm(&self, key: &str, tag: &Tag, at: Instant, generation: u64) {
        let mut entries = self.entries();
        if let Some(entry) = entries.map.get_mut(key) {
            if entry.tag == *tag && entry.confirmed.generation == generation {
                entry.confirmed.at = entry.confirmed.at.max(at);
            }
        }
    }

    /// The current lease generation, to pass to [`StateCache::confirm`] for a check
    /// that starts now.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Voids every lease: Redis failed, so nothing may be answered without asking it.
    pub fn revoke_all(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    fn insert(&self, key: &str, tag: Tag, state: S, confirmed: Confirmed) {
        let bytes = state.byte_size();
        if self.max_sessions == 0 || bytes > self.max_bytes {
            return;
        }
        let mut entries = self.entries();
        if let Some(old) = entries.map.remove(key) {
            entries.bytes -= old.bytes;
        }
        while entries.map.len() >= self.max_sessions || entries.bytes + bytes > self.max_bytes {
            let Some(victim) = entries.map.keys().next().cloned() else {
                break;
            };
            if let Some(old) = entries.map.remove(&victim) {
                entries.bytes -= old.bytes;
            }
        }
        entries.bytes += bytes;
        let used = Instant::now();
        entries.map.insert(
            key.to_owned(),
            Entry {
                tag,
                state,
                bytes,
                used,
                confirmed,
            },
        );
    }

    /// Drops every state idle longer than the TTL: Redis has expired it, and personal
    /// data is not kept past its session.
    pub fn sweep(&self) {
        let mut entries = self.entries();
        let ttl = self.ttl;
        let mut freed = 0;
        entries.map.retain(|_, e| {
            let keep = e.used.elapsed() < ttl;
            if !keep {
                freed += e.bytes;
            }
            keep
        });
        entries.bytes -= freed;
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries().map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct State(usize);

    impl SessionState for State {
        fn with_capacity(_: usize) -> Self {
            State(0)
        }
        fn entry_count(&self) -> usize {
            0
        }
        fn byte_size(&self) -> usize {
            self.0
        }
        fn to_bytes(&self) -> Vec<u8> {
            Vec::new()
        }
        fn from_bytes(_: &[u8], _: usize) -> Option<Self> {
            None
        }
    }

    const A: Tag = [1; NONCE_LEN];
    const B: Tag = [2; NONCE_LEN];

    #[test]
    fn a_state_comes_back_only_under_its_tag_and_only_once() {
        let cache = StateCache::new(10, 1000, Duration::from_secs(60), Duration::ZERO);
        cache.put("k", A, State(5));
        assert!(cache.take("k", &B).is_none(), "another tag: stale");
        assert!(cache.take("k", &A).is_none(), "the stale state was dropped");
        cache.put("k", A, State(5));
        assert_eq!(cache.take("k", &A).map(|s| s.0), Some(5));
        assert!(cache.take("k", &A).is_none(), "taken out while in use");
        assert_eq!(tag_of(&[7; 20]), Some([7; NONCE_LEN]));

        cache.put("k", A, State(5));
        assert!(cache.take_other("k", Some(&A)).is_none(), "the same state");
        assert_eq!(
            cache.take_other("k", Some(&B)).map(|(t, s)| (t, s.0)),
            Some((A, 5))
        );
        assert!(cache.take_other("k", None).is_none(), "taken out");
        cache.put("k", A, State(5));
        assert_eq!(
            cache.take_other("k", None).map(|(t, _)| t),
            Some(A),
            "none read"
        );
        assert_eq!(tag_of(&[7; 3]), None);
    }

    #[test]
    fn bounds_on_sessions_bytes_and_idle_time_hold() {
        let cache = StateCache::new(2, 100, Duration::from_secs(60), Duration::ZERO);
        for k in ["a", "b", "c"] {
            cache.put(k, A, State(10));
        }
        assert_eq!(cache.len(), 2);
        cache.put("big", A, State(95));
        assert_eq!(cache.len(), 1, "bytes bound: the others went");
        cache.put("huge", A, State(101));
        assert!(
            cache.take("huge", &A).is_none(),
            "larger than the bound: not kept"
        );

        let cache = StateCache::new(10, 100, Duration::from_millis(20), Duration::ZERO);
        cache.put("a", A, State(1));
        std::thread::sleep(Duration::from_millis(30));
        cache.sweep();
        assert_eq!(cache.len(), 0);
    }

    #[test]
    fn a_lease_holds_from_the_last_confirmation_and_a_failure_voids_every_lease() {
        let cache = StateCache::new(10, 1000, Duration::from_secs(60), Duration::from_millis(50));
        cache.put("k", A, State(5));
        let leased = cache.take_leased("k").expect("just confirmed");
        assert_eq!((leased.tag, leased.state.0), (A, 5));
        assert!(cache.take_leased("k").is_none(), "taken out while in use");
        cache.put_leased("k", leased);
        std::thread::sleep(Duration::from_millis(60));
        assert!(
            cache.take_leased("k").is_none(),
            "put back, the lease still runs from the write"
        );
        cache.confirm("k", &B, Instant::now(), cache.generation());
        assert!(cache.take_leased("k").is_none(), "a touch of another tag");
        cache.confirm("k", &A, Instant::now(), cache.generation());
        let leased = cache.take_leased("k").expect("a touch renews it");
        cache.put_leased("k", leased);

        let before = cache.generation();
        cache.revoke_all();
        assert!(cache.take_leased("k").is_none(), "revoked");
        cache.confirm("k", &A, Instant::now(), before);
        assert!(
            cache.take_leased("k").is_none(),
            "a touch sent before the failure renews nothing"
        );
        assert_eq!(cache.take("k", &A).map(|s| s.0), Some(5), "the state stays");

        let off = StateCache::new(10, 1000, Duration::from_secs(60), Duration::ZERO);
        off.put("k", A, State(5));
        assert!(off.take_leased("k").is_none(), "lease 0: always ask Redis");
    }
}
