//! The ollama SDK, unchanged, through `conf/examples/ollama.yaml` to an upstream that
//! speaks Ollama's API: `/api/chat` and `/api/generate` whole and streamed as NDJSON
//! (cut anywhere), tool calls with object arguments, tool results in the history,
//! `/api/embed` and `/api/embeddings`.

use std::time::Duration;

use regex::Regex;
use serde_json::{json, Value};

use crate::sdk_clients::{run_client, serve_example};
use crate::support::recorded::{record_or_check, replay};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::KEY;

const USER: &str = "ada.lovelace@example.com";
const SYSTEM: &str = "alan.turing@example.org";

/// The first placeholder or e-mail address in `text`.
fn token(text: &str) -> String {
    let re = Regex::new(r"\[[A-Z_]+_\d+\]|[\w.]+@[\w.]+\w").unwrap();
    re.find(text).map_or("?", |m| m.as_str()).to_owned()
}

fn content_of<'a>(messages: &'a [Value], role: &str) -> &'a str {
    messages
        .iter()
        .find(|m| m["role"] == role)
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
}

/// One NDJSON line or whole answer of Ollama's: `extra` over the common fields.
fn line(extra: Value, done: bool) -> Value {
    let mut v =
        json!({"model": "llama3.2", "created_at": "2026-11-23T00:00:00.000000Z", "done": done});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    if done {
        for k in [
            "total_duration",
            "load_duration",
            "prompt_eval_count",
            "prompt_eval_duration",
            "eval_count",
            "eval_duration",
        ] {
            v[k] = json!(1);
        }
        v["done_reason"] = json!("stop");
    }
    v
}

/// Ollama's wire format: streamed (the default when `stream` is absent) as NDJSON in
/// 11-byte pieces, else one JSON object.
fn ollama(req: &Received) -> Reply {
    if req.path == "/api/tags" {
        return Reply::json(&json!({"models": []}));
    }
    let body = req.json();
    let streamed = body["stream"] != false;
    let (user, sys, turn2) = match req.path.as_str() {
        "/api/chat" => {
            let messages = body["messages"].as_array().cloned().unwrap_or_default();
            (
                token(content_of(&messages, "user")),
                token(content_of(&messages, "system")),
                messages
                    .iter()
                    .any(|m| m["role"] == "tool")
                    .then(|| token(content_of(&messages, "tool"))),
            )
        }
        "/api/generate" => (
            token(body["prompt"].as_str().unwrap_or("")),
            token(body["system"].as_str().unwrap_or("")),
            None,
        ),
        "/api/embed" => {
            let n = body["input"].as_array().map_or(1, Vec::len);
            return Reply::json(
                &json!({"model": "all-minilm", "embeddings": vec![[0.1, 0.2]; n],
                                       "total_duration": 1, "load_duration": 1, "prompt_eval_count": 2}),
            );
        }
        "/api/embeddings" => return Reply::json(&json!({"embedding": [0.1, 0.2, 0.3]})),
        _ => return Reply::json(&json!({"error": "not found"})),
    };
    let text = match &turn2 {
        Some(result) => format!("Done: sent to {result}."),
        None => format!("Sure, I will write to {user}; cc {sys}."),
    };
    let call = json!([{"function": {"name": "send_email", "arguments": {"to": user, "note": format!("cc {sys}")}}}]);
    let chat = req.path == "/api/chat";
    let piece = |t: &str| {
        if chat {
            json!({"message": {"role": "assistant", "content": t}})
        } else {
            json!({"response": t})
        }
    };
    if !streamed {
        let mut whole = line(piece(&text), true);
        if chat && turn2.is_none() {
            whole["message"]["tool_calls"] = call;
        }
        let mut reply = Reply::json(&whole);
        reply.headers = vec![(
            "content-type".into(),
            "application/json; charset=utf-8".into(),
        )];
        return reply;
    }
    let cut = "Sure, I will write to ".len() + 5;
    let mut lines = vec![line(piece(&text[..cut.min(text.len())]), false)];
    if cut < text.len() {
        lines.push(line(piece(&text[cut..]), false));
    }
    if chat && turn2.is_none() {
        let mut with_call = line(piece(""), false);
        with_call["message"]["tool_calls"] = call;
        lines.push(with_call);
    }
    let mut last = line(piece(""), true);
    if !chat {
        last["context"] = json!([1, 2, 3]);
    }
    lines.push(last);
    let stream: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut reply = Reply::sse(
        stream.as_bytes().chunks(11).map(<[u8]>::to_vec).collect(),
        Duration::ZERO,
    );
    reply.headers = vec![("content-type".into(), "application/x-ndjson".into())];
    reply
}

