//! Test harness: runs the real `anonymizer` binary on free loopback ports and talks
//! HTTP to it. Each `TestServer` is its own process with its own config file.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

pub mod openapi;
pub mod recorded;
pub mod redis;
pub mod redis_ha;
pub mod upstream;

pub const KEY: &str = "test-key-0123456789";
pub const OTHER_KEY: &str = "other-key-0123456789";

/// A config with two tenants and everything else at its default.
pub fn base_config() -> String {
    format!(
        "auth:\n  api_keys:\n    - tenant: test\n      key: {KEY}\n    - tenant: other\n      key: {OTHER_KEY}\nmodel:\n  enabled: false\n"
    )
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh directory under the system temp dir, removed when dropped, except while a
/// test panics: then its server log and config stay for a look.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("scratch dir kept: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub fn scratch_dir() -> Scratch {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("anonymizer-it-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    Scratch(dir)
}

pub fn free_port() -> u16 {
    let [port] = free_ports();
    port
}

/// `start(port)` on a free port until it starts (`Some`), at most four ports: a port is
/// free only when it is picked, and another test's server may take it before ours binds.
pub fn on_a_free_port<T>(what: &str, mut start: impl FnMut(u16) -> Option<T>) -> T {
    for _ in 0..4 {
        if let Some(started) = start(free_port()) {
            return started;
        }
    }
    panic!("{what} did not start on any of four free ports");
}

/// `N` distinct free ports: all are held while picked, since the system may hand a port
/// just let go of straight out again, and a server whose two listeners share one port
/// answers API requests from its metrics listener now and then.
pub fn free_ports<const N: usize>() -> [u16; N] {
    let held: [TcpListener; N] =
        std::array::from_fn(|_| TcpListener::bind("127.0.0.1:0").expect("free port"));
    held.map(|l| l.local_addr().expect("bound").port())
}

/// Whether process `pid` has a socket listening on `port` of 127.0.0.1 (Linux: the
/// socket's inode in `/proc/net/tcp` among the process's open files).
fn holds_port(pid: u32, port: u16) -> bool {
    let local = format!("0100007F:{port:04X}");
    let inodes: Vec<String> = std::fs::read_to_string("/proc/net/tcp")
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            // local address, state 0A (LISTEN), inode
            (f.len() > 9 && f[1] == local && f[3] == "0A").then(|| format!("socket:[{}]", f[9]))
        })
        .collect();
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .any(|target| inodes.iter().any(|i| target.as_os_str() == i.as_str()))
}

