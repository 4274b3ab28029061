//! The Luhn (mod 10) checksum, ISO/IEC 7812-1 Annex B, and the identifiers built on it:
//! payment cards, US NPI (Luhn over the `80840` prefix + 10 digits, CMS NPI spec),
//! Canadian SIN (Luhn over 9 digits, ESDC), Swedish personnummer and organisationsnummer
//! (Luhn over the last 10 digits, Skatteverket SKV 704 / Bolagsverket), South African
//! identity numbers (Luhn over 13 digits, Identification Act 68 of 1997) and Italian VAT
//! numbers (partita IVA: Luhn over 11 digits, DM 23/12/1976).

/// True when the digits of `s` (separators ignored) pass the Luhn check.
pub fn is_valid(s: &str) -> bool {
    let mut sum = 0u32;
    let mut count = 0usize;
    for (i, d) in s.bytes().rev().filter(u8::is_ascii_digit).enumerate() {
        let mut v = u32::from(d - b'0');
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
        count += 1;
    }
    count >= 2 && sum % 10 == 0
}

fn digits(s: &str) -> Vec<u8> {
    s.bytes().filter(u8::is_ascii_digit).collect()
}

/// A payment card: 12–19 digits, a known issuer prefix (ISO/IEC 7812 IIN ranges of Visa,
/// Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro), Luhn-valid, and not one
/// repeated digit.
pub fn credit_card(s: &str) -> bool {
    let d = digits(s);
    if !(12..=19).contains(&d.len()) || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let prefix = |n: usize| -> u32 { d[..n].iter().fold(0, |a, x| a * 10 + u32::from(x - b'0')) };
    let issuer = d[0] == b'4'
        || (51..=55).contains(&prefix(2))
        || (2221..=2720).contains(&prefix(4))
        || matches!(
            prefix(2),
            34 | 37 | 35 | 36 | 38 | 62 | 65 | 50 | 56..=58 | 67
        )
        || prefix(4) == 6011
        || (644..=649).contains(&prefix(3))
        || (300..=305).contains(&prefix(3));
    issuer && is_valid(s)
}

/// A US National Provider Identifier: 10 digits starting 1 or 2, Luhn-valid with the
/// card-issuer prefix `80840` (CMS, "NPI check digit").
pub fn npi(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 10 || !matches!(d[0], b'1' | b'2') {
        return false;
    }
    let mut prefixed = String::from("80840");
    prefixed.extend(d.iter().map(|b| char::from(*b)));
    is_valid(&prefixed)
}

/// A Canadian Social Insurance Number: 9 digits, Luhn-valid, first digit not 0 or 8.
pub fn ca_sin(s: &str) -> bool {
    let d = digits(s);
    d.len() == 9 && !matches!(d[0], b'0' | b'8') && is_valid(s)
}

/// A Swedish personnummer or samordningsnummer: `YYMMDD-NNNN` (`+` at 100 years or
/// more; the century may be written out), a real month and day (day + 60 for a
/// samordningsnummer), Luhn over the ten digits.
pub fn se_personnummer(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 10 && d.len() != 12 {
        return false;
    }
    let d = &d[d.len() - 10..];
    let n = |i: usize| u32::from(d[i] - b'0') * 10 + u32::from(d[i + 1] - b'0');
    let day = n(4);
    let day = if day > 60 { day - 60 } else { day };
    super::month_day(n(2), day) && is_valid(std::str::from_utf8(d).unwrap_or(""))
}

/// A Swedish organisationsnummer: ten digits, the third at least 2 (which keeps it apart
/// from a personnummer's month), Luhn-valid.
pub fn se_organisationsnummer(s: &str) -> bool {
    let d = digits(s);
    d.len() == 10 && d[2] >= b'2' && is_valid(s)
}

/// A South African identity number `YYMMDD SSSS C A Z`: a real birth date, citizenship
/// 0–2, the legacy digit 8 or 9, Luhn over all 13 digits.
pub fn za_id(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 13 {
        return false;
    }
    let n = |i: usize| u32::from(d[i] - b'0') * 10 + u32::from(d[i + 1] - b'0');
    super::month_day(n(2), n(4))
        && matches!(d[10], b'0'..=b'2')
        && matches!(d[11], b'8' | b'9')
        && is_valid(s)
}

/// An Italian partita IVA: 11 digits, Luhn-valid, the office code (digits 8–10) 001–100,
/// 120, 121, 888 or 999.
pub fn it_vat(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || d.iter().all(|x| *x == b'0') {
        return false;
    }
    let office = d[7..10]
        .iter()
        .fold(0u32, |a, x| a * 10 + u32::from(x - b'0'));
    ((1..=100).contains(&office) || matches!(office, 120 | 121 | 888 | 999)) && is_valid(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_valid_numbers() {
        assert!(is_valid("79927398713"));
        assert!(credit_card("4111 1111 1111 1111"));
        assert!(credit_card("5500-0000-0000-0004"));
        assert!(credit_card("378282246310005"));
        assert!(npi("1234567893"));
        assert!(ca_sin("130 692 544"));
    }

    #[test]
    fn rejects_invalid_numbers() {
        assert!(!is_valid("79927398710"));
        assert!(!credit_card("4111 1111 1111 1112"));
        assert!(!credit_card("0000 0000 0000 0000"));
        assert!(!credit_card("1234"));
        assert!(!credit_card("2000 0000 0000 0008"), "no issuer starts 2000");
        assert!(!npi("1234567890"));
        assert!(!npi("3234567893"));
        assert!(!ca_sin("130 692 545"));
        assert!(!ca_sin("846 454 286"));
    }

    #[test]
    fn checks_swedish_south_african_and_italian_numbers() {
        assert!(se_personnummer("811228-9874"));
        assert!(se_personnummer("19811228-9874"));
        assert!(
            se_personnummer("811288-9871"),
            "samordningsnummer: day + 60"
        );
        assert!(!se_personnummer("811228-9875"));
        assert!(!se_personnummer("811328-9873"), "month 13");
        assert!(se_organisationsnummer("556036-0793"));
        assert!(!se_organisationsnummer("556036-0794"));
        assert!(!se_organisationsnummer("811228-9874"), "a personnummer");
        assert!(za_id("8001015009087"));
        assert!(!za_id("8001015009088"));
        assert!(!za_id("8013015009082"), "month 13");
        assert!(it_vat("00743110157"));
        assert!(!it_vat("00743110158"));
        assert!(!it_vat("00000000000"));
    }
}
