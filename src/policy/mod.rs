//! Per-call policy: what a request, a route or a tenant asks of detection and
//! replacement beyond one label set, threshold and method — per-label thresholds,
//! operators and actions, allow lists, request-time recognizers, context words and
//! decision traces.
//!
//! One JSON shape for every front door (`parse`): the `/v1` request's
//! `detection_config` and `anonymization_config`, a route's or tenant's `policy:` in
//! the config (the same fields side by side), and Presidio's `/analyze`. A [`Spec`] is
//! plain data; [`Spec::over`] lets a request refine a tenant's within what the tenant
//! allows; [`Spec::options`] compiles it (recognizers cached by content) into the
//! anonymizer's [`Options`].

mod compile;
mod parse;

pub use compile::{CompileError, Limits};
pub use parse::{from_config, parse_fields, Fields};

use crate::anonymizer::{Action, Options};
use crate::engine::AllowMatch;
use crate::methods::{Method, Operator};
use crate::text::{Label, LabelSet, Language};

/// One request-time recognizer, in Presidio's shape: regex patterns and a deny list
/// for one label (any UPPER_SNAKE_CASE name), with context words.
#[derive(Debug, Clone, PartialEq)]
pub struct AdHoc {
    pub name: String,
    pub label: Label,
    /// (name, regex, score).
    pub patterns: Vec<(String, String, f32)>,
    pub deny_list: Vec<String>,
    pub context: Vec<String>,
}

/// A policy as declared; `None` and empty mean "not said here".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Spec {
    pub entities: Option<LabelSet>,
    pub threshold: Option<f32>,
    pub thresholds: Vec<(Label, f32)>,
    pub method: Option<Method>,
    pub default_operator: Option<Operator>,
    pub operators: Vec<(Label, Operator)>,
    pub action: Option<Action>,
    pub actions: Vec<(Label, Action)>,
    pub allow_list: Vec<String>,
    pub allow_list_match: AllowMatch,
    pub recognizers: Vec<AdHoc>,
    pub context: Vec<String>,
    pub explain: bool,
    /// The language of the texts, when the caller knows it (else detected per text).
    pub language: Option<Language>,
}

/// What a request may change of its tenant's policy (all `true` unless the operator
/// says otherwise: `tenants.<name>.request_may` in the config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RequestMay {
    /// Set a threshold below the tenant's (or the service's).
    pub lower_threshold: bool,
    /// Leave out labels of the tenant's `entities`.
    pub drop_entities: bool,
    /// Set actions.
    pub change_actions: bool,
    /// Set the method or operators.
    pub change_operators: bool,
    /// Bring an allow list.
    pub allow: bool,
}

impl Default for RequestMay {
    fn default() -> Self {
        Self {
            lower_threshold: true,
            drop_entities: true,
            change_actions: true,
            change_operators: true,
            allow: true,
        }
    }
}

/// Each tenant's policy and what its requests may change, with the limits on what a
/// call may declare.
#[derive(Debug, Clone, Default)]
pub struct Policies {
    /// The service-wide policy (`policy:` in the config), under every tenant's.
    pub global: Spec,
    tenants: std::collections::HashMap<String, Tenant>,
    pub limits: Limits,
    /// The service's threshold, which a tenant without its own may forbid lowering.
    pub default_threshold: f32,
}

/// One tenant's policy, as declared and over the service-wide one (merged once, when the
/// configuration is read, not per request).
#[derive(Debug, Clone)]
pub struct Tenant {
    /// As declared: what refines a route's policy, which holds the service's already.
    pub own: Spec,
    /// Over the service-wide policy: what its `/v1` and Presidio calls start from.
    pub effective: Spec,
    pub may: RequestMay,
}

impl Policies {
    /// Adds `tenant`'s policy; `global` must be set first.
    pub fn add_tenant(&mut self, tenant: String, own: Spec, may: RequestMay) {
        let effective = if self.global.is_empty() {
            own.clone()
        } else {
            self.global
                .over(&own, RequestMay::default(), self.default_threshold)
                .unwrap_or_else(|_| own.clone())
        };
        self.tenants.insert(
            tenant,
            Tenant {
                own,
                effective,
                may,
            },
        );
    }

    pub fn of(&self, tenant: &str) -> Option<&Tenant> {
        self.tenants.get(tenant)
    }

    /// What a call of `tenant` asking `asked` gets: the service-wide policy, the
    /// tenant's over it, the request's over that within what the tenant allows.
    ///
    /// # Errors
    /// The fields the tenant does not let a request set.
    pub fn for_call(&self, tenant: &str, asked: &Spec) -> Result<Spec, Vec<Forbidden>> {
        match self.of(tenant) {
            Some(t) => t.effective.over(asked, t.may, self.default_threshold),
            None => self
                .global
                .over(asked, RequestMay::default(), self.default_threshold),
        }
    }
}

/// A field a request set that its tenant does not let it set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    pub field: &'static str,
    pub reason: &'static str,
}

/// An exact allow-list entry as the expression that matches what it matches.
fn as_regex(entry: &str) -> String {
    format!(r"(?i)^\s*{}\s*$", regex::escape(entry.trim()))
}

