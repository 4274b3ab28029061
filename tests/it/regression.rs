//! One test per fixed bug, named `r<issue>_…`, against the real server.

use serde_json::json;

use crate::support::upstream::Upstream;
use crate::support::TestServer;

/// A Loki push whose line holds two different e-mail addresses of
/// the same length, on a `method: MASK` route, was a 500 and the batch was lost. Both
/// mask to the same stars, and the proxy built its restore map from every entity, so
/// the map was ambiguous. `/v1/anonymize` never builds one, so it did not fail.
#[test]
fn r12_a_mask_route_forwards_two_same_length_addresses_in_one_push() {
    let (a, b) = ("grace.hopper@example.com", "alan.turing7@example.org");
    assert_eq!(a.len(), b.len());
    let up = Upstream::sink();
    let config = format!(
        "{}routes:\n  - name: loki\n    match: {{path_prefix: /loki/api/v1/push}}\n    upstream: {{url: '{}'}}\n    preset: loki_push\n    auth: passthrough\n    method: MASK\n",
        crate::support::base_config(),
        up.url()
    );
    let s = TestServer::start(&config);
    let push = |line: String| json!({"streams": [{"stream": {"app": "web"}, "values": [["1700000000000000000", line]]}]});
    let r = s.post_raw(
        "/loki/api/v1/push",
        &push(format!("from {a} to {b}")).to_string(),
        &[],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let stars = "*".repeat(a.len());
    assert_eq!(
        String::from_utf8_lossy(&up.received()[0].body),
        push(format!("from {stars} to {stars}")).to_string()
    );
    assert!(!up.all_bytes().contains(a) && !up.all_bytes().contains(b));
    // The API path handles the same text.
    let r = s.post(
        "/v1/anonymize",
        &json!({"text": [format!("from {a} to {b}")],
                "anonymization_config": {"deidentification_method": "MASK"}}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

/// The largest request the limits allow by count (`limits.max_texts`,
/// 1,000 texts of ~54 characters) took 8–9 CPU-seconds against a 10 s inference
/// timeout, so under ordinary load it became a 503. Batched, it is about one
/// CPU-second of model work; the timeout now bounds a stall (no window finished for
/// `model.inference_timeout_ms`), never the size of the work. Here the budget is 2 s,
/// about what the whole request takes on 2 busy cores, while no forward pass of it
/// comes near that.
#[test]
fn r15_the_largest_documented_request_is_served_by_the_model() {
    let config = format!(
        "auth:\n  api_keys:\n    - tenant: test\n      key: {}\nmodel:\n  inference_timeout_ms: 2000\n",
        crate::support::KEY
    );
    let s = TestServer::start(&config);
    let names = [
        "Maria Lopez",
        "John Smith",
        "Ana Ruiz",
        "Peter Meyer",
        "Li Wei",
    ];
    // Five-digit tickets: four-digit ones are MMDD-shaped, and on an AVX2-only CPU the
    // model took "Ticket 0819" for a date (a borderline token its int8 kernels round
    // differently there, model card "On a real AVX2-only CPU"); dates are not what this
    // test is about.
    let texts: Vec<String> = (0..1000)
        .map(|i| {
            format!(
                "Ticket {}: {} called about order {}, thanks.",
                10_000 + i,
                names[i % 5],
                5000 + i
            )
        })
        .collect();
    let r = s.post("/v1/anonymize", &json!({ "text": texts }));
    assert_eq!(r.status, 200, "{}", r.text);
    let body = r.json();
    let out = body["anonymized_text"].as_array().expect("texts");
    assert_eq!(out.len(), 1000);
    for (i, text) in out.iter().enumerate() {
        let want = format!(
            "Ticket {}: [PERSON_{}] called about order {}, thanks.",
            10_000 + i,
            i % 5 + 1,
            5000 + i
        );
        assert_eq!(text.as_str(), Some(want.as_str()), "text {i}");
    }
}
