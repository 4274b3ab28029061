//! The sessions this replica used last, opened: Redis stays the only truth, and this
//! only saves opening and decoding a state Redis still holds unchanged.
//!
//! An entry is (tag, state): the tag is the nonce of the sealed value the state was
//! read from or written as, and a nonce is random per seal, so a state whose tag
//! equals the stored value's is exactly what Redis holds. Every request still reads
//! Redis (that restarts the TTL, sees other replicas' writes and fails closed when
//! Redis is gone); only the decrypting and decoding are skipped. A state is taken out
//! while a request uses it, so two requests never share one; the second simply opens
//! its own.
//!
//! Bounds, as in the memory store: at most `max_sessions` entries and `max_total_bytes`
//! of estimated state (arbitrary entries go first), and nothing idle longer than the
//! TTL ([`StateCache::sweep`]).

use std::collections::HashMap;
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
}

impl<S: SessionState> StateCache<S> {
    pub fn new(max_sessions: usize, max_bytes: usize, ttl: Duration) -> Self {
        Self {
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                bytes: 0,
            }),
            max_sessions,
            max_bytes,
            ttl,
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

    /// Keeps `state` as the state of `key` tagged `tag`, within the bounds.
    pub fn put(&self, key: &str, tag: Tag, state: S) {
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
        let cache = StateCache::new(10, 1000, Duration::from_secs(60));
        cache.put("k", A, State(5));
        assert!(cache.take("k", &B).is_none(), "another tag: stale");
        assert!(cache.take("k", &A).is_none(), "the stale state was dropped");
        cache.put("k", A, State(5));
        assert_eq!(cache.take("k", &A).map(|s| s.0), Some(5));
        assert!(cache.take("k", &A).is_none(), "taken out while in use");
        assert_eq!(tag_of(&[7; 20]), Some([7; NONCE_LEN]));
        assert_eq!(tag_of(&[7; 3]), None);
    }

    #[test]
    fn bounds_on_sessions_bytes_and_idle_time_hold() {
        let cache = StateCache::new(2, 100, Duration::from_secs(60));
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

        let cache = StateCache::new(10, 100, Duration::from_millis(20));
        cache.put("a", A, State(1));
        std::thread::sleep(Duration::from_millis(30));
        cache.sweep();
        assert_eq!(cache.len(), 0);
    }
}
