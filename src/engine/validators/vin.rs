//! Vehicle identification numbers (ISO 3779): 17 characters without I, O, Q. The ninth
//! is the North American check digit (49 CFR 565.15: transliteration, weights
//! 8-7-6-5-4-3-2-10-0-9-8-7-6-5-4-3-2, sum mod 11, 10 → `X`). Outside North America the
//! check digit is optional, so a failed check only rejects VINs whose WMI is North
//! American (first character 1–5).

fn value(c: u8) -> Option<u32> {
    Some(match c {
        b'0'..=b'9' => u32::from(c - b'0'),
        b'A' | b'J' => 1,
        b'B' | b'K' | b'S' => 2,
        b'C' | b'L' | b'T' => 3,
        b'D' | b'M' | b'U' => 4,
        b'E' | b'N' | b'V' => 5,
        b'F' | b'W' => 6,
        b'G' | b'P' | b'X' => 7,
        b'H' | b'Y' => 8,
        b'R' | b'Z' => 9,
        _ => return None,
    })
}

pub fn vin(s: &str) -> bool {
    const W: [u32; 17] = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
    let b = s.as_bytes();
    if b.len() != 17 {
        return false;
    }
    let mut sum = 0;
    for (c, w) in b.iter().zip(W) {
        match value(*c) {
            Some(v) => sum += v * w,
            None => return false,
        }
    }
    // A real VIN mixes letters and digits and ends in digits (the serial).
    let letters = b.iter().filter(|c| c.is_ascii_uppercase()).count();
    if letters == 0 || letters > 12 || !b[14..].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let check = match sum % 11 {
        10 => b'X',
        n => b'0' + n as u8,
    };
    b[8] == check || !(b'1'..=b'5').contains(&b[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_vins() {
        assert!(vin("1M8GDM9AXKP042788"));
        assert!(!vin("11111111111111111"));
        assert!(!vin("1M8GDM9A1KP042788"));
        assert!(!vin("1M8GDM9AXKP04278"));
        assert!(!vin("1M8GDM9AXKP0427O8"));
        assert!(
            vin("WVWZZZ1JZXW000001"),
            "European VINs need no check digit"
        );
    }
}
