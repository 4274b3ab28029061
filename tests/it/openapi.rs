//! The OpenAPI description (`openapi/v1.json`) is true: it is what `GET
//! /v1/openapi.json` serves; a representative set of requests — every success and
//! every error the description declares, bar `500` — gets answers that conform to it
//! (support::openapi checks them, as it checks every other test's answers); and
//! Schemathesis, fuzzing the live server from the description, finds no 5xx and no
//! answer that breaks it.

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::{json, Value};

use crate::support::openapi::{check, doc};
use crate::support::{base_config, free_port, python, scratch_dir, TestServer, KEY};

/// Sends a request (a body with its `Content-Type`) and checks the answer against the
/// description.
/// Returns (status, error code or "").
fn send(
    server: &TestServer,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, String)>,
) -> (u16, String) {
    let url = server.url(path);
    let mut req = match method {
        "GET" => server.client().get(url),
        _ => server.client().post(url),
    };
    if let Some((content_type, body)) = body {
        req = req.header("content-type", content_type).body(body);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().expect("request");
    let status = resp.status().as_u16();
    let response_headers = resp.headers().clone();
    let text = resp.text().expect("body");
    assert!(
        check(method, path, status, &response_headers, &text),
        "{method} {path} is described"
    );
    let code = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v["error"]["code"].as_str().map(str::to_owned));
    (status, code.unwrap_or_default())
}

const JSON: &str = "application/json";

fn post(server: &TestServer, path: &str, headers: &[(&str, &str)], body: Value) -> (u16, String) {
    send(
        server,
        "POST",
        path,
        headers,
        Some((JSON, body.to_string())),
    )
}

