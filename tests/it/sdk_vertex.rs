//! Vertex AI through `conf/examples/vertex.yaml`: google-genai with `vertexai=True` and
//! anthropic's `AnthropicVertex`, unchanged, against a local upstream that answers as
//! Gemini and as Claude on Vertex do (JSON, and SSE streams). With the callers' own
//! Google tokens (the example's default) and with the operator's.

use std::time::Duration;

use regex::Regex;
use serde_json::{json, Value};

use crate::sdk_clients::{run_client, serve_example_env};
use crate::sdk_gemini::gemini;
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::KEY;

const USER: &str = "ada.lovelace@example.com";
const SYSTEM: &str = "alan.turing@example.org";

/// Claude on Vertex: the Messages API's answer, naming what it was given.
fn claude(req: &Received) -> Reply {
    let body = req.json();
    let find = |text: &str| {
        let re = Regex::new(r"\[[A-Z_]+_\d+\]|[\w.]+@[\w.]+\w").unwrap();
        re.find(text).map_or("?", |m| m.as_str()).to_owned()
    };
    let user = find(body["messages"][0]["content"].as_str().unwrap_or(""));
    let system = find(body["system"].as_str().unwrap_or(""));
    let text = format!("Sure, I will write to {user}; cc {system}.");
    let message = |content: Value| {
        json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4",
               "content": content, "stop_reason": "end_turn", "stop_sequence": null,
               "usage": {"input_tokens": 9, "output_tokens": 9}})
    };
    if body["stream"] != true {
        return Reply::json(&message(json!([{"type": "text", "text": text}])));
    }
    let (a, b) = text.split_at("Sure, I will write to ".len() + 5);
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": message(json!([]))}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": a}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": b}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 9}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    let pieces = events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n").into_bytes())
        .collect();
    Reply::sse(pieces, Duration::from_millis(1))
}

fn vertex(req: &Received) -> Reply {
    if req.path.contains("/publishers/anthropic/") {
        claude(req)
    } else {
        gemini(req)
    }
}

fn run(base: &str, args: &[&str]) -> Value {
    let mut all = vec![base];
    all.extend_from_slice(args);
    run_client("sdk_vertex.py", &all)
}

fn restored() -> Value {
    let text = format!("Sure, I will write to {USER}; cc {SYSTEM}.");
    json!({"gemini": text, "gemini_stream": text, "claude": text, "claude_stream": text})
}

fn assert_anonymized(received: &[Received]) {
    assert_eq!(received.len(), 4);
    let paths: Vec<&str> = received.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/v1beta1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
            "/v1beta1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            "/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
            "/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict",
        ]
    );
    for r in received {
        let raw = String::from_utf8_lossy(&r.raw);
        for secret in [USER, SYSTEM, KEY] {
            assert!(!raw.contains(secret), "{secret} reached Vertex:\n{raw}");
        }
        assert_eq!(r.header("x-api-key"), None);
    }
    assert_eq!(
        received[0].json()["contents"][0]["parts"][0]["text"],
        "Write to [EMAIL_ADDRESS_1] please."
    );
    // Anthropic bodies are read system first.
    assert_eq!(
        received[2].json()["system"],
        "The user is [EMAIL_ADDRESS_1]."
    );
}

#[test]
fn vertex_sdks_with_the_callers_own_google_tokens_work_unchanged_and_leak_nothing() {
    let up = Upstream::start(vertex);
    let s = serve_example_env("vertex", &up.url(), &[("VERTEX_ACCESS_TOKEN", "")]);
    let got = run(
        &format!("http://{}", s.addr),
        &["ya29.caller-own-token", KEY],
    );
    assert_eq!(got, restored());
    let received = up.received();
    assert_anonymized(&received);
    for r in &received {
        assert_eq!(
            r.header("authorization"),
            Some("Bearer ya29.caller-own-token")
        );
    }
}

