//! The shared session store: every replica keeps its sessions in one Redis, so turn 2
//! of a conversation finds turn 1's placeholders whichever replica it lands on.
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
pub mod pool;
pub mod seal;
pub mod touch;
pub mod watch;

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;
use redis::{Script, Value};

use self::cache::{tag_of, Leased, StateCache};
use self::pool::{Pool, PoolError};
use self::seal::SealKeys;
use self::touch::{Toucher, Touches};
use self::watch::{Observed, Watch};
use super::{
    SessionConfig, SessionCounters, SessionKey, SessionState, SessionStore, StoreHealth,
    StoreUnavailable,
};

/// Writes a session only if it still holds the state read: KEYS[1] session; ARGV[1]
/// the nonce of the state read ('' = there was none); ARGV[2] the new sealed state;
/// ARGV[3] TTL ms. (16 is [`seal::NONCE_LEN`].) Answers 1 when written; else the state now held (nil = none),
/// its TTL restarted, for the caller to run again on.
const STORE: &str = r"
local cur = redis.call('GET', KEYS[1])
local tag = cur and string.sub(cur, 1, 16) or ''
if tag ~= ARGV[1] then
  if cur then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  return cur
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
";

/// A Redis URL; it may hold a password, so it is a [`Secret`](crate::secret::Secret).
pub type RedisUrl = crate::secret::Secret<String>;

/// How to reach Redis (from config `sessions.redis`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisConfig {
    /// `redis://[user:password@]host:port/db` or `rediss://…` (TLS).
    pub url: RedisUrl,
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
}

