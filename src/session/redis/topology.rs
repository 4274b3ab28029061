//! Which Redis deployment the store talks to, and a connection to it: one server (its
//! URL), a primary found through Sentinel ([`sentinel`]), or a Cluster (the `redis`
//! crate's cluster client, which follows `MOVED`/`ASK` and a failover's new slot map).
//!
//! The rest of the store sees one [`Conn`] whichever it is. What differs is said here
//! once: a cluster session's keys carry a hash tag so that its state and its turn share
//! a slot (one script touches one slot), `WAIT` goes to the primary that took the
//! write, and counting sessions walks every primary.
//!
//! Knows nothing about sessions, sealing or pools.

pub mod sentinel;

use std::time::Duration;

use redis::cluster::{ClusterClient, ClusterClientBuilder, ClusterConnection};
use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, Slot, SlotAddr};
use redis::{
    Client, Cmd, Connection, ConnectionAddr, ConnectionInfo, ConnectionLike, ErrorKind,
    IntoConnectionInfo, RedisResult, TlsCertificates, Value,
};

use self::sentinel::Sentinel;
use super::{Deployment, RedisConfig, RedisSetupError};

/// Retries of one cluster command (a redirection, a reconnection) before it fails;
/// each also stops at the request's deadline, so a few are enough to ride a moved slot.
const CLUSTER_RETRIES: u32 = 3;
/// Longest pause between two of them, in ms.
const CLUSTER_RETRY_WAIT_MS: u64 = 50;

/// How to reach Redis.
pub enum Topology {
    Single(Client),
    Sentinel(Sentinel),
    Cluster(Box<Cluster>),
}

pub struct Cluster {
    client: ClusterClient,
    /// The URL's settings, to reach one node directly (counting its sessions).
    template: ConnectionInfo,
    certificates: Option<TlsCertificates>,
}

/// One connection: to the server or primary, or a cluster connection (one socket per
/// node it has talked to).
pub enum Conn {
    Single(Connection),
    Cluster(Box<ClusterConnection>),
}

impl Topology {
    /// The deployment `redis` describes; connects to nothing yet.
    ///
    /// # Errors
    /// An unreadable URL, node address or CA file.
    pub fn new(redis: &RedisConfig) -> Result<Self, RedisSetupError> {
        const BAD_URL: RedisSetupError =
            RedisSetupError("sessions.redis.url is not a valid Redis URL");
        let template = redis
            .url
            .expose()
            .as_str()
            .into_connection_info()
            .map_err(|_| BAD_URL)?;
        let certificates = match &redis.ca_file {
            None => None,
            Some(path) => Some(TlsCertificates {
                client_tls: None,
                root_cert: Some(
                    std::fs::read(path)
                        .map_err(|_| RedisSetupError("cannot read sessions.redis.ca_file"))?,
                ),
            }),
        };
        match &redis.deployment {
            Deployment::Single => Ok(Topology::Single(
                client(template, certificates).map_err(|_| BAD_URL)?,
            )),
            Deployment::Sentinel { sentinels, service } => {
                let sentinels = sentinels
                    .iter()
                    .map(|node| node_info(&template, node).map(strip_credentials))
                    .collect::<Option<Vec<_>>>()
                    .ok_or(RedisSetupError(
                        "sessions.redis.sentinels holds an address that is not host:port",
                    ))?;
                Ok(Topology::Sentinel(Sentinel::new(
                    sentinels,
                    service.clone(),
                    template,
                    certificates,
                )))
            }
            Deployment::Cluster { nodes } => {
                let nodes = nodes
                    .iter()
                    .map(|node| node_info(&template, node))
                    .collect::<Option<Vec<_>>>()
                    .ok_or(RedisSetupError(
                        "sessions.redis.cluster_nodes holds an address that is not host:port",
                    ))?;
                let mut builder = ClusterClientBuilder::new(nodes)
                    .connection_timeout(redis.connect_timeout)
                    .response_timeout(redis.timeout)
                    .retries(CLUSTER_RETRIES)
                    .min_retry_wait(1)
                    .max_retry_wait(CLUSTER_RETRY_WAIT_MS);
                if let Some(certificates) = &certificates {
                    builder = builder.certs(certificates.clone());
                }
                let client = builder.build().map_err(|_| {
                    RedisSetupError("sessions.redis.cluster_nodes cannot make a cluster client")
                })?;
                Ok(Topology::Cluster(Box::new(Cluster {
                    client,
                    template,
                    certificates,
                })))
            }
        }
    }

