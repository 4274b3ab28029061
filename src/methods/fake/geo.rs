//! Fake coordinates: the same layout (decimals, degree signs, hemisphere letters,
//! separators) at another place on Earth, so a fake still reads and parses as a
//! coordinate. Every digit is drawn anew, degrees too: a fake that kept the degrees
//! would keep the region.

use rand::rngs::StdRng;
use rand::Rng;

/// A coordinate pair like `original`: latitude below 90 and longitude below 180.
pub fn coordinates(original: &str, rng: &mut StdRng) -> String {
    // The latitude ends at its hemisphere letter, or else at the comma between the two.
    let split = original
        .find(['N', 'S'])
        .map(|at| at + 1)
        .or_else(|| original.find(','))
        .unwrap_or(original.len());
    let (lat, lon) = original.split_at(split);
    let mut out = part(lat, 89, rng);
    out.push_str(&part(lon, 179, rng));
    out
}

/// One part: its first run of digits is the degrees (at most `max`, as many digits),
/// digits after a dot are any digits, and a later run (minutes, seconds) stays under 60.
fn part(text: &str, max: u32, rng: &mut StdRng) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut runs = 0;
    while let Some((at, c)) = chars.next() {
        if !c.is_ascii_digit() {
            out.push(c);
            continue;
        }
        let mut end = at + 1;
        while let Some(&(next, d)) = chars.peek() {
            if !d.is_ascii_digit() {
                break;
            }
            end = next + 1;
            chars.next();
        }
        let len = end - at;
        let after_dot = text[..at].ends_with('.');
        // Past three digits it is no degree, minute or second (a value under a `lat`
        // key may be anything): any digits.
        let digits = if after_dot || len > 3 {
            (0..len).map(|_| rng.gen_range(0..10)).collect()
        } else {
            let cap = if runs == 0 { max } else { 59 };
            // Same digit count: "2" stays one digit, "48" two (10..=89).
            let low = if len > 1 {
                10u32.pow(len as u32 - 1)
            } else {
                0
            };
            let high = cap.min(10u32.pow(len as u32) - 1).max(low);
            let n = rng.gen_range(low..=high);
            format!("{n:0len$}")
                .bytes()
                .map(|b| u32::from(b - b'0'))
                .collect::<Vec<_>>()
        };
        runs += 1;
        for d in digits {
            out.push(char::from_digit(d, 10).unwrap_or('0'));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn any_value_under_a_coordinate_key_gets_a_fake_of_its_shape() {
        let mut rng = StdRng::seed_from_u64(7);
        for original in ["12345678901234567890", "n/a", "", "-", "9.99.9,,N"] {
            let fake = coordinates(original, &mut rng);
            let shape = |s: &str| s.replace(|c: char| c.is_ascii_digit(), "9");
            assert_eq!(shape(&fake), shape(original));
        }
    }

    #[test]
    fn a_fake_coordinate_keeps_its_layout_and_stays_on_earth() {
        let mut rng = StdRng::seed_from_u64(7);
        for original in [
            "37.7749, -122.4194",
            "51.5074,-0.1278",
            "40°26'46\"N 79°58'56\"W",
            "48.8584° N, 2.2945° E",
            "48.858370",
        ] {
            for _ in 0..200 {
                let fake = coordinates(original, &mut rng);
                let shape = |s: &str| s.replace(|c: char| c.is_ascii_digit(), "9");
                assert_eq!(shape(&fake), shape(original), "{original} → {fake}");
                let numbers: Vec<f64> = fake
                    .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .filter_map(|n| n.parse().ok())
                    .collect();
                assert!(numbers[0] < 90.0, "{original} → {fake}");
                if numbers.len() == 2 {
                    assert!(numbers[1] < 180.0, "{original} → {fake}");
                }
                if original.contains('°') && original.contains('\'') {
                    assert!(numbers.iter().skip(1).all(|n| *n < 180.0));
                    assert!(numbers[1] < 60.0 && numbers[2] < 60.0, "{fake}");
                }
            }
        }
    }
}
