use super::*;
use crate::engine::Engine;

/// What the rule engine flags in `text`: (text, label) in order.
fn flagged(text: &str) -> Vec<(String, &'static str)> {
    let engine = Engine::builtin().expect("engine builds");
    engine
        .detect(text, &LabelSet::defaults(), 0.5)
        .expect("rule tiers do not fail")
        .into_iter()
        .map(|d| (text[d.span.start..d.span.end].to_owned(), d.label.as_str()))
        .collect()
}

fn want(pairs: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    pairs.iter().map(|(t, l)| ((*t).to_owned(), *l)).collect()
}

/// The parsed fields of `text` as (key, value) strings.
fn pairs(text: &str) -> Vec<(&str, &str)> {
    parse::fields(text)
        .into_iter()
        .map(|f| {
            (
                &text[f.key.start..f.key.end],
                &text[f.value.start..f.value.end],
            )
        })
        .collect()
}

#[test]
fn every_key_family_example_and_counter_example_holds_through_the_engine() {
    let engine = Engine::builtin().expect("engine builds");
    let labels = LabelSet::all();
    let mut failures = Vec::new();
    for family in keys::ALL {
        let check = |text: &str, value: &str, counter: bool| -> Option<String> {
            let found = engine.detect(text, &labels, 0.5).expect("rules");
            let start = text.find(value)?;
            let span = ByteSpan::new(start, start + value.len());
            let exact = |label: Option<&str>| {
                found
                    .iter()
                    .any(|d| d.span == span && label.is_none_or(|l| d.label.as_str() == l))
            };
            let touched = found.iter().any(|d| d.span.overlaps(&span));
            let ok = match (family.role, counter) {
                (Role::Personal(label), false) => exact(Some(label)),
                (Role::Personal(label), true) => !exact(Some(label)),
                (Role::Machinery, false) => !touched,
                (Role::Machinery, true) => exact(None),
                (Role::Neutral, false) => touched,
                (Role::Neutral, true) => !touched,
            };
            (!ok).then(|| format!("{}: {value:?} in {text:?}, got {found:?}", family.name))
        };
        for (text, value) in family.examples {
            failures.extend(check(text, value, false));
        }
        for (text, value) in family.counter_examples {
            failures.extend(check(text, value, true));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_json_log_line_keeps_its_machinery_and_loses_its_personal_values() {
    let line = r#"{"ts":"2024-03-14T09:30:00.123Z","level":"info","request_id":"4bf92f3577b34da6a3ce929d0e0e4736","customer_name":"Ana \"Bo\" Ruiz","email":"ana.ruiz@example.com","dob":"1984-07-02","duration_ms":1984,"status":200,"msg":"card declined"}"#;
    assert_eq!(
        flagged(line),
        want(&[
            (r#"Ana \"Bo\" Ruiz"#, "PERSON"),
            ("ana.ruiz@example.com", "EMAIL_ADDRESS"),
            ("1984-07-02", "DATE_TIME"),
        ])
    );
}

#[test]
fn logfmt_quoted_and_unquoted_values_are_read_with_their_escapes() {
    let line = r#"time=2024-03-14T09:30:00Z level=warn trace_id=4bf92f3577b34da6 user=jdoe42 name="Olga \"Jo\" Petrova" phone="+44 20 7946 0958" msg="retry""#;
    assert_eq!(
        flagged(line),
        want(&[
            ("jdoe42", "PERSON"),
            (r#"Olga \"Jo\" Petrova"#, "PERSON"),
            ("+44 20 7946 0958", "PHONE_NUMBER"),
        ])
    );
}

#[test]
fn unquoted_key_value_names_run_over_capitalised_words_up_to_the_next_key() {
    let line = "2024-03-14 09:30:00,123 INFO [billing] customer_name=Ana María Ruiz, address=12 Baker Street, London status=402 - payment refused";
    assert_eq!(
        flagged(line),
        want(&[
            ("Ana María Ruiz", "PERSON"),
            ("12 Baker Street, London", "ADDRESS"),
        ])
    );
}

#[test]
fn syslog_headers_and_structured_data_are_read() {
    let line = r#"<165>1 2024-03-14T09:30:00.003Z web-01 checkout 2231 - [meta@32473 request_id="9f1c2d3e4b5a6978" email="jo@example.org"] Refund for order 415-555-0132 sent"#;
    assert_eq!(
        flagged(line),
        want(&[
            ("jo@example.org", "EMAIL_ADDRESS"),
            ("415-555-0132", "PHONE_NUMBER"),
        ])
    );
}

#[test]
fn csv_rows_are_read_under_their_header() {
    let text = "ts,request_id,name,email,note\n2024-03-14T09:30:00Z,4bf92f3577b34da6,\"Ruiz, Ana\",ana@example.com,\"said \"\"hi\"\"\"\n1710408600,77ab12cd34ef5678,Bo Li,bo@example.com,ok";
    assert_eq!(
        flagged(text),
        want(&[
            ("Ruiz, Ana", "PERSON"),
            ("ana@example.com", "EMAIL_ADDRESS"),
            ("Bo Li", "PERSON"),
            ("bo@example.com", "EMAIL_ADDRESS"),
        ])
    );
}

#[test]
fn sql_inserts_map_values_to_their_columns_with_doubled_quotes() {
    let text = "INSERT INTO customers (id, created_at, full_name, dob, city) VALUES (1, '2024-03-14 09:30:00', 'Sean O''Brien', '02/07/1984', 'Leeds'), (2, NOW(), NULL, '1990-01-31', 'Pune');";
    assert_eq!(
        flagged(text),
        want(&[
            ("Sean O''Brien", "PERSON"),
            ("02/07/1984", "DATE_TIME"),
            ("Leeds", "LOCATION"),
            ("1990-01-31", "DATE_TIME"),
            ("Pune", "LOCATION"),
        ])
    );
}

#[test]
fn markdown_table_cells_are_read_under_their_header_with_escaped_pipes() {
    let text = "| ts | user | phone | status |\n|---|---|:--:|---|\n| 2024-03-14T09:30:00Z | a\\|b | 07700 900123 | 200 |";
    assert_eq!(
        pairs(text),
        [
            ("ts", "2024-03-14T09:30:00Z"),
            ("user", "a\\|b"),
            ("phone", "07700 900123"),
            ("status", "200")
        ]
    );
    assert_eq!(
        flagged(text),
        want(&[("a\\|b", "PERSON"), ("07700 900123", "PHONE_NUMBER")])
    );
}

#[test]
fn a_birth_date_written_like_a_timestamp_is_still_flagged() {
    assert_eq!(
        flagged(r#"{"ts": "2024-03-14T09:30:00Z", "dob": "1984-07-02T00:00:00Z"}"#),
        want(&[("1984-07-02T00:00:00Z", "DATE_TIME")])
    );
}

#[test]
fn emails_inside_machinery_values_are_still_flagged() {
    assert_eq!(
        flagged("method=GET path=/v1/users/ana@example.com/orders status=200"),
        want(&[("ana@example.com", "EMAIL_ADDRESS")])
    );
}

#[test]
fn blank_and_placeholder_values_are_not_flagged() {
    assert_eq!(
        flagged(r#"{"email": "[EMAIL_ADDRESS_1]", "name": "null", "phone": "***", "user": ""}"#),
        want(&[])
    );
}

#[test]
fn prose_with_an_equals_sign_or_commas_is_left_to_the_other_tiers() {
    assert_eq!(
        pairs("Let x = 5, name, email and phone were asked.\nWe met, talked, left."),
        []
    );
    assert_eq!(pairs("Anna said a+b=c and Bob replied."), []);
}

#[test]
fn arbitrary_bytes_never_panic_and_spans_stay_on_char_boundaries() {
    let samples = [
        "\"",
        "\"a\":",
        "\"a\": \"",
        "=",
        "a=",
        "a='",
        "é=\"ü",
        "x=\"\\",
        "INSERT INTO t (a) VALUES (",
        "INSERT INTO t (a VALUES ('x'",
        "insert into t (a, b) values ('x''",
        "|a|\n|---|\n|",
        "|\n|---|",
        "name,email\n\"a,b",
        "<1>1 ",
        "😀\"name\":\"😀\" user=😀 ",
    ];
    for text in samples {
        let scan = scan(text);
        for span in scan.personal.iter().map(|(s, _)| s).chain(&scan.machinery) {
            assert!(span.start <= span.end && span.end <= text.len(), "{text:?}");
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
        let _ = flagged(text);
    }
}

#[test]
fn unquoted_addresses_take_lower_case_words_and_names_take_particles() {
    assert_eq!(
        flagged("level=info address=12 rue de la Paix, Lyon name=Ana de la Ruiz - sent"),
        want(&[
            ("12 rue de la Paix, Lyon", "ADDRESS"),
            ("Ana de la Ruiz", "PERSON"),
        ])
    );
}

#[test]
fn a_url_query_value_ends_at_the_space_after_it() {
    assert_eq!(
        flagged(r#"msg="GET /api/v1/profile?zip=94107 200 12ms" name=Ana Ruiz"#),
        want(&[("94107", "ADDRESS"), ("Ana Ruiz", "PERSON")])
    );
}

#[test]
fn an_unquoted_value_ends_at_cjk_punctuation_spaces_and_emoji_but_keeps_letters() {
    assert_eq!(
        pairs("pin=0。then pwd=hunter2，ok token=abc\u{3000}x a=b😀 c=d\u{2014}e"),
        [
            ("pin", "0"),
            ("pwd", "hunter2"),
            ("token", "abc"),
            ("a", "b"),
            ("c", "d")
        ]
    );
    assert_eq!(
        pairs("name=José user=王小明 x=a-b"),
        [("name", "José"), ("user", "王小明"), ("x", "a-b")]
    );
    assert_eq!(
        flagged("https://aa.com?pin=0。"),
        want(&[("https://aa.com?pin=0", "URL")])
    );
}

#[test]
fn a_url_query_value_ends_before_the_sentence_punctuation_after_the_url() {
    assert_eq!(
        pairs("see https://aa.com?tel=5550199! or ?q=a.b. then x=y."),
        [("tel", "5550199"), ("q", "a.b"), ("x", "y.")]
    );
    assert_eq!(
        flagged("https://aa.com?tel=a! "),
        want(&[("https://aa.com?tel=a", "URL")])
    );
}

#[test]
fn an_ampersand_ends_a_value_only_before_the_next_key() {
    assert_eq!(
        flagged("spring.datasource.password=Tr0ub4dor&3 level=info"),
        want(&[("Tr0ub4dor&3", "PASSWORD")])
    );
    assert_eq!(
        flagged("GET /login?zip=94107&name=Ana HTTP/1.1"),
        want(&[("94107", "ADDRESS"), ("Ana", "PERSON")])
    );
}

#[test]
fn a_value_cut_off_inside_its_bracket_is_left_to_the_other_tiers() {
    assert_eq!(
        flagged("ERROR django.request: user=<User: tom.hanks@example.com> ip=10.1.2.3"),
        want(&[
            ("tom.hanks@example.com", "EMAIL_ADDRESS"),
            ("10.1.2.3", "IP_ADDRESS")
        ])
    );
}

#[test]
fn a_value_that_names_a_personal_field_is_no_data() {
    assert_eq!(
        flagged(r#"<input type="text" name="fullname" value="x"> name="Sven Olsen""#),
        want(&[("Sven Olsen", "PERSON")])
    );
}

#[test]
fn a_model_email_without_an_at_sign_inside_machinery_is_dropped() {
    let text = "request_id=55abc8844ea1619dec82df1abb0ecbe1 contact=ana@example.com";
    let candidate = |s: &str| {
        let start = text.find(s).expect("in text");
        Candidate {
            span: ByteSpan::new(start, start + s.len()),
            label: Label::builtin("EMAIL_ADDRESS"),
            score: 0.9,
            proof: Proof::None,
            trace: crate::engine::Trace::default(),
        }
    };
    let mut found = vec![
        candidate("55abc8844ea1619dec82df1abb0ecbe1"),
        candidate("ana@example.com"),
    ];
    apply(text, &LabelSet::defaults(), &mut found);
    let kept: Vec<&str> = found
        .iter()
        .map(|c| &text[c.span.start..c.span.end])
        .collect();
    assert_eq!(kept, ["ana@example.com"]);
}

#[test]
fn on_exactly_a_values_span_the_key_names_the_label() {
    let text = r#"{"remote_addr": "198.51.100.48", "user": "jane.doe@example.com"}"#;
    let at = |s: &str| text.find(s).expect("in text");
    let mut found = vec![Candidate {
        span: ByteSpan::new(at("198"), at("198") + "198.51.100.48".len()),
        label: Label::builtin("PHONE_NUMBER"),
        score: 0.99,
        proof: Proof::None,
        trace: crate::engine::Trace::default(),
    }];
    apply(text, &LabelSet::defaults(), &mut found);
    let labels: Vec<&str> = found.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["IP_ADDRESS", "PERSON"]);
    assert_eq!(
        flagged(text),
        want(&[
            ("198.51.100.48", "IP_ADDRESS"),
            ("jane.doe@example.com", "EMAIL_ADDRESS"),
        ])
    );
}

/// Found on the payload dev set: an unquoted logfmt value ends at its first space, so
/// `mobile=(415)` is all the key holds; the proven phone number around it is the value.
#[test]
fn a_proven_span_holding_a_clipped_value_is_that_value_whole() {
    assert_eq!(
        flagged("span_id=2f89e74ba0593474 city=Krakow mobile=(415) 555-0467 - retry"),
        want(&[("Krakow", "LOCATION"), ("(415) 555-0467", "PHONE_NUMBER")])
    );
    // not when the proven span runs on into machinery: a TSV row's status column
    assert_eq!(
        flagged("timestamp\tlevel\tphone_number\tstatus\n2026-11-15T10:36:33Z\tinfo\t+91 98765 34064\t409\n"),
        want(&[("+91 98765 34064", "PHONE_NUMBER")])
    );
}

#[test]
fn a_url_whose_query_holds_machinery_is_still_a_url_but_a_guess_touching_a_timestamp_is_not() {
    assert_eq!(
        flagged("open https://aa.com?t=0 now"),
        want(&[("https://aa.com?t=0", "URL")])
    );
    assert_eq!(flagged("ts=2024-03-14T09:30:00Z level=info"), want(&[]));
}

/// Found by the exact-span property test: `cc=0` in a URL's query is a flag, not a card.
#[test]
fn a_card_key_names_a_card_only_when_its_value_has_a_card_number_s_digits() {
    let engine = Engine::builtin().expect("engine builds");
    let all = |text: &str| -> Vec<(String, &'static str)> {
        let found = engine.detect(text, &LabelSet::all(), 0.5).expect("rules");
        found
            .into_iter()
            .map(|d| (text[d.span.start..d.span.end].to_owned(), d.label.as_str()))
            .collect()
    };
    assert_eq!(
        all("https://aa.com?cc=0 "),
        want(&[("https://aa.com?cc=0", "URL")])
    );
    assert_eq!(all("cc=0 ok"), want(&[]));
    assert_eq!(
        all("cc=4111 1111 1111 1111 ok"),
        want(&[("4111 1111 1111 1111", "CREDIT_CARD")])
    );
}

/// Found by the exact-span property test (`https://a0.com?ip=0`): a URL holds the
/// personal values of its query whole, and an `ip` key names an address only when its
/// value has an address's dots or colons.
#[test]
fn a_url_holds_the_personal_values_of_its_query_and_an_ip_key_needs_an_address() {
    assert_eq!(
        flagged("open https://a0.com?ip=0 now"),
        want(&[("https://a0.com?ip=0", "URL")])
    );
    assert_eq!(
        flagged("open https://shop.example/c?name=ana&ip=10.1.2.3 now"),
        want(&[("https://shop.example/c?name=ana&ip=10.1.2.3", "URL")])
    );
    assert_eq!(flagged("ip=0 status=200"), want(&[]));
    assert_eq!(
        flagged("client_ip=2001:db8::1 status=200"),
        want(&[("2001:db8::1", "IP_ADDRESS")])
    );
}

#[test]
fn a_python_dict_in_a_log_line_is_read_like_json_but_apostrophes_in_prose_are_not_keys() {
    let line = r#"ERROR in the user's app: payload={'name': 'Lars Eriksson', 'user': "o'brien_k", 'age': 42, 'ok': True, 'request_id': 'a1b2c3'}"#;
    assert_eq!(
        pairs(line),
        vec![
            ("name", "Lars Eriksson"),
            ("user", "o'brien_k"),
            ("age", "42"),
            ("request_id", "a1b2c3"),
            ("payload", "{'name':"),
        ]
    );
    assert_eq!(
        flagged(line),
        want(&[
            ("Lars Eriksson", "PERSON"),
            ("o'brien_k", "PERSON"),
            ("42", "AGE"),
        ])
    );
    assert_eq!(pairs("it's 'dog': he said"), vec![("dog", "he")]);
}
