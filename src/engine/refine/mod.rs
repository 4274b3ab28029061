//! Corrections of what the tiers propose. Every corrective rule is one row of the
//! registry ([`rules`]): its name, its stage, the labels it touches, why it exists, and
//! examples and counter-examples that one test checks. Rules can be switched off by
//! name ([`Switches`]) to measure what each one does (`anonymizer eval --by-rule`).
//!
//! The stages run in the order of [`STAGES`]; within a stage, rows run in the order of
//! their stage's list. The first stage corrects the model tier's reading of a whole
//! text with what its tokens show, before its entities are merged and labelled; the
//! next three correct the model tier's spans, one span at a time, before they meet the
//! other tiers' candidates; the last three correct the resolved detections of a whole
//! text.

mod ages_beside_names;
mod aliases;
mod constant_names;
mod greetings;
mod identifier_names;
mod languages;
mod lower_case;
pub mod merge;
pub mod model_spans;
mod name_lists;
mod public_bodies;
mod resolved;
pub mod second_reading;
mod technologies;

use std::fmt;
use std::sync::LazyLock;

use crate::engine::tiers::ner::reading::Reading;
use crate::engine::{Candidate, Detection, Proof};
use crate::text::{ByteSpan, Label, LabelSet};

/// What a rule does, and to what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Corrects the model's entities of a whole text with what its tokens and a second
    /// reading show ("rick astley": a surname the vocabulary does not know whole).
    Read,
    /// Cuts a model span that names two into its parts ("Jason & Michelle").
    Split,
    /// Moves a model span's edges, or rejects it as naming no one.
    Shape,
    /// Gives a model span the label its words say; the first rule that applies wins.
    Relabel,
    /// Drops a resolved detection that names no one.
    Drop,
    /// Joins adjacent resolved detections that are parts of one entity.
    Merge,
    /// Adds detections the tiers missed, from what the resolved ones say.
    Add,
}

/// The stages in the order they run.
pub const STAGES: [Stage; 7] = [
    Stage::Read,
    Stage::Split,
    Stage::Shape,
    Stage::Relabel,
    Stage::Drop,
    Stage::Merge,
    Stage::Add,
];

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Split => "split",
            Stage::Shape => "shape",
            Stage::Relabel => "relabel",
            Stage::Drop => "drop",
            Stage::Merge => "merge",
            Stage::Add => "add",
        }
    }
}

/// A rule's effect, by stage. Model-span rules see the span and its label; `None` from a
/// split or relabel rule means it does not apply.
#[derive(Clone, Copy)]
pub enum Action {
    /// The spans of the reading's entities the rule added or moved.
    Read(fn(&str, &mut Reading) -> Vec<ByteSpan>),
    Split(fn(&str, ByteSpan) -> Option<Vec<ByteSpan>>),
    /// The new span; `None` when nothing of it is left.
    Reshape(fn(&str, ByteSpan, Label) -> Option<ByteSpan>),
    /// Whether the span names no one.
    Reject(fn(&str, ByteSpan, Label) -> bool),
    Relabel(fn(&str, ByteSpan, Label) -> Option<Label>),
    /// Whether the detection names no one.
    Drop(fn(&str, &Detection) -> bool),
    /// The label of two neighbours `(left, gap, right)` made one, if they are parts of one.
    Join(fn(&str, &Detection, &str, &Detection) -> Option<Label>),
    /// Whether the right neighbour is part of the left one's entity but no entity itself.
    Absorb(fn(&str, &Detection, &str, &Detection) -> bool),
    /// The text's detections with those the rule finds added, their trace left empty
    /// (the registry fills in the rule's name).
    Add(fn(&str, &LabelSet, Vec<Detection>) -> Vec<Detection>),
}

/// One example of a rule at work, checked by the registry test.
///
/// Model-span rules: `span` is the first occurrence of the span in `text` read as
/// `label`; `expect` is the span's text afterwards (`""`: rejected), its parts joined by
/// `" | "` (split), or its new label (relabel). Drop rules: `expect` is `""` for a
/// dropped detection and the span itself for a kept one. Merge and add rules: `span`
/// lists the input detections as `text:LABEL` joined by `" | "`, `expect` the output the
/// same way. Reading rules: `span` lists the first reading's entities that way, then
/// `" || "` and the second reading's; `expect` the first reading's entities afterwards;
/// the tokens are the shipped English model's.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    pub text: &'static str,
    pub span: &'static str,
    pub label: &'static str,
    pub expect: &'static str,
}

