//! Overlap resolution: one result per region of text.
//!
//! Candidates at or above the threshold compete; the winner of a region is the validated
//! one (a checksum passed, or a deny-list entry), then the longer one, then the more
//! confident one. A losing candidate with a different label becomes the winner's
//! alternative. Then adjacent parts of one thing merge:
//!
//! ```text
//! "Mr" "John Smith"            PERSON + PERSON          → PERSON "Mr John Smith"
//! "10 Downing Street, London"  ADDRESS + ", " + LOCATION → ADDRESS
//! "London SW1A 2AA"            LOCATION + UK_POSTCODE    → ADDRESS
//! "3 March 2024 at 14:05"      DATE_TIME + " at " + DATE_TIME → DATE_TIME
//! ```

use std::collections::BTreeMap;

use super::{Candidate, Detection};
use crate::text::Label;

pub fn resolve(mut candidates: Vec<Candidate>, threshold: f32) -> Vec<Detection> {
    // Highest priority first: validated, longer, more confident, then leftmost for determinism.
    candidates.sort_by(|a, b| {
        b.validated
            .cmp(&a.validated)
            .then(b.span.len().cmp(&a.span.len()))
            .then(b.score.total_cmp(&a.score))
            .then(a.span.start.cmp(&b.span.start))
            .then(a.label.cmp(&b.label))
    });
    // Winners never overlap each other, so keyed by start they are also sorted by end:
    // the winners overlapping [s, e) are the ones just before `e`, walking back while
    // their end is past `s`. That keeps resolution O(n log n) on texts with thousands of
    // candidates.
    let mut winners: BTreeMap<usize, Detection> = BTreeMap::new();
    for candidate in &candidates {
        if candidate.score < threshold || candidate.span.is_empty() {
            continue;
        }
        let span = candidate.span;
        let blocked = winners
            .range(..span.end)
            .next_back()
            .is_some_and(|(_, w)| w.span.end > span.start);
        if blocked {
            continue;
        }
        winners.insert(
            span.start,
            Detection {
                span,
                label: candidate.label,
                score: candidate.score,
                alternative: None,
            },
        );
    }
    for candidate in &candidates {
        let span = candidate.span;
        for (_, winner) in winners.range_mut(..span.end.max(span.start + 1)).rev() {
            if winner.span.end <= span.start {
                break;
            }
            if winner.label != candidate.label {
                let better = winner
                    .alternative
                    .is_none_or(|(_, score)| candidate.score > score);
                if better {
                    winner.alternative = Some((candidate.label, candidate.score));
                }
            }
        }
    }
    winners.into_values().collect()
}

/// What two neighbours separated by `gap` become, if they are parts of one thing.
fn merged_label(left: Label, gap: &str, right: Label) -> Option<Label> {
    let spaces = !gap.is_empty() && gap.len() <= 2 && gap.chars().all(|c| c == ' ');
    let comma = matches!(gap, ", " | "," | " ");
    match (left.as_str(), right.as_str()) {
        ("PERSON", "PERSON") if spaces => Some(left),
        ("ADDRESS", "ADDRESS" | "UK_POSTCODE" | "LOCATION") if comma => Some(left),
        ("LOCATION", "UK_POSTCODE") if comma => Some(Label::builtin("ADDRESS")),
        ("DATE_TIME", "DATE_TIME") if comma || matches!(gap, " at " | ", at " | "T") => Some(left),
        _ => None,
    }
}

/// Merges adjacent parts of one entity (see the module docs). `detections` must be
/// sorted and non-overlapping, as [`resolve`] returns them; so is the result.
pub fn merge_adjacent(text: &str, detections: Vec<Detection>) -> Vec<Detection> {
    let mut out: Vec<Detection> = Vec::with_capacity(detections.len());
    for d in detections {
        if let Some(prev) = out.last_mut() {
            let gap = text.get(prev.span.end..d.span.start).unwrap_or("\n");
            if let Some(label) = merged_label(prev.label, gap, d.label) {
                if label != prev.label {
                    prev.alternative = Some((prev.label, prev.score));
                    prev.label = label;
                }
                prev.span.end = d.span.end;
                prev.score = prev.score.max(d.score);
                continue;
            }
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{ByteSpan, Label};

    fn cand(start: usize, end: usize, label: &str, score: f32, validated: bool) -> Candidate {
        Candidate {
            span: ByteSpan::new(start, end),
            label: Label::builtin(label),
            score,
            validated,
        }
    }

    #[test]
    fn validated_beats_longer_and_loser_becomes_alternative() {
        let out = resolve(
            vec![
                cand(0, 19, "PHONE_NUMBER", 0.6, false),
                cand(0, 16, "CREDIT_CARD", 0.9, true),
            ],
            0.5,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].label, Label::builtin("CREDIT_CARD"));
        assert_eq!(
            out[0].alternative,
            Some((Label::builtin("PHONE_NUMBER"), 0.6))
        );
    }

    #[test]
    fn longer_beats_contained_and_confidence_breaks_ties() {
        let out = resolve(
            vec![
                cand(0, 6, "LOCATION", 0.9, false),
                cand(0, 20, "ORGANIZATION", 0.75, false),
                cand(30, 35, "PERSON", 0.6, false),
                cand(30, 35, "LOCATION", 0.7, false),
            ],
            0.5,
        );
        let labels: Vec<&str> = out.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(labels, ["ORGANIZATION", "LOCATION"]);
        assert_eq!(out[1].alternative, Some((Label::builtin("PERSON"), 0.6)));
    }

    #[test]
    fn below_threshold_is_dropped_and_output_is_sorted() {
        let out = resolve(
            vec![
                cand(10, 12, "URL", 0.9, false),
                cand(0, 5, "URL", 0.9, false),
                cand(20, 25, "US_SSN", 0.3, false),
            ],
            0.5,
        );
        let starts: Vec<usize> = out.iter().map(|d| d.span.start).collect();
        assert_eq!(starts, vec![0, 10]);
    }

    #[test]
    fn adjacent_parts_merge() {
        let text =
            "Ana Ruiz lives at 10 Downing Street, London SW1A 2AA since 3 March 2024 at 14:05";
        let at = |s: &str| text.find(s).expect("in text");
        let span = |s: &str, label: &str| cand(at(s), at(s) + s.len(), label, 0.8, false);
        let out = merge_adjacent(
            text,
            resolve(
                vec![
                    span("Ana", "PERSON"),
                    span("Ruiz", "PERSON"),
                    span("10 Downing Street", "ADDRESS"),
                    span("London", "LOCATION"),
                    span("SW1A 2AA", "UK_POSTCODE"),
                    span("3 March 2024", "DATE_TIME"),
                    span("14:05", "DATE_TIME"),
                ],
                0.5,
            ),
        );
        let got: Vec<(&str, &str)> = out
            .iter()
            .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("Ana Ruiz", "PERSON"),
                ("10 Downing Street, London SW1A 2AA", "ADDRESS"),
                ("3 March 2024 at 14:05", "DATE_TIME"),
            ]
        );
    }
}
