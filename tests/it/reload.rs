//! Configuration reload without a restart: SIGHUP and a changed file apply a valid
//! configuration from the next request on; an invalid one is refused with its errors
//! logged, and the running one stays.

use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::support::{base_config, eventually, TestServer, KEY};

const NEW_KEY: &str = "new-key-0123456789abcdef";

fn status_of(s: &TestServer, key: &str, text: &str) -> (u16, String) {
    let r = s.post_raw(
        "/v1/anonymize",
        &json!({"text": [text]}).to_string(),
        &[("x-api-key", key)],
    );
    let out = if r.status == 200 {
        r.json()["anonymized_text"][0]
            .as_str()
            .unwrap_or("")
            .to_owned()
    } else {
        r.json()["error"]["code"].as_str().unwrap_or("").to_owned()
    };
    (r.status, out)
}

fn hangup(s: &TestServer) {
    let ok = Command::new("kill")
        .args(["-HUP", &s.pid().to_string()])
        .status()
        .expect("kill");
    assert!(ok.success());
}

#[test]
fn sighup_applies_a_valid_config_and_refuses_an_invalid_one() {
    let s = TestServer::start(&base_config());
    let text = "SSN 078-05-1120, Project Falcon";
    assert_eq!(
        status_of(&s, KEY, text),
        (200, "SSN [US_SSN_1], Project Falcon".into())
    );

    // Policies, keys and lists change; a new key for a new tenant.
    let next = format!(
        "auth:\n  api_keys:\n    - tenant: test\n      key: {KEY}\n    - tenant: fresh\n      key: {NEW_KEY}\nmodel:\n  enabled: false\ndetection:\n  deny_list:\n    - {{text: Project Falcon, label: ORGANIZATION}}\ntenants:\n  test:\n    policy:\n      actions: {{US_SSN: block}}\n"
    );
    std::fs::write(s.config_path(), next).unwrap();
    hangup(&s);
    assert!(
        eventually(Duration::from_secs(10), || status_of(&s, KEY, text).1
            == "blocked_by_policy"),
        "{}",
        s.log()
    );
    assert_eq!(
        status_of(&s, NEW_KEY, text),
        (200, "SSN [US_SSN_1], [ORGANIZATION_1]".into())
    );

    // A broken file: refused, logged with its errors, and everything stays as it was.
    std::fs::write(
        s.config_path(),
        "detection:\n  threshold: 7\nauth:\n  api_keys:\n    - key: short\n",
    )
    .unwrap();
    hangup(&s);
    let refused = "config reload refused; the running configuration stays";
    assert!(eventually(Duration::from_secs(10), || s
        .log()
        .contains(refused)));
    let log = s.log();
    assert!(log.contains("detection.threshold"), "{log}");
    assert!(
        !log.contains("short\""),
        "no configured value in the log: {log}"
    );
    assert_eq!(status_of(&s, KEY, text), (422, "blocked_by_policy".into()));
    assert_eq!(status_of(&s, NEW_KEY, "Project Falcon").0, 200);
    // The file watch may have seen each write before the signal: counts of one or more.
    let metrics = s.metrics();
    for result in ["applied", "refused"] {
        let line = format!("anonymizer_config_reloads_total{{result=\"{result}\"}} ");
        let count: u64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix(&line))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        assert!(count >= 1, "{result}: {metrics}");
    }
}

#[test]
fn a_changed_file_is_picked_up_without_a_signal() {
    let s = TestServer::start(&base_config());
    assert_eq!(status_of(&s, NEW_KEY, "x").1, "invalid_api_key");
    let next = format!(
        "auth:\n  api_keys:\n    - tenant: fresh\n      key: {NEW_KEY}\nmodel:\n  enabled: false\nserver:\n  threads: 7\n"
    );
    std::fs::write(s.config_path(), next).unwrap();
    assert!(
        eventually(Duration::from_secs(10), || status_of(&s, NEW_KEY, "x").0
            == 200),
        "{}",
        s.log()
    );
    // The old key went with the old file; a start-only key waits for a restart.
    assert_eq!(status_of(&s, KEY, "x").1, "invalid_api_key");
    assert!(s
        .log()
        .contains("config reload: this key takes effect at the next start"));
}
