//! A real `redis-server` (Debian's package, installed by `scripts/setup.sh`) on a free
//! loopback port, with no persistence, killed when dropped. A missing `redis-server`
//! fails the test: the shared session store is tested against the real thing or not
//! at all, and CI must not pass without it.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{free_port, scratch_dir};

pub struct RedisServer {
    child: Option<Child>,
    pub port: u16,
    dir: PathBuf,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        let mut server = RedisServer {
            child: None,
            port: free_port(),
            dir: scratch_dir(),
        };
        server.restart();
        server
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Starts (again) on the same port, empty.
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "redis-server is already running");
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            // DEBUG SLEEP stands in for a slow Redis.
            .args(["--enable-debug-command", "local"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "redis-server must be installed (scripts/setup.sh installs Debian's redis-server)",
            );
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self.connection().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("redis-server did not answer on port {}", self.port);
    }

    /// Kills the server (as a crash would), keeping the port for [`RedisServer::restart`].
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn connection(&self) -> Option<redis::Connection> {
        let client = redis::Client::open(self.url()).ok()?;
        let mut con = client
            .get_connection_with_timeout(Duration::from_millis(500))
            .ok()?;
        redis::cmd("PING").query::<String>(&mut con).ok()?;
        Some(con)
    }

    /// A direct connection, to look at what the service wrote.
    pub fn client(&self) -> redis::Connection {
        self.connection().expect("redis-server answers")
    }

    /// Every key and, for hashes, every field and value, as raw bytes: what a dump of
    /// the database would show.
    pub fn dump(&self) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
        let mut con = self.client();
        let keys: Vec<Vec<u8>> = redis::cmd("KEYS").arg("*").query(&mut con).unwrap();
        keys.into_iter()
            .map(|key| {
                let values: Vec<Vec<u8>> = redis::cmd("HGETALL")
                    .arg(&key)
                    .query(&mut con)
                    .unwrap_or_default();
                (key, values)
            })
            .collect()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}