#[test]
fn every_declared_answer_is_given_and_conforms_to_the_description() {
    let mut seen: BTreeSet<(String, String, u16, String)> = BTreeSet::new();
    let mut saw = |method: &str, path: &str, got: (u16, String), want: (u16, &str)| {
        assert_eq!((got.0, got.1.as_str()), want, "{method} {path}");
        seen.insert((method.into(), path.into(), got.0, got.1));
    };
    let key = [("x-api-key", KEY)];
    let with_session = [("x-api-key", KEY), ("x-session-id", "chat-1")];
    let (anon, deanon) = ("/v1/anonymize", "/v1/deanonymize");

    let server = TestServer::start(&format!(
        "{}limits:\n  max_body_bytes: 100000\n",
        base_config()
    ));
    for body in [
        json!({"text": ["Mail alice@example.com or call +1 415-555-0132, card 4111 1111 1111 1111"]}),
        json!({"text": ["Mail alice@example.com"], "detection_config": {"entities": ["email", "PHONE_NUMBER"]},
               "anonymization_config": {"deidentification_method": "mask", "threshold": 0.3}}),
        json!({"text": [], "detection_config": null, "anonymization_config": {"deidentification_method": null, "threshold": null}}),
        json!({"text": ["Badge EMP-123456, card 4111 1111 1111 1111, mail bob@example.org"],
               "detection_config": {"thresholds": {"CREDIT_CARD": 0.6}, "allow_list": ["nobody@example.org"],
                   "allow_list_match": "exact", "context": ["badge"], "return_decision_process": true,
                   "ad_hoc_recognizers": [{"name": "badges", "supported_entity": "EMPLOYEE_BADGE",
                       "patterns": [{"name": "badge", "regex": "EMP-\\d{6}", "score": 0.9}],
                       "deny_list": ["Falcon"], "context": ["badge"]}]},
               "anonymization_config": {"operators": {"CREDIT_CARD": {"type": "MASK", "masking_char": "#", "chars_to_mask": 12},
                   "DEFAULT": {"type": "KEEP"}}, "action": "anonymize", "actions": {"EMAIL_ADDRESS": "monitor"}}}),
    ] {
        saw("POST", anon, post(&server, anon, &key, body), (200, ""));
    }
    for method in ["REDACT", "HASH", "ENCRYPT", "PSEUDONYMIZE"] {
        let body = json!({"text": ["Mail bob@example.org", "IBAN DE89 3704 0044 0532 0130 00"],
                          "anonymization_config": {"deidentification_method": method}});
        saw(
            "POST",
            anon,
            post(&server, anon, &with_session, body),
            (200, ""),
        );
    }
    for body in [
        json!({"anonymized_text": ["to [EMAIL_ADDRESS_1]"],
               "entities_map": [{"text": "bob@example.org", "anonymized_text": "[EMAIL_ADDRESS_1]"}]}),
        json!({"anonymized_text": ["to email_address_1"], "entities_map": null, "match": "lenient"}),
    ] {
        saw("POST", deanon, post(&server, deanon, &key, body), (200, ""));
    }
    let body = json!({"anonymized_text": ["to [EMAIL_ADDRESS_1]"]});
    saw(
        "POST",
        deanon,
        post(&server, deanon, &with_session, body),
        (200, ""),
    );
    for path in ["/v1/entities", "/v1/openapi.json"] {
        saw(
            "GET",
            path,
            send(&server, "GET", path, &key, None),
            (200, ""),
        );
        saw(
            "GET",
            path,
            send(&server, "GET", path, &[], None),
            (401, "missing_api_key"),
        );
        let bad = [("x-api-key", "not-a-configured-key-0123")];
        saw(
            "GET",
            path,
            send(&server, "GET", path, &bad, None),
            (401, "invalid_api_key"),
        );
    }
    for path in [anon, deanon] {
        let valid = if path == anon {
            json!({"text": ["x"]})
        } else {
            json!({"anonymized_text": ["x"]})
        };
        let s = &server;
        saw(
            "POST",
            path,
            send(s, "POST", path, &key, Some((JSON, "{\"text\": [".into()))),
            (400, "invalid_json"),
        );
        saw(
            "POST",
            path,
            post(s, path, &[], valid.clone()),
            (401, "missing_api_key"),
        );
        let bad = [("x-api-key", "not-a-configured-key-0123")];
        saw(
            "POST",
            path,
            post(s, path, &bad, valid.clone()),
            (401, "invalid_api_key"),
        );
        let big = Some((JSON, format!("{{\"text\": [\"{}\"]}}", "a".repeat(100_001))));
        saw(
            "POST",
            path,
            send(s, "POST", path, &key, big),
            (413, "payload_too_large"),
        );
        let plain = Some(("text/plain", valid.to_string()));
        saw(
            "POST",
            path,
            send(s, "POST", path, &key, plain),
            (415, "unsupported_media_type"),
        );
        let bad_session = [("x-api-key", KEY), ("x-session-id", "has space")];
        saw(
            "POST",
            path,
            post(s, path, &bad_session, valid),
            (422, "validation_failed"),
        );
        saw(
            "POST",
            path,
            post(s, path, &key, json!({"txt": 1})),
            (422, "validation_failed"),
        );
    }
    for body in [
        json!({"text": ["x"], "anonymization_config": {"threshold": 2}}),
        json!({"text": ["x"], "detection_config": {"entities": []}}),
        json!({"text": ["x"], "detection_config": {"entities": ["NOT_A_LABEL"]}}),
        json!(["not", "an", "object"]),
    ] {
        saw(
            "POST",
            anon,
            post(&server, anon, &key, body),
            (422, "validation_failed"),
        );
    }
    let blocked = json!({"text": ["SSN 078-05-1120"], "anonymization_config": {"actions": {"US_SSN": "block"}}});
    saw(
        "POST",
        anon,
        post(&server, anon, &key, blocked),
        (422, "blocked_by_policy"),
    );
    let ambiguous = json!({"anonymized_text": ["x"], "entities_map": [
        {"text": "a", "anonymized_text": "[P_1]"}, {"text": "b", "anonymized_text": "[P_1]"}]});
    saw(
        "POST",
        deanon,
        post(&server, deanon, &key, ambiguous),
        (422, "validation_failed"),
    );
    // Not operations, but still our error shape.
    for (method, path, status) in [("GET", anon, 405u16), ("GET", "/v1/nothing", 404)] {
        let r = server.get(path, &key);
        assert_eq!(r.status, status);
        let schema = jsonschema::draft202012::new(&{
            let mut root = doc().clone();
            root["$ref"] = json!("#/components/schemas/Error");
            root
        })
        .expect("schema");
        assert!(schema.is_valid(&r.json()), "{method} {path}: {}", r.text);
    }
    let served = server.get("/v1/openapi.json", &key);
    let file = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.json"))
        .expect("read openapi/v1.json");
    assert!(
        served.text == file,
        "the served description is the file, byte for byte"
    );

    // A shared session store that does not answer, and a tiny rate limit.
    let limited = TestServer::start(&format!(
        "{}secrets:\n  master_secret: {}\nsessions:\n  store: redis\n  redis:\n    url: redis://127.0.0.1:{}\n    \
         timeout_ms: 200\n    connect_timeout_ms: 100\nrate_limit:\n  enabled: true\n  requests_per_sec: 0.001\n  burst: 4\n",
        base_config(),
        "s".repeat(32),
        free_port()
    ));
    let body = json!({"text": ["x"]});
    saw(
        "POST",
        anon,
        post(&limited, anon, &with_session, body),
        (503, "session_store_unavailable"),
    );
    let body = json!({"anonymized_text": ["x"]});
    saw(
        "POST",
        deanon,
        post(&limited, deanon, &with_session, body),
        (503, "session_store_unavailable"),
    );
    for path in ["/v1/entities", "/v1/openapi.json"] {
        saw(
            "GET",
            path,
            send(&limited, "GET", path, &key, None),
            (200, ""),
        );
    }
    for path in ["/v1/entities", "/v1/openapi.json"] {
        saw(
            "GET",
            path,
            send(&limited, "GET", path, &key, None),
            (429, "rate_limited"),
        );
    }
    saw(
        "POST",
        anon,
        post(&limited, anon, &key, json!({"text": ["x"]})),
        (429, "rate_limited"),
    );
    let body = json!({"anonymized_text": ["x"]});
    saw(
        "POST",
        deanon,
        post(&limited, deanon, &key, body),
        (429, "rate_limited"),
    );

    // A model tier that cannot answer in time.
    let slow = TestServer::start(&format!(
        "auth:\n  api_keys:\n    - tenant: test\n      key: {KEY}\nmodel:\n  inference_timeout_ms: 1\n"
    ));
    // Long enough that no inference finishes in 1 ms.
    let line = "Hi, I'm Johanna Smithson from 42 Elm Street, Springfield. ".repeat(40);
    let body = json!({"text": [line]});
    saw(
        "POST",
        anon,
        post(&slow, anon, &key, body),
        (503, "detection_unavailable"),
    );

    // Every declared (operation, status) was answered, bar 500 (a bug, unreachable).
    let mut declared = BTreeSet::new();
    for (path, item) in doc()["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("item") {
            for status in op["responses"].as_object().expect("responses").keys() {
                if status != "500" {
                    declared.insert((method.to_ascii_uppercase(), path.clone(), status.clone()));
                }
            }
        }
    }
    let answered: BTreeSet<(String, String, String)> = seen
        .iter()
        .map(|(m, p, s, _)| (m.clone(), p.clone(), s.to_string()))
        .collect();
    let missing: Vec<_> = declared.difference(&answered).collect();
    assert!(
        missing.is_empty(),
        "declared but never answered: {missing:?}"
    );
}

