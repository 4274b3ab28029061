use serde_json::json;

use super::*;
use crate::methods::MaskOptions;
use crate::validate::Problems;

fn parse(value: serde_json::Value) -> (Spec, Vec<String>) {
    let serde_json::Value::Object(fields) = value else {
        panic!("an object")
    };
    let mut spec = Spec::default();
    let mut p = Problems::default();
    parse_fields(
        &fields,
        "policy",
        Fields::Both,
        &LabelSet::all(),
        &[],
        &mut spec,
        &mut p,
    );
    let problems =
        p.0.iter()
            .map(|d| format!("{}: {}", d.field, d.reason))
            .collect();
    (spec, problems)
}

fn label(name: &str) -> Label {
    Label::builtin(name)
}

#[test]
fn every_field_parses_into_the_spec() {
    let (spec, problems) = parse(json!({
        "entities": ["email", "PHONE_NUMBER", "TICKET_REF"],
        "thresholds": {"PHONE_NUMBER": 0.7},
        "deidentification_method": "hash",
        "operators": {"DEFAULT": {"type": "REDACT"}, "CARD": {"type": "mask", "masking_char": "#", "chars_to_mask": 12, "from_end": false}},
        "action": "monitor",
        "actions": {"US_SSN": "block"},
        "allow_list": ["a@example.org"],
        "allow_list_match": "regex",
        "ad_hoc_recognizers": [{"name": "tickets", "supported_entity": "TICKET_REF",
            "patterns": [{"regex": "T-\\d+", "score": 0.8}], "context": ["Ticket"]}],
        "context": ["Customer"],
        "return_decision_process": true,
    }));
    assert_eq!(problems, Vec::<String>::new());
    let ticket = Label::known("TICKET_REF").expect("declared");
    assert_eq!(
        spec.entities,
        Some(LabelSet::new(vec![
            label("EMAIL_ADDRESS"),
            label("PHONE_NUMBER"),
            ticket
        ]))
    );
    assert_eq!(spec.thresholds, [(label("PHONE_NUMBER"), 0.7)]);
    assert_eq!(spec.method, Some(Method::Hash));
    assert_eq!(spec.default_operator, Some(Operator::new(Method::Redact)));
    assert_eq!(
        spec.operators,
        [(
            label("CREDIT_CARD"),
            Operator {
                method: Method::Mask,
                mask: MaskOptions {
                    masking_char: '#',
                    chars_to_mask: Some(12),
                    from_end: false
                }
            }
        )]
    );
    assert_eq!(
        (spec.action, &spec.actions),
        (
            Some(Action::Monitor),
            &vec![(label("US_SSN"), Action::Block)]
        )
    );
    assert_eq!(spec.allow_list_match, AllowMatch::Regex);
    assert_eq!(
        spec.recognizers[0].patterns,
        [("tickets".to_owned(), "T-\\d+".to_owned(), 0.8)]
    );
    assert_eq!(spec.recognizers[0].context, ["ticket"]);
    assert_eq!(spec.context, ["customer"]);
    assert!(spec.explain);
}

#[test]
fn problems_name_their_field_and_never_the_input() {
    let (_, problems) = parse(json!({
        "thresholds": {"PHONE_NUMBER": 2, "secret value!": 0.5},
        "operators": {"EMAIL_ADDRESS": {"type": "HASH", "masking_char": "#"}, "PERSON": {"type": "MASK", "masking_char": "##"}},
        "actions": {"PERSON": "drop"},
        "entities": ["UNDECLARED_LABEL"],
        "ad_hoc_recognizers": [{"name": "x", "supported_entity": "X"}],
    }));
    assert_eq!(
        problems,
        [
            "policy.ad_hoc_recognizers[0]: needs patterns or a deny_list",
            &format!(
                "policy.entities[0]: unknown or unsupported label, and no recognizer of this call declares it; supported: {}",
                LabelSet::all().iter().map(|l| l.as_str()).collect::<Vec<_>>().join(", ")
            ),
            "policy.thresholds.PHONE_NUMBER: must be between 0 and 1",
            "policy.thresholds.<unnamed>: unknown or unsupported label",
            "policy.operators.EMAIL_ADDRESS: only MASK takes masking_char, chars_to_mask and from_end",
            "policy.operators.PERSON.masking_char: must be one character",
            "policy.actions.PERSON: must be one of anonymize, block, monitor",
        ]
    );
}

