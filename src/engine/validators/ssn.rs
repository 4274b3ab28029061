//! US SSN and ITIN structure (SSA "SSN randomization" rules; IRS ITIN ranges).
//! Neither has a check digit; the rules reject numbers that are never issued.

fn parts(s: &str) -> Option<(u32, u32, u32)> {
    let d = super::digits(s);
    if d.len() != 9 {
        return None;
    }
    let n = |r: std::ops::Range<usize>| d[r].iter().fold(0, |a, x| a * 10 + x);
    Some((n(0..3), n(3..5), n(5..9)))
}

/// An issuable SSN not among the well-known examples (078-05-1120, 123-45-6789) and no
/// one repeated digit: what a number found without its cue must be.
pub fn ssn(s: &str) -> bool {
    let compact: String = s.chars().filter(char::is_ascii_digit).collect();
    issuable(s)
        && compact != "078051120"
        && compact != "123456789"
        && !compact.bytes().all(|c| c == compact.as_bytes()[0])
}

/// Area not 000, 666 or 9xx; group not 00; serial not 0000.
pub fn issuable(s: &str) -> bool {
    let Some((area, group, serial)) = parts(s) else {
        return false;
    };
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

/// ITIN: 9xx-(50–65, 70–88, 90–92, 94–99)-xxxx.
pub fn itin(s: &str) -> bool {
    let Some((area, group, _)) = parts(s) else {
        return false;
    };
    (900..=999).contains(&area) && matches!(group, 50..=65 | 70..=88 | 90..=92 | 94..=99)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_ssns() {
        assert!(ssn("536-22-1234"));
        assert!(ssn("536 22 1234"));
        assert!(!ssn("000-22-1234"));
        assert!(!ssn("666-22-1234"));
        assert!(!ssn("936-22-1234"));
        assert!(!ssn("536-00-1234"));
        assert!(!ssn("536-22-0000"));
        assert!(!ssn("123-45-6789"));
        assert!(!ssn("111-11-1111"));
        assert!(issuable("123-45-6789"));
        assert!(!issuable("000-12-3456"));
    }

    #[test]
    fn checks_itins() {
        assert!(itin("912-70-1234"));
        assert!(itin("999-94-0000"));
        assert!(!itin("912-93-1234"));
        assert!(!itin("812-70-1234"));
    }
}
