//! Detection: text in, labelled spans out.
//!
//! The engine runs the recognizers for the requested labels, scores candidates with
//! their context, resolves overlaps and applies the threshold. It knows nothing about
//! HTTP, JSON bodies, tenants, metrics or how entities get replaced.

pub mod context;
pub mod explain;
pub mod extra;
pub mod language;
pub mod lexicon;
mod match_bytes;
pub mod recognizer;
pub mod refine;
mod regions;
pub mod resolve;
pub mod scan_set;
pub mod tiers;
pub mod unread;
pub mod validators;

use std::fmt;

use crate::text::{ByteSpan, Label, LabelSet, Language};
pub use explain::{Basis, Explanation};
pub use extra::{Allow, AllowMatch, Extra};
pub use recognizer::{
    Candidate, PatternRecognizer, PatternSpec, Proof, RecognizeError, Recognizer, Trace,
};
pub use tiers::custom::{CustomPattern, CustomRecognizer, EngineOptions};
use tiers::ner::reading::Reading;
use tiers::{custom, dictionary, fields, names, ner, patterns};

/// Bytes of text from which a request's detection is spread over rayon's pool (tiers
/// side by side, the pattern set's shards in two halves): a fork-join costs some µs,
/// the rule tiers ~0.1 ms per KB.
const PARALLEL_MIN: usize = 8 << 10;

/// Whether `texts` hold enough text to spread their detection over rayon's pool.
pub(crate) fn large(texts: &[&str]) -> bool {
    texts.iter().map(|t| t.len()).sum::<usize>() >= PARALLEL_MIN
}

/// One detected entity, in byte offsets of the text it was found in.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    pub span: ByteSpan,
    pub label: Label,
    pub score: f32,
    /// The best competing label for the same region, if any recognizer proposed one.
    pub alternative: Option<(Label, f32)>,
    /// What backs the span: an exact one (a checksum, a grammar, the deny list) is
    /// exactly the entity, whatever other tiers proposed around it.
    pub proof: Proof,
    /// Who proposed it and which rules corrected it.
    pub trace: Trace,
}

/// Why the engine could not be built (a bad built-in or configured recognizer).
#[derive(Debug)]
pub struct BuildError {
    recognizer: String,
    reason: String,
}

impl BuildError {
    pub(crate) fn new(recognizer: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            recognizer: recognizer.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "recognizer {}: {}", self.recognizer, self.reason)
    }
}

impl std::error::Error for BuildError {}

/// Why detection failed: a tier could not run (the model failed or timed out). Carries
/// the tier and a runtime message, never text. Nothing was detected: callers must not
/// fall back to the other tiers' results, which could let personal data through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectError {
    tier: &'static str,
    message: String,
}

impl DetectError {
    pub(crate) fn new(tier: &'static str, message: impl Into<String>) -> Self {
        Self {
            tier,
            message: message.into(),
        }
    }

    /// The tier that failed (`model`, …).
    pub fn tier(&self) -> &'static str {
        self.tier
    }
}

impl fmt::Display for DetectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "detection tier {} failed: {}", self.tier, self.message)
    }
}

impl std::error::Error for DetectError {}

/// The detection engine: an immutable set of recognizers, shared by all requests.
pub struct Engine {
    recognizers: Vec<Box<dyn Recognizer>>,
    supported: LabelSet,
    allow: custom::AllowList,
    rules: refine::Switches,
}

impl Engine {
    /// The engine with every built-in recognizer.
    ///
    /// # Errors
    /// If a built-in pattern fails to compile — a bug, caught by the registry tests.
    pub fn builtin() -> Result<Engine, BuildError> {
        Ok(Engine::from_recognizers(Self::builtin_recognizers()?))
    }

    /// The built-in recognizers (patterns, dictionaries, name rules), for callers that
    /// add their own (the model tier) before [`Engine::from_recognizers`].
    ///
    /// # Errors
    /// If a built-in pattern or list fails to build — a bug, caught by the registry tests.
    pub fn builtin_recognizers() -> Result<Vec<Box<dyn Recognizer>>, BuildError> {
        Self::rule_recognizers(names::NameRecognizer::new())
    }

