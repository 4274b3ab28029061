use super::*;
use crate::proxy::doc_stream::tests::docs;

/// String headers as AWS writes them.
fn headers(pairs: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in pairs {
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.push(7);
        out.extend_from_slice(&(value.len() as u16).to_be_bytes());
        out.extend_from_slice(value.as_bytes());
    }
    out
}

fn event(kind: &str, payload: &str) -> Vec<u8> {
    encode(
        &headers(&[
            (":event-type", kind),
            (":content-type", "application/json"),
            (":message-type", "event"),
        ]),
        payload.as_bytes(),
    )
}

/// Every message of `bytes`, decoded (their CRCs checked).
fn messages(mut bytes: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while let Some((m, used)) = decode(bytes).unwrap() {
        out.push((
            header(&m.headers, ":event-type").unwrap_or("").to_owned(),
            String::from_utf8(m.payload).unwrap(),
        ));
        bytes = &bytes[used..];
    }
    assert!(bytes.is_empty());
    out
}

#[test]
fn a_placeholder_split_across_messages_comes_out_whole_whatever_the_byte_cuts() {
    let mut stream = Vec::new();
    stream.extend(event("messageStart", r#"{"role":"assistant"}"#));
    stream.extend(event(
        "contentBlockDelta",
        r#"{"contentBlockIndex":0,"delta":{"text":"Hi [P_"},"p":"abc"}"#,
    ));
    stream.extend(event(
        "contentBlockDelta",
        r#"{"contentBlockIndex":0,"delta":{"text":"1]!"},"p":"ab"}"#,
    ));
    stream.extend(event("contentBlockStop", r#"{"contentBlockIndex":0}"#));
    let exception = encode(
        &headers(&[
            (":exception-type", "throttlingException"),
            (":message-type", "exception"),
        ]),
        br#"{"message":"slow down [P_1]"}"#,
    );
    stream.extend(&exception);
    for cut in [1, 5, 13, 64, stream.len()] {
        let mut r = EventStreamRestorer::new(docs("$.delta.text"));
        let mut out = Vec::new();
        for piece in stream.chunks(cut) {
            out.extend(r.push(piece).unwrap());
        }
        out.extend(r.finish().unwrap());
        let got = messages(&out);
        let text: String = got
            .iter()
            .filter(|(k, _)| k == "contentBlockDelta")
            .map(|(_, p)| {
                serde_json::from_str::<serde_json::Value>(p).unwrap()["delta"]["text"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(text, "Hi Ann!", "cut {cut}");
        assert_eq!(
            got[0],
            ("messageStart".into(), r#"{"role":"assistant"}"#.into())
        );
        // Other messages pass byte for byte.
        assert!(out.ends_with(&exception), "cut {cut}");
    }
}

#[test]
fn an_invoke_chunk_restores_the_event_inside_its_base64() {
    let inner = r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"to [P_1]."}}"#;
    let b64 = base64::engine::general_purpose::STANDARD.encode(inner);
    let chunk = event("chunk", &format!(r#"{{"bytes":"{b64}","p":"xyz"}}"#));
    let mut r = EventStreamRestorer::new(docs("$.delta.text"));
    let mut out = r.push(&chunk).unwrap();
    out.extend(r.finish().unwrap());
    let got = messages(&out);
    let payloads: Vec<serde_json::Value> = got
        .iter()
        .map(|(_, p)| serde_json::from_str(p).unwrap())
        .collect();
    let text: String = payloads
        .iter()
        .map(|p| {
            let doc = base64::engine::general_purpose::STANDARD
                .decode(p["bytes"].as_str().unwrap())
                .unwrap();
            assert_eq!(p["p"], "xyz");
            serde_json::from_slice::<serde_json::Value>(&doc).unwrap()["delta"]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(text, "to Ann.");
}

#[test]
fn broken_framing_is_a_fault_never_passed_on_as_restored() {
    let mut bad = event("contentBlockDelta", r#"{"delta":{"text":"x"}}"#);
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let mut r = EventStreamRestorer::new(docs("$.delta.text"));
    assert_eq!(r.push(&bad).unwrap_err().fault, Fault::Malformed);
    let mut r = EventStreamRestorer::new(docs("$.delta.text"));
    let whole = event("contentBlockDelta", r#"{"delta":{"text":"x"}}"#);
    r.push(&whole[..10]).unwrap();
    assert_eq!(r.finish().unwrap_err().fault, Fault::Malformed);
}
