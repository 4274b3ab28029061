//! The use case both front doors share (the `/v1` API and, later, the proxy):
//! detect entities in a batch of texts, replace them, and restore texts from a map, a
//! session, or the `ENCRYPT` tokens themselves.
//!
//! Knows nothing about HTTP or JSON bodies; works on plain texts and typed options. It
//! is where methods, restore and sessions meet: it stores `methods::Memory` in a
//! `session::SessionStore` and opens tokens for `restore` with `methods::encrypt`.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arc_swap::ArcSwap;

use crate::engine::{DetectError, Detection, Engine, Explanation, Extra};
use crate::methods::{
    encrypt, KeyRing, Memory, MemoryFull, Method, Operator, Operators, Replacer, TenantKeys,
};
use crate::restore::{MapEntry, MapError, MatchMode, Restorer, TokenOpener};
use crate::session::{SessionKey, SessionState, SessionStore, StoreHealth, StoreUnavailable};
use crate::text::{CharIndex, CharSpan, Label, LabelSet, Language};

mod action;
mod json_slot;
mod typed_slot;

pub use action::{Action, Actions, Blocked};
pub use typed_slot::TextType;

/// Defaults applied when a request leaves an option out (from config).
#[derive(Debug, Clone)]
pub struct Defaults {
    pub labels: LabelSet,
    pub threshold: f32,
    pub method: Method,
}

/// Options of one anonymize call; `None` means "use the default".
#[derive(Clone, Default)]
pub struct Options {
    pub labels: Option<LabelSet>,
    pub threshold: Option<f32>,
    pub method: Option<Method>,
    /// Operators of single labels, over `method`.
    pub operators: Vec<(Label, Operator)>,
    /// The operator of every other label, over `method` (`DEFAULT` in a request).
    pub default_operator: Option<Operator>,
    /// What to do with what is found, per label and for the rest.
    pub actions: Actions,
    /// The call's own recognizers, allow list, context words and thresholds.
    pub extra: Option<Arc<Extra>>,
    /// Attach a decision trace to each entity.
    pub explain: bool,
    /// The language of every text, as the caller says (else detected per text).
    pub language: Option<Language>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("labels", &self.labels)
            .field("threshold", &self.threshold)
            .field("method", &self.method)
            .field("operators", &self.operators)
            .field("default_operator", &self.default_operator)
            .field("actions", &self.actions)
            .field("extra", &self.extra.is_some())
            .field("explain", &self.explain)
            .field("language", &self.language)
            .finish()
    }
}

impl Options {
    /// The operators of this call, `method` being the default's method when neither
    /// the call nor a default operator names one.
    fn operators(&self, method: Method) -> Operators {
        Operators {
            default: self
                .default_operator
                .unwrap_or_else(|| Operator::new(self.method.unwrap_or(method))),
            by_label: self.operators.clone(),
        }
    }
}

/// Who a call is for: the tenant (keys, sessions) and the optional session id.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub tenant: &'a str,
    pub session: Option<&'a str>,
}

impl<'a> Scope<'a> {
    pub fn tenant(tenant: &'a str) -> Self {
        Self {
            tenant,
            session: None,
        }
    }

    fn session_key(&self) -> Option<SessionKey> {
        self.session.map(|id| SessionKey::new(self.tenant, id))
    }
}

/// One replaced entity, in code-point offsets of `texts[text_index]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub text_index: usize,
    pub span: CharSpan,
    pub label: Label,
    pub text: String,
    pub confidence: f32,
    pub alternative: Option<(Label, f32)>,
    pub replacement: String,
    /// How it was replaced (`KEEP`: it was not).
    pub method: Method,
    /// What the call's policy did with it: `Monitor` leaves it in place.
    pub action: Action,
    /// Why it was detected, when the call asked.
    pub explanation: Option<Explanation>,
}