    /// Loads a model tier as the engine reads with it: a model that takes the casing bit
    /// is read a second time where [`refine::second_reading::POLICY`] says.
    ///
    /// # Errors
    /// As [`ner::NerRecognizer::load`].
    pub fn model_tier(settings: &ner::ModelSettings) -> Result<ner::NerRecognizer, BuildError> {
        Ok(ner::NerRecognizer::load(settings)?.with_second_reading(refine::second_reading::POLICY))
    }

    /// The built-in rule tiers to run beside a NER model: the name rules keep only what
    /// the model does not do better ([`names::NameRecognizer::beside_model`]).
    ///
    /// # Errors
    /// As [`Engine::builtin_recognizers`].
    pub fn builtin_recognizers_beside_model() -> Result<Vec<Box<dyn Recognizer>>, BuildError> {
        Self::rule_recognizers(names::NameRecognizer::beside_model())
    }

    fn rule_recognizers(
        names: names::NameRecognizer,
    ) -> Result<Vec<Box<dyn Recognizer>>, BuildError> {
        Ok(vec![
            Box::new(PatternRecognizer::new(patterns::ALL)?),
            Box::new(dictionary::DictionaryRecognizer::new(dictionary::ALL)?),
            Box::new(names),
        ])
    }

    /// The built-in recognizers plus the configured ones (`detection:` in the config:
    /// allow list, deny list, extra patterns).
    ///
    /// # Errors
    /// If a configured pattern does not compile (settings validation catches this
    /// first, with the config path) or a built-in fails.
    pub fn from_options(options: &EngineOptions) -> Result<Engine, BuildError> {
        Self::with_options(Self::builtin_recognizers()?, options)
    }

    /// `recognizers` (e.g. the built-ins plus a model tier) with the configured ones.
    ///
    /// # Errors
    /// If a configured pattern does not compile.
    pub fn with_options(
        mut recognizers: Vec<Box<dyn Recognizer>>,
        options: &EngineOptions,
    ) -> Result<Engine, BuildError> {
        if !options.patterns.is_empty() {
            recognizers.push(Box::new(custom::CustomRecognizer::new(&options.patterns)?));
        }
        if !options.deny_list.is_empty() {
            recognizers.push(Box::new(dictionary::DictionaryRecognizer::deny_list(
                &options.deny_list,
            )?));
        }
        let mut engine = Engine::from_recognizers(recognizers);
        engine.allow = custom::AllowList::new(&options.allow_list);
        Ok(engine)
    }

    pub fn from_recognizers(recognizers: Vec<Box<dyn Recognizer>>) -> Engine {
        let supported = LabelSet::new(
            recognizers
                .iter()
                .flat_map(|r| r.labels().iter().copied())
                .collect(),
        );
        Engine {
            recognizers,
            supported,
            allow: custom::AllowList::default(),
            rules: refine::Switches::default(),
        }
    }

    /// Labels some recognizer of this engine can emit.
    pub fn supported_labels(&self) -> &LabelSet {
        &self.supported
    }

