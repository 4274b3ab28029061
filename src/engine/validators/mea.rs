//! Turkish identifiers: the TC kimlik numarası (Nüfus Hizmetleri: eleven digits, the
//! tenth ((d1+d3+d5+d7+d9) × 7 − (d2+d4+d6+d8)) mod 10, the eleventh the sum of the first
//! ten mod 10) and licence plates (Karayolları Trafik Yönetmeliği: province 01–81).

use super::digits;

/// A TC kimlik numarası: 11 digits, first not 0, both check digits right.
pub fn tr_tckn(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || d[0] == 0 {
        return false;
    }
    let odd: u32 = d[..9].iter().step_by(2).sum();
    let even: u32 = d[1..8].iter().step_by(2).sum();
    let tenth = (odd * 7 + 10 * 9 - even) % 10;
    tenth == d[9] && d[..10].iter().sum::<u32>() % 10 == d[10]
}

/// A plate `34 ABC 123`: its province code 01–81.
pub fn tr_plate(s: &str) -> bool {
    let d: Vec<u32> = s
        .bytes()
        .take_while(u8::is_ascii_digit)
        .map(|c| u32::from(c - b'0'))
        .collect();
    d.len() == 2 && (1..=81).contains(&(d[0] * 10 + d[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_turkish_ids_and_plates() {
        assert!(tr_tckn("10000000146"));
        assert!(!tr_tckn("10000000147"));
        assert!(!tr_tckn("01000000146"));
        assert!(tr_plate("34 ABC 123"));
        assert!(tr_plate("06-A-1234"));
        assert!(!tr_plate("82 ABC 123"));
        assert!(!tr_plate("00 ABC 123"));
    }
}
