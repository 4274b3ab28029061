//! What an SDK sends, kept as fixtures (`tests/fixtures/<sdk>/`): recorded from the
//! requests a test's mock upstream received straight from the SDK, checked against them
//! on every run, and replayed through a server without the SDK.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::upstream::Received;
use super::TestServer;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A recorded request: `<n>_<name>.json` (method, path, headers) and `<n>_<name>.bin`
/// (the body, byte for byte).
pub struct Fixture {
    pub name: String,
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

fn dir(sdk: &str) -> PathBuf {
    root().join("tests/fixtures").join(sdk)
}

/// With `ANONYMIZER_RECORD=1`, writes what `sent` holds as `sdk`'s fixtures; otherwise
/// checks that the SDK still sends what its fixtures hold (method, path and body; the
/// headers name versions and platforms).
pub fn record_or_check(sdk: &str, client: &str, sent: &[Received]) {
    let record = std::env::var_os("ANONYMIZER_RECORD").is_some_and(|v| v == "1");
    if record {
        let dir = dir(sdk);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("fixture dir");
        for (i, req) in sent.iter().enumerate() {
            let name = format!("{:02}_{}", i + 1, slug(&req.path));
            let meta = json!({
                "client": client,
                "method": req.method,
                "path": req.path,
                "headers": req.headers.iter().map(|(n, v)| json!([n, v])).collect::<Vec<_>>(),
            });
            std::fs::write(
                dir.join(format!("{name}.json")),
                serde_json::to_string_pretty(&meta).unwrap() + "\n",
            )
            .expect("write fixture");
            std::fs::write(dir.join(format!("{name}.bin")), &req.body).expect("write fixture");
        }
        return;
    }
    let fixtures = load(sdk);
    assert_eq!(
        fixtures.len(),
        sent.len(),
        "{sdk}: the SDK sent another number of requests than recorded (ANONYMIZER_RECORD=1 records anew)"
    );
    for (fixture, req) in fixtures.iter().zip(sent) {
        assert_eq!(
            (&fixture.method, &fixture.path),
            (&req.method, &req.path),
            "{}",
            fixture.name
        );
        let want: Value = serde_json::from_slice(&fixture.body).expect("fixture body");
        assert_eq!(
            want,
            req.json(),
            "{}: body differs from the fixture",
            fixture.name
        );
    }
}

/// Every fixture of `sdk`, in recorded order.
pub fn load(sdk: &str) -> Vec<Fixture> {
    let mut names: Vec<String> = std::fs::read_dir(dir(sdk))
        .unwrap_or_else(|e| panic!("{sdk} has no fixtures ({e})"))
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let meta: Value = serde_json::from_slice(
                &std::fs::read(dir(sdk).join(format!("{name}.json"))).expect("fixture"),
            )
            .expect("fixture JSON");
            let body = std::fs::read(dir(sdk).join(format!("{name}.bin"))).expect("fixture body");
            let headers = meta["headers"]
                .as_array()
                .expect("headers")
                .iter()
                .map(|h| {
                    (
                        h[0].as_str().unwrap_or_default().to_owned(),
                        h[1].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            Fixture {
                method: meta["method"].as_str().expect("method").to_owned(),
                path: meta["path"].as_str().expect("path").to_owned(),
                headers,
                body,
                name,
            }
        })
        .collect()
}

/// A file name from a request path: its last segment (`chat_completions` for chat),
/// letters and digits only.
fn slug(path: &str) -> String {
    let path = path.split('?').next().unwrap_or(path);
    let last = path.rsplit('/').next().unwrap_or(path);
    let last = last.rsplit(':').next().unwrap_or(last);
    let last = if path.ends_with("/chat/completions") {
        "chat_completions"
    } else {
        last
    };
    last.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Replays those of `sdk`'s fixtures that `only` picks through `server` (headers as
/// recorded, less the hop-by-hop ones); returns each one's name, answer status and body.
pub fn replay(
    server: &TestServer,
    sdk: &str,
    only: impl Fn(&Fixture) -> bool,
) -> Vec<(String, u16, String)> {
    let mut out = Vec::new();
    for f in load(sdk).into_iter().filter(|f| only(f)) {
        let method = reqwest::Method::from_bytes(f.method.as_bytes()).expect("method");
        let mut req = server
            .client()
            .request(method, server.url(&f.path))
            .body(f.body.clone());
        for (n, v) in &f.headers {
            if ![
                "host",
                "content-length",
                "connection",
                "transfer-encoding",
                "accept-encoding",
            ]
            .contains(&n.as_str())
            {
                req = req.header(n.as_str(), v.as_str());
            }
        }
        let resp = req.send().expect("replay");
        let status = resp.status().as_u16();
        out.push((f.name.clone(), status, resp.text().expect("answer")));
    }
    out
}
