//! Many writers on one shared session: two replicas on one real `redis-server`, 16
//! client threads (each its own keep-alive client), every request allocating new
//! values in the same session. Contention must cost waiting, never an error: every
//! request is a 200, every value gets exactly one placeholder on both replicas, and
//! numbering stays dense.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::sessions_redis::{deanonymize, store_config};
use crate::support::redis::RedisServer;
use crate::support::{TestServer, KEY};

const THREADS: usize = 16;
const REQUESTS: usize = 20;
/// Values every thread repeats, so the same value is asked for on both replicas at
/// once.
const SHARED: usize = 5;

/// What one request sent and got back.
struct Answer {
    new: String,
    shared: String,
    anonymized: String,
    entities: Vec<(String, String)>,
    took: Duration,
}

fn post(client: &reqwest::blocking::Client, server: &str, text: &str) -> (u16, Value) {
    let r = client
        .post(format!("http://{server}/v1/anonymize"))
        .header("content-type", "application/json")
        .header("x-api-key", KEY)
        .header("x-session-id", "one-hot-session")
        .body(json!({ "text": [text] }).to_string())
        .send()
        .expect("request");
    let status = r.status().as_u16();
    (status, r.json().unwrap_or(Value::Null))
}

#[test]
fn sixteen_writers_on_one_session_over_two_replicas_all_succeed_with_one_placeholder_per_value() {
    let redis = RedisServer::start();
    // The default timeout: contention must fit in it with room to spare.
    let config = store_config(&redis.url(), "    timeout_ms: 1000\n", "");
    let servers = [TestServer::start(&config), TestServer::start(&config)];
    let addrs: Arc<Vec<String>> = Arc::new(servers.iter().map(|s| s.addr.clone()).collect());
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let addrs = Arc::clone(&addrs);
            std::thread::spawn(move || {
                let client = reqwest::blocking::Client::builder()
                    .pool_max_idle_per_host(2)
                    .timeout(Duration::from_secs(30))
                    .build()
                    .expect("client");
                (0..REQUESTS)
                    .map(|i| {
                        // A value no other request names, and one every thread names.
                        let new = format!("w{t}r{i}@example.com");
                        let shared = format!("shared{}@example.org", (t + i) % SHARED);
                        let text = format!("{new} and {shared}");
                        let started = Instant::now();
                        // Each thread alternates replicas, so both write all the time.
                        let (status, body) = post(&client, &addrs[(t + i) % 2], &text);
                        let took = started.elapsed();
                        assert_eq!(status, 200, "{body}");
                        let entities = body["detected_entities"]
                            .as_array()
                            .expect("entities")
                            .iter()
                            .map(|e| {
                                (
                                    e["text"].as_str().unwrap_or("").to_owned(),
                                    e["anonymized_text"].as_str().unwrap_or("").to_owned(),
                                )
                            })
                            .collect();
                        Answer {
                            new,
                            shared,
                            anonymized: body["anonymized_text"][0]
                                .as_str()
                                .unwrap_or("")
                                .to_owned(),
                            entities,
                            took,
                        }
                    })
                    .collect::<Vec<Answer>>()
            })
        })
        .collect();
    let answers: Vec<Answer> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("client thread"))
        .collect();
    assert_eq!(answers.len(), THREADS * REQUESTS);

    // One placeholder per value, one value per placeholder, across both replicas.
    let mut by_value: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut by_placeholder: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for a in &answers {
        for (value, placeholder) in &a.entities {
            by_value.entry(value).or_default().insert(placeholder);
            by_placeholder.entry(placeholder).or_default().insert(value);
        }
    }
    let distinct = THREADS * REQUESTS + SHARED;
    assert_eq!(by_value.len(), distinct, "every value was detected");
    for (value, placeholders) in &by_value {
        assert_eq!(placeholders.len(), 1, "{value} got {placeholders:?}");
    }
    for (placeholder, values) in &by_placeholder {
        assert_eq!(values.len(), 1, "{placeholder} stands for {values:?}");
    }
    // Dense numbering: [EMAIL_ADDRESS_1] … [EMAIL_ADDRESS_<distinct>], nothing else.
    let want: BTreeSet<String> = (1..=distinct)
        .map(|n| format!("[EMAIL_ADDRESS_{n}]"))
        .collect();
    let got: BTreeSet<String> = by_placeholder.keys().map(|p| p.to_string()).collect();
    assert_eq!(got, want);
    // Each answer is exactly its text with its two values replaced.
    let placeholder = |v: &str| *by_value[v].iter().next().expect("one");
    for a in &answers {
        let want = format!("{} and {}", placeholder(&a.new), placeholder(&a.shared));
        assert_eq!(a.anonymized, want);
    }
    // Both replicas restore every placeholder to its value.
    let all: Vec<&str> = by_value.keys().copied().collect();
    let masked: Vec<&str> = all.iter().map(|v| placeholder(v)).collect();
    for s in &servers {
        let r = deanonymize(s, KEY, "one-hot-session", &[&masked.join(" ")]);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json()["deanonymized_text"], json!([all.join(" ")]));
    }

    let mut took: Vec<Duration> = answers.iter().map(|a| a.took).collect();
    took.sort();
    let p99 = took[took.len() * 99 / 100];
    let conflicts: u64 = servers
        .iter()
        .map(|s| {
            s.metrics()
                .lines()
                .find_map(|l| {
                    l.strip_prefix("anonymizer_session_events_total{event=\"conflict\"} ")
                })
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0)
        })
        .sum();
    eprintln!(
        "{} requests, p50 {:?}, p99 {p99:?}, max {:?}, {conflicts} compare-and-set conflicts",
        answers.len(),
        took[took.len() / 2],
        took[took.len() - 1],
    );
    // Bounded time is what every 200 above asserts: a store call past the replicas'
    // `timeout_ms` answers 503. The latencies are printed, not asserted: a timed
    // assertion (p99 under 800 ms) failed on a slower 2-core machine under the suite's
    // load (820 ms), and `benches/sessions/run.sh` measures them.
}
