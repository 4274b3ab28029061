use super::*;

fn keys() -> TenantKeys {
    TenantKeys::derive(&MasterSecret::new(b"k".repeat(32)), "t")
}

fn person() -> Label {
    Label::builtin("PERSON")
}

#[test]
fn methods_parse_case_insensitively_and_round_trip_their_names() {
    for m in Method::ALL {
        assert_eq!(Method::parse(&m.as_str().to_lowercase()), Some(*m));
    }
    assert_eq!(Method::parse("nope"), None);
}

#[test]
fn redact_numbers_per_label_and_skips_literals_of_the_input() {
    let keys = keys();
    let inputs = vec!["see [PERSON_1]".to_owned()];
    let r = Replacer::new(ops(Method::Redact), &keys, &inputs);
    let mut m = Memory::default();
    r.prepare(&mut m);
    assert_eq!(r.replace(&mut m, person(), "Ann").unwrap(), "[PERSON_2]");
    assert_eq!(r.replace(&mut m, person(), "Bob").unwrap(), "[PERSON_3]");
    assert_eq!(r.replace(&mut m, person(), "Ann").unwrap(), "[PERSON_2]");
    let email = Label::builtin("EMAIL_ADDRESS");
    assert_eq!(
        r.replace(&mut m, email, "a@b.c").unwrap(),
        "[EMAIL_ADDRESS_1]"
    );
}

#[test]
fn the_same_text_under_two_labels_gets_two_placeholders() {
    let keys = keys();
    let r = Replacer::new(ops(Method::Redact), &keys, &[]);
    let mut m = Memory::default();
    let a = r.replace(&mut m, person(), "Paris").unwrap();
    let b = r
        .replace(&mut m, Label::builtin("LOCATION"), "Paris")
        .unwrap();
    assert_ne!(a, b);
}

#[test]
fn mask_and_encrypt_are_not_remembered() {
    let keys = keys();
    let mut m = Memory::default();
    for method in [Method::Mask, Method::Encrypt] {
        Replacer::new(ops(method), &keys, &[])
            .replace(&mut m, person(), "Ann")
            .unwrap();
    }
    assert!(m.is_empty());
}

#[test]
fn hash_is_stable_and_remembered_for_sessions() {
    let keys = keys();
    let r = Replacer::new(ops(Method::Hash), &keys, &[]);
    let mut m = Memory::default();
    let t = r.replace(&mut m, person(), "Ann").unwrap();
    assert_eq!(t, hash::token(&keys, person(), "Ann"));
    assert_eq!(m.entries().collect::<Vec<_>>(), [("Ann", t.as_str())]);
}

#[test]
fn pseudonyms_are_unique_never_in_the_input_and_stable() {
    let keys = keys();
    let inputs: Vec<String> = fake::data::GIVEN_NAMES[..40]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let r = Replacer::new(ops(Method::Pseudonymize), &keys, &inputs);
    let mut m = Memory::seeded(usize::MAX, 1);
    let mut seen = std::collections::HashSet::new();
    for i in 0..30 {
        let original = format!("Person{i}");
        let fake = r.replace(&mut m, person(), &original).unwrap();
        assert!(!inputs.iter().any(|t| t.contains(&fake)), "{fake}");
        assert!(seen.insert(fake.clone()), "duplicate {fake}");
        assert_eq!(r.replace(&mut m, person(), &original).unwrap(), fake);
    }
}

#[test]
fn a_full_memory_refuses_new_entries_but_serves_known_ones() {
    let keys = keys();
    let r = Replacer::new(ops(Method::Redact), &keys, &[]);
    let mut m = Memory::new(1);
    assert_eq!(r.replace(&mut m, person(), "Ann").unwrap(), "[PERSON_1]");
    assert_eq!(r.replace(&mut m, person(), "Bob"), Err(MemoryFull));
    assert_eq!(r.replace(&mut m, person(), "Ann").unwrap(), "[PERSON_1]");
}

#[test]
fn memory_debug_never_shows_entity_text() {
    let keys = keys();
    let mut m = Memory::default();
    Replacer::new(ops(Method::Redact), &keys, &[])
        .replace(&mut m, person(), "Secret Name")
        .unwrap();
    assert!(!format!("{m:?}").contains("Secret"));
}

