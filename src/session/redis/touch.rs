//! Restarting the TTL of sessions answered under a lease ([`super::cache`]), in batches.
//!
//! A request answered from a leased state sends nothing to Redis, yet its session's
//! TTL must slide as if it had been read. Such sessions are queued here with the tag
//! they were answered from; a background thread sends the queue every half lease as
//! one script call per [`BATCH`] sessions, which restarts the TTL of each session
//! that still holds that tag and answers which did. Those leases are renewed from the
//! moment the batch was sent; a session another replica has written since gets no
//! renewal, and its next request reads Redis. A failed batch revokes every lease. In
//! a cluster a script may only touch one slot, so batches are made per slot.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use redis::Script;

use super::cache::{StateCache, Tag};
use super::pool::Pool;
use super::topology::cluster_slot;
use super::watch::Observed;
use crate::session::ticker::Ticker;
use crate::session::SessionState;

/// Restarts the TTL of each session (KEYS[i]) that still holds tag ARGV[i + 1];
/// ARGV[1] is the TTL in ms. Answers 1 or 0 per session. (16 is the nonce length.)
const TOUCH: &str = r"
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GETRANGE', key, 0, 15) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
";

/// Sessions per script call: one call never holds Redis up noticeably.
const BATCH: usize = 256;

/// Sessions answered under a lease since the last batch, with the tag answered from.
#[derive(Default)]
pub struct Touches(Mutex<HashMap<String, Tag>>);

impl Touches {
    fn queue(&self) -> MutexGuard<'_, HashMap<String, Tag>> {
        // Inserting or swapping a map cannot be left half done by a panic.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn push(&self, key: &str, tag: Tag) {
        let mut queue = self.queue();
        if let Some(queued) = queue.get_mut(key) {
            *queued = tag;
        } else {
            queue.insert(key.to_owned(), tag);
        }
    }

    fn take(&self) -> HashMap<String, Tag> {
        std::mem::take(&mut *self.queue())
    }
}

/// What the thread works with.
pub struct Toucher<S> {
    pub pool: Arc<Pool>,
    pub cache: Arc<StateCache<S>>,
    pub touches: Arc<Touches>,
    pub ttl: Duration,
    /// Longest one batch may take.
    pub timeout: Duration,
    /// Where `/readyz` learns that a batch failed.
    pub observed: Arc<Observed>,
    /// Whether a batch must hold keys of one slot (a cluster).
    pub by_slot: bool,
}

impl<S: SessionState> Toucher<S> {
    /// Starts the thread, sending the queue every `interval`.
    ///
    /// # Errors
    /// When the OS refuses a new thread.
    pub fn start(self, interval: Duration) -> std::io::Result<Ticker> {
        let script = Script::new(TOUCH);
        Ticker::start("session-redis-touch", interval, move || {
            self.flush(&script);
            true
        })
    }

    fn flush(&self, script: &Script) {
        let queued = self.touches.take();
        if queued.is_empty() {
            return;
        }
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let mut slots: BTreeMap<u16, Vec<(String, Tag)>> = BTreeMap::new();
        for (key, tag) in queued {
            let slot = if self.by_slot { cluster_slot(&key) } else { 0 };
            slots.entry(slot).or_default().push((key, tag));
        }
        for batch in slots.values().flat_map(|keys| keys.chunks(BATCH)) {
            let generation = self.cache.generation();
            let sent = Instant::now();
            let answer = self.pool.run(sent + self.timeout, |con| {
                let mut call = script.prepare_invoke();
                call.arg(ttl);
                for (key, tag) in batch {
                    call.key(key).arg(&tag[..]);
                }
                call.invoke::<Vec<i64>>(con)
            });
            match answer {
                Ok(held) => {
                    for ((key, tag), held) in batch.iter().zip(held) {
                        if held == 1 {
                            self.cache.confirm(key, tag, sent, generation);
                        }
                    }
                }
                Err(error) => {
                    // No request was refused, so no failure is counted.
                    self.cache.revoke_all();
                    self.observed.failed(&error);
                    tracing::warn!(error = ?error, "restarting leased sessions' TTL failed or timed out");
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_compares_exactly_the_nonce() {
        assert_eq!(super::super::seal::NONCE_LEN, 16);
        assert!(TOUCH.contains("GETRANGE', key, 0, 15"));
    }

    #[test]
    fn a_session_is_queued_once_with_the_last_tag() {
        let touches = Touches::default();
        touches.push("a", [1; 16]);
        touches.push("a", [2; 16]);
        touches.push("b", [3; 16]);
        let mut queued: Vec<_> = touches.take().into_iter().collect();
        queued.sort();
        assert_eq!(queued, vec![("a".into(), [2; 16]), ("b".into(), [3; 16])]);
        assert!(touches.take().is_empty());
    }
}
