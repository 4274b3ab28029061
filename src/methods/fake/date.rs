//! Dates shifted by a whole number of days, keeping their format: `2024-03-09`,
//! `09/03/2024`, `3/9/24`, `9.3.2024`, `9 March 2024`, `Mar 9th, 2024`, `March 2024`.
//! A time after the date is kept as it is; a time alone (`10:30`, `23:05:59`) becomes
//! another valid time of the same shape. Anything else is not recognised (`None`) and
//! gets the generic fake.
//!
//! Day arithmetic uses the proleptic Gregorian calendar (Howard Hinnant's
//! `days_from_civil` / `civil_from_days`).

use std::sync::OnceLock;

use regex::Regex;

use super::data::MONTHS;

struct Formats {
    iso: Regex,
    numeric: Regex,
    day_month: Regex,
    month_day: Regex,
    month_year: Regex,
    time: Regex,
}

fn formats() -> &'static Formats {
    static F: OnceLock<Formats> = OnceLock::new();
    F.get_or_init(|| {
        // Built-in literal patterns: a failure is a bug every test would show.
        let re = |p: &str| Regex::new(p).expect("valid date regex");
        Formats {
            iso: re(r"(?s)^(\d{4})([-/.])(\d{1,2})([-/.])(\d{1,2})(.*)$"),
            numeric: re(r"(?s)^(\d{1,2})([-/.])(\d{1,2})([-/.])(\d{4}|\d{2})(.*)$"),
            day_month: re(r"(?s)^(\d{1,2})(st|nd|rd|th)?(\s+)([A-Za-z]+)(\.?,?\s+)(\d{4})(.*)$"),
            month_day: re(r"(?s)^([A-Za-z]+)(\.?\s+)(\d{1,2})(st|nd|rd|th)?(,?\s+)(\d{4})(.*)$"),
            month_year: re(r"^([A-Za-z]+)(\.?,?\s+)(\d{4})$"),
            time: re(r"(?s)^(\d{1,2}):(\d{2})(:\d{2})?(.*)$"),
        }
    })
}

/// `original` shifted by `days`, in its own format; `None` when not a date we know.
pub fn shift(original: &str, days: i64) -> Option<String> {
    let f = formats();
    if let Some(c) = f.iso.captures(original) {
        if c[2] != c[4] {
            return None;
        }
        let (y, m, d) = shifted(num(&c[1])?, num(&c[3])?, num(&c[5])?, days)?;
        return Some(format!(
            "{y:04}{}{}{}{}{}",
            &c[2],
            width(m, &c[3], true),
            &c[4],
            width(d, &c[5], true),
            &c[6]
        ));
    }
    if let Some(c) = f.numeric.captures(original) {
        if c[2] != c[4] {
            return None;
        }
        let (a, b) = (num(&c[1])?, num(&c[3])?);
        // Month first only when it must be (b > 12) or for `/` with both ≤ 12 (US use).
        let month_first = a <= 12 && (b > 12 || &c[2] == "/");
        let (m, d) = if month_first { (a, b) } else { (b, a) };
        let short_year = c[5].len() == 2;
        let year = num(&c[5])?;
        let full_year = match short_year {
            true if year < 70 => 2000 + year,
            true => 1900 + year,
            false => year,
        };
        let (y, m2, d2) = shifted(full_year, m, d, days)?;
        let year_text = match short_year {
            true => format!("{:02}", y.rem_euclid(100)),
            false => format!("{y:04}"),
        };
        let fixed = c[1].len() == 2 && c[3].len() == 2;
        let (first, second) = if month_first {
            (width(m2, &c[1], fixed), width(d2, &c[3], fixed))
        } else {
            (width(d2, &c[1], fixed), width(m2, &c[3], fixed))
        };
        return Some(format!(
            "{first}{}{second}{}{year_text}{}",
            &c[2], &c[4], &c[6]
        ));
    }
    if let Some(c) = f.day_month.captures(original) {
        let (month, long) = month(&c[4])?;
        let (y, m, d) = shifted(num(&c[6])?, month, num(&c[1])?, days)?;
        let ordinal = c.get(2).map(|_| ordinal(d)).unwrap_or("");
        return Some(format!(
            "{}{ordinal}{}{}{}{y:04}{}",
            width(d, &c[1], false),
            &c[3],
            month_name(m, long),
            &c[5],
            &c[7]
        ));
    }
    if let Some(c) = f.month_day.captures(original) {
        let (month, long) = month(&c[1])?;
        let (y, m, d) = shifted(num(&c[6])?, month, num(&c[3])?, days)?;
        let ordinal = c.get(4).map(|_| ordinal(d)).unwrap_or("");
        return Some(format!(
            "{}{}{}{ordinal}{}{y:04}{}",
            month_name(m, long),
            &c[2],
            width(d, &c[3], false),
            &c[5],
            &c[7]
        ));
    }
    if let Some(c) = f.month_year.captures(original) {
        let (month, long) = month(&c[1])?;
        // Mid-month, so the shift moves the month as often as a day would.
        let (y, m, _) = shifted(num(&c[3])?, month, 15, days)?;
        return Some(format!("{}{}{y:04}", month_name(m, long), &c[2]));
    }
    if let Some(c) = f.time.captures(original) {
        let (h, min) = (num(&c[1])?, num(&c[2])?);
        if h > 23 || min > 59 {
            return None;
        }
        // Shift by the offset in minutes (days would leave the time unchanged).
        let total = (h * 60 + min + days * 7).rem_euclid(24 * 60);
        let seconds = c.get(3).map_or("", |m| m.as_str());
        return Some(format!(
            "{}:{:02}{seconds}{}",
            width(total / 60, &c[1], true),
            total % 60,
            &c[4]
        ));
    }
    None
}