    /// Names of the loaded detection tiers, for `/readyz` and `/v1/entities`.
    pub fn tiers(&self) -> Vec<&'static str> {
        let mut tiers: Vec<&'static str> = Vec::new();
        for tier in self.recognizers.iter().map(|r| r.tier()) {
            if !tiers.contains(&tier) {
                tiers.push(tier);
            }
        }
        tiers
    }

    /// The models loaded by the model tier(s), in configuration order.
    pub fn models(&self) -> Vec<&ner::ModelIdentity> {
        self.recognizers.iter().filter_map(|r| r.model()).collect()
    }

    /// The labels the model tier(s) can produce; a request for none of them never runs a
    /// model.
    pub fn model_labels(&self) -> LabelSet {
        LabelSet::new(
            self.recognizers
                .iter()
                .filter(|r| r.model().is_some())
                .flat_map(|r| r.labels().iter().copied())
                .collect(),
        )
    }

    /// What the model tier(s) have run so far, summed (all zero without a model).
    pub fn model_stats(&self) -> ner::PoolStats {
        let mut sum = ner::PoolStats::default();
        for s in self.recognizers.iter().filter_map(|r| r.model_stats()) {
            sum.passes += s.passes;
            sum.windows += s.windows;
            sum.tokens += s.tokens;
            sum.padding += s.padding;
            sum.seconds += s.seconds;
            sum.reread += s.reread;
        }
        sum
    }

    /// Detects entities of `labels` in `text` with confidence `>= threshold`: one
    /// [`Engine::detect_many`] call.
    ///
    /// # Errors
    /// As `detect_many`.
    pub fn detect(
        &self,
        text: &str,
        labels: &LabelSet,
        threshold: f32,
    ) -> Result<Vec<Detection>, DetectError> {
        let found = self.detect_many(&[text], labels, threshold)?;
        Ok(found.into_iter().next().unwrap_or_default())
    }

    /// Detects entities of `labels` with confidence `>= threshold` in every text of
    /// `texts`; result `i` belongs to `texts[i]`. Each recognizer sees all texts at once,
    /// so the model tier runs their windows in shared forward passes.
    ///
    /// Each result is sorted by start offset and free of overlaps.
    ///
    /// # Errors
    /// A tier failed: nothing is returned for any text (fail closed).
    pub fn detect_many(
        &self,
        texts: &[&str],
        labels: &LabelSet,
        threshold: f32,
    ) -> Result<Vec<Vec<Detection>>, DetectError> {
        let languages = self.languages(texts, labels, None);
        self.detect_with(texts, &languages, labels, threshold, None)
    }

    /// Whether a model tier runs for `labels`: what makes a request cost milliseconds
    /// instead of microseconds, so the server runs it off its event loop.
    pub fn runs_model(&self, labels: &LabelSet) -> bool {
        self.active(labels).any(|r| r.model().is_some())
    }

    /// The recognizers that run for `labels`: those producing any of them.
    fn active<'e>(&'e self, labels: &'e LabelSet) -> impl Iterator<Item = &'e dyn Recognizer> {
        self.recognizers
            .iter()
            .map(|r| r.as_ref())
            .filter(|r| r.labels().iter().any(|l| labels.contains(*l)))
    }

    /// Each text's language ([`language::of_each`]) when a recognizer that would run for
    /// `labels` reads texts by their language; otherwise only the hint (detection costs a
    /// pass over each text's opening, which a request for pattern labels or a rules-only
    /// log route need not pay).
    pub fn languages(
        &self,
        texts: &[&str],
        labels: &LabelSet,
        hint: Option<Language>,
    ) -> Vec<Option<Language>> {
        if self.active(labels).any(|r| !r.languages().is_all()) {
            language::of_each(texts, hint)
        } else {
            vec![hint; texts.len()]
        }
    }

    /// [`Engine::detect_many`] with one call's additions: its recognizers run beside the
    /// engine's, and its allow list, context words and thresholds apply to all.
    /// `languages[i]` is the language of `texts[i]` ([`Engine::languages`]).
    ///
    /// # Errors
    /// As `detect_many`.
    pub fn detect_with(
        &self,
        texts: &[&str],
        languages: &[Option<Language>],
        labels: &LabelSet,
        threshold: f32,
        extra: Option<&Extra>,
    ) -> Result<Vec<Vec<Detection>>, DetectError> {
        use rayon::prelude::*;
        let mut proposals = self.propose(texts, languages, labels)?;
        if let Some(extra) = extra {
            for recognizer in &extra.recognizers {
                for (text, proposal) in texts.iter().zip(proposals.iter_mut()) {
                    let mut found = Vec::new();
                    recognizer.recognize(text, labels, &mut found);
                    proposal.parts.push(Part::Found(false, found));
                }
            }
        }
        let settled = |(text, mut proposal): (&&str, Proposal)| {
            let fields = proposal.fields.take();
            let mut found = proposal.into_corrected(text, labels, &self.rules);
            let Some(extra) = extra else {
                return self.settle(text, labels, threshold, found, &self.rules, fields.as_ref());
            };
            extra.adjust(text, labels, &mut found);
            let lowest = extra.lowest_threshold(threshold);
            let mut settled =
                self.settle(text, labels, lowest, found, &self.rules, fields.as_ref());
            settled.retain(|d| extra.keeps(d, threshold));
            settled
        };
        Ok(if texts.len() > 1 && large(texts) {
            texts.par_iter().zip(proposals).map(settled).collect()
        } else {
            texts.iter().zip(proposals).map(settled).collect()
        })
    }

    /// What the tiers propose for every text of `texts`, uncorrected: [`Proposal::corrected`]
    /// and [`Engine::settle`] make detections of it, with any rules switched off. A
    /// recognizer scoped to some languages sees only the texts whose `languages[i]` it
    /// admits.
    ///
    /// # Errors
    /// A tier failed: nothing is returned for any text (fail closed).
    pub fn propose(
        &self,
        texts: &[&str],
        languages: &[Option<Language>],
        labels: &LabelSet,
    ) -> Result<Vec<Proposal>, DetectError> {
        let active: Vec<&dyn Recognizer> = self.active(labels).collect();
        // What one recognizer proposes in each of `texts`: its reading where it has one.
        let parts =
            |recognizer: &dyn Recognizer, model: bool, texts: &[&str], known: &[Vec<ByteSpan>]| {
                if let Some(read) = recognizer.read_many(texts, labels, known) {
                    return read.map(|r| r.into_iter().map(Part::Read).collect::<Vec<_>>());
                }
                let mut found = vec![Vec::new(); texts.len()];
                recognizer
                    .recognize_many(texts, labels, &mut found)
                    .map(|()| found.into_iter().map(|f| Part::Found(model, f)).collect())
            };
        let run = |recognizer: &&dyn Recognizer, known: &[Vec<ByteSpan>]| {
            let scope = recognizer.languages();
            let model = recognizer.tier() == ner::TIER;
            let read = if scope.is_all() {
                parts(*recognizer, model, texts, known)
            } else {
                let admitted: Vec<usize> = (0..texts.len())
                    .filter(|&i| scope.admits(languages.get(i).copied().flatten()))
                    .collect();
                let some: Vec<&str> = admitted.iter().map(|&i| texts[i]).collect();
                let known: Vec<Vec<ByteSpan>> = (admitted.iter())
                    .map(|&i| known.get(i).cloned().unwrap_or_default())
                    .collect();
                parts(*recognizer, model, &some, &known).map(|read| {
                    let mut all = vec![Part::Found(model, Vec::new()); texts.len()];
                    for (i, part) in admitted.into_iter().zip(read) {
                        all[i] = part;
                    }
                    all
                })
            };
            read.map_err(|e| {
                let error = DetectError::new(recognizer.tier(), e.to_string());
                tracing::warn!(%error, texts = texts.len(), "detection failed");
                error
            })
        };
        let mut results: Vec<Option<Result<Vec<Part>, DetectError>>> =
            active.iter().map(|_| None).collect();
        // The rule tiers that prove values the model need not read run first; the
        // spans of each text are what all of them found and its log machinery, from the
        // scan of its fields that `settle` reads too.
        let mut scans: Vec<Option<fields::Scan>> = vec![None; texts.len()];
        let known: Vec<Vec<ByteSpan>> = if active.iter().any(|r| r.tier() == ner::TIER) {
            for (recognizer, slot) in active.iter().zip(results.iter_mut()) {
                let proves = recognizer.tier() != ner::TIER
                    && (recognizer.labels().iter())
                        .any(|&l| labels.contains(l) && unread::labels().contains(l));
                if proves {
                    *slot = Some(run(recognizer, &[]));
                }
            }
            let proved: Vec<&Vec<Part>> = results.iter().flatten().flatten().collect();
            (0..texts.len())
                .zip(scans.iter_mut())
                .map(|(i, scan)| {
                    let found = proved.iter().filter_map(|parts| match parts.get(i) {
                        Some(Part::Found(_, found)) => Some(found),
                        _ => None,
                    });
                    unread::spans(found.flatten(), labels, scan.insert(fields::scan(texts[i])))
                })
                .collect()
        } else {
            Vec::new()
        };
        let run = |recognizer: &&dyn Recognizer| run(recognizer, &known);
        if active.len() > 1 && large(texts) {
            // A large request's rule tiers run side by side on rayon's pool, which the
            // pattern tier's halves share, so the cores do not wait on the one tier in
            // progress. A model tier runs on this thread: it waits for its own inference
            // threads, and must not hold one of the pool's while it does.
            rayon::in_place_scope(|scope| {
                // The fields of the texts, which `settle` reads, are scanned beside the
                // tiers: with one large text, this thread would scan them alone after.
                if scans.iter().any(Option::is_none) {
                    let scans = &mut scans;
                    scope.spawn(move |_| {
                        use rayon::prelude::*;
                        (texts.par_iter().zip(scans.par_iter_mut()))
                            .for_each(|(text, scan)| *scan = Some(fields::scan(text)));
                    });
                }
                let mut here = Vec::new();
                for (recognizer, slot) in active.iter().zip(results.iter_mut()) {
                    if slot.is_some() {
                        continue;
                    } else if recognizer.tier() == ner::TIER {
                        here.push((recognizer, slot));
                    } else {
                        let run = &run;
                        scope.spawn(move |_| *slot = Some(run(recognizer)));
                    }
                }
                for (recognizer, slot) in here {
                    *slot = Some(run(recognizer));
                }
            });
        } else {
            for (recognizer, slot) in active.iter().zip(results.iter_mut()) {
                if slot.is_none() {
                    *slot = Some(run(recognizer));
                }
            }
        }
        let mut proposals: Vec<Proposal> = (scans.into_iter())
            .map(|fields| Proposal {
                parts: Vec::new(),
                fields,
            })
            .collect();
        for (recognizer, parts) in active.iter().zip(results) {
            let parts =
                parts.unwrap_or_else(|| Err(DetectError::new(recognizer.tier(), "did not run")))?;
            for (proposal, part) in proposals.iter_mut().zip(parts) {
                proposal.parts.push(part);
            }
        }
        Ok(proposals)
    }

    /// One text's detections from the tiers' candidates `found`: fields (its `fields`
    /// scan, when done before), the allow list, overlaps and the threshold settled, then
    /// the resolved-detection rules of `switches`.
    pub fn settle(
        &self,
        text: &str,
        labels: &LabelSet,
        threshold: f32,
        mut found: Vec<Candidate>,
        switches: &refine::Switches,
        fields: Option<&fields::Scan>,
    ) -> Vec<Detection> {
        match fields {
            Some(scan) => fields::apply_scan(text, scan, labels, &mut found),
            None => fields::apply(text, labels, &mut found),
        }
        found.retain(|c| {
            labels.contains(c.label)
                // Spans from any recognizer (a model tier too) are checked, never trusted.
                && c.span.start < c.span.end
                && text.is_char_boundary(c.span.start)
                && text.is_char_boundary(c.span.end)
                && !self.allow.contains(&text[c.span.start..c.span.end])
        });
        let found = resolve::resolve(text, found, threshold);
        refine::resolved(text, labels, found, switches)
    }
}