#[test]
fn a_memory_survives_its_bytes_with_numbering_literals_pseudonyms_and_date_shift() {
    let keys = keys();
    let inputs = vec!["see [PERSON_1]".to_owned()];
    let mut m = Memory::seeded(5, 7);
    let r = Replacer::new(ops(Method::Redact), &keys, &inputs);
    r.prepare(&mut m);
    assert_eq!(r.replace(&mut m, person(), "Ann").unwrap(), "[PERSON_2]");
    let fake = Replacer::new(ops(Method::Pseudonymize), &keys, &[])
        .replace(&mut m, person(), "Bob Stone")
        .unwrap();
    let mut back = Memory::from_bytes(&m.to_bytes(), 5).expect("reads its own bytes");
    let mut want: Vec<(&str, &str)> = m.entries().collect();
    let mut got: Vec<(&str, &str)> = back.entries().collect();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(back.date_offset_days(), m.date_offset_days());
    assert_eq!((back.len(), back.byte_size()), (m.len(), m.byte_size()));
    // The numbering continues, the literal stays reserved, the pseudonym is kept.
    let r = Replacer::new(ops(Method::Redact), &keys, &[]);
    assert_eq!(r.replace(&mut back, person(), "Cid").unwrap(), "[PERSON_3]");
    assert_eq!(r.replace(&mut back, person(), "Ann").unwrap(), "[PERSON_2]");
    let p = Replacer::new(ops(Method::Pseudonymize), &keys, &[]);
    assert_eq!(p.replace(&mut back, person(), "Bob Stone").unwrap(), fake);
    assert!(Memory::from_bytes(b"not a memory", 5).is_none());
    assert!(Memory::from_bytes(br#"{"v":9}"#, 5).is_none());
}

#[test]
fn the_revision_moves_exactly_when_what_a_memory_keeps_may_have_changed() {
    let keys = keys();
    let inputs = vec!["see [PERSON_1]".to_owned()];
    let mut m = Memory::seeded(5, 7);
    let r = Replacer::new(ops(Method::Redact), &keys, &inputs);
    let start = m.revision();
    r.prepare(&mut m);
    let reserved = m.revision();
    assert_ne!(reserved, start, "a literal reserved");
    r.prepare(&mut m);
    assert_eq!(m.revision(), reserved, "the same literal again");
    r.replace(&mut m, person(), "Ann").unwrap();
    let numbered = m.revision();
    assert_ne!(numbered, reserved, "a placeholder handed out");
    r.replace(&mut m, person(), "Ann").unwrap();
    assert_eq!(m.revision(), numbered, "a known value changes nothing");
    assert_eq!(
        Replacer::new(ops(Method::Redact), &keys, &[]).replace(
            &mut Memory::seeded(0, 7),
            person(),
            "Bob"
        ),
        Err(MemoryFull)
    );
}

/// The documentation ranges hold 762 IPv4 addresses, fewer once fakes that contain one
/// another are ruled out: past them, typed addresses come from 240.0.0.0/4 and are
/// still addresses, all different.
#[test]
fn typed_addresses_stay_distinct_addresses_past_the_documentation_ranges() {
    let keys = keys();
    let ip = Label::builtin("IP_ADDRESS");
    let r = Replacer::new(ops(Method::Redact), &keys, &[]);
    let mut m = Memory::seeded(usize::MAX, 7);
    let mut seen = std::collections::HashSet::new();
    let mut reserved = 0;
    for i in 0..2000u32 {
        let original = format!("10.{}.{}.{}", i >> 16, (i >> 8) & 255, i & 255);
        let fake = r.replace_ip(&mut m, ip, &original).unwrap().unwrap();
        let addr: std::net::Ipv4Addr = fake.parse().unwrap();
        reserved += usize::from(addr.octets()[0] >= 240);
        assert!(seen.insert(fake), "{original}");
    }
    assert!(reserved > 1000, "{reserved}");
    assert_eq!(
        r.replace_ip(&mut m, ip, "10.0.0.5").unwrap(),
        r.replace_ip(&mut m, ip, "10.0.0.5").unwrap()
    );
    let six = r.replace_ip(&mut m, ip, "2a02:c7f::1").unwrap().unwrap();
    assert!(six.parse::<std::net::Ipv6Addr>().is_ok(), "{six}");
}

/// One method for every label, for as long as a test runs.
fn ops(method: Method) -> &'static Operators {
    Box::leak(Box::new(Operators::uniform(method)))
}
