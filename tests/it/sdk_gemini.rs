//! google-genai, unchanged, through `conf/examples/gemini.yaml` to an upstream that
//! speaks Gemini's REST wire format: `generateContent`, `streamGenerateContent` as SSE
//! (`alt=sse`, no `[DONE]`) and as the default streamed JSON array, function calls and
//! their responses in the history, a thought part and a `thoughtSignature`.

use std::time::Duration;

use regex::Regex;
use serde_json::{json, Value};

use crate::sdk_clients::{run_client, serve_example, PROVIDER_KEY};
use crate::support::recorded::{record_or_check, replay};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::KEY;

const USER: &str = "ada.lovelace@example.com";
const SYSTEM: &str = "alan.turing@example.org";
/// base64 of `sig-0001`: a thought signature is opaque bytes to the SDK.
const SIGNATURE: &str = "c2lnLTAwMDE=";

/// The first placeholder or e-mail address in `text`: what the upstream was given in
/// place of (or as) the personal data.
fn token(text: &str) -> String {
    let re = Regex::new(r"\[[A-Z_]+_\d+\]|[\w.]+@[\w.]+\w").unwrap();
    re.find(text).map_or("?", |m| m.as_str()).to_owned()
}

/// The response objects a Gemini model would send for `req`, in stream order: a
/// thought, the answer text cut inside the user's token, then a function call.
fn chunks(req: &Received) -> Vec<Value> {
    let body = req.json();
    let user = token(
        body["contents"][0]["parts"][0]["text"]
            .as_str()
            .unwrap_or(""),
    );
    let system = match &body["systemInstruction"] {
        Value::Null => &body["system_instruction"],
        camel => camel,
    };
    let sys = token(system["parts"][0]["text"].as_str().unwrap_or(""));
    let candidate = |parts: Value, last: bool| {
        let mut c = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
        if last {
            c["finishReason"] = json!("STOP");
        }
        json!({"candidates": [c], "modelVersion": "gemini-2.5-flash", "responseId": "r-1",
               "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 12, "totalTokenCount": 21}})
    };
    if body["contents"].as_array().map_or(0, Vec::len) > 1 {
        let result = body["contents"][2]["parts"][0]["functionResponse"]["response"]["result"]
            .as_str()
            .unwrap_or("");
        let text = format!("Done: {result}.");
        return vec![candidate(json!([{"text": text}]), true)];
    }
    let text = format!("Sure, I will write to {user}; cc {sys}.");
    let cut = "Sure, I will write to ".len() + 5;
    vec![
        candidate(
            json!([{"text": format!("Thinking about {user}"), "thought": true}]),
            false,
        ),
        candidate(json!([{"text": &text[..cut]}]), false),
        candidate(json!([{"text": &text[cut..]}]), false),
        candidate(
            json!([{"functionCall": {"name": "send_email", "args": {"to": user, "note": format!("cc {sys}")}},
                    "thoughtSignature": SIGNATURE}]),
            true,
        ),
    ]
}

/// Gemini's wire format: one object whole; SSE with `alt=sse` (`\r\n\r\n` between
/// events, no `[DONE]`); otherwise one pretty-printed JSON array, sent in 7-byte pieces.
pub(crate) fn gemini(req: &Received) -> Reply {
    let chunks = chunks(req);
    if !req.path.contains(":streamGenerateContent") {
        // The whole answer: every chunk's parts in one candidate.
        let mut whole = chunks.last().cloned().unwrap_or_default();
        let parts: Vec<Value> = chunks
            .iter()
            .flat_map(|c| {
                c["candidates"][0]["content"]["parts"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        let mut merged: Vec<Value> = Vec::new();
        for p in parts {
            // Text parts of the same kind are one part in a whole answer.
            match merged.last_mut() {
                Some(last)
                    if last["text"].is_string()
                        && p["text"].is_string()
                        && last["thought"] == p["thought"] =>
                {
                    let joined = format!(
                        "{}{}",
                        last["text"].as_str().unwrap(),
                        p["text"].as_str().unwrap()
                    );
                    last["text"] = json!(joined);
                }
                _ => merged.push(p),
            }
        }
        whole["candidates"][0]["content"]["parts"] = json!(merged);
        return Reply::json(&whole);
    }
    if req.path.contains("alt=sse") {
        let events = chunks
            .iter()
            .map(|c| format!("data: {c}\r\n\r\n").into_bytes())
            .collect();
        return Reply::sse(events, Duration::from_millis(2));
    }
    let array = format!(
        "[{}]",
        chunks
            .iter()
            .map(|c| serde_json::to_string_pretty(c).unwrap())
            .collect::<Vec<_>>()
            .join("\n,\r\n")
    );
    let mut reply = Reply::sse(
        array.as_bytes().chunks(7).map(<[u8]>::to_vec).collect(),
        Duration::ZERO,
    );
    reply.headers = vec![(
        "content-type".into(),
        "application/json; charset=UTF-8".into(),
    )];
    reply
}

#[test]
fn google_genai_works_unchanged_through_the_gemini_example_and_nothing_personal_reaches_gemini() {
    // Straight to the upstream: what the SDK sends (the fixtures) and makes of answers.
    let direct_up = Upstream::start(gemini);
    let direct = run_client("sdk_gemini.py", &[&direct_up.url(), KEY]);
    record_or_check("google-genai", "google-genai 3.4.0", &direct_up.received());

    let up = Upstream::start(gemini);
    let proxy = serve_example("gemini", &up.url());
    let got = run_client("sdk_gemini.py", &[&proxy.url(""), KEY]);

    let sent = up.all_bytes();
    for personal in [USER, SYSTEM, "ada.lovelace", "alan.turing", KEY] {
        assert!(
            !sent.contains(personal),
            "{personal} reached the upstream:\n{sent}"
        );
    }
    let received = up.received();
    assert_eq!(received.len(), 3);
    for r in &received {
        // The example's provider key, never ours.
        assert_eq!(r.header("x-goog-api-key"), Some(PROVIDER_KEY));
    }
    assert!(received[1].path.ends_with(":streamGenerateContent?alt=sse"));
    // The history's function call arguments and function response were anonymized too.
    let history = received[2].json();
    assert_eq!(
        history["contents"][1]["parts"][0]["functionCall"]["args"]["to"],
        "[EMAIL_ADDRESS_1]"
    );
    assert_eq!(
        history["contents"][2]["parts"][0]["functionResponse"]["response"]["result"],
        "sent to [EMAIL_ADDRESS_1]"
    );

    let args = json!({"to": USER, "note": format!("cc {SYSTEM}")});
    assert_eq!(
        got,
        json!({
            "text": format!("Sure, I will write to {USER}; cc {SYSTEM}."),
            // Thought parts are signed model output: never touched, so they keep the
            // placeholder the model saw.
            "thought": "Thinking about [EMAIL_ADDRESS_1]",
            "args": args,
            "signature": "sig-0001",
            "stream_text": format!("Sure, I will write to {USER}; cc {SYSTEM}."),
            "stream_args": args,
            "turn2_text": format!("Done: sent to {USER}."),
        })
    );
    // Without the proxy the same SDK made the same of the same answers (the thought
    // aside, which quotes what the model saw).
    let mut direct = direct;
    direct["thought"] = json!("Thinking about [EMAIL_ADDRESS_1]");
    assert_eq!(direct, got);
}

#[test]
fn gemini_streamed_as_a_json_array_cut_anywhere_is_restored_element_by_element() {
    let up = Upstream::start(gemini);
    let proxy = serve_example("gemini", &up.url());
    let body = json!({
        "system_instruction": {"parts": [{"text": format!("The user is {SYSTEM}.")}]},
        "contents": [{"role": "user", "parts": [{"text": format!("Write to {USER} please.")}]}]
    });
    let r = proxy.post_raw(
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        &body.to_string(),
        &[("x-goog-api-key", KEY)],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(!up.all_bytes().contains("@example."), "{}", up.all_bytes());
    // The snake_case spelling of the REST examples is read too.
    assert_eq!(
        up.received()[0].json()["system_instruction"]["parts"][0]["text"],
        "The user is [EMAIL_ADDRESS_2]."
    );
    let elements: Vec<Value> =
        serde_json::from_str(&r.text).unwrap_or_else(|e| panic!("{e}: {}", r.text));
    let mut text = String::new();
    let mut args = Value::Null;
    for e in &elements {
        for p in e["candidates"][0]["content"]["parts"].as_array().unwrap() {
            if p["thought"] != true {
                text.push_str(p["text"].as_str().unwrap_or(""));
            }
            if p["functionCall"].is_object() {
                args = p["functionCall"]["args"].clone();
                assert_eq!(p["thoughtSignature"], SIGNATURE);
            }
        }
    }
    assert_eq!(text, format!("Sure, I will write to {USER}; cc {SYSTEM}."));
    assert_eq!(args, json!({"to": USER, "note": format!("cc {SYSTEM}")}));
    assert_eq!(elements.len(), 4, "{}", r.text);
}

#[test]
fn recorded_google_genai_requests_replayed_through_the_gemini_example_leak_nothing() {
    let up = Upstream::start(gemini);
    let proxy = serve_example("gemini", &up.url());
    let answers = replay(&proxy, "google-genai", |_| true);
    assert_eq!(answers.len(), 3);
    for (name, status, body) in &answers {
        assert_eq!(*status, 200, "{name}: {body}");
        assert!(body.contains(USER), "{name}: not restored: {body}");
    }
    assert!(!up.all_bytes().contains("@example."), "{}", up.all_bytes());
}
