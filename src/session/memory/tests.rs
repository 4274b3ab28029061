use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::session::{SessionKey, SessionState, SessionStore};

/// A state that hands out numbers, like placeholder numbering.
#[derive(Default)]
struct Counter {
    next: u32,
    given: Vec<u32>,
    capacity: usize,
}

impl SessionState for Counter {
    fn with_capacity(max_entries: usize) -> Self {
        Self {
            capacity: max_entries,
            ..Self::default()
        }
    }

    fn entry_count(&self) -> usize {
        self.given.len()
    }

    fn byte_size(&self) -> usize {
        self.given.len() * 100
    }

    fn to_bytes(&self) -> Vec<u8> {
        self.given.iter().flat_map(|n| n.to_le_bytes()).collect()
    }

    fn from_bytes(bytes: &[u8], max_entries: usize) -> Option<Self> {
        let given: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Some(Self {
            next: given.last().copied().unwrap_or(0),
            given,
            capacity: max_entries,
        })
    }
}

impl Counter {
    fn take(&mut self) -> Option<u32> {
        if self.given.len() >= self.capacity {
            return None;
        }
        self.next += 1;
        self.given.push(self.next);
        Some(self.next)
    }
}

fn store(config: SessionConfig) -> (MemoryStore<Counter>, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::default());
    (MemoryStore::with_clock(config, clock.clone()), clock)
}

fn take(store: &MemoryStore<Counter>, key: &SessionKey) -> Option<u32> {
    let mut got = None;
    store
        .update(key, &mut |c| got = c.take())
        .expect("the memory store is always available");
    got
}

fn numbers(store: &MemoryStore<Counter>, key: &SessionKey) -> Option<Vec<u32>> {
    let mut got = None;
    store
        .read(key, &mut |c| got = Some(c.given.clone()))
        .expect("the memory store is always available");
    got
}

#[test]
fn state_persists_across_calls_of_one_session() {
    let (s, _) = store(SessionConfig::default());
    let key = SessionKey::new("t", "s1");
    assert_eq!(take(&s, &key), Some(1));
    assert_eq!(take(&s, &key), Some(2));
    assert_eq!(numbers(&s, &key), Some(vec![1, 2]));
    let c = s.counters();
    assert_eq!((c.sessions, c.entries, c.bytes), (1, 2, 200));
    assert_eq!((c.misses, c.hits), (1, 2));
}

#[test]
fn another_tenant_with_the_same_session_id_sees_nothing() {
    let (s, _) = store(SessionConfig::default());
    take(&s, &SessionKey::new("a", "same"));
    assert_eq!(numbers(&s, &SessionKey::new("b", "same")), None);
    assert_eq!(take(&s, &SessionKey::new("b", "same")), Some(1));
    assert_eq!(numbers(&s, &SessionKey::new("a", "same")), Some(vec![1]));
}

#[test]
fn sessions_expire_after_the_idle_ttl_which_slides_on_access() {
    let config = SessionConfig {
        ttl: Duration::from_secs(10),
        ..SessionConfig::default()
    };
    let (s, clock) = store(config);
    let key = SessionKey::new("t", "s");
    take(&s, &key);
    clock.advance(Duration::from_secs(8));
    assert!(numbers(&s, &key).is_some(), "read slides the ttl");
    clock.advance(Duration::from_secs(8));
    assert!(numbers(&s, &key).is_some());
    clock.advance(Duration::from_secs(10));
    assert_eq!(numbers(&s, &key), None);
    assert_eq!(s.counters().expirations, 1);
    assert_eq!(take(&s, &key), Some(1), "an expired session starts afresh");
    let c = s.counters();
    assert_eq!((c.sessions, c.entries), (1, 1));
}

#[test]
fn the_sweeper_removes_expired_sessions_and_their_bytes() {
    let config = SessionConfig {
        ttl: Duration::from_secs(10),
        ..SessionConfig::default()
    };
    let (s, clock) = store(config);
    for i in 0..5 {
        take(&s, &SessionKey::new("t", &i.to_string()));
    }
    clock.advance(Duration::from_secs(5));
    take(&s, &SessionKey::new("t", "0"));
    clock.advance(Duration::from_secs(6));
    assert_eq!(s.sweep(), 4);
    let c = s.counters();
    assert_eq!(
        (c.sessions, c.entries, c.bytes, c.expirations),
        (1, 2, 200, 4)
    );
}

#[test]
fn a_background_sweeper_runs_and_stops_with_its_handle() {
    let config = SessionConfig {
        ttl: Duration::from_millis(1),
        sweep_interval: Duration::from_millis(5),
        ..SessionConfig::default()
    };
    let s = Arc::new(MemoryStore::<Counter>::new(config));
    take(&s, &SessionKey::new("t", "x"));
    let handle = s.start_sweeper().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while s.counters().sessions > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(handle);
    assert_eq!(s.counters().sessions, 0);
    assert_eq!(s.counters().expirations, 1);
}

#[test]
fn creating_one_session_too_many_evicts_the_least_recently_used() {
    let config = SessionConfig {
        max_sessions: 2,
        ..SessionConfig::default()
    };
    let (s, clock) = store(config);
    let (a, b, c) = (
        SessionKey::new("t", "a"),
        SessionKey::new("t", "b"),
        SessionKey::new("t", "c"),
    );
    take(&s, &a);
    clock.advance(Duration::from_secs(1));
    take(&s, &b);
    clock.advance(Duration::from_secs(1));
    take(&s, &a);
    clock.advance(Duration::from_secs(1));
    take(&s, &c);
    assert!(numbers(&s, &a).is_some());
    assert!(numbers(&s, &b).is_none());
    let counters = s.counters();
    assert_eq!((counters.sessions, counters.evictions), (2, 1));
    assert_eq!(counters.entries, 3);
}

#[test]
fn going_over_the_byte_bound_evicts_other_sessions() {
    let config = SessionConfig {
        max_total_bytes: 500,
        ..SessionConfig::default()
    };
    let (s, clock) = store(config);
    let (a, b) = (SessionKey::new("t", "a"), SessionKey::new("t", "b"));
    for _ in 0..3 {
        take(&s, &a);
    }
    clock.advance(Duration::from_secs(1));
    for _ in 0..3 {
        take(&s, &b);
    }
    assert!(numbers(&s, &a).is_none());
    assert_eq!(numbers(&s, &b), Some(vec![1, 2, 3]));
    assert_eq!(s.counters().bytes, 300);
    assert_eq!(s.counters().evictions, 1);
}

#[test]
fn a_session_holds_at_most_its_entry_bound() {
    let config = SessionConfig {
        max_entries_per_session: 2,
        ..SessionConfig::default()
    };
    let (s, _) = store(config);
    let key = SessionKey::new("t", "s");
    assert_eq!(take(&s, &key), Some(1));
    assert_eq!(take(&s, &key), Some(2));
    assert_eq!(take(&s, &key), None);
}

#[test]
fn concurrent_requests_on_one_session_never_get_the_same_number() {
    let s = Arc::new(MemoryStore::<Counter>::new(SessionConfig::default()));
    let key = SessionKey::new("t", "busy");
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let s = Arc::clone(&s);
            let key = key.clone();
            std::thread::spawn(move || (0..200).filter_map(|_| take(&s, &key)).collect::<Vec<_>>())
        })
        .collect();
    let mut all = HashSet::new();
    for t in threads {
        for n in t.join().unwrap() {
            assert!(all.insert(n), "duplicate {n}");
        }
    }
    assert_eq!(all.len(), 1600);
    assert_eq!(s.counters().entries, 1600);
}