#[test]
fn a_request_refines_its_tenant_within_what_the_tenant_allows() {
    let tenant = Spec {
        threshold: Some(0.6),
        entities: Some(LabelSet::new(vec![label("PERSON"), label("US_SSN")])),
        actions: vec![(label("US_SSN"), Action::Block)],
        allow_list: vec!["Acme".into()],
        ..Spec::default()
    };
    let request = Spec {
        threshold: Some(0.8),
        actions: vec![(label("PERSON"), Action::Monitor)],
        allow_list: vec!["Bob".into()],
        ..Spec::default()
    };
    let merged = tenant
        .over(&request, RequestMay::default(), 0.5)
        .expect("allowed");
    assert_eq!(merged.threshold, Some(0.8));
    assert_eq!(
        merged.actions,
        [
            (label("US_SSN"), Action::Block),
            (label("PERSON"), Action::Monitor)
        ]
    );
    assert_eq!(merged.allow_list, ["Acme", "Bob"]);
    let strict = RequestMay {
        lower_threshold: false,
        drop_entities: false,
        change_actions: false,
        change_operators: false,
        allow: false,
    };
    let lowering = Spec {
        threshold: Some(0.4),
        entities: Some(LabelSet::new(vec![label("PERSON")])),
        method: Some(Method::Mask),
        ..request
    };
    let forbidden: Vec<&str> = tenant
        .over(&lowering, strict, 0.5)
        .expect_err("forbidden")
        .iter()
        .map(|f| f.field)
        .collect();
    assert_eq!(
        forbidden,
        [
            "anonymization_config.threshold",
            "detection_config.entities",
            "anonymization_config.operators",
            "anonymization_config.action",
            "detection_config.allow_list"
        ]
    );
    // Without a threshold of its own, the tenant's is the service's.
    let below_default = Spec {
        threshold: Some(0.3),
        ..Spec::default()
    };
    assert!(Spec::default().over(&below_default, strict, 0.5).is_err());
    assert!(Spec::default().over(&below_default, strict, 0.2).is_ok());
}

#[test]
fn recognizers_compile_once_per_declaration_and_within_limits() {
    let (spec, _) = parse(
        json!({"ad_hoc_recognizers": [{"name": "zip", "supported_entity": "ZIP_CODE",
        "patterns": [{"regex": "\\b\\d{5}\\b"}]}]}),
    );
    let a = spec.options(&Limits::default()).expect("compiles");
    let b = spec.options(&Limits::default()).expect("compiles");
    let (a, b) = (a.extra.expect("extra"), b.extra.expect("extra"));
    assert!(std::sync::Arc::ptr_eq(&a.recognizers[0], &b.recognizers[0]));
    let tight = Limits {
        max_patterns: 0,
        ..Limits::default()
    };
    assert_eq!(
        spec.options(&tight).err().map(|e| e.field),
        Some("detection_config.ad_hoc_recognizers".to_owned())
    );
    // Nothing to add: no per-call engine work at all.
    assert!(Spec::default()
        .options(&Limits::default())
        .expect("ok")
        .extra
        .is_none());
}

#[test]
fn allow_lists_of_two_matching_modes_merge_into_expressions() {
    let tenant = Spec {
        allow_list: vec![" Acme Support ".into()],
        ..Spec::default()
    };
    let request = Spec {
        allow_list: vec![r"[a-z]+@example\.org".into()],
        allow_list_match: AllowMatch::Regex,
        ..Spec::default()
    };
    let merged = tenant
        .over(&request, RequestMay::default(), 0.5)
        .expect("allowed");
    assert_eq!(merged.allow_list_match, AllowMatch::Regex);
    let allow =
        crate::engine::Allow::new(&merged.allow_list, merged.allow_list_match).expect("builds");
    assert!(allow.allows("acme support") && allow.allows("bob@example.org"));
    assert!(!allow.allows("Acme Support team") && !allow.allows("acme"));
}
