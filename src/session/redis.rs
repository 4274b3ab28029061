//! The shared session store: every replica keeps its sessions in one Redis (a server,
//! a Sentinel-watched primary or a Cluster, [`topology`]), so turn 2 of a conversation
//! finds turn 1's placeholders whichever replica it lands on.
//!
//! A session is one Redis string under a key derived from a digest of (tenant,
//! session id): its state, sealed ([`seal`]), whose random nonce doubles as the tag
//! that tells one written state from any other. A request costs one round trip when
//! it allocates nothing (`GETEX`: the sealed state, TTL restarted), two when it does:
//! the caller's closure runs here on the state read, and the result is written back
//! by a compare-and-set Lua script that only succeeds when the stored tag is still
//! the one read; otherwise the script answers with the newer state (no further read)
//! and the closure runs again on it. Under a lease ([`cache`]) a request that
//! allocates nothing costs no round trip at all (its TTL restarts in a batch,
//! [`touch`]), and one that allocates goes straight to the compare-and-set with the
//! leased state. So allocation is atomic on the server side: two
//! replicas can never hand one placeholder to two values, or two placeholders to one
//! value, and every method (numbering, pseudonyms, reserved literals, the date shift)
//! keeps exactly the memory store's semantics. Redis sees only digests and sealed
//! bytes. (Allocating inside the script instead would need the map in clear in Redis.)
//!
//! **Many writers, one session.** Each run of the closure on a newer state costs a seal
//! of the whole state, so writers must not race blindly. Inside a replica, writers of
//! one session queue ([`gate`]) and each finds its predecessor's state in the cache,
//! so they never collide with each other. Between replicas, the writer that loses a
//! compare-and-set is given the session's *turn* by the same script call (a short-lived
//! key beside the session): while it holds the turn no other replica's write succeeds,
//! so its second write does; others that meet the turn wait for it with a cheap call
//! that hands it to them with the current state. So a write runs the closure at most
//! twice, and contention costs waiting, not errors. The turn expires on its own (a
//! quarter of `timeout`) should its holder die; the compare-and-set still fences a
//! late holder's write.
//!
//! **Replication** (`wait_replicas`): after a write, `WAIT` for that many replicas to
//! acknowledge it; fewer in `wait_timeout` fail the request closed, so nothing a
//! client was answered with is lost when a replica is promoted.
//!
//! The seam is synchronous and so is the I/O: the thread serving the request writes
//! the command and reads the answer on a pooled connection ([`pool`]), all within
//! `timeout` for the whole call, retries included. Past it, or with Redis unreachable,
//! the call fails with [`StoreUnavailable`] and the request fails closed; every lease
//! is revoked with it. A failed connection is replaced by the next caller; a
//! background thread ([`watch`]) pings for `/readyz` and counts the shared sessions
//! for the metrics.
//!
//! Bounds: entries per session as in memory (the state refuses more); the number and
//! bytes of sessions are Redis's to bound (`maxmemory`, with `volatile-lru`: every key
//! has a TTL).

pub mod cache;
pub mod gate;
pub mod pool;
pub mod seal;
pub mod topology;
pub mod touch;
pub mod watch;

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;
use redis::{Script, Value};

use self::cache::{tag_of, Leased, StateCache, Tag};
use self::gate::Gates;
use self::pool::{Pool, PoolError};
use self::seal::SealKeys;
use self::topology::Topology;
use self::touch::{Toucher, Touches};
use self::watch::{Observed, Watch};
use super::{
    SessionConfig, SessionCounters, SessionKey, SessionState, SessionStore, StoreHealth,
    StoreUnavailable,
};

/// Writes a session only if it still holds the state read and no other writer holds
/// its turn: KEYS[1] session, KEYS[2] its turn; ARGV[1] the nonce of the state read
/// ('' = there was none); ARGV[2] the new sealed state; ARGV[3] TTL ms; ARGV[4] this
/// writer's turn token; ARGV[5] turn TTL ms. (16 is [`seal::NONCE_LEN`].) Answers 1
/// when written (the turn, if held, handed back); 0 when another writer holds the turn
/// (nothing changed); else the state now held (nil = none), its TTL restarted, and the
/// turn is this writer's: it runs again on that state.
const STORE: &str = r"
local turn = redis.call('GET', KEYS[2])
if turn and turn ~= ARGV[4] then
  return 0
