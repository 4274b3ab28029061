//! Log payloads through `/v1/anonymize`: the log's machinery survives, personal values go.

use serde_json::json;

use crate::support::TestServer;

#[test]
fn a_json_log_line_keeps_its_timestamp_and_request_id_and_loses_the_name_and_email() {
    let s = TestServer::default();
    let line = r#"{"ts":"2024-03-14T09:30:00.123Z","level":"info","request_id":"4bf92f3577b34da6a3ce929d0e0e4736","event_id":"0f8fad5b-d9cb-469f-a165-70867728950e","customer_name":"Ana Ruiz","email":"ana.ruiz@example.com","duration_ms":1984,"msg":"payment refused"}"#;
    let r = s.post("/v1/anonymize", &json!({ "text": [line] }));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["anonymized_text"],
        json!([
            r#"{"ts":"2024-03-14T09:30:00.123Z","level":"info","request_id":"4bf92f3577b34da6a3ce929d0e0e4736","event_id":"0f8fad5b-d9cb-469f-a165-70867728950e","customer_name":"[PERSON_1]","email":"[EMAIL_ADDRESS_1]","duration_ms":1984,"msg":"payment refused"}"#
        ])
    );
}