impl Entity {
    /// Whether its text was replaced (not kept by `KEEP` or left in place by `monitor`).
    pub fn replaced(&self) -> bool {
        self.method != Method::Keep
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Anonymized {
    pub texts: Vec<String>,
    /// Ordered by `(text_index, span.start)`.
    pub entities: Vec<Entity>,
    /// The language of each text (the caller's, or detected; `None`: not known).
    pub languages: Vec<Option<Language>>,
}

impl Anonymized {
    /// The map that restores these texts: one entry per distinct replacement, and none
    /// at all for a method that cannot be reversed. `MASK` gives two different e-mail
    /// addresses of one length the same `*****`, which no map can restore and which a
    /// restorer rightly refuses as ambiguous; `HASH` keeps the first text of a (48-bit)
    /// collision, as the memory does.
    pub fn restore_map(&self) -> Vec<MapEntry> {
        let mut seen = std::collections::HashSet::new();
        self.entities
            .iter()
            .filter(|e| e.method.is_reversible() && seen.insert(e.replacement.as_str()))
            .map(|e| MapEntry {
                original: e.text.clone(),
                anonymized: e.replacement.clone(),
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Deanonymized {
    pub texts: Vec<String>,
    /// `[LABEL:…]` tokens that did not open (tampered, another tenant's, stale key).
    pub failed_tokens: u64,
}

/// Why an anonymize call failed. Either way nothing was anonymized, so nothing of the
/// texts may be passed on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnonymizeError {
    /// The policy blocks calls carrying these labels; nothing was replaced or stored.
    Blocked(Blocked),
    /// The session's map holds its maximum number of entries.
    SessionFull,
    /// A detection tier failed (the model errored or timed out).
    DetectionFailed(DetectError),
    /// The request has a session and the session store could not be reached in time.
    SessionStoreUnavailable,
}

impl fmt::Display for AnonymizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnonymizeError::Blocked(b) => b.fmt(f),
            AnonymizeError::SessionFull => {
                f.write_str("the session holds its maximum number of entries")
            }
            AnonymizeError::DetectionFailed(e) => e.fmt(f),
            AnonymizeError::SessionStoreUnavailable => StoreUnavailable.fmt(f),
        }
    }
}

impl From<DetectError> for AnonymizeError {
    fn from(e: DetectError) -> Self {
        AnonymizeError::DetectionFailed(e)
    }
}

impl std::error::Error for AnonymizeError {}

impl From<StoreUnavailable> for AnonymizeError {
    fn from(_: StoreUnavailable) -> Self {
        AnonymizeError::SessionStoreUnavailable
    }
}

/// Why no restorer could be built.
#[derive(Debug)]
pub enum RestoreError {
    /// The given map is unusable (empty or ambiguous replacements).
    Map(MapError),
    /// The map was to come from the session, and the session store could not be reached
    /// in time: restoring with no map would return placeholders as if none were known.
    SessionStoreUnavailable,
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::Map(e) => e.fmt(f),
            RestoreError::SessionStoreUnavailable => StoreUnavailable.fmt(f),
        }
    }
}

impl std::error::Error for RestoreError {}

impl From<MapError> for RestoreError {
    fn from(e: MapError) -> Self {
        RestoreError::Map(e)
    }
}

impl From<StoreUnavailable> for RestoreError {
    fn from(_: StoreUnavailable) -> Self {
        RestoreError::SessionStoreUnavailable
    }
}

impl From<MemoryFull> for AnonymizeError {
    fn from(_: MemoryFull) -> Self {
        AnonymizeError::SessionFull
    }
}

/// A session's memory, as the session store sees it.
impl SessionState for Memory {
    fn with_capacity(max_entries: usize) -> Self {
        Memory::new(max_entries)
    }

    fn entry_count(&self) -> usize {
        self.len()
    }

    fn byte_size(&self) -> usize {
        Memory::byte_size(self)
    }

    fn to_bytes(&self) -> Vec<u8> {
        Memory::to_bytes(self)
    }

    fn revision(&self) -> u64 {
        Memory::revision(self)
    }

    fn from_bytes(bytes: &[u8], max_entries: usize) -> Option<Self> {
        Memory::from_bytes(bytes, max_entries)
    }
}

/// Opens `ENCRYPT` tokens of one tenant for the restorer.
struct TenantOpener(Arc<TenantKeys>);

impl TokenOpener for TenantOpener {
    fn open(&self, label: &str, payload: &str) -> Option<String> {
        encrypt::open(&self.0, label, payload)
    }

    fn max_payload_len(&self) -> usize {
        encrypt::MAX_PAYLOAD_CHARS
    }
}

pub struct Anonymizer {
    /// Swapped whole when the configuration is reloaded; a call keeps the one it began with.
    engine: ArcSwap<Engine>,
    defaults: ArcSwap<Defaults>,
    keys: KeyRing,
    sessions: Option<Arc<dyn SessionStore<Memory>>>,
    failed_tokens: AtomicU64,
    detection_failures: AtomicU64,
}

