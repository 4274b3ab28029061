//! Highly available Redis for tests, made of real `redis-server` processes on free
//! loopback ports in scratch directories: a Cluster (made by `redis-cli --cluster
//! create`) and a primary with a replica watched by a Sentinel. Every wait is a capped
//! poll. As with [`super::redis`], a missing `redis-server` or `redis-cli` fails the
//! test: CI must not pass without them.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::{eventually, on_a_free_port, scratch_dir, wait_listening, Scratch};

/// One `redis-server` process (a node, a replica or a sentinel), killed when dropped.
pub struct Node {
    child: Option<Child>,
    pub port: u16,
    _dir: Scratch,
}

impl Node {
    /// Starts `redis-server` on a free port with `extra` added to a config without
    /// persistence; `sentinel`: as a sentinel. A port is free only when it is picked: a
    /// node that exits at once (another test took its port, or a cluster node's bus port,
    /// its own plus 10000, in the meantime) is started again on another.
    fn start(extra: &str, sentinel: bool) -> Node {
        on_a_free_port("redis-server", |port| {
            Node::try_start(port, extra, sentinel)
        })
    }

    /// One try on `port`: the node once it answers, or `None` when it exited first.
    fn try_start(port: u16, extra: &str, sentinel: bool) -> Option<Node> {
        let dir = scratch_dir();
        let config = dir.join("redis.conf");
        std::fs::write(
            &config,
            format!(
                "bind 127.0.0.1\nport {port}\nsave \"\"\nappendonly no\ndir {}\n{extra}",
                dir.display()
            ),
        )
        .expect("write redis.conf");
        let mut cmd = Command::new("redis-server");
        cmd.arg(&config);
        if sentinel {
            cmd.arg("--sentinel");
        }
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "redis-server must be installed (scripts/setup.sh installs Debian's redis-server)",
            );
        if !wait_listening(&mut child, port, "redis-server") {
            return None;
        }
        let mut node = Node {
            child: Some(child),
            port,
            _dir: dir,
        };
        // A cluster node binds its bus port after this one, and exits if that is taken.
        let mut exited = false;
        let answered = eventually(Duration::from_secs(10), || {
            exited = node
                .child
                .as_mut()
                .is_some_and(|c| matches!(c.try_wait(), Ok(Some(_))));
            exited || node.connection().is_some()
        });
        assert!(answered, "redis-server did not answer on port {port}");
        (!exited).then_some(node)
    }

    pub fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn connection(&self) -> Option<redis::Connection> {
        let client = redis::Client::open(format!("redis://127.0.0.1:{}", self.port)).ok()?;
        let mut con = client
            .get_connection_with_timeout(Duration::from_millis(500))
            .ok()?;
        con.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        redis::cmd("PING").query::<String>(&mut con).ok()?;
        Some(con)
    }

    /// A direct connection (no cluster redirection).
    pub fn client(&self) -> redis::Connection {
        self.connection().expect("redis-server answers")
    }

    /// Every key this node holds.
    pub fn keys(&self) -> Vec<String> {
        redis::cmd("KEYS")
            .arg("*")
            .query(&mut self.client())
            .unwrap_or_default()
    }

    /// Kills the process, as a crash would.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until `replica`'s link to its primary is up.
fn synced(replica: &Node) -> bool {
    eventually(Duration::from_secs(15), || {
        let info: String = redis::cmd("INFO")
            .arg("replication")
            .query(&mut replica.client())
            .unwrap_or_default();
        info.contains("master_link_status:up")
    })
}

/// A Redis Cluster of three primaries, each with one replica. A replica never fails
/// over by itself (`cluster-replica-no-failover`), so a test decides when it does
/// ([`RedisCluster::fail_over`]); the cluster keeps serving the slots it still has
/// when a primary is gone (`cluster-require-full-coverage no`).
pub struct RedisCluster {
    pub primaries: Vec<Node>,
    pub replicas: Vec<Node>,
}

const CLUSTER_CONF: &str = "cluster-enabled yes\ncluster-config-file nodes.conf\n\
    cluster-node-timeout 500\ncluster-require-full-coverage no\n\
    cluster-replica-no-failover yes\n";

