//! A real `redis-server` (Debian's package, installed by `scripts/setup.sh`) on a free
//! loopback port, with no persistence, killed when dropped; optionally TLS-only with
//! certificates of a CA made for it (the `openssl` CLI), a `requirepass` password, or
//! an ACL user. A missing `redis-server` or `openssl` fails the test: the shared
//! session store is tested against the real thing or not at all, and CI must not pass
//! without it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{on_a_free_port, scratch_dir, wait_listening, Scratch};

/// How clients must reach the server.
#[derive(Debug, Clone, Default)]
pub struct Security {
    /// TLS only (no plain port), with a server certificate for 127.0.0.1 signed by a
    /// CA made for this server ([`RedisServer::ca_file`]).
    pub tls: bool,
    /// `requirepass`: the default user's password.
    pub password: Option<String>,
    /// An ACL user `(name, password)` with every right; the default user is then off.
    pub user: Option<(String, String)>,
}

pub struct RedisServer {
    child: Option<Child>,
    pub port: u16,
    dir: Scratch,
    security: Security,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        Self::start_with(Security::default())
    }

    pub fn start_with(security: Security) -> RedisServer {
        let dir = scratch_dir();
        if security.tls {
            make_certificates(&dir);
        }
        let mut server = RedisServer {
            child: None,
            port: 0,
            dir,
            security,
        };
        on_a_free_port("redis-server", |port| {
            server.port = port;
            server.spawn().then_some(())
        });
        server
    }

    /// `redis://127.0.0.1:PORT` (`rediss://` with TLS), no credentials.
    pub fn url(&self) -> String {
        let scheme = if self.security.tls { "rediss" } else { "redis" };
        format!("{scheme}://127.0.0.1:{}", self.port)
    }

    /// [`RedisServer::url`] with `user:password@` and database `db`.
    pub fn url_with(&self, user: &str, password: &str, db: u8) -> String {
        let scheme = if self.security.tls { "rediss" } else { "redis" };
        format!("{scheme}://{user}:{password}@127.0.0.1:{}/{db}", self.port)
    }

    /// The PEM file of the CA that signed a TLS server's certificate.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.join("ca.crt")
    }

    /// The URL this harness uses itself: with the configured credentials.
    fn admin_url(&self, db: u8) -> String {
        match (&self.security.user, &self.security.password) {
            (Some((user, password)), _) => self.url_with(user, password, db),
            (None, Some(password)) => self.url_with("", password, db),
            (None, None) => format!("{}/{db}", self.url()),
        }
    }

    /// Starts (again) on the same port, empty.
    pub fn restart(&mut self) {
        assert!(
            self.spawn(),
            "redis-server could not take port {} again",
            self.port
        );
    }

    /// Starts on `self.port` and waits until it answers; false when it exited first
    /// (another test's server took the port).
    fn spawn(&mut self) -> bool {
        assert!(self.child.is_none(), "redis-server is already running");
        let config = self.dir.join("redis.conf");
        std::fs::write(&config, self.config_file()).expect("write redis.conf");
        let mut child = Command::new("redis-server")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "redis-server must be installed (scripts/setup.sh installs Debian's redis-server)",
            );
        if !wait_listening(&mut child, self.port, "redis-server") {
            return false;
        }
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self.connection(0).is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("redis-server did not answer on port {}", self.port);
    }

    fn config_file(&self) -> String {
        let dir = self.dir.display();
        let mut conf = format!(
            "bind 127.0.0.1\nsave \"\"\nappendonly no\ndir {dir}\n\
             # DEBUG SLEEP stands in for a slow Redis.\nenable-debug-command local\n"
        );
        match self.security.tls {
            true => conf += &format!(
                "port 0\ntls-port {}\ntls-cert-file {dir}/server.crt\ntls-key-file {dir}/server.key\n\
                 tls-ca-cert-file {dir}/ca.crt\ntls-auth-clients no\n",
                self.port
            ),
            false => conf += &format!("port {}\n", self.port),
        }
        if let Some(password) = &self.security.password {
            conf += &format!("requirepass {password}\n");
        }
        if let Some((user, password)) = &self.security.user {
            conf += &format!("user {user} on >{password} ~* &* +@all\nuser default off\n");
        }
        conf
    }

    /// Kills the server (as a crash would), keeping the port for [`RedisServer::restart`].
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn connection(&self, db: u8) -> Option<redis::Connection> {
        let client = match self.security.tls {
            true => redis::Client::build_with_tls(
                self.admin_url(db).as_str(),
                redis::TlsCertificates {
                    client_tls: None,
                    root_cert: Some(std::fs::read(self.ca_file()).ok()?),
                },
            ),
            false => redis::Client::open(self.admin_url(db).as_str()),
        }
        .ok()?;
        let mut con = client
            .get_connection_with_timeout(Duration::from_millis(500))
            .ok()?;
        redis::cmd("PING").query::<String>(&mut con).ok()?;
        Some(con)
    }

    /// A direct connection to database 0, to look at what the service wrote.
    pub fn client(&self) -> redis::Connection {
        self.client_on(0)
    }

    /// A direct connection to database `db`.
    pub fn client_on(&self, db: u8) -> redis::Connection {
        self.connection(db).expect("redis-server answers")
    }

    /// Every key of database 0 and its value (a string's bytes; a hash's fields and
    /// values), as raw bytes: what a dump of the database would show.
    pub fn dump(&self) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
        let mut con = self.client();
        let keys: Vec<Vec<u8>> = redis::cmd("KEYS").arg("*").query(&mut con).unwrap();
        keys.into_iter()
            .map(|key| {
                let kind: String = redis::cmd("TYPE").arg(&key).query(&mut con).unwrap();
                let values: Vec<Vec<u8>> = match kind.as_str() {
                    "string" => vec![redis::cmd("GET").arg(&key).query(&mut con).unwrap()],
                    "hash" => redis::cmd("HGETALL").arg(&key).query(&mut con).unwrap(),
                    other => panic!("the store writes strings, found a {other}"),
                };
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

/// A CA and a server certificate for 127.0.0.1 signed by it, in `dir`: `ca.crt`,
/// `server.crt`, `server.key`. RSA 2048 and X.509 v3 with a CA basic constraint and an
/// IP subject alternative name, as rustls requires.
fn make_certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("the openssl CLI must be installed (scripts/setup.sh installs it)");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    std::fs::write(
        dir.join("ext.cnf"),
        "basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\n",
    )
    .expect("write ext.cnf");
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=anonymizer test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
    ]);
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "1",
        "-extfile",
        "ext.cnf",
        "-out",
        "server.crt",
    ]);
}
