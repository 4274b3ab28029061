//! Log traffic as real shippers send it, through the example configs, against a real
//! local upstream: the exact bytes forwarded, and refusals that forward nothing.

use serde_json::json;

use crate::support::upstream::Upstream;
use crate::support::{TestServer, KEY};

const EMAIL: &str = "ada.lovelace@example.com";

/// The server on `conf/examples/<name>.yaml`, its upstream a sink. The rule tiers
/// alone, so that exact bodies do not depend on a model's guesses about short words.
fn example(name: &str) -> (TestServer, Upstream) {
    let up = Upstream::sink();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conf/examples")
        .join(format!("{name}.yaml"));
    let yaml = std::fs::read_to_string(path).unwrap() + "model:\n  enabled: false\n";
    let url = up.url();
    let s = TestServer::start_with_env(
        &yaml,
        &[
            ("ANONYMIZER_UPSTREAM", url.as_str()),
            ("ANONYMIZER_API_KEYS", KEY),
        ],
    );
    (s, up)
}

/// POSTs `body` with an optional content type; returns the response.
fn post(
    s: &TestServer,
    path: &str,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> crate::support::Response {
    let mut req = s.client().post(s.url(path)).body(body);
    if let Some(t) = content_type {
        req = req.header("content-type", t);
    }
    crate::support::Response::from(req.send().unwrap())
}

#[test]
fn elasticsearch_bulk_anonymizes_every_source_at_both_paths_and_keeps_action_lines() {
    let (s, up) = example("elasticsearch_bulk");
    let lines = |email: &str| {
        [
            r#"{"index":{"_index":"logs"}}"#.to_owned(),
            format!(r#"{{"@timestamp":"2026-11-22T10:00:00Z","message":"login by {email}","log":{{"level":"info"}}}}"#),
            r#"{ "create" : { "_index" : "logs", "_id" : "7" } }"#.to_owned(),
            format!(r#"{{"msg":"pino says {email}","event":{{"original":"raw {email}"}}}}"#),
            r#"{"update":{"_id":"7","_index":"logs"}}"#.to_owned(),
            format!(r#"{{"doc":{{"message":"now {email}"}},"doc_as_upsert":true}}"#),
            r#"{"delete":{"_index":"logs","_id":"8"}}"#.to_owned(),
            r#"{"index":{}}"#.to_owned(),
            format!(r#"{{"MESSAGE":"journald {email}","event.original":"dotted {email}","error.message":"no {email}"}}"#),
            r#"{"index":{}}"#.to_owned(),
            r#"{"message":"nothing personal here"}"#.to_owned(),
        ]
        .join("\n")
            + "\n"
    };
    let want = lines("[EMAIL_ADDRESS_1]");
    for path in ["/_bulk", "/logs-app/_bulk"] {
        let r = post(
            &s,
            path,
            Some("application/x-ndjson"),
            lines(EMAIL).into_bytes(),
        );
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        let got = up.received().pop().unwrap();
        assert_eq!((got.method.as_str(), got.path.as_str()), ("POST", path));
        assert_eq!(String::from_utf8_lossy(&got.body), want, "{path}");
    }
    assert!(!up.all_bytes().contains(EMAIL));
    // Other Elasticsearch APIs are not this route's.
    let r = post(&s, "/logs/_doc", Some("application/json"), b"{}".to_vec());
    r.assert_error(404, "not_found");
}

/// ECS address fields are `ip`-typed in Elasticsearch: a placeholder there would get the
/// document rejected, so the caller's address becomes a fake address (IPv4 from the
/// documentation ranges, IPv6 under 2001:db8::/32), the same one wherever the same
/// address recurs in the request; the message text gets the placeholder. The host's
/// own address is the service's and passes. ECS URLs are text: a query's e-mail and a
/// whole referrer get placeholders.
#[test]
fn elasticsearch_bulk_replaces_caller_addresses_by_fake_addresses_of_their_family() {
    let (s, up) = example("elasticsearch_bulk");
    let (v4, v4b, v6) = ("81.2.69.160", "10.1.2.3", "2a02:c7f:8e4d:5a00::71");
    let doc = |a: &str, b: &str, c: &str| {
        format!(
            concat!(
                r#"{{"index":{{}}}}"#,
                "\n",
                r#"{{"@timestamp":"2026-11-25T10:00:00Z","message":"login from {msg} by {email}","#,
                r#""client":{{"ip":"{a}"}},"source.ip":"{c}","related":{{"ip":["{a}","{b}"]}},"#,
                r#""remote_addr":"{a}","host":{{"ip":"10.9.9.9"}},"#,
                r#""url":{{"original":"/orders?email={email}&page=2","path":"/orders"}},"#,
                r#""http.request.referrer":"{referrer}"}}"#,
                "\n"
            ),
            msg = if a == v4 { v4 } else { "[IP_ADDRESS_1]" },
            email = if a == v4 { EMAIL } else { "[EMAIL_ADDRESS_1]" },
            referrer = if a == v4 {
                "https://crm.example.org/customers/ada"
            } else {
                "[URL_1]"
            },
            a = a,
            b = b,
            c = c,
        )
    };
    let r = post(
        &s,
        "/_bulk",
        Some("application/x-ndjson"),
        doc(v4, v4b, v6).into_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let got = String::from_utf8(up.received().pop().unwrap().body).unwrap();
    let source: serde_json::Value = serde_json::from_str(got.lines().nth(1).unwrap()).unwrap();
    let text = |v: &serde_json::Value| v.as_str().unwrap().to_owned();
    let (a, b, c) = (
        text(&source["client"]["ip"]),
        text(&source["related"]["ip"][1]),
        text(&source["source.ip"]),
    );
    for fake in [&a, &b] {
        let addr: std::net::Ipv4Addr = fake.parse().unwrap();
        let octets = addr.octets();
        assert!(
            matches!(octets[..3], [192, 0, 2] | [198, 51, 100] | [203, 0, 113]),
            "{fake}"
        );
    }
    assert_ne!(a, b);
    let six: std::net::Ipv6Addr = c.parse().unwrap();
    assert_eq!(six.segments()[..2], [0x2001, 0xdb8], "{c}");
    assert_eq!(got, doc(&a, &b, &c));
    for original in [v4, v4b, v6, EMAIL] {
        assert!(!up.all_bytes().contains(original), "{original}");
    }
}

#[test]
fn splunk_hec_anonymizes_event_strings_and_objects_and_raw_lines() {
    let (s, up) = example("splunk_hec");
    let events = |email: &str| {
        format!(
            "{{\"event\":\"login by {email}\",\"host\":\"h1\",\"sourcetype\":\"app\"}}{{\"event\":{{\"user\":\"{email}\",\"id\":\"{email}\",\"n\":1}},\"time\":1700000000}}\n{{\"event\": \"ok\"}}"
        )
    };
    // No content type (curl -d sends a form type; both are read as an event stream).
    for (path, content_type) in [
        ("/services/collector", None),
        (
            "/services/collector/event",
            Some("application/x-www-form-urlencoded"),
        ),
        ("/services/collector/event", Some("application/json")),
    ] {
        let r = post(&s, path, content_type, events(EMAIL).into_bytes());
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        let got = up.received().pop().unwrap();
        assert_eq!(got.path, path);
        assert_eq!(
            String::from_utf8_lossy(&got.body),
            events("[EMAIL_ADDRESS_1]"),
            "{path}"
        );
    }
    let raw = |email: &str| format!("first {email} line\r\nsecond line\n\nthird {email}\n");
    let r = post(
        &s,
        "/services/collector/raw?channel=0aa1",
        Some("text/plain"),
        raw(EMAIL).into_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let got = up.received().pop().unwrap();
    assert_eq!(got.path, "/services/collector/raw?channel=0aa1");
    assert_eq!(String::from_utf8_lossy(&got.body), raw("[EMAIL_ADDRESS_1]"));
    assert!(!up.all_bytes().contains(EMAIL));
}

#[test]
fn refusals_are_4xx_in_our_shape_counted_by_reason_and_forward_no_body_byte() {
    let (s, up) = example("splunk_hec");
    // A raw line that is not text.
    let mut body = format!("ok {EMAIL}\n").into_bytes();
    body.extend_from_slice(b"\xff\xfe broken\n");
    let details = post(&s, "/services/collector/raw", Some("text/plain"), body)
        .assert_error(422, "validation_failed");
    assert_eq!(details[0]["field"], "body[1]");
    // An event stream with a broken object.
    let body = format!("{{\"event\":\"{EMAIL}\"}}{{\"event\": nope}}").into_bytes();
    post(
        &s,
        "/services/collector/event",
        Some("application/json"),
        body,
    )
    .assert_error(422, "validation_failed");
    // An encoding we cannot read: refused before any upstream connection.
    let r = s
        .client()
        .post(s.url("/services/collector/event"))
        .header("content-type", "application/json")
        .header("content-encoding", "x-unknown")
        .body(json!({"event": EMAIL}).to_string())
        .send()
        .unwrap();
    crate::support::Response::from(r).assert_error(415, "unsupported_media_type");
    // Small bodies are anonymized before the upstream is chosen: a refused one never
    // reaches it, not even its headers.
    assert!(up.received().is_empty(), "{:?}", up.received());
    let want = [
        "anonymizer_proxy_refusals_total{reason=\"not_text\",route=\"splunk_hec_raw\"} 1"
            .to_owned(),
        "anonymizer_proxy_refusals_total{reason=\"malformed\",route=\"splunk_hec\"} 1".to_owned(),
        "anonymizer_proxy_refusals_total{reason=\"unsupported_encoding\",route=\"splunk_hec\"} 1"
            .to_owned(),
    ];
    let m = s.metrics_with(&want);
    assert!(want.iter().all(|l| m.contains(l.as_str())), "{m}");
    assert!(!m.contains(EMAIL));

    let (s, up) = example("elasticsearch_bulk");
    // An action whose source line is missing: which line is a document is unknowable.
    let body = format!("{{\"index\":{{}}}}\n{{\"message\":\"{EMAIL}\"}}\n{{\"create\":{{}}}}\n");
    let details = post(&s, "/_bulk", Some("application/json"), body.into_bytes())
        .assert_error(422, "validation_failed");
    assert_eq!(details[0]["field"], "body[2]");
    assert!(up.received().is_empty(), "{:?}", up.received());
    let want = [
        "anonymizer_proxy_refusals_total{reason=\"malformed\",route=\"elasticsearch_bulk\"} 1"
            .to_owned(),
    ];
    let m = s.metrics_with(&want);
    assert!(want.iter().all(|l| m.contains(l.as_str())), "{m}");
}

#[test]
fn a_client_that_expects_100_continue_gets_it_before_sending_its_body() {
    use std::io::{Read, Write};
    let (s, up) = example("splunk_hec");
    let body = json!({"event": format!("login by {EMAIL}")}).to_string();
    let mut stream = std::net::TcpStream::connect(&s.addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let head = format!(
        "POST /services/collector/event HTTP/1.1\r\nHost: hec.test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // As curl does: the body only after the interim answer.
    let mut interim = [0u8; 25];
    stream.read_exact(&mut interim).unwrap();
    assert!(
        String::from_utf8_lossy(&interim).starts_with("HTTP/1.1 100"),
        "{}",
        String::from_utf8_lossy(&interim)
    );
    stream.write_all(body.as_bytes()).unwrap();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    let rest = String::from_utf8_lossy(&rest);
    assert!(rest.contains("HTTP/1.1 200"), "{rest}");
    let got = up.received().pop().unwrap();
    assert_eq!(got.header("expect"), None);
    assert_eq!(
        String::from_utf8_lossy(&got.body),
        r#"{"event":"login by [EMAIL_ADDRESS_1]"}"#
    );
}
