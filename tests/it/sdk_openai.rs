//! The real `openai` Python SDK, unchanged, through the proxy served with
//! `conf/examples/openai_chat.yaml` and `openai_responses.yaml`, against a local upstream
//! that speaks OpenAI's wire format (JSON and SSE, tool calls, reasoning items).

use serde_json::{json, Value};

use crate::sdk_clients::{
    assert_nothing_personal, run_client, serve_example, sse, sse_data, BONES, EMAIL, PHONE,
    PROVIDER_KEY,
};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::KEY;

/// What the model "says": it quotes the placeholders it was given.
const TEXT: &str = "Mailing [EMAIL_ADDRESS_1] and [PERSON_1] at [PHONE_NUMBER_1].";
const ARGS: &str = r#"{"to": "[EMAIL_ADDRESS_1]", "who": "[PERSON_1]"}"#;

fn restored_text() -> String {
    format!("Mailing {EMAIL} and {BONES} at {PHONE}.")
}

fn restored_args() -> String {
    format!(r#"{{"to": "{EMAIL}", "who": "Dr. \"Bones\" McCoy"}}"#)
}

/// A reasoning item as the API returns it: signed, with a placeholder in its summary.
fn reasoning_out() -> Value {
    json!({"type": "reasoning", "id": "rs_2",
           "summary": [{"type": "summary_text", "text": "User [EMAIL_ADDRESS_1] asked"}],
           "encrypted_content": "gAAAAB-[EMAIL_ADDRESS_1]-opaque=="})
}

fn message_item(text: &str, status: &str) -> Value {
    let content = if text.is_empty() {
        json!([])
    } else {
        json!([{"type": "output_text", "text": text, "annotations": []}])
    };
    json!({"type": "message", "id": "msg_1", "status": status, "role": "assistant", "content": content})
}

fn call_item(arguments: &str, status: &str) -> Value {
    json!({"type": "function_call", "id": "fc_1", "call_id": "call_2", "name": "send_mail",
           "arguments": arguments, "status": status})
}

fn response(status: &str, output: Value) -> Value {
    json!({"id": "resp_1", "object": "response", "created_at": 1, "status": status,
           "model": "gpt-test", "output": output, "parallel_tool_calls": true,
           "tool_choice": "auto", "tools": [], "error": null, "incomplete_details": null,
           "instructions": null, "metadata": {}, "temperature": 1.0, "top_p": 1.0,
           "usage": {"input_tokens": 10, "output_tokens": 10, "total_tokens": 20,
                     "input_tokens_details": {"cached_tokens": 0},
                     "output_tokens_details": {"reasoning_tokens": 0}}})
}

fn chat_answer(req: &Received) -> Reply {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    if req.json()["stream"] == true {
        return sse_data(&[
            chunk(json!({"role": "assistant", "content": ""}), Value::Null),
            chunk(json!({"content": "Mailing [EMAIL_"}), Value::Null),
            chunk(
                json!({"content": "ADDRESS_1] and [PERSON_1] at [PHONE"}),
                Value::Null,
            ),
            chunk(json!({"content": "_NUMBER_1]."}), Value::Null),
            chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_2", "type": "function",
                                         "function": {"name": "send_mail", "arguments": ""}}]}),
                Value::Null,
            ),
            chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"to\": \"[EMAIL_ADD"}}]}),
                Value::Null,
            ),
            chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": "RESS_1]\", \"who\": \"[PERSON_1]\"}"}}]}),
                Value::Null,
            ),
            chunk(json!({}), json!("tool_calls")),
        ]);
    }
    Reply::json(&json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": TEXT,
            "tool_calls": [{"id": "call_2", "type": "function",
                            "function": {"name": "send_mail", "arguments": ARGS}}]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
    }))
}

fn responses_answer(req: &Received) -> Reply {
    let done = response(
        "completed",
        json!([
            reasoning_out(),
            message_item(TEXT, "completed"),
            call_item(ARGS, "completed")
        ]),
    );
    if req.json()["stream"] != true {
        return Reply::json(&done);
    }
    let text_event = |kind: &str, field: &str, value: &str, n: u64| {
        json!({"type": kind, "sequence_number": n, "item_id": "msg_1", "output_index": 1,
               "content_index": 0, field: value, "logprobs": []})
    };
    let args_event = |kind: &str, field: &str, value: &str, n: u64| json!({"type": kind, "sequence_number": n, "item_id": "fc_1", "output_index": 2, field: value});
    let part = |text: &str| json!({"type": "output_text", "text": text, "annotations": []});
    sse(&[
        (
            "response.created",
            json!({"type": "response.created", "sequence_number": 0, "response": response("in_progress", json!([]))}),
        ),
        (
            "response.output_item.added",
            json!({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": reasoning_out()}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": reasoning_out()}),
        ),
        (
            "response.output_item.added",
            json!({"type": "response.output_item.added", "sequence_number": 3, "output_index": 1, "item": message_item("", "in_progress")}),
        ),
        (
            "response.content_part.added",
            json!({"type": "response.content_part.added", "sequence_number": 4, "item_id": "msg_1", "output_index": 1, "content_index": 0, "part": part("")}),
        ),
        (
            "response.output_text.delta",
            text_event("response.output_text.delta", "delta", "Mailing [EMAIL_", 5),
        ),
        (
            "response.output_text.delta",
            text_event(
                "response.output_text.delta",
                "delta",
                "ADDRESS_1] and [PERS",
                6,
            ),
        ),
        (
            "response.output_text.delta",
            text_event(
                "response.output_text.delta",
                "delta",
                "ON_1] at [PHONE_NUMBER_1].",
                7,
            ),
        ),
        (
            "response.output_text.done",
            text_event("response.output_text.done", "text", TEXT, 8),
        ),
        (
            "response.content_part.done",
            json!({"type": "response.content_part.done", "sequence_number": 9, "item_id": "msg_1", "output_index": 1, "content_index": 0, "part": part(TEXT)}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "sequence_number": 10, "output_index": 1, "item": message_item(TEXT, "completed")}),
        ),
        (
            "response.output_item.added",
            json!({"type": "response.output_item.added", "sequence_number": 11, "output_index": 2, "item": call_item("", "in_progress")}),
        ),
        (
            "response.function_call_arguments.delta",
            args_event(
                "response.function_call_arguments.delta",
                "delta",
                "{\"to\": \"[EMAIL_ADD",
                12,
            ),
        ),
        (
            "response.function_call_arguments.delta",
            args_event(
                "response.function_call_arguments.delta",
                "delta",
                "RESS_1]\", \"who\": \"[PERSON_1]\"}",
                13,
            ),
        ),
        (
            "response.function_call_arguments.done",
            args_event(
                "response.function_call_arguments.done",
                "arguments",
                ARGS,
                14,
            ),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "sequence_number": 15, "output_index": 2, "item": call_item(ARGS, "completed")}),
        ),
        (
            "response.completed",
            json!({"type": "response.completed", "sequence_number": 16, "response": done}),
        ),
    ])
}

