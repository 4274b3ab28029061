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

#[test]
fn java_headers_url_queries_and_service_accounts_are_machinery_and_users_are_not() {
    // With the model: it read Logback's abbreviated package letters as a person's
    // initials.
    let s = TestServer::with_model();
    let lines = [
        "2024-03-14 09:30:00.123  WARN 12345 --- [nio-8080-exec-3] c.e.demo.UserController : Password reset for kate",
        "WARN 2024-03-14 09:30:00,123 [http-nio-8080-exec-3] c.e.s.UserController - Reset requested",
        r#"time="2024-03-14T09:30:00Z" level=info msg="GET /api/v1/profile?zip=94107 200 12ms""#,
        "Mar 14 09:30:00 web01 sshd[2231]: Failed password for invalid user oracle from 198.51.100.23 port 52814 ssh2",
        "Mar 14 09:30:01 web01 sshd[2232]: Failed password for invalid user k_mensah from 198.51.100.23 port 52815 ssh2",
        "May 1 09:30:02 web01 sshd[2233]: Accepted publickey for deploy from 198.51.100.23 port 52816 ssh2",
    ];
    let r = s.post("/v1/anonymize", &json!({ "text": lines }));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["anonymized_text"],
        json!([
            "2024-03-14 09:30:00.123  WARN 12345 --- [nio-8080-exec-3] c.e.demo.UserController : Password reset for [PERSON_1]",
            "WARN 2024-03-14 09:30:00,123 [http-nio-8080-exec-3] c.e.s.UserController - Reset requested",
            r#"time="2024-03-14T09:30:00Z" level=info msg="GET /api/v1/profile?zip=[ADDRESS_1] 200 12ms""#,
            "Mar 14 09:30:00 web01 sshd[2231]: Failed password for invalid user oracle from [IP_ADDRESS_1] port 52814 ssh2",
            "Mar 14 09:30:01 web01 sshd[2232]: Failed password for invalid user [PERSON_2] from [IP_ADDRESS_1] port 52815 ssh2",
            "May 1 09:30:02 web01 sshd[2233]: Accepted publickey for deploy from [IP_ADDRESS_1] port 52816 ssh2",
        ])
    );
}

#[test]
fn sudo_and_su_lines_lose_the_invoking_user_and_home_directories_their_account() {
    // With the model, as users run it. sudo's `USER=root` is a system account and its
    // `PWD` a directory, not a password; the account inside the directory goes.
    let s = TestServer::with_model();
    let lines = [
        "Nov 26 10:03:00 web01 sudo:   mgarcia : TTY=pts/0 ; PWD=/home/mgarcia ; USER=root ; COMMAND=/bin/systemctl restart nginx",
        "Nov 26 10:05:00 web01 su[311]: pam_unix(su:session): session opened for user root by mgarcia(uid=1000)",
        "Traceback (most recent call last):\n  File \"/Users/annakowalski/dev/app.py\", line 3, in <module>",
        r#"{"level":"error","path":"C:\\Users\\k.tanaka\\AppData\\Local\\app.log"}"#,
        "open /home/ubuntu/app/config.yml: no such file or directory",
    ];
    let r = s.post("/v1/anonymize", &json!({ "text": lines }));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["anonymized_text"],
        json!([
            "Nov 26 10:03:00 web01 sudo:   [PERSON_1] : TTY=pts/0 ; PWD=/home/[PERSON_1] ; USER=root ; COMMAND=/bin/systemctl restart nginx",
            "Nov 26 10:05:00 web01 su[311]: pam_unix(su:session): session opened for user root by [PERSON_1](uid=1000)",
            "Traceback (most recent call last):\n  File \"/Users/[PERSON_2]/dev/app.py\", line 3, in <module>",
            r#"{"level":"error","path":"C:\\Users\\[PERSON_3]\\AppData\\Local\\app.log"}"#,
            "open /home/ubuntu/app/config.yml: no such file or directory",
        ])
    );
}

