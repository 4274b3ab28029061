//! OTLP/HTTP logs in protobuf (`POST /v1/logs`, `application/x-protobuf`): decode an
//! `ExportLogsServiceRequest`, list the texts [`OtlpFields`] selects, encode it again.
//! Which fields are text is shared with the JSON encoding (`otlp_json`) through
//! [`OtlpFields`].

use prost::Message;

use super::otlp_proto::{any_value, AnyValue, ExportLogsServiceRequest, KeyValue};
use super::{replace_texts, MessageError, MessageErrorKind};

/// Which texts of an OTLP logs request are anonymized. Every string inside a log
/// record's body is, at any depth of arrays and key-value lists (keys are not: they are
/// schema). Attribute values are strings the same way; bytes, numbers, booleans and
/// every protocol field (severity, ids, names, versions, schema URLs) never are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OtlpFields {
    /// Log record attribute values (default on: applications put user data there).
    pub log_attributes: bool,
    /// Resource attribute values (default off: `service.name`, `host.name` and the like
    /// are what a backend indexes on).
    pub resource_attributes: bool,
    /// Instrumentation scope attribute values (default off).
    pub scope_attributes: bool,
}

impl Default for OtlpFields {
    fn default() -> Self {
        OtlpFields {
            log_attributes: true,
            resource_attributes: false,
            scope_attributes: false,
        }
    }
}

/// Decodes a protobuf `ExportLogsServiceRequest` (content codings already undone).
///
/// # Errors
/// [`MessageErrorKind::Malformed`] when the bytes are not one (prost also refuses
/// nesting deeper than 100 messages, so a hostile body cannot exhaust the stack).
pub fn decode(body: &[u8]) -> Result<ExportLogsServiceRequest, MessageError> {
    ExportLogsServiceRequest::decode(body)
        .map_err(|_| MessageError::new(MessageErrorKind::Malformed))
}

pub fn encode(request: &ExportLogsServiceRequest) -> Vec<u8> {
    request.encode_to_vec()
}

/// The non-empty texts `fields` selects, in document order: per resource, its
/// attributes, then per scope its attributes, then per record its body and attributes.
pub fn texts<'a>(
    request: &'a mut ExportLogsServiceRequest,
    fields: &OtlpFields,
) -> Vec<&'a mut String> {
    let mut out = Vec::new();
    for resource_logs in &mut request.resource_logs {
        if fields.resource_attributes {
            if let Some(resource) = &mut resource_logs.resource {
                attribute_texts(&mut resource.attributes, &mut out);
            }
        }
        for scope_logs in &mut resource_logs.scope_logs {
            if fields.scope_attributes {
                if let Some(scope) = &mut scope_logs.scope {
                    attribute_texts(&mut scope.attributes, &mut out);
                }
            }
            for record in &mut scope_logs.log_records {
                if let Some(body) = &mut record.body {
                    value_texts(body, &mut out);
                }
                if fields.log_attributes {
                    attribute_texts(&mut record.attributes, &mut out);
                }
            }
        }
    }
    out
}

fn attribute_texts<'a>(attributes: &'a mut [KeyValue], out: &mut Vec<&'a mut String>) {
    for attribute in attributes {
        if let Some(value) = &mut attribute.value {
            value_texts(value, out);
        }
    }
}

/// Every string at or below `value`. Recursion depth is bounded by the decoder's.
fn value_texts<'a>(value: &'a mut AnyValue, out: &mut Vec<&'a mut String>) {
    match &mut value.value {
        Some(any_value::Value::StringValue(s)) if !s.is_empty() => out.push(s),
        Some(any_value::Value::ArrayValue(array)) => {
            for item in &mut array.values {
                value_texts(item, out);
            }
        }
        Some(any_value::Value::KvlistValue(list)) => attribute_texts(&mut list.values, out),
        _ => {}
    }
}

/// Decodes `body`, runs `transform` on the selected texts as one batch (see
/// [`replace_texts`]) and encodes the result.
///
/// # Errors
/// [`MessageErrorKind::Malformed`] for a body that is not a request;
/// [`MessageErrorKind::Incomplete`] when `transform` answers the wrong number of texts.
pub fn rewrite(
    body: &[u8],
    fields: &OtlpFields,
    transform: impl FnOnce(Vec<String>) -> Vec<String>,
) -> Result<Vec<u8>, MessageError> {
    let mut request = decode(body)?;
    replace_texts(texts(&mut request, fields), transform)?;
    Ok(encode(&request))
}

#[cfg(test)]
mod tests;
