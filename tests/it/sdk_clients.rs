//! What the SDK tests share: the example config a test serves, running a client script
//! of `tests/clients/` with the `.venv` Python, and SSE framing for the mock upstreams.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::support::upstream::Reply;
use crate::support::{on_a_free_port, python, wait_listening, TestServer, KEY};

pub const EMAIL: &str = "grace.hopper@example.com";
pub const PHONE: &str = "+1 415-555-0132";
/// A name with quotes: restored inside JSON text, it must come back escaped.
pub const BONES: &str = r#"Dr. "Bones" McCoy"#;
/// The provider key `add_headers` sends upstream in place of ours.
pub const PROVIDER_KEY: &str = "sk-provider-0123456789";

/// Serves `conf/examples/<example>.yaml` as the documentation sets it up (the upstream
/// from `ANONYMIZER_UPSTREAM`, our key from `ANONYMIZER_API_KEYS`), rules only, with
/// [`BONES`] in the deny list so that a quoted name is found without the model.
pub fn serve_example(example: &str, upstream: &str) -> TestServer {
    serve_example_with(example, upstream, "")
}

/// [`serve_example`] with more environment (set last, so it wins).
pub fn serve_example_env(example: &str, upstream: &str, env: &[(&str, &str)]) -> TestServer {
    serve_example_full(example, upstream, "", env)
}

/// [`serve_example`] with the route lines of `extra` (e.g. `"    scan_answers:
/// anonymize\n"`) in place of the example's lines of the same key, or appended to its
/// (last) route.
pub fn serve_example_with(example: &str, upstream: &str, extra: &str) -> TestServer {
    serve_example_full(example, upstream, extra, &[])
}

fn serve_example_full(
    example: &str,
    upstream: &str,
    extra: &str,
    more_env: &[(&str, &str)],
) -> TestServer {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut routes = std::fs::read_to_string(root.join(format!("conf/examples/{example}.yaml")))
        .expect("example config");
    for line in extra.lines() {
        let key = line.split(':').next().unwrap_or(line);
        let found = routes
            .lines()
            .find(|l| l.starts_with(key) && l[key.len()..].starts_with(':'));
        match found.map(str::to_owned) {
            Some(old) => routes = routes.replacen(&old, line, 1),
            None => routes = format!("{routes}{line}\n"),
        }
    }
    let yaml = format!(
        "model:\n  enabled: false\ndetection:\n  deny_list:\n    - {{text: '{BONES}', label: PERSON}}\n{routes}"
    );
    let keys = format!("sdk:{KEY}");
    let mut env = vec![
        ("ANONYMIZER_UPSTREAM", upstream),
        ("ANONYMIZER_API_KEYS", keys.as_str()),
        ("OPENAI_API_KEY", PROVIDER_KEY),
        ("ANTHROPIC_API_KEY", PROVIDER_KEY),
        ("AZURE_OPENAI_API_KEY", PROVIDER_KEY),
        ("GEMINI_API_KEY", PROVIDER_KEY),
    ];
    env.extend_from_slice(more_env);
    TestServer::start_with_env(&yaml, &env)
}

/// Runs `tests/clients/<script>` with `args`; returns the JSON it prints. Fails the
/// test, with the script's stderr, when it does not succeed.
pub fn run_client(script: &str, args: &[&str]) -> Value {
    run_client_with(&python(), script, args)
}

/// [`run_client`] with another Python (another SDK line's venv).
pub fn run_client_with(python: &Path, script: &str, args: &[&str]) -> Value {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(python)
        .arg(root.join("tests/clients").join(script))
        .args(args)
        .output()
        .expect("run the client script");
    assert!(
        out.status.success(),
        "{script} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{script} printed no JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// A Server-Sent Events answer: each `(event, data)` one event with its `event:` line,
/// as the providers send them, written in pieces cut inside events too (a byte stream is
/// cut anywhere).
pub fn sse(events: &[(&str, Value)]) -> Reply {
    let mut bytes = Vec::new();
    for (name, data) in events {
        bytes.extend_from_slice(format!("event: {name}\ndata: {data}\n\n").as_bytes());
    }
    let pieces: Vec<Vec<u8>> = bytes.chunks(97).map(<[u8]>::to_vec).collect();
    Reply::sse(pieces, Duration::from_millis(1))
}

/// The same without `event:` lines (Chat Completions), ended by `data: [DONE]`.
pub fn sse_data(events: &[Value]) -> Reply {
    let mut bytes = Vec::new();
    for data in events {
        bytes.extend_from_slice(format!("data: {data}\n\n").as_bytes());
    }
    bytes.extend_from_slice(b"data: [DONE]\n\n");
    let pieces: Vec<Vec<u8>> = bytes.chunks(97).map(<[u8]>::to_vec).collect();
    Reply::sse(pieces, Duration::from_millis(1))
}

/// Asserts nothing personal and not our key reached the upstream, in any byte.
pub fn assert_nothing_personal(raw: &str) {
    for secret in [EMAIL, PHONE, "Bones", "McCoy", KEY] {
        assert!(
            !raw.contains(secret),
            "{secret:?} reached the upstream:\n{raw}"
        );
    }
}

/// A server script of `tests/clients/` (a real SDK's server, or a provider's stand-in)
/// listening on a free loopback port, its first argument; killed when dropped.
pub struct ScriptServer {
    child: Child,
    pub port: u16,
}

impl ScriptServer {
    /// Starts `python tests/clients/<script> PORT args…` and waits until it listens,
    /// on another free port when the first was taken before the script could bind it.
    pub fn start(python: &Path, script: &str, args: &[&str]) -> ScriptServer {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        on_a_free_port(script, |port| {
            let mut child = Command::new(python)
                .arg(root.join("tests/clients").join(script))
                .arg(port.to_string())
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("start {script}: {e}"));
            wait_listening(&mut child, port, script).then_some(ScriptServer { child, port })
        })
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for ScriptServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON lines a script server appended to `log`.
pub fn json_lines(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}