/// An [`Example`]: `(text, span, label, expect)`.
const fn ex(
    text: &'static str,
    span: &'static str,
    label: &'static str,
    expect: &'static str,
) -> Example {
    Example {
        text,
        span,
        label,
        expect,
    }
}

/// One corrective rule.
#[derive(Clone, Copy)]
pub struct Rule {
    pub name: &'static str,
    /// The labels of the spans it looks at (empty: every label).
    pub labels: &'static [&'static str],
    /// Why it exists, in one line.
    pub reason: &'static str,
    pub action: Action,
    pub examples: &'static [Example],
    pub counter_examples: &'static [Example],
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule")
            .field("name", &self.name)
            .field("stage", &self.stage())
            .finish_non_exhaustive()
    }
}

impl Rule {
    /// A row: its name, the labels it touches, why it exists, what it does, and its
    /// examples and counter-examples.
    const fn new(
        name: &'static str,
        labels: &'static [&'static str],
        reason: &'static str,
        action: Action,
        examples: &'static [Example],
        counter_examples: &'static [Example],
    ) -> Rule {
        Rule {
            name,
            labels,
            reason,
            action,
            examples,
            counter_examples,
        }
    }

    /// The stage its action belongs to.
    pub fn stage(&self) -> Stage {
        match self.action {
            Action::Read(_) => Stage::Read,
            Action::Split(_) => Stage::Split,
            Action::Reshape(_) | Action::Reject(_) => Stage::Shape,
            Action::Relabel(_) => Stage::Relabel,
            Action::Drop(_) => Stage::Drop,
            Action::Join(_) | Action::Absorb(_) => Stage::Merge,
            Action::Add(_) => Stage::Add,
        }
    }

    fn touches(&self, label: Label) -> bool {
        self.labels.is_empty() || self.labels.contains(&label.as_str())
    }
}

/// Every rule, stage by stage in [`STAGES`] order.
pub fn rules() -> &'static [Rule] {
    static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
        let mut all = Vec::new();
        for stage in STAGES {
            let rows: &[Rule] = match stage {
                Stage::Read => lower_case::READ,
                Stage::Split => model_spans::SPLIT,
                Stage::Shape => model_spans::SHAPE,
                Stage::Relabel => model_spans::RELABEL,
                Stage::Drop => resolved::DROP,
                Stage::Merge => merge::MERGE,
                Stage::Add => resolved::ADD,
            };
            all.extend_from_slice(rows);
        }
        all
    });
    &RULES
}

/// Which rules run: all by default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switches {
    on: Vec<bool>,
}

impl Default for Switches {
    fn default() -> Self {
        Self {
            on: vec![true; rules().len()],
        }
    }
}

impl Switches {
    /// All rules but those named.
    ///
    /// # Errors
    /// A name no rule has.
    pub fn without(names: &[&str]) -> Result<Switches, String> {
        let mut switches = Switches::default();
        for name in names {
            let at = rules()
                .iter()
                .position(|r| r.name == *name)
                .ok_or_else(|| format!("no rule is named {name:?}"))?;
            switches.on[at] = false;
        }
        Ok(switches)
    }

    /// These switches with `name` off too; `None` when it is off already or unknown.
    pub fn without_also(&self, name: &str) -> Option<Switches> {
        let at = rules().iter().position(|r| r.name == name)?;
        self.on[at].then(|| {
            let mut off = self.clone();
            off.on[at] = false;
            off
        })
    }

    /// The rows that run, in order.
    fn active(&self) -> impl Iterator<Item = &'static Rule> + '_ {
        rules()
            .iter()
            .zip(&self.on)
            .filter(|(_, on)| **on)
            .map(|(r, _)| r)
    }

    fn of(&self, stage: Stage) -> impl Iterator<Item = &'static Rule> + '_ {
        self.active().filter(move |r| r.stage() == stage)
    }
}

