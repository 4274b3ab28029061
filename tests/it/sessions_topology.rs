//! The shared session store on highly available Redis, each run from its example
//! config (`conf/examples/redis_cluster.yaml`, `redis_sentinel.yaml`) against real
//! `redis-server` processes: two replicas of ours share sessions through a 3-primary
//! Cluster and through a Sentinel-watched primary; a dead primary fails its sessions
//! closed while the others work; after a failover, sessions written with `WAIT` are
//! still there. And `WAIT` with too few replicas fails closed.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::json;

use crate::sessions_redis::{anonymize, deanonymize, store_config, texts, SECRET};
use crate::support::redis::RedisServer;
use crate::support::redis_ha::{RedisCluster, RedisSentinel, SERVICE};
use crate::support::{eventually, TestServer, KEY};

/// The example configs these tests serve (the proxy examples' test leaves them here).
pub(crate) const EXAMPLES: [&str; 2] = ["redis_cluster", "redis_sentinel"];

/// A replica of ours on `conf/examples/<name>.yaml` with `env`, model off.
fn example(name: &str, env: &[(&str, &str)]) -> TestServer {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conf/examples")
        .join(format!("{name}.yaml"));
    // Rules only: the store is under test, and emails need no model.
    let yaml =
        std::fs::read_to_string(path).expect("example config") + "model:\n  enabled: false\n";
    let mut env = env.to_vec();
    env.extend([("ANONYMIZER_API_KEYS", KEY), ("ANONYMIZER_SECRET", SECRET)]);
    TestServer::start_with_env(&yaml, &env)
}

#[test]
fn two_replicas_share_sessions_through_a_cluster_and_a_dead_primary_fails_only_its_sessions() {
    let mut cluster = RedisCluster::start();
    let nodes = cluster.startup_nodes();
    let env = [("ANONYMIZER_REDIS_CLUSTER_NODES", nodes.as_str())];
    let (a, b) = (
        example("redis_cluster", &env),
        example("redis_cluster", &env),
    );

    // Turn 1 of twelve conversations on A; each session's key tells which primary
    // holds it.
    let mut seen: Vec<String> = Vec::new();
    let mut home: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let id = |i: usize| format!("chat-{i}");
    for i in 0..12 {
        let r = anonymize(&a, KEY, &id(i), &[&format!("user{i}@example.com")]);
        assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
        let keys: Vec<String> = cluster.primaries.iter().flat_map(|p| p.keys()).collect();
        let new: Vec<&String> = keys.iter().filter(|k| !seen.contains(k)).collect();
        assert_eq!(new.len(), 1, "one key per session: {new:?}");
        let key = new[0].clone();
        // A hash tag puts the session's keys in one slot.
        assert!(
            key.starts_with("anonymizer:session:{") && key.ends_with('}'),
            "{key}"
        );
        assert_eq!(key.len(), "anonymizer:session:".len() + 66);
        home.entry(cluster.primary_of(&key)).or_default().push(i);
        seen.push(key);
    }
    assert!(home.len() >= 2, "sessions on several primaries: {home:?}");

    // Turn 2 on B continues every conversation and restores it exactly.
    let both = |i: usize| json!([format!("user{i}@example.com bob{i}@example.org")]);
    for i in 0..12 {
        let r = anonymize(
            &b,
            KEY,
            &id(i),
            &[&format!("bob{i}@example.org, user{i}@example.com")],
        );
        assert_eq!(
            texts(&r, "anonymized_text"),
            json!(["[EMAIL_ADDRESS_2], [EMAIL_ADDRESS_1]"])
        );
        let r = deanonymize(&a, KEY, &id(i), &["[EMAIL_ADDRESS_1] [EMAIL_ADDRESS_2]"]);
        assert_eq!(texts(&r, "deanonymized_text"), both(i));
    }

    // A primary dies; its replica does not take over yet.
    let (&dead, on_dead) = home.iter().next().expect("a primary with sessions");
    let on_dead = on_dead.clone();
    let alive: Vec<usize> = home
        .iter()
        .filter(|(p, _)| **p != dead)
        .flat_map(|(_, ids)| ids.clone())
        .collect();
    cluster.primaries[dead].kill();
    for &i in &on_dead {
        anonymize(&a, KEY, &id(i), &["carol@example.net"])
            .assert_error(503, "session_store_unavailable");
        deanonymize(&b, KEY, &id(i), &["[EMAIL_ADDRESS_1]"])
            .assert_error(503, "session_store_unavailable");
    }
    for &i in &alive {
        let r = anonymize(&a, KEY, &id(i), &["carol@example.net"]);
        assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_3]"]));
        let r = deanonymize(&b, KEY, &id(i), &["[EMAIL_ADDRESS_3]"]);
        assert_eq!(texts(&r, "deanonymized_text"), json!(["carol@example.net"]));
    }

    // Its replica takes over: every acknowledged write (WAIT 1) is there. Until a
    // new replica joins it, nothing on it can be acknowledged, so its sessions stay
    // closed.
    let promoted = cluster.replica_of(dead).port;
    cluster.fail_over(dead);
    deanonymize(&a, KEY, &id(on_dead[0]), &["[EMAIL_ADDRESS_1]"])
        .assert_error(503, "session_store_unavailable");
    let _spare = cluster.add_replica(promoted);
    let first = on_dead[0];
    for s in [&a, &b] {
        assert!(
            eventually(Duration::from_secs(10), || {
                let r = deanonymize(s, KEY, &id(first), &["[EMAIL_ADDRESS_1] [EMAIL_ADDRESS_2]"]);
                r.status == 200 && r.json()["deanonymized_text"] == both(first)
            }),
            "restores after the failover; log:\n{}",
            s.log()
        );
    }
    for &i in &on_dead {
        let r = anonymize(&b, KEY, &id(i), &["carol@example.net"]);
        assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_3]"]));
        let r = deanonymize(&a, KEY, &id(i), &["[EMAIL_ADDRESS_1] [EMAIL_ADDRESS_2]"]);
        assert_eq!(texts(&r, "deanonymized_text"), both(i));
    }
}

