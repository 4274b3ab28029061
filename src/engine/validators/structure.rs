//! Structural checks without a checksum: UK NINO prefixes (HMRC NIM39110), dates,
//! phone digit counts, Ethereum addresses, Shannon entropy for generic secrets, UK
//! driving licence numbers (DVLA: surname padded with 9s, birth date with the month + 50
//! for women) and UK registration marks (DVLA "age identifiers").

/// UK National Insurance number: two prefix letters (not D, F, I, Q, U, V; second not O;
/// not BG, GB, KN, NK, NT, TN, ZZ), six digits, suffix A–D.
pub fn uk_nino(s: &str) -> bool {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if b.len() != 9 || !b[2..8].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let bad = b"DFIQUV";
    let prefix = &b[..2];
    prefix.iter().all(u8::is_ascii_uppercase)
        && !bad.contains(&b[0])
        && !bad.contains(&b[1])
        && b[1] != b'O'
        && !["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"]
            .iter()
            .any(|p| p.as_bytes() == prefix)
        && (b'A'..=b'D').contains(&b[8])
}

/// A UK driving licence number `MORGA753116SM9IJ`: the first five characters are the
/// surname's letters padded with 9s (never 9 then a letter), then decade, month (+50),
/// day, year; an invalid month or day is refused.
pub fn uk_driving_licence(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 16 || b[..5] == *b"99999" {
        return false;
    }
    let letters = b[..5].iter().take_while(|c| c.is_ascii_uppercase()).count();
    if letters == 0 || !b[letters..5].iter().all(|c| *c == b'9') {
        return false;
    }
    if !b[5..11].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let n = |i: usize| u32::from(b[i] - b'0') * 10 + u32::from(b[i + 1] - b'0');
    let month = n(6) % 50;
    let day = n(8);
    (1..=12).contains(&month) && (1..=31).contains(&day) && n(6) / 50 <= 1
}

/// A current-format UK registration mark `AB12 CDE`: its age identifier is a March
/// (02–29) or September (51–79) one.
pub fn uk_vehicle_registration(s: &str) -> bool {
    let b: Vec<u8> = s.bytes().filter(u8::is_ascii_alphanumeric).collect();
    if b.len() != 7 || !b[2].is_ascii_digit() || !b[3].is_ascii_digit() {
        return false;
    }
    let age = u32::from(b[2] - b'0') * 10 + u32::from(b[3] - b'0');
    (2..=29).contains(&age) || (51..=79).contains(&age)
}

/// A numeric date of day, month and year in some order: accepts when some reading
/// (Y-M-D, M/D/Y or D/M/Y) gives a real month and day. Years of two digits are fine.
pub fn numeric_date(s: &str) -> bool {
    let parts: Vec<u32> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().unwrap_or(u32::MAX))
        .collect();
    if parts.len() != 3 {
        return false;
    }
    let ok = |d: u32, m: u32| (1..=12).contains(&m) && (1..=31).contains(&d);
    let lens: Vec<usize> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .map(str::len)
        .collect();
    if lens[0] == 4 {
        (1000..=2199).contains(&parts[0]) && ok(parts[2], parts[1])
    } else {
        let year_ok = lens[2] == 2 || (1000..=2199).contains(&parts[2]);
        year_ok && (ok(parts[0], parts[1]) || ok(parts[1], parts[0]))
    }
}

/// A numeric date of two parts: month and day in either order ("7/22", "22/7"), a
/// month and its year ("3/2019", "06/88"), or a four-digit year and its month ("2019/3").
pub fn short_numeric_date(s: &str) -> bool {
    let parts: Vec<&str> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect();
    let [a, b] = parts.as_slice() else {
        return false;
    };
    let (x, y): (u32, u32) = (a.parse().unwrap_or(u32::MAX), b.parse().unwrap_or(u32::MAX));
    let month = |n: u32| (1..=12).contains(&n);
    let day = |n: u32| (1..=31).contains(&n);
    (month(x) && (day(y) || matches!(b.len(), 2 | 4)))
        || (day(x) && month(y))
        || (a.len() == 4 && month(y))
}

/// Hours 0–23 and minutes/seconds 0–59 in `H:MM[:SS]`.
pub fn time_of_day(s: &str) -> bool {
    let parts: Vec<u32> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(3)
        .map(|p| p.parse().unwrap_or(u32::MAX))
        .collect();
    match parts.as_slice() {
        [h, m] => *h <= 23 && *m <= 59,
        [h, m, sec] => *h <= 23 && *m <= 59 && *sec <= 60,
        _ => false,
    }
}

/// A phone number: 7–15 digits (E.164 bounds), not one repeated digit, not a run like
/// 1234567, and not a year range.
pub fn phone(s: &str) -> bool {
    let d: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    if !(7..=15).contains(&d.len()) || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let ascending = d.windows(2).all(|w| w[1] == w[0] + 1);
    !ascending
}

/// A digit run that is not one repeated digit or a 1234… run (account numbers).
pub fn phone_like_not_repeated(s: &str) -> bool {
    let d: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    !d.is_empty() && d.iter().any(|x| *x != d[0]) && !d.windows(2).all(|w| w[1] == w[0] + 1)
}

/// Shannon entropy in bits per character.
pub fn entropy(s: &str) -> f32 {
    let mut counts = [0u32; 256];
    let mut n = 0u32;
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let n = n as f32;
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = *c as f32 / n;
            -p * p.log2()
        })
        .sum()
}

