//! The exchange end to end without sockets: headers and chunks in, bytes out.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};

use super::*;
use crate::anonymizer::{Anonymizer, Defaults};
use crate::engine::Engine;
use crate::methods::Method as Replacement;
use crate::proxy::credentials::KeyLocation;
use crate::proxy::route::{compile, RouteConfig};

const EMAIL: &str = "grace.hopper@example.com";
/// Same length as [`EMAIL`], another address.
const OTHER: &str = "alan.turing7@example.org";

fn anonymizer() -> &'static Anonymizer {
    static A: OnceLock<Anonymizer> = OnceLock::new();
    A.get_or_init(|| {
        let engine = Engine::builtin().expect("built-in engine");
        let defaults = Defaults {
            labels: engine.supported_labels().clone(),
            threshold: 0.5,
            method: Replacement::Redact,
        };
        Anonymizer::new(Arc::new(engine), defaults)
    })
}

fn route(preset: &str, extra: &str) -> Arc<Route> {
    let yaml = format!(
        "name: r\nupstream: {{url: 'http://up.test:8080/base'}}\npreset: {preset}\nauth: passthrough\n{extra}"
    );
    let config: RouteConfig = serde_yaml::from_str(&yaml).unwrap();
    Arc::new(compile(&config).unwrap())
}

fn caller() -> Caller {
    Caller {
        tenant: "t".into(),
        session_id: None,
    }
}

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.append(*k, HeaderValue::from_str(v).unwrap());
    }
    h
}

fn plan(route: Arc<Route>, h: &HeaderMap) -> Result<Exchange, Refusal> {
    let uri: Uri = "/v1/x?q=1".parse().unwrap();
    let head = RequestHead {
        method: &Method::POST,
        uri: &uri,
        headers: h,
    };
    Exchange::start(route, caller(), &head, 1024)
}

fn json_request() -> HeaderMap {
    headers(&[
        ("content-type", "application/json"),
        ("content-length", "10"),
    ])
}

/// Feeds `body` in `pieces` chunks and runs the job; returns what goes upstream.
fn send(x: &mut Exchange, body: &[u8], pieces: usize) -> Result<Bytes, Refusal> {
    let size = body.len().div_ceil(pieces.max(1)).max(1);
    let chunks: Vec<&[u8]> = body.chunks(size).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let end = i + 1 == chunks.len();
        match x.request_body(Some(chunk), end)? {
            RequestStep::Hold => assert!(!end, "held the last chunk"),
            RequestStep::Anonymize(job) => {
                assert!(end, "anonymized before the end");
                return x.anonymized(job.run(anonymizer()));
            }
            RequestStep::Pass => return Ok(Bytes::copy_from_slice(chunk)),
        }
    }
    match x.request_body(None, true)? {
        RequestStep::Anonymize(job) => x.anonymized(job.run(anonymizer())),
        other => panic!("{other:?}"),
    }
}

fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap()
}

