//! Geographic coordinates: a latitude and longitude precise enough to find a house (four
//! decimals are about ten metres). Mobile and IoT logs carry them, and a prompt may give
//! one for "where I live". With hemisphere letters or degree signs the text says what
//! it is; a bare pair of decimals needs a word near it, since two numbers in range may
//! be any measurement.

use crate::engine::{PatternSpec, Proof};

/// A bare decimal pair `37.7749, -122.4194`: latitude up to 90, longitude up to 180, each
/// with four or more decimals. Weak alone; a word such as "lat", "gps", "location" or
/// "live" near it makes it a coordinate (`location=51.5074,-0.1278`).
pub(super) const COORDINATES_DECIMAL: PatternSpec = PatternSpec {
    name: "coordinates_decimal",
    label: "COORDINATES",
    regex: r"[-+]?\b\d{1,2}\.\d{4,}\s?,\s?[-+]?\d{1,3}\.\d{4,}\b",
    score: 0.4,
    validate: Some(latitude_longitude),
    context: &[
        "lat",
        "lng",
        "lon",
        "latitude",
        "longitude",
        "latlng",
        "gps",
        "coordinates",
        "coords",
        "location",
        "located",
        "position",
        "geo",
        "map",
        "maps",
        "live",
        "lives",
        "address",
        "pin",
    ],
    examples: &[
        ("I live at 37.7749, -122.4194 if you", "37.7749, -122.4194"),
        ("location=51.5074,-0.1278 status=200", "51.5074,-0.1278"),
        ("GPS fix: -33.8688, 151.2093", "-33.8688, 151.2093"),
    ],
    counter_examples: &[
        "The rate was 1.2345, then 2.3456.",
        "location=95.1234,10.5678",
        "scores 12.3456, 45.6789 and 3.1",
    ],
    ..PatternSpec::BASE
};

/// Degree/minute/second parts (`40°26'46"`), one hemisphere's worth.
macro_rules! dms {
    () => {
        r#"°\s?\d{1,2}(?:\.\d+)?['′’](?:\s?\d{1,2}(?:\.\d+)?(?:["″”]|''))?"#
    };
}

/// Coordinates with their hemisphere letters, in decimal degrees or degrees, minutes and
/// seconds: `40°26'46"N 79°58'56"W`, `48.8584° N, 2.2945° E`, `33.8688S 151.2093E`. The
/// letters make the grammar whole (`Grammar`); each part needs a degree sign or a
/// decimal point, so "12 N 5 E" is none.
pub(super) const COORDINATES_HEMISPHERE: PatternSpec = PatternSpec {
    name: "coordinates_hemisphere",
    label: "COORDINATES",
    regex: concat!(
        r"\b\d{1,2}(?:\.\d+\s?°?|",
        dms!(),
        r"|°)\s?[NS]\b,?\s?\d{1,3}(?:\.\d+\s?°?|",
        dms!(),
        r"|°)\s?[EW]\b"
    ),
    score: 0.85,
    proof: Proof::Grammar,
    validate: Some(hemispheres),
    negative_context: &[],
    examples: &[
        (r#"GPS: 40°26'46"N 79°58'56"W."#, r#"40°26'46"N 79°58'56"W"#),
        ("at 48.8584° N, 2.2945° E today", "48.8584° N, 2.2945° E"),
        ("found at 33.8688S 151.2093E", "33.8688S 151.2093E"),
    ],
    counter_examples: &[
        "Flight 12 N 5 E",
        "rotate 95.5° N, 10.2° E",
        "Gate 4 N, 12 E",
    ],
    ..PatternSpec::BASE
};

/// Both parts in range: |latitude| ≤ 90, |longitude| ≤ 180.
fn latitude_longitude(s: &str) -> bool {
    let mut parts = s.split(',').map(|p| p.trim().parse::<f64>());
    match (parts.next(), parts.next()) {
        (Some(Ok(lat)), Some(Ok(lon))) => lat.abs() <= 90.0 && lon.abs() <= 180.0,
        _ => false,
    }
}

/// The leading degrees of each part in range (minutes and seconds are capped by the regex).
fn hemispheres(s: &str) -> bool {
    let degrees = |part: &str| -> Option<f64> {
        let number: String = part
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        number.parse().ok()
    };
    let Some(split) = s.find(['N', 'S']) else {
        return false;
    };
    let (lat, lon) = s.split_at(split + 1);
    let lon = lon.trim_start_matches([',', ' ']);
    matches!((degrees(lat), degrees(lon)), (Some(a), Some(o)) if a <= 90.0 && o <= 180.0)
}