/// A secret-looking token: at least 16 characters, mixes letters and digits, entropy
/// ≥ 3.5 bits per character (random base64/hex keys score 4–6; words ~3).
pub fn high_entropy(s: &str) -> bool {
    s.len() >= 16
        && s.bytes().any(|c| c.is_ascii_digit())
        && s.bytes().any(|c| c.is_ascii_alphabetic())
        && entropy(s) >= 3.5
}

/// An absolute Unix directory under a usual top-level folder (`/home/ana`, `/var/www/app`):
/// sudo's and a shell's `PWD=…` is a path, not a secret.
pub fn directory(s: &str) -> bool {
    #[rustfmt::skip]
    const TOP: &[&str] = &[
        "home", "Users", "root", "tmp", "var", "etc", "usr", "opt", "srv", "mnt", "data", "app",
        "workspace", "run",
    ];
    let Some(path) = s.strip_prefix('/') else {
        return false;
    };
    let mut segments = path.trim_end_matches('/').split('/');
    segments.next().is_some_and(|top| TOP.contains(&top))
        && segments.all(|segment| {
            !segment.is_empty()
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        })
}

/// A password value: 6–128 characters, not a placeholder word nor a directory.
pub fn password(s: &str) -> bool {
    const PLACEHOLDERS: &[&str] = &[
        "password",
        "********",
        "<password>",
        "null",
        "none",
        "changeme",
        "required",
        "your_password",
        "xxxxxx",
        "redacted",
        "secret",
        "hidden",
        "example",
    ];
    // What follows "password is" when a sentence says how the password is, not what.
    const STATES: &[&str] = &[
        "incorrect",
        "correct",
        "invalid",
        "visible",
        "secure",
        "insecure",
        "different",
        "unknown",
        "sensitive",
        "incomplete",
        "complete",
        "available",
        "active",
        "inactive",
        "mandatory",
        "optional",
        "forgotten",
        "stolen",
        "strong",
        "stronger",
        "weaker",
        "longer",
        "shorter",
    ];
    let a_state = s.bytes().all(|b| b.is_ascii_lowercase())
        && (s.ends_with("ed") || s.ends_with("ing") || STATES.contains(&s));
    (6..=128).contains(&s.len())
        && !a_state
        && !s.starts_with("${")
        && !s.starts_with('<')
        && !s.chars().all(|c| c == '*' || c == 'x' || c == 'X')
        && !PLACEHOLDERS.iter().any(|p| p.eq_ignore_ascii_case(s))
        && !directory(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_working_directory_is_no_password() {
        for path in [
            "/home/ana",
            "/home/ana/",
            "/root",
            "/var/www/app-1",
            "/Users/k.tanaka",
        ] {
            assert!(directory(path) && !password(path), "{path}");
        }
        for secret in [
            "/x9!kQ/z",
            "/homeless/a",
            "home/ana",
            "/home//ana",
            "/tmp/a b",
        ] {
            assert!(!directory(secret), "{secret}");
        }
        assert!(password("/x9!kQ/z"));
    }

    #[test]
    fn checks_ninos() {
        assert!(uk_nino("AB123456C"));
        assert!(uk_nino("ab 12 34 56 c"));
        assert!(!uk_nino("DA123456C"));
        assert!(!uk_nino("BG123456C"));
        assert!(!uk_nino("AB123456E"));
        assert!(!uk_nino("AO123456A"));
    }

    #[test]
    fn checks_uk_licences_and_registrations() {
        assert!(uk_driving_licence("MORGA753116SM9IJ"));
        assert!(uk_driving_licence("SMITH961102AB1CD"));
        assert!(uk_driving_licence("LI999962055SM9IJ"));
        assert!(!uk_driving_licence("MORGA713116SM9IJ"), "month 13");
        assert!(!uk_driving_licence("MO9GA753116SM9IJ"));
        assert!(!uk_driving_licence("99999753116SM9IJ"));
        assert!(uk_vehicle_registration("AB12 CDE"));
        assert!(uk_vehicle_registration("BD51SMR"));
        assert!(!uk_vehicle_registration("AB01 CDE"));
        assert!(!uk_vehicle_registration("AB45 CDE"));
    }

    #[test]
    fn checks_dates_and_times() {
        assert!(numeric_date("2024-03-14"));
        assert!(numeric_date("03/14/2024"));
        assert!(numeric_date("14.03.2024"));
        assert!(numeric_date("03/04/24"));
        assert!(!numeric_date("2024-13-14"));
        assert!(!numeric_date("33/33/2024"));
        assert!(!numeric_date("1.2"));
        for date in ["7/22", "22/7", "3/2019", "06/88", "2019/3", "12/8"] {
            assert!(short_numeric_date(date), "{date}");
        }
        for not_a_date in ["142/88", "90/60", "7/22/24", "7"] {
            assert!(!short_numeric_date(not_a_date), "{not_a_date}");
        }
        assert!(time_of_day("14:05"));
        assert!(time_of_day("9:30:59"));
        assert!(!time_of_day("24:00"));
        assert!(!time_of_day("12:75"));
    }

    #[test]
    fn checks_phones_and_secrets() {
        assert!(phone("+1 415-555-0132"));
        assert!(!phone("1234567"));
        assert!(!phone("555 5555"));
        assert!(!phone("12 34"));
        assert!(high_entropy("sk9Qe2LrX0vT7bPz1mN4"));
        assert!(!high_entropy("passwordpassword"));
        assert!(!high_entropy("aaaaaaaaaaaaaaaa1"));
        assert!(password("hunter2!x"));
        assert!(!password("********"));
        assert!(!password("${DB_PASSWORD}"));
        assert!(!password("abc"));
        assert!(!password("expired"));
        assert!(!password("missing"));
        assert!(!password("incorrect"));
        assert!(password("sunshine"));
        assert!(password("Expired2024"));
    }
}
