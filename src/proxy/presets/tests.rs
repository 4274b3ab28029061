//! Every preset path parses; the LLM presets select exactly the texts of realistic
//! requests and answers (as the official SDKs send them), and never a signed one.

use serde_json::{json, Value};

use super::*;
use crate::proxy::jsonpath::JsonPath;
use crate::proxy::route::{compile, Route, RouteConfig};

#[test]
fn every_preset_path_parses_and_names_are_unique() {
    let mut names = std::collections::HashSet::new();
    for preset in PRESETS {
        assert!(names.insert(preset.name));
        for path in preset
            .anonymize
            .iter()
            .chain(preset.restore)
            .chain(preset.restore_stream)
            .chain(preset.restore_events)
            .chain(preset.signed)
        {
            JsonPath::parse(path).unwrap_or_else(|e| panic!("{}: {path}: {e}", preset.name));
        }
        crate::proxy::credentials::parse_all(preset.api_key_in)
            .unwrap_or_else(|e| panic!("{}: api_key_in: {e:?}", preset.name));
    }
    for path in GEMINI_SIGNED {
        JsonPath::parse(path).unwrap();
    }
}

fn route(preset: &str) -> Route {
    let yaml = format!("name: r\nupstream: {{url: 'http://127.0.0.1:9'}}\npreset: {preset}\n");
    compile(&serde_yaml::from_str::<RouteConfig>(&yaml).unwrap()).unwrap()
}

/// The texts `paths` select in `body`, in order.
fn texts(paths: &[JsonPath], body: &Value) -> Vec<String> {
    let bytes = serde_json::to_vec(body).unwrap();
    BodyFormat::Json
        .parse(&bytes, paths)
        .unwrap()
        .texts()
        .to_vec()
}

#[test]
fn openai_chat_selects_every_role_part_name_tool_call_and_tool_result() {
    let r = route("openai_chat");
    let request = json!({"model": "m", "messages": [
        {"role": "developer", "content": "dev A"},
        {"role": "system", "content": [{"type": "text", "text": "sys B"}]},
        {"role": "user", "name": "grace", "content": [
            {"type": "text", "text": "user C"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            {"type": "input_audio", "input_audio": {"data": "UklGR", "format": "wav"}}]},
        {"role": "assistant", "content": null, "refusal": "no D",
         "tool_calls": [{"id": "call_1", "type": "function",
                         "function": {"name": "f", "arguments": "{\"a\": \"E\", \"id\": \"F\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "result G"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "no H"}],
         "function_call": {"name": "g", "arguments": "{\"b\": \"I\"}"}}
    ]});
    let mut got = texts(&r.anonymize, &request);
    got.sort();
    let mut want: Vec<String> = [
        "dev A", "sys B", "user C", "grace", "no D", "E", "F", "result G", "no H", "I",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(got, want);
    let answer = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "J",
        "refusal": "K", "tool_calls": [{"id": "c", "type": "function",
        "function": {"name": "f", "arguments": "{\"x\": \"L\"}"}}]}}]});
    assert_eq!(texts(&r.restore, &answer), ["J", "K", "L"]);
}

#[test]
fn openai_responses_selects_input_items_of_every_type_and_skips_reasoning() {
    let r = route("openai_responses");
    let request = json!({"model": "m", "instructions": "inst A", "input": [
        {"role": "user", "content": "plain B"},
        {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "part C"},
            {"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]},
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
         "content": [{"type": "output_text", "text": "said D", "annotations": []}]},
        {"type": "reasoning", "id": "rs_1", "encrypted_content": "enc-E",
         "summary": [{"type": "summary_text", "text": "sum F"}]},
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{\"a\": \"G\"}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "out H"},
        {"type": "function_call_output", "call_id": "call_2", "output": [{"type": "input_text", "text": "out I"}]},
        {"type": "custom_tool_call", "call_id": "call_3", "name": "c", "input": "raw J"}
    ]});
    let mut got = texts(&r.anonymize, &request);
    got.sort();
    let mut want: Vec<String> = [
        "inst A", "plain B", "part C", "said D", "G", "out H", "out I", "raw J",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(texts(&r.anonymize, &json!({"input": "just K"})), ["just K"]);
    let answer = json!({"output": [
        {"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text", "text": "no"}],
         "content": [{"type": "reasoning_text", "text": "no"}]},
        {"type": "message", "content": [{"type": "output_text", "text": "L"}, {"type": "refusal", "refusal": "M"}]},
        {"type": "function_call", "arguments": "{\"x\": \"N\"}"}
    ], "output_text": "O"});
    assert_eq!(texts(&r.restore, &answer), ["L", "M", "N", "O"]);
}

