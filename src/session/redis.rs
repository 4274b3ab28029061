//! The shared session store: every replica keeps its sessions in one Redis, so turn 2
//! of a conversation finds turn 1's placeholders whichever replica it lands on.
//!
//! A session is one Redis hash, `{v: version, d: sealed state}`, under a key derived
//! from a digest of (tenant, session id) (see [`seal`]). An update reads the state
//! (refreshing the sliding TTL), runs the caller's closure on it here, seals the result
//! and writes it back with a compare-and-set Lua script that only succeeds when the
//! version is still the one read. When another replica wrote first, the update runs
//! again on the newer state. So allocation is atomic on the server side: two replicas
//! can never hand one placeholder to two values, or two placeholders to one value,
//! and every method (numbering, pseudonyms, reserved literals, the date shift) keeps
//! exactly the memory store's semantics. Redis sees only digests and sealed bytes.
//!
//! The seam is synchronous (the anonymizer runs on blocking threads): each round trip
//! is spawned on a small runtime of this store's own and waited for with a deadline,
//! `timeout` for the whole call, retries included. Past it, or with Redis unreachable,
//! the call fails with [`StoreUnavailable`] and the request fails closed. The
//! connection manager reconnects by itself; a background ping keeps `/readyz` current.
//!
//! Bounds: entries per session as in memory (the state refuses more); the number and
//! bytes of sessions are Redis's to bound (`maxmemory`, with `volatile-lru`: every key
//! has a TTL).

pub mod seal;

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rand::Rng;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{RedisResult, Script};

use self::seal::SealKeys;
use super::{
    SessionConfig, SessionCounters, SessionKey, SessionState, SessionStore, StoreHealth,
    StoreUnavailable,
};

/// Reads a session and restarts its TTL, atomically. KEYS[1] session; ARGV[1] TTL ms.
const LOAD: &str = r"
local r = redis.call('HMGET', KEYS[1], 'v', 'd')
if r[1] then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return r
";

/// Writes a session only if its version is still ARGV[1] (0 = absent): returns 1, else
/// 0 and writes nothing. ARGV[2] sealed state; ARGV[3] TTL ms.
const STORE: &str = r"
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
";

/// How often the background ping checks Redis (for `/readyz` and reconnection).
const PING_INTERVAL: Duration = Duration::from_secs(1);

/// A Redis URL; it may hold a password, so it is a [`Secret`](crate::secret::Secret).
pub type RedisUrl = crate::secret::Secret<String>;

/// How to reach Redis (from config `sessions.redis`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisConfig {
    /// `redis://[user:password@]host:port/db` or `rediss://…` (TLS).
    pub url: RedisUrl,
    /// Multiplexed connections requests are spread over.
    pub pool_size: usize,
    /// Longest wait for a connection.
    pub connect_timeout: Duration,
    /// Longest a request waits for its session, retries included.
    pub timeout: Duration,
    /// Prefix of every key this service writes.
    pub key_prefix: String,
}

