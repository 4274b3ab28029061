//! Proxy presets: which fields of well-known APIs carry text. Data only; adding a
//! preset is one `const` here, listed in [`PRESETS`], plus `conf/examples/<name>.yaml`.

use super::route::BodyFormat;

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

/// Grafana Loki `POST /loki/api/v1/push` (JSON): the log line of every value.
pub const LOKI_PUSH: Preset = Preset {
    name: "loki_push",
    body: BodyFormat::Json,
    anonymize: &["$.streams[*].values[*][1]"],
    restore: &[],
    restore_stream: &[],
};

/// Elasticsearch `POST /_bulk`: the `message` of each document line; action lines
/// have no `message` and pass unchanged.
pub const ELASTICSEARCH_BULK: Preset = Preset {
    name: "elasticsearch_bulk",
    body: BodyFormat::Ndjson,
    anonymize: &["$.message"],
    restore: &[],
    restore_stream: &[],
};

/// Splunk HTTP Event Collector `POST /services/collector/event`.
pub const SPLUNK_HEC: Preset = Preset {
    name: "splunk_hec",
    body: BodyFormat::Ndjson,
    anonymize: &["$.event"],
    restore: &[],
    restore_stream: &[],
};

/// OpenTelemetry logs over OTLP/HTTP JSON `POST /v1/logs`.
pub const OTLP_LOGS_JSON: Preset = Preset {
    name: "otlp_logs_json",
    body: BodyFormat::Json,
    anonymize: &["$.resourceLogs[*].scopeLogs[*].logRecords[*].body.stringValue"],
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
    &OTLP_LOGS_JSON,
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