    /// A new connection, ready for commands, within `timeout`.
    ///
    /// # Errors
    /// Redis cannot be reached, or (Sentinel) no sentinel names a primary that is one.
    pub fn connect(&self, timeout: Duration) -> RedisResult<Conn> {
        match self {
            Topology::Single(client) => client
                .get_connection_with_timeout(timeout)
                .map(Conn::Single),
            Topology::Sentinel(sentinel) => sentinel.connect(timeout).map(Conn::Single),
            // Its connect and response timeouts were set when it was built.
            Topology::Cluster(cluster) => cluster
                .client
                .get_connection()
                .map(|con| Conn::Cluster(Box::new(con))),
        }
    }

    /// A plain connection to one node of a cluster (or to the server), within
    /// `timeout`.
    ///
    /// # Errors
    /// The node cannot be reached.
    pub fn node(&self, host: &str, port: u16, timeout: Duration) -> RedisResult<Connection> {
        match self {
            Topology::Cluster(cluster) => {
                let info = node_info(&cluster.template, &format!("{host}:{port}")).ok_or(
                    redis::RedisError::from((ErrorKind::InvalidClientConfig, "a node address")),
                )?;
                client(info, cluster.certificates.clone())?.get_connection_with_timeout(timeout)
            }
            Topology::Single(client) => client.get_connection_with_timeout(timeout),
            Topology::Sentinel(sentinel) => sentinel.connect(timeout),
        }
    }

    /// Whether a session's keys need a hash tag: in a cluster, its state and its turn
    /// must share a slot for one script to touch both.
    pub fn hash_tagged(&self) -> bool {
        matches!(self, Topology::Cluster(_))
    }
}

impl Conn {
    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> RedisResult<()> {
        match self {
            Conn::Single(con) => con.set_read_timeout(timeout),
            Conn::Cluster(con) => con.set_read_timeout(timeout),
        }
    }

    pub fn set_write_timeout(&self, timeout: Option<Duration>) -> RedisResult<()> {
        match self {
            Conn::Single(con) => con.set_write_timeout(timeout),
            Conn::Cluster(con) => con.set_write_timeout(timeout),
        }
    }

    /// `WAIT replicas timeout` for the write just made to `key` on this connection:
    /// how many replicas acknowledged it. In a cluster it goes to the primary of
    /// `key`'s slot (the crate would send `WAIT` to every primary).
    ///
    /// # Errors
    /// Redis failed to answer.
    pub fn wait_for_replicas(
        &mut self,
        key: &str,
        replicas: u32,
        timeout: Duration,
    ) -> RedisResult<u64> {
        // WAIT 0 would block for ever.
        let millis = u64::try_from(timeout.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let mut wait = redis::cmd("WAIT");
        wait.arg(replicas).arg(millis);
        match self {
            Conn::Single(con) => wait.query(con),
            Conn::Cluster(con) => {
                let route = Route::with_slot(Slot::for_key(key), SlotAddr::Master);
                let answer = con.route_command(
                    &wait,
                    RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(route)),
                )?;
                Ok(redis::from_redis_value(answer)?)
            }
        }
    }

    /// The slot `key` lives in (always 0 outside a cluster): keys of one slot may share
    /// a script call.
    pub fn slot_of(&self, key: &str) -> u16 {
        match self {
            Conn::Single(_) => 0,
            Conn::Cluster(_) => cluster_slot(key),
        }
    }

