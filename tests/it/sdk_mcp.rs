//! The official `mcp` Python SDKs, unchanged, on both sides of the proxy served with
//! `conf/examples/mcp.yaml`: their Streamable HTTP client calls tools of their own server
//! through it. The 1.x line speaks the session-based revision (`initialize`,
//! `Mcp-Session-Id`, the GET stream, DELETE at the end), answered as SSE or as JSON; the
//! 2.x line the 2026 stateless revision (`server/discover`, method and tool name in
//! headers, `Mcp-Param-*` headers mirroring arguments).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::sdk_clients::{
    json_lines, run_client_with, serve_example, serve_example_with, ScriptServer, BONES,
};
use crate::support::{python, python_mcp2, scratch_dir, KEY};

const EMAIL: &str = "grace.hopper@example.com";
/// The name is the deny list's [`BONES`] (found without the model, quotes and all).
const NOTE: &str = r#"Call Dr. "Bones" McCoy at +1 415-555-0132 about the invoice."#;

/// An MCP server of `tests/clients/mcp_server.py`, logging each tool call to `log`.
struct McpServer {
    server: ScriptServer,
    log: PathBuf,
}

impl McpServer {
    fn start(python: &Path, log: PathBuf, flags: &[&str]) -> McpServer {
        let mut args = vec![log.to_str().expect("a UTF-8 path")];
        args.extend_from_slice(flags);
        let server = ScriptServer::start(python, "mcp_server.py", &args);
        McpServer { server, log }
    }

    fn url(&self) -> String {
        self.server.url()
    }

    /// Each tool call as the server received it.
    fn calls(&self) -> Vec<Value> {
        json_lines(&self.log)
    }
}

fn run_client(python: &Path, args: &[&str]) -> Value {
    run_client_with(python, "sdk_mcp.py", args)
}

/// What the client must get back: every value restored, the tool's own data as it was.
fn restored(version: &str) -> Value {
    let lookup = format!("Customer {EMAIL} found; note filed: {NOTE}");
    json!({
        "version": version,
        "tools": ["account_owner", "customer_card", "lookup_customer"],
        "lookup": {"text": [lookup], "structured": {"result": lookup}, "error": false},
        "card": {
            // The structured result as JSON text: the name's quotes escaped in it.
            "text": ["{\n  \"email\": \"grace.hopper@example.com\",\n  \"greeting\": \"Dear Dr. \\\"Bones\\\" McCoy,\"\n}"],
            "structured": {"email": EMAIL, "greeting": format!("Dear {BONES},")},
            "error": false
        },
        "owner": {
            "text": ["The owner is Margaret Hamilton (margaret.hamilton@example.org)."],
            "structured": {"result": "The owner is Margaret Hamilton (margaret.hamilton@example.org)."},
            "error": false
        },
        "resource": [NOTE]
    })
}

/// The tool calls as the server must receive them: placeholders only, the same ones in
/// every call of the session.
fn anonymized() -> Vec<Value> {
    vec![
        json!({"tool": "lookup_customer", "arguments": {
            "email": "[EMAIL_ADDRESS_1]",
            "note": "Call [PERSON_1] at [PHONE_NUMBER_1] about the invoice."}}),
        json!({"tool": "customer_card", "arguments": {
            "email": "[EMAIL_ADDRESS_1]", "name": "[PERSON_1]"}}),
        json!({"tool": "account_owner", "arguments": {"account": "ACC-1"}}),
    ]
}

fn without_headers(calls: &[Value]) -> Vec<Value> {
    calls
        .iter()
        .map(|c| json!({"tool": c["tool"], "arguments": c["arguments"]}))
        .collect()
}

#[test]
fn the_mcp_1x_sdk_works_unchanged_through_the_proxy_with_sse_and_json_answers() {
    for flags in [&[][..], &["--json"][..]] {
        let dir = scratch_dir();
        let server = McpServer::start(&python(), dir.join("calls.jsonl"), flags);
        let proxy = serve_example("mcp", &server.url());
        let url = format!("http://{}/mcp", proxy.addr);
        let got = run_client(&python(), &[&url, KEY]);
        assert_eq!(got, restored("1:2025-11-25"), "{flags:?}");
        let calls = server.calls();
        assert_eq!(without_headers(&calls), anonymized(), "{flags:?}");
        // One MCP session keyed one session of ours: the resource read later, with no
        // text of its own, was restored from it.
        let session = calls[0]["headers"]["mcp-session-id"].as_str().unwrap();
        assert!(calls
            .iter()
            .all(|c| c["headers"]["mcp-session-id"] == session));
        assert!(!std::fs::read_to_string(&server.log)
            .unwrap()
            .contains("Bones"));
    }
}

#[test]
fn the_mcp_2x_sdk_speaks_the_stateless_revision_through_the_proxy_and_its_param_headers_agree() {
    let dir = scratch_dir();
    let server = McpServer::start(&python_mcp2(), dir.join("calls.jsonl"), &["--stateless"]);
    let proxy = serve_example("mcp", &server.url());
    let url = format!("http://{}/mcp", proxy.addr);
    // No MCP session here: the client names ours.
    let got = run_client(&python_mcp2(), &[&url, KEY, "agent-conversation-7"]);
    assert_eq!(got, restored("2:2026-07-28"));
    let calls = server.calls();
    assert_eq!(without_headers(&calls), anonymized());
    // The argument the tool mirrors into a header went anonymized there too, so the
    // server (which checks that both agree) accepted the call.
    assert_eq!(
        calls[0]["headers"],
        json!({"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call",
               "mcp-name": "lookup_customer", "mcp-param-customer": "[EMAIL_ADDRESS_1]"})
    );
}

#[test]
fn with_answer_scanning_what_a_tool_looks_up_reaches_the_agent_anonymized() {
    let dir = scratch_dir();
    let server = McpServer::start(&python(), dir.join("calls.jsonl"), &[]);
    let proxy = serve_example_with("mcp", &server.url(), "    scan_answers: anonymize\n");
    let url = format!("http://{}/mcp", proxy.addr);
    let got = run_client(&python(), &[&url, KEY]);
    let mut want = restored("1:2025-11-25");
    // The owner came from the tool, not from the agent: name and address stay out of the
    // agent's context; what the agent sent comes back restored as before.
    let owner = "The owner is [PERSON_2] ([EMAIL_ADDRESS_2]).";
    want["owner"] = json!({"text": [owner], "structured": {"result": owner}, "error": false});
    assert_eq!(got, want);
}

#[test]
fn the_older_http_sse_transport_gets_its_answers_restored_on_the_get_stream() {
    let dir = scratch_dir();
    let server = McpServer::start(&python(), dir.join("calls.jsonl"), &["--sse"]);
    let proxy = serve_example("mcp", &server.url());
    let url = format!("http://{}/sse", proxy.addr);
    // The answers to the POSTs come on the GET stream: restored from the session the
    // client names, whose map grew after the stream opened.
    let got = run_client(&python(), &[&url, KEY, "agent-conversation-9", "--sse"]);
    assert_eq!(got, restored("1:2025-11-25"));
    assert_eq!(without_headers(&server.calls()), anonymized());
}
