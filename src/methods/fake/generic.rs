//! The fallback fake: same shape, character by character (digit → digit, upper → upper,
//! lower → lower, everything else kept), so separators and length survive.

use rand::rngs::StdRng;
use rand::Rng;

/// A same-shape random string. A leading non-zero digit stays non-zero so numbers do
/// not grow leading zeros.
pub fn shape(original: &str, rng: &mut StdRng) -> String {
    let mut out = String::with_capacity(original.len());
    let mut first_digit = true;
    for c in original.chars() {
        let fake = if c.is_ascii_digit() {
            let low = if first_digit && c != '0' { b'1' } else { b'0' };
            first_digit = false;
            char::from(rng.gen_range(low..=b'9'))
        } else if c.is_ascii_uppercase() {
            char::from(rng.gen_range(b'A'..=b'Z'))
        } else if c.is_ascii_lowercase() {
            char::from(rng.gen_range(b'a'..=b'z'))
        } else if c.is_uppercase() {
            // Non-ASCII letters become ASCII letters of the same case.
            char::from(rng.gen_range(b'A'..=b'Z'))
        } else if c.is_lowercase() {
            char::from(rng.gen_range(b'a'..=b'z'))
        } else {
            c
        };
        out.push(fake);
    }
    out
}
