use proptest::prelude::*;

use super::*;
use crate::proxy::format::logs::otlp_proto::{
    ArrayValue, InstrumentationScope, KeyValueList, LogRecord, Resource, ResourceLogs, ScopeLogs,
};

fn text(s: &str) -> AnyValue {
    AnyValue {
        value: Some(any_value::Value::StringValue(s.to_owned())),
    }
}

fn int(n: i64) -> AnyValue {
    AnyValue {
        value: Some(any_value::Value::IntValue(n)),
    }
}

fn kv(key: &str, value: AnyValue) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value: Some(value),
        key_strindex: 0,
    }
}

fn list(values: Vec<KeyValue>) -> AnyValue {
    AnyValue {
        value: Some(any_value::Value::KvlistValue(KeyValueList { values })),
    }
}

fn array(values: Vec<AnyValue>) -> AnyValue {
    AnyValue {
        value: Some(any_value::Value::ArrayValue(ArrayValue { values })),
    }
}

/// A request with a resource, a scope and two records: a plain body, and a structured
/// body with a list inside a key-value list.
fn request() -> ExportLogsServiceRequest {
    ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            resource: Some(Resource {
                attributes: vec![kv("service.name", text("checkout"))],
                ..Resource::default()
            }),
            scope_logs: vec![ScopeLogs {
                scope: Some(InstrumentationScope {
                    name: "shop.auth".into(),
                    attributes: vec![kv("team.lead", text("Bob Jones"))],
                    ..InstrumentationScope::default()
                }),
                log_records: vec![
                    LogRecord {
                        severity_text: "WARN".into(),
                        body: Some(text("user jane.doe@example.com logged in from 203.0.113.7")),
                        attributes: vec![
                            kv("user.name", text("Alice Smith")),
                            kv("attempt", int(2)),
                        ],
                        trace_id: vec![1; 16],
                        ..LogRecord::default()
                    },
                    LogRecord {
                        event_name: "user.signup".into(),
                        body: Some(list(vec![
                            kv(
                                "user",
                                list(vec![kv("email", text("alice.smith@example.org"))]),
                            ),
                            kv("ips", array(vec![text("198.51.100.23"), int(7), text("")])),
                        ])),
                        ..LogRecord::default()
                    },
                ],
                schema_url: String::new(),
            }],
            schema_url: "https://opentelemetry.io/schemas/1.21.0".into(),
        }],
    }
}

fn found(mut request: ExportLogsServiceRequest, fields: &OtlpFields) -> Vec<String> {
    texts(&mut request, fields)
        .into_iter()
        .map(|s| s.clone())
        .collect()
}

const ALL_FIELDS: OtlpFields = OtlpFields {
    log_attributes: true,
    resource_attributes: true,
    scope_attributes: true,
};

#[test]
fn bodies_at_any_depth_and_log_attributes_are_the_default() {
    assert_eq!(
        found(request(), &OtlpFields::default()),
        [
            "user jane.doe@example.com logged in from 203.0.113.7",
            "Alice Smith",
            "alice.smith@example.org",
            "198.51.100.23"
        ]
    );
}

#[test]
fn resource_and_scope_attributes_come_first_when_asked_for() {
    assert_eq!(
        found(request(), &ALL_FIELDS),
        [
            "checkout",
            "Bob Jones",
            "user jane.doe@example.com logged in from 203.0.113.7",
            "Alice Smith",
            "alice.smith@example.org",
            "198.51.100.23"
        ]
    );
    let bodies_only = OtlpFields {
        log_attributes: false,
        ..OtlpFields::default()
    };
    assert_eq!(found(request(), &bodies_only).len(), 3);
}

#[test]
fn rewrite_replaces_the_texts_and_keeps_everything_else() {
    let body = encode(&request());
    let out = rewrite(&body, &OtlpFields::default(), |t| {
        t.into_iter().map(|s| s.to_uppercase()).collect()
    })
    .unwrap();
    let mut want = request();
    for s in texts(&mut want, &OtlpFields::default()) {
        *s = s.to_uppercase();
    }
    assert_eq!(decode(&out).unwrap(), want);
    assert_eq!(
        found(decode(&out).unwrap(), &ALL_FIELDS)[..3],
        [
            "checkout",
            "Bob Jones",
            "USER JANE.DOE@EXAMPLE.COM LOGGED IN FROM 203.0.113.7"
        ]
    );
}