/// Schemathesis's options after the URL and the key: the API page of the book shows the same.
const SCHEMATHESIS_ARGS: &str =
    "--checks all --max-examples 100 --seed 20261123 --workers 2 --generation-database :memory:";

#[test]
fn the_docs_show_the_schemathesis_command_ci_runs() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/api.md"))
        .expect("docs/src/api.md");
    let command = "--config-file tests/clients/schemathesis.toml run openapi/v1.json";
    assert!(page.contains(command), "docs/src/api.md lacks {command}");
    assert!(
        page.contains(SCHEMATHESIS_ARGS),
        "docs/src/api.md lacks {SCHEMATHESIS_ARGS}"
    );
}

/// Schemathesis (pinned in tests/clients/requirements.txt) against the live server:
/// every operation, with a key, examples, boundary cases and fuzzing, positive and
/// negative, all checks. docs/src/api.md shows the same command.
#[test]
fn schemathesis_finds_no_server_error_and_no_answer_outside_the_description() {
    let server = TestServer::default();
    let schemathesis = python().with_file_name("schemathesis");
    let root = env!("CARGO_MANIFEST_DIR");
    // Its example database and reports stay out of the repository.
    let scratch = scratch_dir();
    let out = Command::new(&schemathesis)
        .current_dir(&scratch)
        .arg("--config-file")
        .arg(format!("{root}/tests/clients/schemathesis.toml"))
        .arg("run")
        // The file, which `GET /v1/openapi.json` serves byte for byte (the test above):
        // loaded from its URL, Schemathesis leaves that operation out.
        .arg(format!("{root}/openapi/v1.json"))
        .args(["--url", &server.url("")])
        .args(["--header", &format!("X-API-Key: {KEY}")])
        .args(SCHEMATHESIS_ARGS.split(' '))
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{} does not run ({e}): run scripts/setup.sh",
                schemathesis.display()
            )
        });
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "Schemathesis found problems:\n{text}");
    for line in ["Selected: 4/4", "Tested: 4", "No issues found"] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    assert!(!text.contains("errored"), "{text}");
}