/// One text's candidates as the tiers proposed them, tier by tier.
#[derive(Debug, Clone, Default)]
pub struct Proposal {
    /// In recognizer order.
    parts: Vec<Part>,
    /// The text's fields, when scanned while the tiers ran ([`Engine::settle`] reads
    /// them).
    fields: Option<fields::Scan>,
}

/// What one tier proposed in one text.
#[derive(Debug, Clone)]
enum Part {
    /// Its candidates, and whether it is a model tier (the model-span rules correct them).
    Found(bool, Vec<Candidate>),
    /// How the model read the text: the reading rules correct its entities, then the
    /// model-span rules its candidates.
    Read(Reading),
}

impl Proposal {
    /// The text's fields, when they were scanned while the tiers ran.
    pub fn fields(&self) -> Option<&fields::Scan> {
        self.fields.as_ref()
    }

    /// The candidates, the model tier's corrected by the model-span rules of `switches`;
    /// the proposal stays, to be corrected again with other rules (`eval --by-rule`).
    pub fn corrected(
        &self,
        text: &str,
        labels: &LabelSet,
        switches: &refine::Switches,
    ) -> Vec<Candidate> {
        self.clone().into_corrected(text, labels, switches)
    }

    /// [`Proposal::corrected`], consuming the proposal.
    pub fn into_corrected(
        self,
        text: &str,
        labels: &LabelSet,
        switches: &refine::Switches,
    ) -> Vec<Candidate> {
        let mut out = Vec::new();
        for part in self.parts {
            match part {
                Part::Found(false, found) => out.extend(found),
                Part::Found(true, found) => {
                    out.extend(refine::model_candidates(text, labels, found, switches));
                }
                Part::Read(mut reading) => {
                    refine::read(text, &mut reading, switches);
                    let mut found = Vec::new();
                    reading.candidates(text, labels, &mut found);
                    out.extend(refine::model_candidates(text, labels, found, switches));
                }
            }
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests;
