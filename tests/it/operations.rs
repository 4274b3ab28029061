use std::process::Command;

use serde_json::json;

use crate::support::{base_config, scratch_dir, TestServer, KEY};

#[test]
fn health_and_readiness_need_no_key_and_entities_does() {
    let s = TestServer::default();
    let r = s.get("/healthz", &[]);
    assert_eq!((r.status, r.json()), (200, json!({"status": "ok"})));
    let r = s.get("/readyz", &[]);
    assert_eq!(
        (r.status, r.json()),
        (
            200,
            json!({"status": "ready", "tiers": ["patterns", "dictionary"], "models": [],
                "session_store": {"type": "memory", "reachable": true}})
        )
    );
    s.get("/v1/entities", &[])
        .assert_error(401, "missing_api_key");
    let r = s.get("/v1/entities", &[("x-api-key", KEY)]).json();
    let email = r["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["label"] == "EMAIL_ADDRESS")
        .expect("EMAIL_ADDRESS listed")
        .clone();
    assert_eq!(
        email,
        json!({"label": "EMAIL_ADDRESS", "aliases": ["EMAIL"], "default": true,
               "description": "E-mail addresses, including obfuscated forms"})
    );
    assert_eq!(r["tiers"], json!(["patterns", "dictionary"]));
    assert!(r["methods"].as_array().unwrap().contains(&json!("REDACT")));
}

#[test]
fn metrics_show_the_request_just_made_without_personal_data() {
    let s = TestServer::default();
    let r = s.post(
        "/v1/anonymize",
        &json!({"text": ["mail carol.private@example.com", "ok"]}),
    );
    assert_eq!(r.status, 200);
    s.post_raw("/v1/anonymize", "{}", &[]);
    let m = expect_metrics(
        &s,
        &[
            "anonymizer_requests_total{endpoint=\"anonymize\",status=\"200\",tenant=\"test\"} 1",
            "anonymizer_requests_total{endpoint=\"anonymize\",status=\"401\",tenant=\"-\"} 1",
            "anonymizer_texts_total{endpoint=\"anonymize\"} 2",
            "anonymizer_characters_total{endpoint=\"anonymize\"} 32",
            "anonymizer_entities_total{label=\"EMAIL_ADDRESS\"} 1",
            "anonymizer_request_duration_seconds_count{endpoint=\"anonymize\"} 2",
        ],
    );
    assert!(!m.contains("carol"), "personal data in metrics");
}

#[test]
fn the_request_log_has_one_line_per_request_and_no_text_entities_or_keys() {
    let s = TestServer::default();
    let r = s.post(
        "/v1/anonymize",
        &json!({"text": ["mail dave.private@example.com now"]}),
    );
    let request_id = r.header("x-request-id").expect("request id").to_owned();
    s.post(
        "/v1/deanonymize",
        &json!({"anonymized_text": ["[EMAIL_ADDRESS_1]"],
                "entities_map": [{"text": "dave.private@example.com", "anonymized_text": "[EMAIL_ADDRESS_1]"}]}),
    );
    s.post(
        "/v1/anonymize",
        &json!({"text": ["dave.private@example.com"], "bad field dave.private@example.com": 1}),
    );
    // The log line is written after the response: wait for all three.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while s.log().matches(" request ").count() < 4 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let log = s.log();
    let line = log
        .lines()
        .find(|l| l.contains(&request_id))
        .unwrap_or_else(|| panic!("no line for {request_id}:\n{log}"));
    for field in [
        "endpoint=\"anonymize\"",
        "status=200",
        "tenant=\"test\"",
        "texts=1",
        "entities=1",
        "duration_ms=",
    ] {
        assert!(line.contains(field), "{field} missing in {line}");
    }
    assert!(
        !log.contains("dave.private"),
        "personal data in the log:\n{log}"
    );
    assert!(!log.contains(KEY), "API key in the log");
}

#[test]
fn sigterm_shuts_down_gracefully_with_exit_code_zero() {
    let mut s = TestServer::default();
    assert!(s.log().contains(&format!("listening on http://{}", s.addr)));
    let status = s.terminate();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn json_log_format_writes_one_object_per_line() {
    let s = TestServer::start(&format!("{}logging:\n  format: json\n", base_config()));
    s.get("/healthz", &[]);
    std::thread::sleep(std::time::Duration::from_millis(100));
    let log = s.log();
    let line = log
        .lines()
        .find(|l| l.contains("\"endpoint\":\"healthz\""))
        .unwrap_or_else(|| panic!("no healthz line:\n{log}"));
    let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
    assert_eq!(v["status"], 200);
}

fn anonymizer(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .args(args)
        .current_dir(dir)
        .env_remove("ANONYMIZER_CONFIG")
        .env_remove("ANONYMIZER_API_KEYS")
        .output()
        .expect("run anonymizer")
}

#[test]
fn check_config_accepts_the_shipped_config_and_rejects_bad_ones_with_locations() {
    let root = env!("CARGO_MANIFEST_DIR");
    let ok = anonymizer(&["check-config"], std::path::Path::new(root));
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("conf/anonymizer.yaml is valid"));

    let dir = scratch_dir();
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        "server:\n  listen: here\nauth:\n  api_keys:\n    - key: tiny-secret\ndetection:\n  threshold: 7\n",
    )
    .unwrap();
    let out = anonymizer(&["check-config", "--config", bad.to_str().unwrap()], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for path in ["server.listen", "auth.api_keys[0]", "detection.threshold"] {
        assert!(err.contains(path), "{path} not reported:\n{err}");
    }
    assert!(!err.contains("tiny-secret"), "secret echoed:\n{err}");

    std::fs::write(&bad, "server:\n  lisen: x\n").unwrap();
    let out = anonymizer(&["check-config", "--config", bad.to_str().unwrap()], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));

    let out = anonymizer(&["check-config", "--config", "/nonexistent.yaml"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let out = anonymizer(&["--bogus"], &dir);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn with_no_arguments_the_repository_default_config_is_served() {
    // The run command of docs/src/getting-started.md: the binary, no arguments, from the
    // repository root.
    let [port, metrics] = crate::support::free_ports();
    let dir = scratch_dir();
    let log = std::fs::File::create(dir.join("log")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ANONYMIZER_CONFIG")
        .env_remove("ANONYMIZER_API_KEYS")
        .env("ANONYMIZER_LISTEN", format!("127.0.0.1:{port}"))
        .env("ANONYMIZER_METRICS_LISTEN", format!("127.0.0.1:{metrics}"))
        .stderr(log)
        .spawn()
        .unwrap();
    let client = reqwest::blocking::Client::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut ok = false;
    while std::time::Instant::now() < deadline && !ok {
        ok = client
            .get(format!("http://127.0.0.1:{port}/healthz"))
            .send()
            .is_ok_and(|r| r.status() == 200);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    let log = std::fs::read_to_string(dir.join("log")).unwrap();
    assert!(ok, "not healthy:\n{log}");
    assert!(log.contains("config=conf/anonymizer.yaml"), "{log}");
}

#[test]
fn the_default_config_serves_the_model_tier_end_to_end() {
    // The shipped default loads the NER model; without it (scripts/fetch-models.sh not
    // run) the service refuses to start, so this test fails rather than skips.
    let s = TestServer::with_model();
    let r = s.get("/readyz", &[]);
    assert_eq!(
        r.json()["tiers"],
        json!(["patterns", "dictionary", "model"])
    );
    // Which models, and exactly which weights: the checksums of the tracked files,
    // computed by coreutils rather than by our own code.
    let identity = |dir: &str| {
        let sum = Command::new("sha256sum")
            .arg(format!("models/{dir}/model.onnx"))
            .output()
            .expect("sha256sum runs");
        let sum = String::from_utf8(sum.stdout).unwrap();
        let config: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(format!("models/{dir}/config.json")).unwrap(),
        )
        .unwrap();
        assert!(config["anonymizer"]["version"].is_string());
        json!({"name": dir,
               "version": config["anonymizer"]["version"],
               "sha256": sum.split_whitespace().next().unwrap()})
    };
    assert_eq!(
        r.json()["models"],
        json!([
            identity("anonymizer-ner"),
            identity("anonymizer-ner-multilingual")
        ])
    );
    let r = s.post(
        "/v1/anonymize",
        &json!({"text": ["Hi, I'm John Smith from 42 Elm Street, Springfield. Email john@example.com"],
                "detection_config": {"entities": ["PERSON", "EMAIL_ADDRESS"]}}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["anonymized_text"],
        json!(["Hi, I'm [PERSON_1] from 42 Elm Street, Springfield. Email [EMAIL_ADDRESS_1]"])
    );
}

#[test]
fn a_request_only_for_labels_the_model_does_not_produce_never_runs_it_and_a_proved_address_costs_it_one_token(
) {
    // The model is the cost of a request; asking only for pattern labels must
    // not pay it. The model's own counters say whether it ran.
    let s = TestServer::with_model();
    let text = "Write to John Smith at jane.doe@example.com today.";
    let anonymize = |entities: serde_json::Value| {
        let r = s.post(
            "/v1/anonymize",
            &json!({"text": [text, text], "detection_config": {"entities": entities}}),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()["anonymized_text"].clone()
    };
    assert_eq!(
        anonymize(json!(["EMAIL_ADDRESS", "IBAN_CODE", "US_SSN"])),
        json!([
            "Write to John Smith at [EMAIL_ADDRESS_1] today.",
            "Write to John Smith at [EMAIL_ADDRESS_1] today."
        ])
    );
    let m = expect_metrics(
        &s,
        &[
            "anonymizer_requests_total{endpoint=\"anonymize\",status=\"200\",tenant=\"test\"} 1",
            "anonymizer_model_forward_passes_total 0",
            "anonymizer_model_windows_total 0",
            "anonymizer_model_windows_reread_total 0",
            "anonymizer_model_tokens_total{kind=\"text\"} 0",
            "anonymizer_model_inference_seconds_total 0",
            "anonymizer_pattern_scan_fallbacks_total 0",
        ],
    );
    // The pattern scan built lazy-DFA states for this text, and the gauge counts them.
    let cached: u64 = m
        .lines()
        .find_map(|l| l.strip_prefix("anonymizer_pattern_scan_cache_bytes "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no cache gauge in\n{m}"));
    assert!(cached > 0, "{m}");

    // The same texts with PERSON: both windows run, in one pass, without padding (they are
    // equally long). The address the pattern tier proved is one token to the model,
    // its last, 10 tokens each: [CLS] write to john smith at com today . [SEP]
    assert_eq!(
        anonymize(json!(["EMAIL_ADDRESS", "PERSON"])),
        json!([
            "Write to [PERSON_1] at [EMAIL_ADDRESS_1] today.",
            "Write to [PERSON_1] at [EMAIL_ADDRESS_1] today."
        ])
    );
    expect_metrics(
        &s,
        &[
            "anonymizer_requests_total{endpoint=\"anonymize\",status=\"200\",tenant=\"test\"} 2",
            "anonymizer_model_forward_passes_total 1",
            "anonymizer_model_windows_total 2",
            "anonymizer_model_tokens_total{kind=\"text\"} 20",
            "anonymizer_model_tokens_total{kind=\"padding\"} 0",
        ],
    );
    // A request that does not replace the address has the model read all of it, 16
    // tokens each: [CLS] write to john smith at jane . doe @ example . com today . [SEP]
    assert_eq!(
        anonymize(json!(["PERSON"])),
        json!([
            "Write to [PERSON_1] at jane.doe@example.com today.",
            "Write to [PERSON_1] at jane.doe@example.com today."
        ])
    );
    expect_metrics(
        &s,
        &[
            "anonymizer_requests_total{endpoint=\"anonymize\",status=\"200\",tenant=\"test\"} 3",
            "anonymizer_model_forward_passes_total 2",
            "anonymizer_model_windows_total 4",
            "anonymizer_model_tokens_total{kind=\"text\"} 52",
        ],
    );
}

#[test]
fn a_log_lines_timestamp_and_trace_id_cost_the_model_one_token_each() {
    // The fields tier drops whatever the model tags in log machinery, so the model
    // reads a long machinery value as one token: here 34 tokens instead of 72, the
    // timestamp's 16 and the trace id's 24 standing as their last (`##z`, `##b`).
    let s = TestServer::with_model();
    let line = r#"{"ts":"2026-11-04T06:16:22.259Z","trace_id":"78e510617311d8a3c2ce6f447ed4d57b","msg":"refund for Maria Lopez"}"#;
    let r = s.post(
        "/v1/anonymize",
        &json!({"text": [line], "detection_config": {"entities": ["PERSON"]}}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["anonymized_text"],
        json!([line.replace("Maria Lopez", "[PERSON_1]")])
    );
    expect_metrics(
        &s,
        &[
            "anonymizer_model_windows_total 1",
            "anonymizer_model_tokens_total{kind=\"text\"} 34",
        ],
    );
}

/// Waits until `/metrics` has every line of `want` and returns the whole text.
fn expect_metrics(s: &TestServer, want: &[&str]) -> String {
    let want: Vec<String> = want.iter().map(|l| (*l).to_owned()).collect();
    let m = s.metrics_with(&want);
    for line in &want {
        assert!(m.contains(line.as_str()), "missing {line} in\n{m}");
    }
    m
}

#[test]
fn jemalloc_runs_with_the_settings_the_binary_names() {
    // jemalloc's own report at exit: what it read from the binary, and what it runs with.
    let out = Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .arg("check-config")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ANONYMIZER_CONFIG")
        .env("_RJEM_MALLOC_CONF", "stats_print:true")
        .output()
        .expect("run anonymizer");
    assert_eq!(out.status.code(), Some(0));
    let report = String::from_utf8_lossy(&out.stderr);
    let global = format!(
        "Global variable malloc_conf: \"{}\"\n",
        anonymizer::app::allocator::JEMALLOC
    );
    assert!(report.contains(&global), "{report}");
    for setting in [
        "opt.narenas: 2",
        "opt.cache_oblivious: false",
        "opt.tcache_max: 4096",
    ] {
        assert!(report.contains(&format!("  {setting}\n")), "{report}");
    }
}

#[test]
fn the_server_runs_with_its_allocator_settings_unless_the_operator_set_one() {
    // glibc reads them before `main`: the server re-executed itself with them, its
    // process id unchanged (the harness waited on the pid it spawned).
    let s = TestServer::default();
    let shipped = format!(
        "allocator=jemalloc {}; glibc GLIBC_TUNABLES={}\n",
        anonymizer::app::allocator::JEMALLOC,
        anonymizer::app::allocator::TUNABLES
    );
    assert!(s.log().contains(&shipped), "{}", s.log());
    // The operator's settings: glibc's alone, jemalloc's after ours.
    let s = TestServer::start_with_env(
        &base_config(),
        &[
            ("MALLOC_ARENA_MAX", "4"),
            ("_RJEM_MALLOC_CONF", "narenas:4"),
        ],
    );
    let log = s.log();
    assert!(
        log.contains(&format!(
            "allocator=jemalloc {},narenas:4; glibc MALLOC_ARENA_MAX=4\n",
            anonymizer::app::allocator::JEMALLOC
        )),
        "{log}"
    );
    assert!(!log.contains("GLIBC_TUNABLES"), "{log}");
}