/// Waits until `child` itself listens on `port` of 127.0.0.1. A connect alone is not
/// enough: another test's server may have taken the port between [`free_port`] and the
/// child's bind, and would answer in its place. False when the child exited first (its
/// bind failed); the caller then starts it again on another port ([`on_a_free_port`]).
pub fn wait_listening(child: &mut Child, port: u16, what: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if holds_port(child.id(), port) {
            return true;
        }
        if matches!(child.try_wait(), Ok(Some(_))) {
            return false;
        }
        assert!(
            Instant::now() < deadline,
            "{what} did not listen on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub struct TestServer {
    child: Option<Child>,
    /// Config and log; dropped (removed) after the child is killed.
    _dir: Scratch,
    pub addr: String,
    pub metrics_addr: String,
    log_path: PathBuf,
    client: reqwest::blocking::Client,
}

impl TestServer {
    /// Starts the binary with `yaml` as its config and extra environment variables.
    ///
    /// A port that was free when picked may be bound by another test's server before
    /// ours binds it: ours then exits, and the other would answer in its place. So a
    /// server is ready only once its own process holds the port, and one that lost a
    /// port starts again on new ones.
    pub fn start_with_env(yaml: &str, env: &[(&str, &str)]) -> TestServer {
        for _ in 0..5 {
            let mut server = Self::spawn(yaml, env);
            if server.wait_ready() {
                return server;
            }
        }
        panic!("server lost its port five times over");
    }

    fn spawn(yaml: &str, env: &[(&str, &str)]) -> TestServer {
        let dir = scratch_dir();
        let config = dir.join("anonymizer.yaml");
        std::fs::write(&config, yaml).expect("write config");
        let log_path = dir.join("stderr.log");
        let log = std::fs::File::create(&log_path).expect("create log");
        let [port, metrics_port] = free_ports();
        let addr = format!("127.0.0.1:{port}");
        let metrics_addr = format!("127.0.0.1:{metrics_port}");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_anonymizer"));
        cmd.arg("--config")
            .arg(&config)
            .env_remove("ANONYMIZER_API_KEYS")
            .env_remove("ANONYMIZER_CONFIG")
            .env_remove("RUST_LOG")
            .env("ANONYMIZER_LISTEN", &addr)
            .env("ANONYMIZER_METRICS_LISTEN", &metrics_addr)
            .stdout(Stdio::null())
            .stderr(Stdio::from(log));
        // As shipped, whatever the environment the tests run in.
        for name in anonymizer::app::allocator::VARIABLES {
            cmd.env_remove(name);
        }
        cmd.env_remove(anonymizer::app::allocator::JEMALLOC_VARIABLE);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("spawn anonymizer");
        TestServer {
            child: Some(child),
            _dir: dir,
            addr,
            metrics_addr,
            log_path,
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("client"),
        }
    }

    pub fn start(yaml: &str) -> TestServer {
        Self::start_with_env(yaml, &[])
    }

    /// The server on `base_config()`.
    pub fn default() -> TestServer {
        Self::start(&base_config())
    }

    /// The server as users run it: the default config (`conf/anonymizer.yaml`, which the
    /// built-in defaults equal), both models included, and the `test` tenant's key.
    pub fn with_model() -> TestServer {
        Self::start(&format!(
            "auth:\n  api_keys:\n    - tenant: test\n      key: {KEY}\n"
        ))
    }

    /// Waits until this process holds its ports and answers `/healthz`; false (and the
    /// process killed) when one of its ports was taken: pingora then retries the bind
    /// forever.
    fn wait_ready(&mut self) -> bool {
        let port_of = |addr: &str| -> u16 {
            addr.rsplit(':')
                .next()
                .and_then(|p| p.parse().ok())
                .expect("port")
        };
        // Both listeners: another test's server can take the metrics port too.
        let (port, metrics_port) = (port_of(&self.addr), port_of(&self.metrics_addr));
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            let exited = self.child.as_mut().expect("running").try_wait();
            if let Some(status) = exited.expect("wait") {
                panic!("server exited ({status}); log:\n{}", self.log());
            }
            if self.log().contains("is in use") {
                if let Some(mut child) = self.child.take() {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return false;
            }
            if holds_port(self.pid(), port)
                && holds_port(self.pid(), metrics_port)
                && self
                    .client
                    .get(self.url("/healthz"))
                    .send()
                    .is_ok_and(|r| r.status() == 200)
            {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("server did not become healthy; log:\n{}", self.log());
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn client(&self) -> &reqwest::blocking::Client {
        &self.client
    }

    /// The `anonymized_text` that `POST /v1/anonymize` answers for `texts` (a JSON array),
    /// which must be a 200.
    pub fn anonymized(&self, texts: Value) -> Value {
        let r = self.post("/v1/anonymize", &serde_json::json!({ "text": texts }));
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()["anonymized_text"].clone()
    }

    /// POSTs JSON `body` to `path` with the test key.
    pub fn post(&self, path: &str, body: &Value) -> Response {
        self.post_raw(path, &body.to_string(), &[("x-api-key", KEY)])
    }

    /// POSTs a raw body as `application/json` with the given extra headers.
    pub fn post_raw(&self, path: &str, body: &str, headers: &[(&str, &str)]) -> Response {
        let mut req = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let r = Response::from(req.send().expect("request"));
        // Every answer of a described operation conforms to openapi/v1.json.
        openapi::check("POST", path, r.status, &r.headers, &r.text);
        r
    }

    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        let mut req = self.client.get(self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let r = Response::from(req.send().expect("request"));
        openapi::check("GET", path, r.status, &r.headers, &r.text);
        r
    }

    pub fn metrics(&self) -> String {
        self.client
            .get(format!("http://{}/metrics", self.metrics_addr))
            .send()
            .and_then(|r| r.text())
            .expect("metrics")
    }

    /// The metrics once they contain every line of `want` (they are recorded just
    /// after a response is written), or as they are after 5 s.
    pub fn metrics_with(&self, want: &[String]) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut m = self.metrics();
        while want.iter().any(|l| !m.contains(l.as_str())) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
            m = self.metrics();
        }
        m
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }

    /// Sends raw bytes on a fresh connection and returns everything read until close
    /// or `read_timeout`.
    pub fn raw(&self, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("timeout");
        stream.write_all(request).expect("write");
        let mut out = Vec::new();
        let _ = stream.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The config file the server was started with (to change it under a running
    /// server).
    pub fn config_path(&self) -> PathBuf {
        self._dir.join("anonymizer.yaml")
    }

    /// The server's process id (for reading `/proc/<pid>/status`).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Sends SIGTERM and waits for the exit status; the log stays readable.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("running");
        let pid = child.id().to_string();
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "server did not exit after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A response with its body read.
pub struct Response {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.text))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts our error shape with `status` and `code`; returns the `details`.
    pub fn assert_error(&self, status: u16, code: &str) -> Vec<Value> {
        assert_eq!(self.status, status, "body: {}", self.text);
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "error content type"
        );
        let body = self.json();
        assert_eq!(body["error"]["code"], code, "body: {}", self.text);
        assert!(body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
        let keys: Vec<&String> = body["error"].as_object().expect("object").keys().collect();
        assert_eq!(keys, ["code", "message", "details"], "error shape");
        body["error"]["details"]
            .as_array()
            .expect("details array")
            .clone()
    }
}

impl From<reqwest::blocking::Response> for Response {
    fn from(resp: reqwest::blocking::Response) -> Self {
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = resp.text().expect("body");
        Response {
            status,
            headers,
            text,
        }
    }
}

/// The Python of `.venv/` (made by `scripts/setup.sh` from `tests/clients/requirements.txt`),
/// which runs the real SDKs and fuzzers. Missing, it fails the test: a client is tested
/// for real or the suite does not pass.
pub fn python() -> PathBuf {
    venv_python(".venv")
}

/// The Python of the MCP SDK's 2.x line (it shares 1.x's package name).
pub fn python_mcp2() -> PathBuf {
    venv_python(".venv-mcp2")
}

fn venv_python(venv: &str) -> PathBuf {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(venv)
        .join("bin/python");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup.sh",
        python.display()
    );
    python
}

#[test]
fn the_harness_knows_which_process_holds_a_port() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    assert!(holds_port(std::process::id(), port));
    assert!(!holds_port(1, port));
    drop(listener);
    assert!(!holds_port(std::process::id(), port));
}

#[test]
fn a_server_whose_port_was_taken_is_not_mistaken_for_the_one_that_took_it() {
    // Our listener holds the port: a connect succeeds, yet the child cannot bind it.
    let taken = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let serve = "import socket, sys, time\n\
                 s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen()\n\
                 time.sleep(30)";
    let spawn = |port: u16| {
        Command::new(python())
            .args(["-c", serve, &port.to_string()])
            .stderr(Stdio::null())
            .spawn()
            .expect("python")
    };
    assert!(TcpStream::connect(("127.0.0.1", port)).is_ok());
    assert!(!wait_listening(&mut spawn(port), port, "the child"));
    let port = free_port();
    let mut child = spawn(port);
    assert!(wait_listening(&mut child, port, "the child"));
    let _ = child.kill();
    let _ = child.wait();
}

/// Polls `f` every 20 ms until it holds or `limit` passes.
pub fn eventually(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if f() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
