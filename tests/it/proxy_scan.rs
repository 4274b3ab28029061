//! Answer scanning (`scan_answers`): personal data an answer introduces is anonymized,
//! streamed too, or only counted; the values we restored are never touched.

use std::time::Duration;

use serde_json::json;

use crate::proxy_stream::{openai_event, openai_text, placeholder};
use crate::support::upstream::{Received, Reply, Upstream};
use crate::support::TestServer;

const EMAIL: &str = "ada.lovelace@example.com";
const NEW: &str = "margaret.hamilton@example.org";

fn config(upstream: &str, mode: &str) -> String {
    format!(
        "{}routes:\n  - name: scan\n    match: {{path_prefix: /v1}}\n    upstream: {{url: '{upstream}'}}\n    preset: openai_chat\n    auth: passthrough\n    scan_answers: {mode}\n",
        crate::support::base_config()
    )
}

/// The model's answer: our placeholder, and an address of its own cut across deltas.
fn deltas(p: &str) -> Vec<String> {
    vec![
        "Sure, I wrote to ".into(),
        p.into(),
        " and copied margaret.ham".into(),
        "ilton@example".into(),
        ".org as well, since she owns the account.".into(),
    ]
}

fn answer(req: &Received) -> Reply {
    let parts = deltas(&placeholder(req));
    if req.json()["stream"] != true {
        return Reply::json(
            &json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": parts.concat()}}]}),
        );
    }
    let mut events: Vec<Vec<u8>> = parts.iter().map(|d| openai_event(d).into_bytes()).collect();
    events.push(b"data: [DONE]\n\n".to_vec());
    Reply::sse(events, Duration::from_millis(2))
}

fn ask(s: &TestServer, stream: bool) -> crate::support::Response {
    let body = json!({"model": "m", "stream": stream,
                      "messages": [{"role": "user", "content": format!("Write to {EMAIL}")}]});
    s.post_raw("/v1/chat/completions", &body.to_string(), &[])
}

const SCANNED: &str = "Sure, I wrote to ada.lovelace@example.com and copied [EMAIL_ADDRESS_2] as well, since she owns the account.";

#[test]
fn an_address_the_model_introduces_is_anonymized_whole_and_streamed() {
    let up = Upstream::start(answer);
    let s = TestServer::start(&config(&up.url(), "anonymize"));
    let whole = ask(&s, false);
    assert_eq!(whole.status, 200, "{}", whole.text);
    assert_eq!(whole.json()["choices"][0]["message"]["content"], SCANNED);

    let streamed = ask(&s, true);
    assert_eq!(streamed.status, 200, "{}", streamed.text);
    assert_eq!(openai_text(&streamed.text), SCANNED);
    // Not one piece of the new address went out, in any event.
    for piece in ["margaret", "hamilton@", "ilton@example", "example.org"] {
        assert!(!streamed.text.contains(piece), "{piece}: {}", streamed.text);
    }
    let line = "anonymizer_proxy_answer_entities_total{action=\"anonymized\",label=\"EMAIL_ADDRESS\",route=\"scan\"} 2";
    let metrics = s.metrics_with(&[line.to_owned()]);
    assert!(metrics.contains(line), "{metrics}");
    // The log counts them, never shows them.
    let log = s.log();
    assert!(log.contains("answer_entities=1"), "{log}");
    assert!(!log.contains(NEW) && !log.contains(EMAIL));
}

#[test]
fn monitor_mode_counts_what_an_answer_introduces_and_changes_no_byte() {
    let up = Upstream::start(answer);
    let s = TestServer::start(&config(&up.url(), "monitor"));
    let whole = ask(&s, false);
    let text = whole.json()["choices"][0]["message"]["content"].clone();
    assert_eq!(text, SCANNED.replace("[EMAIL_ADDRESS_2]", NEW));
    let streamed = ask(&s, true);
    assert_eq!(
        openai_text(&streamed.text),
        SCANNED.replace("[EMAIL_ADDRESS_2]", NEW)
    );
    let line = "anonymizer_proxy_answer_entities_total{action=\"monitored\",label=\"EMAIL_ADDRESS\",route=\"scan\"} 2";
    let metrics = s.metrics_with(&[line.to_owned()]);
    assert!(metrics.contains(line), "{metrics}");
}

#[test]
fn without_scanning_answers_are_only_restored() {
    let up = Upstream::start(answer);
    let s = TestServer::start(&config(&up.url(), "off"));
    let whole = ask(&s, false);
    assert_eq!(
        whole.json()["choices"][0]["message"]["content"],
        SCANNED.replace("[EMAIL_ADDRESS_2]", NEW)
    );
    assert!(!s
        .metrics()
        .contains("anonymizer_proxy_answer_entities_total{"));
}
