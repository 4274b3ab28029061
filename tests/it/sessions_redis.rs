//! The shared session store against a real `redis-server`: two service processes (two
//! replicas) share one Redis; placeholders stay consistent across them, also under
//! concurrency; Redis holds no original value; a dead or slow Redis fails session
//! requests closed (503) and the service recovers when it is back; sessions expire.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::redis::{RedisServer, Security};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::{base_config, eventually, Response, TestServer, KEY, OTHER_KEY};

pub(crate) const SECRET: &str = "replicas-share-this-secret-0123456789";

fn replica_config(redis: &RedisServer, extra: &str) -> String {
    store_config(
        &redis.url(),
        "    timeout_ms: 500\n    connect_timeout_ms: 300\n",
        extra,
    )
}

/// A replica on the Redis at `url`; `redis` adds keys to `sessions.redis`, `extra` to
/// `sessions`.
pub(crate) fn store_config(url: &str, redis: &str, extra: &str) -> String {
    format!(
        "{}secrets:\n  master_secret: {SECRET}\nsessions:\n  store: redis\n  redis:\n    url: '{url}'\n{redis}{extra}",
        base_config(),
    )
}

fn two_replicas(redis: &RedisServer) -> (TestServer, TestServer) {
    let config = replica_config(redis, "");
    (TestServer::start(&config), TestServer::start(&config))
}

pub(crate) fn anonymize(s: &TestServer, key: &str, session: &str, texts: &[&str]) -> Response {
    s.post_raw(
        "/v1/anonymize",
        &json!({"text": texts}).to_string(),
        &[("x-api-key", key), ("x-session-id", session)],
    )
}

pub(crate) fn deanonymize(s: &TestServer, key: &str, session: &str, texts: &[&str]) -> Response {
    s.post_raw(
        "/v1/deanonymize",
        &json!({"anonymized_text": texts}).to_string(),
        &[("x-api-key", key), ("x-session-id", session)],
    )
}

pub(crate) fn texts(r: &Response, field: &str) -> Value {
    assert_eq!(r.status, 200, "body: {}", r.text);
    r.json()[field].clone()
}

#[test]
fn turn_two_on_another_replica_continues_turn_one_and_restores_exactly() {
    let redis = RedisServer::start();
    let (a, b) = two_replicas(&redis);
    let r = anonymize(&a, KEY, "chat-1", &["Mail alice@example.com now"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["Mail [EMAIL_ADDRESS_1] now"])
    );
    let r = anonymize(
        &b,
        KEY,
        "chat-1",
        &["Cc bob@example.org and alice@example.com"],
    );
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["Cc [EMAIL_ADDRESS_2] and [EMAIL_ADDRESS_1]"])
    );
    let r = deanonymize(
        &b,
        KEY,
        "chat-1",
        &["[EMAIL_ADDRESS_1] wrote to [EMAIL_ADDRESS_2]."],
    );
    assert_eq!(
        texts(&r, "deanonymized_text"),
        json!(["alice@example.com wrote to bob@example.org."])
    );
    let r = deanonymize(&a, KEY, "chat-1", &["[EMAIL_ADDRESS_2]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["bob@example.org"]));

    // Another tenant with the same session id sees nothing of it, and starts afresh.
    let r = deanonymize(&b, OTHER_KEY, "chat-1", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
    let r = anonymize(&a, OTHER_KEY, "chat-1", &["Mail carol@example.net"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["Mail [EMAIL_ADDRESS_1]"])
    );
    let r = deanonymize(&b, KEY, "chat-1", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["alice@example.com"]));
    let r = deanonymize(&b, OTHER_KEY, "chat-1", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["carol@example.net"]));

    // Pseudonyms are shared too: B restores the fake A made.
    let body = json!({"text": ["Call Maria Garcia"], "anonymization_config": {"deidentification_method": "PSEUDONYMIZE"}});
    let r = a.post_raw(
        "/v1/anonymize",
        &body.to_string(),
        &[("x-api-key", KEY), ("x-session-id", "chat-2")],
    );
    let fake = texts(&r, "anonymized_text")[0].as_str().unwrap().to_owned();
    assert_ne!(fake, "Call Maria Garcia");
    let r = deanonymize(&b, KEY, "chat-2", &[&fake]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["Call Maria Garcia"]));
    let r = b.get("/readyz", &[]);
    assert_eq!(
        r.json()["session_store"],
        json!({"type": "redis", "reachable": true})
    );
}

