//! boto3's `bedrock-runtime` client, unchanged, through `conf/examples/bedrock.yaml`
//! against a local Bedrock (`tests/clients/bedrock_upstream.py`) that checks every
//! request's SigV4 signature with botocore's own signer and answers in Bedrock's wire
//! format: Converse JSON, InvokeModel JSON, and binary event streams cut every 11 bytes.

use serde_json::json;

use crate::sdk_clients::{json_lines, run_client, serve_example_env, ScriptServer};
use crate::support::{python, scratch_dir, KEY};

const USER: &str = "ada.lovelace@example.com";
const SYSTEM: &str = "alan.turing@example.org";

#[test]
fn boto3_signs_as_for_aws_and_bedrock_gets_anonymized_requests_signed_again() {
    let dir = scratch_dir();
    let log = dir.join("requests.jsonl");
    let bedrock = ScriptServer::start(
        &python(),
        "bedrock_upstream.py",
        &[
            log.to_str().expect("a UTF-8 path"),
            "AKIDUPSTREAM",
            "upstream-secret-key",
            "session-token/1+",
            "eu-west-1",
        ],
    );
    let s = serve_example_env(
        "bedrock",
        &bedrock.url(),
        &[
            ("AWS_REGION", "eu-west-1"),
            ("AWS_ACCESS_KEY_ID", "AKIDUPSTREAM"),
            ("AWS_SECRET_ACCESS_KEY", "upstream-secret-key"),
            ("AWS_SESSION_TOKEN", "session-token/1+"),
        ],
    );
    let got = run_client(
        "sdk_bedrock.py",
        &[&format!("http://{}", s.addr), "sdk", KEY],
    );
    let text = format!("Sure, I will write to {USER}; cc {SYSTEM}.");
    assert_eq!(
        got,
        json!({"converse": text, "converse_stream": text, "invoke": text,
               "invoke_stream": text, "wrong_secret": 401})
    );

    // An unsigned client with our key in X-API-Key: signed by the proxy all the same.
    let body = json!({"system": [{"text": format!("The user is {SYSTEM}.")}],
                      "messages": [{"role": "user", "content": [{"text": format!("Write to {USER} please.")}]}]});
    let r = s.post_raw(
        "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse",
        &body.to_string(),
        &[("x-api-key", KEY)],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["output"]["message"]["content"][0]["text"], text);

    let mut requests = json_lines(&log);
    // The wrong secret's request never reached Bedrock.
    assert_eq!(requests.len(), 5);
    let unsigned = requests.pop().unwrap();
    assert_eq!(unsigned["signature_ok"], true);
    assert!(!unsigned["body"].to_string().contains(USER));
    let model = "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0";
    for (r, op) in requests.iter().zip([
        "converse",
        "converse-stream",
        "invoke",
        "invoke-with-response-stream",
    ]) {
        assert_eq!(r["path"], format!("{model}/{op}"));
        assert_eq!(r["signature_ok"], true, "{r}");
        assert_eq!(r["token"], "session-token/1+");
        let raw = r["body"].to_string();
        for secret in [USER, SYSTEM, KEY] {
            assert!(!raw.contains(secret), "{secret} reached Bedrock: {raw}");
        }
    }
    assert_eq!(
        requests[0]["body"]["messages"][0]["content"][0]["text"],
        "Write to [EMAIL_ADDRESS_2] please."
    );
    assert_eq!(
        requests[0]["body"]["system"][0]["text"],
        "The user is [EMAIL_ADDRESS_1]."
    );
    assert_eq!(
        requests[2]["body"]["system"],
        "The user is [EMAIL_ADDRESS_1]."
    );
    assert_eq!(
        requests[2]["body"]["anthropic_version"],
        "bedrock-2023-05-31"
    );
}
