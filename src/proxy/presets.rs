//! Proxy presets: which fields of well-known APIs carry text. Data only; adding a
//! preset is one `const` here, listed in [`PRESETS`], plus `conf/examples/<name>.yaml`.
//! Start a new one from [`Preset::EMPTY`] (`..Preset::EMPTY`) so fields added later
//! need no edit of it.

use super::format::BodyFormat;

#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    pub body: BodyFormat,
    /// Request fields to anonymize.
    pub anonymize: &'static [&'static str],
    /// Response fields to restore in a whole (JSON) response.
    pub restore: &'static [&'static str],
    /// Fields of each streamed event that carry a *fragment* of a text the client
    /// concatenates (`delta`s): restored as one stream per field, holding back a tail
    /// that could still begin a placeholder.
    pub restore_stream: &'static [&'static str],
    /// Fields of streamed events that carry a *complete* text (`.done` events, the whole
    /// response in `response.completed`): restored at once inside their event.
    pub restore_events: &'static [&'static str],
    /// Signed content, never touched in either direction: whatever these paths select
    /// is skipped by every other path of the route (thinking blocks, signatures,
    /// encrypted reasoning). Changing one byte would break the next turn.
    pub signed: &'static [&'static str],
    /// Where callers of an `auth: api_key` route put our key by default: where this
    /// provider's SDK puts its own (`bearer`, a header name, `query:NAME`).
    pub api_key_in: &'static [&'static str],
    /// Where the provider reads its own credential: what a route that lets callers
    /// bring their own key (`provider_key: caller`) forwards, and where our key is then
    /// never looked for.
    pub provider_key_in: &'static [&'static str],
    /// Prefixes of request header names whose values mirror body fields (MCP's
    /// `mcp-param-`): anonymized with the body, so both agree (see `mirrored`).
    pub mirrored_headers: &'static [&'static str],
}

impl Preset {
    /// Nothing selected, JSON bodies, our key in `X-API-Key`.
    pub const EMPTY: Preset = Preset {
        name: "",
        body: BodyFormat::Json,
        anonymize: &[],
        restore: &[],
        restore_stream: &[],
        restore_events: &[],
        signed: &[],
        api_key_in: OUR_HEADER,
        provider_key_in: &[],
        mirrored_headers: &[],
    };
}

/// Our own header, accepted on every route that has no provider SDK of its own.
pub const OUR_HEADER: &[&str] = &["x-api-key"];

/// The OpenAI SDKs send `api_key` as a bearer token; our own header works too.
pub const OPENAI_KEY: &[&str] = &["bearer", "x-api-key"];
/// The Anthropic Python SDK 2.x sends `api_key` (and `auth_token`) as a bearer token
/// (recorded: `tests/fixtures/anthropic-python/`); earlier SDKs and curl examples use
/// `x-api-key`.
pub const ANTHROPIC_KEY: &[&str] = &["bearer", "x-api-key"];
/// google-genai sends `api_key` as `x-goog-api-key`; REST examples use `?key=`.
pub const GEMINI_KEY: &[&str] = &["x-goog-api-key", "query:key"];
/// Azure OpenAI's SDK (`openai.AzureOpenAI`) sends `api_key` as `api-key`; its v1 paths
/// take the OpenAI SDK's bearer too.
pub const AZURE_KEY: &[&str] = &["api-key", "bearer"];
/// The ollama SDK sends `OLLAMA_API_KEY` as a bearer; Ollama itself has no keys, so
/// our own header works too.
pub const OLLAMA_KEY: &[&str] = &["bearer", "x-api-key"];

/// Where each provider reads its own key: OpenAI's API a bearer token, Anthropic's
/// `x-api-key` (or a bearer OAuth token), Azure OpenAI's `api-key` (or an Entra ID
/// bearer), Gemini's `x-goog-api-key` or `?key=`, Ollama's (behind a gateway) a bearer.
pub const OPENAI_PROVIDER_KEY: &[&str] = &["bearer"];
pub const ANTHROPIC_PROVIDER_KEY: &[&str] = &["x-api-key", "bearer"];
pub const AZURE_PROVIDER_KEY: &[&str] = &["api-key", "bearer"];
pub const GEMINI_PROVIDER_KEY: &[&str] = &["x-goog-api-key", "query:key"];
pub const OLLAMA_PROVIDER_KEY: &[&str] = &["bearer"];