#[test]
fn two_replicas_share_sessions_behind_sentinel_and_what_wait_acknowledged_survives_a_failover() {
    let mut ha = RedisSentinel::start();
    let sentinels = ha.sentinel.address();
    let env = [
        ("ANONYMIZER_REDIS_SENTINELS", sentinels.as_str()),
        ("ANONYMIZER_REDIS_SENTINEL_SERVICE", SERVICE),
    ];
    let (a, b) = (
        example("redis_sentinel", &env),
        example("redis_sentinel", &env),
    );
    let r = anonymize(&a, KEY, "chat", &["Mail alice@example.com"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["Mail [EMAIL_ADDRESS_1]"])
    );
    let r = anonymize(
        &b,
        KEY,
        "chat",
        &["Cc bob@example.org and alice@example.com"],
    );
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["Cc [EMAIL_ADDRESS_2] and [EMAIL_ADDRESS_1]"])
    );
    let r = deanonymize(&a, KEY, "chat", &["[EMAIL_ADDRESS_2]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["bob@example.org"]));
    // WAIT 1 returned: the replica already holds the session.
    assert_eq!(ha.replica.keys().len(), 1);

    // The primary dies; the sentinel promotes the replica.
    let old = ha.primary.port;
    ha.primary.kill();
    assert!(
        eventually(Duration::from_secs(15), || ha.primary_port()
            == Some(ha.replica.port)),
        "the sentinel did not fail over from {old}"
    );
    // Both replicas of ours find the new primary and everything acknowledged, once a
    // replica can acknowledge again.
    let _spare = ha.add_replica(ha.replica.port);
    for s in [&a, &b] {
        assert!(
            eventually(Duration::from_secs(10), || {
                let r = deanonymize(s, KEY, "chat", &["[EMAIL_ADDRESS_1] [EMAIL_ADDRESS_2]"]);
                r.status == 200
                    && r.json()["deanonymized_text"] == json!(["alice@example.com bob@example.org"])
            }),
            "restores after the failover; log:\n{}",
            s.log()
        );
    }
    let r = anonymize(&a, KEY, "chat", &["carol@example.net, bob@example.org"]);
    assert_eq!(
        texts(&r, "anonymized_text"),
        json!(["[EMAIL_ADDRESS_3], [EMAIL_ADDRESS_2]"])
    );
    let r = deanonymize(&b, KEY, "chat", &["[EMAIL_ADDRESS_3]"]);
    assert_eq!(texts(&r, "deanonymized_text"), json!(["carol@example.net"]));
}

#[test]
fn a_write_fewer_replicas_acknowledge_than_wait_replicas_fails_closed() {
    // A lone Redis: no replica can acknowledge anything.
    let redis = RedisServer::start();
    let config = store_config(
        &redis.url(),
        "    wait_replicas: 1\n    wait_timeout_ms: 50\n",
        "",
    );
    let a = TestServer::start(&config);
    anonymize(&a, KEY, "s", &["alice@example.com"]).assert_error(503, "session_store_unavailable");
    // A state no replica acknowledged is not answered from either.
    anonymize(&a, KEY, "s", &["alice@example.com"]).assert_error(503, "session_store_unavailable");
    deanonymize(&a, KEY, "s", &["[EMAIL_ADDRESS_1]"])
        .assert_error(503, "session_store_unavailable");
    // Sessionless requests are unaffected; Redis itself is reachable.
    let r = a.post_raw(
        "/v1/anonymize",
        &json!({"text": ["alice@example.com"]}).to_string(),
        &[("x-api-key", KEY)],
    );
    assert_eq!(texts(&r, "anonymized_text"), json!(["[EMAIL_ADDRESS_1]"]));
    assert!(eventually(Duration::from_secs(5), || {
        a.get("/readyz", &[]).json()["session_store"]["reachable"] == json!(true)
    }));
}
