//! No input makes the API panic: arbitrary bytes and arbitrary JSON-ish bodies always
//! come back as a response or one of our errors. Runs the real handlers in process.

use std::sync::Arc;

use proptest::prelude::*;

use anonymizer::anonymizer::{Anonymizer, Defaults};
use anonymizer::api::{Api, Caller, Limits};
use anonymizer::engine::Engine;
use anonymizer::methods::Method;
use anonymizer::text::LabelSet;

fn api() -> &'static Api {
    static API: std::sync::OnceLock<Api> = std::sync::OnceLock::new();
    API.get_or_init(build_api)
}

fn build_api() -> Api {
    let engine = Arc::new(Engine::builtin().expect("engine"));
    let anonymizer = Anonymizer::new(
        engine,
        Defaults {
            labels: LabelSet::defaults(),
            threshold: 0.5,
            method: Method::Redact,
        },
    );
    Api::new(Arc::new(anonymizer), Limits::default())
}

fn caller() -> Caller {
    Caller {
        tenant: "t".into(),
        session_id: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..512)) {
        let api = api();
        for result in [api.anonymize(&caller(), &body), api.deanonymize(&caller(), &body)] {
            if let Err(e) = result {
                prop_assert!(matches!(e.status(), 400 | 422));
            }
        }
    }

    #[test]
    fn arbitrary_texts_anonymize_and_round_trip(texts in proptest::collection::vec(".{0,80}", 0..6)) {
        let api = api();
        let body = serde_json::json!({"text": texts}).to_string();
        let out: serde_json::Value =
            serde_json::from_slice(&api.anonymize(&caller(), body.as_bytes()).expect("ok").body).unwrap();
        let entities = out["detected_entities"].as_array().unwrap();
        for e in entities {
            let i = e["text_index"].as_u64().unwrap() as usize;
            let chars: Vec<char> = texts[i].chars().collect();
            let (start, end) = (e["span"]["start"].as_u64().unwrap() as usize, e["span"]["end"].as_u64().unwrap() as usize);
            prop_assert_eq!(chars[start..end].iter().collect::<String>(), e["text"].as_str().unwrap());
        }
        let map: Vec<serde_json::Value> = entities.iter().map(|e| serde_json::json!({
            "text": e["text"], "anonymized_text": e["anonymized_text"]})).collect();
        let body = serde_json::json!({"anonymized_text": out["anonymized_text"], "entities_map": map}).to_string();
        let back: serde_json::Value =
            serde_json::from_slice(&api.deanonymize(&caller(), body.as_bytes()).expect("ok").body).unwrap();
        prop_assert_eq!(back["deanonymized_text"].clone(), serde_json::json!(texts));
    }
}
