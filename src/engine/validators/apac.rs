//! Asia-Pacific identifiers: Singapore NRIC/FIN (weights 2-7-6-5-4-3-2 and the
//! prefix-specific letter table, ICA) and Indian PAN structure (Income Tax Department:
//! five letters — the fourth the holder type — four digits, one letter).

/// Singapore NRIC/FIN: S/T/F/G/M, 7 digits, check letter.
pub fn sg_nric(s: &str) -> bool {
    const W: [u32; 7] = [2, 7, 6, 5, 4, 3, 2];
    const ST: &[u8; 11] = b"JZIHGFEDCBA";
    const FG: &[u8; 11] = b"XWUTRQPNMLK";
    const M: &[u8; 11] = b"KLJNPQRTUWX";
    let b: Vec<u8> = s.bytes().map(|c| c.to_ascii_uppercase()).collect();
    if b.len() != 9 || !b[1..8].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = b[1..8]
        .iter()
        .zip(W)
        .map(|(c, w)| u32::from(c - b'0') * w)
        .sum();
    let (offset, table) = match b[0] {
        b'S' => (0, ST),
        b'T' => (4, ST),
        b'F' => (0, FG),
        b'G' => (4, FG),
        b'M' => (3, M),
        _ => return false,
    };
    let i = ((sum + offset) % 11) as usize;
    let i = if b[0] == b'M' { 10 - i } else { i };
    table[i] == b[8]
}

/// Indian PAN: `AAAPL1234C`; the fourth letter is one of the holder types
/// (P person, C company, H HUF, F firm, A AOP, T trust, B BOI, L local authority,
/// J artificial juridical person, G government).
pub fn in_pan(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[..5].iter().all(u8::is_ascii_uppercase)
        && b"PCHFATBLJG".contains(&b[3])
        && b[5..9].iter().all(u8::is_ascii_digit)
        && b[9].is_ascii_uppercase()
        && &b[5..9] != b"0000"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_nrics() {
        assert!(sg_nric("S1234567D"));
        assert!(sg_nric("T1234567J"));
        assert!(sg_nric("F1234567N"));
        assert!(sg_nric("G1234567X"));
        assert!(!sg_nric("S1234567A"));
        assert!(!sg_nric("A1234567D"));
    }

    #[test]
    fn checks_pans() {
        assert!(in_pan("ABCPE1234F"));
        assert!(!in_pan("ABCXE1234F"));
        assert!(!in_pan("ABCPE12345"));
        assert!(!in_pan("ABCPE0000F"));
    }
}