end
local cur = redis.call('GET', KEYS[1])
local tag = cur and string.sub(cur, 1, 16) or ''
if tag ~= ARGV[1] then
  if cur then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5])
  return cur
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if turn then redis.call('DEL', KEYS[2]) end
return 1
";

/// Takes a session's turn if no other writer holds it: KEYS[1] session, KEYS[2] its
/// turn; ARGV[1] token; ARGV[2] turn TTL ms; ARGV[3] session TTL ms; ARGV[4] the nonce
/// of the state the caller holds ('' = none). Answers 0 when another writer holds
/// it; else, the turn taken and the TTL restarted, 1 when the session still holds the
/// caller's state, or the state it holds (nil = none).
const CLAIM: &str = r"
local turn = redis.call('GET', KEYS[2])
if turn and turn ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
local cur = redis.call('GET', KEYS[1])
if cur then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
local tag = cur and string.sub(cur, 1, 16) or ''
if tag == ARGV[4] then
  return 1
end
return cur
";

/// Hands a turn back unused: KEYS[1] the turn, KEYS[2] its session; ARGV[1] the
/// token that holds it; ARGV[2] session TTL ms. Restarting the session's TTL is a
/// write that follows the state's, so a `WAIT` after this call covers the state.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
";

/// What follows a session's key to name its turn (same hash tag, same slot).
const TURN_SUFFIX: &str = ":turn";

/// A Redis URL; it may hold a password, so it is a [`Secret`](crate::secret::Secret).
pub type RedisUrl = crate::secret::Secret<String>;

/// Which kind of Redis deployment holds the sessions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Deployment {
    /// The server at the URL.
    #[default]
    Single,
    /// The primary the sentinels at these `host:port`s name for `service`.
    Sentinel {
        sentinels: Vec<String>,
        service: String,
    },
    /// A Redis Cluster, found from these `host:port` startup nodes.
    Cluster { nodes: Vec<String> },
}

/// How to reach Redis (from config `sessions.redis`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisConfig {
    /// `redis://[user:password@]host:port/db` or `rediss://…` (TLS); with Sentinel or
    /// Cluster, only its credentials, database and TLS are used.
    pub url: RedisUrl,
    pub deployment: Deployment,
    /// Most connections open at once; a request takes one per round trip.
    pub pool_size: usize,
    /// Longest wait for a connection.
    pub connect_timeout: Duration,
    /// Longest a request waits for its session, retries included.
    pub timeout: Duration,
    /// Prefix of every key this service writes.
    pub key_prefix: String,
    /// How long after Redis last confirmed a session's state this replica may answer a
    /// request that allocates nothing from it, without a round trip; zero: never.
    /// Capped at a quarter of the session TTL.
    pub lease: Duration,
    /// PEM file of the CA(s) a `rediss://` server's certificate must chain to, instead
    /// of the built-in web roots (a private CA).
    pub ca_file: Option<PathBuf>,
    /// Replicas that must acknowledge each write (`WAIT`) before it is answered; 0:
    /// do not wait.
    pub wait_replicas: u32,
    /// Longest wait for their acknowledgement.
    pub wait_timeout: Duration,
}

impl Default for RedisConfig {
    fn default() -> Self {
        Self {
            url: RedisUrl::new("redis://127.0.0.1:6379".into()),
            deployment: Deployment::Single,
            pool_size: 4,
            connect_timeout: Duration::from_millis(1000),
            timeout: Duration::from_millis(1000),
            key_prefix: "anonymizer:session:".into(),
            lease: Duration::from_millis(200),
            ca_file: None,
            wait_replicas: 0,
            wait_timeout: Duration::from_millis(100),
        }
    }
}

