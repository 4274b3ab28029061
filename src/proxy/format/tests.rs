use super::*;

fn paths(p: &[&str]) -> Vec<JsonPath> {
    p.iter().map(|p| JsonPath::parse(p).unwrap()).collect()
}

/// Rewrites `body` with every selected text upper-cased.
fn upper(format: BodyFormat, body: &[u8], p: &[&str]) -> Result<String, FormatError> {
    let paths = paths(p);
    let parsed = format.parse(body, &paths)?;
    let new: Vec<String> = parsed.texts().iter().map(|t| t.to_uppercase()).collect();
    Ok(String::from_utf8(parsed.write(&new)?).unwrap())
}

#[test]
fn json_rewrites_selected_strings_and_keeps_key_order() {
    let body = br#"{"model":"m","messages":[{"role":"user","content":"hi ann"}],"z":1}"#;
    assert_eq!(
        upper(BodyFormat::Json, body, &["$.messages[*].content"]).unwrap(),
        r#"{"model":"m","messages":[{"role":"user","content":"HI ANN"}],"z":1}"#
    );
}

#[test]
fn embedded_json_stays_valid_json() {
    let body = br#"{"messages":[{"tool_calls":[{"function":{"arguments":"{\"name\":\"ann \\\"x\\\"\"}"}}]}]}"#;
    let out = upper(
        BodyFormat::Json,
        body,
        &["$.messages[*].tool_calls[*].function.arguments | json"],
    )
    .unwrap();
    let v: Value = serde_json::from_str(&out).unwrap();
    let args = v["messages"][0]["tool_calls"][0]["function"]["arguments"]
        .as_str()
        .unwrap();
    let inner: Value = serde_json::from_str(args).unwrap();
    assert_eq!(inner["name"], "ANN \"X\"");
}

#[test]
fn ndjson_rewrites_only_documents_with_selected_fields() {
    let body = b"{\"index\": {\"_id\": \"1\"}}\n{\"message\":\"ann\", \"n\": 1}\n\n{\"event\":\"x\"}{\"message\":\"bob\"}\n";
    assert_eq!(
        upper(BodyFormat::Ndjson, body, &["$.message"]).unwrap(),
        "{\"index\": {\"_id\": \"1\"}}\n{\"message\":\"ANN\", \"n\": 1}\n\n{\"event\":\"x\"}{\"message\":\"BOB\"}\n"
    );
}

