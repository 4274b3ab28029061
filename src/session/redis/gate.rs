//! One writer per session at a time inside this replica, first come first served.
//!
//! Without it, every thread of a replica that allocates in one hot session runs the
//! compare-and-set loop on its own: all but one lose each round and redo the seal of
//! the whole state, which grows with the session, so a burst of writers turns into a
//! retry storm that can outlast the timeout. Queued here instead, a writer waits its
//! turn, then finds the state the writer before it just wrote in the cache
//! ([`super::cache`]) and writes once. Between replicas, the compare-and-set script's
//! turn ([`super`]) does the same job.
//!
//! A queue is a ticket counter per session: a writer takes the next ticket and waits
//! (never past its deadline) until it is served; a writer that gives up leaves its
//! ticket behind, to be skipped. A session's queue exists only while someone holds
//! or waits for a ticket. It also passes on whether the last writer met another
//! replica's writes, so the next one asks for the turn before sealing rather than
//! after.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

struct Queue {
    /// The ticket the next writer takes.
    next: u64,
    /// The ticket whose holder may write now.
    serving: u64,
    /// Tickets whose holders gave up waiting.
    abandoned: BTreeSet<u64>,
    /// Notified when `serving` moves on.
    moved: Arc<Condvar>,
    /// Whether the last writer met another replica's writes.
    contended: bool,
}

#[derive(Default)]
pub struct Gates {
    queues: Mutex<HashMap<String, Queue>>,
}

/// The right to write one session; the next writer's turn comes when it is dropped.
#[must_use = "the turn ends when this is dropped"]
pub struct Turn<'a> {
    gates: &'a Gates,
    key: String,
}

impl Gates {
    fn queues(&self) -> MutexGuard<'_, HashMap<String, Queue>> {
        // Every change below leaves the queues whole; a panic cannot split one.
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for this replica's turn to write session `key`; `None` when `deadline`
    /// passes first (the ticket is then skipped).
    pub fn enter(&self, key: &str, deadline: Instant) -> Option<Turn<'_>> {
        let mut queues = self.queues();
        let queue = queues.entry(key.to_owned()).or_insert_with(|| Queue {
            next: 0,
            serving: 0,
            abandoned: BTreeSet::new(),
            moved: Arc::new(Condvar::new()),
            contended: false,
        });
        let ticket = queue.next;
        queue.next += 1;
        let moved = Arc::clone(&queue.moved);
        loop {
            // The queue lives while this ticket is unserved, so it is still there.
            let queue = queues.get_mut(key)?;
            if queue.serving == ticket {
                return Some(Turn {
                    gates: self,
                    key: key.to_owned(),
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                queue.abandoned.insert(ticket);
                return None;
            }
            queues = moved
                .wait_timeout(queues, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.queues().len()
    }
}

impl Turn<'_> {
    /// Whether the writer before this one (in this burst of writers) met another
    /// replica's writes.
    pub fn contended(&self) -> bool {
        let queues = self.gates.queues();
        queues.get(&self.key).is_some_and(|q| q.contended)
    }

    /// Tells the next writer whether this one met another replica's writes.
    pub fn set_contended(&self, contended: bool) {
        let mut queues = self.gates.queues();
        if let Some(queue) = queues.get_mut(&self.key) {
            queue.contended = contended;
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut queues = self.gates.queues();
        let Some(queue) = queues.get_mut(&self.key) else {
            return;
        };
        queue.serving += 1;
        while queue.abandoned.remove(&queue.serving) {
            queue.serving += 1;
        }
        if queue.serving == queue.next {
            queues.remove(&self.key);
        } else {
            queue.moved.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn writers_of_one_session_take_turns_in_order_and_others_do_not_wait() {
        let gates = Arc::new(Gates::default());
        let far = Instant::now() + Duration::from_secs(10);
        let first = gates.enter("s", far).expect("free");
        // Another session is not held up.
        drop(gates.enter("t", far).expect("another session"));
        let order = Arc::new(Mutex::new(Vec::new()));
        let inside = Arc::new(AtomicUsize::new(0));
        let waiters: Vec<_> = (0..4)
            .map(|i| {
                let (mine, order, inside) = (gates.clone(), order.clone(), inside.clone());
                // Each takes its ticket before the next starts.
                let handle = std::thread::spawn(move || {
                    let turn = mine.enter("s", far).expect("served in time");
                    assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0, "alone");
                    order.lock().unwrap().push(i);
                    std::thread::sleep(Duration::from_millis(2));
                    inside.fetch_sub(1, Ordering::SeqCst);
                    drop(turn);
                });
                while gates.queues().get("s").map_or(0, |q| q.next) < i as u64 + 2 {
                    std::thread::yield_now();
                }
                handle
            })
            .collect();
        first.set_contended(true);
        drop(first);
        for w in waiters {
            w.join().unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            vec![0, 1, 2, 3],
            "first come, first served"
        );
        assert_eq!(gates.len(), 0, "no queue is left behind");
        let turn = gates.enter("s", far).expect("free");
        assert!(!turn.contended(), "a new burst starts afresh");
    }

    #[test]
    fn a_writer_that_gives_up_is_skipped() {
        let gates = Gates::default();
        let held = gates.enter("s", Instant::now() + Duration::from_secs(1));
        let soon = Instant::now() + Duration::from_millis(20);
        assert!(
            gates.enter("s", soon).is_none(),
            "timed out behind the holder"
        );
        drop(held);
        let next = gates
            .enter("s", Instant::now())
            .expect("the abandoned ticket is skipped");
        drop(next);
        assert_eq!(gates.len(), 0);
    }
}
