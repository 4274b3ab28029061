//! Overlap resolution: one result per region of text.
//!
//! Candidates at or above the threshold compete; the winner of a region is the validated
//! one, then the longer one, then the more confident one. A losing candidate with a
//! different label becomes the winner's alternative.

use super::{Candidate, Detection};

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
    let mut winners: Vec<Detection> = Vec::new();
    for candidate in &candidates {
        if candidate.score < threshold {
            continue;
        }
        if winners.iter().any(|w| w.span.overlaps(&candidate.span)) {
            continue;
        }
        winners.push(Detection {
            span: candidate.span,
            label: candidate.label,
            score: candidate.score,
            alternative: None,
        });
    }
    for candidate in &candidates {
        for winner in winners.iter_mut() {
            if winner.label != candidate.label && winner.span.overlaps(&candidate.span) {
                let better = winner
                    .alternative
                    .is_none_or(|(_, score)| candidate.score > score);
                if better {
                    winner.alternative = Some((candidate.label, candidate.score));
                }
            }
        }
    }
    winners.sort_by_key(|w| w.span.start);
    winners
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
}
