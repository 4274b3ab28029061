use rand::SeedableRng;

use super::*;

fn rng() -> StdRng {
    StdRng::seed_from_u64(7)
}

fn fake(label: &str, original: &str) -> String {
    candidate(Label::builtin(label), original, &mut rng(), 40)
}

fn luhn_ok(s: &str) -> bool {
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| match i % 2 {
            1 if d * 2 > 9 => d * 2 - 9,
            1 => d * 2,
            _ => d,
        })
        .sum();
    sum % 10 == 0
}

fn mod97_ok(s: &str) -> bool {
    let c: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let rearranged = format!("{}{}", &c[4..], &c[..4]);
    let mut rem = 0u32;
    for ch in rearranged.chars() {
        let v = ch.to_digit(36).unwrap();
        rem = if v >= 10 {
            (rem * 100 + v) % 97
        } else {
            (rem * 10 + v) % 97
        };
    }
    rem == 1
}

fn layout(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect()
}

#[test]
fn names_keep_word_count_initials_and_case() {
    let two = fake("PERSON", "Alice Smith");
    assert_eq!(two.split(' ').count(), 2, "{two}");
    assert!(SURNAMES_CONTAIN(two.split(' ').nth(1).unwrap()));
    let caps = fake("PERSON", "ALICE SMITH");
    assert_eq!(caps, caps.to_uppercase());
    let initial = fake("PERSON", "J. Smith");
    assert!(
        initial.chars().nth(1) == Some('.') && initial.len() > 3,
        "{initial}"
    );
}

#[allow(non_snake_case)]
fn SURNAMES_CONTAIN(word: &str) -> bool {
    data::SURNAMES.contains(&word)
}

#[test]
fn emails_use_reserved_domains() {
    let e = fake("EMAIL_ADDRESS", "alice@corp.io");
    let domain = e.split('@').nth(1).unwrap();
    assert!(data::DOMAINS.contains(&domain), "{e}");
}

#[test]
fn cards_are_luhn_valid_with_the_same_layout_and_network() {
    for original in [
        "4111 1111 1111 1111",
        "5500-0000-0000-0004",
        "378282246310005",
    ] {
        for seed in 0..20 {
            let f = candidate(
                Label::builtin("CREDIT_CARD"),
                original,
                &mut StdRng::seed_from_u64(seed),
                1,
            );
            assert!(luhn_ok(&f), "{f}");
            assert_eq!(layout(&f), layout(original));
            assert_eq!(f[..2], original[..2]);
        }
    }
}

#[test]
fn ibans_keep_country_layout_and_a_valid_check() {
    for original in ["DE89 3704 0044 0532 0130 00", "GB29NWBK60161331926819"] {
        for seed in 0..20 {
            let f = candidate(
                Label::builtin("IBAN_CODE"),
                original,
                &mut StdRng::seed_from_u64(seed),
                1,
            );
            assert!(mod97_ok(&f), "{f}");
            assert_eq!(f[..2], original[..2]);
            assert_eq!(f.len(), original.len());
            assert_eq!(
                f.chars().map(|c| c == ' ').collect::<Vec<_>>(),
                original.chars().map(|c| c == ' ').collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn phones_use_fictional_ranges_and_keep_the_layout() {
    let us = fake("PHONE_NUMBER", "(415) 867-5309");
    assert_eq!(layout(&us), layout("(415) 867-5309"));
    assert_eq!(&us[6..12], "555-01", "{us}");
    let uk = fake("PHONE_NUMBER", "+44 20 7123 4567");
    assert_eq!(layout(&uk), layout("+44 20 7123 4567"));
    let digits: String = uk.chars().filter(char::is_ascii_digit).collect();
    assert!(
        data::UK_DRAMA_RANGES
            .iter()
            .any(|r| digits[2..].starts_with(&r[1..])),
        "{uk}"
    );
    let other = fake("PHONE_NUMBER", "+33 1 23 45 67 89");
    assert_eq!(layout(&other), layout("+33 1 23 45 67 89"));
    assert!(other.starts_with("+33"));
}

#[test]
fn dates_shift_and_unknown_labels_keep_their_shape() {
    assert_eq!(fake("DATE_TIME", "2024-01-01"), "2024-02-10");
    let ssn = fake("US_SSN", "123-45-6789");
    assert_eq!(layout(&ssn), "999-99-9999");
    let ip = fake("IP_ADDRESS", "10.1.2.3");
    assert!(
        ip.starts_with("192.0.2.") || ip.starts_with("198.51.100.") || ip.starts_with("203.0.113.")
    );
    let org = fake("ORGANIZATION", "Acme Widgets GmbH");
    assert!(org.ends_with(" GmbH"), "{org}");
    let url = fake("URL", "https://www.corp.io/a/b?x=1");
    assert!(url.starts_with("https://www.example."), "{url}");
}

#[test]
fn ages_stay_near_and_keep_their_words() {
    for seed in 0..20 {
        let f = candidate(
            Label::builtin("AGE"),
            "42 years old",
            &mut StdRng::seed_from_u64(seed),
            1,
        );
        let n: u32 = f.split(' ').next().unwrap().parse().unwrap();
        assert!((37..=47).contains(&n) && n != 42, "{f}");
        assert!(f.ends_with(" years old"));
    }
}