/// OpenAI (and compatible) `POST /v1/chat/completions`. Requests: every message's text
/// (a string, or `text` and `refusal` content parts; images, audio and files are left
/// alone), `name`s, assistant `refusal`s, tool-call arguments in the history (JSON inside
/// JSON) and `role: tool` results. Answers: text, refusal, tool-call arguments, whole and
/// streamed.
pub const OPENAI_CHAT: Preset = Preset {
    name: "openai_chat",
    body: BodyFormat::Json,
    anonymize: &[
        "$.messages[*].content | text",
        "$.messages[*].content[*].text",
        "$.messages[*].content[*].refusal",
        "$.messages[*].name",
        "$.messages[*].refusal",
        "$.messages[*].tool_calls[*].function.arguments | json",
        "$.messages[*].function_call.arguments | json",
    ],
    restore: &[
        "$.choices[*].message.content",
        "$.choices[*].message.refusal",
        "$.choices[*].message.tool_calls[*].function.arguments | json",
        "$.choices[*].message.function_call.arguments | json",
        "$.choices[*].message.audio.transcript",
    ],
    restore_stream: &[
        "$.choices[*].delta.content",
        "$.choices[*].delta.refusal",
        "$.choices[*].delta.tool_calls[*].function.arguments | json",
        "$.choices[*].delta.function_call.arguments | json",
        "$.choices[*].delta.audio.transcript",
    ],
    api_key_in: OPENAI_KEY,
    provider_key_in: OPENAI_PROVIDER_KEY,
    ..Preset::EMPTY
};

/// OpenAI `POST /v1/responses`. Requests: `instructions`, `input` as a string or items
/// of every type (messages with `input_text` / `output_text` / `refusal` parts or a
/// string, `function_call` arguments, `function_call_output` and `custom_tool_call_output`
/// outputs as a string or parts, `custom_tool_call` input). Answers: output text and
/// refusals, function-call arguments, `output_text`; streamed: every event that carries
/// text or arguments (deltas as fragments; `.done`, `output_item`, `content_part` and
/// `response.*` events as complete texts). Reasoning items (`encrypted_content`) are signed.
pub const OPENAI_RESPONSES: Preset = Preset {
    name: "openai_responses",
    body: BodyFormat::Json,
    anonymize: &[
        "$.instructions",
        "$.input | text",
        "$.input[*].content | text",
        "$.input[*].content[*].text",
        "$.input[*].content[*].refusal",
        "$.input[*].arguments | json",
        "$.input[*].output | text",
        "$.input[*].output[*].text",
        "$.input[*].input",
    ],
    restore: RESPONSE_OUTPUT,
    restore_stream: &[
        "$[?@.type=='response.output_text.delta'].delta",
        "$[?@.type=='response.refusal.delta'].delta",
        "$[?@.type=='response.function_call_arguments.delta'].delta | json",
        "$[?@.type=='response.custom_tool_call_input.delta'].delta",
    ],
    restore_events: &[
        "$[?@.type=='response.output_text.done'].text",
        "$[?@.type=='response.refusal.done'].refusal",
        "$[?@.type=='response.function_call_arguments.done'].arguments | json",
        "$[?@.type=='response.custom_tool_call_input.done'].input",
        "$.item.content[*].text",
        "$.item.content[*].refusal",
        "$.item.arguments | json",
        "$.item[?@.type=='custom_tool_call'].input",
        "$.part.text",
        "$.part.refusal",
        "$.response.output[*].content[*].text",
        "$.response.output[*].content[*].refusal",
        "$.response.output[*].arguments | json",
        "$.response.output[?@.type=='custom_tool_call'].input",
        "$.response.output_text",
    ],
    signed: &[
        "$.input[?@.type=='reasoning']",
        "$.output[?@.type=='reasoning']",
        "$.item[?@.type=='reasoning']",
        "$.response.output[?@.type=='reasoning']",
        "$..encrypted_content",
    ],
    api_key_in: OPENAI_KEY,
    provider_key_in: OPENAI_PROVIDER_KEY,
    mirrored_headers: &[],
};

/// Text and arguments of a Responses API answer.
const RESPONSE_OUTPUT: &[&str] = &[
    "$.output[*].content[*].text",
    "$.output[*].content[*].refusal",
    "$.output[*].arguments | json",
    "$.output[?@.type=='custom_tool_call'].input",
    "$.output_text",
];

