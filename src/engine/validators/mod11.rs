//! Weighted mod-11 check digits: UK NHS numbers (NHS Data Dictionary, "NHS number")
//! and Australian tax file numbers and Medicare numbers (mod 11 / mod 10 weights, ATO/DHS).

use super::digits;

/// An NHS number: 10 digits; weights 10..2 over the first nine; 11 - (sum mod 11) is
/// the tenth digit (11 → 0; 10 is never issued).
pub fn nhs(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 10 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum: u32 = d[..9].iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum();
    let check = match 11 - sum % 11 {
        11 => 0,
        10 => return false,
        c => c,
    };
    check == d[9]
}

/// An Australian TFN: 9 digits with weights 1,4,3,7,5,8,6,9,10 summing to 0 mod 11.
pub fn au_tfn(s: &str) -> bool {
    const W: [u32; 9] = [1, 4, 3, 7, 5, 8, 6, 9, 10];
    let d = digits(s);
    d.len() == 9
        && d.iter().any(|x| *x != d[0])
        && d.iter().zip(W).map(|(x, w)| x * w).sum::<u32>() % 11 == 0
}

/// An Australian Medicare card number: 10 or 11 digits, first 2–6, the ninth digit is
/// the weighted sum (1,3,7,9,1,3,7,9) of the first eight mod 10.
pub fn au_medicare(s: &str) -> bool {
    const W: [u32; 8] = [1, 3, 7, 9, 1, 3, 7, 9];
    let d = digits(s);
    (10..=11).contains(&d.len())
        && (2..=6).contains(&d[0])
        && d[..8].iter().zip(W).map(|(x, w)| x * w).sum::<u32>() % 10 == d[8]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_nhs_numbers() {
        assert!(nhs("943 476 5919"));
        assert!(nhs("401-023-2137"));
        assert!(!nhs("943 476 5918"));
        assert!(!nhs("111 111 1111"));
        assert!(!nhs("94347659"));
    }

    #[test]
    fn checks_australian_numbers() {
        assert!(au_tfn("123 456 782"));
        assert!(!au_tfn("123 456 783"));
        assert!(au_medicare("2123 45670 1"));
        assert!(!au_medicare("2123 45671 1"));
        assert!(!au_medicare("7123 45670 1"));
    }
}
