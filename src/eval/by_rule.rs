//! `anonymizer eval --by-rule`: what each corrective rule adds and removes on a corpus.
//! The tiers run once; each rule is then switched off in turn and the detections settled
//! again, so the model's cost is paid once, not once per rule.

use serde::Serialize;

use super::{Report, Run};
use crate::engine::refine::{rules, Switches};
use crate::engine::Proposal;

/// One rule's effect: the corpus scored with every rule against without this one.
#[derive(Debug, Serialize)]
pub(super) struct Effect {
    rule: &'static str,
    stage: &'static str,
    /// Detections only there with the rule (spans, labels).
    adds: usize,
    /// Detections only there without it.
    removes: usize,
    /// Detections there either way (span and label) with another confidence.
    rescores: usize,
    /// With the rule minus without it, micro over the gold labels.
    tp: i64,
    fp: i64,
    fn_: i64,
    f1: f64,
    character_recall: f64,
    character_precision: f64,
}

/// The effect of every rule that `switches` runs, against `all` (the report with them).
pub(super) fn effects(
    run: &Run<'_>,
    proposals: &[Proposal],
    switches: &Switches,
    all: &Report,
) -> Vec<Effect> {
    let micro = all.score.micro(&all.scored_labels);
    let mut out = Vec::new();
    for rule in rules() {
        let Some(without) = switches.without_also(rule.name) else {
            continue;
        };
        let found = run.detections(proposals, &without);
        let totals = run.totals(&found);
        let (mut adds, mut removes, mut rescores) = (0, 0, 0);
        for (with, without) in all.found.iter().zip(&found) {
            let key = |d: &crate::engine::Detection| (d.span, d.label);
            for d in with {
                match without.iter().find(|w| key(w) == key(d)) {
                    None => adds += 1,
                    Some(w) if w.score != d.score => rescores += 1,
                    Some(_) => {}
                }
            }
            removes += without
                .iter()
                .filter(|w| !with.iter().any(|d| key(w) == key(d)))
                .count();
        }
        let off = totals.score.micro(&all.scored_labels);
        let delta = |a: usize, b: usize| a as i64 - b as i64;
        out.push(Effect {
            rule: rule.name,
            stage: rule.stage().as_str(),
            adds,
            removes,
            rescores,
            tp: delta(micro.tp, off.tp),
            fp: delta(micro.fp, off.fp),
            fn_: delta(micro.fn_, off.fn_),
            f1: micro.f1() - off.f1(),
            character_recall: all.score.char_recall() - totals.score.char_recall(),
            character_precision: all.score.char_precision() - totals.score.char_precision(),
        });
    }
    out
}

pub(super) fn render(effects: &[Effect]) -> String {
    use std::fmt::Write;
    let mut out =
        String::from("\nby rule (with the rule minus without it; adds/removes: detections)\n");
    let _ = writeln!(
        out,
        "{:<28} {:<8} {:>5} {:>7} {:>8} {:>5} {:>5} {:>5} {:>8} {:>8} {:>8}",
        "rule",
        "stage",
        "adds",
        "removes",
        "rescores",
        "tp",
        "fp",
        "fn",
        "f1",
        "chr rec",
        "chr prec"
    );
    for e in effects {
        let _ = writeln!(
            out,
            "{:<28} {:<8} {:>5} {:>7} {:>8} {:>+5} {:>+5} {:>+5} {:>+8.4} {:>+8.4} {:>+8.4}",
            e.rule,
            e.stage,
            e.adds,
            e.removes,
            e.rescores,
            e.tp,
            e.fp,
            e.fn_,
            e.f1,
            e.character_recall,
            e.character_precision
        );
    }
    out
}