impl Default for RedisConfig {
    fn default() -> Self {
        Self {
            url: RedisUrl::new("redis://127.0.0.1:6379".into()),
            pool_size: 4,
            connect_timeout: Duration::from_millis(1000),
            timeout: Duration::from_millis(1000),
            key_prefix: "anonymizer:session:".into(),
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
}

/// Owns the store's runtime thread; dropping it stops the runtime.
struct RuntimeThread {
    handle: tokio::runtime::Handle,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for RuntimeThread {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub struct RedisStore<S> {
    runtime: RuntimeThread,
    connections: Vec<ConnectionManager>,
    next: AtomicUsize,
    load: Arc<Script>,
    store: Arc<Script>,
    keys: SealKeys,
    redis: RedisConfig,
    sessions: SessionConfig,
    reachable: Arc<AtomicBool>,
    counters: Counters,
    state: PhantomData<fn() -> S>,
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
    /// An unreadable URL, or no thread for the store's runtime.
    pub fn new(
        redis: RedisConfig,
        sessions: SessionConfig,
        master_secret: &[u8],
    ) -> Result<Self, RedisSetupError> {
        let client = redis::Client::open(redis.url.expose().as_str())
            .map_err(|_| RedisSetupError("sessions.redis.url is not a valid Redis URL"))?;
        let runtime = start_runtime()?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(redis.connect_timeout))
            .set_response_timeout(Some(redis.timeout))
            // Reconnection happens in the background; a request never waits for more
            // than its own deadline.
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_secs(1));
        // The connection managers find their runtime from the current context.
        let entered = runtime.handle.enter();
        let connections = (0..redis.pool_size.max(1))
            .map(|_| ConnectionManager::new_lazy_with_config(client.clone(), config.clone()))
            .collect::<RedisResult<Vec<_>>>()
            .map_err(|_| RedisSetupError("cannot set up the Redis connections"))?;
        drop(entered);
        let reachable = Arc::new(AtomicBool::new(false));
        runtime.handle.spawn(ping_forever(
            connections[0].clone(),
            Arc::downgrade(&reachable),
            redis.timeout,
        ));
        Ok(Self {
            runtime,
            connections,
            next: AtomicUsize::new(0),
            load: Arc::new(Script::new(LOAD)),
            store: Arc::new(Script::new(STORE)),
            keys: SealKeys::new(master_secret),
            redis,
            sessions,
            reachable,
            counters: Counters::default(),
            state: PhantomData,
        })
    }

    fn connection(&self) -> ConnectionManager {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.connections.len();
        self.connections[i].clone()
    }

    fn ttl_millis(&self) -> u64 {
        u64::try_from(self.sessions.ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// Runs `fut` on the store's runtime and waits for it until `deadline`.
    fn call<T: Send + 'static>(
        &self,
        deadline: Instant,
        fut: impl Future<Output = RedisResult<T>> + Send + 'static,
    ) -> Result<T, StoreUnavailable> {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(self.failed(None));
        }
        let (tx, rx) = mpsc::sync_channel(1);
        self.runtime.handle.spawn(async move {
            let result = tokio::time::timeout(remaining, fut).await;
            let _ = tx.send(result);
        });
        // The runtime's own timeout answers first; this one only guards a stalled runtime.
        match rx.recv_timeout(remaining + Duration::from_millis(100)) {
            Ok(Ok(Ok(value))) => {
                self.reachable.store(true, Ordering::Relaxed);
                Ok(value)
            }
            Ok(Ok(Err(e))) => Err(self.failed(Some(e.kind()))),
            Ok(Err(_)) | Err(_) => Err(self.failed(None)),
        }
    }

    fn failed(&self, kind: Option<redis::ErrorKind>) -> StoreUnavailable {
        self.counters.failures.fetch_add(1, Ordering::Relaxed);
        if kind.is_none_or(|k| k == redis::ErrorKind::Io) {
            self.reachable.store(false, Ordering::Relaxed);
        }
        // The kind only: a Redis error's text could name the server or the user.
        tracing::warn!(kind = ?kind, "session store call failed or timed out");
        StoreUnavailable
    }

    /// `(version, sealed state)` of `redis_key`, refreshing its TTL; version 0 = absent.
    fn load(
        &self,
        deadline: Instant,
        redis_key: &str,
    ) -> Result<(u64, Option<Vec<u8>>), StoreUnavailable> {
        let script = Arc::clone(&self.load);
        let mut con = self.connection();
        let key = redis_key.to_owned();
        let ttl = self.ttl_millis();
        let (version, data): (Option<u64>, Option<Vec<u8>>) = self.call(deadline, async move {
            script.key(key).arg(ttl).invoke_async(&mut con).await
        })?;
        Ok((version.unwrap_or(0), data))
    }

    /// Writes `sealed` if the version is still `version`; whether it did.
    fn store(
        &self,
        deadline: Instant,
        redis_key: &str,
        version: u64,
        sealed: Vec<u8>,
    ) -> Result<bool, StoreUnavailable> {
        let script = Arc::clone(&self.store);
        let mut con = self.connection();
        let key = redis_key.to_owned();
        let ttl = self.ttl_millis();
        let written: i64 = self.call(deadline, async move {
            script
                .key(key)
                .arg(version)
                .arg(sealed)
                .arg(ttl)
                .invoke_async(&mut con)
                .await
        })?;
        Ok(written == 1)
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
}

impl<S: SessionState> SessionStore<S> for RedisStore<S> {
    fn update(&self, key: &SessionKey, f: &mut dyn FnMut(&mut S)) -> Result<(), StoreUnavailable> {
        let deadline = Instant::now() + self.redis.timeout;
        let redis_key =
            self.keys
                .redis_key(&self.redis.key_prefix, key.tenant.as_str(), key.id.as_str());
        for attempt in 0u32.. {
            let (version, data) = self.load(deadline, &redis_key)?;
            let mut state = match &data {
                Some(data) => self.open(key, &redis_key, data)?,
                None => S::with_capacity(self.sessions.max_entries_per_session),
            };
            let before = data.as_ref().map(|_| state.to_bytes());
            f(&mut state);
            let plain = state.to_bytes();
            if before.as_deref() == Some(plain.as_slice()) {
                // Nothing new was allocated (every value was known): the answer was
                // made from the state as read, which is as consistent as a write
                // would have been, and the read already restarted the TTL.
                self.counters.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            let sealed = self.keys.seal(key.tenant.as_str(), &redis_key, &plain);
            if self.store(deadline, &redis_key, version, sealed)? {
                match data {
                    Some(_) => &self.counters.hits,
                    None => &self.counters.misses,
                }
                .fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            // Another replica wrote first: back off a little (randomised, growing) so
            // writers of one hot session do not keep colliding, then start over.
            let most = 200u64 << attempt.min(5);
            let pause = Duration::from_micros(rand::thread_rng().gen_range(0..most));
            if Instant::now() + pause >= deadline {
                break;
            }
            std::thread::sleep(pause);
        }
        // Contention, not an unreachable Redis: counted, but `/readyz` stays as it is.
        self.counters.failures.fetch_add(1, Ordering::Relaxed);
        tracing::warn!("a session stayed contended past the session store timeout");
        Err(StoreUnavailable)
    }

    fn read(&self, key: &SessionKey, f: &mut dyn FnMut(&S)) -> Result<bool, StoreUnavailable> {
        let deadline = Instant::now() + self.redis.timeout;
        let redis_key =
            self.keys
                .redis_key(&self.redis.key_prefix, key.tenant.as_str(), key.id.as_str());
        let (_, data) = self.load(deadline, &redis_key)?;
        let Some(data) = data else {
            self.counters.misses.fetch_add(1, Ordering::Relaxed);
            return Ok(false);
        };
        let state = self.open(key, &redis_key, &data)?;
        self.counters.hits.fetch_add(1, Ordering::Relaxed);
        f(&state);
        Ok(true)
    }

    fn counters(&self) -> SessionCounters {
        // Sessions, entries and bytes live in Redis, shared by every replica; this
        // replica reports only what it did.
        SessionCounters {
            hits: self.counters.hits.load(Ordering::Relaxed),
            misses: self.counters.misses.load(Ordering::Relaxed),
            failures: self.counters.failures.load(Ordering::Relaxed),
            ..SessionCounters::default()
        }
    }

    fn health(&self) -> StoreHealth {
        StoreHealth {
            kind: "redis",
            reachable: self.reachable.load(Ordering::Relaxed),
        }
    }
}

/// A one-worker runtime on a thread of its own: the store's round trips never run on
/// (or block) pingora's runtimes, and dropping the store anywhere is safe.
fn start_runtime() -> Result<RuntimeThread, RedisSetupError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("session-redis")
        .enable_all()
        .build()
        .map_err(|_| RedisSetupError("cannot start the session store's runtime"))?;
    let handle = runtime.handle().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("session-redis-main".into())
        .spawn(move || {
            runtime.block_on(async {
                let _ = stopped.await;
            });
            runtime.shutdown_background();
        })
        .map_err(|_| RedisSetupError("cannot start the session store's runtime"))?;
    Ok(RuntimeThread {
        handle,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// Pings Redis every [`PING_INTERVAL`] while the store lives, so `/readyz` reflects a
/// Redis that went away or came back even without session traffic.
async fn ping_forever(
    mut con: ConnectionManager,
    reachable: std::sync::Weak<AtomicBool>,
    timeout: Duration,
) {
    loop {
        let ok = matches!(
            tokio::time::timeout(timeout, redis::cmd("PING").query_async::<String>(&mut con)).await,
            Ok(Ok(_))
        );
        match reachable.upgrade() {
            Some(flag) => flag.store(ok, Ordering::Relaxed),
            None => return,
        }
        tokio::time::sleep(PING_INTERVAL).await;
    }
}