/// What must never reach Redis: the values, the session id, the tenant, placeholders.
const NEEDLES: [&[u8]; 8] = [
    b"alice",
    b"example.com",
    b"4111",
    b"555-0132",
    b"secret-session-id",
    b"test",
    b"EMAIL_ADDRESS",
    b"[CREDIT",
];

#[test]
fn redis_monitor_sees_no_original_value_tenant_or_session_id() {
    let redis = RedisServer::start();
    let (a, b) = two_replicas(&redis);
    let mut monitor = redis.client();
    monitor
        .send_packed_command(&redis::cmd("MONITOR").get_packed_command())
        .unwrap();
    let _: redis::Value = monitor.recv_response().unwrap();
    let r = anonymize(
        &a,
        KEY,
        "secret-session-id",
        &["alice@example.com, 4111 1111 1111 1111, +1 415-555-0132"],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let r = deanonymize(&b, KEY, "secret-session-id", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["alice@example.com"]));
    monitor
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let mut seen = Vec::new();
    while let Ok(line) = monitor.recv_response() {
        if let redis::Value::SimpleString(line) = line {
            seen.push(line);
        }
    }
    // Turn 1 reads (GETEX) and writes (the compare-and-set script); the restore reads.
    let count = |command: &str| {
        seen.iter()
            .filter(|l| l.to_ascii_lowercase().contains(&format!("\"{command}\"")))
            .count()
    };
    assert_eq!(count("getex"), 2, "MONITOR saw the reads: {seen:?}");
    // EVALSHA, and on a Redis that does not know the script yet, SCRIPT LOAD and again.
    assert!(
        (1..=2).contains(&count("evalsha")),
        "MONITOR saw the write: {seen:?}"
    );
    for line in &seen {
        // A MONITOR line opens with its time and client (`1764079871.411142 [0
        // 127.0.0.1:5555] "getex" …`): digits of the clock are not the card's.
        let command = line.split_once("] ").map_or(line.as_str(), |(_, c)| c);
        for needle in NEEDLES {
            let needle = String::from_utf8_lossy(needle);
            assert!(
                !command.contains(needle.as_ref()),
                "MONITOR shows {needle:?}"
            );
        }
    }
}

