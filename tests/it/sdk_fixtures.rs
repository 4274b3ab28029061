//! The requests the real SDKs sent (recorded by `tests/clients/record.py` into
//! `tests/fixtures/{openai,anthropic}-python/`), replayed byte for byte with their own
//! headers through the proxy served with the example configs: every personal value
//! becomes its placeholder, nothing else changes (signed blocks included), and the
//! SDK's credential (a key of ours, where that SDK puts it) is accepted and not forwarded.

use std::path::PathBuf;

use serde_json::Value;

use crate::sdk_clients::{serve_example, BONES, EMAIL, PHONE, PROVIDER_KEY};
use crate::support::upstream::Upstream;
use crate::support::KEY;

/// Embedded JSON documents (tool-call arguments) as values, so that two serializations
/// of one document compare equal.
fn normalize(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Ok(inner @ (Value::Object(_) | Value::Array(_))) = serde_json::from_str(s) {
                *value = inner;
                normalize(value);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        Value::Object(map) => map.values_mut().for_each(normalize),
        _ => {}
    }
}

/// Every string with each personal value replaced by its placeholder.
fn anonymized(value: &mut Value) {
    match value {
        Value::String(s) => {
            *s = s
                .replace(EMAIL, "[EMAIL_ADDRESS_1]")
                .replace(PHONE, "[PHONE_NUMBER_1]")
                .replace(BONES, "[PERSON_1]");
        }
        Value::Array(items) => items.iter_mut().for_each(anonymized),
        Value::Object(map) => map.values_mut().for_each(anonymized),
        _ => {}
    }
}

#[test]
fn recorded_sdk_requests_go_upstream_with_exactly_their_personal_values_replaced() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut replayed = 0;
    for (folder, auth) in [
        ("openai-python", "authorization"),
        ("anthropic-python", "authorization"),
    ] {
        let mut sidecars: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .expect("fixtures")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        sidecars.sort();
        assert!(!sidecars.is_empty(), "no fixtures in {folder}");
        for sidecar in sidecars {
            let meta: Value = serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
            let body = std::fs::read(sidecar.with_extension("bin")).unwrap();
            let path = meta["path"].as_str().unwrap();
            let example = match path {
                "/v1/chat/completions" => "openai_chat",
                "/v1/responses" => "openai_responses",
                "/v1/messages" => "anthropic_messages",
                other => panic!("unexpected path {other}"),
            };
            let up = Upstream::sink();
            let s = serve_example(example, &up.url());
            let mut req = s.client().post(s.url(path)).body(body.clone());
            let mut sent_key = false;
            for pair in meta["headers"].as_array().unwrap() {
                let (name, value) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
                if ["host", "content-length", "connection"]
                    .contains(&name.to_ascii_lowercase().as_str())
                {
                    continue;
                }
                sent_key |= name.eq_ignore_ascii_case(auth) && value.contains(KEY);
                req = req.header(name, value);
            }
            assert!(sent_key, "{sidecar:?}: the SDK put its key in {auth}");
            let r = req.send().unwrap();
            assert_eq!(
                r.status(),
                200,
                "{sidecar:?}: {}",
                r.text().unwrap_or_default()
            );

            let got = up.received().pop().expect("forwarded");
            let raw = String::from_utf8_lossy(&got.raw);
            for secret in [EMAIL, PHONE, "Bones", KEY] {
                assert!(
                    !raw.contains(secret),
                    "{sidecar:?}: {secret} reached the upstream"
                );
            }
            assert!(raw.contains(PROVIDER_KEY), "{sidecar:?}: no provider key");
            let mut want: Value = serde_json::from_slice(&body).unwrap();
            normalize(&mut want);
            anonymized(&mut want);
            let mut forwarded = got.json();
            normalize(&mut forwarded);
            assert_eq!(forwarded, want, "{sidecar:?}");
            replayed += 1;
        }
    }
    assert_eq!(replayed, 6);
}