fn expected() -> Value {
    let text = format!("Sure, I will write to {USER}; cc {SYSTEM}.");
    let args = json!({"to": USER, "note": format!("cc {SYSTEM}")});
    json!({
        "chat_text": text, "chat_args": args,
        "stream_text": text, "stream_args": args,
        "turn2_text": format!("Done: sent to {USER}."),
        "generate_text": text, "generate_stream_text": text,
        "embed_count": 2, "embedding_len": 3,
    })
}

#[test]
fn the_ollama_sdk_works_unchanged_through_the_ollama_example_and_nothing_personal_reaches_ollama() {
    let direct_up = Upstream::start(ollama);
    let direct = run_client("sdk_ollama.py", &[&direct_up.url(), KEY]);
    record_or_check("ollama-python", "ollama 0.6.3", &direct_up.received());
    assert_eq!(direct, expected());

    let up = Upstream::start(ollama);
    let proxy = serve_example("ollama", &up.url());
    let got = run_client("sdk_ollama.py", &[&proxy.url(""), KEY]);
    assert_eq!(got, expected());

    let sent = up.all_bytes();
    for secret in [USER, SYSTEM, "ada.lovelace", "alan.turing", KEY] {
        assert!(
            !sent.contains(secret),
            "{secret} reached the upstream:\n{sent}"
        );
    }
    let received = up.received();
    assert_eq!(received.len(), 7);
    // The history's tool call arguments (an object) and the tool result were anonymized.
    let history = received[2].json();
    assert_eq!(
        history["messages"][2]["tool_calls"][0]["function"]["arguments"]["to"],
        "[EMAIL_ADDRESS_2]"
    );
    assert_eq!(
        history["messages"][3]["content"],
        "sent to [EMAIL_ADDRESS_2]"
    );
    assert_eq!(
        received[5].json()["input"],
        json!(["Write to [EMAIL_ADDRESS_1] please.", "no one"])
    );
}

#[test]
fn ollama_streams_when_the_request_does_not_say_and_lines_cut_anywhere_come_out_restored() {
    let up = Upstream::start(ollama);
    let proxy = serve_example("ollama", &up.url());
    for (path, body, field) in [
        (
            "/api/chat",
            json!({"model": "m", "messages": [{"role": "user", "content": format!("Write to {USER} please.")}]}),
            "/message/content",
        ),
        (
            "/api/generate",
            json!({"model": "m", "prompt": format!("Write to {USER} please.")}),
            "/response",
        ),
    ] {
        let r = proxy.post_raw(
            path,
            &body.to_string(),
            &[("authorization", &format!("Bearer {KEY}"))],
        );
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.header("content-type"), Some("application/x-ndjson"));
        let lines: Vec<Value> = r
            .text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        let text: String = lines
            .iter()
            .filter_map(|l| l.pointer(field)?.as_str())
            .collect();
        assert_eq!(
            text,
            format!("Sure, I will write to {USER}; cc ?."),
            "{path}"
        );
        assert_eq!(lines.last().unwrap()["done"], true, "{path}: {}", r.text);
    }
    // `curl -d`, as Ollama's docs show it: the form content type, read as JSON anyway.
    let r = proxy
        .client()
        .post(proxy.url("/api/generate"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-api-key", KEY)
        .body(
            json!({"model": "m", "prompt": format!("Write to {USER}"), "stream": false})
                .to_string(),
        )
        .send()
        .unwrap();
    assert_eq!(r.status(), 200);
    let answer: Value = r.json().unwrap();
    assert_eq!(
        answer["response"],
        format!("Sure, I will write to {USER}; cc ?.")
    );
    // Model management passes as it is.
    let r = proxy.get("/api/tags", &[("authorization", &format!("Bearer {KEY}"))]);
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(!up.all_bytes().contains(USER), "{}", up.all_bytes());
    assert!(!up.all_bytes().contains(KEY));
}

#[test]
fn recorded_ollama_requests_replayed_through_the_ollama_example_leak_nothing() {
    let up = Upstream::start(ollama);
    let proxy = serve_example("ollama", &up.url());
    let answers = replay(&proxy, "ollama-python", |_| true);
    assert_eq!(answers.len(), 7);
    for (name, status, body) in &answers {
        assert_eq!(*status, 200, "{name}: {body}");
        assert!(
            !body.contains("[EMAIL_ADDRESS_"),
            "{name}: not restored: {body}"
        );
    }
    assert!(answers[0].2.contains(USER), "{}", answers[0].2);
    assert!(!up.all_bytes().contains("@example."), "{}", up.all_bytes());
}
