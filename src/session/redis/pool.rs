//! Blocking Redis connections shared by the threads that serve requests, with a
//! deadline on every wait.
//!
//! Why blocking: the session seam is synchronous and runs on the thread serving the
//! request. Writing the command and reading the answer on that thread costs two
//! syscalls; handing them to an async client's runtime and back cost two thread
//! wake-ups more per round trip, which measured as the larger part of the store's
//! overhead (benches/README.md, "Shared session store").
//!
//! A connection is taken for one round trip and given back. At most `size` are open;
//! a caller that finds none idle waits (never past its deadline). A connection that
//! failed or timed out is dropped, not given back (a late answer would be read as the
//! next caller's), and the next caller opens a fresh one: that is the reconnection
//! (through Sentinel, to whichever node is primary now). So is a `READONLY` answer: the
//! node was demoted in a failover.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use redis::{RedisResult, ServerErrorKind};

use super::topology::{Conn, Topology};

/// Why a connection could not be had or used in time.
#[derive(Debug)]
pub enum PoolError {
    /// The deadline passed (waiting for a free connection, connecting, or the answer).
    Timeout,
    /// Redis refused or dropped the connection, or answered with an error.
    Redis(redis::ErrorKind),
}

impl PoolError {
    /// Whether this says Redis cannot be reached (for `/readyz`), rather than that it
    /// answered with an error.
    pub fn is_unreachable(&self) -> bool {
        match self {
            PoolError::Timeout => true,
            PoolError::Redis(kind) => *kind == redis::ErrorKind::Io,
        }
    }
}

struct Slots {
    idle: Vec<Conn>,
    /// Open connections, idle or lent.
    open: usize,
}

pub struct Pool {
    topology: Arc<Topology>,
    size: usize,
    connect_timeout: Duration,
    slots: Mutex<Slots>,
    freed: Condvar,
}

impl Pool {
    pub fn new(topology: Arc<Topology>, size: usize, connect_timeout: Duration) -> Self {
        Self {
            topology,
            size: size.max(1),
            connect_timeout,
            slots: Mutex::new(Slots {
                idle: Vec::new(),
                open: 0,
            }),
            freed: Condvar::new(),
        }
    }

    fn slots(&self) -> MutexGuard<'_, Slots> {
        // Nothing in `Slots` can be left half-changed by a panic.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on a connection whose reads give up at `deadline`.
    ///
    /// # Errors
    /// [`PoolError::Timeout`] past the deadline, [`PoolError::Redis`] when connecting
    /// or `f` failed; the connection is dropped in both cases.
    pub fn run<T>(
        &self,
        deadline: Instant,
        f: impl FnOnce(&mut Conn) -> RedisResult<T>,
    ) -> Result<T, PoolError> {
        let mut con = self.take(deadline)?;
        let result = remaining(deadline)
            .ok_or(PoolError::Timeout)
            .and_then(|left| {
                con.set_read_timeout(Some(left))
                    .map_err(|e| PoolError::Redis(e.kind()))
            })
            .and_then(|()| {
                f(&mut con).map_err(|e| match e.is_timeout() {
                    true => PoolError::Timeout,
                    false => PoolError::Redis(e.kind()),
                })
            });
        match &result {
            // An error answer (a script error, a wrong type) leaves the connection
            // in step; anything else may have left an answer unread. A demoted
            // primary's READONLY says to find the new one.
            Err(PoolError::Redis(redis::ErrorKind::Server(ServerErrorKind::ReadOnly))) => {
                self.forget()
            }
            Ok(_) | Err(PoolError::Redis(redis::ErrorKind::Server(_))) => self.give_back(con),
            Err(_) => self.forget(),
        }
        result
    }

    /// An idle connection, a new one if fewer than `size` are open, else the first one
    /// given back before `deadline`.
    fn take(&self, deadline: Instant) -> Result<Conn, PoolError> {
        let mut slots = self.slots();
        loop {
            if let Some(con) = slots.idle.pop() {
                return Ok(con);
            }
            if slots.open < self.size {
                slots.open += 1;
                drop(slots);
                return self.connect(deadline).inspect_err(|_| self.forget());
            }
            let left = remaining(deadline).ok_or(PoolError::Timeout)?;
            slots = self
                .freed
                .wait_timeout(slots, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn connect(&self, deadline: Instant) -> Result<Conn, PoolError> {
        let left = remaining(deadline).ok_or(PoolError::Timeout)?;
        let con = self
            .topology
            .connect(left.min(self.connect_timeout))
            .map_err(|e| match e.is_timeout() {
                true => PoolError::Timeout,
                false => PoolError::Redis(e.kind()),
            })?;
        // Commands are small; a peer that stops reading is a dead one.
        con.set_write_timeout(Some(self.connect_timeout))
            .map_err(|e| PoolError::Redis(e.kind()))?;
        Ok(con)
    }

    fn give_back(&self, con: Conn) {
        self.slots().idle.push(con);
        self.freed.notify_one();
    }

    /// A lent connection was dropped: its place is free for a new one.
    fn forget(&self) {
        let mut slots = self.slots();
        slots.open = slots.open.saturating_sub(1);
        drop(slots);
        self.freed.notify_one();
    }
}

/// Time left before `deadline`; `None` when it has passed (a zero timeout would mean
/// "wait forever" to the socket).
fn remaining(deadline: Instant) -> Option<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    (left >= Duration::from_micros(100)).then_some(left)
}
