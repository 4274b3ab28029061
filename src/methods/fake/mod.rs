//! Realistic, shape-keeping fakes for `PSEUDONYMIZE`: names become names, e-mails
//! e-mails, cards Luhn-valid cards, IBANs valid IBANs of the same country, phones
//! fictional numbers with the same digit layout, dates the same format shifted by one
//! offset. Labels without a faker of their own get [`generic::shape`].
//!
//! Generates one candidate per call; uniqueness (within the request or session, and
//! against the input) is the caller's job (`methods::pseudonymize`).

pub mod data;
pub mod date;
pub mod finance;
pub mod generic;
pub mod geo;
pub mod phone;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::text::Label;

/// One candidate fake for `original`, detected as `label`. `date_offset_days` is the
/// request's or session's date shift.
pub fn candidate(label: Label, original: &str, rng: &mut StdRng, date_offset_days: i64) -> String {
    let fake = match label.as_str() {
        "PERSON" => person(original, rng),
        "EMAIL_ADDRESS" => email(rng),
        "PHONE_NUMBER" => phone::fake(original, rng),
        "CREDIT_CARD" => finance::card(original, rng),
        "IBAN_CODE" => finance::iban(original, rng),
        "DATE_TIME" => {
            date::shift(original, date_offset_days).unwrap_or_else(|| generic::shape(original, rng))
        }
        "LOCATION" => pick(data::CITIES, rng).to_owned(),
        "ADDRESS" => address(original, rng),
        "ORGANIZATION" => organization(original, rng),
        "IP_ADDRESS" => ip(original, rng),
        "URL" => url(original, rng),
        "AGE" => age(original, rng),
        "OCCUPATION" => pick(data::OCCUPATIONS, rng).to_owned(),
        "MEDICAL_CONDITION" => pick(data::CONDITIONS, rng).to_owned(),
        "COORDINATES" => geo::coordinates(original, rng),
        _ => generic::shape(original, rng),
    };
    keep_case(original, fake)
}

fn pick<'a>(list: &[&'a str], rng: &mut StdRng) -> &'a str {
    // Lists are non-empty (tested in `data`).
    list.choose(rng).copied().unwrap_or("")
}

/// ALL CAPS stays caps and all lower stays lower; mixed case keeps the fake's own.
pub fn keep_case(original: &str, fake: String) -> String {
    let mut letters = original.chars().filter(|c| c.is_alphabetic()).peekable();
    if letters.peek().is_none() {
        return fake;
    }
    let (mut upper, mut lower) = (false, false);
    for c in letters {
        upper |= c.is_uppercase();
        lower |= c.is_lowercase();
    }
    match (upper, lower) {
        (true, false) => fake.to_uppercase(),
        (false, true) => fake.to_lowercase(),
        _ => fake,
    }
}

/// Same number of words; initials stay initials; the last of several words is a surname.
fn person(original: &str, rng: &mut StdRng) -> String {
    let words: Vec<&str> = original.split_whitespace().collect();
    let mut out = String::with_capacity(original.len());
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let letters = word.chars().filter(|c| c.is_alphabetic()).count();
        if letters <= 1 {
            // An initial such as "J." stays one letter with its punctuation.
            let letter = char::from(rng.gen_range(b'A'..=b'Z'));
            let rest: String = word.chars().filter(|c| !c.is_alphabetic()).collect();
            out.push(letter);
            out.push_str(&rest);
        } else if i + 1 == words.len() && words.len() > 1 {
            out.push_str(pick(data::SURNAMES, rng));
        } else {
            out.push_str(pick(data::GIVEN_NAMES, rng));
        }
    }
    if out.is_empty() {
        out.push_str(pick(data::GIVEN_NAMES, rng));
    }
    out
}

