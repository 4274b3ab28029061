//! What a call's policy does with what was found: replace it (`anonymize`), refuse
//! the whole call (`block`), or leave it in place and only report it (`monitor`, to
//! tune a policy before enforcing it). Per label, with a default for the rest.

use std::fmt;

use crate::engine::Detection;
use crate::text::Label;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Action {
    #[default]
    Anonymize,
    Block,
    Monitor,
}

impl Action {
    pub const ALL: &'static [Action] = &[Action::Anonymize, Action::Block, Action::Monitor];

    pub fn as_str(&self) -> &'static str {
        match self {
            Action::Anonymize => "anonymize",
            Action::Block => "block",
            Action::Monitor => "monitor",
        }
    }

    pub fn parse(name: &str) -> Option<Action> {
        Action::ALL
            .iter()
            .copied()
            .find(|a| a.as_str().eq_ignore_ascii_case(name))
    }
}

/// The action of each label: its own where one is set, else the default.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Actions {
    pub default: Action,
    pub by_label: Vec<(Label, Action)>,
}

impl Actions {
    pub fn of(&self, label: Label) -> Action {
        self.by_label
            .iter()
            .find(|(l, _)| *l == label)
            .map_or(self.default, |(_, a)| *a)
    }

    /// Whether every label is monitored: nothing of the call will change.
    pub fn only_monitor(&self) -> bool {
        self.default == Action::Monitor && self.by_label.iter().all(|(_, a)| *a == Action::Monitor)
    }

    /// # Errors
    /// [`Blocked`] with the count of each blocked label found, when there is one.
    pub fn check(&self, detections: &[Vec<Detection>]) -> Result<(), Blocked> {
        if self.default != Action::Block && self.by_label.iter().all(|(_, a)| *a != Action::Block) {
            return Ok(());
        }
        let mut counts: Vec<(Label, u64)> = Vec::new();
        for d in detections.iter().flatten() {
            if self.of(d.label) != Action::Block {
                continue;
            }
            match counts.iter_mut().find(|(l, _)| *l == d.label) {
                Some((_, n)) => *n += 1,
                None => counts.push((d.label, 1)),
            }
        }
        if counts.is_empty() {
            return Ok(());
        }
        counts.sort();
        Err(Blocked(counts))
    }
}

/// A call refused by its policy: each blocked label found, with its count (never the
/// texts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked(pub Vec<(Label, u64)>);

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the policy blocks texts with ")?;
        for (i, (label, n)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{label} ({n})")?;
        }
        Ok(())
    }
}

impl From<Blocked> for super::AnonymizeError {
    fn from(b: Blocked) -> Self {
        super::AnonymizeError::Blocked(b)
    }
}