#[test]
fn redis_holds_no_original_value_tenant_or_session_id() {
    let redis = RedisServer::start();
    let (a, _b) = two_replicas(&redis);
    let r = anonymize(
        &a,
        KEY,
        "secret-session-id",
        &["alice@example.com, 4111 1111 1111 1111, +1 415-555-0132"],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let dump = redis.dump();
    assert_eq!(dump.len(), 1, "one session, one key");
    let needles = NEEDLES;
    for (key, values) in &dump {
        let key_text = String::from_utf8_lossy(key);
        assert!(key_text.starts_with("anonymizer:session:"), "{key_text}");
        assert_eq!(key_text.len(), "anonymizer:session:".len() + 64);
        for bytes in std::iter::once(&key["anonymizer:session:".len()..].to_vec()).chain(values) {
            for needle in needles {
                assert!(
                    !bytes.windows(needle.len()).any(|w| w == needle),
                    "Redis holds {:?}",
                    String::from_utf8_lossy(needle)
                );
            }
        }
        // One string: nonce ‖ AES-SIV ciphertext, nothing else.
        assert_eq!(values.len(), 1, "a string, not a hash");
    }
}

#[test]
fn concurrent_requests_over_two_replicas_never_share_or_split_a_placeholder() {
    let redis = RedisServer::start();
    let (a, b) = two_replicas(&redis);
    let servers = Arc::new([a, b]);
    let pairs: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let servers = Arc::clone(&servers);
            let pairs = Arc::clone(&pairs);
            std::thread::spawn(move || {
                for i in 0..25 {
                    // Each request names three of 40 addresses; every thread alternates
                    // replicas, so both write the one session all the time.
                    let n = |k: usize| (t * 7 + i * 3 + k * 13) % 40;
                    let emails: Vec<String> = (0..3)
                        .map(|k| format!("user{}@example.com", n(k)))
                        .collect();
                    let text = emails.join(" ; ");
                    let r = anonymize(&servers[(t + i) % 2], KEY, "hot", &[&text]);
                    assert_eq!(r.status, 200, "{}", r.text);
                    for e in r.json()["detected_entities"].as_array().unwrap() {
                        pairs.lock().unwrap().push((
                            e["text"].as_str().unwrap().to_owned(),
                            e["anonymized_text"].as_str().unwrap().to_owned(),
                        ));
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("client thread");
    }
    let pairs = pairs.lock().unwrap();
    assert_eq!(pairs.len(), 8 * 25 * 3);
    let mut by_value: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut by_placeholder: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (value, placeholder) in pairs.iter() {
        by_value.entry(value).or_default().insert(placeholder);
        by_placeholder.entry(placeholder).or_default().insert(value);
    }
    assert!(
        by_value.values().all(|p| p.len() == 1),
        "a value got two placeholders"
    );
    assert!(
        by_placeholder.values().all(|v| v.len() == 1),
        "a placeholder got two values"
    );
    // Numbering is dense: 40 values, [EMAIL_ADDRESS_1] … [EMAIL_ADDRESS_40].
    let want: BTreeSet<String> = (1..=40).map(|n| format!("[EMAIL_ADDRESS_{n}]")).collect();
    let got: BTreeSet<String> = by_placeholder.keys().map(|p| p.to_string()).collect();
    assert_eq!(got, want);
}

#[test]
fn a_dead_redis_fails_session_requests_closed_and_a_restarted_one_recovers() {
    let mut redis = RedisServer::start();
    let (a, _b) = two_replicas(&redis);
    assert_eq!(anonymize(&a, KEY, "s", &["alice@example.com"]).status, 200);
    redis.kill();

    let started = Instant::now();
    // What needs Redis fails at once: a new value, a restore. That failure revokes
    // every lease, so a value this replica already knows fails too.
    anonymize(&a, KEY, "s", &["carol@example.net"]).assert_error(503, "session_store_unavailable");
    deanonymize(&a, KEY, "s", &["[EMAIL_ADDRESS_1]"])
        .assert_error(503, "session_store_unavailable");
    anonymize(&a, KEY, "s", &["alice@example.com"]).assert_error(503, "session_store_unavailable");
    // timeout_ms is 500 per request; three requests, with room for a loaded machine.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let r = a.post_raw(
        "/v1/anonymize",
        &json!({"text": ["bob@example.org"]}).to_string(),
        &[("x-api-key", KEY)],
    );
    assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
    let want = [
        "anonymizer_session_store_failures_total ".to_owned(),
        "anonymizer_requests_total{endpoint=\"anonymize\",status=\"503\",tenant=\"test\"} 2"
            .to_owned(),
    ];
    let m = a.metrics_with(&want);
    assert!(m.contains(&want[1]), "{m}");
    let failures: u64 = m
        .lines()
        .find_map(|l| l.strip_prefix("anonymizer_session_store_failures_total "))
        .and_then(|v| v.trim().parse().ok())
        .expect("failures counted");
    assert!(failures >= 3, "{failures}");
    assert!(eventually(Duration::from_secs(5), || {
        a.get("/readyz", &[]).json()["session_store"]["reachable"] == json!(false)
    }));
    assert!(!a.log().contains("alice"), "no entity in the log");

    redis.restart();
    assert!(
        eventually(Duration::from_secs(10), || {
            anonymize(&a, KEY, "s", &["carol@example.net"]).status == 200
        }),
        "recovers once Redis is back; log:\n{}",
        a.log()
    );
    assert!(eventually(Duration::from_secs(5), || {
        a.get("/readyz", &[]).json()["session_store"]["reachable"] == json!(true)
    }));
}

#[test]
fn a_slow_redis_fails_session_requests_within_the_timeout() {
    let redis = RedisServer::start();
    let a = TestServer::start(&replica_config(&redis, ""));
    assert_eq!(anonymize(&a, KEY, "s", &["alice@example.com"]).status, 200);
    let mut con = redis.client();
    let sleeper = std::thread::spawn(move || {
        let _: redis::RedisResult<()> = redis::cmd("DEBUG").arg("SLEEP").arg(2).query(&mut con);
    });
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    anonymize(&a, KEY, "s", &["alice@example.com"]).assert_error(503, "session_store_unavailable");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(400) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    sleeper.join().unwrap();
    assert!(eventually(Duration::from_secs(5), || {
        anonymize(&a, KEY, "s", &["alice@example.com"]).status == 200
    }));
    let r = anonymize(&a, KEY, "s", &["alice@example.com"]);
    assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
}

#[test]
fn sessions_expire_in_redis_after_their_ttl_and_use_restarts_it() {
    let redis = RedisServer::start();
    let a = TestServer::start(&replica_config(&redis, "  ttl_secs: 1\n"));
    assert_eq!(anonymize(&a, KEY, "s", &["alice@example.com"]).status, 200);
    let mut con = redis.client();
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut con).unwrap();
    assert_eq!(keys.len(), 1);
    let pttl: i64 = redis::cmd("PTTL").arg(&keys[0]).query(&mut con).unwrap();
    assert!(pttl > 0 && pttl <= 1000, "{pttl}");
    // Use restarts the TTL (sliding): 0.6 s, a read, 0.6 s later it is still there.
    std::thread::sleep(Duration::from_millis(600));
    let r = deanonymize(&a, KEY, "s", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["alice@example.com"]));
    std::thread::sleep(Duration::from_millis(600));
    let r = deanonymize(&a, KEY, "s", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["alice@example.com"]));
    // Left alone, it expires in Redis.
    assert!(eventually(Duration::from_secs(3), || {
        redis::cmd("EXISTS")
            .arg(&keys[0])
            .query::<i64>(&mut con)
            .unwrap()
            == 0
    }));
    let r = deanonymize(&a, KEY, "s", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
}

/// Calls of `command` Redis has served since its statistics were last reset.
fn calls(con: &mut redis::Connection, command: &str) -> u64 {
    let info: String = redis::cmd("INFO").arg("commandstats").query(con).unwrap();
    info.lines()
        .find_map(|l| l.strip_prefix(&format!("cmdstat_{command}:calls=")))
        .and_then(|rest| rest.split(',').next())
        .map_or(0, |n| n.parse().unwrap())
}

#[test]
fn a_hot_session_is_answered_under_its_lease_and_its_ttl_still_slides() {
    let redis = RedisServer::start();
    // TTL 2 s; the lease is 200 ms (the default; at most a quarter of the TTL).
    let config = replica_config(&redis, "  ttl_secs: 2\n");
    let (a, b) = (TestServer::start(&config), TestServer::start(&config));
    let first = anonymize(&a, KEY, "s", &["alice@example.com"]);
    assert_eq!(
        texts(&first, "anonymized_text"),
        json!(["[EMAIL_ADDRESS_1]"])
    );
    let mut con = redis.client();
    let _: () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query(&mut con)
        .unwrap();

    // Known values every 50 ms for 3 s, longer than the TTL: answered from A's copy
    // under its lease, the lease renewed and the TTL restarted by batched touches.
    let started = Instant::now();
    let mut requests = 0;
    while started.elapsed() < Duration::from_secs(3) {
        let r = anonymize(&a, KEY, "s", &["alice@example.com"]);
        assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
        requests += 1;
        std::thread::sleep(Duration::from_millis(50));
    }
    let reads = calls(&mut con, "getex");
    assert!(
        reads * 2 < requests,
        "most requests need no round trip: {reads} reads for {requests} requests"
    );
    assert!(
        calls(&mut con, "evalsha") > 0,
        "the TTL was restarted in batches"
    );
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut con).unwrap();
    let pttl: i64 = redis::cmd("PTTL").arg(&keys[0]).query(&mut con).unwrap();
    assert!(pttl > 1000, "the TTL slid with use: {pttl} ms left");

    // Another replica allocates; A, asked for that value under its lease, finds it
    // in Redis through the compare-and-set rather than numbering it afresh.
    let r = anonymize(&b, KEY, "s", &["bob@example.org"]);
    assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_2]"]));
    let r = anonymize(&a, KEY, "s", &["carol@example.net", "bob@example.org"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["[EMAIL_ADDRESS_3]", "[EMAIL_ADDRESS_2]"])
    );
    // A restore always reads Redis: B restores what A just allocated.
    let r = deanonymize(&b, KEY, "s", &["[EMAIL_ADDRESS_3] [EMAIL_ADDRESS_1]"]);
    assert_eq!(
        texts(&r, "deanonymized_text"),
        json!(["carol@example.net alice@example.com"])
    );
}