#[test]
fn a_rewritten_document_keeps_every_byte_but_its_changed_strings() {
    // Numbers a parse would respell, spacing, escapes and unselected strings stay.
    let source = r#"{ "message": "ann", "took": 1.50, "seq": 123456789012345678901234567890, "host": "café", "user": "ann" }"#;
    let body = format!("{{\"index\":{{}}}}\n{source}\n");
    assert_eq!(
        upper(
            BodyFormat::ElasticsearchBulk,
            body.as_bytes(),
            &["$.message"]
        )
        .unwrap(),
        format!(
            "{{\"index\":{{}}}}\n{}\n",
            source.replacen("\"ann\"", "\"ANN\"", 1)
        )
    );
    // A document whose strings cannot be lined up with its bytes (a repeated key) is
    // written from its parsed value.
    assert_eq!(
        upper(BodyFormat::Json, br#"{"a": "x", "a": "y"}"#, &["$.a"]).unwrap(),
        r#"{"a":"Y"}"#
    );
    let push =
        br#"{"streams": [{"stream": {"app": "a"}, "values": [["1", "hi ann", {"k": "v"}]]}]}"#;
    assert_eq!(
        upper(BodyFormat::LokiPushJson, push, &[]).unwrap(),
        r#"{"streams": [{"stream": {"app": "a"}, "values": [["1", "HI ANN", {"k": "v"}]]}]}"#
    );
}

#[test]
fn a_malformed_document_fails_the_whole_body() {
    let body = b"{\"message\":\"ann\"}\n{\"message\": oops}\n";
    assert_eq!(
        upper(BodyFormat::Ndjson, body, &["$.message"]),
        Err(FormatError::NotJson { part: 1 })
    );
    assert_eq!(
        upper(BodyFormat::Json, b"nope", &["$.a"]),
        Err(FormatError::NotJson { part: 0 })
    );
}

#[test]
fn bulk_rewrites_sources_and_keeps_action_lines_byte_for_byte() {
    let body = concat!(
        "{ \"index\" : { \"_index\" : \"logs\", \"_id\" : \"message\" } }\n",
        "{\"message\":\"ann\",\"log\":{\"level\":\"info\"},\"event.original\":\"raw ann\"}\n",
        "{\"delete\":{\"_id\":\"2\"}}\n",
        "{\"create\":{}}\n",
        "{\"msg\":\"cat\",\"event\":{\"original\":\"dog\"}}\n",
        "{\"update\":{\"_id\":\"3\"}}\n",
        "{\"doc\":{\"message\":\"eve\"},\"upsert\":{\"message\":\"fay\"},\"message\":\"not a field\"}\n",
    );
    let fields = [
        "$.message",
        "$.msg",
        "$['event.original']",
        "$.event.original",
    ];
    assert_eq!(
        upper(BodyFormat::ElasticsearchBulk, body.as_bytes(), &fields).unwrap(),
        concat!(
            "{ \"index\" : { \"_index\" : \"logs\", \"_id\" : \"message\" } }\n",
            "{\"message\":\"ANN\",\"log\":{\"level\":\"info\"},\"event.original\":\"RAW ANN\"}\n",
            "{\"delete\":{\"_id\":\"2\"}}\n",
            "{\"create\":{}}\n",
            "{\"msg\":\"CAT\",\"event\":{\"original\":\"DOG\"}}\n",
            "{\"update\":{\"_id\":\"3\"}}\n",
            "{\"doc\":{\"message\":\"EVE\"},\"upsert\":{\"message\":\"FAY\"},\"message\":\"not a field\"}\n",
        )
    );
}

#[test]
fn ip_fields_are_typed_texts_and_the_rest_free_text() {
    let body = b"{\"index\":{}}\n{\"message\":\"from 10.0.0.1\",\"client\":{\"ip\":\"10.0.0.1\"},\"related.ip\":[\"10.0.0.1\",\"::1\"]}\n";
    let paths = paths(&["$.message", "$.client.ip | ip", "$['related.ip'] | ip"]);
    let parsed = BodyFormat::ElasticsearchBulk.parse(body, &paths).unwrap();
    assert_eq!(
        parsed.texts(),
        ["from 10.0.0.1", "10.0.0.1", "10.0.0.1", "::1"]
    );
    use TextType::{IpAddress, Text};
    assert_eq!(parsed.types(), [Text, IpAddress, IpAddress, IpAddress]);
}

#[test]
fn bulk_refuses_what_it_cannot_pair() {
    let f = &["$.message"];
    let bulk = BodyFormat::ElasticsearchBulk;
    assert_eq!(
        upper(bulk, b"{\"index\":{}}\n", f),
        Err(FormatError::Unexpected {
            part: 0,
            why: "a bulk action without its source line"
        })
    );
    assert!(matches!(
        upper(bulk, b"{\"message\":\"ann\"}\n", f),
        Err(FormatError::Unexpected { part: 0, .. })
    ));
    assert!(matches!(
        upper(bulk, b"{\"index\":{}}\n\"ann\"\n", f),
        Err(FormatError::Unexpected { part: 1, .. })
    ));
    assert!(matches!(
        upper(bulk, b"{\"delete\":{}}\n{\"message\":\"ann\"}\n", f),
        Err(FormatError::Unexpected { part: 1, .. })
    ));
    assert_eq!(upper(bulk, b"", f).unwrap(), "");
}

#[test]
fn lines_rewrites_every_line_and_keeps_breaks() {
    let body = b"ann one\r\n\nbob two\nlast";
    assert_eq!(
        upper(BodyFormat::Lines, body, &["$"]).unwrap(),
        "ANN ONE\r\n\nBOB TWO\nLAST"
    );
    assert_eq!(
        upper(BodyFormat::Lines, b"ok\n\xff\xfe\n", &["$"]),
        Err(FormatError::NotText { part: 1 })
    );
}

#[test]
fn wrong_counts_write_nothing() {
    let p = paths(&["$.a"]);
    let parsed = BodyFormat::Json.parse(br#"{"a":"x"}"#, &p).unwrap();
    assert_eq!(parsed.write(&[]), Err(FormatError::Incomplete));
}

#[test]
fn log_messages_are_read_by_content_type_and_list_their_own_texts() {
    let json = "application/json; charset=utf-8";
    assert_eq!(
        BodyFormat::OtlpLogs.for_content_type(json),
        BodyFormat::OtlpLogsJson
    );
    assert_eq!(
        BodyFormat::OtlpLogs.for_content_type("application/x-protobuf"),
        BodyFormat::OtlpLogs
    );
    assert_eq!(
        BodyFormat::LokiPush.for_content_type(json),
        BodyFormat::LokiPushJson
    );
    assert!(BodyFormat::LokiPush.accepts("application/x-protobuf"));
    assert!(!BodyFormat::LokiPushJson.accepts("application/x-protobuf"));
    assert!(!BodyFormat::OtlpLogs.accepts(""));
    // Empty texts are no texts: the write pass must find the same slots.
    let body =
        br#"{"streams":[{"stream":{"app":"a"},"values":[["1","",{"k":"meta"}],["2","hi ann"]]}]}"#;
    assert_eq!(
        upper(BodyFormat::LokiPushJson, body, &[]).unwrap(),
        r#"{"streams":[{"stream":{"app":"a"},"values":[["1","",{"k":"meta"}],["2","HI ANN"]]}]}"#
    );
    let fields = logs::LogFields {
        loki: logs::loki::LokiFields {
            structured_metadata: true,
        },
        ..logs::LogFields::default()
    };
    let parsed = BodyFormat::LokiPushJson
        .parse_with(body, &[], &fields)
        .unwrap();
    assert_eq!(parsed.texts(), ["meta", "hi ann"]);
    assert_eq!(
        BodyFormat::OtlpLogs.parse(b"\xff\xff", &[]).unwrap_err(),
        FormatError::NotMessage {
            what: "not a protobuf OTLP ExportLogsServiceRequest"
        }
    );
}