/// The reasoning item the SDK sends back in the history (see `sdk_openai.py`).
fn reasoning_in() -> Value {
    json!({"type": "reasoning", "id": "rs_1",
           "summary": [{"type": "summary_text", "text": "Think about [EMAIL_ADDRESS_1] and signed-ann@example.net"}],
           "encrypted_content": "gAAAAB-signed-ann@example.net-opaque=="})
}

fn json_args(text: &Value) -> Value {
    serde_json::from_str(text.as_str().expect("arguments string")).expect("arguments are JSON")
}

#[test]
fn the_openai_sdk_works_unchanged_and_nothing_personal_reaches_the_upstream() {
    let up = Upstream::start(|req: &Received| match req.path.as_str() {
        "/v1/chat/completions" => chat_answer(req),
        "/v1/responses" => responses_answer(req),
        _ => Reply::json(&json!({"error": "unexpected path"})),
    });
    let chat = serve_example("openai_chat", &up.url());
    let responses = serve_example("openai_responses", &up.url());
    let got = run_client(
        "sdk_openai.py",
        &[
            &format!("http://{}", chat.addr),
            &format!("http://{}", responses.addr),
            KEY,
        ],
    );

    // What the upstream received: placeholders only, the provider's key only.
    let received = up.received();
    assert_eq!(received.len(), 4, "two chat and two responses calls");
    for r in &received {
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {PROVIDER_KEY}").as_str())
        );
        assert_eq!(r.header("x-api-key"), None);
        assert_nothing_personal(&String::from_utf8_lossy(&r.raw));
    }
    for r in &received[..2] {
        let body = r.json();
        let m = &body["messages"];
        assert_eq!(m[0]["content"], "You assist [EMAIL_ADDRESS_1].");
        assert_eq!(m[1]["content"][0]["text"], "Call me on [PHONE_NUMBER_1].");
        assert_eq!(m[1]["name"], "grace");
        assert_eq!(
            json_args(&m[2]["tool_calls"][0]["function"]["arguments"]),
            json!({"who": "[PERSON_1]", "email": "[EMAIL_ADDRESS_1]"})
        );
        assert_eq!(m[3]["content"], "[PERSON_1] reads [EMAIL_ADDRESS_1]");
        assert_eq!(m[3]["tool_call_id"], "call_1");
    }
    for r in &received[2..] {
        let body = r.json();
        assert_eq!(body["instructions"], "Answer [EMAIL_ADDRESS_1] briefly.");
        let input = &body["input"];
        assert_eq!(
            input[0]["content"][0]["text"],
            "Mail [EMAIL_ADDRESS_1] or call [PHONE_NUMBER_1]."
        );
        // Signed: byte for byte in the forwarded body, placeholders and all.
        assert_eq!(input[1], reasoning_in());
        let raw = String::from_utf8_lossy(&r.body);
        assert!(
            raw.contains(r#""encrypted_content":"gAAAAB-signed-ann@example.net-opaque==""#),
            "{raw}"
        );
        assert_eq!(
            json_args(&input[2]["arguments"]),
            json!({"who": "[PERSON_1]"})
        );
        assert_eq!(input[3]["output"], "[PERSON_1] reads [EMAIL_ADDRESS_1]");
        assert_eq!(input[3]["call_id"], "call_1");
    }

    // What the SDK made of the answers: every field restored, JSON and streamed.
    let (text, args) = (restored_text(), restored_args());
    assert_eq!(got["chat"]["content"], text.as_str());
    assert_eq!(
        json_args(&got["chat"]["arguments"]),
        json!({"to": EMAIL, "who": BONES})
    );
    assert_eq!(got["chat_stream"]["content"], text.as_str());
    assert_eq!(got["chat_stream"]["arguments"], args.as_str());
    let r = &got["responses"];
    assert_eq!(r["output_text"], text.as_str());
    assert_eq!(
        json_args(&r["arguments"][0]),
        json!({"to": EMAIL, "who": BONES})
    );
    assert_eq!(r["reasoning"], json!([reasoning_out()]));
    let s = &got["responses_stream"];
    assert_eq!(s["deltas"], text.as_str());
    assert_eq!(s["done_text"], json!([text]));
    assert_eq!(s["arg_deltas"], args.as_str());
    assert_eq!(s["done_args"], json!([args]));
    assert_eq!(s["output_text"], text.as_str());
    assert_eq!(s["arguments"], json!([args]));
    assert_eq!(s["reasoning"], json!([reasoning_out()]));
}
