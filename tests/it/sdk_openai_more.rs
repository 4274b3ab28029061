//! The openai SDK, unchanged, on the presets beside chat: embeddings and legacy
//! completions (`conf/examples/openai_embeddings.yaml`, `openai_completions.yaml`), and
//! Azure OpenAI (`conf/examples/azure_openai.yaml`) through `openai.AzureOpenAI`
//! (deployment paths, `api-version`, `api-key`) and through `openai.OpenAI` on the
//! `/openai/v1/` paths (bearer), against an upstream that speaks OpenAI's wire format.

use std::time::Duration;

use regex::Regex;
use serde_json::{json, Value};

use crate::sdk_clients::{run_client, serve_example, PROVIDER_KEY};
use crate::support::recorded::{record_or_check, replay};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::KEY;

const USER: &str = "ada.lovelace@example.com";
const SYSTEM: &str = "alan.turing@example.org";
/// float32 little-endian [0.5, 0.25], base64: what the SDK asks for and decodes.
const VECTOR_B64: &str = "AAAAPwAAgD4=";

/// The first placeholder or e-mail address in `text`.
fn token(text: &str) -> String {
    let re = Regex::new(r"\[[A-Z_]+_\d+\]|[\w.]+@[\w.]+\w").unwrap();
    re.find(text).map_or("?", |m| m.as_str()).to_owned()
}

fn first_string(v: &Value) -> &str {
    v.as_str()
        .or_else(|| v.get(0).and_then(Value::as_str))
        .unwrap_or("")
}

fn sse(events: &[Value]) -> Reply {
    let mut pieces: Vec<Vec<u8>> = events
        .iter()
        .map(|e| format!("data: {e}\n\n").into_bytes())
        .collect();
    pieces.push(b"data: [DONE]\n\n".to_vec());
    Reply::sse(pieces, Duration::from_millis(1))
}

/// Cuts `text` just inside its first `[` or `@` (inside the token the upstream was given).
fn split_in_token(text: &str) -> (&str, &str) {
    let at = text.find(['[', '@']).map_or(text.len() / 2, |i| i + 3);
    text.split_at(at.min(text.len()))
}

