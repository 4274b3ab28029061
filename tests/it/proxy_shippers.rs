//! The requests real log shippers sent (recorded by `tests/clients/record.py`
//! into `tests/fixtures/<client>/`) replayed byte for byte through the real server on the
//! example configs to a local upstream. The upstream must get a body its real server
//! accepts (decoded here with other code than the proxy's: flate2, snap, zstd, brotli and
//! the prost messages), encoded as the client sent it, with exactly the anonymized texts
//! below and none of the fixtures' synthetic personal data; every refusal is a 4xx in our
//! error shape, counted by reason, with nothing forwarded.
//!
//! Detection is the rule tiers plus a deny list of the fixtures' synthetic names (no
//! model), so the exact texts do not depend on a model's guesses.

use std::io::{Read, Write};

use prost::Message;
use serde_json::Value;

use anonymizer::proxy::format::logs::loki::{self, LokiFields, PushRequest};
use anonymizer::proxy::format::logs::otlp::{self, OtlpFields};
use anonymizer::proxy::format::logs::otlp_proto::ExportLogsServiceRequest;

use crate::support::upstream::{Received, Upstream};
use crate::support::{Response, TestServer, KEY};

/// The synthetic personal data of the fixtures. Some sit where routes anonymize only on
/// request (OTLP scope attributes, Loki structured metadata): the replays turn those on
/// ([`OTLP_ALL`], [`LOKI_ALL`]); `defaults_leave_resource_scope_and_metadata_alone`
/// shows the defaults.
const PERSONAL: &[&str] = &[
    "Carol Diaz",
    "jane.doe",
    "alice.smith@example.org",
    "bob.jones@example.net",
    "Alice Smith",
    "Bob Jones",
    "203.0.113.7",
    "198.51.100.23",
    "415-555-0132",
    "4111 1111 1111 1111",
];

/// Rules only, plus the fixtures' names: `detection` and `model` for any config.
/// `jane.doe` is a user name where it stands alone (a pattern, since a deny-list entry
/// would also cut the e-mail address it begins).
const DETECTION: &str = "model:\n  enabled: false\ndetection:\n  deny_list:\n    - {text: Alice Smith, label: PERSON}\n    - {text: Bob Jones, label: PERSON}\n    - {text: Carol Diaz, label: PERSON}\n  patterns:\n    - {name: user_name, label: PERSON, regex: '(?:^|\\s)(jane\\.doe)(?:\\s|$)', score: 0.9}\n";

struct Fixture {
    sidecar: Value,
    body: Vec<u8>,
}

impl Fixture {
    fn load(client: &str, name: &str) -> Fixture {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(client);
        let sidecar: Value =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{name}.json"))).unwrap())
                .unwrap();
        let body = std::fs::read(dir.join(sidecar["body_file"].as_str().unwrap())).unwrap();
        Fixture { sidecar, body }
    }

    fn path(&self) -> &str {
        self.sidecar["path"].as_str().unwrap()
    }

    /// Sends the recorded request: its method, path, headers (but those of the
    /// connection: host, length, keep-alive) and body bytes.
    fn replay(&self, s: &TestServer) -> Response {
        self.replay_with(s, &self.body, None)
    }

    /// The recorded request with another body and, if given, `Content-Encoding`.
    fn replay_with(&self, s: &TestServer, body: &[u8], encoding: Option<&str>) -> Response {
        let method: reqwest::Method = self.sidecar["method"].as_str().unwrap().parse().unwrap();
        let mut req = s.client().request(method, s.url(self.path()));
        for pair in self.sidecar["headers"].as_array().unwrap() {
            let (name, value) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            let lower = name.to_ascii_lowercase();
            if ["host", "content-length", "connection"].contains(&lower.as_str())
                || (encoding.is_some() && lower == "content-encoding")
            {
                continue;
            }
            req = req.header(name, value);
        }
        if let Some(encoding) = encoding {
            req = req.header("content-encoding", encoding);
        }
        Response::from(req.body(body.to_vec()).send().unwrap())
    }
}

/// Route options that anonymize every text of an OTLP request / a Loki push.
const OTLP_ALL: &str = "    otlp: {resource_attributes: true, scope_attributes: true}\n";
const LOKI_ALL: &str = "    loki: {structured_metadata: true}\n";

