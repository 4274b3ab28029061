//! Route authentication as each provider's SDK sends its key: our key is accepted where
//! the SDK puts its own, checked, never forwarded, and the provider key replaces it.

use serde_json::json;

use crate::support::upstream::Upstream;
use crate::support::{TestServer, KEY};

fn config(upstream: &str, route: &str) -> String {
    format!(
        "{}routes:\n  - name: r\n    match: {{path_prefix: /v1}}\n    upstream: {{url: '{upstream}', add_headers: {{authorization: 'Bearer sk-provider', x-goog-api-key: provider-goog}}}}\n{route}",
        crate::support::base_config()
    )
}

fn post(s: &TestServer, path: &str, headers: &[(&str, &str)]) -> crate::support::Response {
    s.post_raw(path, &json!({"messages": []}).to_string(), headers)
}

#[test]
fn each_sdk_key_location_is_accepted_and_never_forwarded() {
    let up = Upstream::sink();
    let bearer = format!("Bearer {KEY}");
    let lower_bearer = format!("bearer {KEY}");
    let cases = [
        (
            "openai_chat",
            "/v1/chat/completions",
            ("authorization", bearer.as_str()),
        ),
        ("openai_chat", "/v1/chat/completions", ("x-api-key", KEY)),
        ("anthropic_messages", "/v1/messages", ("x-api-key", KEY)),
        (
            "anthropic_messages",
            "/v1/messages",
            ("authorization", lower_bearer.as_str()),
        ),
        (
            "openai_chat",
            "/v1/chat/completions?key=x",
            ("authorization", bearer.as_str()),
        ),
    ];
    for (i, (preset, path, header)) in cases.iter().enumerate() {
        let s = TestServer::start(&config(
            &up.url(),
            &format!("    preset: {preset}\n    auth: api_key\n"),
        ));
        let r = post(&s, path, &[*header]);
        assert_eq!(r.status, 200, "case {i}: {}", r.text);
        let got = up.received().pop().unwrap();
        assert_eq!(
            got.header("authorization"),
            Some("Bearer sk-provider"),
            "case {i}"
        );
        assert_eq!(got.header("x-api-key"), None, "case {i}");
        assert!(
            !String::from_utf8_lossy(&got.raw).contains(KEY),
            "case {i}: our key was forwarded"
        );
        // A query parameter the route does not read as a key goes through.
        if path.contains('?') {
            assert_eq!(got.path, "/v1/chat/completions?key=x");
        }
    }
}

#[test]
fn gemini_style_keys_in_a_header_or_the_query_are_taken_off_the_request() {
    let up = Upstream::sink();
    let route = "    body: json\n    anonymize: ['$..text']\n    auth: api_key\n    api_key_in: [x-goog-api-key, 'query:key']\n";
    let s = TestServer::start(&config(&up.url(), route));
    let path = format!("/v1/models/m:streamGenerateContent?alt=sse&key={KEY}");
    assert_eq!(post(&s, &path, &[]).status, 200);
    assert_eq!(
        post(
            &s,
            "/v1/models/m:generateContent",
            &[("x-goog-api-key", KEY)]
        )
        .status,
        200
    );
    let got = up.received();
    assert_eq!(got[0].path, "/v1/models/m:streamGenerateContent?alt=sse");
    assert_eq!(got[1].path, "/v1/models/m:generateContent");
    for g in &got {
        assert_eq!(g.header("x-goog-api-key"), Some("provider-goog"));
        assert!(!String::from_utf8_lossy(&g.raw).contains(KEY));
    }
    // Not where the route reads keys, or not ours: refused, nothing forwarded.
    post(
        &s,
        "/v1/models/m:generateContent",
        &[("authorization", &format!("Bearer {KEY}"))],
    )
    .assert_error(401, "missing_api_key");
    post(
        &s,
        "/v1/models/m:generateContent?key=not-ours-0123456789",
        &[],
    )
    .assert_error(401, "invalid_api_key");
    assert_eq!(up.received().len(), 2);
}

