use proptest::prelude::*;

use super::*;

const ALL: [Coding; 5] = [
    Coding::Gzip,
    Coding::Deflate,
    Coding::Zstd,
    Coding::Brotli,
    Coding::Snappy,
];

fn codings(list: &[Coding]) -> Codings {
    Codings::from_codings(list.to_vec())
}

fn kind(result: Result<Decoded, DecodeError>) -> DecodeErrorKind {
    result.expect_err("decoding should fail").kind()
}

#[test]
fn parses_lists_repeated_headers_aliases_and_identity() {
    struct Case {
        name: &'static str,
        values: &'static [&'static str],
        want: &'static [Coding],
    }
    let cases = [
        Case {
            name: "none",
            values: &[],
            want: &[],
        },
        Case {
            name: "identity",
            values: &["identity"],
            want: &[],
        },
        Case {
            name: "one",
            values: &["gzip"],
            want: &[Coding::Gzip],
        },
        Case {
            name: "case and x-gzip",
            values: &["X-GZip"],
            want: &[Coding::Gzip],
        },
        Case {
            name: "stacked",
            values: &["gzip, br"],
            want: &[Coding::Gzip, Coding::Brotli],
        },
        Case {
            name: "repeated header, empty elements",
            values: &["deflate,", " , zstd ", "identity, snappy"],
            want: &[Coding::Deflate, Coding::Zstd, Coding::Snappy],
        },
    ];
    for case in cases {
        let got = Codings::parse(case.values.iter().copied()).unwrap();
        assert_eq!(got.as_slice(), case.want, "{}", case.name);
    }
}

#[test]
fn unknown_codings_and_long_stacks_are_unsupported() {
    for values in [
        &["compress"][..],
        &["gzip, aes128gcm"],
        &["gzip, gzip, gzip, gzip, gzip"],
    ] {
        let err = Codings::parse(values.iter().copied()).unwrap_err();
        assert_eq!(err.kind(), DecodeErrorKind::Unsupported, "{values:?}");
        assert_eq!(err.to_string(), "the content coding is not supported");
    }
}

#[test]
fn raw_header_values_parse_and_non_ascii_is_unsupported() {
    let got = Codings::parse_bytes([&b"gzip"[..], b"br"]).unwrap();
    assert_eq!(got.as_slice(), [Coding::Gzip, Coding::Brotli]);
    for bad in [&b"gz\xffip"[..], "gzip\u{e9}".as_bytes()] {
        let err = Codings::parse_bytes([bad]).unwrap_err();
        assert_eq!(err.kind(), DecodeErrorKind::Unsupported);
    }
}

#[test]
fn an_empty_body_is_empty_whatever_its_codings() {
    for coding in ALL {
        let decoded = decode(&codings(&[coding]), b"", 10).unwrap();
        assert_eq!(decoded.body, b"");
        assert!(decoded.codings.is_identity(), "{coding:?}");
    }
}

#[test]
fn header_value_lists_tokens_in_order_and_none_for_identity() {
    assert_eq!(Codings::default().header_value(), None);
    assert_eq!(
        codings(&[Coding::RawDeflate, Coding::Brotli]).header_value(),
        Some("deflate, br".to_owned())
    );
}

#[test]
fn every_coding_round_trips_alone_and_stacked() {
    let body = "user jane.doe@example.com logged in from 203.0.113.7\n".repeat(50);
    for coding in ALL {
        let c = codings(&[coding]);
        let encoded = encode(&c, body.as_bytes()).unwrap();
        assert_ne!(encoded, body.as_bytes(), "{coding:?} changed nothing");
        let decoded = decode(&c, &encoded, body.len()).unwrap();
        assert_eq!(decoded.body, body.as_bytes(), "{coding:?}");
        assert_eq!(decoded.codings, c, "{coding:?}");
    }
    let stacked = codings(&[Coding::Gzip, Coding::Brotli]);
    let encoded = encode(&stacked, body.as_bytes()).unwrap();
    let decoded = decode(&stacked, &encoded, body.len()).unwrap();
    assert_eq!(decoded.body, body.as_bytes());
}

#[test]
fn raw_deflate_sent_as_deflate_is_read_and_written_back_raw() {
    let body = b"Alice Smith called from +1 415-555-0132";
    let raw = encode(&codings(&[Coding::RawDeflate]), body).unwrap();
    let decoded = decode(&codings(&[Coding::Deflate]), &raw, 1024).unwrap();
    assert_eq!(decoded.body, body);
    assert_eq!(decoded.codings.as_slice(), [Coding::RawDeflate]);
    assert_eq!(decoded.codings.header_value().as_deref(), Some("deflate"));
    let again = encode(&decoded.codings, &decoded.body).unwrap();
    assert_eq!(again, raw);
}

