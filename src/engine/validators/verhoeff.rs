//! The Verhoeff dihedral-group checksum (Verhoeff 1969), used by Aadhaar (UIDAI) and the
//! Nigerian NIN (NIMC).

const D: [[u8; 10]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

const P: [[u8; 10]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/// True when the digits of `s` (separators ignored) carry a valid Verhoeff check digit.
pub fn is_valid(s: &str) -> bool {
    let mut c = 0u8;
    let mut n = 0;
    for (i, b) in s.bytes().rev().filter(u8::is_ascii_digit).enumerate() {
        c = D[usize::from(c)][usize::from(P[i % 8][usize::from(b - b'0')])];
        n += 1;
    }
    n >= 2 && c == 0
}

/// An Aadhaar number: 12 digits, first not 0 or 1, Verhoeff-valid, not a palindrome-ish
/// run of one digit.
pub fn aadhaar(s: &str) -> bool {
    let d: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    d.len() == 12 && d[0] >= b'2' && d.iter().any(|x| *x != d[0]) && is_valid(s)
}

/// A Nigerian National Identification Number: 11 digits, Verhoeff-valid, not one digit.
pub fn ng_nin(s: &str) -> bool {
    let d: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    d.len() == 11 && d.iter().any(|x| *x != d[0]) && is_valid(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table as published is the generator's powers, `P[i][n] = P[1][P[i-1][n]]`:
    /// a wrong digit in a row rejects valid numbers wherever it is used.
    #[test]
    fn the_permutation_table_is_the_generators_powers() {
        for (i, row) in P.iter().enumerate() {
            for (d, want) in row.iter().enumerate() {
                let mut x = d as u8;
                for _ in 0..i {
                    x = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4][usize::from(x)];
                }
                assert_eq!(x, *want, "P[{i}][{d}]");
            }
        }
    }

    #[test]
    fn checks_verhoeff_and_aadhaar() {
        assert!(is_valid("2363"));
        assert!(!is_valid("2364"));
        assert!(aadhaar("2345 6789 0124"));
        // Digits in every position of the permutation table: Presidio's own Aadhaar
        // test number and the check digits of the published algorithm.
        assert!(aadhaar("312345678909"));
        assert!(!aadhaar("312345678908"));
        assert!(!aadhaar("2345 6789 0123"));
        assert!(!aadhaar("1345 6789 0124"));
        assert!(!aadhaar("2345 6789 012"));
        assert!(ng_nin("34567890120"));
        assert!(!ng_nin("34567890121"));
        assert!(!ng_nin("3456789012"));
    }
}
