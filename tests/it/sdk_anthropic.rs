//! The real `anthropic` Python SDK, unchanged, through the proxy served with
//! `conf/examples/anthropic_messages.yaml`, against a local upstream that speaks the
//! Messages API's wire format (JSON and SSE, tool use, thinking blocks with signatures).

use serde_json::{json, Value};

use crate::sdk_clients::{
    assert_nothing_personal, run_client, serve_example, sse, BONES, EMAIL, PHONE, PROVIDER_KEY,
};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::KEY;

const TEXT: &str = "Mailing [EMAIL_ADDRESS_1] and [PERSON_1] at [PHONE_NUMBER_1].";

/// The answer's thinking: signed, so its placeholder must stay.
fn thinking_out() -> Value {
    json!({"type": "thinking", "thinking": "Mail [EMAIL_ADDRESS_1] for [PERSON_1].",
           "signature": "ErUBCkYIBRgCIkB+answer/sig=="})
}

fn redacted_out() -> Value {
    json!({"type": "redacted_thinking", "data": "EmwKAhgB-[PERSON_1]-opaque"})
}

fn tool_use(input: Value) -> Value {
    json!({"type": "tool_use", "id": "toolu_2", "name": "send_mail", "input": input})
}

fn message(content: Value) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
           "content": content, "stop_reason": "tool_use", "stop_sequence": null,
           "usage": {"input_tokens": 10, "output_tokens": 10}})
}

fn answer(req: &Received) -> Reply {
    if req.json()["stream"] != true {
        return Reply::json(&message(json!([
            thinking_out(),
            redacted_out(),
            {"type": "text", "text": TEXT},
            tool_use(json!({"to": "[EMAIL_ADDRESS_1]", "who": "[PERSON_1]", "n": 1}))
        ])));
    }
    let delta = |index: u64, delta: Value| {
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        )
    };
    let start = |index: u64, block: Value| {
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": block}),
        )
    };
    let stop = |index: u64| {
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        )
    };
    let mut started = message(json!([]));
    started["stop_reason"] = Value::Null;
    sse(&[
        (
            "message_start",
            json!({"type": "message_start", "message": started}),
        ),
        start(
            0,
            json!({"type": "thinking", "thinking": "", "signature": ""}),
        ),
        delta(
            0,
            json!({"type": "thinking_delta", "thinking": "Mail [EMAIL_ADDRESS_1] "}),
        ),
        delta(
            0,
            json!({"type": "thinking_delta", "thinking": "for [PERSON_1]."}),
        ),
        delta(
            0,
            json!({"type": "signature_delta", "signature": "ErUBCkYIBRgCIkB+answer/sig=="}),
        ),
        stop(0),
        ("ping", json!({"type": "ping"})),
        start(1, json!({"type": "text", "text": ""})),
        delta(1, json!({"type": "text_delta", "text": "Mailing [EMAIL_"})),
        ("ping", json!({"type": "ping"})),
        delta(
            1,
            json!({"type": "text_delta", "text": "ADDRESS_1] and [PERSON_1] at [PHONE_NUMBER_1"}),
        ),
        delta(1, json!({"type": "text_delta", "text": "]."})),
        stop(1),
        start(2, tool_use(json!({}))),
        delta(2, json!({"type": "input_json_delta", "partial_json": ""})),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "{\"to\": \"[EMAIL_ADD"}),
        ),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "RESS_1]\", \"who\": \"[PERS"}),
        ),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "ON_1]\", \"n\": 1}"}),
        ),
        stop(2),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
                                  "usage": {"output_tokens": 10}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ])
}

/// The signed blocks of the history `sdk_anthropic.py` sends.
fn thinking_in() -> Value {
    json!({"type": "thinking",
           "thinking": "The user [EMAIL_ADDRESS_1] wants signed-ann@example.net mailed.",
           "signature": "EqQBCkYIBxgCKkD+sig/[PERSON_1]=="})
}

fn redacted_in() -> Value {
    json!({"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a-opaque"})
}

#[test]
fn the_anthropic_sdk_works_unchanged_and_nothing_personal_reaches_the_upstream() {
    let up = Upstream::start(answer);
    let s = serve_example("anthropic_messages", &up.url());
    let got = run_client("sdk_anthropic.py", &[&format!("http://{}", s.addr), KEY]);

    let received = up.received();
    assert_eq!(received.len(), 2);
    for r in &received {
        assert_eq!(r.path, "/v1/messages");
        // The SDK's own key (ours) is replaced by the provider's.
        assert_eq!(r.header("x-api-key"), Some(PROVIDER_KEY));
        assert_eq!(r.header("authorization"), None);
        assert!(r.header("anthropic-version").is_some());
        assert_nothing_personal(&String::from_utf8_lossy(&r.raw));
        let body = r.json();
        assert_eq!(
            body["system"],
            json!([{"type": "text", "text": "You assist [EMAIL_ADDRESS_1].", "cache_control": {"type": "ephemeral"}}])
        );
        let m = &body["messages"];
        assert_eq!(m[0]["content"], "Call me on [PHONE_NUMBER_1].");
        // Signed blocks: untouched, placeholders and all, byte for byte.
        assert_eq!(m[1]["content"][0], thinking_in());
        assert_eq!(m[1]["content"][1], redacted_in());
        let raw = String::from_utf8_lossy(&r.body);
        assert!(
            raw.contains(r#""signature":"EqQBCkYIBxgCKkD+sig/[PERSON_1]==""#),
            "{raw}"
        );
        assert!(
            raw.contains(r#""data":"EmwKAhgBEgy3va3pzix/LafPsn4a-opaque""#),
            "{raw}"
        );
        // tool_use.input: every string inside, an `id` key's value too.
        assert_eq!(
            m[1]["content"][3],
            json!({"type": "tool_use", "id": "toolu_1", "name": "lookup",
                   "input": {"who": "[PERSON_1]", "id": "[EMAIL_ADDRESS_1]"}})
        );
        assert_eq!(
            m[2]["content"][0],
            json!({"type": "tool_result", "tool_use_id": "toolu_1",
                   "content": [{"type": "text", "text": "[PERSON_1] reads [EMAIL_ADDRESS_1]"}]})
        );
    }

    let text = format!("Mailing {EMAIL} and {BONES} at {PHONE}.");
    let input = json!({"to": EMAIL, "who": BONES, "n": 1});
    let want_blocks = json!([
        thinking_out(),
        redacted_out(),
        {"type": "text", "text": text},
        tool_use(input.clone())
    ]);
    let m = &got["messages"];
    assert_eq!(m["content"], want_blocks);

    let s = &got["messages_stream"];
    assert_eq!(s["text"], text.as_str());
    assert_eq!(
        s["partial_json"],
        format!(r#"{{"to": "{EMAIL}", "who": "Dr. \"Bones\" McCoy", "n": 1}}"#)
    );
    assert_eq!(s["thinking"], "Mail [EMAIL_ADDRESS_1] for [PERSON_1].");
    assert_eq!(s["signature"], "ErUBCkYIBRgCIkB+answer/sig==");
    // get_final_message(): the redacted block is not streamed here.
    assert_eq!(
        s["final"],
        json!([thinking_out(), {"type": "text", "text": text}, tool_use(input)])
    );
}
