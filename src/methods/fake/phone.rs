//! Fake phone numbers with the original's digit layout (separators, brackets, `+`),
//! drawn from ranges reserved for fiction where the country has them:
//! - US/Canada (NANP): 555-0100 to 555-0199 are reserved for fictional use.
//! - UK: Ofcom's drama ranges (`data::UK_DRAMA_RANGES`).
//!
//! Other numbers keep their `+` and two-digit country code; the rest is random.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use super::data;
use super::generic;

pub fn fake(original: &str, rng: &mut StdRng) -> String {
    let digits: Vec<u8> = original
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let plus = original.trim_start().starts_with('+');
    let n = digits.len();
    let starts = |prefix: &[u8]| digits.starts_with(prefix);
    let new_digits: Option<String> =
        if (plus && starts(&[1])) || (!plus && (n == 10 || n == 7 || (n == 11 && starts(&[1])))) {
            let national = format!(
                "{}55501{:02}",
                data::US_AREA_CODES.choose(rng).copied().unwrap_or("555"),
                rng.gen_range(0..100u32)
            );
            match n {
                7 => Some(national[3..].to_owned()),
                10 => Some(national),
                11 => Some(format!("1{national}")),
                _ => None,
            }
        } else if (plus && starts(&[4, 4])) || (!plus && n == 11 && starts(&[0])) {
            let national = format!(
                "{}{:03}",
                data::UK_DRAMA_RANGES
                    .choose(rng)
                    .copied()
                    .unwrap_or("07700900"),
                rng.gen_range(0..1000u32)
            );
            match (plus, n) {
                (false, 11) => Some(national),
                (true, 12) => Some(format!("44{}", &national[1..])),
                _ => None,
            }
        } else {
            None
        };
    match new_digits {
        Some(new) => lay_out(original, new.as_bytes()),
        None => {
            // Keep `+CC` (two digits: unmeasured compromise between 1- and 3-digit codes).
            let keep = if plus { 2 } else { 1 };
            let mut kept = 0;
            let mut out = String::with_capacity(original.len());
            for c in original.chars() {
                if c.is_ascii_digit() && kept < keep {
                    kept += 1;
                    out.push(c);
                } else if c.is_ascii_digit() {
                    out.push_str(&generic::shape("0", rng));
                } else {
                    out.push(c);
                }
            }
            out
        }
    }
}

/// Puts `digits` into the digit positions of `original`, keeping everything else.
fn lay_out(original: &str, digits: &[u8]) -> String {
    let mut next = digits.iter();
    original
        .chars()
        .map(|c| match c.is_ascii_digit() {
            true => next.next().map(|d| char::from(*d)).unwrap_or(c),
            false => c,
        })
        .collect()
}