impl Anonymizer {
    /// An anonymizer with a generated master secret and no sessions; see
    /// [`Anonymizer::with_keys`] and [`Anonymizer::with_sessions`].
    pub fn new(engine: Arc<Engine>, defaults: Defaults) -> Self {
        Self {
            engine: ArcSwap::new(engine),
            defaults: ArcSwap::from_pointee(defaults),
            keys: KeyRing::new(None),
            sessions: None,
            failed_tokens: AtomicU64::new(0),
            detection_failures: AtomicU64::new(0),
        }
    }

    /// Uses `keys` (built from the configured master secret) for `HASH` and `ENCRYPT`.
    pub fn with_keys(mut self, keys: KeyRing) -> Self {
        self.keys = keys;
        self
    }

    /// Keeps sessions in `store`; without one, `X-Session-Id` is ignored.
    pub fn with_sessions(mut self, store: Arc<dyn SessionStore<Memory>>) -> Self {
        self.sessions = Some(store);
        self
    }

    /// The session store's kind and reachability, for `/readyz`; without a store,
    /// what a memory store would say.
    pub fn session_health(&self) -> StoreHealth {
        match &self.sessions {
            Some(store) => store.health(),
            None => StoreHealth {
                kind: "memory",
                reachable: true,
            },
        }
    }

    /// The engine in service now.
    pub fn engine(&self) -> Arc<Engine> {
        self.engine.load_full()
    }

    /// Serves `engine` and `defaults` from the next call on (a reloaded configuration).
    pub fn reload(&self, engine: Arc<Engine>, defaults: Defaults) {
        self.engine.store(engine);
        self.defaults.store(Arc::new(defaults));
    }

    pub fn keys(&self) -> &KeyRing {
        &self.keys
    }

    /// `ENCRYPT` tokens that failed to open, over the life of this anonymizer.
    pub fn failed_tokens_total(&self) -> u64 {
        self.failed_tokens.load(Ordering::Relaxed)
    }

    /// Anonymize calls refused because detection failed, over the life of this anonymizer.
    pub fn detection_failures_total(&self) -> u64 {
        self.detection_failures.load(Ordering::Relaxed)
    }

    /// Detects and replaces entities in `texts`.
    ///
    /// # Errors
    /// [`AnonymizeError::SessionFull`] when the scope's session cannot remember more,
    /// [`AnonymizeError::DetectionFailed`] when a detection tier failed.
    pub fn anonymize(
        &self,
        scope: &Scope<'_>,
        texts: &[String],
        options: &Options,
    ) -> Result<Anonymized, AnonymizeError> {
        self.anonymize_typed(scope, texts, &[], options)
    }

    /// [`Anonymizer::anonymize`] where `types[i]` says what `texts[i]` is (missing:
    /// free text), so that a typed value keeps its type.
    ///
    /// # Errors
    /// As [`Anonymizer::anonymize`].
    pub fn anonymize_typed(
        &self,
        scope: &Scope<'_>,
        texts: &[String],
        types: &[TextType],
        options: &Options,
    ) -> Result<Anonymized, AnonymizeError> {
        // Detection runs before any session lock is taken.
        let (detections, languages) = self.detect(texts, options)?;
        options.actions.check(&detections)?;
        let mut result = self.replace_detected(scope, texts, types, &detections, texts, options)?;
        result.languages = languages;
        if options.explain {
            let engine = self.engine.load();
            let extra = options.extra.as_deref();
            let found = texts
                .iter()
                .zip(&detections)
                .flat_map(|(text, found)| found.iter().map(move |d| (text.as_str(), d)));
            for (entity, (text, d)) in result.entities.iter_mut().zip(found) {
                entity.explanation = Some(engine.explain(text, d, extra));
            }
        }
        Ok(result)
    }

    /// What is detected in `texts` outside `kept[i]` (byte ranges of `texts[i]`): for
    /// answers, where `kept` are the values a restorer put back.
    ///
    /// # Errors
    /// When detection fails.
    pub fn detect_besides(
        &self,
        texts: &[String],
        kept: &[Vec<std::ops::Range<usize>>],
        options: &Options,
    ) -> Result<Vec<Vec<Detection>>, AnonymizeError> {
        let (mut detections, _) = self.detect(texts, options)?;
        for (found, kept) in detections.iter_mut().zip(kept) {
            found.retain(|d| {
                !kept
                    .iter()
                    .any(|k| k.start < d.span.end && d.span.start < k.end)
            });
        }
        Ok(detections)
    }

