//! Secrets never print. A config holds a distinct secret in every place one can live —
//! API keys (file and `ANONYMIZER_API_KEYS`), the master secret (file and
//! `ANONYMIZER_SECRET`), a route's `add_headers` (literal and `${VAR}`), the Redis URL's
//! password (file and `ANONYMIZER_REDIS_URL`), an AWS route's secret access key and
//! session token — and the real binary, logging at debug
//! level, is driven through every path that could show one: served and refused
//! requests, an unreachable Redis, the proxy injecting the provider key, `/readyz`,
//! `/metrics`, shutdown, and `check-config` on a good and on a bad config.

use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::{free_port, free_ports, scratch_dir, TestServer};

const FILE_KEY: &str = "file-api-key-1111aaaa";
const ENV_KEY: &str = "env-api-key-2222bbbb";
const FILE_MASTER: &str = "file-master-secret-3333cccc-0123456789";
const ENV_MASTER: &str = "env-master-secret-4444dddd-0123456789";
const HEADER_VALUE: &str = "provider-key-5555eeee";
const HEADER_FROM_ENV: &str = "provider-env-key-6666ffff";
const FILE_REDIS_PASSWORD: &str = "file-redis-pass-7777gggg";
const ENV_REDIS_PASSWORD: &str = "env-redis-pass-8888hhhh";
/// Not configured: a caller's own provider key, forwarded on a passthrough route.
const CALLER_KEY: &str = "caller-provider-key-9999iiii";
const AWS_SECRET: &str = "aws-secret-access-key-aaaa1111";
const AWS_TOKEN: &str = "aws-session-token-bbbb2222";

const ALL: &[&str] = &[
    FILE_KEY,
    ENV_KEY,
    FILE_MASTER,
    ENV_MASTER,
    HEADER_VALUE,
    HEADER_FROM_ENV,
    FILE_REDIS_PASSWORD,
    ENV_REDIS_PASSWORD,
    CALLER_KEY,
    AWS_SECRET,
    AWS_TOKEN,
];

fn assert_hides_all(what: &str, text: &str) {
    for secret in ALL {
        // Also a distinctive part, in case something truncates or re-encodes it.
        let tail = &secret[secret.len() - 8..];
        assert!(
            !text.contains(secret) && !text.contains(tail),
            "{what} shows a secret ({tail}):\n{text}"
        );
    }
}

/// Every secret in the file; `dead_redis_port` has no Redis behind it.
fn config(upstream: &str, dead_redis_port: u16) -> String {
    format!(
        "logging:\n  level: debug\n\
         model:\n  enabled: false\n\
         auth:\n  api_keys:\n    - {{tenant: filed, key: {FILE_KEY}}}\n\
         secrets:\n  master_secret: {FILE_MASTER}\n\
         sessions:\n  store: redis\n  redis:\n    url: redis://app:{FILE_REDIS_PASSWORD}@127.0.0.1:{dead_redis_port}/0\n    \
         timeout_ms: 300\n    connect_timeout_ms: 200\n\
         routes:\n  - name: chat\n    match: {{path_prefix: /v1/chat/completions}}\n    preset: openai_chat\n    \
         upstream:\n      url: '{upstream}'\n      add_headers:\n        authorization: Bearer {HEADER_VALUE}\n        \
         x-provider-key: ${{PROVIDER_KEY}}\n  \
         - name: pass\n    match: {{path_prefix: /v2/chat/completions}}\n    preset: openai_chat\n    \
         auth: passthrough\n    upstream: {{url: '{upstream}'}}\n  \
         - name: aws\n    match: {{path_prefix: /model}}\n    preset: bedrock_converse\n    \
         upstream: {{url: '{upstream}'}}\n    \
         aws: {{region: us-east-1, access_key_id: AKIDSECRETS, secret_access_key: {AWS_SECRET}, session_token: {AWS_TOKEN}}}\n"
    )
}