#[test]
fn lease_ms_zero_reads_redis_on_every_request() {
    let redis = RedisServer::start();
    let config = store_config(&redis.url(), "    lease_ms: 0\n", "");
    let a = TestServer::start(&config);
    assert_eq!(anonymize(&a, KEY, "s", &["alice@example.com"]).status, 200);
    let mut con = redis.client();
    let _: () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query(&mut con)
        .unwrap();
    for _ in 0..5 {
        let r = anonymize(&a, KEY, "s", &["alice@example.com"]);
        assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
    }
    assert_eq!(calls(&mut con, "getex"), 5);
}

#[test]
fn the_redis_store_needs_a_master_secret_and_a_redis_url() {
    let dir = crate::support::scratch_dir();
    let path = dir.join("c.yaml");
    std::fs::write(
        &path,
        "sessions:\n  store: redis\n  redis:\n    url: http://user:hunter2-password@host\n    ca_file: /etc/ca.pem\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .args(["check-config", "--config"])
        .arg(&path)
        .env_remove("ANONYMIZER_SECRET")
        .env_remove("ANONYMIZER_REDIS_URL")
        .env_remove("ANONYMIZER_SESSION_STORE")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("sessions.redis.url"), "{text}");
    assert!(text.contains("secrets.master_secret"), "{text}");
    assert!(
        text.contains("sessions.redis.ca_file"),
        "only with rediss://: {text}"
    );
    assert!(!text.contains("hunter2"), "the URL is never quoted: {text}");
}