#[test]
fn a_bomb_stops_at_the_limit_in_every_coding() {
    // 8 MiB of zeros compress to a few KiB in every coding.
    let big = vec![0u8; 8 << 20];
    let limit = 1 << 20;
    for coding in ALL {
        let c = codings(&[coding]);
        let encoded = encode(&c, &big).unwrap();
        assert!(encoded.len() < 512 << 10, "{coding:?}: {}", encoded.len());
        assert_eq!(
            kind(decode(&c, &encoded, limit)),
            DecodeErrorKind::TooLarge,
            "{coding:?}"
        );
    }
}

#[test]
fn exactly_the_limit_is_accepted_and_one_byte_more_is_not() {
    let body = vec![b'a'; 1000];
    for coding in ALL {
        let c = codings(&[coding]);
        let encoded = encode(&c, &body).unwrap();
        assert_eq!(decode(&c, &encoded, 1000).unwrap().body.len(), 1000);
        assert_eq!(kind(decode(&c, &encoded, 999)), DecodeErrorKind::TooLarge);
    }
    assert_eq!(decode(&Codings::default(), &body, 1000).unwrap().body, body);
    assert_eq!(
        kind(decode(&Codings::default(), &body, 999)),
        DecodeErrorKind::TooLarge
    );
}

#[test]
fn an_inner_layer_is_bounded_too() {
    // br(gzip(8 MiB)): the gzip layer is small, the bound applies when it is undone.
    let c = codings(&[Coding::Gzip, Coding::Brotli]);
    let encoded = encode(&c, &vec![0u8; 8 << 20]).unwrap();
    assert_eq!(
        kind(decode(&c, &encoded, 1 << 20)),
        DecodeErrorKind::TooLarge
    );
}

#[test]
fn corrupt_and_truncated_bodies_are_malformed() {
    let body = "203.0.113.7 ".repeat(100);
    for coding in ALL {
        let c = codings(&[coding]);
        let encoded = encode(&c, body.as_bytes()).unwrap();
        let truncated = &encoded[..encoded.len() / 2];
        assert_eq!(
            kind(decode(&c, truncated, 1 << 20)),
            DecodeErrorKind::Malformed,
            "{coding:?} truncated"
        );
    }
    for coding in [Coding::Gzip, Coding::Zstd, Coding::Snappy] {
        assert_eq!(
            kind(decode(
                &codings(&[coding]),
                b"\xffnot compressed at all",
                1 << 20
            )),
            DecodeErrorKind::Malformed,
            "{coding:?} garbage"
        );
    }
}

#[test]
fn a_zstd_window_over_8_mib_is_refused() {
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
    encoder.window_log(25).unwrap();
    // No pledged size, so the frame header announces the full 32 MiB window.
    encoder.write_all(&[7u8; 4096]).unwrap();
    let frame = encoder.finish().unwrap();
    let c = codings(&[Coding::Zstd]);
    assert_eq!(
        kind(decode(&c, &frame, 1 << 20)),
        DecodeErrorKind::Malformed
    );
}

#[test]
fn a_snappy_block_announcing_a_huge_length_is_refused_before_allocating() {
    // Varint 0xFFFF_FFFF as the decoded length, then nothing.
    let block = [0xff, 0xff, 0xff, 0xff, 0x0f];
    assert_eq!(
        decode_snappy_block(&block, 10 << 20).unwrap_err().kind(),
        DecodeErrorKind::TooLarge
    );
}

#[test]
fn loki_snappy_marker_is_dropped_only_at_the_end() {
    let c = codings(&[Coding::Gzip, Coding::Snappy]);
    assert_eq!(c.without_final_snappy().as_slice(), [Coding::Gzip]);
    let c = codings(&[Coding::Snappy, Coding::Gzip]);
    assert_eq!(c.without_final_snappy(), c);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_bytes_never_panic_any_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for coding in ALL {
            let _ = decode(&codings(&[coding]), &bytes, 4096);
        }
        let _ = decode(&codings(&[Coding::Gzip, Coding::Brotli]), &bytes, 4096);
    }

    #[test]
    fn arbitrary_bodies_round_trip_every_coding(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        for coding in ALL {
            let c = codings(&[coding]);
            let encoded = encode(&c, &bytes).unwrap();
            let decoded = decode(&c, &encoded, bytes.len()).unwrap();
            prop_assert_eq!(&decoded.body, &bytes);
        }
    }
}
