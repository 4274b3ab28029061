//! Every de-identification method, sessions and lenient restore, over HTTP.

use serde_json::{json, Value};

use crate::support::{base_config, TestServer, KEY, OTHER_KEY};

const SECRET: &str = "secrets:\n  master_secret: \"0123456789abcdef0123456789abcdef\"\n";

fn anonymize(s: &TestServer, key: &str, session: Option<&str>, body: Value) -> Value {
    let mut headers = vec![("x-api-key", key)];
    if let Some(id) = session {
        headers.push(("x-session-id", id));
    }
    let r = s.post_raw("/v1/anonymize", &body.to_string(), &headers);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

fn deanonymize(s: &TestServer, key: &str, session: Option<&str>, body: Value) -> Value {
    let mut headers = vec![("x-api-key", key)];
    if let Some(id) = session {
        headers.push(("x-session-id", id));
    }
    let r = s.post_raw("/v1/deanonymize", &body.to_string(), &headers);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["deanonymized_text"].clone()
}

fn method(m: &str, text: &str) -> Value {
    json!({"text": [text], "anonymization_config": {"deidentification_method": m}})
}

#[test]
fn hash_is_stable_across_requests_and_differs_between_tenants() {
    let s = TestServer::start(&format!("{}{SECRET}", base_config()));
    let a = anonymize(&s, KEY, None, method("HASH", "mail a@example.com"));
    let b = anonymize(&s, KEY, None, method("hash", "again a@example.com"));
    let token = a["detected_entities"][0]["anonymized_text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        token.len() == "[EMAIL_ADDRESS_]".len() + 12 && token.starts_with("[EMAIL_ADDRESS_"),
        "{token}"
    );
    assert_eq!(b["detected_entities"][0]["anonymized_text"], json!(token));
    let other = anonymize(&s, OTHER_KEY, None, method("HASH", "mail a@example.com"));
    assert_ne!(
        other["detected_entities"][0]["anonymized_text"],
        json!(token)
    );
    let back = deanonymize(
        &s,
        KEY,
        None,
        json!({"anonymized_text": a["anonymized_text"],
        "entities_map": [{"text": "a@example.com", "anonymized_text": token}]}),
    );
    assert_eq!(back, json!(["mail a@example.com"]));
}

#[test]
fn encrypt_tokens_open_without_a_map_only_for_their_tenant() {
    let s = TestServer::start(&format!("{}{SECRET}", base_config()));
    let a = anonymize(&s, KEY, None, method("ENCRYPT", "mail a@example.com now"));
    let out = a["anonymized_text"][0].as_str().unwrap().to_owned();
    assert!(
        out.starts_with("mail [EMAIL_ADDRESS:") && !out.contains("a@example.com"),
        "{out}"
    );
    assert_eq!(
        deanonymize(&s, KEY, None, json!({"anonymized_text": [out]})),
        json!(["mail a@example.com now"])
    );
    // Another tenant's key does not open it: the token is left as it is.
    assert_eq!(
        deanonymize(&s, OTHER_KEY, None, json!({"anonymized_text": [out]})),
        json!([out])
    );
    let m = s.metrics_with(&["anonymizer_encrypt_tokens_failed_total 1".to_owned()]);
    assert!(
        m.contains("anonymizer_encrypt_tokens_failed_total 1"),
        "{m}"
    );
}

#[test]
fn pseudonyms_are_realistic_and_restore_with_the_map() {
    let s = TestServer::default();
    let text = "write to jane.doe@corp.com or call +1 415-555-0132";
    let a = anonymize(&s, KEY, None, method("PSEUDONYMIZE", text));
    let out = a["anonymized_text"][0].as_str().unwrap();
    assert!(
        !out.contains("jane.doe@corp.com") && !out.contains("415-555-0132"),
        "{out}"
    );
    let email = a["detected_entities"][0]["anonymized_text"]
        .as_str()
        .unwrap();
    // Fake e-mails use the domains reserved for examples (RFC 2606).
    let domain = email.rsplit('@').next().unwrap_or("");
    assert!(
        ["example.com", "example.org", "example.net"].contains(&domain),
        "{email}"
    );
    let map: Vec<Value> = a["detected_entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!({"text": e["text"], "anonymized_text": e["anonymized_text"]}))
        .collect();
    let back = deanonymize(
        &s,
        KEY,
        None,
        json!({"anonymized_text": [out], "entities_map": map}),
    );
    assert_eq!(back, json!([text]));
}

#[test]
fn sessions_keep_placeholders_across_requests_and_stay_within_their_tenant() {
    let s = TestServer::default();
    let t1 = anonymize(
        &s,
        KEY,
        Some("conv-1"),
        json!({"text": ["from a@example.com"]}),
    );
    assert_eq!(t1["anonymized_text"], json!(["from [EMAIL_ADDRESS_1]"]));
    let t2 = anonymize(
        &s,
        KEY,
        Some("conv-1"),
        json!({"text": ["b@example.com and a@example.com"]}),
    );
    assert_eq!(
        t2["anonymized_text"],
        json!(["[EMAIL_ADDRESS_2] and [EMAIL_ADDRESS_1]"])
    );
    // Without a map, the session's map restores.
    assert_eq!(
        deanonymize(
            &s,
            KEY,
            Some("conv-1"),
            json!({"anonymized_text": ["[EMAIL_ADDRESS_1] / [EMAIL_ADDRESS_2]"]})
        ),
        json!(["a@example.com / b@example.com"])
    );
    // Another tenant with the same session id sees nothing of it.
    assert_eq!(
        deanonymize(
            &s,
            OTHER_KEY,
            Some("conv-1"),
            json!({"anonymized_text": ["[EMAIL_ADDRESS_1]"]})
        ),
        json!(["[EMAIL_ADDRESS_1]"])
    );
    let t3 = anonymize(
        &s,
        OTHER_KEY,
        Some("conv-1"),
        json!({"text": ["b@example.com"]}),
    );
    assert_eq!(t3["anonymized_text"], json!(["[EMAIL_ADDRESS_1]"]));
    // A bad session id is a 422 on the header.
    let r = s.post_raw(
        "/v1/anonymize",
        "{\"text\": []}",
        &[("x-api-key", KEY), ("x-session-id", "has space")],
    );
    assert_eq!(
        r.assert_error(422, "validation_failed")[0]["field"],
        "X-Session-Id"
    );
}

#[test]
fn lenient_matching_restores_mangled_placeholders() {
    let s = TestServer::default();
    let map = json!([{"text": "Ann", "anonymized_text": "[PERSON_1]"}]);
    let body = json!({"anonymized_text": ["[person_1], PERSON_1 and [PERSON 1]"], "entities_map": map, "match": "lenient"});
    assert_eq!(
        deanonymize(&s, KEY, None, body),
        json!(["Ann, Ann and Ann"])
    );
    let body = json!({"anonymized_text": ["[person_1]"], "entities_map": map});
    assert_eq!(deanonymize(&s, KEY, None, body), json!(["[person_1]"]));
}

#[test]
fn sessions_expire_after_their_ttl_and_are_evicted_past_the_bound() {
    let s = TestServer::start(&format!(
        "{}sessions:\n  ttl_secs: 1\n  sweep_interval_secs: 1\n  max_sessions: 2\n",
        base_config()
    ));
    let restore = |id: &str| {
        deanonymize(
            &s,
            KEY,
            Some(id),
            json!({"anonymized_text": ["[EMAIL_ADDRESS_1]"]}),
        )
    };
    anonymize(&s, KEY, Some("s1"), json!({"text": ["one@example.com"]}));
    anonymize(&s, KEY, Some("s2"), json!({"text": ["two@example.com"]}));
    anonymize(&s, KEY, Some("s3"), json!({"text": ["three@example.com"]}));
    // Three sessions with a bound of two: the least recently used one is gone.
    assert_eq!(restore("s1"), json!(["[EMAIL_ADDRESS_1]"]));
    assert_eq!(restore("s3"), json!(["three@example.com"]));
    std::thread::sleep(std::time::Duration::from_millis(2500));
    assert_eq!(
        restore("s3"),
        json!(["[EMAIL_ADDRESS_1]"]),
        "session outlived its TTL"
    );
    let m = s.metrics();
    assert!(
        m.contains("anonymizer_session_events_total{event=\"eviction\"}"),
        "{m}"
    );
}

#[test]
fn concurrent_requests_on_one_session_never_share_a_number() {
    let s = TestServer::default();
    let mut placeholders: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let s = &s;
                scope.spawn(move || {
                    (0..5)
                        .map(|i| {
                            let r = anonymize(
                                s,
                                KEY,
                                Some("shared"),
                                json!({"text": [format!("u{t}x{i}@example.com")]}),
                            );
                            r["anonymized_text"][0].as_str().unwrap().to_owned()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    placeholders.sort();
    let mut want: Vec<String> = (1..=40).map(|n| format!("[EMAIL_ADDRESS_{n}]")).collect();
    want.sort();
    assert_eq!(placeholders, want);
}