impl RedisCluster {
    pub fn start() -> RedisCluster {
        let nodes: Vec<Node> = (0..6).map(|_| Node::start(CLUSTER_CONF, false)).collect();
        let out = Command::new("redis-cli")
            .args(["--cluster", "create"])
            .args(nodes.iter().map(Node::address))
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .output()
            .expect("redis-cli must be installed (Debian's redis-tools, with redis-server)");
        assert!(
            out.status.success(),
            "redis-cli --cluster create: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        // Every node agrees the cluster is up and knows all six.
        let ready = eventually(Duration::from_secs(15), || {
            nodes.iter().all(|n| {
                let info: String = redis::cmd("CLUSTER")
                    .arg("INFO")
                    .query(&mut n.client())
                    .unwrap_or_default();
                info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:6")
            })
        });
        assert!(ready, "the cluster did not come up");
        let (mut primaries, mut replicas) = (Vec::new(), Vec::new());
        for node in nodes {
            let role: Vec<redis::Value> = redis::cmd("ROLE").query(&mut node.client()).unwrap();
            match role.first() {
                Some(redis::Value::BulkString(r)) if r.as_slice() == b"master" => {
                    primaries.push(node)
                }
                _ => replicas.push(node),
            }
        }
        assert_eq!((primaries.len(), replicas.len()), (3, 3));
        // Replicas are in sync before anything is written.
        assert!(replicas.iter().all(synced), "replicas did not sync");
        RedisCluster {
            primaries,
            replicas,
        }
    }

    /// `host:port` of every primary, comma-separated (the example configs' variable).
    pub fn startup_nodes(&self) -> String {
        self.primaries
            .iter()
            .map(Node::address)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The index of the primary holding `key`'s slot.
    pub fn primary_of(&self, key: &str) -> usize {
        let slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut self.primaries[0].client())
            .unwrap();
        self.primaries
            .iter()
            .position(|p| {
                let slots: Vec<Vec<redis::Value>> = redis::cmd("CLUSTER")
                    .arg("SLOTS")
                    .query(&mut p.client())
                    .unwrap();
                slots.iter().any(|range| {
                    let n = |i: usize| match range.get(i) {
                        Some(redis::Value::Int(n)) => *n,
                        _ => -1,
                    };
                    let port = match range.get(2) {
                        Some(redis::Value::Array(node)) => match node.get(1) {
                            Some(redis::Value::Int(port)) => *port,
                            _ => -1,
                        },
                        _ => -1,
                    };
                    n(0) <= i64::from(slot) && i64::from(slot) <= n(1) && port == i64::from(p.port)
                })
            })
            .expect("a primary serves every slot")
    }

    /// The replica of primary `i`.
    pub fn replica_of(&self, i: usize) -> &Node {
        let port = self.primaries[i].port;
        self.replicas
            .iter()
            .find(|r| {
                let info: String = redis::cmd("INFO")
                    .arg("replication")
                    .query(&mut r.client())
                    .unwrap_or_default();
                info.contains(&format!("master_port:{port}\r\n"))
            })
            .expect("each primary has a replica")
    }

    /// Promotes primary `i`'s replica (its primary is gone): `CLUSTER FAILOVER
    /// TAKEOVER`, then waits until every live primary agrees.
    pub fn fail_over(&self, i: usize) {
        let replica = self.replica_of(i);
        let _: String = redis::cmd("CLUSTER")
            .arg("FAILOVER")
            .arg("TAKEOVER")
            .query(&mut replica.client())
            .unwrap();
        let promoted = eventually(Duration::from_secs(15), || {
            let role: Vec<redis::Value> = redis::cmd("ROLE")
                .query(&mut replica.client())
                .unwrap_or_default();
            matches!(role.first(), Some(redis::Value::BulkString(r)) if r.as_slice() == b"master")
        });
        assert!(promoted, "the replica was not promoted");
    }

    /// A new node joins as a replica of the node at `port` (a promoted replica has
    /// none left).
    pub fn add_replica(&self, port: u16) -> Node {
        let primary = self
            .replicas
            .iter()
            .chain(&self.primaries)
            .find(|n| n.port == port)
            .expect("a node of the cluster");
        let node = Node::start(CLUSTER_CONF, false);
        let id: String = redis::cmd("CLUSTER")
            .arg("MYID")
            .query(&mut primary.client())
            .unwrap();
        let _: String = redis::cmd("CLUSTER")
            .arg("MEET")
            .arg("127.0.0.1")
            .arg(primary.port)
            .query(&mut node.client())
            .unwrap();
        let replicating = eventually(Duration::from_secs(15), || {
            redis::cmd("CLUSTER")
                .arg("REPLICATE")
                .arg(&id)
                .query::<String>(&mut node.client())
                .is_ok()
        });
        assert!(replicating, "the new node did not become a replica");
        assert!(synced(&node), "the new replica did not sync");
        node
    }
}

/// A primary with one replica, watched by one sentinel (quorum 1) that fails over
/// 300 ms after the primary stops answering.
pub struct RedisSentinel {
    pub primary: Node,
    pub replica: Node,
    pub sentinel: Node,
}

pub const SERVICE: &str = "sessions";

impl RedisSentinel {
    pub fn start() -> RedisSentinel {
        let primary = Node::start("", false);
        let replica = Node::start(&format!("replicaof 127.0.0.1 {}\n", primary.port), false);
        let sentinel = Node::start(
            &format!(
                "sentinel monitor {SERVICE} 127.0.0.1 {} 1\n\
                 sentinel down-after-milliseconds {SERVICE} 300\n\
                 sentinel failover-timeout {SERVICE} 3000\n",
                primary.port
            ),
            true,
        );
        assert!(synced(&replica), "the replica did not sync");
        let known = eventually(Duration::from_secs(15), || {
            let known: Vec<redis::Value> = redis::cmd("SENTINEL")
                .arg("replicas")
                .arg(SERVICE)
                .query(&mut sentinel.client())
                .unwrap_or_default();
            !known.is_empty()
        });
        assert!(known, "the sentinel does not know the replica");
        RedisSentinel {
            primary,
            replica,
            sentinel,
        }
    }

    /// A new replica of the node at `port` (a promoted replica has none left).
    pub fn add_replica(&self, port: u16) -> Node {
        let node = Node::start(&format!("replicaof 127.0.0.1 {port}\n"), false);
        assert!(synced(&node), "the new replica did not sync");
        node
    }

    /// The port of the primary the sentinel names now.
    pub fn primary_port(&self) -> Option<u16> {
        let named: Option<(String, u16)> = redis::cmd("SENTINEL")
            .arg("get-master-addr-by-name")
            .arg(SERVICE)
            .query(&mut self.sentinel.client())
            .ok()?;
        named.map(|(_, port)| port)
    }
}