    /// Whether detecting with `options` runs a model (see [`Engine::runs_model`]).
    pub fn runs_model(&self, options: &Options) -> bool {
        let defaults = self.defaults.load();
        let labels = options.labels.as_ref().unwrap_or(&defaults.labels);
        self.engine.load().runs_model(labels)
    }

    /// Detection over all texts at once, so the model tier batches their windows; with
    /// the language each text was read as.
    #[allow(clippy::type_complexity)]
    fn detect(
        &self,
        texts: &[String],
        options: &Options,
    ) -> Result<(Vec<Vec<Detection>>, Vec<Option<Language>>), AnonymizeError> {
        let defaults = self.defaults.load();
        let labels = options.labels.as_ref().unwrap_or(&defaults.labels);
        let threshold = options.threshold.unwrap_or(defaults.threshold);
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let extra = options.extra.as_deref();
        // A call's own recognizers are asked for whatever its label set.
        let with_own;
        let labels = match extra {
            Some(extra) if extra.labels().any(|l| !labels.contains(l)) => {
                with_own = LabelSet::new(labels.iter().chain(extra.labels()).collect());
                &with_own
            }
            _ => labels,
        };
        let engine = self.engine.load();
        let languages = engine.languages(&refs, labels, options.language);
        let detections = engine
            .detect_with(&refs, &languages, labels, threshold, extra)
            .inspect_err(|_| {
                self.detection_failures.fetch_add(1, Ordering::Relaxed);
            })?;
        Ok((detections, languages))
    }

    /// Replaces `detections` in `texts`, in the scope's session when there is one;
    /// nothing found in `seen` (the texts, and for answers the request's replacements)
    /// is handed out as a replacement.
    ///
    /// # Errors
    /// As [`Anonymizer::anonymize`], less detection.
    pub fn replace_detected(
        &self,
        scope: &Scope<'_>,
        texts: &[String],
        types: &[TextType],
        detections: &[Vec<Detection>],
        seen: &[String],
        options: &Options,
    ) -> Result<Anonymized, AnonymizeError> {
        let operators = options.operators(self.defaults.load().method);
        let keys = self.keys.tenant(scope.tenant);
        let replacer = Replacer::new(&operators, &keys, seen);
        let inputs = Inputs {
            texts,
            types,
            detections,
            actions: &options.actions,
        };
        let replace_all = |memory: &mut Memory| replace_all(&replacer, memory, &inputs);
        match (&self.sessions, scope.session_key()) {
            (Some(store), Some(key)) if operators.any_remembered() => {
                let mut result = Err(AnonymizeError::SessionFull);
                store.update(&key, &mut |memory| result = replace_all(memory))?;
                result
            }
            _ => replace_all(&mut Memory::default()),
        }
    }

    /// A restorer for `scope`: `map` when given (and not empty), else the session's map,
    /// else none; `ENCRYPT` tokens of the tenant open in every case. The proxy feeds it
    /// to `restore::stream`.
    ///
    /// # Errors
    /// When `map` is unusable (empty or ambiguous replacements), or the session's map is
    /// needed and the store cannot be reached.
    pub fn restorer(
        &self,
        scope: &Scope<'_>,
        map: Option<&[MapEntry]>,
        mode: MatchMode,
    ) -> Result<Restorer, RestoreError> {
        let opener = Arc::new(TenantOpener(self.keys.tenant(scope.tenant)));
        let restorer = match (map, &self.sessions, scope.session_key()) {
            (Some(map), _, _) if !map.is_empty() => Restorer::with_mode(map, mode)?,
            (_, Some(store), Some(key)) => {
                let mut entries = Vec::new();
                store.read(&key, &mut |memory| {
                    entries = memory
                        .entries()
                        .map(|(original, anonymized)| MapEntry {
                            original: original.to_owned(),
                            anonymized: anonymized.to_owned(),
                        })
                        .collect();
                })?;
                Restorer::with_mode(&entries, mode)?
            }
            _ => Restorer::empty(),
        };
        Ok(restorer.with_opener(opener))
    }