#[test]
fn a_personal_number_in_a_json_line_becomes_a_string_so_the_line_still_parses() {
    let s = TestServer::default();
    let line = r#"{"ts":"2024-03-14T09:30:00Z","user":{"customer_name":"Ana Ruiz","age":42,"lat": 48.8566,"lng":2.3522},"ssn":123456789,"duration_ms":1984}"#;
    let anonymize = |method: &str| {
        let body =
            json!({"text": [line], "anonymization_config": {"deidentification_method": method}});
        let r = s.post("/v1/anonymize", &body);
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    };
    let r = anonymize("REDACT");
    let out = r["anonymized_text"][0].as_str().unwrap();
    assert_eq!(
        out,
        r#"{"ts":"2024-03-14T09:30:00Z","user":{"customer_name":"[PERSON_1]","age":"[AGE_1]","lat": "[COORDINATES_1]","lng":"[COORDINATES_2]"},"ssn":"[US_SSN_1]","duration_ms":1984}"#
    );
    // The entity's own replacement is the placeholder; the quotes belong to the line.
    assert_eq!(
        r["detected_entities"][1]["anonymized_text"],
        json!("[AGE_1]")
    );
    let masked = anonymize("MASK");
    assert_eq!(
        masked["anonymized_text"][0],
        json!(
            r#"{"ts":"2024-03-14T09:30:00Z","user":{"customer_name":"********","age":"**","lat": "*******","lng":"******"},"ssn":"*********","duration_ms":1984}"#
        )
    );
    // A pseudonym of a number is a number, and stays bare.
    let fake = anonymize("PSEUDONYMIZE");
    let fake: serde_json::Value =
        serde_json::from_str(fake["anonymized_text"][0].as_str().unwrap()).unwrap();
    assert!(fake["user"]["age"].is_u64(), "{fake}");
    assert!(fake["ssn"].is_u64(), "{fake}");
    // Restored, each value comes back, as a string.
    let map: Vec<serde_json::Value> = r["detected_entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!({"text": e["text"], "anonymized_text": e["anonymized_text"]}))
        .collect();
    let back = s.post(
        "/v1/deanonymize",
        &json!({"anonymized_text": [out], "entities_map": map}),
    );
    assert_eq!(back.status, 200, "{}", back.text);
    assert_eq!(
        back.json()["deanonymized_text"][0],
        json!(
            r#"{"ts":"2024-03-14T09:30:00Z","user":{"customer_name":"Ana Ruiz","age":"42","lat": "48.8566","lng":"2.3522"},"ssn":"123456789","duration_ms":1984}"#
        )
    );
}

#[test]
fn user_agents_code_classes_encoded_queries_and_python_dicts_in_log_lines() {
    // With the model: it read "Mozilla" and "OrderController" as firms and stopped the
    // name at the query's "+".
    let s = TestServer::with_model();
    let lines = [
        r#"2024-05-02T10:15:22.481Z INFO  [order-service,5f2c1e9a7b3d4c10] OrderController: Order 88231 placed by customer_id=4471 email=maria.gonzalez@correo.es"#,
        r#"10.0.4.17 - frank [02/May/2024:10:15:26 +0000] "GET /api/users/search?q=Siobhan+O%27Reilly&dob=1988-11-05 HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Windows NT 10.0; Win64; x64)""#,
        r#"[2024-05-02 10:15:27,118] ERROR in app: Exception on /profile/update [POST] - payload={'name': 'Lars Eriksson', 'user': 'lars.e', 'address': 'Storgatan 12, 114 51 Stockholm'}"#,
    ];
    let r = s.post("/v1/anonymize", &json!({ "text": lines }));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["anonymized_text"],
        json!([
            r#"2024-05-02T10:15:22.481Z INFO  [order-service,5f2c1e9a7b3d4c10] OrderController: Order 88231 placed by customer_id=4471 email=[EMAIL_ADDRESS_1]"#,
            r#"[IP_ADDRESS_1] - [PERSON_1] [02/May/2024:10:15:26 +0000] "GET /api/users/search?q=[PERSON_2]&dob=[DATE_TIME_1] HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Windows NT 10.0; Win64; x64)""#,
            r#"[2024-05-02 10:15:27,118] ERROR in app: Exception on /profile/update [POST] - payload={'name': '[PERSON_3]', 'user': '[PERSON_4]', 'address': '[ADDRESS_1]'}"#,
        ])
    );
}
