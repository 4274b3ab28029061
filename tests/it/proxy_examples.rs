//! Every proxy example config in conf/examples/ loads with only ANONYMIZER_UPSTREAM set
//! (and the Anthropic key and AWS credentials, which their examples require) and serves its preset end to
//! end: personal data never reaches the upstream. Without their provider keys the LLM
//! examples forward each caller's own (bring your own key). (The session-store examples
//! are `sessions_topology`'s.)

use serde_json::json;

use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::{TestServer, KEY};

const EMAIL: &str = "alan.turing@example.com";

/// (example, request path, request body).
fn cases() -> Vec<(&'static str, &'static str, String)> {
    vec![
        ("openai_chat", "/v1/chat/completions", json!({"messages": [{"role": "user", "content": EMAIL}]}).to_string()),
        ("openai_responses", "/v1/responses", json!({"model": "m", "instructions": format!("user {EMAIL}"), "input": EMAIL}).to_string()),
        ("anthropic_messages", "/v1/messages", json!({"system": EMAIL, "messages": [{"role": "user", "content": EMAIL}]}).to_string()),
        ("loki_push", "/loki/api/v1/push", json!({"streams": [{"stream": {}, "values": [["1", EMAIL]]}]}).to_string()),
        ("elasticsearch_bulk", "/_bulk", format!("{{\"index\":{{}}}}\n{{\"message\":\"{EMAIL}\"}}\n")),
        ("splunk_hec", "/services/collector/event", json!({"event": EMAIL}).to_string()),
        ("openai_embeddings", "/v1/embeddings", json!({"model": "m", "input": [EMAIL, "no one"]}).to_string()),
        ("openai_completions", "/v1/completions", json!({"model": "m", "prompt": EMAIL}).to_string()),
        ("azure_openai", "/openai/deployments/d1/chat/completions?api-version=2024-10-21", json!({"messages": [{"role": "user", "content": EMAIL}]}).to_string()),
        ("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", json!({"contents": [{"role": "user", "parts": [{"text": EMAIL}]}]}).to_string()),
        ("ollama", "/api/chat", json!({"model": "m", "messages": [{"role": "user", "content": EMAIL}], "stream": false}).to_string()),
        ("otlp_logs", "/v1/logs", json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [{"body": {"stringValue": EMAIL}}]}]}]}).to_string()),
        ("vertex", "/v1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent", json!({"contents": [{"role": "user", "parts": [{"text": EMAIL}]}]}).to_string()),
        ("bedrock", "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse", json!({"messages": [{"role": "user", "content": [{"text": EMAIL}]}]}).to_string()),
        ("mcp", "/mcp", json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "lookup", "arguments": {"email": EMAIL}}}).to_string()),
    ]
}

#[test]
fn every_example_config_serves_its_preset_without_leaking() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conf/examples");
    let mut examples: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".yaml")
                .to_owned()
        })
        .collect();
    examples.sort();
    // The session-store examples are served against real Redis deployments there.
    let mut covered: Vec<String> = cases()
        .iter()
        .map(|c| c.0)
        .chain(crate::sessions_topology::EXAMPLES)
        .map(str::to_owned)
        .collect();
    covered.sort();
    assert_eq!(examples, covered, "every example needs a case here");

    for (name, path, body) in cases() {
        // The upstream answers every LLM preset's shape with what it received.
        let up = Upstream::start(|req: &Received| {
            let text = String::from_utf8_lossy(&req.body).into_owned();
            Reply::json(&json!({
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "text": text}],
                "output_text": text,
                "content": [{"type": "text", "text": text}],
                "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}],
                "message": {"role": "assistant", "content": text},
                "result": {"content": [{"type": "text", "text": text}]},
                "output": {"message": {"role": "assistant", "content": [{"text": text}]}}
            }))
        });
        let yaml = std::fs::read_to_string(dir.join(format!("{name}.yaml"))).unwrap();
        let upstream_url = up.url();
        let s = TestServer::start_with_env(
            &yaml,
            &[
                ("ANONYMIZER_UPSTREAM", upstream_url.as_str()),
                ("ANONYMIZER_API_KEYS", KEY),
                ("ANTHROPIC_API_KEY", "provider-key"),
                ("AWS_REGION", "us-east-1"),
                ("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"),
                ("AWS_SECRET_ACCESS_KEY", "aws-secret"),
            ],
        );
        // Our key in X-API-Key; the caller's own provider key where its SDK puts it.
        let own = match name {
            "gemini" => Some(("x-goog-api-key", "caller-own-key")),
            "vertex" => Some(("authorization", "Bearer caller-own-token")),
            "azure_openai" => Some(("api-key", "caller-own-key")),
            "openai_chat" | "openai_responses" | "openai_embeddings" | "openai_completions" => {
                Some(("authorization", "Bearer caller-own-key"))
            }
            _ => None,
        };
        let mut headers = vec![("x-api-key", KEY)];
        headers.extend(own);
        let r = s.post_raw(path, &body, &headers);
        assert_eq!(r.status, 200, "{name}: {}", r.text);
        let got = up.received();
        assert_eq!(got.len(), 1, "{name}");
        assert!(
            !up.all_bytes().contains(EMAIL),
            "{name}: personal data reached the upstream"
        );
        // The Loki example masks; the others use placeholders.
        let want = if name == "loki_push" {
            "*".repeat(EMAIL.len())
        } else {
            "[EMAIL_ADDRESS_1]".to_owned()
        };
        assert!(
            String::from_utf8_lossy(&got[0].body).contains(&want),
            "{name}: {}",
            String::from_utf8_lossy(&got[0].body)
        );
        assert!(
            !up.all_bytes().contains(KEY),
            "{name}: our key was forwarded"
        );
        if name == "anthropic_messages" {
            assert_eq!(got[0].header("x-api-key"), Some("provider-key"));
        }
        if let Some((header, value)) = own {
            assert_eq!(got[0].header(header), Some(value), "{name}");
        }
        // The answer quotes the anonymized request; the client sees the preset's
        // answer field restored.
        let answer = r.json();
        let restored = match name {
            "openai_chat" => answer["choices"][0]["message"]["content"].as_str(),
            "openai_responses" => answer["output_text"].as_str(),
            "anthropic_messages" => answer["content"][0]["text"].as_str(),
            "openai_completions" => answer["choices"][0]["text"].as_str(),
            "azure_openai" => answer["choices"][0]["message"]["content"].as_str(),
            "gemini" | "vertex" => answer["candidates"][0]["content"]["parts"][0]["text"].as_str(),
            "ollama" => answer["message"]["content"].as_str(),
            "mcp" => answer["result"]["content"][0]["text"].as_str(),
            "bedrock" => answer["output"]["message"]["content"][0]["text"].as_str(),
            _ => None,
        };
        // Embeddings answer vectors: nothing comes back to restore.
        let restores = !matches!(
            name,
            "openai_embeddings" | "loki_push" | "elasticsearch_bulk" | "splunk_hec" | "otlp_logs"
        );
        assert_eq!(restored.is_some(), restores, "{name}: {answer}");
        if let Some(text) = restored {
            assert!(text.contains(EMAIL), "{name}: answer not restored: {text}");
            assert!(!text.contains("[EMAIL_ADDRESS_1]"), "{name}: {text}");
        }
    }
}