/// Anthropic `POST /v1/messages`. Requests: `system` as a string or text blocks; of each
/// message a string, `text` blocks, `tool_use.input` (every string inside, its keys'
/// values too), `tool_result.content` (a string or blocks) and plain-text `document`
/// sources with their `title` and `context`; images and base64 documents are left alone.
/// Answers: `text` and `tool_use.input`; streamed `text_delta` and `input_json_delta`
/// (JSON fragments, kept valid). `thinking` and `redacted_thinking` blocks and
/// signatures (`thinking_delta`, `signature_delta` events) are signed.
pub const ANTHROPIC_MESSAGES: Preset = Preset {
    name: "anthropic_messages",
    body: BodyFormat::Json,
    anonymize: &[
        "$.system | text",
        "$.system[*].text",
        "$.messages[*].content | text",
        "$.messages[*].content[*].text",
        "$.messages[*].content[*].input | json",
        "$.messages[*].content[*].content | text",
        "$.messages[*].content[*].content[*].text",
        "$.messages[*].content[?@.type=='document'].source[?@.type=='text'].data",
        "$.messages[*].content[?@.type=='document'].title",
        "$.messages[*].content[?@.type=='document'].context",
    ],
    restore: &["$.content[*].text", "$.content[*].input | json"],
    restore_stream: &["$.delta.text", "$.delta.partial_json | json"],
    restore_events: &[
        "$.content_block.text",
        "$.content_block.input | json",
        "$.message.content[*].text",
        "$.message.content[*].input | json",
    ],
    signed: &[
        "$.messages[*].content[?@.type=='thinking']",
        "$.messages[*].content[?@.type=='redacted_thinking']",
        "$.content[?@.type=='thinking']",
        "$.content[?@.type=='redacted_thinking']",
        "$.message.content[?@.type=='thinking']",
        "$.message.content[?@.type=='redacted_thinking']",
        "$.content_block[?@.type=='thinking']",
        "$.content_block[?@.type=='redacted_thinking']",
        "$.delta[?@.type=='thinking_delta']",
        "$.delta[?@.type=='signature_delta']",
    ],
    api_key_in: ANTHROPIC_KEY,
    provider_key_in: ANTHROPIC_PROVIDER_KEY,
    mirrored_headers: &[],
};

/// Google Gemini's signed field, for its presets: a part's `thoughtSignature` (the
/// part's other fields are not signed).
pub const GEMINI_SIGNED: &[&str] = &["$..thoughtSignature"];

/// What the `gemini` preset never touches, either way: [`GEMINI_SIGNED`], and thought
/// parts (`"thought": true`), the model's own thinking, which stay as the model wrote
/// them (the client sees the placeholders the model saw).
const GEMINI_UNTOUCHED: &[&str] = &[
    "$..thoughtSignature",
    "$.contents[*].parts[?@.thought==true]",
    "$.candidates[*].content.parts[?@.thought==true]",
];
/// OpenAI `POST /v1/embeddings` (and Azure OpenAI's): `input` is a string or an array
/// of strings (token arrays carry no text and pass). Vectors come back: nothing to restore.
pub const OPENAI_EMBEDDINGS: Preset = Preset {
    name: "openai_embeddings",
    body: BodyFormat::Json,
    anonymize: &["$.input"],
    api_key_in: OPENAI_KEY,
    provider_key_in: OPENAI_PROVIDER_KEY,
    ..Preset::EMPTY
};

/// OpenAI legacy `POST /v1/completions` (and Azure OpenAI's): `prompt` (a string or an
/// array of strings; token arrays pass) and `suffix`; answers' `choices[*].text`, whole
/// or streamed.
pub const OPENAI_COMPLETIONS: Preset = Preset {
    name: "openai_completions",
    body: BodyFormat::Json,
    anonymize: &["$.prompt", "$.suffix"],
    restore: &["$.choices[*].text"],
    restore_stream: &["$.choices[*].text"],
    api_key_in: OPENAI_KEY,
    provider_key_in: OPENAI_PROVIDER_KEY,
    ..Preset::EMPTY
};

/// Azure OpenAI: OpenAI's bodies under `/openai/deployments/{deployment}/…?api-version=`
/// and `/openai/v1/…`, with the key where `openai.AzureOpenAI` puts it.
pub const AZURE_OPENAI_CHAT: Preset = Preset {
    name: "azure_openai_chat",
    api_key_in: AZURE_KEY,
    provider_key_in: AZURE_PROVIDER_KEY,
    ..OPENAI_CHAT
};

