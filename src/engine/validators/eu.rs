//! European national identifiers, each with its official check:
//! IT codice fiscale (DM 23/12/1976 odd/even tables), ES DNI/NIF and NIE (mod-23 letter,
//! Orden INT/2058/2008), DE Steuer-ID (ISO 7064 MOD 11,10 plus the digit-repetition
//! rule), FR NIR (key = 97 − n mod 97, Corsica 2A/2B substituted), PL PESEL (weights
//! 1-3-7-9 and a real birth date), FI henkilötunnus (Väestörekisterikeskus: the nine
//! digits of date and individual number mod 31 index a 31-character check alphabet).

use super::digits;

/// Italian fiscal code: 16 characters, the last one the check letter.
pub fn it_fiscal_code(s: &str) -> bool {
    const ODD: [u32; 36] = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, // 0-9
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23, // A-Z
    ];
    let b: Vec<u8> = s.bytes().map(|c| c.to_ascii_uppercase()).collect();
    if b.len() != 16 || !b.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let index = |c: u8| -> usize {
        if c.is_ascii_digit() {
            usize::from(c - b'0')
        } else {
            usize::from(c - b'A') + 10
        }
    };
    let mut sum = 0u32;
    for (i, &c) in b[..15].iter().enumerate() {
        if i % 2 == 0 {
            sum += ODD[index(c)];
        } else if c.is_ascii_digit() {
            sum += u32::from(c - b'0');
        } else {
            sum += u32::from(c - b'A');
        }
    }
    b[15] == b'A' + (sum % 26) as u8
}

const NIF_LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";

/// Spanish DNI/NIF: 8 digits and the mod-23 letter.
pub fn es_nif(s: &str) -> bool {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if b.len() != 9 || !b[..8].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let n: usize = b[..8].iter().fold(0, |a, c| a * 10 + usize::from(c - b'0'));
    NIF_LETTERS[n % 23] == b[8]
}

/// Spanish NIE: X/Y/Z (→ 0/1/2), 7 digits, the mod-23 letter.
pub fn es_nie(s: &str) -> bool {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if b.len() != 9 || !b[1..8].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let first = match b[0] {
        b'X' => 0,
        b'Y' => 1,
        b'Z' => 2,
        _ => return false,
    };
    let n: usize = b[1..8]
        .iter()
        .fold(first, |a, c| a * 10 + usize::from(c - b'0'));
    NIF_LETTERS[n % 23] == b[8]
}

/// German tax id (Steuerliche Identifikationsnummer): 11 digits, first not 0; in the
/// first ten, exactly one digit occurs twice or three times and the rest at most once;
/// the eleventh is the ISO 7064 MOD 11,10 check digit.
pub fn de_tax_id(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || d[0] == 0 {
        return false;
    }
    let mut counts = [0u8; 10];
    for x in &d[..10] {
        counts[*x as usize] += 1;
    }
    let repeated = counts.iter().filter(|c| **c >= 2).count();
    if repeated != 1 || counts.iter().any(|c| *c > 3) {
        return false;
    }
    super::iso7064::check_digit(&d[..10]) == d[10]
}

/// French NIR: its shape ([`fr_nir_shape`]) and the two-digit key.
pub fn fr_nir(s: &str) -> bool {
    let Some((body, corsica, key)) = nir_parts(s) else {
        return false;
    };
    let n: u64 = body.iter().fold(0, |a, c| a * 10 + u64::from(c - b'0'));
    // 2A: "19" replaces "2A"; 2B: "18" replaces "2B" (n had "20" there).
    let n = n - corsica;
    97 - n % 97 == key
}

/// A NIR's shape, whatever its key: sex 1/2, year, month 01–12 (or 20+ for unknown),
/// department (2A/2B allowed), commune, order and two key digits.
pub fn fr_nir_shape(s: &str) -> bool {
    nir_parts(s).is_some()
}

