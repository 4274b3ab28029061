//! The store's background thread: a ping every second keeps `/readyz` current without
//! session traffic, and every `stats_interval` a `SCAN` over the store's keys counts
//! the sessions all replicas share and the sealed bytes they hold (what
//! `anonymizer_sessions` reports for Redis), and drops this replica's idle opened
//! sessions. In a cluster it counts on every primary and adds up.
//!
//! It has its own connection, so it never takes one from requests, and stops when
//! its handle is dropped.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::{Connection, ConnectionLike, RedisResult};

use super::pool::PoolError;
use super::topology::{Conn, Topology};
use super::TURN_SUFFIX;
use crate::session::ticker::Ticker;

/// How often Redis is pinged.
const PING_INTERVAL: Duration = Duration::from_secs(1);
/// Keys asked for per `SCAN` step: large enough to be quick, small enough that one
/// step never blocks Redis noticeably.
const SCAN_COUNT: usize = 1000;

/// What the thread learns, read by the store.
#[derive(Debug, Default)]
pub struct Observed {
    /// Whether the last contact with Redis (ping or request) succeeded.
    pub reachable: AtomicBool,
    /// Sessions under the store's prefix at the last count, all replicas together.
    pub sessions: AtomicU64,
    /// Their sealed bytes at the last count.
    pub bytes: AtomicU64,
}

impl Observed {
    /// A call to Redis failed: `/readyz` says so at once when Redis could not be
    /// reached (an error answer means it was).
    pub fn failed(&self, error: &PoolError) {
        if error.is_unreachable() {
            self.reachable.store(false, Ordering::Relaxed);
        }
    }
}

/// What the thread needs.
pub struct Watch {
    pub topology: Arc<Topology>,
    pub timeout: Duration,
    pub key_prefix: String,
    pub stats_interval: Duration,
    /// Run every `stats_interval`, whether Redis answers or not (drops this replica's
    /// idle opened sessions).
    pub sweep: Box<dyn Fn() + Send>,
}

impl Watch {
    /// Starts the thread; it writes into `observed` while that lives.
    ///
    /// # Errors
    /// When the OS refuses a new thread.
    pub fn start(self, observed: &Arc<Observed>) -> std::io::Result<Ticker> {
        let observed = Arc::downgrade(observed);
        let mut con: Option<Conn> = None;
        let mut next_count = Instant::now();
        Ticker::start("session-redis-watch", PING_INTERVAL, move || {
            let Some(out) = observed.upgrade() else {
                return false;
            };
            let ok = self.ping(&mut con);
            out.reachable.store(ok, Ordering::Relaxed);
            if Instant::now() >= next_count {
                (self.sweep)();
            }
            if ok && Instant::now() >= next_count {
                if let Some((sessions, bytes)) = con.as_mut().and_then(|c| self.count(c).ok()) {
                    out.sessions.store(sessions, Ordering::Relaxed);
                    out.bytes.store(bytes, Ordering::Relaxed);
                }
                next_count = Instant::now() + self.stats_interval;
            }
            true
        })
    }

    /// Pings on `con`, (re)connecting first when there is none; drops it on failure.
    fn ping(&self, con: &mut Option<Conn>) -> bool {
        if con.is_none() {
            *con = self.topology.connect(self.timeout).ok().filter(|c| {
                c.set_read_timeout(Some(self.timeout)).is_ok()
                    && c.set_write_timeout(Some(self.timeout)).is_ok()
            });
        }
        let ok = con
            .as_mut()
            .is_some_and(|c| redis::cmd("PING").query::<String>(c).is_ok());
        if !ok {
            *con = None;
        }
        ok
    }

    /// Sessions under the prefix and their bytes, on the server or on every primary
    /// of a cluster (each over a connection of its own).
    fn count(&self, con: &mut Conn) -> RedisResult<(u64, u64)> {
        let Some(primaries) = con.primaries()? else {
            return self.count_on(con);
        };
        let (mut sessions, mut bytes) = (0, 0);
        for (host, port) in primaries {
            let mut node: Connection = self.topology.node(&host, port, self.timeout)?;
            node.set_read_timeout(Some(self.timeout))?;
            let (s, b) = self.count_on(&mut node)?;
            sessions += s;
            bytes += b;
        }
        Ok((sessions, bytes))
    }

    /// Sessions under the prefix and their bytes on one server: `SCAN` in steps, the
    /// lengths of each step's keys in one pipeline. A key that expires between the two
    /// counts as 0 bytes; writers' turns are not sessions.
    fn count_on(&self, con: &mut dyn ConnectionLike) -> RedisResult<(u64, u64)> {
        let pattern = format!("{}*", glob_escape(&self.key_prefix));
        let (mut cursor, mut sessions, mut bytes) = (0u64, 0u64, 0u64);
        loop {
            let (next, keys): (u64, Vec<Vec<u8>>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(SCAN_COUNT)
                .query(con)?;
            let keys: Vec<Vec<u8>> = keys
                .into_iter()
                .filter(|k| !k.ends_with(TURN_SUFFIX.as_bytes()))
                .collect();
            if !keys.is_empty() {
                let mut pipe = redis::pipe();
                for key in &keys {
                    pipe.cmd("STRLEN").arg(key);
                }
                let lengths: Vec<u64> = pipe.query(con)?;
                sessions += keys.len() as u64;
                bytes += lengths.iter().sum::<u64>();
            }
            if next == 0 {
                return Ok((sessions, bytes));
            }
            cursor = next;
        }
    }
}

/// `prefix` as a `SCAN MATCH` pattern that matches it literally.
fn glob_escape(prefix: &str) -> String {
    let mut out = String::with_capacity(prefix.len());
    for c in prefix.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::glob_escape;

    #[test]
    fn a_prefix_with_glob_characters_matches_only_itself() {
        assert_eq!(glob_escape("anonymizer:session:"), "anonymizer:session:");
        assert_eq!(glob_escape(r"a*b?[c]\d"), r"a\*b\?\[c\]\\d");
    }
}