    /// The `(host, port)` of every primary, to count sessions on each (`None` outside a
    /// cluster: the one server holds them all).
    ///
    /// # Errors
    /// Redis failed to answer, or answered `CLUSTER SLOTS` in another shape.
    pub fn primaries(&mut self) -> RedisResult<Option<Vec<(String, u16)>>> {
        let Conn::Cluster(con) = self else {
            return Ok(None);
        };
        // Each entry: [first slot, last slot, [host, port, id, …], replicas…].
        let slots: Vec<Vec<Value>> = redis::cmd("CLUSTER").arg("SLOTS").query(con.as_mut())?;
        let mut primaries: Vec<(String, u16)> = slots
            .into_iter()
            .filter_map(|entry| {
                let node: Vec<Value> = redis::from_redis_value(entry.get(2)?.clone()).ok()?;
                let host: String = redis::from_redis_value(node.first()?.clone()).ok()?;
                let port: u16 = redis::from_redis_value(node.get(1)?.clone()).ok()?;
                Some((host, port))
            })
            .collect();
        primaries.sort();
        primaries.dedup();
        Ok(Some(primaries))
    }
}

impl ConnectionLike for Conn {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        match self {
            Conn::Single(con) => con.req_packed_command(cmd),
            Conn::Cluster(con) => con.req_packed_command(cmd),
        }
    }

    fn req_packed_commands(
        &mut self,
        cmd: &[u8],
        offset: usize,
        count: usize,
    ) -> RedisResult<Vec<Value>> {
        match self {
            Conn::Single(con) => con.req_packed_commands(cmd, offset, count),
            Conn::Cluster(con) => con.req_packed_commands(cmd, offset, count),
        }
    }

    fn req_command(&mut self, cmd: &Cmd) -> RedisResult<Value> {
        // The cluster connection routes a command by its keys; packed bytes have none.
        match self {
            Conn::Single(con) => con.req_command(cmd),
            Conn::Cluster(con) => con.req_command(cmd),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Single(con) => con.get_db(),
            Conn::Cluster(con) => con.get_db(),
        }
    }

    fn supports_pipelining(&self) -> bool {
        match self {
            Conn::Single(con) => con.supports_pipelining(),
            Conn::Cluster(con) => con.supports_pipelining(),
        }
    }

    fn check_connection(&mut self) -> bool {
        match self {
            Conn::Single(con) => con.check_connection(),
            Conn::Cluster(con) => con.check_connection(),
        }
    }

    fn is_open(&self) -> bool {
        match self {
            Conn::Single(con) => con.is_open(),
            Conn::Cluster(con) => con.is_open(),
        }
    }
}