/// Why the store could not be built; names no configured value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisSetupError(&'static str);

impl fmt::Display for RedisSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for RedisSetupError {}

#[derive(Debug, Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    failures: AtomicU64,
    conflicts: AtomicU64,
}

/// What a compare-and-set write did.
enum Written {
    Yes,
    /// Another replica wrote first; this is the state now held (`None`: none), and
    /// the session's turn is this writer's.
    Superseded(Option<Vec<u8>>),
    /// Another writer holds the session's turn; nothing was written.
    TurnTaken,
}

/// What taking the turn found.
enum Claimed {
    /// The session still holds the caller's state.
    Unchanged,
    /// Another replica wrote: the state now held (`None`: none).
    Changed(Option<Vec<u8>>),
}

pub struct RedisStore<S> {
    pool: Arc<Pool>,
    store: Script,
    claim: Script,
    release: Script,
    /// Whether keys carry a hash tag (a cluster).
    hash_tagged: bool,
    gates: Gates,
    keys: SealKeys,
    redis: RedisConfig,
    sessions: SessionConfig,
    observed: Arc<Observed>,
    cache: Arc<StateCache<S>>,
    touches: Arc<Touches>,
    counters: Counters,
    _watch: super::ticker::Ticker,
    _touch: Option<super::ticker::Ticker>,
}

impl<S> fmt::Debug for RedisStore<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("redis", &self.redis)
            .field("sessions", &self.sessions)
            .finish()
    }
}

impl<S: SessionState> RedisStore<S> {
    /// A store on the Redis at `redis.url`, sealing with keys derived from
    /// `master_secret`. Connects lazily: Redis may come up after the service.
    ///
    /// # Errors
    /// An unreadable URL or CA file, or no thread for the background watch.
    pub fn new(
        redis: RedisConfig,
        sessions: SessionConfig,
        master_secret: &[u8],
    ) -> Result<Self, RedisSetupError> {
        let topology = Arc::new(Topology::new(&redis)?);
        let observed = Arc::new(Observed::default());
        let lease = redis.lease.min(sessions.ttl / 4);
        let cache = Arc::new(StateCache::new(
            sessions.max_sessions,
            sessions.max_total_bytes,
            sessions.ttl,
            lease,
        ));
        let swept = Arc::downgrade(&cache);
        let watch = Watch {
            topology: topology.clone(),
            timeout: redis.timeout,
            key_prefix: redis.key_prefix.clone(),
            stats_interval: sessions.sweep_interval,
            sweep: Box::new(move || {
                if let Some(cache) = swept.upgrade() {
                    cache.sweep();
                }
            }),
        }
        .start(&observed)
        .map_err(|_| RedisSetupError("cannot start the session store's watch thread"))?;
        let hash_tagged = topology.hash_tagged();
        let pool = Arc::new(Pool::new(topology, redis.pool_size, redis.connect_timeout));
        let touches = Arc::new(Touches::default());
        let touch = match lease.is_zero() {
            true => None,
            false => Some(
                Toucher {
                    pool: pool.clone(),
                    cache: cache.clone(),
                    touches: touches.clone(),
                    ttl: sessions.ttl,
                    timeout: redis.timeout,
                    observed: observed.clone(),
                    by_slot: hash_tagged,
                }
                .start(lease / 2)
                .map_err(|_| RedisSetupError("cannot start the session store's touch thread"))?,
            ),
        };
        Ok(Self {
            pool,
            store: Script::new(STORE),
            claim: Script::new(CLAIM),
            release: Script::new(RELEASE),
            hash_tagged,
            gates: Gates::default(),
            keys: SealKeys::new(master_secret),
            redis,
            sessions,
            observed,
            cache,
            touches,
            counters: Counters::default(),
            _watch: watch,
            _touch: touch,
        })
    }

