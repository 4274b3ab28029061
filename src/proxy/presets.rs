//! Proxy presets: which fields of well-known APIs carry text. Data only; adding a
//! preset is one `const` here, listed in [`PRESETS`], plus `conf/examples/<name>.yaml`.

use super::format::BodyFormat;

#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    pub body: BodyFormat,
    /// Request fields to anonymize.
    pub anonymize: &'static [&'static str],
    /// Response fields to restore in a whole (JSON) response.
    pub restore: &'static [&'static str],
    /// Fields to restore in each Server-Sent Event's JSON `data`.
    pub restore_stream: &'static [&'static str],
}

/// OpenAI (and compatible) `POST /v1/chat/completions`.
pub const OPENAI_CHAT: Preset = Preset {
    name: "openai_chat",
    body: BodyFormat::Json,
    anonymize: &[
        "$.messages[*].content",
        "$.messages[*].tool_calls[*].function.arguments | json",
    ],
    restore: &[
        "$.choices[*].message.content",
        "$.choices[*].message.tool_calls[*].function.arguments | json",
    ],
    restore_stream: &[
        "$.choices[*].delta.content",
        "$.choices[*].delta.tool_calls[*].function.arguments | json",
    ],
};

/// OpenAI `POST /v1/responses`.
pub const OPENAI_RESPONSES: Preset = Preset {
    name: "openai_responses",
    body: BodyFormat::Json,
    anonymize: &["$.input", "$.instructions"],
    restore: &["$.output[*].content[*].text", "$.output_text"],
    restore_stream: &["$.delta", "$.text"],
};

/// Anthropic `POST /v1/messages`.
pub const ANTHROPIC_MESSAGES: Preset = Preset {
    name: "anthropic_messages",
    body: BodyFormat::Json,
    anonymize: &["$.system", "$.messages[*].content"],
    restore: &["$.content[*].text"],
    restore_stream: &["$.delta.text"],
};

/// Grafana Loki `POST /loki/api/v1/push`, protobuf in a snappy block (Promtail, Alloy,
/// Vector) or JSON: every entry's line; structured metadata values with the route's
/// `loki: {structured_metadata: true}`. Stream labels never (they are the index).
pub const LOKI_PUSH: Preset = Preset {
    name: "loki_push",
    body: BodyFormat::LokiPush,
    anonymize: &[],
    restore: &[],
    restore_stream: &[],
};

/// Where log shippers put the text of an event, as Elasticsearch documents hold it:
/// Filebeat, Logstash, Vector and Fluent Bit `message`; pino, bunyan and zap `msg`;
/// Docker's json-file driver through Fluentd `log`; journald `MESSAGE`; ECS
/// `event.original` (the raw event) and `error.message`, nested or dotted; ECS `user.*`
/// (name, full name, e-mail: every string under `user`), as Beats and elasticsearch-py
/// applications send them.
pub const LOG_FIELDS: &[&str] = &[
    "$.message",
    "$.msg",
    "$.log",
    "$.MESSAGE",
    "$.event.original",
    "$['event.original']",
    "$.error.message",
    "$['error.message']",
    "$.user",
    "$['user.name']",
    "$['user.full_name']",
    "$['user.email']",
];

/// Elasticsearch `POST /_bulk` and `/{index}/_bulk`: [`LOG_FIELDS`] of each source
/// (`update`: of its `doc` and `upsert`); action lines pass byte for byte, `delete`
/// has no source.
pub const ELASTICSEARCH_BULK: Preset = Preset {
    name: "elasticsearch_bulk",
    body: BodyFormat::ElasticsearchBulk,
    anonymize: LOG_FIELDS,
    restore: &[],
    restore_stream: &[],
};

/// Splunk HTTP Event Collector `POST /services/collector` and `/services/collector/event`:
/// concatenated (or newline-separated) event objects whose `event` is a string or an
/// object (every string inside).
pub const SPLUNK_HEC: Preset = Preset {
    name: "splunk_hec",
    body: BodyFormat::Ndjson,
    anonymize: &["$.event"],
    restore: &[],
    restore_stream: &[],
};

/// Splunk HTTP Event Collector `POST /services/collector/raw`: raw text, every line
/// one event (`$` stands for the line).
pub const SPLUNK_HEC_RAW: Preset = Preset {
    name: "splunk_hec_raw",
    body: BodyFormat::Lines,
    anonymize: &["$"],
    restore: &[],
    restore_stream: &[],
};

/// OpenTelemetry logs over OTLP/HTTP `POST /v1/logs`, protobuf (`application/x-protobuf`)
/// or JSON: every string of each log record's body at any depth and its attribute
/// values; resource and scope attribute values with the route's
/// `otlp: {resource_attributes: true, scope_attributes: true}`.
pub const OTLP_LOGS: Preset = Preset {
    name: "otlp_logs",
    body: BodyFormat::OtlpLogs,
    anonymize: &[],
    restore: &[],
    restore_stream: &[],
};

pub const PRESETS: &[&Preset] = &[
    &OPENAI_CHAT,
    &OPENAI_RESPONSES,
    &ANTHROPIC_MESSAGES,
    &LOKI_PUSH,
    &ELASTICSEARCH_BULK,
    &SPLUNK_HEC,
    &SPLUNK_HEC_RAW,
    &OTLP_LOGS,
];

pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().copied().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::jsonpath::JsonPath;

    #[test]
    fn every_preset_path_parses_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for preset in PRESETS {
            assert!(names.insert(preset.name));
            for path in preset
                .anonymize
                .iter()
                .chain(preset.restore)
                .chain(preset.restore_stream)
            {
                JsonPath::parse(path).unwrap_or_else(|e| panic!("{}: {path}: {e}", preset.name));
            }
        }
    }
}