#[test]
fn proxied_turns_share_a_session_across_replicas_and_a_dead_redis_forwards_nothing() {
    let mut redis = RedisServer::start();
    let up = Upstream::start(|req: &Received| {
        let body = req.json();
        let last = body["messages"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_owned();
        Reply::json(
            &json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": format!("You said: {last}")}}]}),
        )
    });
    let config = format!(
        "{}routes:\n  - name: chat\n    match: {{path_prefix: /v1/chat/completions}}\n    upstream: {{url: '{}'}}\n    preset: openai_chat\n    auth: passthrough\n    session: {{header: x-conversation}}\n",
        replica_config(&redis, ""),
        up.url()
    );
    let (a, b) = (TestServer::start(&config), TestServer::start(&config));
    let turn = |s: &TestServer, content: &str| {
        s.post_raw(
            "/v1/chat/completions",
            &json!({"messages": [{"role": "user", "content": content}]}).to_string(),
            &[("x-conversation", "c-1")],
        )
    };
    let r = turn(&a, "I am alice@example.com");
    assert_eq!(
        texts(&r, "choices")[0]["message"]["content"],
        "You said: I am alice@example.com"
    );
    let r = turn(&b, "cc bob@example.org and alice@example.com");
    assert_eq!(
        texts(&r, "choices")[0]["message"]["content"],
        "You said: cc bob@example.org and alice@example.com"
    );
    let sent = up.received();
    assert_eq!(
        sent[0].json()["messages"][0]["content"],
        "I am [EMAIL_ADDRESS_1]"
    );
    assert_eq!(
        sent[1].json()["messages"][0]["content"],
        "cc [EMAIL_ADDRESS_2] and [EMAIL_ADDRESS_1]"
    );

    redis.kill();
    turn(&a, "I am dave@example.com").assert_error(503, "session_store_unavailable");
    turn(&a, "I am alice@example.com").assert_error(503, "session_store_unavailable");
    assert_eq!(up.received().len(), 2, "nothing was forwarded");
    let want =
        "anonymizer_proxy_refusals_total{reason=\"session_store_unavailable\",route=\"chat\"} 2"
            .to_owned();
    let m = a.metrics_with(std::slice::from_ref(&want));
    assert!(m.contains(&want), "{m}");
}

/// Keys of database `db`.
fn keys_on(redis: &RedisServer, db: u8) -> Vec<String> {
    redis::cmd("KEYS")
        .arg("*")
        .query(&mut redis.client_on(db))
        .unwrap()
}

#[test]
fn rediss_with_a_private_ca_an_acl_user_and_a_database_number() {
    let redis = RedisServer::start_with(Security {
        tls: true,
        user: Some(("app".into(), "app-pa55word".into())),
        ..Security::default()
    });
    let url = redis.url_with("app", "app-pa55word", 3);
    assert!(
        url.starts_with("rediss://app:app-pa55word@127.0.0.1:"),
        "{url}"
    );
    let tls = format!(
        "    ca_file: '{}'\n    timeout_ms: 3000\n",
        redis.ca_file().display()
    );
    let (a, b) = (
        TestServer::start(&store_config(&url, &tls, "")),
        TestServer::start(&store_config(&url, &tls, "")),
    );
    let r = anonymize(&a, KEY, "tls-chat", &["Mail alice@example.com"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["Mail [EMAIL_ADDRESS_1]"])
    );
    let r = anonymize(&b, KEY, "tls-chat", &["bob@example.org, alice@example.com"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["[EMAIL_ADDRESS_2], [EMAIL_ADDRESS_1]"])
    );
    let r = deanonymize(
        &a,
        KEY,
        "tls-chat",
        &["[EMAIL_ADDRESS_2] [EMAIL_ADDRESS_1]"],
    );
    assert_eq!(
        texts(&r, "deanonymized_text"),
        json!(["bob@example.org alice@example.com"])
    );
    // The session lives in database 3 and nowhere else.
    let in_3 = keys_on(&redis, 3);
    assert_eq!(in_3.len(), 1, "{in_3:?}");
    assert!(in_3[0].starts_with("anonymizer:session:"), "{in_3:?}");
    assert_eq!(keys_on(&redis, 0), Vec::<String>::new());
    assert_eq!(
        b.get("/readyz", &[]).json()["session_store"],
        json!({"type": "redis", "reachable": true})
    );

    // Without the CA, the built-in web roots do not trust the server: fail closed.
    let untrusted = TestServer::start(&store_config(&url, "    timeout_ms: 3000\n", ""));
    anonymize(&untrusted, KEY, "tls-chat", &["alice@example.com"])
        .assert_error(503, "session_store_unavailable");
    // A wrong password, with the right CA: the same.
    let wrong = redis.url_with("app", "not-the-password", 3);
    let refused = TestServer::start(&store_config(&wrong, &tls, ""));
    anonymize(&refused, KEY, "tls-chat", &["alice@example.com"])
        .assert_error(503, "session_store_unavailable");
    assert!(eventually(Duration::from_secs(5), || {
        refused.get("/readyz", &[]).json()["session_store"]["reachable"] == json!(false)
    }));
    for s in [&a, &b, &untrusted, &refused] {
        let log = s.log();
        assert!(
            !log.contains("pa55word") && !log.contains("not-the-password"),
            "{log}"
        );
        assert!(!log.contains("alice"), "{log}");
    }
}

#[test]
fn a_password_protected_redis_on_database_two() {
    let redis = RedisServer::start_with(Security {
        password: Some("requirepass-secret".into()),
        ..Security::default()
    });
    let url = redis.url_with("", "requirepass-secret", 2);
    let a = TestServer::start(&store_config(&url, "", ""));
    let r = anonymize(&a, KEY, "s", &["alice@example.com"]);
    assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
    let r = deanonymize(&a, KEY, "s", &["[EMAIL_ADDRESS_1]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["alice@example.com"]));
    assert_eq!(keys_on(&redis, 2).len(), 1);
    assert_eq!(keys_on(&redis, 0), Vec::<String>::new());

    let b = TestServer::start(&store_config(&redis.url(), "", ""));
    deanonymize(&b, KEY, "s", &["[EMAIL_ADDRESS_1]"])
        .assert_error(503, "session_store_unavailable");
    assert!(!a.log().contains("requirepass-secret"));
}

#[test]
fn the_sessions_gauge_counts_what_every_replica_shares() {
    let redis = RedisServer::start();
    let config = replica_config(&redis, "  sweep_interval_secs: 1\n");
    let (a, b) = (TestServer::start(&config), TestServer::start(&config));
    for (s, session) in [(&a, "one"), (&a, "two"), (&b, "three")] {
        assert_eq!(
            anonymize(s, KEY, session, &["alice@example.com"]).status,
            200
        );
    }
    let sealed: u64 = redis
        .dump()
        .iter()
        .map(|(_, values)| values[0].len() as u64)
        .sum();
    // Gauges are published after each request: a sessionless one brings them up to date.
    let gauges = |s: &TestServer| {
        let r = s.post_raw(
            "/v1/anonymize",
            &json!({"text": ["x"]}).to_string(),
            &[("x-api-key", KEY)],
        );
        assert_eq!(r.status, 200);
        s.metrics()
            .lines()
            .filter(|l| l.starts_with("anonymizer_sessions{"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let want = vec![
        format!("anonymizer_sessions{{what=\"bytes\"}} {sealed}"),
        "anonymizer_sessions{what=\"sessions\"} 3".to_owned(),
    ];
    for s in [&a, &b] {
        let mut last = Vec::new();
        assert!(
            eventually(Duration::from_secs(10), || {
                last = gauges(s);
                last == want
            }),
            "{last:?}"
        );
    }
    // An expired or deleted session leaves the count.
    let key = keys_on(&redis, 0).remove(0);
    let _: i64 = redis::cmd("DEL")
        .arg(&key)
        .query(&mut redis.client())
        .unwrap();
    assert!(eventually(Duration::from_secs(10), || {
        gauges(&a).contains(&"anonymizer_sessions{what=\"sessions\"} 2".to_owned())
    }));
}
