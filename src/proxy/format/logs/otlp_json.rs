//! OTLP/HTTP logs in JSON (`POST /v1/logs`, `application/json`): the same texts as the
//! protobuf encoding ([`OtlpFields`]), found in the OTLP JSON mapping: bodies with arrays
//! and key-value lists at any depth, and attribute values (a JSON path to
//! `body.stringValue` would miss all but the first); it never touches keys, `bytesValue`
//! or `intValue` (a string in JSON, but a number).
//!
//! Field names are matched in lowerCamelCase and in the `.proto`'s snake_case: the
//! protobuf JSON mapping lets a sender use either, and a spelling we skipped would be
//! forwarded without being anonymized.

use serde_json::Value;

use super::otlp::OtlpFields;
use super::{replace_texts, MessageError, MessageErrorKind};

/// The non-empty texts `fields` selects in an OTLP JSON logs request, in document order.
/// A document that is not shaped like one yields fewer texts (or none).
pub fn texts<'a>(request: &'a mut Value, fields: &OtlpFields) -> Vec<&'a mut String> {
    let mut out = Vec::new();
    for (key, value) in entries(request) {
        if is(key, "resourceLogs", "resource_logs") {
            for item in items(value) {
                resource_logs(item, fields, &mut out);
            }
        }
    }
    out
}

fn resource_logs<'a>(value: &'a mut Value, fields: &OtlpFields, out: &mut Vec<&'a mut String>) {
    for (key, value) in entries(value) {
        if key == "resource" && fields.resource_attributes {
            for (key, value) in entries(value) {
                if key == "attributes" {
                    attributes(value, out);
                }
            }
        } else if is(key, "scopeLogs", "scope_logs") {
            for item in items(value) {
                scope_logs(item, fields, out);
            }
        }
    }
}

fn scope_logs<'a>(value: &'a mut Value, fields: &OtlpFields, out: &mut Vec<&'a mut String>) {
    for (key, value) in entries(value) {
        if key == "scope" && fields.scope_attributes {
            for (key, value) in entries(value) {
                if key == "attributes" {
                    attributes(value, out);
                }
            }
        } else if is(key, "logRecords", "log_records") {
            for record in items(value) {
                for (key, value) in entries(record) {
                    if key == "body" {
                        any_value(value, out);
                    } else if key == "attributes" && fields.log_attributes {
                        attributes(value, out);
                    }
                }
            }
        }
    }
}

/// `[{"key": k, "value": AnyValue}, …]`: the values.
fn attributes<'a>(value: &'a mut Value, out: &mut Vec<&'a mut String>) {
    for pair in items(value) {
        for (key, value) in entries(pair) {
            if key == "value" {
                any_value(value, out);
            }
        }
    }
}

/// `{"stringValue": s}`, `{"arrayValue": {"values": [AnyValue]}}` or
/// `{"kvlistValue": {"values": [KeyValue]}}`. Depth is bounded by serde_json's parser
/// (128 levels).
fn any_value<'a>(value: &'a mut Value, out: &mut Vec<&'a mut String>) {
    for (key, value) in entries(value) {
        if is(key, "stringValue", "string_value") {
            if let Value::String(s) = value {
                if !s.is_empty() {
                    out.push(s);
                }
            }
        } else if is(key, "arrayValue", "array_value") {
            for (key, value) in entries(value) {
                if key == "values" {
                    for item in items(value) {
                        any_value(item, out);
                    }
                }
            }
        } else if is(key, "kvlistValue", "kvlist_value") {
            for (key, value) in entries(value) {
                if key == "values" {
                    attributes(value, out);
                }
            }
        }
    }
}

fn is(key: &str, camel: &str, snake: &str) -> bool {
    key == camel || key == snake
}

/// The members of an object (none for anything else).
fn entries(value: &mut Value) -> impl Iterator<Item = (&String, &mut Value)> {
    value
        .as_object_mut()
        .into_iter()
        .flat_map(|map| map.iter_mut())
}

/// The elements of an array (none for anything else).
fn items(value: &mut Value) -> impl Iterator<Item = &mut Value> {
    value
        .as_array_mut()
        .into_iter()
        .flat_map(|items| items.iter_mut())
}