impl Default for RedisConfig {
    fn default() -> Self {
        Self {
            url: RedisUrl::new("redis://127.0.0.1:6379".into()),
            pool_size: 4,
            connect_timeout: Duration::from_millis(1000),
            timeout: Duration::from_millis(1000),
            key_prefix: "anonymizer:session:".into(),
            lease: Duration::from_millis(200),
            ca_file: None,
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

/// What a compare-and-set write did.
enum Written {
    Yes,
    /// Another replica wrote first; this is the state now held (`None`: none).
    Superseded(Option<Vec<u8>>),
}

pub struct RedisStore<S> {
    pool: Arc<Pool>,
    store: Script,
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
        let client = client(&redis)?;
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
            client: client.clone(),
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
        let pool = Arc::new(Pool::new(client, redis.pool_size, redis.connect_timeout));
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
                }
                .start(lease / 2)
                .map_err(|_| RedisSetupError("cannot start the session store's touch thread"))?,
            ),
        };
        Ok(Self {
            pool,
            store: Script::new(STORE),
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

    fn failed(&self, error: &PoolError) -> StoreUnavailable {
        self.counters.failures.fetch_add(1, Ordering::Relaxed);
        self.cache.revoke_all();
        self.observed.failed(error);
        // The kind only: a Redis error's text could name the server or the user.
        tracing::warn!(error = ?error, "session store call failed or timed out");
        StoreUnavailable
    }

    fn reached(&self) {
        self.observed.reachable.store(true, Ordering::Relaxed);
    }

    /// The sealed state of `redis_key` (`None`: no session), its TTL restarted.
    fn load(
        &self,
        deadline: Instant,
        redis_key: &str,
    ) -> Result<Option<Vec<u8>>, StoreUnavailable> {
        let ttl = self.ttl_millis();
        let data = self
            .pool
            .run(deadline, |con| {
                redis::cmd("GETEX")
                    .arg(redis_key)
                    .arg("PX")
                    .arg(ttl)
                    .query::<Option<Vec<u8>>>(con)
            })
            .map_err(|e| self.failed(&e))?;
        self.reached();
        Ok(data)
    }

    /// Writes `sealed` if the session still holds the state tagged `tag`.
    fn store(
        &self,
        deadline: Instant,
        redis_key: &str,
        tag: &[u8],
        sealed: &[u8],
    ) -> Result<Written, StoreUnavailable> {
        let ttl = self.ttl_millis();
        let answer = self
            .pool
            .run(deadline, |con| {
                self.store
                    .key(redis_key)
                    .arg(tag)
                    .arg(sealed)
                    .arg(ttl)
                    .invoke::<Value>(con)
            })
            .map_err(|e| self.failed(&e))?;
        self.reached();
        match answer {
            Value::Int(1) => Ok(Written::Yes),
            Value::BulkString(current) => Ok(Written::Superseded(Some(current))),
            Value::Nil => Ok(Written::Superseded(None)),
            _ => Err(self.failed(&PoolError::Redis(redis::ErrorKind::UnexpectedReturnType))),
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

    fn redis_key(&self, key: &SessionKey) -> String {
        self.keys
            .redis_key(&self.redis.key_prefix, key.tenant.as_str(), key.id.as_str())
    }
}

/// The client for `redis.url`, trusting `redis.ca_file` when set.
fn client(redis: &RedisConfig) -> Result<redis::Client, RedisSetupError> {
    const BAD_URL: RedisSetupError = RedisSetupError("sessions.redis.url is not a valid Redis URL");
    match &redis.ca_file {
        None => redis::Client::open(redis.url.expose().as_str()).map_err(|_| BAD_URL),
        Some(path) => {
            let pem = std::fs::read(path)
                .map_err(|_| RedisSetupError("cannot read sessions.redis.ca_file"))?;
            let certificates = redis::TlsCertificates {
                client_tls: None,
                root_cert: Some(pem),
            };
            redis::Client::build_with_tls(redis.url.expose().as_str(), certificates)
                .map_err(|_| BAD_URL)
        }
    }
}

impl<S: SessionState> SessionStore<S> for RedisStore<S> {
    fn update(&self, key: &SessionKey, f: &mut dyn FnMut(&mut S)) -> Result<(), StoreUnavailable> {
        let deadline = Instant::now() + self.redis.timeout;
        let redis_key = self.redis_key(key);
        let mut leased = self.cache.take_leased(&redis_key);
        let mut data = match leased {
            Some(_) => None,
            None => self.load(deadline, &redis_key)?,
        };
        for attempt in 0u32.. {
            // The leased state on the first run, else the state Redis sent.
            let (mut state, read_tag, confirmed) = match leased.take() {
                Some(lease) => (lease.state, Some(lease.tag), Some(lease.confirmed)),
                None => (
                    self.state_of(key, &redis_key, data.as_deref())?,
                    data.as_deref().and_then(tag_of),
                    None,
                ),
            };
            let before = state.revision();
            f(&mut state);
            if let Some(tag) = read_tag.filter(|_| state.revision() == before) {
                // Nothing new was allocated (every value was known): the answer was
                // made from a state Redis held, and a session only ever gains
                // replacements, so a newer state would have given the same answer.
                // A read restarted the TTL; a leased answer's restarts in a batch.
                match confirmed {
                    Some(confirmed) => {
                        self.touches.push(&redis_key, tag);
                        let lease = Leased {
                            tag,
                            state,
                            confirmed,
                        };
                        self.cache.put_leased(&redis_key, lease);
                    }
                    None => self.cache.put(&redis_key, tag, state),
                }
                self.counters.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            let sealed = self
                .keys
                .seal(key.tenant.as_str(), &redis_key, &state.to_bytes());
            let expected = read_tag.as_ref().map_or(&[][..], |t| &t[..]);
            match self.store(deadline, &redis_key, expected, &sealed)? {
                Written::Yes => {
                    if let Some(tag) = tag_of(&sealed) {
                        self.cache.put(&redis_key, tag, state);
                    }
                    match read_tag {
                        Some(_) => &self.counters.hits,
                        None => &self.counters.misses,
                    }
                    .fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
                Written::Superseded(current) => data = current,
            }
            // Another replica wrote first: back off a little (randomised, growing) so
            // writers of one hot session do not keep colliding, then run again on the
            // state the script sent back.
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
