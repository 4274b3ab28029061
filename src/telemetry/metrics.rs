//! Every metric of the service, registered once in the default Prometheus registry that
//! `pingora-prometheus` serves. Label values come from enums or from configuration
//! (tenant names, entity labels), never from requests, so cardinality stays bounded
//! and no personal data can reach a label.

use std::sync::LazyLock;

use pingora_prometheus::prometheus::{
    register_counter, register_histogram_vec, register_int_counter, register_int_counter_vec,
    register_int_gauge, register_int_gauge_vec, Counter, HistogramVec, IntCounter, IntCounterVec,
    IntGauge, IntGaugeVec,
};

/// `anonymizer_requests_total{endpoint, status, tenant}`.
pub static REQUESTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_requests_total",
        "HTTP requests by endpoint, status code and tenant",
        &["endpoint", "status", "tenant"]
    )
    .expect("metric registered once")
});

/// `anonymizer_request_duration_seconds{endpoint}`.
pub static REQUEST_DURATION: LazyLock<HistogramVec> = LazyLock::new(|| {
    register_histogram_vec!(
        "anonymizer_request_duration_seconds",
        "Time from request start to the last response byte",
        &["endpoint"],
        vec![0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0]
    )
    .expect("metric registered once")
});

/// `anonymizer_texts_total{endpoint}`.
pub static TEXTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!("anonymizer_texts_total", "Texts processed", &["endpoint"])
        .expect("metric registered once")
});

/// `anonymizer_characters_total{endpoint}`.
pub static CHARACTERS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_characters_total",
        "Unicode code points of text processed",
        &["endpoint"]
    )
    .expect("metric registered once")
});

/// `anonymizer_entities_total{label}`.
pub static ENTITIES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_entities_total",
        "Entities detected and replaced, by label",
        &["label"]
    )
    .expect("metric registered once")
});

/// `anonymizer_config_reloads_total{result}`: configuration reloads `applied` or
/// `refused` (the running configuration stayed).
pub static CONFIG_RELOADS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_config_reloads_total",
        "Configuration reloads, applied or refused",
        &["result"]
    )
    .expect("metric registered once")
});

/// `anonymizer_policy_actions_total{label, action}`: entities a policy monitored (left
/// in place, reported) or blocked (the request refused); custom labels count as `CUSTOM`.
pub static POLICY_ACTIONS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_policy_actions_total",
        "Entities a policy monitored or blocked, by label and action",
        &["label", "action"]
    )
    .expect("metric registered once")
});

