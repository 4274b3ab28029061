//! Asia-Pacific identifiers: Singapore NRIC/FIN (weights 2-7-6-5-4-3-2 and the
//! prefix-specific letter table, ICA), Indian PAN structure (Income Tax Department:
//! five letters — the fourth the holder type — four digits, one letter), Australian
//! ABN (ABR "ABN format": first digit − 1, weights 10,1,3,…,19, mod 89) and ACN (ASIC:
//! weights 8…1, complement mod 10), Singapore UEN (ACRA: three formats, weighted mod-11
//! check letters), Thai national id (DOPA: weights 13…2, (11 − sum mod 11) mod 10) and
//! Philippine TIN (BIR, as Presidio checks it: weights 9…2 over eight digits, mod 11) and
//! the Chinese resident identity number (GB 11643: a birth date inside, MOD 11-2).

use super::digits;

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

/// Australian Business Number: 11 digits.
pub fn au_abn(s: &str) -> bool {
    const W: [u32; 11] = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
    let d = digits(s);
    if d.len() != 11 || d[0] == 0 {
        return false;
    }
    let sum: u32 = d
        .iter()
        .enumerate()
        .map(|(i, x)| if i == 0 { x - 1 } else { *x })
        .zip(W)
        .map(|(x, w)| x * w)
        .sum();
    sum % 89 == 0
}

/// Australian Company Number: 9 digits, the last the check digit.
pub fn au_acn(s: &str) -> bool {
    const W: [u32; 8] = [8, 7, 6, 5, 4, 3, 2, 1];
    let d = digits(s);
    if d.len() != 9 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum: u32 = d[..8].iter().zip(W).map(|(x, w)| x * w).sum();
    (10 - sum % 10) % 10 == d[8]
}

/// Singapore Unique Entity Number: `53312345C` (businesses, 8 digits), `201912345R`
/// (local companies, year + 5 digits) or `T09LL0001D` (other entities: T/S/R, year,
/// entity type, 4 digits).
pub fn sg_uen(s: &str) -> bool {
    const TYPES: &[&[u8; 2]] = &[
        b"LP", b"LL", b"FC", b"PF", b"RF", b"MQ", b"MM", b"NB", b"CC", b"CS", b"MB", b"FM", b"GS",
        b"DP", b"CP", b"NR", b"CM", b"CD", b"MD", b"HS", b"VH", b"CH", b"MH", b"CL", b"XL", b"CX",
        b"HC", b"RP", b"TU", b"TC", b"FB", b"FN", b"PA", b"PB", b"SS", b"MC", b"SM", b"GA", b"GB",
    ];
    const C_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWX0123456789";
    let b = s.as_bytes();
    let weighted = |w: &[u32], values: &mut dyn Iterator<Item = u32>| -> u32 {
        values.zip(w).map(|(v, w)| v * w).sum()
    };
    let number = |c: &u8| u32::from(c.wrapping_sub(b'0'));
    match b.len() {
        9 if b[..8].iter().all(u8::is_ascii_digit) => {
            let sum = weighted(&[10, 4, 9, 3, 8, 2, 7, 1], &mut b[..8].iter().map(number));
            b"XMKECAWLJDB"[(sum % 11) as usize] == b[8]
        }
        10 if b[..9].iter().all(u8::is_ascii_digit) => {
            let year = b[..4].iter().fold(0, |a, c| a * 10 + number(c));
            let sum = weighted(
                &[10, 8, 6, 4, 9, 7, 5, 3, 1],
                &mut b[..9].iter().map(number),
            );
            (1900..=2100).contains(&year) && b"ZKCMDNERGWH"[(sum % 11) as usize] == b[9]
        }
        10 if matches!(b[0], b'T' | b'S' | b'R')
            && TYPES.iter().any(|t| t[..] == b[3..5])
            && b[1..3].iter().chain(&b[5..9]).all(u8::is_ascii_digit) =>
        {
            let mut values = b[..9].iter().map(|c| {
                C_ALPHABET
                    .iter()
                    .position(|a| a == c)
                    .map_or(0, |p| p as u32)
            });
            let sum = weighted(&[4, 3, 5, 3, 10, 2, 2, 5, 7], &mut values);
            C_ALPHABET[((sum + 11 - 5) % 11) as usize] == b[9]
        }
        _ => false,
    }
}

/// Thai national id: 13 digits, first 1–8, check digit last.
pub fn th_tnin(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 13 || !(1..=8).contains(&d[0]) {
        return false;
    }
    let sum: u32 = d[..12].iter().zip((2..=13).rev()).map(|(x, w)| x * w).sum();
    (11 - sum % 11) % 10 == d[12]
}

/// Philippine TIN: 9 digits (12 with a branch code), the ninth checking the first eight.
pub fn ph_tin(s: &str) -> bool {
    const W: [u32; 8] = [9, 8, 7, 6, 5, 4, 3, 2];
    let d = digits(s);
    if (d.len() != 9 && d.len() != 12) || d[..9].iter().all(|x| *x == d[0]) {
        return false;
    }
    d[..8].iter().zip(W).map(|(x, w)| x * w).sum::<u32>() % 11 == d[8]
}

