//! Contact details and network identifiers.

use crate::engine::validators::ip;
use crate::engine::PatternSpec;

/// RFC 5322 "dot-atom" addresses, the form people actually write.
pub(super) const EMAIL: PatternSpec = PatternSpec {
    name: "email",
    label: "EMAIL_ADDRESS",
    // Unicode letters are allowed in both parts (RFC 6531 internationalised addresses).
    regex: r"(?i)\b[\p{L}\p{N}][\p{L}\p{N}._%+\-]*@[\p{L}\p{N}](?:[\p{L}\p{N}\-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}\-]*[\p{L}\p{N}])?)*\.\p{L}{2,24}\b",
    group: 0,
    score: 0.95,
    validate: None,
    context: &[],
    examples: &[(
        "write to jane.doe+x@mail.example.org today",
        "jane.doe+x@mail.example.org",
    )],
    counter_examples: &["an @ sign alone", "user@localhost"],
};

/// http(s) and www. URLs up to the first space or closing bracket/quote.
pub(super) const URL: PatternSpec = PatternSpec {
    name: "url",
    label: "URL",
    regex: r#"(?i)\b(?:https?://|www\.)[^\s<>"'\]\)]+[^\s<>"'\]\).,;:!?]"#,
    group: 0,
    score: 0.85,
    validate: None,
    context: &[],
    examples: &[(
        "see https://example.com/a?b=1. ok",
        "https://example.com/a?b=1",
    )],
    counter_examples: &["http is a protocol"],
};

pub(super) const IPV4: PatternSpec = PatternSpec {
    name: "ipv4",
    label: "IP_ADDRESS",
    regex: r"\b(?:\d{1,3}\.){3}\d{1,3}\b",
    group: 0,
    score: 0.8,
    validate: Some(ip::ipv4),
    context: &["ip", "address", "host", "client", "server"],
    examples: &[("from 192.168.10.254 at noon", "192.168.10.254")],
    counter_examples: &["version 999.1.2.3 released"],
};

/// Full and `::`-compressed IPv6; the validator rejects what the loose regex over-matches.
pub(super) const IPV6: PatternSpec = PatternSpec {
    name: "ipv6",
    label: "IP_ADDRESS",
    regex: r"(?i)(?:\b[0-9a-f]{1,4}|:)(?::[0-9a-f]{0,4}){1,7}(?:\b|:)",
    group: 0,
    score: 0.8,
    validate: Some(ip::ipv6),
    context: &["ip", "address", "host"],
    examples: &[
        ("host 2001:db8::8a2e:370:7334 up", "2001:db8::8a2e:370:7334"),
        ("loopback ::1 only", "::1"),
    ],
    counter_examples: &["at 12:30:45 we met"],
};

/// International (+CC) and common national layouts; digits 7–15 (E.164 bounds).
pub(super) const PHONE: PatternSpec = PatternSpec {
    name: "phone",
    label: "PHONE_NUMBER",
    regex: r"(?:\+\d{1,3}[\s.\-]?)?(?:\(\d{1,5}\)[\s.\-]?)?\b\d{2,5}[\s.\-]\d{2,5}(?:[\s.\-]\d{2,5}){0,3}\b",
    group: 0,
    score: 0.45,
    validate: Some(phone_digits),
    context: &[
        "phone", "call", "tel", "mobile", "cell", "fax", "contact", "reach", "whatsapp", "number",
    ],
    examples: &[
        ("call me at +1 415-555-0132 tomorrow", "+1 415-555-0132"),
        ("Phone: (020) 7946 0958", "(020) 7946 0958"),
    ],
    counter_examples: &["the score was 3-2", "in 2021 and 2022"],
};

fn phone_digits(s: &str) -> bool {
    let n = s.bytes().filter(u8::is_ascii_digit).count();
    (7..=15).contains(&n)
}