#[test]
fn vertex_sdks_with_the_operators_google_token_send_ours_as_theirs() {
    let up = Upstream::start(vertex);
    let s = serve_example_env(
        "vertex",
        &up.url(),
        &[("VERTEX_ACCESS_TOKEN", "ya29.operator")],
    );
    let got = run(&format!("http://{}", s.addr), &[KEY]);
    assert_eq!(got, restored());
    let received = up.received();
    assert_anonymized(&received);
    for r in &received {
        assert_eq!(r.header("authorization"), Some("Bearer ya29.operator"));
    }
}

/// Both Vertex publishers' routes in front of `up`, with the operator's token from
/// `credentials` (a `google_credentials` mapping in flow style).
fn operator_routes(up: &Upstream, credentials: &str) -> String {
    let route = |name: &str, publisher: &str, preset: &str| {
        format!(
            "  - name: {name}\n    match: {{paths: [/v1/projects/*/locations/*/publishers/{publisher}/models/*, /v1beta1/projects/*/locations/*/publishers/{publisher}/models/*]}}\n    upstream: {{url: '{}'}}\n    preset: {preset}\n    google_credentials: {credentials}\n",
            up.url()
        )
    };
    format!(
        "{}routes:\n{}{}",
        crate::support::base_config(),
        route("g", "google", "vertex_gemini"),
        route("a", "anthropic", "vertex_anthropic")
    )
}

/// Both SDKs through `s` with our key as their Google token: their answers restored, and
/// `token` the bearer of everything `up` received, which holds no personal value.
fn sdks_send_the_operators_token(s: &crate::support::TestServer, up: &Upstream, token: &str) {
    let got = run(&format!("http://{}", s.addr), &[KEY]);
    assert_eq!(got, restored());
    let received = up.received();
    assert_anonymized(&received);
    let bearer = format!("Bearer {token}");
    for r in &received {
        assert_eq!(r.header("authorization"), Some(bearer.as_str()));
    }
}

#[test]
fn vertex_routes_on_google_cloud_take_the_workloads_token_from_the_metadata_server() {
    let metadata = Upstream::start(|_: &Received| {
        Reply::json(
            &json!({"access_token": "ya29.from-metadata", "expires_in": 3599, "token_type": "Bearer"}),
        )
    });
    let up = Upstream::start(vertex);
    let host = metadata.url().trim_start_matches("http://").to_owned();
    let yaml = operator_routes(&up, &format!("{{metadata_host: '{host}'}}"));
    let s = crate::support::TestServer::start(&yaml);
    // The SDKs' token is our key; the workload's goes upstream.
    sdks_send_the_operators_token(&s, &up, "ya29.from-metadata");
    // Fetched once, as Google's libraries ask for it, and kept while it is valid.
    let asked = metadata.received();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].header("metadata-flavor"), Some("Google"));
    assert_eq!(
        asked[0].path,
        "/computeMetadata/v1/instance/service-accounts/default/token"
    );
    // Without a metadata server nothing is forwarded.
    let dead = crate::support::free_port();
    let yaml = yaml.replace(&host, &format!("127.0.0.1:{dead}"));
    let s = crate::support::TestServer::start(&yaml);
    let r = s.post_raw(
        "/v1/projects/p/locations/l/publishers/google/models/m:generateContent",
        &json!({"contents": [{"role": "user", "parts": [{"text": USER}]}]}).to_string(),
        &[("authorization", &format!("Bearer {KEY}"))],
    );
    r.assert_error(502, "bad_gateway");
    assert_eq!(up.received().len(), 4);
}

/// The throwaway service-account key of `tests/fixtures/google-service-account/`, written
/// out with `token_uri` at `token_uri`; its path.
fn service_account_file(token_uri: &str) -> std::path::PathBuf {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/google-service-account/key.json");
    let text = std::fs::read_to_string(fixture).expect("fixture");
    let path = std::env::temp_dir().join(format!(
        "anonymizer-sa-{}-{}.json",
        std::process::id(),
        crate::support::free_port()
    ));
    std::fs::write(&path, text.replace("TOKEN_URI", token_uri)).expect("written");
    path
}