/// The server on `conf/examples/<name>.yaml` (rules only) with `route` options added to
/// its one route and `extra` top-level settings, its upstream a sink.
fn example(name: &str, route: &str, extra: &str) -> (TestServer, Upstream) {
    let up = Upstream::sink();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conf/examples")
        .join(format!("{name}.yaml"));
    // The example's route is the last thing in its file: options append to it.
    let yaml = std::fs::read_to_string(path).unwrap() + route + DETECTION + extra;
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

/// The one request the upstream got, after checking no personal data is in any byte
/// it received nor in its decoded body.
fn only_request(up: &Upstream, decoded: impl Fn(&Received) -> Vec<u8>) -> (Received, Vec<u8>) {
    let mut got = up.received();
    assert_eq!(got.len(), 1);
    let got = got.remove(0);
    let body = decoded(&got);
    let (raw, text) = (up.all_bytes(), String::from_utf8_lossy(&body).into_owned());
    for personal in PERSONAL {
        assert!(!raw.contains(personal), "{personal} reached the upstream");
        assert!(!text.contains(personal), "{personal} reached the upstream");
    }
    (got, body)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("the upstream got gzip");
    out
}

fn unsnappy(bytes: &[u8]) -> Vec<u8> {
    snap::raw::Decoder::new()
        .decompress_vec(bytes)
        .expect("the upstream got a snappy block")
}

fn strings(slots: Vec<&mut String>) -> Vec<String> {
    slots.into_iter().map(|s| s.clone()).collect()
}

fn otlp_texts(body: &[u8], fields: &OtlpFields) -> Vec<String> {
    let mut request = ExportLogsServiceRequest::decode(body).expect("OTLP protobuf");
    strings(otlp::texts(&mut request, fields))
}

/// The texts of the log records (bodies, attributes) the upstream gets from the
/// OpenTelemetry Python exporter's request. One batch, so one numbering: `[PERSON_1]` is
/// Carol Diaz of the first scope's attributes, `[PERSON_3]` Bob Jones, `[PERSON_4]` the
/// user name `jane.doe`. The traceback's path names the recording worktree.
const OTEL_ANONYMIZED: &[&str] = &[
    "user [EMAIL_ADDRESS_1] logged in from [IP_ADDRESS_1]",
    "[PERSON_2]",
    "[IP_ADDRESS_1]",
    "/work/wt-codecs/tests/clients/record.py",
    "record_otel",
    "payment failed for order 1042",
    "/work/wt-codecs/tests/clients/record.py",
    "record_otel",
    "ValueError",
    "card [CREDIT_CARD_1] declined for [PERSON_2]",
    "Traceback (most recent call last):\n  File \"/work/wt-codecs/tests/clients/record.py\", line 197, in record_otel\n    raise ValueError(\"card [CREDIT_CARD_1] declined for [PERSON_2]\")\nValueError: card [CREDIT_CARD_1] declined for [PERSON_2]\n",
    "signup",
    "[PERSON_2]",
    "[EMAIL_ADDRESS_2]",
    "[IP_ADDRESS_1]",
    "[IP_ADDRESS_2]",
    "[PERSON_4]",
    "[PHONE_NUMBER_1]",
    "vip",
    "[PERSON_3]",
];

#[test]
fn otel_python_protobuf_export_is_anonymized_and_still_protobuf() {
    let fixture = Fixture::load("otel-python", "logs_default");
    let (s, up) = example("otlp_logs", OTLP_ALL, "");
    let r = fixture.replay(&s);
    assert_eq!(r.status, 200, "{}", r.text);
    let (got, body) = only_request(&up, |r| r.body.clone());
    assert_eq!(got.header("content-encoding"), None);
    assert_eq!(got.header("content-type"), Some("application/x-protobuf"));
    assert_eq!(otlp_texts(&body, &OtlpFields::default()), OTEL_ANONYMIZED);
}

#[test]
fn otel_python_gzip_export_goes_on_as_gzip() {
    let fixture = Fixture::load("otel-python", "logs_gzip");
    let (s, up) = example("otlp_logs", OTLP_ALL, "");
    let r = fixture.replay(&s);
    assert_eq!(r.status, 200, "{}", r.text);
    let (got, body) = only_request(&up, |r| gunzip(&r.body));
    assert_eq!(got.header("content-encoding"), Some("gzip"));
    assert_eq!(otlp_texts(&body, &OtlpFields::default()), OTEL_ANONYMIZED);
    let (m, log) = (s.metrics(), s.log());
    assert!(!PERSONAL.iter().any(|p| m.contains(p) || log.contains(p)));
}

/// deflate (zlib and raw), zstd and br: the exporter's message, encoded so by other
/// clients, reaches the upstream anonymized in the same coding.
#[test]
fn every_request_coding_is_decoded_and_redone() {
    let fixture = Fixture::load("otel-python", "logs_default");
    let (s, up) = example("otlp_logs", OTLP_ALL, "");
    let zlib = {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&fixture.body).unwrap();
        e.finish().unwrap()
    };
    let raw_deflate = {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&fixture.body).unwrap();
        e.finish().unwrap()
    };
    let zstd_body = zstd::stream::encode_all(fixture.body.as_slice(), 3).unwrap();
    let br = {
        let mut w = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
        w.write_all(&fixture.body).unwrap();
        w.into_inner()
    };
    type Decode = fn(&[u8]) -> Vec<u8>;
    let cases: [(&str, Vec<u8>, Decode); 4] = [
        ("deflate", zlib, |b| {
            let mut out = Vec::new();
            flate2::read::ZlibDecoder::new(b)
                .read_to_end(&mut out)
                .unwrap();
            out
        }),
        // Raw DEFLATE sent as `deflate` goes on raw: its reader (Loki, Go) expects that.
        ("deflate", raw_deflate, |b| {
            let mut out = Vec::new();
            flate2::read::DeflateDecoder::new(b)
                .read_to_end(&mut out)
                .unwrap();
            out
        }),
        ("zstd", zstd_body, |b| zstd::stream::decode_all(b).unwrap()),
        ("br", br, |b| {
            let mut out = Vec::new();
            brotli::Decompressor::new(b, 4096)
                .read_to_end(&mut out)
                .unwrap();
            out
        }),
    ];
    for (i, (coding, body, decode)) in cases.into_iter().enumerate() {
        let r = fixture.replay_with(&s, &body, Some(coding));
        assert_eq!(r.status, 200, "{coding}: {}", r.text);
        let got = up.received().remove(i);
        assert_eq!(got.header("content-encoding"), Some(coding));
        let text = otlp_texts(&decode(&got.body), &OtlpFields::default());
        assert_eq!(text, OTEL_ANONYMIZED, "{coding}");
    }
    let all = up.all_bytes();
    assert!(!PERSONAL.iter().any(|p| all.contains(p)));
}