fn upsert<T: Copy>(into: &mut Vec<(Label, T)>, from: &[(Label, T)]) {
    for (label, value) in from {
        match into.iter_mut().find(|(l, _)| l == label) {
            Some(slot) => slot.1 = *value,
            None => into.push((*label, *value)),
        }
    }
}

impl Spec {
    /// The custom labels its recognizers declare.
    pub fn declared(&self) -> Vec<Label> {
        self.recognizers.iter().map(|r| r.label).collect()
    }

    /// Whether nothing is said here.
    pub fn is_empty(&self) -> bool {
        *self == Spec::default()
    }

    /// `request` refining `self` (a tenant's or route's policy, whose threshold is
    /// `default_threshold` where it sets none): what the request says wins where `may`
    /// lets it; its recognizers, allow entries and context words add to
    /// the base's.
    ///
    /// # Errors
    /// Every field the request set that `may` forbids.
    pub fn over(
        &self,
        request: &Spec,
        may: RequestMay,
        default_threshold: f32,
    ) -> Result<Spec, Vec<Forbidden>> {
        let mut forbidden = Vec::new();
        let mut out = self.clone();
        let threshold = self.threshold.unwrap_or(default_threshold);
        if let Some(t) = request.threshold {
            if !may.lower_threshold && t < threshold {
                forbidden.push(Forbidden {
                    field: "anonymization_config.threshold",
                    reason: "may not be lower than the tenant's threshold",
                });
            }
            out.threshold = Some(t);
        }
        for (label, t) in &request.thresholds {
            let base = self
                .thresholds
                .iter()
                .find(|(l, _)| l == label)
                .map_or(threshold, |(_, t)| *t);
            if !may.lower_threshold && *t < base {
                forbidden.push(Forbidden {
                    field: "detection_config.thresholds",
                    reason: "may not be lower than the tenant's threshold",
                });
            }
        }
        upsert(&mut out.thresholds, &request.thresholds);
        if let Some(entities) = &request.entities {
            if let (false, Some(base)) = (may.drop_entities, &self.entities) {
                if base.iter().any(|l| !entities.contains(l)) {
                    forbidden.push(Forbidden {
                        field: "detection_config.entities",
                        reason: "may not leave out a label of the tenant's policy",
                    });
                }
            }
            out.entities = Some(entities.clone());
        }
        let operators_set = request.method.is_some()
            || request.default_operator.is_some()
            || !request.operators.is_empty();
        if operators_set && !may.change_operators {
            forbidden.push(Forbidden {
                field: "anonymization_config.operators",
                reason: "the tenant's policy fixes the operators",
            });
        }
        out.method = request.method.or(out.method);
        out.default_operator = request.default_operator.or(out.default_operator);
        upsert(&mut out.operators, &request.operators);
        if (request.action.is_some() || !request.actions.is_empty()) && !may.change_actions {
            forbidden.push(Forbidden {
                field: "anonymization_config.action",
                reason: "the tenant's policy fixes the actions",
            });
        }
        out.action = request.action.or(out.action);
        upsert(&mut out.actions, &request.actions);
        if !request.allow_list.is_empty() {
            if !may.allow {
                forbidden.push(Forbidden {
                    field: "detection_config.allow_list",
                    reason: "the tenant's policy does not take allow lists from requests",
                });
            }
            match (self.allow_list_match, request.allow_list_match) {
                (base, asked) if base == asked => {
                    out.allow_list.extend(request.allow_list.iter().cloned());
                }
                // One list has one way of matching: exact entries become the
                // expressions that match what they match (whole, any case, spaces around).
                (AllowMatch::Exact, asked) => {
                    out.allow_list = out.allow_list.iter().map(|e| as_regex(e)).collect();
                    out.allow_list.extend(request.allow_list.iter().cloned());
                    out.allow_list_match = asked;
                }
                (_, _) => {
                    let asked = request
                        .allow_list
                        .iter()
                        .map(|e| match request.allow_list_match {
                            AllowMatch::Exact => as_regex(e),
                            _ => e.clone(),
                        });
                    out.allow_list.extend(asked);
                }
            }
        }
        out.recognizers.extend(request.recognizers.iter().cloned());
        out.context.extend(request.context.iter().cloned());
        out.explain |= request.explain;
        out.language = request.language.or(out.language);
        if forbidden.is_empty() {
            Ok(out)
        } else {
            Err(forbidden)
        }
    }

    /// The anonymizer's options for this policy, its recognizers compiled (or taken
    /// from the cache). `named` says the caller named the labels.
    ///
    /// # Errors
    /// A pattern or allow entry that does not compile, or limits exceeded.
    pub fn options(&self, limits: &Limits) -> Result<Options, CompileError> {
        let extra = compile::extra(self, limits)?;
        let actions = crate::anonymizer::Actions {
            default: self.action.unwrap_or_default(),
            by_label: self.actions.clone(),
        };
        Ok(Options {
            labels: self.entities.clone(),
            threshold: self.threshold,
            method: self.method,
            operators: self.operators.clone(),
            default_operator: self.default_operator,
            actions,
            extra,
            explain: self.explain,
            language: self.language,
        })
    }
}

#[cfg(test)]
mod tests;