#[test]
fn malformed_and_hostile_bodies_are_typed_errors() {
    let body = encode(&request());
    for bad in [&b"\xff\xff\xff"[..], &body[..body.len() - 3], b"\x0a\x05ab"] {
        assert_eq!(decode(bad).unwrap_err().kind(), MessageErrorKind::Malformed);
    }
    // 150 nested arrays: over prost's recursion limit, refused rather than a stack overflow.
    let mut deep = text("x");
    for _ in 0..150 {
        deep = array(vec![deep]);
    }
    let mut nested = request();
    nested.resource_logs[0].scope_logs[0].log_records[0].body = Some(deep);
    let err = decode(&encode(&nested)).unwrap_err();
    assert_eq!(err.kind(), MessageErrorKind::Malformed);
    assert_eq!(
        err.to_string(),
        "the body is not a message of the route's format"
    );
}

#[test]
fn a_wrong_number_of_answers_is_incomplete() {
    let err = rewrite(&encode(&request()), &OtlpFields::default(), |_| vec![]).unwrap_err();
    assert_eq!(err.kind(), MessageErrorKind::Incomplete);
}

#[test]
fn an_empty_body_is_an_empty_request() {
    let mut empty = decode(b"").unwrap();
    assert!(texts(&mut empty, &ALL_FIELDS).is_empty());
    assert_eq!(encode(&empty), b"");
}

fn any_value_strategy() -> impl Strategy<Value = AnyValue> {
    use any_value::Value as V;
    let leaf = prop_oneof![
        ".{0,12}".prop_map(V::StringValue),
        any::<bool>().prop_map(V::BoolValue),
        any::<i64>().prop_map(V::IntValue),
        // Finite only: NaN would make the equality below fail for the wrong reason.
        (-1e12f64..1e12).prop_map(V::DoubleValue),
        proptest::collection::vec(any::<u8>(), 0..8).prop_map(V::BytesValue),
    ]
    .prop_map(|v| AnyValue { value: Some(v) });
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(array),
            proptest::collection::vec(("[a-z.]{0,6}", inner), 0..4)
                .prop_map(|pairs| { list(pairs.into_iter().map(|(k, v)| kv(&k, v)).collect()) }),
        ]
    })
}

fn attributes_strategy() -> impl Strategy<Value = Vec<KeyValue>> {
    proptest::collection::vec(
        ("[a-z.]{1,8}", any_value_strategy()).prop_map(|(k, v)| kv(&k, v)),
        0..3,
    )
}

fn record_strategy() -> impl Strategy<Value = LogRecord> {
    (
        any::<u64>(),
        0i32..25,
        ".{0,6}",
        proptest::option::of(any_value_strategy()),
        attributes_strategy(),
        proptest::collection::vec(any::<u8>(), 0..17),
    )
        .prop_map(
            |(time, severity, severity_text, body, attributes, trace_id)| LogRecord {
                time_unix_nano: time,
                severity_number: severity,
                severity_text,
                body,
                attributes,
                trace_id,
                ..LogRecord::default()
            },
        )
}

fn request_strategy() -> impl Strategy<Value = ExportLogsServiceRequest> {
    let scope = (
        attributes_strategy(),
        proptest::collection::vec(record_strategy(), 0..4),
    )
        .prop_map(|(attributes, log_records)| ScopeLogs {
            scope: Some(InstrumentationScope {
                name: "s".into(),
                attributes,
                ..InstrumentationScope::default()
            }),
            log_records,
            schema_url: String::new(),
        });
    let resource = (
        attributes_strategy(),
        proptest::collection::vec(scope, 0..3),
    )
        .prop_map(|(attributes, scope_logs)| ResourceLogs {
            resource: Some(Resource {
                attributes,
                ..Resource::default()
            }),
            scope_logs,
            schema_url: String::new(),
        });
    proptest::collection::vec(resource, 0..3)
        .prop_map(|resource_logs| ExportLogsServiceRequest { resource_logs })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn decode_visit_unchanged_encode_round_trips(message in request_strategy()) {
        let bytes = encode(&message);
        let mut decoded = decode(&bytes).unwrap();
        prop_assert_eq!(&decoded, &message);
        replace_texts(texts(&mut decoded, &ALL_FIELDS), |t| t).unwrap();
        prop_assert_eq!(&decoded, &message);
        prop_assert_eq!(encode(&decoded), bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(mut request) = decode(&bytes) {
            let n = texts(&mut request, &ALL_FIELDS).len();
            let out = rewrite(&bytes, &ALL_FIELDS, |t| t).unwrap();
            prop_assert_eq!(texts(&mut decode(&out).unwrap(), &ALL_FIELDS).len(), n);
        }
    }
}