/// `anonymizer_connections_closed_total{reason}`: client connections the server closed
/// before reading a request (`over_limit`, `header_timeout`).
pub static CONNECTIONS_CLOSED: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_connections_closed_total",
        "Client connections closed by the server before a request was read, by reason",
        &["reason"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_requests_total{route, status}`.
pub static PROXY_REQUESTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_requests_total",
        "Proxied requests by route and status returned to the client",
        &["route", "status"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_upstream_duration_seconds{route}`: until the upstream's response header.
pub static UPSTREAM_DURATION: LazyLock<HistogramVec> = LazyLock::new(|| {
    register_histogram_vec!(
        "anonymizer_proxy_upstream_duration_seconds",
        "Time from choosing the upstream to its response header",
        &["route"],
        vec![0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_upstream_errors_total{route, kind}`; `kind` is pingora's error type name.
pub static PROXY_UPSTREAM_ERRORS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_upstream_errors_total",
        "Upstream failures by route and kind",
        &["route", "kind"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_entities_total{route, label}`.
pub static PROXY_ANSWER_ENTITIES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_answer_entities_total",
        "Entities proxied answers introduced (not restored by us), by route, label and what was done: anonymized or monitored",
        &["route", "label", "action"]
    )
    .expect("metric registered once")
});

pub static PROXY_ENTITIES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_entities_total",
        "Entities anonymized in proxied requests, by route and label",
        &["route", "label"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_placeholders_total{route, outcome="restored"}`.
pub static PROXY_PLACEHOLDERS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_placeholders_total",
        "Placeholders in upstream answers that were restored",
        &["route", "outcome"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_placeholders_unresolved_total{route}`: placeholder-shaped tokens in
/// upstream answers that no map restores (an LLM invented or mangled them).
pub static PROXY_UNRESOLVED: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_placeholders_unresolved_total",
        "Placeholder-shaped tokens in upstream answers left unrestored",
        &["route"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_restore_failures_total{route, reason}`: answers (or streamed events)
/// that could not be restored (`reason` from `proxy::fault::Fault`, never content),
/// whether the route then aborted them or passed them on.
pub static PROXY_RESTORE_FAILURES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_restore_failures_total",
        "Upstream answers that could not be restored",
        &["route", "reason"]
    )
    .expect("metric registered once")
});

/// `anonymizer_proxy_refusals_total{route, reason}`: proxied requests refused before
/// any body byte went upstream (`reason` from `proxy::Reason`, never input text).
pub static PROXY_REFUSALS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_proxy_refusals_total",
        "Proxied requests refused (nothing of the body forwarded), by route and reason",
        &["route", "reason"]
    )
    .expect("metric registered once")
});

/// Session-cache figures, as plain numbers (telemetry knows no session types).
pub struct SessionStats {
    pub sessions: u64,
    /// `None`: the store cannot count them (sealed in Redis); not published.
    pub entries: Option<u64>,
    pub bytes: u64,
    pub hits: u64,
    pub misses: u64,
    pub expirations: u64,
    pub evictions: u64,
    /// Requests refused because the session store was unreachable or too slow.
    pub store_failures: u64,
    /// Shared-store writes that ran again on a state another replica wrote first.
    pub conflicts: u64,
}

/// `anonymizer_sessions{what}`: current sessions, entries and bytes held.
pub static SESSION_GAUGES: LazyLock<IntGaugeVec> = LazyLock::new(|| {
    register_int_gauge_vec!(
        "anonymizer_sessions",
        "Session cache size: what = sessions | entries | bytes",
        &["what"]
    )
    .expect("metric registered once")
});

/// `anonymizer_session_events_total{event}`: hits, misses, expirations, evictions,
/// conflicts.
pub static SESSION_EVENTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_session_events_total",
        "Session cache events: hit | miss | expiration | eviction | conflict",
        &["event"]
    )
    .expect("metric registered once")
});

/// `anonymizer_session_store_failures_total`: session-store calls that failed or timed
/// out (each refused its request with 503 `session_store_unavailable`).
pub static SESSION_STORE_FAILURES: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_session_store_failures_total",
        "Session store calls that failed or timed out (the request was refused with 503)"
    )
    .expect("metric registered once")
});

/// `anonymizer_encrypt_tokens_failed_total`: ENCRYPT tokens that did not open.
pub static FAILED_TOKENS: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_encrypt_tokens_failed_total",
        "ENCRYPT tokens found in deanonymize input that failed authentication"
    )
    .expect("metric registered once")
});

/// `anonymizer_detection_failures_total`: anonymize calls (API or proxy) refused with 503
/// because a detection tier failed or timed out.
pub static DETECTION_FAILURES: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_detection_failures_total",
        "Anonymize calls refused because a detection tier failed or timed out"
    )
    .expect("metric registered once")
});

/// `anonymizer_model_forward_passes_total`: padded batches the NER model ran.
pub static MODEL_PASSES: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_model_forward_passes_total",
        "Forward passes (padded batches of windows) the NER model tier ran"
    )
    .expect("metric registered once")
});

/// `anonymizer_model_windows_total`: windows the NER model ran (0 while every request
/// asked only for labels the model does not produce).
pub static MODEL_WINDOWS: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_model_windows_total",
        "Windows of text the NER model tier ran"
    )
    .expect("metric registered once")
});

/// `anonymizer_model_windows_reread_total`: of those windows, the ones read a second time
/// with lower-case words capitalised (chat typed in lower case).
pub static MODEL_WINDOWS_REREAD: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_model_windows_reread_total",
        "Windows the NER model read a second time, lower-case words capitalised"
    )
    .expect("metric registered once")
});

/// `anonymizer_model_tokens_total{kind}`: tokens fed to the model, `text` or `padding`.
pub static MODEL_TOKENS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    register_int_counter_vec!(
        "anonymizer_model_tokens_total",
        "Tokens fed to the NER model: kind = text | padding",
        &["kind"]
    )
    .expect("metric registered once")
});

/// `anonymizer_model_inference_seconds_total`: wall-clock time inside forward passes.
pub static MODEL_SECONDS: LazyLock<Counter> = LazyLock::new(|| {
    register_counter!(
        "anonymizer_model_inference_seconds_total",
        "Wall-clock seconds the NER model tier spent in forward passes"
    )
    .expect("metric registered once")
});

/// What the model tier has run since start (the engine's totals).
pub struct ModelStats {
    pub passes: u64,
    pub windows: u64,
    pub tokens: u64,
    pub padding: u64,
    pub seconds: f64,
    pub reread: u64,
}

/// Publishes what the model tier has run (read from the engine after each request).
pub fn set_model_stats(stats: &ModelStats) {
    set_counter(&MODEL_PASSES, stats.passes);
    set_counter(&MODEL_WINDOWS, stats.windows);
    set_counter(&MODEL_WINDOWS_REREAD, stats.reread);
    set_counter(&MODEL_TOKENS.with_label_values(&["text"]), stats.tokens);
    set_counter(&MODEL_TOKENS.with_label_values(&["padding"]), stats.padding);
    let more = stats.seconds - MODEL_SECONDS.get();
    if more > 0.0 {
        MODEL_SECONDS.inc_by(more);
    }
}

/// Publishes the session cache's figures (read from the store after each request).
pub fn set_session_stats(stats: &SessionStats) {
    for (what, value) in [
        ("sessions", Some(stats.sessions)),
        ("entries", stats.entries),
        ("bytes", Some(stats.bytes)),
    ] {
        let Some(value) = value else { continue };
        SESSION_GAUGES
            .with_label_values(&[what])
            .set(i64::try_from(value).unwrap_or(i64::MAX));
    }
    for (event, value) in [
        ("hit", stats.hits),
        ("miss", stats.misses),
        ("expiration", stats.expirations),
        ("eviction", stats.evictions),
        ("conflict", stats.conflicts),
    ] {
        set_counter(&SESSION_EVENTS.with_label_values(&[event]), value);
    }
    set_counter(&SESSION_STORE_FAILURES, stats.store_failures);
}

/// Publishes the running total of failed ENCRYPT tokens.
pub fn set_failed_tokens(total: u64) {
    set_counter(&FAILED_TOKENS, total);
}

/// Publishes the running total of anonymize calls refused because detection failed.
pub fn set_detection_failures(total: u64) {
    set_counter(&DETECTION_FAILURES, total);
}

/// `anonymizer_pattern_scan_fallbacks_total`: pattern-set scans whose lazy DFA gave up,
/// so that the shard's patterns searched one by one (`engine/scan_set.rs`); 0 is normal.
pub static PATTERN_SCAN_FALLBACKS: LazyLock<IntCounter> = LazyLock::new(|| {
    register_int_counter!(
        "anonymizer_pattern_scan_fallbacks_total",
        "Pattern-set scans whose lazy DFA gave up and whose patterns then ran one by one"
    )
    .expect("metric registered once")
});

/// Publishes the pattern-set scans that fell back (a process-wide total).
pub fn set_pattern_scan_fallbacks(total: u64) {
    set_counter(&PATTERN_SCAN_FALLBACKS, total);
}

/// `anonymizer_pattern_scan_cache_bytes`: what the pattern tier's lazy DFAs keep of the
/// states they built for the text seen (bounded per cache; see `engine/scan_set.rs`).
pub static PATTERN_SCAN_CACHE_BYTES: LazyLock<IntGauge> = LazyLock::new(|| {
    register_int_gauge!(
        "anonymizer_pattern_scan_cache_bytes",
        "Bytes the pattern tier's lazy-DFA caches hold"
    )
    .expect("metric registered once")
});

/// Publishes what the pattern tier's lazy-DFA caches hold.
pub fn set_pattern_scan_cache_bytes(bytes: u64) {
    PATTERN_SCAN_CACHE_BYTES.set(i64::try_from(bytes).unwrap_or(i64::MAX));
}

/// Raises a counter to a total kept elsewhere (totals only grow).
fn set_counter(counter: &IntCounter, total: u64) {
    let current = counter.get();
    if total > current {
        counter.inc_by(total - current);
    }
}

/// Registers every metric so that `/metrics` lists them from the first scrape.
pub fn init() {
    LazyLock::force(&REQUESTS);
    LazyLock::force(&REQUEST_DURATION);
    LazyLock::force(&TEXTS);
    LazyLock::force(&CHARACTERS);
    LazyLock::force(&ENTITIES);
    LazyLock::force(&POLICY_ACTIONS);
    LazyLock::force(&CONFIG_RELOADS);
    LazyLock::force(&PROXY_REQUESTS);
    LazyLock::force(&UPSTREAM_DURATION);
    LazyLock::force(&PROXY_UPSTREAM_ERRORS);
    LazyLock::force(&PROXY_ENTITIES);
    LazyLock::force(&PROXY_ANSWER_ENTITIES);
    LazyLock::force(&PROXY_REFUSALS);
    LazyLock::force(&CONNECTIONS_CLOSED);
    LazyLock::force(&PROXY_PLACEHOLDERS);
    LazyLock::force(&PROXY_UNRESOLVED);
    LazyLock::force(&PROXY_RESTORE_FAILURES);
    LazyLock::force(&SESSION_GAUGES);
    LazyLock::force(&SESSION_EVENTS);
    LazyLock::force(&SESSION_STORE_FAILURES);
    LazyLock::force(&FAILED_TOKENS);
    LazyLock::force(&DETECTION_FAILURES);
    LazyLock::force(&PATTERN_SCAN_FALLBACKS);
    LazyLock::force(&MODEL_PASSES);
    LazyLock::force(&MODEL_WINDOWS);
    LazyLock::force(&MODEL_WINDOWS_REREAD);
    LazyLock::force(&MODEL_TOKENS);
    LazyLock::force(&MODEL_SECONDS);
}