/// Parses `body`, runs `transform` on the selected texts as one batch and serializes the
/// result (key order kept).
///
/// # Errors
/// [`MessageErrorKind::Malformed`] when the body is not JSON;
/// [`MessageErrorKind::Incomplete`] when `transform` answers the wrong number of texts.
pub fn rewrite(
    body: &[u8],
    fields: &OtlpFields,
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<Vec<u8>, MessageError> {
    let mut request: Value =
        serde_json::from_slice(body).map_err(|_| MessageError::new(MessageErrorKind::Malformed))?;
    replace_texts(texts(&mut request, fields), transform)?;
    serde_json::to_vec(&request).map_err(|_| MessageError::new(MessageErrorKind::Malformed))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn found(mut request: Value, fields: &OtlpFields) -> Vec<String> {
        texts(&mut request, fields)
            .into_iter()
            .map(|s| s.clone())
            .collect()
    }

    fn request() -> Value {
        json!({"resourceLogs": [{
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "checkout"}}]},
            "scopeLogs": [{
                "scope": {"name": "app", "attributes": [{"key": "team", "value": {"stringValue": "Alice Smith's team"}}]},
                "logRecords": [{
                    "timeUnixNano": "1700000000000000000",
                    "severityText": "INFO",
                    "body": {"kvlistValue": {"values": [
                        {"key": "msg", "value": {"stringValue": "user jane.doe@example.com logged in"}},
                        {"key": "ip", "value": {"arrayValue": {"values": [
                            {"stringValue": "203.0.113.7"}, {"intValue": "42"}, {"bytesValue": "QWxpY2U="}
                        ]}}}
                    ]}},
                    "attributes": [
                        {"key": "user.name", "value": {"stringValue": "Alice Smith"}},
                        {"key": "empty", "value": {"stringValue": ""}}
                    ],
                    "traceId": "5b8efff798038103d269b633813fc60c"
                }, {
                    "body": {"string_value": "snake_case from Bob Jones"}
                }]
            }]
        }]})
    }

    #[test]
    fn finds_bodies_at_any_depth_and_log_attributes_by_default() {
        assert_eq!(
            found(request(), &OtlpFields::default()),
            [
                "user jane.doe@example.com logged in",
                "203.0.113.7",
                "Alice Smith",
                "snake_case from Bob Jones"
            ]
        );
    }

    #[test]
    fn resource_and_scope_attributes_are_opt_in() {
        let fields = OtlpFields {
            log_attributes: false,
            resource_attributes: true,
            scope_attributes: true,
        };
        assert_eq!(
            found(request(), &fields),
            [
                "checkout",
                "Alice Smith's team",
                "user jane.doe@example.com logged in",
                "203.0.113.7",
                "snake_case from Bob Jones"
            ]
        );
    }

    #[test]
    fn rewrite_changes_only_the_selected_strings() {
        let body = br#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityText":"INFO","body":{"stringValue":"hi ann"},"attributes":[{"key":"k","value":{"intValue":"7"}}]}]}]}]}"#;
        let out = rewrite(body, &OtlpFields::default(), |t| {
            t.into_iter().map(|s| s.to_uppercase()).collect()
        })
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityText":"INFO","body":{"stringValue":"HI ANN"},"attributes":[{"key":"k","value":{"intValue":"7"}}]}]}]}]}"#
        );
    }

    #[test]
    fn odd_shapes_yield_nothing_and_non_json_is_malformed() {
        for odd in [
            json!(null),
            json!([1, 2]),
            json!({"resourceLogs": "x"}),
            json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [{"body": "bare"}]}]}]}),
        ] {
            assert!(found(odd, &OtlpFields::default()).is_empty());
        }
        let err = rewrite(b"{not json", &OtlpFields::default(), |t| t).unwrap_err();
        assert_eq!(err.kind(), MessageErrorKind::Malformed);
    }

    /// JSON documents made of OTLP's own keys in any arrangement.
    fn otlp_shaped() -> impl Strategy<Value = Value> {
        let keys = prop_oneof![
            Just("resourceLogs"),
            Just("scope_logs"),
            Just("logRecords"),
            Just("body"),
            Just("attributes"),
            Just("key"),
            Just("value"),
            Just("stringValue"),
            Just("arrayValue"),
            Just("kvlistValue"),
            Just("values"),
            Just("resource"),
            Just("scope"),
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            ".{0,6}".prop_map(Value::from),
        ];
        leaf.prop_recursive(6, 64, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((keys.clone(), inner), 0..4).prop_map(|pairs| {
                    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn any_arrangement_never_panics_and_an_identity_rewrite_changes_nothing(doc in otlp_shaped()) {
            let all = OtlpFields { log_attributes: true, resource_attributes: true, scope_attributes: true };
            let body = serde_json::to_vec(&doc).unwrap();
            let out = rewrite(&body, &all, |t| t).unwrap();
            prop_assert_eq!(serde_json::from_slice::<Value>(&out).unwrap(), doc);
        }
    }
}
