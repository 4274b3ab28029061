//! Texts in other languages, as the default configuration serves them: each text's
//! language detected (or declared) and reported, and the multilingual model reading the
//! texts of its twelve languages while ours reads English.

use serde_json::{json, Value};

use crate::support::{TestServer, KEY};

/// The service on `conf/anonymizer.yaml`, both models loaded, with the test key.
fn as_shipped() -> TestServer {
    let yaml = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conf/anonymizer.yaml"),
    )
    .expect("conf/anonymizer.yaml");
    TestServer::start_with_env(&yaml, &[("ANONYMIZER_API_KEYS", &format!("test:{KEY}"))])
}

fn anonymize(s: &TestServer, body: Value) -> Value {
    let r = s.post("/v1/anonymize", &body);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

#[test]
fn each_text_reports_the_language_it_was_read_as() {
    let s = as_shipped();
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