    /// Restores `texts`; see [`Anonymizer::restorer`] for where the map comes from.
    ///
    /// # Errors
    /// As [`Anonymizer::restorer`].
    pub fn deanonymize(
        &self,
        scope: &Scope<'_>,
        texts: &[String],
        map: Option<&[MapEntry]>,
        mode: MatchMode,
    ) -> Result<Deanonymized, RestoreError> {
        let restorer = self.restorer(scope, map, mode)?;
        let texts = texts.iter().map(|t| restorer.restore(t)).collect();
        let failed_tokens = restorer.failed_tokens();
        self.failed_tokens
            .fetch_add(failed_tokens, Ordering::Relaxed);
        Ok(Deanonymized {
            texts,
            failed_tokens,
        })
    }
}

/// Attempts at pseudonyms that restore exactly before settling (see [`replace_all`]).
const PSEUDONYM_ATTEMPTS: usize = 8;

/// Replaces every detection. Pseudonyms are checked afterwards: a fake next to input
/// text can form another fake (`"1"` + fake `"11"` reads as fake `"11"` + `"1"`), so
/// when the outputs do not restore to the inputs with the memory's map, the request's
/// new fakes are dropped and drawn again.
fn replace_all(
    replacer: &Replacer<'_>,
    memory: &mut Memory,
    inputs: &Inputs<'_>,
) -> Result<Anonymized, AnonymizeError> {
    replacer.prepare(memory);
    for _ in 1..PSEUDONYM_ATTEMPTS {
        let result = replace_once(replacer, memory, inputs)?;
        let faked = result
            .entities
            .iter()
            .any(|e| e.method == Method::Pseudonymize);
        if !faked || restores_exactly(memory, inputs.texts, &result.texts) {
            return Ok(result);
        }
        replacer.reject_fresh(memory);
    }
    replace_once(replacer, memory, inputs)
}

/// One call's texts, what each is, what was detected in each, and what to do with it.
struct Inputs<'a> {
    texts: &'a [String],
    types: &'a [TextType],
    detections: &'a [Vec<Detection>],
    actions: &'a Actions,
}

fn restores_exactly(memory: &Memory, inputs: &[String], outputs: &[String]) -> bool {
    let entries: Vec<MapEntry> = memory
        .entries()
        .map(|(original, anonymized)| MapEntry {
            original: original.to_owned(),
            anonymized: anonymized.to_owned(),
        })
        .collect();
    match Restorer::with_mode(&entries, MatchMode::Exact) {
        Ok(r) => inputs.iter().zip(outputs).all(|(i, o)| r.restore(o) == *i),
        Err(_) => false,
    }
}

fn replace_once(
    replacer: &Replacer<'_>,
    memory: &mut Memory,
    inputs: &Inputs<'_>,
) -> Result<Anonymized, AnonymizeError> {
    let texts = inputs.texts;
    let mut out_texts = Vec::with_capacity(texts.len());
    let mut entities = Vec::new();
    for (text_index, (text, found)) in texts.iter().zip(inputs.detections).enumerate() {
        let chars = CharIndex::new(text);
        let typed = inputs.types.get(text_index).copied().unwrap_or_default();
        let mut out = String::with_capacity(text.len());
        let mut cursor = 0;
        for d in found {
            let original = &text[d.span.start..d.span.end];
            let action = inputs.actions.of(d.label);
            let method = match action {
                Action::Monitor => Method::Keep,
                Action::Anonymize | Action::Block => replacer.operator(d.label).method,
            };
            let address = if method != Method::Keep
                && typed_slot::keeps_address(text, d.span, d.label, typed)
            {
                replacer.replace_ip(memory, d.label, original)?
            } else {
                None
            };
            let (replacement, method) = match (address, method) {
                (Some(address), _) => (address, Method::Pseudonymize),
                (None, Method::Keep) => (original.to_owned(), Method::Keep),
                (None, method) => (replacer.replace(memory, d.label, original)?, method),
            };
            out.push_str(&text[cursor..d.span.start]);
            match json_slot::fit(text, d.span, &replacement) {
                Some(fitted) => out.push_str(&fitted),
                None => out.push_str(&replacement),
            }
            cursor = d.span.end;
            entities.push(Entity {
                text_index,
                span: chars.char_span(d.span),
                label: d.label,
                text: original.to_owned(),
                confidence: d.score,
                alternative: d.alternative,
                replacement,
                method,
                action,
                explanation: None,
            });
        }
        out.push_str(&text[cursor..]);
        out_texts.push(out);
    }
    Ok(Anonymized {
        texts: out_texts,
        entities,
        languages: Vec::new(),
    })
}

#[cfg(test)]
mod tests;