#[test]
fn otel_python_json_export_is_anonymized_in_json() {
    let fixture = Fixture::load("otel-python-json", "logs_default");
    let (s, up) = example("otlp_logs", OTLP_ALL, "");
    let r = fixture.replay(&s);
    assert_eq!(r.status, 200, "{}", r.text);
    let (got, body) = only_request(&up, |r| r.body.clone());
    assert_eq!(got.header("content-type"), Some("application/json"));
    let mut doc: Value = serde_json::from_slice(&body).unwrap();
    let want: Vec<String> = OTEL_ANONYMIZED
        .iter()
        .map(|t| {
            t.replace("record_otel", "export_sample_logs")
                .replace("line 197", "line 214")
        })
        .collect();
    assert_eq!(
        strings(anonymizer::proxy::format::logs::otlp_json::texts(
            &mut doc,
            &OtlpFields::default()
        )),
        want
    );
}

/// By default resource and scope attributes (`service.name`, a scope's `team.lead`) and
/// Loki structured metadata go up as they are: a backend indexes on them.
#[test]
fn defaults_leave_resource_scope_and_metadata_alone() {
    let fixture = Fixture::load("otel-python", "logs_gzip");
    let (s, up) = example("otlp_logs", "", "");
    let r = fixture.replay(&s);
    assert_eq!(r.status, 200, "{}", r.text);
    let got = up.received().remove(0);
    let fields = OtlpFields {
        log_attributes: false,
        resource_attributes: true,
        scope_attributes: true,
    };
    assert_eq!(
        otlp_texts(&gunzip(&got.body), &fields),
        [
            "python",
            "opentelemetry",
            "1.45.2",
            "c71e3818-ee93-4cd3-92f7-aef3728af8bd",
            "checkout",
            "test",
            "Carol Diaz",
            "user [EMAIL_ADDRESS_1] logged in from [IP_ADDRESS_1]",
            "payment failed for order 1042",
            "Bob Jones",
            "signup",
            "[PERSON_1]",
            "[EMAIL_ADDRESS_2]",
            "[IP_ADDRESS_1]",
            "[IP_ADDRESS_2]"
        ]
    );

    let fixture = Fixture::load("loki-push", "push_json");
    let (s, up) = example("loki_push", "", "");
    let r = fixture.replay(&s);
    assert!(r.status / 100 == 2, "{}: {}", r.status, r.text);
    let mut doc = up.received().remove(0).json();
    let all = LokiFields {
        structured_metadata: true,
    };
    assert_eq!(
        strings(loki::json_texts(&mut doc, &all)),
        [
            "user ******************** logged in from ***********",
            "5b8efff798038103d269b633813fc60c",
            "password reset requested by ***********",
            "alice.smith@example.org",
            "eee19b7ec3c1b174",
            "to=<*********************> status=sent"
        ]
    );
}