fn env(dead_redis_port: u16) -> Vec<(&'static str, String)> {
    vec![
        ("ANONYMIZER_API_KEYS", format!("envd:{ENV_KEY}")),
        ("ANONYMIZER_SECRET", ENV_MASTER.to_owned()),
        (
            "ANONYMIZER_REDIS_URL",
            format!("redis://:{ENV_REDIS_PASSWORD}@127.0.0.1:{dead_redis_port}"),
        ),
        ("PROVIDER_KEY", HEADER_FROM_ENV.to_owned()),
    ]
}

/// Runs the binary with `args` and a config; returns its exit code and output.
fn run(args: &[&str], yaml: &str, env: &[(&str, String)]) -> (Option<i32>, String) {
    let dir = scratch_dir();
    let path = dir.join("config.yaml");
    std::fs::write(&path, yaml).expect("write config");
    let [port, metrics] = free_ports();
    let out = Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .args(args)
        .arg("--config")
        .arg(&path)
        .env_remove("ANONYMIZER_API_KEYS")
        .env_remove("ANONYMIZER_SECRET")
        .env_remove("ANONYMIZER_REDIS_URL")
        .env_remove("ANONYMIZER_SESSION_STORE")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .env("ANONYMIZER_LISTEN", format!("127.0.0.1:{port}"))
        .env("ANONYMIZER_METRICS_LISTEN", format!("127.0.0.1:{metrics}"))
        .output()
        .expect("run anonymizer");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn no_log_line_error_metric_or_check_config_output_shows_a_secret() {
    let upstream = Upstream::start(|_: &Received| {
        Reply::json(
            &json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello [PERSON_1]"}}]}),
        )
    });
    let dead_redis = free_port();
    let env = env(dead_redis);
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut server = TestServer::start_with_env(&config(&upstream.url(), dead_redis), &env_refs);
    let mut seen = String::new();
    let mut record = |what: &str, r: &crate::support::Response| {
        seen.push_str(&format!(
            "{what}: {} {:?} {}\n",
            r.status, r.headers, r.text
        ));
    };

    let body = json!({"text": ["Mail alice@example.com"]}).to_string();
    for key in [FILE_KEY, ENV_KEY] {
        let r = server.post_raw("/v1/anonymize", &body, &[("x-api-key", key)]);
        assert_eq!(r.status, 200, "{}", r.text);
        record("anonymize", &r);
    }
    // A key one character off, and one that is a secret of another kind.
    for key in [&FILE_KEY[1..], HEADER_VALUE, ENV_MASTER] {
        let r = server.post_raw("/v1/anonymize", &body, &[("x-api-key", key)]);
        r.assert_error(401, "invalid_api_key");
        record("bad key", &r);
    }
    // The session store is unreachable: the request fails closed, naming no URL.
    let r = server.post_raw(
        "/v1/anonymize",
        &body,
        &[("x-api-key", FILE_KEY), ("x-session-id", "s-1")],
    );
    r.assert_error(503, "session_store_unavailable");
    record("dead redis", &r);
    let r = server.get("/readyz", &[]);
    assert_eq!(
        r.json()["session_store"],
        json!({"type": "redis", "reachable": false})
    );
    record("readyz", &r);

    // The proxy injects the provider's key (exposed where it is used, and only there).
    let chat = json!({"model": "m", "messages": [{"role": "user", "content": "I am Alice Smith"}]});
    let r = server.post_raw(
        "/v1/chat/completions",
        &chat.to_string(),
        &[("x-api-key", ENV_KEY)],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    record("proxy", &r);
    let got = upstream.received();
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].header("authorization"),
        Some(format!("Bearer {HEADER_VALUE}").as_str())
    );
    assert_eq!(got[0].header("x-provider-key"), Some(HEADER_FROM_ENV));
    assert_eq!(got[0].header("x-api-key"), None, "our key stays here");
    // A caller's own key on a passthrough route goes upstream as it came.
    let r = server.post_raw(
        "/v2/chat/completions",
        &chat.to_string(),
        &[("authorization", &format!("Bearer {CALLER_KEY}"))],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    record("passthrough", &r);
    let got = upstream.received();
    assert_eq!(
        got[1].header("authorization"),
        Some(format!("Bearer {CALLER_KEY}").as_str())
    );

    // An AWS route signs what it forwards: the token goes up, the secret only signs.
    let converse =
        json!({"messages": [{"role": "user", "content": [{"text": "I am Alice Smith"}]}]});
    let r = server.post_raw(
        "/model/m%3A0/converse",
        &converse.to_string(),
        &[("x-api-key", ENV_KEY)],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    record("aws", &r);
    let got = upstream.received();
    assert_eq!(got[2].header("x-amz-security-token"), Some(AWS_TOKEN));
    assert!(got[2]
        .header("authorization")
        .is_some_and(|a| a.starts_with("AWS4-HMAC-SHA256 Credential=AKIDSECRETS/")));
    assert!(!String::from_utf8_lossy(&got[2].raw).contains(AWS_SECRET));

    // Give the Redis health pings time to fail and be logged.
    std::thread::sleep(Duration::from_millis(1500));
    let metrics = server.metrics();
    assert!(metrics.contains("anonymizer_requests_total"), "{metrics}");
    assert!(server.terminate().success());
    let log = server.log();
    assert!(log.contains("DEBUG"), "the log is at debug level:\n{log}");

    assert_hides_all("responses", &seen);
    assert_hides_all("/metrics", &metrics);
    assert_hides_all("the log", &log);

    let yaml = config(&upstream.url(), dead_redis);
    let (code, text) = run(&["check-config"], &yaml, &env);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("is valid"), "{text}");
    assert_hides_all("check-config", &text);

    // Each secret where it is refused: the errors name where, never what.
    let bad = yaml
        .replace("tenant: filed", "tenant: 'bad tenant'")
        .replace("redis://app:", "http://app:")
        .replace(
            &format!("Bearer {HEADER_VALUE}"),
            &format!("\"Bearer {HEADER_VALUE}\\u0001\""),
        )
        .replace(
            &format!("url: '{}'", upstream.url()),
            &format!("url: 'http://user:{FILE_MASTER}@127.0.0.1:1'"),
        );
    let short_master = [("ANONYMIZER_SECRET", ENV_MASTER[..20].to_owned())];
    let env_bad: Vec<(&str, String)> = env
        .iter()
        .filter(|(k, _)| *k != "ANONYMIZER_SECRET" && *k != "ANONYMIZER_REDIS_URL")
        .cloned()
        .chain(short_master)
        .chain([("ANONYMIZER_API_KEYS", format!("bad tenant:{ENV_KEY}"))])
        .collect();
    let (code, text) = run(&["check-config"], &bad, &env_bad);
    assert_eq!(code, Some(2), "{text}");
    for path in [
        "auth.api_keys[0]",
        "ANONYMIZER_API_KEYS[0]",
        "sessions.redis.url",
        "ANONYMIZER_SECRET",
        "routes[0].upstream.url",
        "routes[0].upstream.add_headers",
    ] {
        assert!(text.contains(path), "{path} missing:\n{text}");
    }
    assert_hides_all("check-config errors", &text);
    assert!(!text.contains(&ENV_MASTER[..20]), "{text}");

    // A Redis URL that passes the config check but not the client's parser stops the
    // start with a message that names the key, not the URL.
    let env_unparsable: Vec<(&str, String)> = env
        .iter()
        .filter(|(k, _)| *k != "ANONYMIZER_REDIS_URL")
        .cloned()
        .chain([(
            "ANONYMIZER_REDIS_URL",
            format!("redis://:{ENV_REDIS_PASSWORD}@[::1/0"),
        )])
        .collect();
    let (code, text) = run(&[], &yaml, &env_unparsable);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("sessions.redis.url"), "{text}");
    assert_hides_all("a failed start", &text);
}