/// The thirteen digits of a well-shaped NIR (Corsica's letter as 0), what its
/// department's letter takes off the number (INSEE rule: 2A → 19, 2B → 18), and its key.
fn nir_parts(s: &str) -> Option<(Vec<u8>, u64, u64)> {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if b.len() != 15 || !matches!(b[0], b'1' | b'2') {
        return None;
    }
    let (body, corsica): (Vec<u8>, u64) = match (b[5], b[6]) {
        (b'2', b'A') => ([&b[..6], b"0", &b[7..13]].concat(), 1_000_000),
        (b'2', b'B') => ([&b[..6], b"0", &b[7..13]].concat(), 2_000_000),
        _ => (b[..13].to_vec(), 0),
    };
    if !body.iter().all(u8::is_ascii_digit) || !b[13..].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let month = u32::from(b[3] - b'0') * 10 + u32::from(b[4] - b'0');
    if !(1..=12).contains(&month) && month < 20 {
        return None;
    }
    let key = u64::from(b[13] - b'0') * 10 + u64::from(b[14] - b'0');
    Some((body, corsica, key))
}

/// Polish PESEL: 11 digits, weights 1-3-7-9-1-3-7-9-1-3 and a real month (the century is
/// coded in the month: +80 1800s, +0 1900s, +20 2000s, +40, +60).
pub fn pl_pesel(s: &str) -> bool {
    const W: [u32; 10] = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
    let d = digits(s);
    if d.len() != 11 {
        return false;
    }
    let month = (d[2] * 10 + d[3]) % 20;
    let day = d[4] * 10 + d[5];
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return false;
    }
    let sum: u32 = d[..10].iter().zip(W).map(|(x, w)| x * w).sum();
    (10 - sum % 10) % 10 == d[10]
}

/// Finnish henkilötunnus `DDMMYYCZZZQ`: a real date, a century sign (`+` 1800s; `-`,
/// `U`–`Y` 1900s; `A`–`F` 2000s, VRK 2023 reform), individual number 002–899, and the
/// check character.
pub fn fi_hetu(s: &str) -> bool {
    const CHECK: &[u8; 31] = b"0123456789ABCDEFHJKLMNPRSTUVWXY";
    let b: Vec<u8> = s.bytes().map(|c| c.to_ascii_uppercase()).collect();
    if b.len() != 11
        || !b"+-ABCDEFUVWXY".contains(&b[6])
        || !b[..6].iter().chain(&b[7..10]).all(u8::is_ascii_digit)
    {
        return false;
    }
    let n = |r: std::ops::Range<usize>| super::number(&b[r]);
    let individual = n(7..10);
    super::month_day(n(2..4), n(0..2))
        && (2..=899).contains(&individual)
        && CHECK[((n(0..6) * 1000 + individual) % 31) as usize] == b[10]
}

/// Dutch burgerservicenummer: nine digits, the "elfproef" (weights 9…2 and −1, sum a
/// multiple of 11, not 0).
pub fn nl_bsn(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 9 {
        return false;
    }
    let sum: i64 = d[..8]
        .iter()
        .zip((2..=9).rev())
        .map(|(x, w)| i64::from(*x) * w)
        .sum::<i64>()
        - i64::from(d[8]);
    sum > 0 && sum % 11 == 0
}

/// Swiss AHV/AVS number: 13 digits starting 756 (the country), EAN-13 check digit
/// (weights 1, 3 alternating from the left).
pub fn ch_ahv(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 13 || d[..3] != [7, 5, 6] {
        return false;
    }
    let sum: u32 = d[..12]
        .iter()
        .enumerate()
        .map(|(i, x)| if i % 2 == 0 { *x } else { x * 3 })
        .sum();
    (10 - sum % 10) % 10 == d[12]
}

/// Irish PPS number `DDDDDDDC[L]`: digits weighted 8…2, plus 9 × the second letter's
/// place in the alphabet when there is one (`W`, the old suffix, counts 0); the sum mod
/// 23 is the check letter (`W` for 0, then `A`…`V`).
pub fn ie_ppsn(s: &str) -> bool {
    let b = s.as_bytes();
    if !(8..=9).contains(&b.len()) || !b[..7].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let mut sum: u32 = b[..7]
        .iter()
        .zip((2..=8).rev())
        .map(|(d, w)| u32::from(d - b'0') * w)
        .sum();
    if let Some(&second) = b.get(8) {
        if !second.is_ascii_uppercase() {
            return false;
        }
        if second != b'W' {
            sum += 9 * u32::from(second - b'A' + 1);
        }
    }
    let check = match sum % 23 {
        0 => b'W',
        n => b'A' + n as u8 - 1,
    };
    b[7] == check
}