/// Azure OpenAI's Responses API (`/openai/v1/responses`, `/openai/responses`).
pub const AZURE_OPENAI_RESPONSES: Preset = Preset {
    name: "azure_openai_responses",
    api_key_in: AZURE_KEY,
    provider_key_in: AZURE_PROVIDER_KEY,
    ..OPENAI_RESPONSES
};

/// Azure OpenAI's embeddings.
pub const AZURE_OPENAI_EMBEDDINGS: Preset = Preset {
    name: "azure_openai_embeddings",
    api_key_in: AZURE_KEY,
    provider_key_in: AZURE_PROVIDER_KEY,
    ..OPENAI_EMBEDDINGS
};

/// Azure OpenAI's legacy completions.
pub const AZURE_OPENAI_COMPLETIONS: Preset = Preset {
    name: "azure_openai_completions",
    api_key_in: AZURE_KEY,
    provider_key_in: AZURE_PROVIDER_KEY,
    ..OPENAI_COMPLETIONS
};

/// Google Gemini `POST /v1beta/models/{model}:generateContent` and
/// `:streamGenerateContent`, streamed as SSE (`alt=sse`, what google-genai asks for) or
/// as one JSON array (the default), and `:countTokens`, `:embedContent`,
/// `:batchEmbedContents`. Request field names in both spellings the REST API reads
/// (google-genai sends lowerCamelCase, curl examples snake_case). Function call `args`
/// and function response `response` are objects: every string in them (`| json`: `id`
/// and `type` there are data too). Never `inlineData`, thought parts or
/// `thoughtSignature` (see [`GEMINI_UNTOUCHED`]).
pub const GEMINI: Preset = Preset {
    name: "gemini",
    body: BodyFormat::Json,
    anonymize: &[
        "$.contents[*].parts[*].text",
        "$.contents[*].parts[*].functionCall.args | json",
        "$.contents[*].parts[*].function_call.args | json",
        "$.contents[*].parts[*].functionResponse.response | json",
        "$.contents[*].parts[*].function_response.response | json",
        "$.systemInstruction.parts[*].text",
        "$.system_instruction.parts[*].text",
        "$.content.parts[*].text",
        "$.requests[*].content.parts[*].text",
    ],
    restore: &[
        "$.candidates[*].content.parts[*].text",
        "$.candidates[*].content.parts[*].functionCall.args | json",
    ],
    restore_stream: &[
        "$.candidates[*].content.parts[*].text",
        "$.candidates[*].content.parts[*].functionCall.args | json",
    ],
    signed: GEMINI_UNTOUCHED,
    api_key_in: GEMINI_KEY,
    provider_key_in: GEMINI_PROVIDER_KEY,
    ..Preset::EMPTY
};

/// Vertex AI's keys: a Google OAuth access token as a bearer (google-genai with
/// `vertexai=True`, `AnthropicVertex`), or an express-mode API key.
pub const VERTEX_KEY: &[&str] = &["bearer", "x-api-key"];
pub const VERTEX_PROVIDER_KEY: &[&str] = &["bearer", "x-goog-api-key", "query:key"];

/// Gemini on Vertex AI: `POST /v1/projects/{p}/locations/{l}/publishers/google/models/
/// {m}:generateContent` and `:streamGenerateContent` (and `/v1beta1/…`, what
/// google-genai with `vertexai=True` calls): the [`GEMINI`] bodies.
pub const VERTEX_GEMINI: Preset = Preset {
    name: "vertex_gemini",
    api_key_in: VERTEX_KEY,
    provider_key_in: VERTEX_PROVIDER_KEY,
    ..GEMINI
};

/// Claude on Vertex AI: `POST /v1/projects/{p}/locations/{l}/publishers/anthropic/
/// models/{m}:rawPredict` and `:streamRawPredict`: the [`ANTHROPIC_MESSAGES`] bodies
/// (with `anthropic_version` and without `model`), answered as the Messages API does.
pub const VERTEX_ANTHROPIC: Preset = Preset {
    name: "vertex_anthropic",
    api_key_in: VERTEX_KEY,
    provider_key_in: &["bearer"],
    ..ANTHROPIC_MESSAGES
};

