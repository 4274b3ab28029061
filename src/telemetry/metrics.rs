//! Every metric of the service, registered once in the default Prometheus registry that
//! `pingora-prometheus` serves. Label values come from enums or from configuration
//! (tenant names, entity labels), never from requests, so cardinality stays bounded
//! and no personal data can reach a label.

use std::sync::LazyLock;

use pingora_prometheus::prometheus::{
    register_histogram_vec, register_int_counter_vec, HistogramVec, IntCounterVec,
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

/// Registers every metric so that `/metrics` lists them from the first scrape.
pub fn init() {
    LazyLock::force(&REQUESTS);
    LazyLock::force(&REQUEST_DURATION);
    LazyLock::force(&TEXTS);
    LazyLock::force(&CHARACTERS);
    LazyLock::force(&ENTITIES);
}