/// Portuguese NIF: nine digits, the first of a person's or a company's ranges (1–3, 5,
/// 6, 8, 9; 45 and 7x), weights 9…2, and `11 − sum mod 11` as the check digit (0 for 10
/// and 11).
pub fn pt_nif(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 9 || d[0] == 0 || (d[0] == 4 && d[1] != 5) {
        return false;
    }
    let sum: u32 = d[..8].iter().zip((2..=9).rev()).map(|(x, w)| x * w).sum();
    let check = match 11 - sum % 11 {
        10 | 11 => 0,
        c => c,
    };
    check == d[8]
}

/// Portuguese social security number (NISS) `DDDDDDDDDDC`: eleven digits, a person's
/// starting 1 (a firm's 2); weights 29 23 19 17 13 11 7 5 3 2 and the check digit 9 minus
/// the sum mod 10.
pub fn pt_niss(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || !matches!(d[0], 1 | 2) {
        return false;
    }
    let weights = [29, 23, 19, 17, 13, 11, 7, 5, 3, 2];
    let sum: u32 = d[..10].iter().zip(weights).map(|(x, w)| x * w).sum();
    9 - sum % 10 == d[10]
}

/// Austrian social security number `SSSC DDMMYY`: a serial of three digits (not from 0),
/// its check digit, and the holder's birth date; weights 3 7 9 · 5 8 4 2 1 6, the check
/// is the sum mod 11 (a remainder of 10 is never issued).
pub fn at_svnr(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 10 || d[0] == 0 {
        return false;
    }
    let weights = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6];
    let sum: u32 = d.iter().zip(weights).map(|(x, w)| x * w).sum();
    let (day, month) = (d[4] * 10 + d[5], d[6] * 10 + d[7]);
    sum % 11 == d[3] && (1..=31).contains(&day) && (1..=12).contains(&month)
}

/// Norwegian fødselsnummer `DDMMYYIIIKK`: a date (day + 40 for a D-number, month + 40
/// for an H-number) and two mod-11 check digits (weights 3 7 6 1 8 9 4 5 2, then
/// 5 4 3 2 7 6 5 4 3 2; a remainder that would need 10 makes the number invalid).
pub fn no_birth_number(s: &str) -> bool {
    const W1: [u32; 9] = [3, 7, 6, 1, 8, 9, 4, 5, 2];
    const W2: [u32; 10] = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    let d = digits(s);
    if d.len() != 11 {
        return false;
    }
    let day = d[0] * 10 + d[1];
    let month = d[2] * 10 + d[3];
    let day = if day > 40 { day - 40 } else { day };
    let month = if month > 40 { month - 40 } else { month };
    let check = |sum: u32| match 11 - sum % 11 {
        11 => Some(0),
        10 => None,
        k => Some(k),
    };
    let k1 = check(d[..9].iter().zip(W1).map(|(x, w)| x * w).sum());
    let k2 = check(d[..10].iter().zip(W2).map(|(x, w)| x * w).sum());
    super::month_day(month, day) && k1 == Some(d[9]) && k2 == Some(d[10])
}

/// Danish CPR `DDMMYY-SSSS`: ten digits that open with a real day and month.
pub fn dk_cpr(s: &str) -> bool {
    let d = digits(s);
    d.len() == 10 && super::month_day(d[2] * 10 + d[3], d[0] * 10 + d[1])
}

/// Czech and Slovak rodné číslo `YYMMDD/XXX(X)`: a date whose month may carry +50
/// (women) and +20 (numbers issued after a day ran out, 2004 on); ten digits are a
/// multiple of 11, or their first nine leave 10 and the last is 0 (numbers before 1985).
pub fn cz_birth_number(s: &str) -> bool {
    let d = digits(s);
    if !(9..=10).contains(&d.len()) {
        return false;
    }
    let month = (d[2] * 10 + d[3]) % 50;
    let month = if month > 20 { month - 20 } else { month };
    if !super::month_day(month, d[4] * 10 + d[5]) {
        return false;
    }
    if d.len() == 9 {
        return true;
    }
    let n = d.iter().fold(0u64, |a, x| a * 10 + u64::from(*x));
    n % 11 == 0 || ((n / 10) % 11 == 10 && d[9] == 0)
}