/// OpenAI's wire format for chat completions, legacy completions and embeddings, on
/// OpenAI's and on Azure's paths.
fn openai(req: &Received) -> Reply {
    let body = req.json();
    let path = req.path.split('?').next().unwrap_or("");
    let stream = body["stream"] == true;
    if path.ends_with("/embeddings") {
        let n = body["input"].as_array().map_or(1, Vec::len);
        let vector = if body["encoding_format"] == "base64" {
            json!(VECTOR_B64)
        } else {
            json!([0.5, 0.25])
        };
        let data: Vec<Value> = (0..n)
            .map(|i| json!({"object": "embedding", "index": i, "embedding": vector}))
            .collect();
        return Reply::json(
            &json!({"object": "list", "data": data, "model": "text-embedding-3-small",
                                   "usage": {"prompt_tokens": 5, "total_tokens": 5}}),
        );
    }
    if path.ends_with("/chat/completions") {
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let of = |role: &str| {
            messages
                .iter()
                .find(|m| m["role"] == role)
                .map_or(String::new(), |m| {
                    token(m["content"].as_str().unwrap_or(""))
                })
        };
        let (user, sys) = (of("user"), of("system"));
        let text = format!("Sure, I will write to {user}; cc {sys}.");
        let args = json!({"to": user, "note": format!("cc {sys}")}).to_string();
        let with_tools = body["tools"].is_array();
        let head = json!({"id": "chatcmpl-1", "created": 1, "model": "gpt-4o"});
        if !stream {
            let mut message = json!({"role": "assistant", "content": text});
            if with_tools {
                message["tool_calls"] = json!([{"id": "call_1", "type": "function",
                    "function": {"name": "send_email", "arguments": args}}]);
            }
            let mut answer = head;
            answer["object"] = json!("chat.completion");
            answer["choices"] = json!([{"index": 0, "message": message, "finish_reason": "stop"}]);
            answer["usage"] =
                json!({"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21});
            return Reply::json(&answer);
        }
        let chunk = |delta: Value, finish: Value| {
            let mut c = head.clone();
            c["object"] = json!("chat.completion.chunk");
            c["choices"] = json!([{"index": 0, "delta": delta, "finish_reason": finish}]);
            c
        };
        let (a, b) = split_in_token(&text);
        let (x, y) = split_in_token(&args);
        let mut events = vec![
            chunk(json!({"role": "assistant", "content": ""}), Value::Null),
            chunk(json!({"content": a}), Value::Null),
            chunk(json!({"content": b}), Value::Null),
        ];
        if with_tools {
            events.push(chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "send_email", "arguments": ""}}]}),
                Value::Null,
            ));
            for piece in [x, y] {
                events.push(chunk(
                    json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
                    Value::Null,
                ));
            }
        }
        events.push(chunk(json!({}), json!("stop")));
        return sse(&events);
    }
    // Legacy completions: `prompt` (a string or strings) and `suffix`.
    let user = token(first_string(&body["prompt"]));
    let sys = token(body["suffix"].as_str().unwrap_or(""));
    let text = format!("Sure, I will write to {user}; cc {sys}.");
    let completion = |text: &str, finish: Value| {
        json!({"id": "cmpl-1", "object": "text_completion", "created": 1, "model": "gpt-3.5-turbo-instruct",
               "choices": [{"text": text, "index": 0, "logprobs": null, "finish_reason": finish}]})
    };
    if !stream {
        let mut answer = completion(&text, json!("stop"));
        answer["usage"] = json!({"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21});
        return Reply::json(&answer);
    }
    let (a, b) = split_in_token(&text);
    sse(&[
        completion(a, Value::Null),
        completion(b, Value::Null),
        completion("", json!("stop")),
    ])
}

fn expected() -> Value {
    let text = format!("Sure, I will write to {USER}; cc {SYSTEM}.");
    let args = json!({"to": USER, "note": format!("cc {SYSTEM}")});
    json!({
        "embeddings": [[0.5, 0.25], [0.5, 0.25]],
        "embedding_single": [0.5, 0.25],
        "completion": text, "completion_stream": text,
        "azure_text": text, "azure_args": args,
        "azure_stream_text": text, "azure_stream_args": args,
        "azure_embeddings": [[0.5, 0.25]],
        "azure_completion": text,
        "azure_v1_text": text,
    })
}

#[test]
fn the_openai_sdk_works_unchanged_on_embeddings_completions_and_azure_and_nothing_personal_reaches_the_upstream(
) {
    let direct_up = Upstream::start(openai);
    let direct_url = direct_up.url();
    let direct = run_client(
        "sdk_openai_more.py",
        &[&direct_url, &direct_url, &direct_url, KEY],
    );
    record_or_check("openai-python-more", "openai 3.54.0", &direct_up.received());
    assert_eq!(direct, expected());

    let up = Upstream::start(openai);
    let embeddings = serve_example("openai_embeddings", &up.url());
    let completions = serve_example("openai_completions", &up.url());
    let azure = serve_example("azure_openai", &up.url());
    let got = run_client(
        "sdk_openai_more.py",
        &[
            &embeddings.url(""),
            &completions.url(""),
            &azure.url(""),
            KEY,
        ],
    );
    assert_eq!(got, expected());

    let sent = up.all_bytes();
    for secret in [USER, SYSTEM, "ada.lovelace", "alan.turing", KEY] {
        assert!(
            !sent.contains(secret),
            "{secret} reached the upstream:\n{sent}"
        );
    }
    let received = up.received();
    let paths: Vec<&str> = received.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/v1/embeddings",
            "/v1/embeddings",
            "/v1/completions",
            "/v1/completions",
            "/openai/deployments/gpt-4o-deployment/chat/completions?api-version=2024-10-21",
            "/openai/deployments/gpt-4o-deployment/chat/completions?api-version=2024-10-21",
            "/openai/deployments/emb-deployment/embeddings?api-version=2024-10-21",
            "/openai/deployments/instruct-deployment/completions?api-version=2024-10-21",
            "/openai/v1/chat/completions",
        ]
    );
    assert_eq!(
        received[0].json()["input"],
        json!(["Write to [EMAIL_ADDRESS_1] please.", "no one"])
    );
    assert_eq!(
        received[3].json()["prompt"],
        json!(["Write to [EMAIL_ADDRESS_1] please."])
    );
    assert_eq!(received[3].json()["suffix"], " cc [EMAIL_ADDRESS_2]");
    // The provider keys of the examples, never ours.
    let bearer = format!("Bearer {PROVIDER_KEY}");
    assert_eq!(received[0].header("authorization"), Some(bearer.as_str()));
    assert_eq!(received[3].header("authorization"), Some(bearer.as_str()));
    for azure in &received[4..] {
        assert_eq!(
            azure.header("api-key"),
            Some(PROVIDER_KEY),
            "{}",
            azure.path
        );
        assert_eq!(azure.header("authorization"), None, "{}", azure.path);
    }
}

#[test]
fn recorded_openai_requests_replayed_through_the_examples_leak_nothing() {
    let up = Upstream::start(openai);
    let embeddings = serve_example("openai_embeddings", &up.url());
    let completions = serve_example("openai_completions", &up.url());
    let azure = serve_example("azure_openai", &up.url());
    let sdk = "openai-python-more";
    let mut answers = replay(&embeddings, sdk, |f| f.path.starts_with("/v1/embeddings"));
    answers.extend(replay(&completions, sdk, |f| {
        f.path.starts_with("/v1/completions")
    }));
    answers.extend(replay(&azure, sdk, |f| f.path.starts_with("/openai/")));
    assert_eq!(answers.len(), 9);
    for (name, status, body) in &answers {
        assert_eq!(*status, 200, "{name}: {body}");
        assert!(
            !body.contains("[EMAIL_ADDRESS_"),
            "{name}: not restored: {body}"
        );
    }
    assert!(!up.all_bytes().contains("@example."), "{}", up.all_bytes());
}
