use super::*;

/// What botocore 1.44.8's `SigV4Auth` signed (`tests/clients/` venv, fixed clock).
const BOTOCORE: &str = "AWS4-HMAC-SHA256 Credential=team/20261127/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=373c34bdc50353a9f93dd323f5f60dc85eeb747780407a2ce088b4c5d609abe3";
const PATH: &str = "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse";
const BODY: &[u8] = br#"{"messages":[]}"#;

fn at(text: &str) -> SystemTime {
    parse_amz_date(text).unwrap()
}

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("content-type", HeaderValue::from_static("application/json"));
    h.insert("host", HeaderValue::from_static("127.0.0.1:8080"));
    h.insert("x-amz-date", HeaderValue::from_static("20261127T080000Z"));
    h.insert("authorization", HeaderValue::from_static(BOTOCORE));
    h
}

#[test]
fn a_botocore_signature_verifies_and_any_change_breaks_it() {
    let p = Presented::parse(BOTOCORE).unwrap();
    assert_eq!(p.access_key_id, "team");
    assert_eq!(
        (p.region.as_str(), p.service.as_str()),
        ("us-east-1", "bedrock")
    );
    let now = at("20261127T080500Z");
    let secret = "bench-key-0123456789";
    assert_eq!(
        verify(&p, secret, "POST", PATH, &headers(), BODY, now),
        Ok(())
    );
    let wrong = |secret: &str, path: &str, body: &[u8], now| {
        verify(&p, secret, "POST", path, &headers(), body, now)
    };
    assert_eq!(
        wrong("other-key-0123456789", PATH, BODY, now),
        Err(Rejected::Mismatch)
    );
    assert_eq!(
        wrong(secret, "/model/x/converse", BODY, now),
        Err(Rejected::Mismatch)
    );
    assert_eq!(wrong(secret, PATH, b"{}", now), Err(Rejected::Mismatch));
    assert_eq!(
        wrong(secret, PATH, BODY, at("20261127T081600Z")),
        Err(Rejected::Expired)
    );
    let mut h = headers();
    h.remove("x-amz-date");
    assert_eq!(
        verify(&p, secret, "POST", PATH, &h, BODY, now),
        Err(Rejected::BadDate)
    );
}

#[test]
fn what_we_sign_verifies_as_aws_would() {
    let creds = Credentials {
        access_key_id: "AKIDEXAMPLE".into(),
        secret_access_key: crate::secret::Secret::new(
            "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
        ),
        session_token: Some(crate::secret::Secret::new("token/with+chars".into())),
    };
    let mut h = HeaderMap::new();
    h.insert("content-type", HeaderValue::from_static("application/json"));
    h.insert("x-amzn-bedrock-trace", HeaderValue::from_static("ENABLED"));
    let now = at("20261127T093000Z");
    let request = Outgoing {
        method: "POST",
        path_and_query: PATH,
        host: "bedrock-runtime.eu-west-1.amazonaws.com",
        headers: &h,
        body: BODY,
    };
    let added = sign(&creds, "eu-west-1", "bedrock", &request, now);
    for (n, v) in &added {
        h.insert(n.clone(), v.clone());
    }
    h.insert(
        "host",
        HeaderValue::from_static("bedrock-runtime.eu-west-1.amazonaws.com"),
    );
    let auth = h["authorization"].to_str().unwrap().to_owned();
    let p = Presented::parse(&auth).unwrap();
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
    assert_eq!(h["x-amz-date"], "20261127T093000Z");
    let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    assert_eq!(verify(&p, secret, "POST", PATH, &h, BODY, now), Ok(()));
}

#[test]
fn dates_and_headers_parse_strictly() {
    assert_eq!(format_amz_date(at("20240229T235959Z")), "20240229T235959Z");
    assert_eq!(format_amz_date(UNIX_EPOCH), "19700101T000000Z");
    for bad in [
        "20261327T000000Z",
        "2026-11-27T00:00:00Z",
        "20261127T000000",
    ] {
        assert!(parse_amz_date(bad).is_none(), "{bad}");
    }
    for bad in [
        "Bearer x",
        "AWS4-HMAC-SHA256 Credential=a/2026/us/bedrock/aws4_request, SignedHeaders=host, Signature=00",
        "AWS4-HMAC-SHA256 Credential=a/20261127/us/bedrock/other, SignedHeaders=host, Signature=0000000000000000000000000000000000000000000000000000000000000000",
    ] {
        assert!(Presented::parse(bad).is_none(), "{bad}");
    }
}