/// The cluster slot of `key`: CRC16 (XMODEM) of its hash tag (the text between the
/// first `{` and the next `}`, when not empty) or of the whole key, modulo 16384, as
/// the Redis Cluster specification defines it.
pub fn cluster_slot(key: &str) -> u16 {
    let key = key.as_bytes();
    let tagged = key.iter().position(|&b| b == b'{').and_then(|open| {
        let rest = &key[open + 1..];
        let close = rest.iter().position(|&b| b == b'}')?;
        (close > 0).then(|| &rest[..close])
    });
    let mut crc: u16 = 0;
    for &byte in tagged.unwrap_or(key) {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc % 16384
}

/// A client for `info`, trusting `certificates`' CA when given.
pub(crate) fn client(
    info: ConnectionInfo,
    certificates: Option<TlsCertificates>,
) -> RedisResult<Client> {
    match certificates {
        None => Client::open(info),
        Some(certificates) => Client::build_with_tls(info, certificates),
    }
}

/// `template` (the URL's credentials, database and TLS) pointed at `node`
/// (`host:port`, `[v6]:port`); `None` when `node` is not one.
fn node_info(template: &ConnectionInfo, node: &str) -> Option<ConnectionInfo> {
    let (host, port) = split_host_port(node)?;
    Some(pointed_at(template, host, port))
}

/// `template` (the URL's credentials, database and TLS) pointed at `host` and `port`.
fn pointed_at(template: &ConnectionInfo, host: String, port: u16) -> ConnectionInfo {
    let addr = match template.addr() {
        ConnectionAddr::TcpTls { insecure, .. } => ConnectionAddr::TcpTls {
            host,
            port,
            insecure: *insecure,
            tls_params: None,
        },
        _ => ConnectionAddr::Tcp(host, port),
    };
    template.clone().set_addr(addr)
}

/// Sentinels are reached with the URL's TLS mode but not its credentials or database,
/// which are the data servers'.
fn strip_credentials(info: ConnectionInfo) -> ConnectionInfo {
    let settings =
        redis::RedisConnectionInfo::default().set_protocol(info.redis_settings().protocol());
    info.set_redis_settings(settings)
}

/// `host:port` or `[v6]:port` as `(host, port)`; `None` when it is neither.
pub fn split_host_port(node: &str) -> Option<(String, u16)> {
    let (host, port) = node.trim().rsplit_once(':')?;
    let port: u16 = port.parse().ok().filter(|p| *p != 0)?;
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    (!host.is_empty() && !host.contains(['/', '@', ' '])).then(|| (host.to_owned(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_addresses_are_host_and_port() {
        assert_eq!(
            split_host_port("10.0.0.7:7001"),
            Some(("10.0.0.7".into(), 7001))
        );
        assert_eq!(
            split_host_port(" redis-0.redis:6379"),
            Some(("redis-0.redis".into(), 6379))
        );
        assert_eq!(split_host_port("[::1]:6380"), Some(("::1".into(), 6380)));
        for bad in [
            "",
            "host",
            "host:",
            ":6379",
            "host:0",
            "host:99999",
            "a@b:1",
            "redis://h:1",
        ] {
            assert_eq!(split_host_port(bad), None, "{bad}");
        }
    }

    #[test]
    fn slots_are_computed_as_redis_does() {
        // From the Redis Cluster specification and `CLUSTER KEYSLOT`.
        assert_eq!(cluster_slot("123456789"), 0x31C3);
        assert_eq!(cluster_slot("foo"), 12182);
        assert_eq!(
            cluster_slot("{user1000}.following"),
            cluster_slot("user1000")
        );
        assert_eq!(cluster_slot("foo{}{bar}"), cluster_slot("foo{}{bar}"));
        assert_ne!(cluster_slot("foo{}{bar}"), cluster_slot("bar"));
        for key in ["a{b}c", "x", "anonymizer:session:{ff}"] {
            let route = Route::with_slot(Slot::for_key(key), SlotAddr::Master);
            assert_eq!(
                RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(route)),
                RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::new(
                    cluster_slot(key),
                    SlotAddr::Master
                ))),
                "{key}"
            );
        }
    }

    #[test]
    fn a_hash_tag_puts_a_sessions_keys_in_one_slot() {
        let state = "anonymizer:session:{0123abcd}";
        assert_eq!(cluster_slot(state), cluster_slot(&format!("{state}:turn")));
        assert_ne!(
            cluster_slot("anonymizer:session:0123abcd"),
            cluster_slot("anonymizer:session:0123abcd:turn")
        );
    }

    #[test]
    fn a_node_keeps_the_urls_credentials_and_tls() {
        let template = "rediss://app:pw@127.0.0.1:6379/0"
            .into_connection_info()
            .unwrap();
        let node = node_info(&template, "10.1.2.3:7000").unwrap();
        assert!(
            matches!(node.addr(), ConnectionAddr::TcpTls { host, port: 7000, .. } if host == "10.1.2.3")
        );
        assert_eq!(node.redis_settings().password(), Some("pw"));
        let sentinel = strip_credentials(node);
        assert_eq!(sentinel.redis_settings().password(), None);
        assert_eq!(sentinel.redis_settings().username(), None);
    }
}