#[test]
fn anthropic_selects_system_text_tool_use_input_tool_results_and_never_thinking() {
    let r = route("anthropic_messages");
    let request = json!({"model": "m", "system": [{"type": "text", "text": "sys A", "cache_control": {"type": "ephemeral"}}],
    "messages": [
        {"role": "user", "content": "plain B"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "think", "signature": "sig"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "text", "text": "text C"},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"id": "D", "n": 1, "deep": ["E"]}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "res F"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": [{"type": "text", "text": "res G"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}]},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "doc H"},
             "title": "title I", "context": "ctx J"},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBER"}}]}
    ]});
    let mut got = texts(&r.anonymize, &request);
    got.sort();
    let mut want: Vec<String> = [
        "sys A", "plain B", "text C", "D", "E", "res F", "res G", "doc H", "title I", "ctx J",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(texts(&r.anonymize, &json!({"system": "sys K"})), ["sys K"]);
    let answer = json!({"content": [
        {"type": "thinking", "thinking": "no", "signature": "no"},
        {"type": "text", "text": "L"},
        {"type": "tool_use", "id": "t", "name": "f", "input": {"to": "M"}}]});
    assert_eq!(texts(&r.restore, &answer), ["L", "M"]);
    // Even a route that restores every string leaves signed blocks alone.
    let all = compile(
        &serde_yaml::from_str::<RouteConfig>(
            "name: r\nupstream: {url: 'http://127.0.0.1:9'}\npreset: anthropic_messages\nrestore: ['$']\n",
        )
        .unwrap(),
    )
    .unwrap();
    let got = texts(&all.restore, &answer);
    assert!(!got.iter().any(|t| t == "no"), "{got:?}");
}

/// The texts `paths` select in `body` read with the route's own body format.
fn texts_as(route: &Route, paths: &[JsonPath], body: &Value) -> Vec<String> {
    let bytes = serde_json::to_vec(body).unwrap();
    route.body.parse(&bytes, paths).unwrap().texts().to_vec()
}

#[test]
fn embeddings_and_completions_select_inputs_prompts_and_suffixes_not_token_arrays() {
    let r = route("openai_embeddings");
    let request = json!({"model": "m", "input": ["A", "B"], "encoding_format": "base64"});
    assert_eq!(texts(&r.anonymize, &request), ["A", "B"]);
    assert!(texts(&r.anonymize, &json!({"model": "m", "input": [[1, 2], [3]]})).is_empty());
    let r = route("openai_completions");
    let request = json!({"model": "m", "prompt": ["C", "D"], "suffix": "E", "user": "u"});
    assert_eq!(texts(&r.anonymize, &request), ["C", "D", "E"]);
    let answer = json!({"object": "text_completion", "choices": [{"text": "F", "index": 0, "finish_reason": "stop"}]});
    assert_eq!(texts(&r.restore, &answer), ["F"]);
    assert_eq!(texts(&r.restore_stream, &answer), ["F"]);
    // Azure's presets are OpenAI's, keyed where AzureOpenAI puts its key.
    assert_eq!(
        route("azure_openai_chat").anonymize,
        route("openai_chat").anonymize
    );
    assert_eq!(AZURE_OPENAI_CHAT.api_key_in, ["api-key", "bearer"]);
}

#[test]
fn gemini_selects_text_parts_function_calls_and_responses_and_never_thoughts() {
    let r = route("gemini");
    let request = json!({
        "systemInstruction": {"role": "system", "parts": [{"text": "sys A"}]},
        "system_instruction": {"parts": [{"text": "sys B"}]},
        "contents": [
            {"role": "user", "parts": [{"text": "user C"}, {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]},
            {"role": "model", "parts": [
                {"text": "thinking T", "thought": true, "thoughtSignature": "c2ln"},
                {"functionCall": {"name": "f", "args": {"to": "D", "id": "E"}}, "thoughtSignature": "c2ln"}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"result": "F"}}}]}
        ],
        "tools": [{"functionDeclarations": [{"name": "f", "description": "sends"}]}]
    });
    let mut got = texts(&r.anonymize, &request);
    got.sort();
    assert_eq!(got, ["D", "E", "F", "sys A", "sys B", "user C"]);
    let answer = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "thinking U", "thought": true},
        {"text": "G"},
        {"functionCall": {"name": "f", "args": {"to": "H"}}, "thoughtSignature": "c2ln"}]},
        "finishReason": "STOP", "index": 0}]});
    assert_eq!(texts(&r.restore, &answer), ["G", "H"]);
    assert_eq!(texts(&r.restore_stream, &answer), ["G", "H"]);
}

#[test]
fn ollama_selects_messages_thinking_tool_arguments_prompts_and_inputs() {
    let r = route("ollama");
    let chat = json!({"model": "m", "messages": [
        {"role": "system", "content": "sys A"},
        {"role": "user", "content": "user B", "images": ["AAAA"]},
        {"role": "assistant", "content": "", "thinking": "think C",
         "tool_calls": [{"function": {"name": "f", "arguments": {"to": "D", "type": "E"}}}]},
        {"role": "tool", "content": "result F", "tool_name": "f"}]});
    let mut got = texts_as(&r, &r.anonymize, &chat);
    got.retain(|t| !t.is_empty());
    got.sort();
    assert_eq!(got, ["D", "E", "result F", "sys A", "think C", "user B"]);
    let generate =
        json!({"model": "m", "prompt": "G", "suffix": "H", "system": "I", "context": [1, 2]});
    assert_eq!(texts_as(&r, &r.anonymize, &generate), ["G", "H", "I"]);
    assert_eq!(
        texts_as(&r, &r.anonymize, &json!({"model": "m", "input": ["J"]})),
        ["J"]
    );
    let answer = json!({"model": "m", "message": {"role": "assistant", "content": "K", "thinking": "L",
        "tool_calls": [{"function": {"name": "f", "arguments": {"to": "M"}}}]}, "done": true});
    assert_eq!(texts(&r.restore, &answer), ["K", "L", "M"]);
    assert_eq!(
        texts(&r.restore_stream, &json!({"response": "N", "done": false})),
        ["N"]
    );
}