#[test]
fn a_passthrough_route_forwards_the_callers_provider_key_but_never_ours() {
    let up = Upstream::sink();
    let s = TestServer::start(&format!(
        "{}routes:\n  - name: r\n    match: {{path_prefix: /v1}}\n    upstream: {{url: '{}'}}\n    preset: anthropic_messages\n    auth: passthrough\n",
        crate::support::base_config(),
        up.url()
    ));
    assert_eq!(
        post(&s, "/v1/messages", &[("x-api-key", "sk-ant-theirs")]).status,
        200
    );
    assert_eq!(
        post(
            &s,
            "/v1/messages",
            &[("x-api-key", KEY), ("authorization", "Bearer sk-theirs")]
        )
        .status,
        200
    );
    let got = up.received();
    assert_eq!(got[0].header("x-api-key"), Some("sk-ant-theirs"));
    assert_eq!(got[1].header("x-api-key"), None);
    assert_eq!(got[1].header("authorization"), Some("Bearer sk-theirs"));
}

#[test]
fn a_bad_key_location_is_a_config_error_with_its_path() {
    let dir = crate::support::scratch_dir();
    let path = dir.join("bad.yaml");
    std::fs::write(
        &path,
        format!(
            "{}routes:\n  - name: r\n    upstream: {{url: 'http://127.0.0.1:9'}}\n    preset: openai_chat\n    api_key_in: [bearer, authorization]\n",
            crate::support::base_config()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .args(["check-config", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("routes[0].api_key_in[1]"), "{text}");
}

#[test]
fn callers_bring_their_own_provider_key_and_ours_is_never_forwarded() {
    let up = Upstream::sink();
    let yaml = format!(
        "{}routes:\n  - name: r\n    match: {{path_prefix: /v1}}\n    upstream: {{url: '{}', add_headers: {{authorization: 'Bearer ${{BYOK_TEST_KEY:-}}'}}}}\n    preset: openai_chat\n    provider_key: configured_or_caller\n",
        crate::support::base_config(),
        up.url()
    );
    let s = TestServer::start_with_env(&yaml, &[("BYOK_TEST_KEY", "")]);
    let ours_as_bearer = format!("Bearer {KEY}");
    // The caller's own key goes upstream; ours, in X-API-Key, does not.
    let r = post(
        &s,
        "/v1/chat/completions",
        &[
            ("x-api-key", KEY),
            ("authorization", "Bearer sk-caller-own"),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    // Our key where the caller's should be is taken off, not sent to the provider.
    let r = post(
        &s,
        "/v1/chat/completions",
        &[
            ("x-api-key", KEY),
            ("authorization", ours_as_bearer.as_str()),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    // Our key only as the SDK's bearer is no key of ours here.
    let r = post(
        &s,
        "/v1/chat/completions",
        &[("authorization", ours_as_bearer.as_str())],
    );
    assert_eq!(r.status, 401, "{}", r.text);
    let got = up.received();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].header("authorization"), Some("Bearer sk-caller-own"));
    assert_eq!(got[1].header("authorization"), None);
    for g in &got {
        assert_eq!(g.header("x-api-key"), None);
        assert!(!String::from_utf8_lossy(&g.raw).contains(KEY));
    }

    // With the variable set, the operator's key replaces whatever the caller sent.
    let s = TestServer::start_with_env(&yaml, &[("BYOK_TEST_KEY", "sk-operator")]);
    let r = post(
        &s,
        "/v1/chat/completions",
        &[("authorization", ours_as_bearer.as_str())],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        up.received().pop().unwrap().header("authorization"),
        Some("Bearer sk-operator")
    );
}

#[test]
fn an_unset_provider_key_is_a_config_error_never_a_literal() {
    let dir = crate::support::scratch_dir();
    let path = dir.join("unset.yaml");
    std::fs::write(
        &path,
        format!(
            "{}routes:\n  - name: r\n    upstream: {{url: 'http://127.0.0.1:9', add_headers: {{authorization: 'Bearer ${{BYOK_UNSET_KEY:-}}'}}}}\n    preset: openai_chat\n",
            crate::support::base_config()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .args(["check-config", "--config"])
        .arg(&path)
        .env_remove("BYOK_UNSET_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("routes[0].upstream.add_headers.authorization")
            && text.contains("provider_key"),
        "{text}"
    );
}
