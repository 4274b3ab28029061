//! Per-call policy over HTTP: per-label operators, thresholds and actions, allow lists,
//! request-time recognizers with custom labels, decision traces, named validated
//! labels, tenants' policies, and routes that block or monitor.

use serde_json::{json, Value};

use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::{base_config, TestServer, KEY, OTHER_KEY};

/// Waits for `lines` in the server's metrics and checks they are all there.
fn assert_metrics(s: &TestServer, lines: &[&str]) -> String {
    let want: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    let metrics = s.metrics_with(&want);
    for line in lines {
        assert!(metrics.contains(line), "{line} not in:\n{metrics}");
    }
    metrics
}

fn anonymize(s: &TestServer, key: &str, body: Value) -> Value {
    let r = s.post_raw("/v1/anonymize", &body.to_string(), &[("x-api-key", key)]);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

/// (text, label, anonymized_text) of each entity.
fn found(v: &Value) -> Vec<(String, String, String)> {
    v["detected_entities"]
        .as_array()
        .expect("entities")
        .iter()
        .map(|e| {
            (
                e["text"].as_str().unwrap().to_owned(),
                e["label"].as_str().unwrap().to_owned(),
                e["anonymized_text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn each_label_gets_its_own_operator_and_the_reversible_ones_restore() {
    let s = TestServer::start(&format!(
        "{}secrets:\n  master_secret: \"0123456789abcdef0123456789abcdef\"\n",
        base_config()
    ));
    let text = "Card 4111 1111 1111 1111, mail bob@example.org, IBAN DE89 3704 0044 0532 0130 00, IP 10.1.2.3";
    let v = anonymize(
        &s,
        KEY,
        json!({"text": [text], "anonymization_config": {"operators": {
            "CREDIT_CARD": {"type": "MASK", "masking_char": "#", "chars_to_mask": 15},
            "EMAIL_ADDRESS": {"type": "HASH"},
            "IP_ADDRESS": {"type": "KEEP"},
            "DEFAULT": {"type": "REDACT"}}}}),
    );
    let hashed = v["detected_entities"][1]["anonymized_text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        hashed.starts_with("[EMAIL_ADDRESS_") && hashed.len() == 28,
        "{hashed}"
    );
    assert_eq!(
        v["anonymized_text"][0],
        format!("Card ###############1111, mail {hashed}, IBAN [IBAN_CODE_1], IP 10.1.2.3")
    );
    assert_eq!(
        found(&v)
            .into_iter()
            .map(|(t, l, _)| (t, l))
            .collect::<Vec<_>>(),
        [
            ("4111 1111 1111 1111".into(), "CREDIT_CARD".into()),
            ("bob@example.org".into(), "EMAIL_ADDRESS".into()),
            ("DE89 3704 0044 0532 0130 00".into(), "IBAN_CODE".into()),
            ("10.1.2.3".into(), "IP_ADDRESS".into()),
        ]
    );
    // With a session the reversible replacements are remembered, each by its own rule.
    let r = s.post_raw(
        "/v1/anonymize",
        &json!({"text": [text], "anonymization_config": {"operators": {
            "CREDIT_CARD": {"type": "MASK", "chars_to_mask": 14, "from_end": true}, "EMAIL_ADDRESS": {"type": "HASH"}}}})
        .to_string(),
        &[("x-api-key", KEY), ("x-session-id", "ops-1")],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let out = r.json()["anonymized_text"][0].as_str().unwrap().to_owned();
    assert!(
        out.starts_with("Card 4111 **************, mail [EMAIL_ADDRESS_"),
        "{out}"
    );
    let back = s.post_raw(
        "/v1/deanonymize",
        &json!({"anonymized_text": [out]}).to_string(),
        &[("x-api-key", KEY), ("x-session-id", "ops-1")],
    );
    assert_eq!(
        back.json()["deanonymized_text"][0],
        // The masked card stays masked: MASK cannot be undone.
        "Card 4111 **************, mail bob@example.org, IBAN DE89 3704 0044 0532 0130 00, IP 10.1.2.3"
    );
}

#[test]
fn thresholds_allow_lists_and_context_apply_per_call() {
    let s = TestServer::start(&base_config());
    let text = "Call +1 415-555-0132 or mail support@example.org and bob@example.org";
    let v = anonymize(
        &s,
        KEY,
        json!({"text": [text], "detection_config": {
            "thresholds": {"PHONE_NUMBER": 0.99},
            "allow_list": ["[a-z]+@example\\.org"], "allow_list_match": "regex"}}),
    );
    assert_eq!(v["anonymized_text"][0], text, "{v}");
    let v = anonymize(
        &s,
        KEY,
        json!({"text": [text], "detection_config": {"allow_list": [" SUPPORT@example.org "]}}),
    );
    assert_eq!(
        v["anonymized_text"][0],
        "Call [PHONE_NUMBER_1] or mail support@example.org and [EMAIL_ADDRESS_1]"
    );
    // A weak pattern of the call's own, and context words that lift it over 0.5.
    let body = |context: Value| {
        json!({"text": ["ref 10023 here", "zip 10023 here"], "detection_config": {
            "ad_hoc_recognizers": [{"name": "zip", "supported_entity": "ZIP",
                "patterns": [{"name": "zip5", "regex": "\\b\\d{5}\\b", "score": 0.3}]}],
            "context": context}})
    };
    let v = anonymize(&s, KEY, body(json!(["zip"])));
    assert_eq!(
        v["anonymized_text"],
        json!(["ref 10023 here", "zip [ZIP_1] here"])
    );
    let v = anonymize(&s, KEY, body(json!([])));
    assert_eq!(
        v["anonymized_text"],
        json!(["ref 10023 here", "zip 10023 here"])
    );
}

#[test]
fn request_time_recognizers_bring_their_own_labels_and_explain_themselves() {
    let s = TestServer::start(&base_config());
    let v = anonymize(
        &s,
        KEY,
        json!({"text": ["Badge EMP-123456 works on Project Falcon; SSN 078-05-1120"],
            "detection_config": {"return_decision_process": true, "ad_hoc_recognizers": [
                {"name": "badges", "supported_entity": "EMPLOYEE_BADGE",
                 "patterns": [{"name": "badge", "regex": "EMP-\\d{6}", "score": 0.6}], "context": ["badge"]},
                {"name": "codenames", "supported_entity": "PROJECT_CODENAME", "deny_list": ["project falcon"]}]}}),
    );
    assert_eq!(
        v["anonymized_text"][0],
        "Badge [EMPLOYEE_BADGE_1] works on [PROJECT_CODENAME_1]; SSN [US_SSN_1]"
    );
    let e = &v["detected_entities"];
    assert_eq!(
        e[0]["explanation"],
        json!({"tier": "custom", "recognizer": "badges", "rules": [], "original_score": 0.6,
               "score": 0.95, "score_context_improvement": 0.35, "supportive_context_word": "Badge",
               "validation": "declared_pattern", "named_evidence": false})
    );
    assert_eq!(e[1]["explanation"]["validation"], "deny_list");
    assert_eq!(e[2]["explanation"]["recognizer"], "us_ssn_cued");
    // The custom label restores like any other.
    let back = s.post_raw(
        "/v1/deanonymize",
        &json!({"anonymized_text": ["[EMPLOYEE_BADGE_1]"], "entities_map": [
            {"text": "EMP-123456", "anonymized_text": "[EMPLOYEE_BADGE_1]"}]})
        .to_string(),
        &[("x-api-key", KEY)],
    );
    assert_eq!(back.json()["deanonymized_text"], json!(["EMP-123456"]));
}

#[test]
fn bad_recognizers_are_refused_with_their_path_and_never_echoed() {
    let s = TestServer::start(&base_config());
    for (recognizers, field) in [
        (
            json!([{"name": "x", "supported_entity": "ZIP", "patterns": [{"regex": "(?<=a)secret-b"}]}]),
            "detection_config.ad_hoc_recognizers[0].patterns[0].regex",
        ),
        (
            json!([{"name": "x", "supported_entity": "lower-case", "deny_list": ["a"]}]),
            "detection_config.ad_hoc_recognizers[0].supported_entity",
        ),
        (
            json!([{"name": "x", "supported_entity": "ZIP"}]),
            "detection_config.ad_hoc_recognizers[0]",
        ),
        (
            json!([{"name": "x", "supported_entity": "ZIP", "patterns": [{"regex": "a{1000}{1000}"}]}]),
            "detection_config.ad_hoc_recognizers[0].patterns[0].regex",
        ),
    ] {
        let r = s.post_raw(
            "/v1/anonymize",
            &json!({"text": ["x"], "detection_config": {"ad_hoc_recognizers": recognizers}})
                .to_string(),
            &[("x-api-key", KEY)],
        );
        let details = r.assert_error(422, "validation_failed");
        assert_eq!(details[0]["field"], field, "{}", r.text);
        assert!(!r.text.contains("secret-b"), "{}", r.text);
    }
    // A label only a call's recognizer declares is unknown to the next call.
    let r = s.post_raw(
        "/v1/anonymize",
        &json!({"text": ["x"], "detection_config": {"thresholds": {"ZIP": 0.5}}}).to_string(),
        &[("x-api-key", KEY)],
    );
    assert_eq!(
        r.assert_error(422, "validation_failed")[0]["field"],
        "detection_config.thresholds.ZIP"
    );
}

#[test]
fn block_refuses_with_labels_and_counts_and_monitor_changes_nothing() {
    let s = TestServer::start(&base_config());
    let text = "SSN 078-05-1120 and 219-09-9999, mail bob@example.org";
    let r = s.post_raw(
        "/v1/anonymize",
        &json!({"text": [text], "anonymization_config": {"actions": {"US_SSN": "block"}}})
            .to_string(),
        &[("x-api-key", KEY)],
    );
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json(),
        json!({"error": {"code": "blocked_by_policy",
            "message": "the policy blocks what this request carries; nothing was processed or forwarded",
            "details": [{"field": "entities.US_SSN", "reason": "found 2 times; blocked by policy"}]}})
    );
    let v = anonymize(
        &s,
        KEY,
        json!({"text": [text], "anonymization_config": {"action": "monitor", "actions": {"EMAIL_ADDRESS": "anonymize"}}}),
    );
    assert_eq!(
        v["anonymized_text"][0],
        "SSN 078-05-1120 and 219-09-9999, mail [EMAIL_ADDRESS_1]"
    );
    assert_eq!(v["detected_entities"][0]["action"], "monitor");
    assert_eq!(v["detected_entities"][0]["anonymized_text"], "078-05-1120");
    assert_eq!(v["detected_entities"][2].get("action"), None);
    let metrics = assert_metrics(
        &s,
        &[
            "anonymizer_policy_actions_total{action=\"block\",label=\"US_SSN\"} 2",
            "anonymizer_policy_actions_total{action=\"monitor\",label=\"US_SSN\"} 2",
        ],
    );
    assert!(!metrics.contains("078-05"), "no values in metrics");
    let log = s.log();
    assert!(
        log.contains("monitored=2") || log.contains("\"monitored\":2"),
        "{log}"
    );
    assert!(!log.contains("078-05-1120"));
}

#[test]
fn a_validated_label_asked_for_by_name_needs_no_context_word() {
    let s = TestServer::start(&base_config());
    for (label, value) in [
        ("IN_AADHAAR", "312345678909"),
        ("ABA_ROUTING_NUMBER", "121000358"),
        ("UK_NHS", "943 476 5919"),
        ("IBAN_CODE", "GB82 WEST 1234 5698 7654 32"),
    ] {
        let text = format!("the number {value} was given");
        let v = anonymize(
            &s,
            KEY,
            json!({"text": [text], "detection_config": {"entities": [label], "return_decision_process": true}}),
        );
        assert_eq!(found(&v).len(), 1, "{label}: {v}");
        assert_eq!(v["detected_entities"][0]["text"], value, "{label}");
        // One digit off fails the checksum: nothing.
        let mut wrong = value.to_owned();
        let last = wrong.pop().unwrap();
        wrong.push(if last == '0' { '1' } else { '0' });
        let v = anonymize(
            &s,
            KEY,
            json!({"text": [format!("the number {wrong} was given")], "detection_config": {"entities": [label]}}),
        );
        assert_eq!(found(&v), [], "{label} {wrong}");
    }
    // In the default set, a bare Aadhaar-valid number among ordinary numbers still needs
    // its context.
    let v = anonymize(&s, KEY, json!({"text": ["order 312345678909 shipped"]}));
    assert_eq!(v["anonymized_text"][0], "order 312345678909 shipped");
}

#[test]
fn a_tenants_policy_applies_to_its_keys_and_bounds_what_requests_change() {
    let s = TestServer::start(&format!(
        "{}tenants:\n  test:\n    policy:\n      threshold: 0.6\n      operators: {{CREDIT_CARD: {{type: MASK, chars_to_mask: 15}}}}\n      actions: {{US_SSN: block}}\n      allow_list: [\"support@example.org\"]\n      ad_hoc_recognizers:\n        - name: badges\n          supported_entity: EMPLOYEE_BADGE\n          patterns: [{{regex: 'EMP-\\d{{6}}', score: 0.9}}]\n    request_may:\n      lower_threshold: false\n      change_actions: false\n",
        base_config()
    ));
    let text = "Card 4111 1111 1111 1111, badge EMP-123456, mail support@example.org";
    let v = anonymize(&s, KEY, json!({"text": [text]}));
    assert_eq!(
        v["anonymized_text"][0],
        "Card ***************1111, badge [EMPLOYEE_BADGE_1], mail support@example.org"
    );
    // Another tenant has none of it.
    let v = anonymize(&s, OTHER_KEY, json!({"text": [text]}));
    assert_eq!(
        v["anonymized_text"][0],
        "Card [CREDIT_CARD_1], badge [EMPLOYEE_ID_1], mail [EMAIL_ADDRESS_1]"
    );
    let r = s.post_raw(
        "/v1/anonymize",
        &json!({"text": ["SSN 078-05-1120"]}).to_string(),
        &[("x-api-key", KEY)],
    );
    r.assert_error(422, "blocked_by_policy");
    let r = s.post_raw(
        "/v1/anonymize",
        &json!({"text": ["x"], "anonymization_config": {"threshold": 0.4, "action": "monitor"},
                "detection_config": {"thresholds": {"EMPLOYEE_BADGE": 0.5}}})
        .to_string(),
        &[("x-api-key", KEY)],
    );
    let fields: Vec<Value> = r
        .assert_error(422, "validation_failed")
        .into_iter()
        .map(|d| d["field"].clone())
        .collect();
    assert_eq!(
        fields,
        [
            json!("anonymization_config.threshold"),
            json!("detection_config.thresholds"),
            json!("anonymization_config.action")
        ]
    );
    // Raising the threshold is allowed.
    let v = anonymize(
        &s,
        KEY,
        json!({"text": [text], "anonymization_config": {"threshold": 0.99}}),
    );
    assert_eq!(
        v["anonymized_text"][0],
        "Card ***************1111, badge EMP-123456, mail support@example.org"
    );
}

fn route(upstream: &str, policy: &str) -> String {
    format!(
        "{}routes:\n  - name: chat\n    match: {{path_prefix: /v1/chat/completions}}\n    upstream: {{url: '{upstream}', read_timeout_ms: 2000, connect_timeout_ms: 1000}}\n    preset: openai_chat\n    auth: passthrough\n    policy: {policy}\n",
        base_config()
    )
}

fn echo() -> Upstream {
    Upstream::start(|req: &Received| {
        let body = req.json();
        Reply::json(
            &json!({"choices": [{"index": 0, "message": {"role": "assistant",
            "content": body["messages"][0]["content"].clone()}}]}),
        )
    })
}

#[test]
fn a_route_that_blocks_sends_nothing_upstream_and_one_that_monitors_changes_no_byte() {
    let up = echo();
    let s = TestServer::start(&route(&up.url(), "{actions: {US_SSN: block}}"));
    let body = r#"{"model":"m","messages":[{"role":"user","content":"SSN 078-05-1120, mail bob@example.org"}]}"#;
    let r = s.post_raw(
        "/v1/chat/completions",
        body,
        &[("authorization", "Bearer sk-x")],
    );
    assert_eq!(r.status, 422, "{}", r.text);
    assert_eq!(r.json()["error"]["code"], "blocked_by_policy");
    assert!(
        up.received().is_empty(),
        "nothing of a blocked request goes upstream"
    );
    assert_metrics(
        &s,
        &["anonymizer_proxy_refusals_total{reason=\"blocked_by_policy\",route=\"chat\"} 1"],
    );

    let up = echo();
    let s = TestServer::start(&route(&up.url(), "{action: monitor}"));
    // Odd spacing and key order: forwarded exactly as sent.
    let body = "{ \"messages\" : [{\"content\":\"SSN 078-05-1120, mail bob@example.org\",\"role\":\"user\"}],\"model\":\"m\"}";
    let r = s.post_raw(
        "/v1/chat/completions",
        body,
        &[("authorization", "Bearer sk-x")],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(String::from_utf8_lossy(&up.received()[0].body), body);
    assert_metrics(
        &s,
        &[
            "anonymizer_policy_actions_total{action=\"monitor\",label=\"EMAIL_ADDRESS\"} 1",
            "anonymizer_policy_actions_total{action=\"monitor\",label=\"US_SSN\"} 1",
        ],
    );
}

#[test]
fn a_tenants_policy_applies_on_the_routes_its_keys_call() {
    let up = echo();
    let s = TestServer::start(&format!(
        "{}routes:\n  - name: chat\n    match: {{path_prefix: /v1/chat/completions}}\n    upstream: {{url: '{}', read_timeout_ms: 2000, connect_timeout_ms: 1000}}\n    preset: openai_chat\n    policy: {{operators: {{EMAIL_ADDRESS: {{type: MASK}}}}}}\ntenants:\n  test:\n    policy:\n      actions: {{US_SSN: block}}\n",
        base_config(),
        up.url()
    ));
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "SSN 078-05-1120, mail bob@example.org"}]});
    let r = s.post_raw(
        "/v1/chat/completions",
        &body.to_string(),
        &[("authorization", &format!("Bearer {KEY}"))],
    );
    r.assert_error(422, "blocked_by_policy");
    assert!(up.received().is_empty());
    // Another tenant gets the route's policy alone.
    let r = s.post_raw(
        "/v1/chat/completions",
        &body.to_string(),
        &[("authorization", &format!("Bearer {OTHER_KEY}"))],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        up.received()[0].json()["messages"][0]["content"],
        "SSN [US_SSN_1], mail ***************"
    );
}

#[test]
fn the_service_wide_policy_lies_under_tenants_routes_and_requests() {
    let up = echo();
    let s = TestServer::start(&format!(
        "{}policy:\n  ad_hoc_recognizers:\n    - name: tickets\n      supported_entity: TICKET_REF\n      patterns: [{{regex: 'TCK-\\d{{6}}', score: 0.9}}]\n  actions: {{US_SSN: monitor}}\ntenants:\n  test:\n    policy:\n      thresholds: {{TICKET_REF: 0.95}}\nroutes:\n  - name: chat\n    match: {{path_prefix: /v1/chat/completions}}\n    upstream: {{url: '{}', read_timeout_ms: 2000, connect_timeout_ms: 1000}}\n    preset: openai_chat\n    auth: passthrough\n",
        base_config(),
        up.url()
    ));
    let text = "Ticket TCK-123456 for SSN 078-05-1120";
    let v = anonymize(&s, OTHER_KEY, json!({"text": [text]}));
    assert_eq!(
        v["anonymized_text"][0],
        "Ticket [TICKET_REF_1] for SSN 078-05-1120"
    );
    // The tenant names the service's custom label for its own threshold.
    let v = anonymize(&s, KEY, json!({"text": [text]}));
    assert_eq!(v["anonymized_text"][0], text);
    // A request may name it too.
    let v = anonymize(
        &s,
        OTHER_KEY,
        json!({"text": [text], "detection_config": {"entities": ["TICKET_REF"]}}),
    );
    assert_eq!(
        found(&v),
        [(
            "TCK-123456".into(),
            "TICKET_REF".into(),
            "[TICKET_REF_1]".into()
        )]
    );
    let r = s.post_raw(
        "/v1/chat/completions",
        &json!({"model": "m", "messages": [{"role": "user", "content": text}]}).to_string(),
        &[("authorization", "Bearer sk-x")],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        up.received()[0].json()["messages"][0]["content"],
        "Ticket [TICKET_REF_1] for SSN 078-05-1120"
    );
}