/// Ollama `POST /api/chat`, `/api/generate` (streamed as NDJSON unless `"stream":
/// false`), `/api/embed` and the older `/api/embeddings`: message `content`, `thinking`
/// and tool call `arguments` (an object: every string in it), `prompt`, `suffix`,
/// `system`, `input`; answers' message content, thinking and tool call arguments, and
/// `response` and `thinking` of `/api/generate`. Ollama's thinking carries no signature.
pub const OLLAMA: Preset = Preset {
    name: "ollama",
    // Ollama reads any content type, and its documented `curl -d` examples send the
    // form type: read as (one) JSON document whatever the type, like HEC's streams.
    body: BodyFormat::Ndjson,
    anonymize: &[
        "$.messages[*].content",
        "$.messages[*].thinking",
        "$.messages[*].tool_calls[*].function.arguments | json",
        "$.prompt",
        "$.suffix",
        "$.system",
        "$.input",
    ],
    restore: OLLAMA_ANSWER,
    restore_stream: OLLAMA_ANSWER,
    api_key_in: OLLAMA_KEY,
    provider_key_in: OLLAMA_PROVIDER_KEY,
    ..Preset::EMPTY
};

/// An Ollama answer has one shape whole and per streamed line.
const OLLAMA_ANSWER: &[&str] = &[
    "$.message.content",
    "$.message.thinking",
    "$.message.tool_calls[*].function.arguments | json",
    "$.response",
    "$.thinking",
];

/// The Model Context Protocol over Streamable HTTP (`POST`, `GET` and `DELETE` on one
/// endpoint; JSON-RPC 2.0 messages, answered as JSON or as an SSE stream of messages)
/// and the older HTTP+SSE transport (the same messages). Requests: `tools/call`
/// arguments and `prompts/get` arguments (objects: every string in them), completion
/// values, and what a client answers the server's elicitations (accepted form content)
/// and sampling requests (the model's text). Answers (whole and per event): tool
/// results' text and embedded resource text, `structuredContent` (every string), read
/// resources' text, prompt messages' text, completion values, JSON-RPC error messages,
/// and the text of the server's own requests and notifications to the client
/// (elicitation messages, sampling prompts, log messages). `initialize`, `tools/list`,
/// `ping`, resource URIs and every other message pass untouched. The 2026 revision's
/// `Mcp-Param-*` headers mirror tool arguments: anonymized with them.
pub const MCP: Preset = Preset {
    name: "mcp",
    body: BodyFormat::Json,
    anonymize: &[
        "$[?@.method=='tools/call'].params.arguments | json",
        "$[?@.method=='prompts/get'].params.arguments | json",
        "$[?@.method=='completion/complete'].params.argument.value",
        "$[?@.method=='completion/complete'].params.context.arguments | json",
        "$.result[?@.action=='accept'].content | json",
        "$.result[?@.role=='assistant'].content.text",
        "$.result[?@.role=='assistant'].content[*].text",
    ],
    restore: MCP_ANSWER,
    restore_events: MCP_ANSWER,
    api_key_in: MCP_KEY,
    provider_key_in: MCP_PROVIDER_KEY,
    mirrored_headers: &["mcp-param-"],
    ..Preset::EMPTY
};

/// What an MCP server sends that can quote what it was given: one list for JSON
/// answers and for each message of an SSE stream.
const MCP_ANSWER: &[&str] = &[
    "$.result.content[*].text",
    "$.result.content[*].resource.text",
    "$.result.structuredContent | json",
    "$.result.contents[*].text",
    "$.result.messages[*].content.text",
    "$.result.completion.values",
    "$.error.message",
    "$[?@.method=='elicitation/create'].params.message",
    "$[?@.method=='sampling/createMessage'].params.messages[*].content.text",
    "$[?@.method=='sampling/createMessage'].params.systemPrompt",
    "$[?@.method=='notifications/message'].params.data",
    "$[?@.method=='notifications/progress'].params.message",
];

/// MCP clients send a server's key (or OAuth token) as a bearer; our own header works
/// too.
pub const MCP_KEY: &[&str] = &["bearer", "x-api-key"];
/// An MCP server's own token (OAuth 2.1 or an API key) comes as a bearer.
pub const MCP_PROVIDER_KEY: &[&str] = &["bearer"];

/// Bedrock callers sign with SigV4 (an unmodified boto3 client: a tenant as its access
/// key id, one of its keys as its secret), or send our key in `X-API-Key`. The provider
/// credential is the route's `aws` signature, never a header of the caller's.
pub const BEDROCK_KEY: &[&str] = &["sigv4", "x-api-key"];