fn ascii_lower(word: &str) -> String {
    // E-mail local parts stay ASCII: fold the few accented letters of the lists.
    word.chars()
        .filter_map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' => Some('a'),
            'é' | 'è' | 'ê' | 'ë' => Some('e'),
            'í' | 'ì' | 'î' | 'ï' => Some('i'),
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' => Some('o'),
            'ú' | 'ù' | 'û' | 'ü' => Some('u'),
            'ç' => Some('c'),
            'ñ' => Some('n'),
            c if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

fn email(rng: &mut StdRng) -> String {
    format!(
        "{}.{}@{}",
        ascii_lower(pick(data::GIVEN_NAMES, rng)),
        ascii_lower(pick(data::SURNAMES, rng)),
        pick(data::DOMAINS, rng)
    )
}

/// `12 Oak Street`: a leading house number keeps its digit count.
fn address(original: &str, rng: &mut StdRng) -> String {
    let street = format!(
        "{} {}",
        pick(data::STREETS, rng),
        pick(data::STREET_TYPES, rng)
    );
    let number: String = original
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>();
    if number.is_empty() {
        street
    } else {
        format!("{} {street}", generic::shape(&number, rng))
    }
}

/// `Contoso Logistics`, keeping a trailing legal form (`GmbH`, `Inc.`).
fn organization(original: &str, rng: &mut StdRng) -> String {
    let mut out = format!(
        "{} {}",
        pick(data::COMPANY_NAMES, rng),
        pick(data::COMPANY_KINDS, rng)
    );
    if let Some(last) = original.split_whitespace().last() {
        if original.split_whitespace().count() > 1 && data::LEGAL_FORMS.contains(&last) {
            out.push(' ');
            out.push_str(last);
        }
    }
    out
}

/// Documentation ranges: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 (RFC 5737) and
/// 2001:db8::/32 (RFC 3849).
fn ip(original: &str, rng: &mut StdRng) -> String {
    if original.contains(':') {
        format!(
            "2001:db8:{:x}::{:x}",
            rng.gen_range(1..0xffffu32),
            rng.gen_range(1..0xffffu32)
        )
    } else {
        let net = pick(&["192.0.2", "198.51.100", "203.0.113"], rng);
        format!("{net}.{}", rng.gen_range(1..255u32))
    }
}

/// An address of `original`'s family from ranges no host uses, wider than [`ip`]'s
/// IPv4 ones: 240.0.0.0/4 (less the broadcast address). For values that must stay
/// addresses once [`ip`]'s 762 have run out; [`ip`]'s IPv6 prefix is wide enough.
pub fn reserved_ip(original: &str, rng: &mut StdRng) -> String {
    if original.contains(':') {
        ip(original, rng)
    } else {
        format!(
            "{}.{}.{}.{}",
            rng.gen_range(240..255u32),
            rng.gen_range(0..256u32),
            rng.gen_range(0..256u32),
            rng.gen_range(1..255u32)
        )
    }
}

/// Same scheme, an example domain, and a path of the same shape.
fn url(original: &str, rng: &mut StdRng) -> String {
    let (scheme, rest) = match original.find("://") {
        Some(i) => (&original[..i + 3], &original[i + 3..]),
        None => ("", original),
    };
    let www = if rest.to_ascii_lowercase().starts_with("www.") {
        "www."
    } else {
        ""
    };
    let path = rest.find(['/', '?', '#']).map(|i| &rest[i..]).unwrap_or("");
    format!(
        "{scheme}{www}{}{}",
        pick(data::DOMAINS, rng),
        generic::shape(path, rng)
    )
}

/// A nearby age, never the same; words around the number stay (`42 years old`).
fn age(original: &str, rng: &mut StdRng) -> String {
    let Some(start) = original.find(|c: char| c.is_ascii_digit()) else {
        return generic::shape(original, rng);
    };
    let len = original[start..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(original.len() - start);
    let digits = &original[start..start + len];
    match digits.parse::<u32>() {
        Ok(n) if n < 200 => {
            let lo = n.saturating_sub(5).max(1);
            let mut fake = rng.gen_range(lo..=n + 5);
            if fake == n {
                fake = n + 1;
            }
            format!("{}{fake}{}", &original[..start], &original[start + len..])
        }
        _ => generic::shape(original, rng),
    }
}

#[cfg(test)]
mod tests;