#[test]
fn loki_protobuf_push_stays_a_snappy_protobuf_with_its_labels() {
    let fixture = Fixture::load("loki-push", "push_protobuf_snappy");
    let (s, up) = example("loki_push", LOKI_ALL, "");
    let r = fixture.replay(&s);
    assert!(r.status / 100 == 2, "{}: {}", r.status, r.text);
    let (got, body) = only_request(&up, |r| unsnappy(&r.body));
    assert_eq!(got.header("content-encoding"), None);
    let mut push = PushRequest::decode(body.as_slice()).expect("Loki protobuf");
    assert_eq!(push.streams[0].labels, r#"{app="shop", env="test"}"#);
    // The example masks.
    assert_eq!(
        strings(loki::texts(&mut push, &LokiFields::default())),
        [
            "user ******************** logged in from ***********",
            "password reset requested by ***********",
            "to=<*********************> status=sent"
        ]
    );
    // `Content-Encoding: snappy` on a protobuf push names the block it has anyway (as
    // Loki reads it): decoded once, and the header goes on with one block.
    let r = fixture.replay_with(&s, &fixture.body, Some("snappy"));
    assert!(r.status / 100 == 2, "{}: {}", r.status, r.text);
    let got = up.received().remove(1);
    assert_eq!(got.header("content-encoding"), Some("snappy"));
    assert_eq!(unsnappy(&got.body), body);
}

#[test]
fn loki_json_push_and_structured_metadata_on_request() {
    let fixture = Fixture::load("loki-push", "push_json");
    let (s, up) = example("loki_push", LOKI_ALL, "");
    let r = fixture.replay(&s);
    assert!(r.status / 100 == 2, "{}: {}", r.status, r.text);
    let (_, body) = only_request(&up, |r| r.body.clone());
    let mut doc: Value = serde_json::from_slice(&body).unwrap();
    let all = LokiFields {
        structured_metadata: true,
    };
    assert_eq!(
        strings(loki::json_texts(&mut doc, &all)),
        [
            "user ******************** logged in from ***********",
            "5b8efff798038103d269b633813fc60c",
            "password reset requested by ***********",
            "***********************",
            "eee19b7ec3c1b174",
            "to=<*********************> status=sent"
        ]
    );
}

/// The lines of an NDJSON body.
fn lines(body: &[u8]) -> Vec<String> {
    String::from_utf8(body.to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn elasticsearch_py_gzip_bulk_keeps_its_action_lines_and_gzip() {
    let fixture = Fixture::load("elasticsearch-py", "bulk_gzip");
    let (s, up) = example("elasticsearch_bulk", "", "");
    let r = fixture.replay(&s);
    assert_eq!(r.status, 200, "{}", r.text);
    let (got, body) = only_request(&up, |r| gunzip(&r.body));
    assert_eq!(got.method, "PUT");
    assert_eq!(got.header("content-encoding"), Some("gzip"));
    let (sent, forwarded) = (lines(&gunzip(&fixture.body)), lines(&body));
    assert_eq!(sent.len(), forwarded.len());
    for i in (0..sent.len()).step_by(2) {
        assert_eq!(sent[i], forwarded[i], "action line {i}");
    }
    let messages: Vec<String> = forwarded
        .iter()
        .skip(1)
        .step_by(2)
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|doc| format!("{} {}", doc["message"], doc["user"]))
        .collect();
    assert_eq!(
        messages,
        [
            r#""user [EMAIL_ADDRESS_1] logged in from [IP_ADDRESS_1]" null"#,
            r#""password reset requested by [PERSON_1], phone [PHONE_NUMBER_1]" {"name":"[PERSON_1]"}"#,
            r#""GET /orders?email=[EMAIL_ADDRESS_2] 200" null"#
        ]
    );
}

#[test]
fn syslog_ng_bulk_message_in_upper_case_is_anonymized() {
    let fixture = Fixture::load("syslog-ng", "bulk");
    let (s, up) = example("elasticsearch_bulk", "", "");
    let r = fixture.replay(&s);
    assert_eq!(r.status, 200, "{}", r.text);
    let (_, body) = only_request(&up, |r| r.body.clone());
    let (sent, forwarded) = (lines(&fixture.body), lines(&body));
    assert_eq!(sent.len(), forwarded.len());
    for i in (0..sent.len()).step_by(2) {
        assert_eq!(sent[i], forwarded[i], "action line {i}");
    }
    let messages: Vec<String> = forwarded
        .iter()
        .skip(1)
        .step_by(2)
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["MESSAGE"].to_string())
        .collect();
    assert_eq!(
        messages,
        [
            r#""Accepted password for [PERSON_1] from [IP_ADDRESS_1] port 51234 ssh2""#,
            r#""order 1042 shipped to [PERSON_2], [ADDRESS_1]""#,
            r#""to=<[EMAIL_ADDRESS_1]>, relay=mx.example.net, status=sent""#
        ]
    );
}

/// A server whose bodies may decode to 1 MiB at most, on the OTLP and Loki examples.
fn small_limit(name: &str) -> (TestServer, Upstream) {
    example(name, "", "limits:\n  max_body_bytes: 1048576\n")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Every refusal kind on the log routes: a 4xx in our error shape, counted by route and
/// reason, and no byte at all reaching the upstream (bodies this small are read before
/// an upstream is chosen).
#[test]
fn undecodable_unsupported_bombs_and_malformed_protobuf_are_refused_unforwarded() {
    let otel = Fixture::load("otel-python", "logs_gzip");
    let (s, up) = small_limit("otlp_logs");
    // An unknown coding.
    otel.replay_with(&s, &otel.body, Some("compress"))
        .assert_error(415, "unsupported_media_type");
    // Bytes that are not the coding they claim.
    let details = otel
        .replay_with(&s, b"not gzip at all", Some("gzip"))
        .assert_error(422, "validation_failed");
    assert_eq!(details[0]["field"], "body");
    // A bomb: 16 KiB of gzip that would be 16 MiB.
    let bomb = gzip(&vec![0u8; 16 << 20]);
    assert!(bomb.len() < 64 << 10);
    otel.replay_with(&s, &bomb, Some("gzip"))
        .assert_error(413, "payload_too_large");
    // Gzip that decodes to something that is not an OTLP request.
    let details = otel
        .replay_with(&s, &gzip(b"\xff\xff\xff\xff garbage"), Some("gzip"))
        .assert_error(422, "validation_failed");
    assert_eq!(details[0]["field"], "body");
    assert!(up.received().is_empty(), "{:?}", up.received());
    let want: Vec<String> = [
        ("unsupported_encoding", 1),
        ("undecodable", 1),
        ("too_large", 1),
        ("malformed", 1),
    ]
    .iter()
    .map(|(reason, n)| {
        format!("anonymizer_proxy_refusals_total{{reason=\"{reason}\",route=\"otlp_logs\"}} {n}")
    })
    .collect();
    let m = s.metrics_with(&want);
    assert!(want.iter().all(|l| m.contains(l.as_str())), "{m}");

    let loki_fixture = Fixture::load("loki-push", "push_protobuf_snappy");
    let (s, up) = small_limit("loki_push");
    // Not a snappy block.
    loki_fixture
        .replay_with(&s, b"\x0a\x00", None)
        .assert_error(422, "validation_failed");
    // A snappy block announcing 16 MiB (its varint length prefix): refused before
    // anything is allocated.
    let bomb = b"\x80\x80\x80\x08\x00\x61";
    loki_fixture
        .replay_with(&s, bomb, None)
        .assert_error(413, "payload_too_large");
    // A good block around bytes that are not a push.
    let not_push = snap::raw::Encoder::new()
        .compress_vec(b"\x0a\xff\xff\xff")
        .unwrap();
    loki_fixture
        .replay_with(&s, &not_push, None)
        .assert_error(422, "validation_failed");
    assert!(up.received().is_empty(), "{:?}", up.received());
    let want: Vec<String> = ["undecodable", "too_large", "malformed"]
        .iter()
        .map(|reason| {
            format!("anonymizer_proxy_refusals_total{{reason=\"{reason}\",route=\"loki_push\"}} 1")
        })
        .collect();
    let m = s.metrics_with(&want);
    assert!(want.iter().all(|l| m.contains(l.as_str())), "{m}");
    assert!(!PERSONAL.iter().any(|p| m.contains(p)));
    assert!(!PERSONAL.iter().any(|p| s.log().contains(p)));
}