fn num(s: &str) -> Option<i64> {
    s.parse().ok()
}

/// Zero-padded to two digits when the original was fixed-width (`03`, or `31/12` where
/// both fields have two digits); otherwise as short as possible (`3`, `31st`).
fn width(value: i64, original: &str, fixed: bool) -> String {
    if original.starts_with('0') || (fixed && original.len() == 2) {
        format!("{value:02}")
    } else {
        value.to_string()
    }
}

fn ordinal(day: i64) -> &'static str {
    match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// Month number and whether the name was spelt out in full.
fn month(name: &str) -> Option<(i64, bool)> {
    for (i, full) in MONTHS.iter().enumerate() {
        if full.eq_ignore_ascii_case(name) {
            return Some((i as i64 + 1, true));
        }
        if name.len() == 3 && full[..3].eq_ignore_ascii_case(name) {
            return Some((i as i64 + 1, false));
        }
    }
    None
}

fn month_name(month: i64, long: bool) -> &'static str {
    let full = MONTHS[(month - 1).clamp(0, 11) as usize];
    match long {
        true => full,
        false => &full[..3],
    }
}

fn shifted(y: i64, m: i64, d: i64, days: i64) -> Option<(i64, i64, i64)> {
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    let (y, m, d) = civil_from_days(days_from_civil(y, m, d) + days);
    (1..=9999).contains(&y).then_some((y, m, d))
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm);
/// also what AWS signatures' timestamps are read and written with.
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The (year, month, day) of a day since 1970-01-01.
pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::shift;

    #[test]
    fn shifts_keep_the_format() {
        let cases = [
            ("2024-03-09", 30, Some("2024-04-08")),
            ("2024-02-28T10:00:00Z", 1, Some("2024-02-29T10:00:00Z")),
            ("09.03.2024", -9, Some("29.02.2024")),
            ("3/9/24", 1, Some("3/10/24")),
            ("31/12/1999", 1, Some("01/01/2000")),
            ("9 March 2024", 1, Some("10 March 2024")),
            ("Mar 31st, 2024", 1, Some("Apr 1st, 2024")),
            ("2024-13-01", 1, None),
            ("10:30", 1, Some("10:37")),
            ("23:58:01 UTC", 1, Some("00:05:01 UTC")),
            ("9:05", 1, Some("9:12")),
            ("March 2024", 20, Some("April 2024")),
            ("99:30", 1, None),
            ("yesterday", 1, None),
        ];
        for (input, days, want) in cases {
            assert_eq!(shift(input, days).as_deref(), want, "{input}");
        }
    }
}