/// Checks a token request as Google's token endpoint does (RFC 7523): the grant type, an
/// RS256 assertion whose signature the key's public half verifies, the account as issuer,
/// the Cloud Platform scope, this endpoint as audience, an hour's lifetime. `None` when
/// the request is not one.
fn checked_assertion(req: &Received, public_key: &[u8], audience: &str) -> Option<Value> {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    let form = std::str::from_utf8(&req.body).ok()?;
    let mut fields = form.split('&').filter_map(|kv| kv.split_once('='));
    let grant = fields.clone().find(|(k, _)| *k == "grant_type")?.1;
    let assertion = fields.find(|(k, _)| *k == "assertion")?.1;
    if req.method != "POST"
        || req.header("content-type") != Some("application/x-www-form-urlencoded")
        || grant != "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"
    {
        return None;
    }
    let (signed, signature) = assertion.rsplit_once('.')?;
    let (header, claims) = signed.split_once('.')?;
    ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        public_key,
    )
    .verify(signed.as_bytes(), &URL_SAFE_NO_PAD.decode(signature).ok()?)
    .ok()?;
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header).ok()?).ok()?;
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).ok()?).ok()?;
    let lifetime = claims["exp"].as_u64()? - claims["iat"].as_u64()?;
    (header == json!({"alg": "RS256", "typ": "JWT"})
        && claims["iss"] == "proxy@anonymizer-tests.iam.gserviceaccount.com"
        && claims["scope"] == "https://www.googleapis.com/auth/cloud-platform"
        && claims["aud"] == audience
        && lifetime == 3600)
        .then_some(claims)
}

#[test]
fn vertex_routes_elsewhere_exchange_a_service_account_key_for_a_token() {
    use ring::signature::KeyPair;
    // The fixture's public half, for the token server to check signatures with.
    let fixture = service_account_file("http://unused/token");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    let pem = doc["private_key"].as_str().unwrap();
    let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap()
    };
    let public = ring::signature::RsaKeyPair::from_pkcs8(&der)
        .unwrap()
        .public_key()
        .as_ref()
        .to_vec();
    let _ = std::fs::remove_file(fixture);
    let public_check = public.clone();
    let audience = std::sync::Arc::new(std::sync::OnceLock::<String>::new());
    let aud = std::sync::Arc::clone(&audience);
    let tokens = Upstream::start(move |req: &Received| {
        match checked_assertion(req, &public, aud.get().map_or("", String::as_str)) {
            Some(_) => Reply::json(
                &json!({"access_token": "ya29.from-key-file", "expires_in": 3599, "token_type": "Bearer"}),
            ),
            None => {
                let mut r = Reply::json(&json!({"error": "invalid_grant"}));
                r.status = 400;
                r
            }
        }
    });
    let uri = format!("{}/token", tokens.url());
    audience.set(uri.clone()).unwrap();
    let key_file = service_account_file(&uri);
    let up = Upstream::start(vertex);
    let yaml = operator_routes(
        &up,
        &format!("{{service_account_file: '{}'}}", key_file.display()),
    );
    let s = crate::support::TestServer::start(&yaml);
    // The SDKs' token is our key; the account's goes upstream.
    sdks_send_the_operators_token(&s, &up, "ya29.from-key-file");
    // One exchange, with a valid assertion, kept while the token is valid.
    let asked = tokens.received();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].path, "/token");
    assert!(checked_assertion(&asked[0], &public_check, &uri).is_some());
    drop(s);
    // A key file that is not one is refused at start, naming what is missing, never
    // what the file holds.
    std::fs::write(
        &key_file,
        r#"{"type": "service_account", "client_email": "x@y", "private_key": "not a key 7f3a"}"#,
    )
    .unwrap();
    let config = key_file.with_extension("yaml");
    std::fs::write(&config, &yaml).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anonymizer"))
        .args(["check-config", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&key_file);
    let _ = std::fs::remove_file(&config);
    assert_eq!(out.status.code(), Some(2));
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("google_credentials.service_account_file")
            && text.contains("`private_key` is not a PEM private key")
            && !text.contains("7f3a"),
        "{text}"
    );
}
