//! Integration tests: one binary (one link of pingora), one module per area. Every test
//! starts the real `anonymizer` binary on loopback ports and talks HTTP to it.

mod support;

/// Every row of the error table in api-decisions.md.
mod api_errors;
/// Layering rules over the source tree.
mod architecture;
/// API keys, tenants, the generated key, rate limiting.
mod auth;
/// The README and the book in docs/ against the code: generated tables, examples sent
/// to the binary, configuration keys, metrics, links.
mod docs;
/// `/v1/anonymize` and `/v1/deanonymize` outputs, exactly.
mod endpoints;
/// Validated identifiers keep their exact spans, rules-only and with the served model.
mod exact_spans;
/// Hostile clients and misbehaving upstreams.
mod hardening;
/// Texts in other languages: detected, reported, read by the multilingual model.
mod languages;
/// Log payloads: machinery kept, personal fields replaced.
mod log_payloads;
/// Every method, sessions and lenient restore over HTTP.
mod methods;
/// The OpenAPI description: served, true to every answer, and Schemathesis.
mod openapi;
/// Health, readiness, entities, metrics, logs, shutdown, CLI.
mod operations;
/// Per-call policy: operators, thresholds, actions, request-time recognizers, tenants.
mod policy;
/// Presidio's REST API, with Presidio's payloads and LiteLLM's guardrail.
mod presidio_api;
/// Reverse-proxy mode against real local upstreams.
mod proxy;
/// Route keys where each provider's SDK puts them, never forwarded.
mod proxy_auth;
/// Every example config, end to end.
mod proxy_examples;
/// Log shippers' traffic (Elasticsearch bulk, Splunk HEC) and refusals.
mod proxy_logs;
/// Configuration reload on SIGHUP and file changes.
mod reload;
// Real shippers' recorded requests replayed through the server.
/// Answers that cannot be restored: the per-route policy and its metric.
mod proxy_restore_failure;
/// Answer scanning: what answers introduce, anonymized or counted, streamed too.
mod proxy_scan;
mod proxy_shippers;
/// Streamed (SSE) answers restored as they stream.
mod proxy_stream;
/// One test per fixed bug.
mod regression;
/// No input panics; spans and round trips hold for arbitrary texts.
mod robustness;
/// The real `anthropic` Python SDK through the example config.
mod sdk_anthropic;
/// boto3's bedrock-runtime client through the Bedrock example, SigV4 both ways.
mod sdk_bedrock;
/// Shared by the SDK tests: example configs, client scripts, SSE framing.
mod sdk_clients;
/// The SDKs' recorded requests replayed through the example configs.
mod sdk_fixtures;
/// google-genai through the Gemini example.
mod sdk_gemini;
/// The real `mcp` Python SDKs (1.x and 2.x, client and server) through the MCP example.
mod sdk_mcp;
/// The ollama SDK through the Ollama example.
mod sdk_ollama;
/// The real `openai` Python SDK through the example configs.
mod sdk_openai;
/// The openai SDK on embeddings, completions and Azure OpenAI.
mod sdk_openai_more;
/// google-genai (vertexai=True) and AnthropicVertex through the Vertex AI example.
mod sdk_vertex;
/// Secrets never print: logs, errors, metrics, check-config.
mod secrets;
/// Many writers on one shared session over two replicas: waiting, never an error.
mod sessions_contention;
/// The shared Redis session store: two replicas, a real redis-server.
mod sessions_redis;
/// The shared store on a Redis Cluster and behind Sentinel, failovers included.
mod sessions_topology;
