//! Named fields in serialized payloads (log lines and records: JSON, logfmt,
//! key=value, syslog, CSV, SQL inserts, Markdown tables).
//!
//! Behind a log route the engine sees whole records. Their keys say what a value is:
//! the value of `customer_name`, `email` or `dob` is personal whatever its shape, and
//! the value of `ts`, `request_id`, `duration_ms` or `level` is the log's machinery,
//! which must survive or the log loses its time axis and its joins. So, per text:
//!
//! 1. `parse` finds `(key, value)` pairs; `keys` says what each key's value is.
//! 2. Values under personal keys become candidates of the key's label
//!    ([`FIELD_SCORE`]), spanning the whole value (`"Ana \"Bo\" Ruiz"` as written).
//! 3. Values under machinery keys, the keys themselves, and machinery shapes
//!    (`shapes`: a log line's header, date-times to the second, UUIDs, hex ids) shield
//!    their text: candidates of any tier overlapping them are dropped, except e-mail
//!    addresses, secrets and checksum-valid cards and IBANs, which are personal
//!    anywhere (and UUIDs when the caller asked for the `UUID` label).
//!
//! Personal values win over shapes (a `dob` written `1984-07-02T00:00:00Z` is
//! flagged). Runs inside [`crate::engine::Engine::detect_many`] before overlap resolution;
//! knows nothing of HTTP or of which route a text came from.

mod keys;
mod parse;
mod shapes;

pub use keys::{role, KeyFamily, Role, ALL};

use super::patterns;
use crate::engine::lexicon::words::is_no_ones_account;
use crate::engine::validators::structure;
use crate::engine::{Candidate, Proof, Trace};
use crate::text::{ByteSpan, Label, LabelSet};

/// Confidence of a value found by its key: above the default threshold (0.5) and below
/// what a checksum or a strong pattern gives, so a validated card inside the value
/// still names the label. An unmeasured first choice.
pub const FIELD_SCORE: f32 = 0.8;

/// What the fields of one text say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scan {
    /// Values under personal keys, with the key's label.
    pub personal: Vec<(ByteSpan, Label)>,
    /// Sorted, merged spans nothing may be flagged in (but what [`always_personal`]
    /// allows).
    pub machinery: Vec<ByteSpan>,
    /// The same without the keys: what a proven span must not run into.
    pub machinery_values: Vec<ByteSpan>,
}

/// Reads the fields and machinery shapes of `text`.
pub fn scan(text: &str) -> Scan {
    let mut personal = Vec::new();
    let mut keys = Vec::new();
    let mut machinery = Vec::new();
    for field in parse::fields(text) {
        let Some(role) = keys::role(&text[field.key.start..field.key.end]) else {
            continue;
        };
        keys.push(field.key);
        match role {
            Role::Personal(name) => {
                let Some(label) = Label::parse(name) else {
                    continue;
                };
                let mut value = field.value;
                if field.open && multi_word(label) {
                    let any_case =
                        matches!(label.as_str(), "ADDRESS" | "LOCATION" | "ORGANIZATION");
                    value.end = parse::extend_words(text, value.end, any_case);
                }
                let shown = &text[value.start..value.end];
                if !is_blank(shown) && shaped_like(label, shown) && !names_a_field(shown) {
                    personal.push((value, label));
                }
            }
            Role::Machinery => machinery.push(field.value),
            Role::Neutral => {}
        }
    }
    shapes::machinery(text, &mut machinery);
    let personal_union = ByteSpan::union(personal.iter().map(|(s, _)| *s).collect());
    machinery.retain(|m| !overlaps(&personal_union, *m));
    keys.retain(|k| !overlaps(&personal_union, *k));
    let machinery_values = ByteSpan::union(machinery.clone());
    machinery.extend(keys);
    Scan {
        personal,
        machinery: ByteSpan::union(machinery),
        machinery_values,
    }
}