/// Chinese resident identity number (GB 11643-1999): a region code (first digit 1–8),
/// the birth date `YYYYMMDD` (1900–2099), a sequence number, and an ISO 7064 MOD 11-2
/// check character (`X` for 10).
pub fn cn_resident_id(s: &str) -> bool {
    const W: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const CHECK: &[u8; 11] = b"10X98765432";
    let b = s.as_bytes();
    if b.len() != 18 || !b[..17].iter().all(u8::is_ascii_digit) || !(b'1'..=b'8').contains(&b[0]) {
        return false;
    }
    let n = |r: std::ops::Range<usize>| super::number(&b[r]);
    let sum: u32 = b[..17]
        .iter()
        .zip(W)
        .map(|(c, w)| u32::from(c - b'0') * w)
        .sum();
    (19..=20).contains(&n(6..8))
        && super::month_day(n(10..12), n(12..14))
        && CHECK[(sum % 11) as usize] == b[17].to_ascii_uppercase()
}

/// Japanese individual number (マイナンバー, My Number Act, ordinance art. 5): twelve digits,
/// the last a check digit over the eleven before it, weighted 2–7 then 2–6 from the
/// right, 11 less the remainder mod 11 (0 for a remainder of 0 or 1). Spaces and dashes
/// between groups are ignored.
pub fn jp_my_number(s: &str) -> bool {
    let d = super::digits(s);
    if d.len() != 12
        || s.chars()
            .any(|c| !c.is_ascii_digit() && c != ' ' && c != '-')
    {
        return false;
    }
    let sum: u32 = (1..=11)
        .map(|n| d[11 - n] * if n <= 6 { n as u32 + 1 } else { n as u32 - 5 })
        .sum();
    let check = match sum % 11 {
        0 | 1 => 0,
        r => 11 - r,
    };
    check == d[11]
}

/// A date written with 月/월 and 日/일/号 (`2025年3月12日`, `3월 12일`): a month and a
/// day that month can have.
pub fn cjk_date(s: &str) -> bool {
    // The number written just before the first of `marks`, spaces between allowed.
    let before = |marks: &[char]| -> Option<u32> {
        let head = s[..s.find(marks)?].trim_end_matches(' ');
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        (1..=2)
            .contains(&digits)
            .then(|| super::number(&head.as_bytes()[head.len() - digits..]))
    };
    match (before(&['月', '월']), before(&['日', '일', '号', '號'])) {
        (Some(month), Some(day)) => super::month_day(month, day),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_cjk_dates() {
        assert!(cjk_date("2025年3月12日"));
        assert!(cjk_date("2025년 3월 12일 오후 2시"));
        assert!(cjk_date("11月20日午後3時"));
        assert!(!cjk_date("13月45日"));
        assert!(!cjk_date("2月30日"));
        assert!(!cjk_date("2025年度"));
    }

    #[test]
    fn checks_japanese_individual_numbers() {
        assert!(jp_my_number("123456789018"));
        assert!(jp_my_number("4021 3579 8640"));
        assert!(!jp_my_number("123456789017"));
        assert!(!jp_my_number("12345678901"));
        assert!(!jp_my_number("12345678901a8"));
    }

    #[test]
    fn checks_chinese_resident_ids() {
        assert!(cn_resident_id("11010519491231002X"));
        assert!(cn_resident_id("11010519491231002x"));
        assert!(!cn_resident_id("110105194912310021"));
        // A date no calendar has, and a region code of 9.
        assert!(!cn_resident_id("11010519491331002X"));
        assert!(!cn_resident_id("91010519491231002X"));
    }

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

    #[test]
    fn checks_australian_business_numbers() {
        assert!(au_abn("51 824 753 556"));
        assert!(!au_abn("51 824 753 557"));
        assert!(au_acn("004 085 616"));
        assert!(!au_acn("004 085 617"));
        assert!(!au_acn("000 000 000"));
    }

    #[test]
    fn checks_singapore_entity_numbers() {
        assert!(sg_uen("53312345C"));
        assert!(sg_uen("201912345R"));
        assert!(sg_uen("T09LL0001D"));
        assert!(!sg_uen("53312345D"));
        assert!(!sg_uen("201912345Z"));
        assert!(!sg_uen("T09QQ0001D"), "no entity type QQ");
    }

    #[test]
    fn checks_thai_and_philippine_numbers() {
        assert!(th_tnin("1101700203093"));
        assert!(th_tnin("1-1017-00203-09-3"));
        assert!(!th_tnin("1101700203094"));
        assert!(!th_tnin("9101700203093"));
        assert!(ph_tin("123-456-782"));
        assert!(ph_tin("123-456-782-000"));
        assert!(!ph_tin("123-456-783"));
    }
}
