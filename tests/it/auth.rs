use serde_json::json;

use crate::support::{base_config, TestServer, KEY, OTHER_KEY};

#[test]
fn keys_from_config_and_environment_each_authenticate() {
    let s = TestServer::start_with_env(
        &base_config(),
        &[(
            "ANONYMIZER_API_KEYS",
            "envteam:env-key-0123456789,bare-key-0123456789",
        )],
    );
    let body = r#"{"text": ["hi"]}"#;
    for key in [KEY, OTHER_KEY, "env-key-0123456789", "bare-key-0123456789"] {
        let r = s.post_raw("/v1/anonymize", body, &[("x-api-key", key)]);
        assert_eq!(r.status, 200, "key {key}: {}", r.text);
    }
    s.post_raw(
        "/v1/anonymize",
        body,
        &[("x-api-key", "envteam:env-key-0123456789")],
    )
    .assert_error(401, "invalid_api_key");
    let want: Vec<String> = ["test", "other", "envteam", "default"]
        .iter()
        .map(|t| format!("anonymizer_requests_total{{endpoint=\"anonymize\",status=\"200\",tenant=\"{t}\"}} 1"))
        .collect();
    let metrics = s.metrics_with(&want);
    for (tenant, line) in ["test", "other", "envteam", "default"].iter().zip(&want) {
        assert!(
            metrics.contains(line.as_str()),
            "tenant {tenant} missing from metrics:\n{metrics}"
        );
    }
    assert!(!metrics.contains("0123456789"), "a key reached the metrics");
}

#[test]
fn without_configured_keys_a_random_key_is_generated_and_printed_once() {
    let s = TestServer::start("logging:\n  level: warn\n");
    let log = s.log();
    assert!(log.contains("WARNING: no API key is configured"), "{log}");
    assert!(log.contains("changes at every start"), "{log}");
    let key = log
        .lines()
        .find_map(|l| l.strip_prefix("X-API-Key: "))
        .expect("key printed")
        .trim()
        .to_owned();
    assert_eq!(log.matches(&key).count(), 1, "key printed more than once");
    assert!(key.len() >= 40);
    s.post_raw("/v1/anonymize", r#"{"text": []}"#, &[])
        .assert_error(401, "missing_api_key");
    let r = s.post_raw("/v1/anonymize", r#"{"text": []}"#, &[("x-api-key", &key)]);
    assert_eq!(r.status, 200, "{}", r.text);

    // A second start generates a different key.
    let s2 = TestServer::start("logging:\n  level: warn\n");
    assert!(!s2.log().contains(&key));
}

#[test]
fn rate_limit_answers_429_with_retry_after_per_key() {
    let s = TestServer::start(&format!(
        "{}rate_limit:\n  enabled: true\n  requests_per_sec: 0.2\n  burst: 2\n",
        base_config()
    ));
    let body = json!({"text": ["x"]});
    assert_eq!(s.post("/v1/anonymize", &body).status, 200);
    assert_eq!(s.post("/v1/anonymize", &body).status, 200);
    let r = s.post("/v1/anonymize", &body);
    r.assert_error(429, "rate_limited");
    let retry: u64 = r
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .expect("seconds");
    assert!((1..=5).contains(&retry), "retry after {retry}");
    // Another key has its own bucket.
    let r = s.post_raw(
        "/v1/anonymize",
        &body.to_string(),
        &[("x-api-key", OTHER_KEY)],
    );
    assert_eq!(r.status, 200);
    // Health checks are never rate limited.
    for _ in 0..5 {
        assert_eq!(s.get("/healthz", &[]).status, 200);
    }
}