/// Adds the personal field values of `text` (for `wanted` labels) to `candidates` and
/// drops the candidates that machinery shields or that cross a personal value's edge
/// (they would outrank the value by length and leave part of it unflagged).
pub fn apply(text: &str, wanted: &LabelSet, candidates: &mut Vec<Candidate>) {
    apply_scan(text, &scan(text), wanted, candidates);
}

/// [`apply`] with the [`scan`] of `text` done before.
pub fn apply_scan(text: &str, scan: &Scan, wanted: &LabelSet, candidates: &mut Vec<Candidate>) {
    if scan.personal.is_empty() && scan.machinery.is_empty() {
        return;
    }
    let personal = ByteSpan::union(scan.personal.iter().map(|(s, _)| *s).collect());
    let mut labelled: Vec<(usize, usize, Label)> = scan
        .personal
        .iter()
        .map(|(s, l)| (s.start, s.end, *l))
        .collect();
    labelled.sort();
    candidates.retain(|c| {
        let exempt = always_personal(text, c);
        // A span whose ends are proven (a URL, an IBAN) is shielded only when it lies
        // within machinery: a URL holding `?t=0` is still a URL, while a guessed date
        // that touches a `ts` value is the timestamp.
        let shielded = !exempt
            && if c.proof.is_exact() {
                inside(&scan.machinery, c.span)
            } else {
                overlaps(&scan.machinery, c.span)
            };
        // A proven span that holds whole values, and no machinery value, is those values
        // with the ends its grammar proves: an unquoted logfmt value stops at a space
        // (`mobile=(415) 555-0467`), a URL holds its query (`?name=ana`), while a phone
        // run on into a TSV's status column is not.
        let straddles = overlaps(&personal, c.span)
            && !inside(&personal, c.span)
            && !(c.proof.is_exact()
                && holds(&personal, c.span)
                && !overlaps(&scan.machinery_values, c.span));
        // On exactly a value's span the key names the label (a model may call the IP
        // under `remote_addr` a phone number), unless a grammar, a checksum or an `@` says
        // otherwise.
        let relabelled = !exempt
            && c.proof == Proof::None
            && labelled
                .binary_search_by(|(s, e, _)| (*s, *e).cmp(&(c.span.start, c.span.end)))
                .is_ok_and(|i| labelled[i].2 != c.label);
        !shielded && !straddles && !relabelled
    });
    for &(span, label) in &scan.personal {
        if wanted.contains(label) {
            candidates.push(Candidate {
                span,
                label,
                score: FIELD_SCORE,
                proof: Proof::None,
                trace: Trace::new("fields", "key_value"),
            });
        }
    }
}

/// Personal wherever it appears, even inside machinery (`path=/users/ana@example.com`);
/// secrets too (`Authorization: Bearer 9a8b…` is hex-shaped). A UUID is found only when
/// a caller asks for the (off by default) `UUID` label, and then the caller wants UUIDs
/// gone.
/// An e-mail must have its `@`: a model can call a hex request id an e-mail.
fn always_personal(text: &str, c: &Candidate) -> bool {
    match c.label.as_str() {
        "EMAIL_ADDRESS" => text
            .get(c.span.start..c.span.end)
            .is_some_and(|s| s.contains('@')),
        "UUID" | "API_KEY" | "JWT" | "PRIVATE_KEY" | "PASSWORD" | "CONNECTION_STRING" => true,
        "CREDIT_CARD" | "IBAN_CODE" => c.proof == Proof::Checksum,
        // The account of a home directory (`/home/jdoe/`): a path can carry one.
        "PERSON" => c.proof == Proof::Grammar && patterns::after_home_directory(text, c.span),
        _ => false,
    }
}