/// Polish NIP (tax identification number): ten digits, weights 6-5-7-2-3-4-5-6-7, sum
/// mod 11 is the last digit (10 never is).
pub fn pl_nip(s: &str) -> bool {
    const W: [u32; 9] = [6, 5, 7, 2, 3, 4, 5, 6, 7];
    let d = digits(s);
    if d.len() != 10 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum: u32 = d[..9].iter().zip(W).map(|(x, w)| x * w).sum();
    sum % 11 == d[9]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_dutch_swiss_and_polish_numbers() {
        assert!(nl_bsn("111222333") && nl_bsn("1234.56.782"));
        assert!(!nl_bsn("111222334") && !nl_bsn("000000000") && !nl_bsn("12345678"));
        assert!(ch_ahv("756.9217.0769.85") && ch_ahv("7569217076985"));
        assert!(!ch_ahv("756.9217.0769.84") && !ch_ahv("757.9217.0769.85"));
        assert!(pl_nip("123-456-32-18") && pl_nip("1234563218"));
        assert!(!pl_nip("123-456-32-19") && !pl_nip("0000000000"));
    }

    #[test]
    fn checks_nordic_and_czech_birth_numbers() {
        assert!(no_birth_number("01010100131") && !no_birth_number("01010100132"));
        assert!(!no_birth_number("32010100131"), "day 32");
        assert!(dk_cpr("070761-4285") && !dk_cpr("320761-4285") && !dk_cpr("07076142"));
        assert!(cz_birth_number("855415/1232") && cz_birth_number("8554151232"));
        assert!(!cz_birth_number("855415/1234") && !cz_birth_number("851315/1232"));
        assert!(
            cz_birth_number("536201/123"),
            "nine digits before 1954: no check"
        );
    }

    #[test]
    fn checks_portuguese_and_austrian_social_security_numbers() {
        assert!(pt_niss("11084129805") && pt_niss("20847133605"));
        assert!(!pt_niss("11084129806") && !pt_niss("31084129805") && !pt_niss("1108412980"));
        assert!(at_svnr("1232 150387") && at_svnr("4826010190"));
        assert!(!at_svnr("1233 150387") && !at_svnr("0232 150387") && !at_svnr("1232 151387"));
    }

    #[test]
    fn checks_portuguese_taxpayer_numbers() {
        assert!(pt_nif("123456789") && pt_nif("232 013 969") && pt_nif("501442600"));
        assert!(!pt_nif("123456788") && !pt_nif("012345678") && !pt_nif("12345678"));
    }

    #[test]
    fn checks_irish_pps_numbers() {
        assert!(ie_ppsn("1234567T") && ie_ppsn("1234567FA") && ie_ppsn("1234567TW"));
        assert!(!ie_ppsn("1234567U") && !ie_ppsn("1234567TA") && !ie_ppsn("123456T"));
        // The sum 0 (mod 23) is `W`.
        assert!(ie_ppsn("0000000W") && !ie_ppsn("0000000A"));
    }

    #[test]
    fn checks_italian_fiscal_codes() {
        assert!(it_fiscal_code("RSSMRA85T10A562S"));
        assert!(!it_fiscal_code("RSSMRA85T10A562T"));
        assert!(!it_fiscal_code("RSSMRA85T10A562"));
    }

    #[test]
    fn checks_spanish_ids() {
        assert!(es_nif("12345678Z"));
        assert!(es_nif("12345678-z"));
        assert!(!es_nif("12345678A"));
        assert!(es_nie("X1234567L"));
        assert!(!es_nie("X1234567A"));
        assert!(!es_nie("A1234567L"));
    }

    #[test]
    fn checks_german_tax_ids() {
        assert!(de_tax_id("86095742719"));
        assert!(de_tax_id("47036892816"));
        assert!(!de_tax_id("86095742718"));
        assert!(!de_tax_id("12345678901"), "no repeated digit");
        assert!(!de_tax_id("06095742719"));
    }

    #[test]
    fn checks_finnish_identity_codes() {
        assert!(fi_hetu("131052-308T"));
        assert!(fi_hetu("131052A308T"));
        assert!(!fi_hetu("131052-308U"));
        assert!(!fi_hetu("131352-308T"), "month 13");
        assert!(!fi_hetu("131052G308T"), "no century G");
    }

    #[test]
    fn checks_french_nirs() {
        assert!(fr_nir("2 55 08 14 168 025 38"));
        assert!(!fr_nir("2 55 08 14 168 025 39"));
        assert!(!fr_nir("3 55 08 14 168 025 38"));
        assert!(fr_nir("1 85 05 2A 123 456 33"));
    }

    #[test]
    fn checks_pesels() {
        assert!(pl_pesel("44051401359"));
        assert!(pl_pesel("02070803628"));
        assert!(!pl_pesel("44051401358"));
        assert!(!pl_pesel("44151401359"));
    }
}