#[test]
fn a_json_exchange_anonymizes_the_request_and_restores_the_answer_across_chunks() {
    let mut x = plan(route("openai_chat", ""), &json_request()).unwrap();
    assert!(x.plan().restores);
    let body =
        format!(r#"{{"model":"m","messages":[{{"role":"user","content":"mail {EMAIL}"}}]}}"#);
    let sent = send(&mut x, body.as_bytes(), 7).unwrap();
    assert_eq!(
        text(&sent),
        r#"{"model":"m","messages":[{"role":"user","content":"mail [EMAIL_ADDRESS_1]"}]}"#
    );
    // Nothing more may follow the anonymized body.
    assert!(matches!(x.request_body(None, true), Ok(RequestStep::Hold)));

    let answer = headers(&[
        ("content-type", "application/json"),
        ("content-length", "99"),
        ("keep-alive", "timeout=5"),
    ]);
    let edits = x.response_head(StatusCode::OK, &answer).unwrap();
    assert_eq!(edits.remove, ["keep-alive", "content-length"]);
    let reply =
        br#"{"choices":[{"message":{"role":"assistant","content":"ok [EMAIL_ADDRESS_1]"}}]}"#;
    let (a, b) = reply.split_at(20);
    assert_eq!(
        x.response_body(Some(Bytes::from_static(a)), false),
        Ok(None)
    );
    let out = x
        .response_body(Some(Bytes::from_static(b)), true)
        .unwrap()
        .unwrap();
    assert_eq!(
        text(&out),
        format!(r#"{{"choices":[{{"message":{{"role":"assistant","content":"ok {EMAIL}"}}}}]}}"#)
    );
    let report = x.report();
    assert_eq!(report.entities.get("EMAIL_ADDRESS"), Some(&1));
    assert_eq!((report.tally.restored, report.tally.unresolved), (1, 0));
}

#[test]
fn streamed_answers_are_restored_event_by_event() {
    let mut x = plan(route("openai_chat", ""), &json_request()).unwrap();
    let body = format!(r#"{{"messages":[{{"role":"user","content":"{EMAIL}"}}]}}"#);
    send(&mut x, body.as_bytes(), 1).unwrap();
    let sse = headers(&[("content-type", "text/event-stream")]);
    x.response_head(StatusCode::OK, &sse).unwrap();
    let event = |c: &str| {
        format!(
            "data: {}\n\n",
            serde_json::json!({"choices": [{"index": 0, "delta": {"content": c}}]})
        )
    };
    let first = x.response_body(Some(Bytes::from(event("to [EMAIL_"))), false);
    let first = first.unwrap().unwrap();
    assert!(
        text(&first).contains(r#""content":"to ""#),
        "{}",
        text(&first)
    );
    let rest = format!("{}data: [DONE]\n\n", event("ADDRESS_1]!"));
    let second = x
        .response_body(Some(Bytes::from(rest)), true)
        .unwrap()
        .unwrap();
    assert!(
        text(&second).contains(&format!(r#""content":"{EMAIL}!""#)),
        "{}",
        text(&second)
    );
    assert!(text(&second).ends_with("data: [DONE]\n\n"));
}

#[test]
fn the_upstream_request_drops_our_key_hop_headers_and_the_stale_length() {
    let mut x = plan(route("openai_chat", ""), &json_request()).unwrap();
    // The server found a key of ours in `x-api-key` on this passthrough route.
    x.strip_credential(KeyLocation::parse("x-api-key").unwrap());
    let client = headers(&[
        ("content-type", "application/json"),
        ("content-length", "10"),
        ("x-api-key", "ours"),
        ("connection", "close, x-drop"),
        ("x-drop", "1"),
        ("te", "trailers"),
        ("accept-encoding", "gzip"),
        ("authorization", "Bearer theirs"),
    ]);
    let uri: Uri = "/v1/chat/completions?x=1".parse().unwrap();
    let (up, edits) = x.upstream_request(&uri, &client, &[]).unwrap();
    assert_eq!(up, "/base/v1/chat/completions?x=1");
    let mut forwarded = client.clone();
    edits.apply(&mut forwarded);
    let mut names: Vec<&str> = forwarded.keys().map(|k| k.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["authorization", "content-type", "host"]);
    assert_eq!(forwarded["host"], "up.test:8080");
    // The caller's credentials go on unchanged, marked so that no debug log prints them.
    assert_eq!(forwarded["authorization"], "Bearer theirs");
    assert!(forwarded["authorization"].is_sensitive());
}

#[test]
fn bodies_that_need_no_anonymizing_pass_untouched() {
    // No body at all.
    let mut x = plan(route("openai_chat", ""), &HeaderMap::new()).unwrap();
    assert!(x.plan().body.is_none());
    assert!(matches!(x.request_body(None, true), Ok(RequestStep::Pass)));
    // Another content type, on a route that lets such bodies through.
    let text_plain = headers(&[("content-type", "text/plain"), ("content-length", "3")]);
    let mut x = plan(
        route("openai_chat", "on_unparsed: passthrough\n"),
        &text_plain,
    )
    .unwrap();
    assert!(matches!(
        x.request_body(Some(b"abc"), true),
        Ok(RequestStep::Pass)
    ));
}

#[test]
fn every_refusal_has_its_reason_and_status() {
    let cases: Vec<(&str, &str, HeaderMap, Reason, u16)> = vec![
        (
            "another content type",
            "openai_chat",
            headers(&[("content-type", "text/plain"), ("content-length", "3")]),
            Reason::UnsupportedMediaType,
            415,
        ),
        (
            "an encoding we cannot read",
            "loki_push",
            headers(&[
                ("content-type", "application/json"),
                ("content-length", "3"),
                ("content-encoding", "x-custom"),
            ]),
            Reason::UnsupportedEncoding,
            415,
        ),
        (
            "a declared length over the limit",
            "loki_push",
            headers(&[
                ("content-type", "application/json"),
                ("content-length", "5000"),
            ]),
            Reason::TooLarge,
            413,
        ),
    ];
    for (name, preset, h, reason, status) in cases {
        let refusal = plan(route(preset, ""), &h).unwrap_err();
        assert_eq!(
            (refusal.reason, refusal.error.status()),
            (reason, status),
            "{name}"
        );
    }
    let bad_session = headers(&[("x-conv", "")]);
    let refusal = plan(
        route("openai_chat", "session: {header: x-conv}\n"),
        &bad_session,
    )
    .unwrap_err();
    assert_eq!(refusal.reason, Reason::BadSession);

    // Streamed past the limit.
    let chunked = headers(&[
        ("content-type", "application/json"),
        ("transfer-encoding", "chunked"),
    ]);
    let mut x = plan(route("loki_push", ""), &chunked).unwrap();
    assert!(matches!(
        x.request_body(Some(&[b' '; 1000]), false),
        Ok(RequestStep::Hold)
    ));
    let refusal = x.request_body(Some(&[b' '; 100]), false).unwrap_err();
    assert_eq!(
        (refusal.reason, refusal.error.status()),
        (Reason::TooLarge, 413)
    );

    // Malformed bodies: the part is named, never its content.
    let mut x = plan(route("elasticsearch_bulk", ""), &json_request()).unwrap();
    let body = format!("{{\"index\":{{}}}}\n{{\"message\":\"{EMAIL}\"}}\n{{\"message\": oops\n");
    let refusal = send(&mut x, body.as_bytes(), 3).unwrap_err();
    assert_eq!(
        (refusal.reason, refusal.error.status()),
        (Reason::Malformed, 422)
    );
    assert_eq!(refusal.error.details[0].field, "body[2]");
    assert!(!format!("{refusal:?}").contains(EMAIL));

    // A raw line that is not text cannot be anonymized.
    let raw = headers(&[("content-length", "9")]);
    let mut x = plan(route("splunk_hec_raw", ""), &raw).unwrap();
    let refusal = send(&mut x, b"ok line\n\xff\xfe\n", 1).unwrap_err();
    assert_eq!(
        (refusal.reason, refusal.error.status()),
        (Reason::NotText, 422)
    );

    // An answer we must restore in an encoding we cannot read.
    let mut x = plan(route("openai_chat", ""), &json_request()).unwrap();
    let lz4 = headers(&[
        ("content-type", "application/json"),
        ("content-encoding", "lz4"),
    ]);
    let refusal = x.response_head(StatusCode::OK, &lz4).unwrap_err();
    assert_eq!(
        (refusal.reason, refusal.error.status()),
        (Reason::UnreadableResponse, 502)
    );

    // One that says br and holds gzip: refused when its body does not decode.
    let mut x = plan(route("openai_chat", ""), &json_request()).unwrap();
    let br = headers(&[
        ("content-type", "application/json"),
        ("content-encoding", "br"),
    ]);
    x.response_head(StatusCode::OK, &br).unwrap();
    let gzip = crate::proxy::encoding::encode(
        &crate::proxy::encoding::Codings::from_codings(vec![crate::proxy::encoding::Coding::Gzip]),
        br#"{"choices":[]}"#,
    )
    .unwrap();
    let refusal = x.response_body(Some(Bytes::from(gzip)), true).unwrap_err();
    assert_eq!(
        (refusal.reason, refusal.error.status()),
        (Reason::UnreadableResponse, 502)
    );

    // One that declares more than the response limit, and one that sends more.
    let mut x = plan(route("openai_chat", ""), &json_request())
        .unwrap()
        .with_response_limit(10);
    let big = headers(&[
        ("content-type", "application/json"),
        ("content-length", "11"),
    ]);
    let refusal = x.response_head(StatusCode::OK, &big).unwrap_err();
    assert_eq!(
        (refusal.reason, refusal.error.status()),
        (Reason::ResponseTooLarge, 502)
    );
    let mut x = plan(route("openai_chat", ""), &json_request())
        .unwrap()
        .with_response_limit(10);
    let json = headers(&[("content-type", "application/json")]);
    x.response_head(StatusCode::OK, &json).unwrap();
    assert_eq!(
        x.response_body(Some(Bytes::from_static(b"{\"a\":[1,2")), false),
        Ok(None)
    );
    let refusal = x
        .response_body(Some(Bytes::from_static(b",3,4]}")), true)
        .unwrap_err();
    assert_eq!(refusal.reason, Reason::ResponseTooLarge);
}

/// A Loki push with two different e-mail
/// addresses of the same length on a MASK route used to be a 500 (the restore map
/// held `*…*` twice with different originals).
#[test]
fn a_mask_route_forwards_two_same_length_entities() {
    assert_eq!(EMAIL.len(), OTHER.len());
    let mut x = plan(route("loki_push", "method: MASK\n"), &json_request()).unwrap();
    let body =
        format!(r#"{{"streams":[{{"stream":{{}},"values":[["1","from {EMAIL} to {OTHER}"]]}}]}}"#);
    let sent = send(&mut x, body.as_bytes(), 2).unwrap();
    let stars = "*".repeat(EMAIL.len());
    assert_eq!(
        text(&sent),
        format!(r#"{{"streams":[{{"stream":{{}},"values":[["1","from {stars} to {stars}"]]}}]}}"#)
    );
}

#[test]
fn the_request_side_is_the_same_whatever_the_chunking() {
    let body = format!(
        "{{\"index\":{{}}}}\n{{\"message\":\"to {EMAIL}\"}}\n{{\"delete\":{{\"_id\":\"1\"}}}}\n{{\"update\":{{}}}}\n{{\"doc\":{{\"msg\":\"{OTHER}\"}}}}\n"
    );
    let want = "{\"index\":{}}\n{\"message\":\"to [EMAIL_ADDRESS_1]\"}\n{\"delete\":{\"_id\":\"1\"}}\n{\"update\":{}}\n{\"doc\":{\"msg\":\"[EMAIL_ADDRESS_2]\"}}\n";
    for pieces in 1..=body.len() {
        let mut x = plan(route("elasticsearch_bulk", ""), &json_request()).unwrap();
        let sent = send(&mut x, body.as_bytes(), pieces).unwrap();
        assert_eq!(text(&sent), want, "{pieces} pieces");
    }
}

#[test]
fn an_api_key_route_takes_our_key_off_wherever_it_sits_and_the_provider_key_replaces_it() {
    let yaml = "name: r\nupstream: {url: 'http://up.test', add_headers: {authorization: 'Bearer sk-provider'}}\npreset: openai_chat\napi_key_in: [bearer, x-goog-api-key, 'query:key']\n";
    let config: RouteConfig = serde_yaml::from_str(yaml).unwrap();
    let route = Arc::new(compile(&config).unwrap());
    let x = plan(route, &json_request()).unwrap();
    let client = headers(&[
        ("authorization", "Bearer ours-0123456789abcdef"),
        ("x-goog-api-key", "ours-0123456789abcdef"),
        ("x-api-key", "not-a-listed-place"),
    ]);
    let uri: Uri = "/v1/x?alt=sse&key=ours-0123456789abcdef".parse().unwrap();
    let (up, edits) = x.upstream_request(&uri, &client, &[]).unwrap();
    assert_eq!(up, "/v1/x?alt=sse");
    let mut forwarded = client.clone();
    edits.apply(&mut forwarded);
    assert_eq!(forwarded["authorization"], "Bearer sk-provider");
    assert_eq!(forwarded.get("x-goog-api-key"), None);
    assert_eq!(forwarded["x-api-key"], "not-a-listed-place");
}

#[test]
fn a_mirrored_header_goes_anonymized_with_the_argument_it_repeats_or_not_at_all() {
    let mcp = route("mcp", "");
    let client = headers(&[
        ("content-type", "application/json"),
        ("content-length", "10"),
        ("mcp-param-customer", "ada@example.com"),
        ("mcp-name", "lookup"),
    ]);
    let mut x = plan(Arc::clone(&mcp), &client).unwrap();
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{"email":"ada@example.com"}}}"#;
    let out = send(&mut x, body, 3).unwrap();
    assert!(
        text(&out).contains(r#""email":"[EMAIL_ADDRESS_1]""#),
        "{}",
        text(&out)
    );
    let uri: Uri = "/mcp".parse().unwrap();
    let (_, edits) = x.upstream_request(&uri, &client, &out).unwrap();
    let mut forwarded = client.clone();
    edits.apply(&mut forwarded);
    assert_eq!(forwarded["mcp-param-customer"], "[EMAIL_ADDRESS_1]");
    assert_eq!(forwarded["mcp-name"], "lookup");
    // Without a body to anonymize them with, they do not go.
    let bodiless = headers(&[("mcp-param-customer", "ada@example.com")]);
    let refusal = plan(Arc::clone(&mcp), &bodiless).unwrap_err();
    assert_eq!(refusal.error.status(), 422);
    // Nor when they cannot be read.
    let mut unreadable = client.clone();
    unreadable.insert(
        "mcp-param-customer",
        HeaderValue::from_static("=?base64?!!?="),
    );
    assert_eq!(plan(mcp, &unreadable).unwrap_err().error.status(), 422);
}

#[test]
fn an_aws_route_signs_what_it_forwards_and_drops_the_callers_signature() {
    let bedrock = route(
        "bedrock_converse",
        "aws: {region: eu-west-1, access_key_id: AKIDPROXY, secret_access_key: s3cr3t, session_token: tok}\n",
    );
    let client = headers(&[
        ("content-type", "application/json"),
        ("content-length", "10"),
        ("authorization", "AWS4-HMAC-SHA256 Credential=team/20261127/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=00"),
        ("x-amz-date", "20261127T080000Z"),
        ("x-amz-security-token", "the-callers"),
        ("x-amzn-bedrock-trace", "ENABLED"),
    ]);
    let x = plan(bedrock, &client).unwrap();
    let uri: Uri = "/model/m%3A0/converse".parse().unwrap();
    let body = br#"{"messages":[]}"#;
    let (up, edits) = x.upstream_request(&uri, &client, body).unwrap();
    let mut forwarded = client.clone();
    edits.apply(&mut forwarded);
    assert_eq!(forwarded["x-amz-security-token"], "tok");
    let auth = forwarded["authorization"].to_str().unwrap().to_owned();
    assert!(forwarded["authorization"].is_sensitive());
    let p = super::sigv4::Presented::parse(&auth).unwrap();
    assert_eq!(
        (p.access_key_id.as_str(), p.region.as_str()),
        ("AKIDPROXY", "eu-west-1")
    );
    assert_eq!(
        p.signed_headers,
        [
            "content-type",
            "host",
            "x-amz-date",
            "x-amz-security-token",
            "x-amzn-bedrock-trace"
        ]
    );
    let path = up.path_and_query().unwrap().as_str();
    let now = std::time::SystemTime::now();
    let verified = super::sigv4::verify(&p, "s3cr3t", "POST", path, &forwarded, body, now);
    assert_eq!(verified, Ok(()));
}