/// Amazon Bedrock Runtime `POST /model/{modelId}/converse` and `/converse-stream`:
/// `system` and message text blocks, `toolUse.input` (every string) and `toolResult`
/// content (text, and JSON: every string); answers' text and `toolUse.input`, whole or
/// in an event stream (`contentBlockDelta` text and tool input fragments, kept valid
/// JSON). `reasoningContent` carries a signature: never touched.
pub const BEDROCK_CONVERSE: Preset = Preset {
    name: "bedrock_converse",
    body: BodyFormat::Json,
    anonymize: &[
        "$.system[*].text",
        "$.messages[*].content[*].text",
        "$.messages[*].content[*].toolUse.input | json",
        "$.messages[*].content[*].toolResult.content[*].text",
        "$.messages[*].content[*].toolResult.content[*].json | json",
    ],
    restore: &[
        "$.output.message.content[*].text",
        "$.output.message.content[*].toolUse.input | json",
    ],
    restore_stream: &["$.delta.text", "$.delta.toolUse.input | json"],
    signed: &[
        "$.messages[*].content[*].reasoningContent",
        "$.output.message.content[*].reasoningContent",
        "$.delta.reasoningContent",
    ],
    api_key_in: BEDROCK_KEY,
    ..Preset::EMPTY
};

/// Amazon Bedrock Runtime `POST /model/{modelId}/invoke` and
/// `/invoke-with-response-stream` for Anthropic models: the Messages API's bodies
/// ([`ANTHROPIC_MESSAGES`], with `anthropic_version` and without `model`); the stream's
/// `chunk` events carry Anthropic's events in base64, restored inside it.
pub const BEDROCK_INVOKE: Preset = Preset {
    name: "bedrock_invoke",
    // boto3's `invoke_model` sends no `Content-Type` unless told (Bedrock reads JSON):
    // read as (one) JSON document whatever the type, as Ollama's bodies are.
    body: BodyFormat::Ndjson,
    api_key_in: BEDROCK_KEY,
    provider_key_in: &[],
    ..ANTHROPIC_MESSAGES
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
    ..Preset::EMPTY
};

/// Where log shippers put the text of an event, as Elasticsearch documents hold it:
/// Filebeat, Logstash, Vector and Fluent Bit `message`; pino, bunyan and zap `msg`;
/// Docker's json-file driver through Fluentd `log`; journald `MESSAGE`; ECS
/// `event.original` (the raw event) and `error.message`, nested or dotted; ECS `user.*`
/// (name, full name, e-mail: every string under `user`), as Beats and elasticsearch-py
/// applications send them; ECS `url.original`, `url.full`, `url.query` and
/// `http.request.referrer` (query values and whole URLs name people). And the caller's
/// address: ECS `client.ip`, `source.ip` and `related.ip` (every address of the event),
/// nginx's `remote_addr`, `client_ip`; these are `ip`-typed in Elasticsearch, so `| ip`
/// replaces an address by a fake address whatever the method. `server.*`,
/// `destination.*` and `host.*` are the service's own.
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
    "$.url.original",
    "$['url.original']",
    "$.url.full",
    "$['url.full']",
    "$.url.query",
    "$['url.query']",
    "$.http.request.referrer",
    "$['http.request.referrer']",
    "$.client.ip | ip",
    "$['client.ip'] | ip",
    "$.source.ip | ip",
    "$['source.ip'] | ip",
    "$.related.ip | ip",
    "$['related.ip'] | ip",
    "$.remote_addr | ip",
    "$.client_ip | ip",
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
    ..Preset::EMPTY
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
    ..Preset::EMPTY
};

/// Splunk HTTP Event Collector `POST /services/collector/raw`: raw text, every line
/// one event (`$` stands for the line).
pub const SPLUNK_HEC_RAW: Preset = Preset {
    name: "splunk_hec_raw",
    body: BodyFormat::Lines,
    anonymize: &["$"],
    restore: &[],
    restore_stream: &[],
    ..Preset::EMPTY
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
    ..Preset::EMPTY
};

pub const PRESETS: &[&Preset] = &[
    &OPENAI_CHAT,
    &OPENAI_RESPONSES,
    &ANTHROPIC_MESSAGES,
    &OPENAI_EMBEDDINGS,
    &OPENAI_COMPLETIONS,
    &AZURE_OPENAI_CHAT,
    &AZURE_OPENAI_RESPONSES,
    &AZURE_OPENAI_EMBEDDINGS,
    &AZURE_OPENAI_COMPLETIONS,
    &GEMINI,
    &VERTEX_GEMINI,
    &VERTEX_ANTHROPIC,
    &BEDROCK_CONVERSE,
    &BEDROCK_INVOKE,
    &OLLAMA,
    &MCP,
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
mod tests;