/// Whether a value under a personal key can be what its key names: a card number has
/// 12 to 19 digits (`cc=0` in a URL is a flag, not a card); an IP address has the dots
/// of IPv4 or the colons of IPv6 (`ip=0` is a flag too). A value that opens a bracket
/// it does not close is the cut-off start of a longer one (Django's `user=<User:
/// ana@example.com>` ends at the space), which the other tiers read whole.
fn shaped_like(label: Label, value: &str) -> bool {
    let closer = match value.as_bytes().first() {
        Some(b'<') => Some('>'),
        Some(b'(') => Some(')'),
        Some(b'[') => Some(']'),
        Some(b'{') => Some('}'),
        _ => None,
    };
    if closer.is_some_and(|c| !value.contains(c)) {
        return false;
    }
    match label.as_str() {
        "IP_ADDRESS" => {
            let count = |c: u8| value.bytes().filter(|&b| b == c).count();
            (count(b'.') >= 3 || count(b':') >= 2)
                && value
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() || b".:[]%/".contains(&b))
        }
        "CREDIT_CARD" => {
            let digits = value.bytes().filter(u8::is_ascii_digit).count();
            (12..=19).contains(&digits)
                && value
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b' ' || b == b'-')
        }
        // sudo's `USER=root`: a system account is no one's.
        "PERSON" => !is_no_ones_account(value),
        // sudo's and a shell's `PWD=/home/ana` is the working directory; `pwd=…` is a
        // password anywhere else (`Uid=sa;Pwd=…`).
        "PASSWORD" => !structure::directory(value),
        _ => true,
    }
}

/// Whether a value is itself the name of a personal field: an HTML form's
/// `name="fullname"` or a schema's `"field": "email"` names where data goes, not whose
/// it is.
fn names_a_field(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && matches!(keys::role(value), Some(Role::Personal(_)))
}

/// Labels whose unquoted values may run over several words (`name=Ana Ruiz`); an
/// e-mail, IP, age or secret is one token.
fn multi_word(label: Label) -> bool {
    !matches!(
        label.as_str(),
        "EMAIL_ADDRESS" | "IP_ADDRESS" | "AGE" | "PASSWORD" | "API_KEY" | "US_SSN"
    )
}

/// Values that hold no data: empty, null-ish, masked, or already a placeholder.
fn is_blank(value: &str) -> bool {
    let v = value.trim();
    let placeholder = v.len() > 2
        && ((v.starts_with('[') && v.ends_with(']')) || (v.starts_with('<') && v.ends_with('>')))
        && v[1..v.len() - 1].bytes().all(|b| {
            b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'_' | b':' | b'-')
        });
    v.is_empty()
        || placeholder
        || v.chars().all(|c| matches!(c, '*' | '#' | '•' | '-' | '.'))
        || [
            "null",
            "none",
            "nil",
            "n/a",
            "na",
            "unknown",
            "undefined",
            "redacted",
            "true",
            "false",
        ]
        .iter()
        .any(|w| v.eq_ignore_ascii_case(w))
}

/// Whether `span` overlaps one of the sorted, disjoint `spans`.
fn overlaps(spans: &[ByteSpan], span: ByteSpan) -> bool {
    let i = spans.partition_point(|s| s.end <= span.start);
    spans.get(i).is_some_and(|s| s.start < span.end)
}

/// Whether `span` lies inside one of the sorted, disjoint `spans`.
fn inside(spans: &[ByteSpan], span: ByteSpan) -> bool {
    let i = spans.partition_point(|s| s.end <= span.start);
    spans
        .get(i)
        .is_some_and(|s| s.start <= span.start && span.end <= s.end)
}

/// Whether every one of the sorted, disjoint `spans` that overlaps `span` lies within it.
fn holds(spans: &[ByteSpan], span: ByteSpan) -> bool {
    let i = spans.partition_point(|s| s.end <= span.start);
    spans[i..]
        .iter()
        .take_while(|s| s.start < span.end)
        .all(|s| span.start <= s.start && s.end <= span.end)
}

#[cfg(test)]
mod tests;
