use proptest::prelude::*;
use serde_json::json;

use super::*;

fn pair(name: &str, value: &str) -> LabelPairAdapter {
    LabelPairAdapter {
        name: name.to_owned(),
        value: value.to_owned(),
    }
}

fn entry(seconds: i64, line: &str, metadata: Vec<LabelPairAdapter>) -> EntryAdapter {
    EntryAdapter {
        timestamp: Some(Timestamp {
            seconds,
            nanos: 500,
        }),
        line: line.to_owned(),
        structured_metadata: metadata,
        parsed: Vec::new(),
    }
}

fn push() -> PushRequest {
    PushRequest {
        streams: vec![
            StreamAdapter {
                labels: r#"{app="shop", user="jane"}"#.into(),
                entries: vec![
                    entry(
                        1,
                        "user jane.doe@example.com logged in",
                        vec![pair("trace_id", "5b8e")],
                    ),
                    entry(2, "", vec![pair("user_email", "alice.smith@example.org")]),
                ],
                hash: 0,
            },
            StreamAdapter {
                labels: r#"{app="mail"}"#.into(),
                entries: vec![entry(3, "to=<bob.jones@example.net>", vec![])],
                hash: 0,
            },
        ],
        format: String::new(),
    }
}

fn found(mut request: PushRequest, fields: &LokiFields) -> Vec<String> {
    texts(&mut request, fields)
        .into_iter()
        .map(|s| s.clone())
        .collect()
}

#[test]
fn lines_by_default_and_structured_metadata_values_on_request() {
    assert_eq!(
        found(push(), &LokiFields::default()),
        [
            "user jane.doe@example.com logged in",
            "to=<bob.jones@example.net>"
        ]
    );
    let fields = LokiFields {
        structured_metadata: true,
    };
    assert_eq!(
        found(push(), &fields),
        [
            "user jane.doe@example.com logged in",
            "5b8e",
            "alice.smith@example.org",
            "to=<bob.jones@example.net>"
        ]
    );
}

#[test]
fn parsed_values_are_always_texts() {
    let mut request = push();
    request.streams[1].entries[0].parsed = vec![pair("user", "Alice Smith")];
    assert_eq!(
        found(request, &LokiFields::default()),
        [
            "user jane.doe@example.com logged in",
            "to=<bob.jones@example.net>",
            "Alice Smith"
        ]
    );
}

#[test]
fn rewrite_keeps_labels_and_writes_a_snappy_block() {
    let body = encode(&push()).unwrap();
    let out = rewrite(&body, 1 << 20, &LokiFields::default(), |t| {
        t.into_iter().map(|s| s.to_uppercase()).collect()
    })
    .unwrap();
    let decoded = decode(&out, 1 << 20).unwrap();
    assert_eq!(decoded.streams[0].labels, r#"{app="shop", user="jane"}"#);
    assert_eq!(
        decoded.streams[0].entries[0].line,
        "USER JANE.DOE@EXAMPLE.COM LOGGED IN"
    );
    assert_eq!(
        decoded.streams[0].entries[0].structured_metadata,
        [pair("trace_id", "5b8e")]
    );
    assert_eq!(
        decoded.streams[1].entries[0].line,
        "TO=<BOB.JONES@EXAMPLE.NET>"
    );
}

#[test]
fn a_block_over_the_limit_or_not_snappy_is_refused() {
    let body = encode(&push()).unwrap();
    assert_eq!(
        decode(&body, 10).unwrap_err().kind(),
        MessageErrorKind::TooLarge
    );
    // Unframed protobuf (no snappy) is not a push Loki would read either.
    let raw = push().encode_to_vec();
    assert_eq!(
        decode(&raw, 1 << 20).unwrap_err().kind(),
        MessageErrorKind::Malformed
    );
    // A valid snappy block around bytes that are not a push.
    let junk = encoding::encode_snappy_block(b"\xff\xff\xff\xff").unwrap();
    assert_eq!(
        decode(&junk, 1 << 20).unwrap_err().kind(),
        MessageErrorKind::Malformed
    );
}

#[test]
fn json_push_lines_and_opt_in_metadata() {
    let mut doc = json!({"streams": [
        {"stream": {"app": "shop"}, "values": [
            ["1", "user jane.doe@example.com logged in", {"trace_id": "5b8e", "user": "Alice Smith"}],
            ["2", "plain line"],
            ["3", 42],
            "not a value"
        ]},
        {"stream": {"app": "x"}}
    ]});
    let lines: Vec<String> = json_texts(&mut doc, &LokiFields::default())
        .into_iter()
        .map(|s| s.clone())
        .collect();
    assert_eq!(lines, ["user jane.doe@example.com logged in", "plain line"]);
    let all: Vec<String> = json_texts(
        &mut doc,
        &LokiFields {
            structured_metadata: true,
        },
    )
    .into_iter()
    .map(|s| s.clone())
    .collect();
    assert_eq!(
        all,
        [
            "user jane.doe@example.com logged in",
            "5b8e",
            "Alice Smith",
            "plain line"
        ]
    );
}

#[test]
fn rewrite_json_changes_lines_only() {
    let body = br#"{"streams":[{"stream":{"user":"jane"},"values":[["1","hi ann",{"k":"v"}]]}]}"#;
    let out = rewrite_json(body, &LokiFields::default(), |t| {
        t.into_iter().map(|s| s.to_uppercase()).collect()
    })
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        r#"{"streams":[{"stream":{"user":"jane"},"values":[["1","HI ANN",{"k":"v"}]]}]}"#
    );
    let err = rewrite_json(b"[", &LokiFields::default(), |t| t).unwrap_err();
    assert_eq!(err.kind(), MessageErrorKind::Malformed);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = decode(&bytes, 4096);
        if let Ok(block) = encoding::encode_snappy_block(&bytes) {
            if let Ok(mut request) = decode(&block, 4096) {
                let _ = texts(&mut request, &LokiFields { structured_metadata: true });
                prop_assert!(encode(&request).is_ok());
            }
        }
    }

    #[test]
    fn decode_visit_unchanged_encode_round_trips(
        lines in proptest::collection::vec((".{0,10}", ".{0,6}", any::<i64>()), 0..6)
    ) {
        let request = PushRequest {
            streams: vec![StreamAdapter {
                labels: "{a=\"b\"}".into(),
                entries: lines
                    .iter()
                    .map(|(line, value, seconds)| entry(*seconds, line, vec![pair("k", value)]))
                    .collect(),
                hash: 7,
            }],
            format: String::new(),
        };
        let body = encode(&request).unwrap();
        let mut decoded = decode(&body, 1 << 20).unwrap();
        prop_assert_eq!(&decoded, &request);
        replace_texts(texts(&mut decoded, &LokiFields { structured_metadata: true }), |t| t).unwrap();
        prop_assert_eq!(encode(&decoded).unwrap(), body);
    }
}
