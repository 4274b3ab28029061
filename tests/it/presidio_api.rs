//! Presidio's REST API on its own listener: the payloads of Presidio's documentation
//! and end-to-end tests, with exact answers, and LiteLLM's Presidio guardrail (the real
//! package) pointed at it.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::support::{base_config, free_port, python, TestServer, KEY};

/// A server with the Presidio listener on `port`: keyless (loopback) or reading our key
/// from `header`.
fn server(port: u16, header: &str) -> TestServer {
    TestServer::start(&format!(
        "{}presidio_api:\n  listen: \"127.0.0.1:{port}\"\n  api_key_header: \"{header}\"\n",
        base_config()
    ))
}

fn post(port: u16, path: &str, body: &Value, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut req = reqwest::blocking::Client::new()
        .post(format!("http://127.0.0.1:{port}{path}"))
        .header("content-type", "application/json")
        .body(body.to_string());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().expect("request");
    let status = r.status().as_u16();
    (status, r.json().expect("json"))
}

/// `(entity_type, start, end)` of each result.
fn spans(results: &Value) -> Vec<(String, u64, u64)> {
    results
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| {
            (
                r["entity_type"].as_str().unwrap().to_owned(),
                r["start"].as_u64().unwrap(),
                r["end"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn analyze_answers_presidios_result_list_for_its_own_payloads() {
    let port = free_port();
    let _s = server(port, "");
    // Presidio's README example.
    let (status, v) = post(
        port,
        "/analyze",
        &json!({"text": "John Smith drivers license is AC432223", "language": "en"}),
        &[],
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        spans(&v),
        [
            ("PERSON".into(), 0, 10),
            ("US_DRIVER_LICENSE".into(), 30, 38)
        ]
    );
    assert_eq!(
        v[1],
        json!({"entity_type": "US_DRIVER_LICENSE", "start": 30, "end": 38, "score": 0.5,
               "analysis_explanation": null,
               "recognition_metadata": {"recognizer_name": "anonymizer", "recognizer_identifier": "US_DRIVER_LICENSE"}})
    );
    // Presidio's e2e ad-hoc recognizers: a weak pattern with context, and a deny list;
    // offsets are code points, as in Python.
    let (_, v) = post(
        port,
        "/analyze",
        &json!({"text": "Mr. Müller's zip code is 90210", "language": "en", "score_threshold": 0.3,
            "entities": ["ZIP", "MR_TITLE"],
            "ad_hoc_recognizers": [
                {"name": "Zip code Recognizer", "supported_language": "en", "supported_entity": "ZIP",
                 "patterns": [{"name": "zip code (weak)", "regex": "(\\b\\d{5}(?:\\-\\d{4})?\\b)", "score": 0.01}],
                 "context": ["zip", "code"]},
                {"name": "Mr. Recognizer", "supported_language": "en", "supported_entity": "MR_TITLE",
                 "deny_list": ["Mr", "Mr.", "Mister"]}],
            "return_decision_process": true}),
        &[],
    );
    assert_eq!(
        spans(&v),
        [("MR_TITLE".into(), 0, 3), ("ZIP".into(), 25, 30)],
        "{v}"
    );
    assert_eq!(v[1]["score"], 0.36);
    assert_eq!(
        v[1]["analysis_explanation"],
        json!({"recognizer": "Zip code Recognizer", "pattern_name": "Zip code Recognizer",
               "original_score": 0.01, "score": 0.36, "textual_explanation": "custom tier, Zip code Recognizer",
               "score_context_improvement": 0.35, "supportive_context_word": "zip", "validation_result": null})
    );
    // allow_list (exact) and a checksum-validated entity asked for by name.
    let (_, v) = post(
        port,
        "/analyze",
        &json!({"text": "my aadhaar 312345678909, mail a@example.org or b@example.org", "language": "en",
                "entities": ["IN_AADHAAR", "EMAIL_ADDRESS"], "allow_list": ["a@example.org"]}),
        &[],
    );
    assert_eq!(
        spans(&v),
        [
            ("IN_AADHAAR".into(), 11, 23),
            ("EMAIL_ADDRESS".into(), 47, 60)
        ]
    );
    // Our error shape for a bad request.
    let (status, v) = post(port, "/analyze", &json!({"text": "x"}), &[]);
    assert_eq!(
        (status, &v["error"]["details"][0]["field"]),
        (422, &json!("language"))
    );
}

#[test]
fn anonymize_and_deanonymize_follow_presidios_operators() {
    let port = free_port();
    let _s = server(port, "");
    // Presidio's documentation example.
    let (status, v) = post(
        port,
        "/anonymize",
        &json!({"text": "hello world, my name is Jane Doe. My number is: 034453334",
            "anonymizers": {"DEFAULT": {"type": "replace", "new_value": "ANONYMIZED"},
                            "PHONE_NUMBER": {"type": "mask", "masking_char": "*", "chars_to_mask": 4, "from_end": true}},
            "analyzer_results": [
                {"start": 24, "end": 32, "score": 0.8, "entity_type": "NAME"},
                {"start": 24, "end": 28, "score": 0.8, "entity_type": "FIRST_NAME"},
                {"start": 48, "end": 57, "score": 0.95, "entity_type": "PHONE_NUMBER"}]}),
        &[],
    );
    assert_eq!(status, 200);
    assert_eq!(
        v,
        json!({"text": "hello world, my name is ANONYMIZED. My number is: 03445****",
               "items": [
                   {"start": 24, "end": 34, "entity_type": "NAME", "text": "ANONYMIZED", "operator": "replace"},
                   {"start": 50, "end": 59, "entity_type": "PHONE_NUMBER", "text": "03445****", "operator": "mask"}]})
    );
    let (_, v) = post(
        port,
        "/anonymize",
        &json!({"text": "Jane Doe, jane@example.org, Zoë",
            "anonymizers": {"EMAIL_ADDRESS": {"type": "hash"}, "PERSON": {"type": "redact"}},
            "analyzer_results": [
                {"start": 0, "end": 8, "score": 0.9, "entity_type": "PERSON"},
                {"start": 10, "end": 26, "score": 1.0, "entity_type": "EMAIL_ADDRESS"},
                {"start": 28, "end": 31, "score": 0.9, "entity_type": "LOCATION"}]}),
        &[],
    );
    assert_eq!(
        v["text"],
        // sha256("jane@example.org"), and the default operator: `<ENTITY_TYPE>`.
        ", 13d855ce931073d4924ac377cda0e9a543908b9d6607727c8033d729c65eced6, <LOCATION>"
    );
    // encrypt, then decrypt with the same key: the text comes back.
    let key = "WmZq4t7w!z%C&F)J";
    let (_, sealed) = post(
        port,
        "/anonymize",
        &json!({"text": "My name is Jane", "anonymizers": {"DEFAULT": {"type": "encrypt", "key": key}},
                "analyzer_results": [{"start": 11, "end": 15, "score": 0.8, "entity_type": "NAME"}]}),
        &[],
    );
    let token = sealed["items"][0]["text"].as_str().unwrap().to_owned();
    let (_, opened) = post(
        port,
        "/deanonymize",
        &json!({"text": format!("My name is {token}"),
                "deanonymizers": {"DEFAULT": {"type": "decrypt", "key": key}},
                "anonymizer_results": [{"start": 11, "end": 11 + token.len(), "entity_type": "NAME"}]}),
        &[],
    );
    assert_eq!(opened["text"], "My name is Jane");
    let (status, v) = post(
        port,
        "/anonymize",
        &json!({"text": "x", "anonymizers": {"DEFAULT": {"type": "encrypt", "key": "short"}}}),
        &[],
    );
    assert_eq!(
        (status, &v["error"]["details"][0]["field"]),
        (422, &json!("anonymizers.DEFAULT.key"))
    );
}

#[test]
fn the_listener_takes_our_keys_in_its_header_and_lists_what_it_finds() {
    let port = free_port();
    let s = server(port, "x-presidio-key");
    let body = json!({"text": "mail a@example.org", "language": "en"});
    let (status, v) = post(port, "/analyze", &body, &[]);
    assert_eq!(
        (status, &v["error"]["code"]),
        (401, &json!("missing_api_key"))
    );
    let (status, v) = post(port, "/analyze", &body, &[("x-presidio-key", KEY)]);
    assert_eq!(
        (status, spans(&v)),
        (200, vec![("EMAIL_ADDRESS".into(), 5, 18)])
    );
    let get = |path: &str| {
        reqwest::blocking::Client::new()
            .get(format!("http://127.0.0.1:{port}{path}"))
            .header("x-presidio-key", KEY)
            .send()
            .expect("request")
    };
    let entities: Vec<String> = get("/supportedentities").json().expect("json");
    assert!(entities.contains(&"IN_AADHAAR".to_owned()) && entities.contains(&"PERSON".to_owned()));
    let recognizers: Vec<String> = get("/recognizers").json().expect("json");
    assert!(
        recognizers.contains(&"credit_card".to_owned()),
        "{recognizers:?}"
    );
    assert_eq!(
        get("/health").text().unwrap(),
        "\"Presidio Analyzer service is up\""
    );
    // The /v1 API stays where it was; the Presidio paths are not on it.
    assert_eq!(s.post("/analyze", &body).status, 404);
}

#[test]
fn a_keyless_listener_must_be_on_loopback() {
    let dir = crate::support::scratch_dir();
    let config = dir.join("c.yaml");
    std::fs::write(
        &config,
        format!(
            "{}presidio_api:\n  listen: \"0.0.0.0:5002\"\n  api_key_header: \"\"\n",
            base_config()
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .arg("check-config")
        .arg("--config")
        .arg(&config)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("presidio_api.api_key_header: may be empty (no key) only when presidio_api.listen is a loopback address"),
        "{err}"
    );
}

#[test]
fn litellms_presidio_guardrail_masks_through_it() {
    let port = free_port();
    let _s = server(port, "");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/clients/litellm_presidio.py"
    );
    let mut child = Command::new(python())
        .arg(script)
        .arg(format!("http://127.0.0.1:{port}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python with litellm (scripts/setup.sh)");
    let cases = [
        json!({"text": "Mail jane@example.org or call +1 415-555-0132."}),
        json!({"text": "Mail jane@example.org, jane@example.org and bob@example.org.", "parse_pii": true}),
        json!({"text": "SSN 078-05-1120", "entities": {"US_SSN": "BLOCK"}}),
        json!({"text": "card 4111 1111 1111 1111, mail jane@example.org", "entities": {"CREDIT_CARD": "MASK"}}),
    ];
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for case in &cases {
            writeln!(stdin, "{case}").unwrap();
        }
    }
    let out = child.wait_with_output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(
        lines,
        [
            json!({"text": "Mail <EMAIL_ADDRESS> or call <PHONE_NUMBER>."}),
            json!({"text": "Mail <EMAIL_ADDRESS_1>, <EMAIL_ADDRESS_2> and <EMAIL_ADDRESS_3>.",
                   "tokens": {"<EMAIL_ADDRESS_1>": "jane@example.org", "<EMAIL_ADDRESS_2>": "jane@example.org",
                              "<EMAIL_ADDRESS_3>": "bob@example.org"}}),
            json!({"error": "BlockedPiiEntityError"}),
            json!({"text": "card <CREDIT_CARD>, mail jane@example.org"}),
        ]
    );
}