    fn ttl_millis(&self) -> u64 {
        u64::try_from(self.sessions.ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// How long a turn lasts if its holder never writes: long enough for one seal and
    /// one round trip under load, short enough that a dead holder delays the others by
    /// little.
    fn turn_millis(&self) -> u64 {
        let quarter = u64::try_from((self.redis.timeout / 4).as_millis()).unwrap_or(u64::MAX);
        quarter.max(10)
    }

    fn failed(&self, error: &PoolError) -> StoreUnavailable {
        self.counters.failures.fetch_add(1, Ordering::Relaxed);
        self.cache.revoke_all();
        self.observed.failed(error);
        // The kind only: a Redis error's text could name the server or the user.
        tracing::warn!(error = ?error, "session store call failed or timed out");
        StoreUnavailable
    }

    /// Waiting for the session's turn outlasted the timeout: Redis answered, but the
    /// writers ahead did not finish in time (a slow Redis or a dead holder).
    fn contended(&self) -> StoreUnavailable {
        // Counted, but `/readyz` stays as it is: Redis was reached.
        self.counters.failures.fetch_add(1, Ordering::Relaxed);
        tracing::warn!("a session write waited for its turn past the session store timeout");
        StoreUnavailable
    }

    fn reached(&self) {
        self.observed.reachable.store(true, Ordering::Relaxed);
    }

    /// The sealed state of `redis_key` (`None`: no session), its TTL restarted; with
    /// `wait_replicas`, only once that many replicas hold it.
    fn load(
        &self,
        deadline: Instant,
        redis_key: &str,
    ) -> Result<Option<Vec<u8>>, StoreUnavailable> {
        let ttl = self.ttl_millis();
        let (data, replicated) = self
            .pool
            .run(deadline, |con| {
                let data = redis::cmd("GETEX")
                    .arg(redis_key)
                    .arg("PX")
                    .arg(ttl)
                    .query::<Option<Vec<u8>>>(con)?;
                // The state may be a write no replica acknowledged (its writer got a
                // 503): answering from it must wait for them as a write does. GETEX
                // with PX is itself replicated, after that write, so WAIT covers both.
                let replicated = match data {
                    Some(_) => self.replicated(con, redis_key, deadline)?,
                    None => true,
                };
                Ok((data, replicated))
            })
            .map_err(|e| self.failed(&e))?;
        self.reached();
        if !replicated {
            return Err(self.unreplicated());
        }
        Ok(data)
    }

    /// Whether `wait_replicas` replicas acknowledged what this connection last wrote
    /// to `redis_key` (always, without `wait_replicas`).
    fn replicated(
        &self,
        con: &mut topology::Conn,
        redis_key: &str,
        deadline: Instant,
    ) -> redis::RedisResult<bool> {
        let replicas = self.redis.wait_replicas;
        if replicas == 0 {
            return Ok(true);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let acknowledged =
            con.wait_for_replicas(redis_key, replicas, self.redis.wait_timeout.min(left))?;
        Ok(acknowledged >= u64::from(replicas))
    }

    /// Writes `sealed` if the session still holds the state tagged `tag` and no other
    /// writer holds its turn; then waits for `wait_replicas` to acknowledge it.
    fn store(
        &self,
        deadline: Instant,
        redis_key: &str,
        tag: &[u8],
        sealed: &[u8],
        token: &str,
    ) -> Result<Written, StoreUnavailable> {
        let ttl = self.ttl_millis();
        let turn = turn_key(redis_key);
        let (answer, replicated) = self
            .pool
            .run(deadline, |con| {
                let answer = self
                    .store
                    .key(redis_key)
                    .key(&turn)
                    .arg(tag)
                    .arg(sealed)
                    .arg(ttl)
                    .arg(token)
                    .arg(self.turn_millis())
                    .invoke::<Value>(con)?;
                // Only a write is answered with; a state sent back is run on and
                // written (and waited for) next.
                let replicated = match answer {
                    Value::Int(1) => self.replicated(con, redis_key, deadline)?,
                    _ => true,
                };
                Ok((answer, replicated))
            })
            .map_err(|e| self.failed(&e))?;
        self.reached();
        if !replicated {
            return Err(self.unreplicated());
        }
        match answer {
            Value::Int(1) => Ok(Written::Yes),
            Value::Int(0) => Ok(Written::TurnTaken),
            Value::BulkString(current) => Ok(Written::Superseded(Some(current))),
            Value::Nil => Ok(Written::Superseded(None)),
            _ => Err(self.failed(&PoolError::Redis(redis::ErrorKind::UnexpectedReturnType))),
        }
    }

    /// A write fewer replicas than `wait_replicas` acknowledged in time: a failover
    /// could lose it, so it is not answered with, and no copy of it is trusted.
    fn unreplicated(&self) -> StoreUnavailable {
        self.counters.failures.fetch_add(1, Ordering::Relaxed);
        self.cache.revoke_all();
        tracing::warn!("a session write was not acknowledged by enough Redis replicas in time");
        StoreUnavailable
    }

    /// Takes the session's turn once no other writer holds it, and says whether the
    /// session still holds the state tagged `tag` (`''`: none).
    fn claim(
        &self,
        deadline: Instant,
        redis_key: &str,
        token: &str,
        tag: &[u8],
    ) -> Result<Claimed, StoreUnavailable> {
        let turn = turn_key(redis_key);
        let mut attempt = 0u32;
        loop {
            let answer = self
                .pool
                .run(deadline, |con| {
                    self.claim
                        .key(redis_key)
                        .key(&turn)
                        .arg(token)
                        .arg(self.turn_millis())
                        .arg(self.ttl_millis())
                        .arg(tag)
                        .invoke::<Value>(con)
                })
                .map_err(|e| self.failed(&e))?;
            self.reached();
            match answer {
                Value::Int(0) => {}
                Value::Int(1) => return Ok(Claimed::Unchanged),
                Value::BulkString(current) => return Ok(Claimed::Changed(Some(current))),
                Value::Nil => return Ok(Claimed::Changed(None)),
                _ => {
                    return Err(
                        self.failed(&PoolError::Redis(redis::ErrorKind::UnexpectedReturnType))
                    )
                }
            }
            // The holder needs one seal and one round trip: look again soon, then
            // less often (randomised, so waiters of several replicas spread out).
            let most = 100u64 << attempt.min(5);
            let pause = Duration::from_micros(rand::thread_rng().gen_range(most / 2..=most));
            if Instant::now() + pause >= deadline {
                return Err(self.contended());
            }
            std::thread::sleep(pause);
            attempt = attempt.saturating_add(1);
        }
    }

    /// Hands back a turn this writer did not need after all (another replica wrote
    /// the values it needed), once `wait_replicas` hold the state it answers from.
    fn release(
        &self,
        deadline: Instant,
        redis_key: &str,
        token: &str,
    ) -> Result<(), StoreUnavailable> {
        let turn = turn_key(redis_key);
        let replicated = self
            .pool
            .run(deadline, |con| {
                self.release
                    .key(&turn)
                    .key(redis_key)
                    .arg(token)
                    .arg(self.ttl_millis())
                    .invoke::<Value>(con)?;
                self.replicated(con, redis_key, deadline)
            })
            .map_err(|e| self.failed(&e))?;
        match replicated {
            true => Ok(()),
            false => Err(self.unreplicated()),
        }
    }

    /// The state sealed in `data`; a state that does not open (another master secret,
    /// tampering) fails the call rather than silently starting the session afresh.
    fn open(&self, key: &SessionKey, redis_key: &str, data: &[u8]) -> Result<S, StoreUnavailable> {
        self.keys
            .open(key.tenant.as_str(), redis_key, data)
            .and_then(|plain| S::from_bytes(&plain, self.sessions.max_entries_per_session))
            .ok_or_else(|| {
                self.counters.failures.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("a stored session does not open with this master secret");
                StoreUnavailable
            })
    }

    /// The state `data` holds: this replica's opened copy when it is still the one
    /// Redis holds, else `data` opened; a new state when there is no `data`.
    fn state_of(
        &self,
        key: &SessionKey,
        redis_key: &str,
        data: Option<&[u8]>,
    ) -> Result<S, StoreUnavailable> {
        let Some(data) = data else {
            return Ok(S::with_capacity(self.sessions.max_entries_per_session));
        };
        match tag_of(data).and_then(|tag| self.cache.take(redis_key, &tag)) {
            Some(state) => Ok(state),
            None => self.open(key, redis_key, data),
        }
    }

    /// `prefix` + the session's digest; in a cluster the digest is a hash tag, so the
    /// session's turn lands in its slot.
    fn redis_key(&self, key: &SessionKey) -> String {
        let prefix = &self.redis.key_prefix;
        let mut name = self
            .keys
            .redis_key(prefix, key.tenant.as_str(), key.id.as_str());
        if self.hash_tagged {
            name.insert(prefix.len(), '{');
            name.push('}');
        }
        name
    }

    fn count(&self, missed: bool) {
        match missed {
            true => &self.counters.misses,
            false => &self.counters.hits,
        }
        .fetch_add(1, Ordering::Relaxed);
    }

    /// Writes `state` (read as `read_tag`, `f` already run on it), one writer of the
    /// session at a time in this replica and, past a conflict, holding the session's
    /// turn among replicas.
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        key: &SessionKey,
        redis_key: &str,
        deadline: Instant,
        mut state: S,
        mut read_tag: Option<Tag>,
        missed: bool,
        f: &mut dyn FnMut(&mut S),
    ) -> Result<(), StoreUnavailable> {
        let Some(turn) = self.gates.enter(redis_key, deadline) else {
            return Err(self.contended());
        };
        // A writer ahead in this replica's queue may have written meanwhile: run again
        // on its state rather than lose the compare-and-set to it.
        if let Some((tag, newer)) = self.cache.take_other(redis_key, read_tag.as_ref()) {
            (state, read_tag) = (newer, Some(tag));
            let before = state.revision();
            f(&mut state);
            if state.revision() == before {
                self.cache.put(redis_key, tag, state);
                self.count(missed);
                return Ok(());
            }
        }
        let token = turn_token();
        // When the writer before this one met another replica's writes, this one
        // likely will too: take the turn first, so the state is sealed only once.
        let mut pending = match turn.contended() {
            true => {
                let expected = read_tag.as_ref().map_or(&[][..], |t| &t[..]);
                Some(self.claim(deadline, redis_key, &token, expected)?)
            }
            false => None,
        };
        let mut met_others = false;
        loop {
            if let Some(Claimed::Changed(current)) = pending.take() {
                // Another replica wrote first; the turn is now this writer's, so the
                // next write cannot lose (unless the turn runs out first).
                met_others = true;
                turn.set_contended(true);
                self.counters.conflicts.fetch_add(1, Ordering::Relaxed);
                read_tag = current.as_deref().and_then(tag_of);
                state = self.state_of(key, redis_key, current.as_deref())?;
                let before = state.revision();
                f(&mut state);
                if let Some(tag) = read_tag.filter(|_| state.revision() == before) {
                    // The other replica allocated every value this request needed.
                    self.release(deadline, redis_key, &token)?;
                    self.cache.put(redis_key, tag, state);
                    self.count(missed);
                    return Ok(());
                }
            }
            let sealed = self
                .keys
                .seal(key.tenant.as_str(), redis_key, &state.to_bytes());
            let expected = read_tag.as_ref().map_or(&[][..], |t| &t[..]);
            pending = Some(
                match self.store(deadline, redis_key, expected, &sealed, &token)? {
                    Written::Yes => {
                        if !met_others {
                            turn.set_contended(false);
                        }
                        if let Some(tag) = tag_of(&sealed) {
                            self.cache.put(redis_key, tag, state);
                        }
                        self.count(missed);
                        return Ok(());
                    }
                    Written::Superseded(current) => Claimed::Changed(current),
                    Written::TurnTaken => {
                        turn.set_contended(true);
                        self.claim(deadline, redis_key, &token, expected)?
                    }
                },
            );
        }
    }
}

/// The key of the turn of the session at `redis_key`.
fn turn_key(redis_key: &str) -> String {
    let mut key = String::with_capacity(redis_key.len() + TURN_SUFFIX.len());
    key.push_str(redis_key);
    key.push_str(TURN_SUFFIX);
    key
}

/// A random token naming one writer's hold on a turn.
fn turn_token() -> String {
    let bytes: [u8; 16] = rand::thread_rng().gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl<S: SessionState> SessionStore<S> for RedisStore<S> {
    fn update(&self, key: &SessionKey, f: &mut dyn FnMut(&mut S)) -> Result<(), StoreUnavailable> {
        let deadline = Instant::now() + self.redis.timeout;
        let redis_key = self.redis_key(key);
        // Most requests allocate nothing: run on the leased copy or the state read, and
        // write only when something was allocated.
        if let Some(lease) = self.cache.take_leased(&redis_key) {
            let mut state = lease.state;
            let before = state.revision();
            f(&mut state);
            if state.revision() == before {
                // Every value was known: the answer was made from a state Redis held,
                // and a session only ever gains replacements, so a newer state would
                // have given the same answer. Its TTL restarts in a batch.
                self.touches.push(&redis_key, lease.tag);
                let leased = Leased {
                    tag: lease.tag,
                    state,
                    confirmed: lease.confirmed,
                };
                self.cache.put_leased(&redis_key, leased);
                self.count(false);
                return Ok(());
            }
            return self.write(key, &redis_key, deadline, state, Some(lease.tag), false, f);
        }
        let data = self.load(deadline, &redis_key)?;
        let mut state = self.state_of(key, &redis_key, data.as_deref())?;
        let read_tag = data.as_deref().and_then(tag_of);
        let before = state.revision();
        f(&mut state);
        if let Some(tag) = read_tag.filter(|_| state.revision() == before) {
            // As above; the read restarted the TTL.
            self.cache.put(&redis_key, tag, state);
            self.count(false);
            return Ok(());
        }
        self.write(
            key,
            &redis_key,
            deadline,
            state,
            read_tag,
            read_tag.is_none(),
            f,
        )
    }

    fn read(&self, key: &SessionKey, f: &mut dyn FnMut(&S)) -> Result<bool, StoreUnavailable> {
        let deadline = Instant::now() + self.redis.timeout;
        let redis_key = self.redis_key(key);
        let Some(data) = self.load(deadline, &redis_key)? else {
            self.counters.misses.fetch_add(1, Ordering::Relaxed);
            return Ok(false);
        };
        let state = self.state_of(key, &redis_key, Some(&data))?;
        self.counters.hits.fetch_add(1, Ordering::Relaxed);
        f(&state);
        if let Some(tag) = tag_of(&data) {
            self.cache.put(&redis_key, tag, state);
        }
        Ok(true)
    }

    fn counters(&self) -> SessionCounters {
        // Sessions and their bytes are Redis's, shared by every replica: the watch
        // thread's last count (every replica reports the same figure). Entries are
        // sealed, so Redis cannot count them. Events are this replica's own.
        SessionCounters {
            sessions: self.observed.sessions.load(Ordering::Relaxed),
            bytes: self.observed.bytes.load(Ordering::Relaxed),
            hits: self.counters.hits.load(Ordering::Relaxed),
            misses: self.counters.misses.load(Ordering::Relaxed),
            failures: self.counters.failures.load(Ordering::Relaxed),
            conflicts: self.counters.conflicts.load(Ordering::Relaxed),
            ..SessionCounters::default()
        }
    }

    fn health(&self) -> StoreHealth {
        StoreHealth {
            kind: "redis",
            reachable: self.observed.reachable.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::seal::NONCE_LEN;
    use super::*;

    #[test]
    fn the_script_compares_exactly_the_nonce() {
        assert_eq!(NONCE_LEN, 16);
        assert!(STORE.contains("string.sub(cur, 1, 16)"));
    }
}
