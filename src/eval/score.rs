//! Scores: per-label exact-match precision/recall/F1, overlap recall, and label-agnostic
//! character recall/precision.

use std::collections::BTreeMap;

/// A labelled code-point span.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub label: String,
}

#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
}

impl Counts {
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Everything accumulated over a corpus.
#[derive(Debug, Default)]
pub struct Score {
    pub per_label: BTreeMap<String, Counts>,
    pub gold_spans: usize,
    pub gold_overlapped: usize,
    pub gold_chars: usize,
    pub gold_chars_covered: usize,
    pub pred_chars: usize,
    pub pred_chars_correct: usize,
    /// Predicted characters inside spans excluded from scoring (TAB `NO_MASK`).
    pub pred_chars_neutral: usize,
    /// Per gold label: its spans' characters, and how many of them any prediction covers
    /// (where the label-agnostic character recall is lost).
    pub label_chars: BTreeMap<String, CharCounts>,
}

/// Gold characters of one label, and those covered by a prediction.
#[derive(Debug, Default, Clone, Copy)]
pub struct CharCounts {
    pub gold: usize,
    pub covered: usize,
}

impl CharCounts {
    pub fn recall(&self) -> f64 {
        ratio(self.covered, self.gold)
    }
}

impl Score {
    /// Adds one document: `gold` spans to find, `neutral` spans that are neither right
    /// nor wrong to mask, and the engine's `predicted` spans.
    pub fn add(&mut self, gold: &[Span], neutral: &[Span], predicted: &[Span], text_len: usize) {
        for g in gold {
            let hit = predicted.iter().any(|p| p == g);
            let counts = self.per_label.entry(g.label.clone()).or_default();
            if hit {
                counts.tp += 1;
            } else {
                counts.fn_ += 1;
            }
            self.gold_spans += 1;
            if predicted.iter().any(|p| p.start < g.end && g.start < p.end) {
                self.gold_overlapped += 1;
            }
        }
        for p in predicted {
            if !gold.contains(p) {
                self.per_label.entry(p.label.clone()).or_default().fp += 1;
            }
        }
        let mut in_gold = vec![false; text_len];
        let mut in_neutral = vec![false; text_len];
        let mut in_pred = vec![false; text_len];
        for (spans, mask) in [
            (gold, &mut in_gold),
            (neutral, &mut in_neutral),
            (predicted, &mut in_pred),
        ] {
            for s in spans {
                for flag in mask.iter_mut().take(s.end.min(text_len)).skip(s.start) {
                    *flag = true;
                }
            }
        }
        for g in gold {
            let chars = self.label_chars.entry(g.label.clone()).or_default();
            let span = g.start.min(text_len)..g.end.min(text_len);
            chars.gold += span.len();
            chars.covered += in_pred[span].iter().filter(|&&p| p).count();
        }
        for i in 0..text_len {
            self.gold_chars += usize::from(in_gold[i]);
            self.gold_chars_covered += usize::from(in_gold[i] && in_pred[i]);
            self.pred_chars += usize::from(in_pred[i]);
            self.pred_chars_correct += usize::from(in_pred[i] && in_gold[i]);
            self.pred_chars_neutral += usize::from(in_pred[i] && !in_gold[i] && in_neutral[i]);
        }
    }

    /// Micro-averaged counts over `labels`.
    pub fn micro(&self, labels: &[String]) -> Counts {
        let mut total = Counts::default();
        for (label, c) in &self.per_label {
            if labels.contains(label) {
                total.tp += c.tp;
                total.fp += c.fp;
                total.fn_ += c.fn_;
            }
        }
        total
    }

    pub fn overlap_recall(&self) -> f64 {
        ratio(self.gold_overlapped, self.gold_spans)
    }
    pub fn char_recall(&self) -> f64 {
        ratio(self.gold_chars_covered, self.gold_chars)
    }
    pub fn char_precision(&self) -> f64 {
        ratio(self.pred_chars_correct, self.pred_chars)
    }
    /// Character precision when characters of neutral spans are left out.
    pub fn char_precision_without_neutral(&self) -> f64 {
        ratio(
            self.pred_chars_correct,
            self.pred_chars - self.pred_chars_neutral,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(start: usize, end: usize, label: &str) -> Span {
        Span {
            start,
            end,
            label: label.into(),
        }
    }

    #[test]
    fn exact_overlap_and_character_scores() {
        let mut score = Score::default();
        let gold = [s(0, 4, "PERSON"), s(10, 14, "LOCATION")];
        let predicted = [
            s(0, 4, "PERSON"),
            s(11, 14, "LOCATION"),
            s(20, 22, "PERSON"),
        ];
        score.add(&gold, &[s(20, 21, "X")], &predicted, 30);
        let person = score.per_label["PERSON"];
        assert_eq!((person.tp, person.fp, person.fn_), (1, 1, 0));
        let location = score.per_label["LOCATION"];
        assert_eq!((location.tp, location.fp, location.fn_), (0, 1, 1));
        assert_eq!(score.overlap_recall(), 1.0);
        assert_eq!(score.char_recall(), 7.0 / 8.0);
        assert_eq!(score.char_precision(), 7.0 / 9.0);
        assert_eq!(score.char_precision_without_neutral(), 7.0 / 8.0);
        let location_chars = score.label_chars["LOCATION"];
        assert_eq!((location_chars.gold, location_chars.covered), (4, 3));
        assert_eq!(score.label_chars["PERSON"].recall(), 1.0);
        let micro = score.micro(&["PERSON".into(), "LOCATION".into()]);
        assert_eq!((micro.tp, micro.fp, micro.fn_), (1, 2, 1));
    }
}
