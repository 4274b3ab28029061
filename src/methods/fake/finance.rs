//! Payment cards and IBANs that pass the checks real ones do.

use rand::rngs::StdRng;
use rand::Rng;

/// Leading digits kept: enough to stay the same network (4 = Visa, 51–55 = Mastercard,
/// 34/37 = Amex), too few to name the issuing bank.
const CARD_PREFIX_DIGITS: usize = 2;

/// Same length, layout and network prefix; random account digits; a valid Luhn check
/// digit (ISO/IEC 7812-1 annex B).
pub fn card(original: &str, rng: &mut StdRng) -> String {
    let digits: Vec<u32> = original.chars().filter_map(|c| c.to_digit(10)).collect();
    let n = digits.len();
    if n < CARD_PREFIX_DIGITS + 2 {
        return super::generic::shape(original, rng);
    }
    let mut new: Vec<u32> = digits[..CARD_PREFIX_DIGITS].to_vec();
    while new.len() < n - 1 {
        new.push(rng.gen_range(0..10));
    }
    new.push(luhn_check_digit(&new));
    let mut next = new.into_iter();
    original
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(_) => next
                .next()
                .and_then(|d| char::from_digit(d, 10))
                .unwrap_or(c),
            None => c,
        })
        .collect()
}

/// The digit that makes `payload` + digit Luhn-valid.
fn luhn_check_digit(payload: &[u32]) -> u32 {
    let sum: u32 = payload
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 0 {
                let doubled = d * 2;
                if doubled > 9 {
                    doubled - 9
                } else {
                    doubled
                }
            } else {
                d
            }
        })
        .sum();
    (10 - sum % 10) % 10
}

/// Same country code, length and layout; each BBAN character replaced by a random one
/// of its class (digit, letter); check digits recomputed (ISO 13616 mod-97).
pub fn iban(original: &str, rng: &mut StdRng) -> String {
    let compact: Vec<char> = original
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    if compact.len() < 5 || !compact[0].is_ascii_alphabetic() || !compact[1].is_ascii_alphabetic() {
        return super::generic::shape(original, rng);
    }
    let mut bban: Vec<char> = compact[4..]
        .iter()
        .map(|c| {
            if c.is_ascii_digit() {
                char::from(rng.gen_range(b'0'..=b'9'))
            } else {
                char::from(rng.gen_range(b'A'..=b'Z'))
            }
        })
        .collect();
    let country = [
        compact[0].to_ascii_uppercase(),
        compact[1].to_ascii_uppercase(),
    ];
    // Check digits: 98 - (BBAN + country + "00" as a number, letters A=10..Z=35) mod 97.
    let mut rem: u32 = 0;
    for c in bban.iter().chain(country.iter()).chain(['0', '0'].iter()) {
        let v = c.to_digit(36).unwrap_or(0);
        rem = if v >= 10 {
            (rem * 100 + v) % 97
        } else {
            (rem * 10 + v) % 97
        };
    }
    let check = 98 - rem;
    let mut new: Vec<char> = vec![
        country[0],
        country[1],
        char::from_digit(check / 10, 10).unwrap_or('0'),
        char::from_digit(check % 10, 10).unwrap_or('0'),
    ];
    new.append(&mut bban);
    let mut next = new.into_iter();
    original
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => next.next().unwrap_or(c),
            false => c,
        })
        .collect()
}
