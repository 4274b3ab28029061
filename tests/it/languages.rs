//! Texts in other languages, as the default configuration serves them: each text's
//! language detected (or declared) and reported, and the multilingual model reading the
//! texts of its twelve languages while ours reads English.

use serde_json::{json, Value};

use crate::support::TestServer;

fn anonymize(s: &TestServer, body: Value) -> Value {
    let r = s.post("/v1/anonymize", &body);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

#[test]
fn each_text_reports_the_language_it_was_read_as() {
    let s = TestServer::with_model();
    let v = anonymize(
        &s,
        json!({"text": [
            "Sehr geehrte Damen und Herren, leider konnte ich den Termin am Montag nicht wahrnehmen und bitte um einen neuen.",
            "请在周五之前把合同寄到我们的办公室，谢谢。",
            "会議の資料は金曜日までに共有してください。",
            "회의 자료는 금요일까지 공유해 주세요.",
            "Please send the signed contract to our office before Friday, thank you very much.",
            "ok",
            ""
        ]}),
    );
    assert_eq!(
        v["languages"],
        json!(["de", "zh", "ja", "ko", "en", null, null])
    );
    // A declared language holds for every text, whatever they look like.
    let v = anonymize(
        &s,
        json!({"text": ["ok", "Please send it."], "detection_config": {"language": "pt-BR"}}),
    );
    assert_eq!(v["languages"], json!(["pt", "pt"]));
    // No model reads pattern labels: their requests are not worth the detection.
    let v = anonymize(
        &s,
        json!({"text": ["Sehr geehrte Damen und Herren, leider konnte ich den Termin am Montag nicht wahrnehmen."],
               "detection_config": {"entities": ["EMAIL_ADDRESS"]}}),
    );
    assert_eq!(v["languages"], json!([null]));
}

#[test]
fn a_language_that_is_no_iso_code_is_refused_with_its_field() {
    let s = TestServer::default();
    for bad in [json!("german"), json!(""), json!(7)] {
        let r = s.post(
            "/v1/anonymize",
            &json!({"text": ["x"], "detection_config": {"language": bad}}),
        );
        assert_eq!(
            r.assert_error(422, "validation_failed")[0]["field"],
            "detection_config.language",
            "{}",
            r.text
        );
        assert!(
            !r.text.contains("german"),
            "the input is not echoed: {}",
            r.text
        );
    }
}

/// Names, places and organisations by the multilingual model; mobile numbers in their
/// national grouping, dates with their times and numbers after their cues by patterns
/// of their own script: Korean and Japanese text has no spaces for word boundaries.
#[test]
fn korean_and_japanese_texts_lose_names_numbers_and_dates() {
    let s = TestServer::with_model();
    let v = anonymize(
        &s,
        json!({"text": [
            "김민수 고객님, 2025년 3월 12일 오후 2시 30분 예약이 확인되었습니다. 고객번호 M00728154, 문의는 010-7731-0452로 연락 주세요.",
            "佐藤さんの携帯は090-6612-3380、お客様番号：K-0038821です。"
        ]}),
    );
    assert_eq!(
        v["anonymized_text"],
        json!([
            "[PERSON_1] 고객님, [DATE_TIME_1] 예약이 확인되었습니다. 고객번호 [ACCOUNT_NUMBER_1], 문의는 [PHONE_NUMBER_1]로 연락 주세요.",
            "[PERSON_2]さんの携帯は[PHONE_NUMBER_2]、お客様番号：[ACCOUNT_NUMBER_2]です。"
        ])
    );
    assert_eq!(v["languages"], json!(["ko", "ja"]));
    let texts: Vec<&str> = v["detected_entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "김민수",
            "2025년 3월 12일 오후 2시 30분",
            "M00728154",
            "010-7731-0452",
            "佐藤",
            "090-6612-3380",
            "K-0038821"
        ]
    );
}