/// The model tier's candidates, split, shaped and relabelled, each with the rules that
/// did so in its trace; those left with a label outside `wanted` go.
pub fn model_candidates(
    text: &str,
    wanted: &LabelSet,
    proposed: Vec<Candidate>,
    switches: &Switches,
) -> Vec<Candidate> {
    let mut out = Vec::with_capacity(proposed.len());
    for c in proposed {
        let mut split_by = Vec::new();
        for part in split(text, c.span, c.label, switches, &mut split_by) {
            let mut rules = split_by.clone();
            let Some(span) = shape(text, part, c.label, switches, &mut rules) else {
                continue;
            };
            let label = relabel(text, span, c.label, switches, &mut rules);
            if wanted.contains(label) {
                let mut trace = c.trace.clone();
                trace.rules.extend(rules);
                out.push(Candidate {
                    span,
                    label,
                    trace,
                    ..c
                });
            }
        }
    }
    out
}

/// Runs the reading rules of `switches` on the model's reading of `text`, in order; each
/// span a rule added or moved is recorded with the rule's name for the traces.
pub fn read(text: &str, reading: &mut Reading, switches: &Switches) {
    for rule in switches.of(Stage::Read) {
        if let Action::Read(f) = rule.action {
            for span in f(text, reading) {
                reading.corrected.push((span, rule.name));
            }
        }
    }
}

/// The parts of a model span: those of the first split rule that applies (added to
/// `applied`), else the span.
pub fn split(
    text: &str,
    span: ByteSpan,
    label: Label,
    switches: &Switches,
    applied: &mut Vec<&'static str>,
) -> Vec<ByteSpan> {
    for rule in switches.of(Stage::Split).filter(|r| r.touches(label)) {
        if let Action::Split(f) = rule.action {
            if let Some(parts) = f(text, span) {
                applied.push(rule.name);
                return parts;
            }
        }
    }
    vec![span]
}

/// A model span after every shape rule in order (those that moved it added to
/// `applied`); `None` when one rejects it.
pub fn shape(
    text: &str,
    span: ByteSpan,
    label: Label,
    switches: &Switches,
    applied: &mut Vec<&'static str>,
) -> Option<ByteSpan> {
    let mut span = span;
    for rule in switches.of(Stage::Shape).filter(|r| r.touches(label)) {
        match rule.action {
            Action::Reshape(f) => {
                let moved = f(text, span, label)?;
                if moved != span {
                    applied.push(rule.name);
                }
                span = moved;
            }
            Action::Reject(f) if f(text, span, label) => return None,
            _ => {}
        }
    }
    Some(span)
}

/// A shaped model span's label: that of the first relabel rule that applies (added to
/// `applied` when it changes the label).
pub fn relabel(
    text: &str,
    span: ByteSpan,
    label: Label,
    switches: &Switches,
    applied: &mut Vec<&'static str>,
) -> Label {
    for rule in switches.of(Stage::Relabel).filter(|r| r.touches(label)) {
        if let Action::Relabel(f) = rule.action {
            if let Some(new) = f(text, span, label) {
                if new != label {
                    applied.push(rule.name);
                }
                return new;
            }
        }
    }
    label
}

/// A text's resolved detections after the drop, merge and add stages.
pub fn resolved(
    text: &str,
    labels: &LabelSet,
    mut found: Vec<Detection>,
    switches: &Switches,
) -> Vec<Detection> {
    for rule in switches.of(Stage::Drop) {
        found.retain(|d| !dropped_by(rule, text, d));
    }
    found = merge::merge_adjacent(text, found, switches);
    for rule in switches.of(Stage::Add) {
        if let Action::Add(f) = rule.action {
            found = f(text, labels, found);
            // What the rule added carries its name.
            for d in found.iter_mut().filter(|d| d.trace.tier.is_empty()) {
                d.trace = crate::engine::Trace::new("refine", rule.name);
            }
        }
    }
    found
}

/// Whether the drop rule `name` drops `detection`: one of the labels the rule touches, no
/// phrase of the operator's deny list (which no drop rule drops), and named no one by
/// the rule.
#[cfg(test)]
pub(crate) fn drops(name: &str, text: &str, detection: &Detection) -> bool {
    rules()
        .iter()
        .find(|r| r.name == name)
        .is_some_and(|rule| dropped_by(rule, text, detection))
}

fn dropped_by(rule: &Rule, text: &str, detection: &Detection) -> bool {
    match rule.action {
        Action::Drop(f) => {
            rule.touches(detection.label) && detection.proof != Proof::Listed && f(text, detection)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
