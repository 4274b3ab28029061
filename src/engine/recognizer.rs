//! The `Recognizer` trait and the declarative pattern kind.
//!
//! A pattern entity type is one [`PatternSpec`] constant in `patterns/`; this file turns
//! the list of them into one compiled recognizer that scans the text first with the
//! patterns' set ([`ScanSet`]) and then runs only the patterns that can match.

use std::fmt;

use regex::Regex;
use regex_automata::{meta, Input};

use super::match_bytes::MatchBytes;
use super::scan_set::{Hit, ScanSet, Starts};
use super::{context, large, BuildError};
use crate::text::{ByteSpan, Label, LabelSet};

/// A proposed entity before overlap resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub span: ByteSpan,
    pub label: Label,
    pub score: f32,
    /// What backs the span beyond the score; see [`Proof`].
    pub proof: Proof,
    pub trace: Trace,
}

/// Where a detection comes from: the tier and the pattern, list, name rule or key family
/// that proposed it, and the corrective rules (`engine::refine`) that split, reshaped,
/// relabelled or merged it, in the order they did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    pub tier: &'static str,
    pub by: &'static str,
    pub rules: Vec<&'static str>,
}

impl Trace {
    pub fn new(tier: &'static str, by: &'static str) -> Trace {
        Trace {
            tier,
            by,
            rules: Vec::new(),
        }
    }
}

impl std::fmt::Display for Trace {
    /// `tier:by`, then `+rule` for each rule: `model:ner+common_words_at_edges`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.tier, self.by)?;
        self.rules.iter().try_for_each(|r| write!(f, "+{r}"))
    }
}

/// What a candidate's span rests on. Overlap resolution (`resolve.rs`) uses it: an
/// exact span ([`Proof::is_exact`]) wins its characters against every other candidate,
/// keeps its boundaries and is never merged with a neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Proof {
    /// A guess: a model span, a name rule, a word list, a pattern without a validator
    /// or with only a structural one (digit counts, date ranges). Its boundaries may be
    /// off by a word, so it competes by length and confidence.
    #[default]
    None,
    /// The match follows the whole grammar of its type (an RFC 5322 address, an IP
    /// address, a UUID): the span is the entity, exactly, but the label is not certain.
    Grammar,
    /// A checksum passed (Luhn, mod 97, …): exact span, and confidence may reach 1.
    Checksum,
    /// The operator's deny list named the phrase: exact span, always flagged.
    Listed,
}

impl Proof {
    /// Whether the span is the entity exactly (anything but [`Proof::None`]).
    pub fn is_exact(self) -> bool {
        self != Proof::None
    }

    /// Priority among overlapping exact spans: a checksum or the deny list beats a
    /// grammar (`4111 1111 1111 1111` is a card before it is a phone number).
    pub(crate) fn rank(self) -> u8 {
        match self {
            Proof::None => 0,
            Proof::Grammar => 1,
            Proof::Checksum | Proof::Listed => 2,
        }
    }
}

/// Why a recognizer could not look at its texts. Carries a runtime message, never text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecognizeError {
    message: String,
}

impl RecognizeError {
    /// Public because recognizers may live outside this crate (benchmarks, tests).
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl fmt::Display for RecognizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RecognizeError {}

/// Anything that proposes candidates for some labels.
pub trait Recognizer: Send + Sync {
    /// Labels this recognizer can emit.
    fn labels(&self) -> &[Label];
    /// The detection tier this recognizer belongs to (`patterns`, `dictionary`, `model`).
    fn tier(&self) -> &'static str;
    /// The model behind this recognizer, for a tier that runs one.
    fn model(&self) -> Option<&super::tiers::ner::ModelIdentity> {
        None
    }
    /// What that model has run so far.
    fn model_stats(&self) -> Option<super::tiers::ner::PoolStats> {
        None
    }
    /// The texts this recognizer reads, by language: the engine gives it only those.
    fn languages(&self) -> &crate::text::LanguageScope {
        static ALL: crate::text::LanguageScope = crate::text::LanguageScope::ALL;
        &ALL
    }
    /// Appends candidates found in `text` for labels in `wanted`.
    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>);
    /// What this recognizer knows of `d`, when it proposed it: for decision traces.
    fn basis(&self, _text: &str, _d: &super::Detection) -> Option<super::Basis> {
        None
    }
    /// Appends the candidates of `texts[i]` to `out[i]`, for every text. The engine calls
    /// only this; the default runs [`Recognizer::recognize`] per text, and a tier that
    /// batches or can fail (the model) overrides it.
    ///
    /// # Errors
    /// The tier could not look at the texts, or `out` is shorter than `texts`. The
    /// engine then fails the whole call: skipping a tier could let personal data through.
    fn recognize_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        out: &mut [Vec<Candidate>],
    ) -> Result<(), RecognizeError> {
        each_text(self, texts, wanted, out)
    }
    /// For a tier whose entities the reading rules of `engine::refine` correct before
    /// they become candidates (the model tier): how it read each text of `texts`, in
    /// place of [`Recognizer::recognize_many`]. `None`: its candidates are final as found.
    /// `known[i]`: values other tiers proved in `texts[i]`, and its log machinery
    /// (`engine::unread`), which such a tier need not read.
    ///
    /// # Errors
    /// As [`Recognizer::recognize_many`].
    fn read_many(
        &self,
        _texts: &[&str],
        _wanted: &LabelSet,
        _known: &[Vec<crate::text::ByteSpan>],
    ) -> Option<Result<Vec<super::tiers::ner::reading::Reading>, RecognizeError>> {
        None
    }
}

/// A shared recognizer (the loaded model, the built-in tiers) serves every engine built
/// over it: a reloaded configuration builds a new engine without loading them again.
impl<R: Recognizer + ?Sized> Recognizer for std::sync::Arc<R> {
    fn labels(&self) -> &[Label] {
        (**self).labels()
    }
    fn tier(&self) -> &'static str {
        (**self).tier()
    }
    fn model(&self) -> Option<&super::tiers::ner::ModelIdentity> {
        (**self).model()
    }
    fn model_stats(&self) -> Option<super::tiers::ner::PoolStats> {
        (**self).model_stats()
    }
    fn languages(&self) -> &crate::text::LanguageScope {
        (**self).languages()
    }
    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        (**self).recognize(text, wanted, out);
    }
    fn basis(&self, text: &str, d: &super::Detection) -> Option<super::Basis> {
        (**self).basis(text, d)
    }
    fn recognize_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        out: &mut [Vec<Candidate>],
    ) -> Result<(), RecognizeError> {
        (**self).recognize_many(texts, wanted, out)
    }
    fn read_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        known: &[Vec<crate::text::ByteSpan>],
    ) -> Option<Result<Vec<super::tiers::ner::reading::Reading>, RecognizeError>> {
        (**self).read_many(texts, wanted, known)
    }
}

/// [`Recognizer::recognize`] for each text into its own output: what
/// [`Recognizer::recognize_many`] does unless a tier overrides it.
///
/// # Errors
/// `out` is shorter than `texts`.
fn each_text<R: Recognizer + ?Sized>(
    recognizer: &R,
    texts: &[&str],
    wanted: &LabelSet,
    out: &mut [Vec<Candidate>],
) -> Result<(), RecognizeError> {
    if out.len() < texts.len() {
        return Err(RecognizeError::new("one output per text is needed"));
    }
    for (text, out) in texts.iter().zip(out.iter_mut()) {
        recognizer.recognize(text, wanted, out);
    }
    Ok(())
}

/// A regex-based entity type, declared as a `const`.
#[derive(Debug)]
pub struct PatternSpec {
    /// Unique name of this pattern, e.g. `credit_card`.
    pub name: &'static str,
    /// Canonical label (a row of `text::label::LABELS`).
    pub label: &'static str,
    /// A `regex` crate pattern (linear time; no look-around).
    pub regex: &'static str,
    /// Capture group holding the entity (0 = whole match). With alternatives that each
    /// capture, the first group from this index on that took part is used.
    pub group: usize,
    /// Confidence without context.
    pub score: f32,
    /// A cheaper regex the set scan ([`ScanSet`]) uses instead of `regex`; it must match
    /// wherever `regex` does (e-mail: `@`). For patterns with large Unicode classes (a
    /// `\w` outside a negated class is one), long alternations with repeats, or a
    /// repeated class before their cue that is live in every word (an identifier before
    /// `api_key`), which would overflow the set's lazy DFA and slow every pattern:
    /// `cargo bench --bench detect` shows it (`detect/rules`). A test checks it matches
    /// inside every match of `regex` on a varied corpus.
    pub prefilter: Option<&'static str>,
    /// Checksum/structure check: `false` drops the candidate.
    pub validate: Option<fn(&str) -> bool>,
    /// Check of the text around a match, `(text, span)`: `false` drops the candidate. For
    /// grammars whose neighbours decide (a handle is no decorator or JSON key) and that
    /// the regex cannot look at without consuming them (no look-around).
    pub surroundings: Option<fn(&str, ByteSpan) -> bool>,
    /// What a match that passed `validate` proves: [`Proof::Checksum`] when the
    /// validator is a real checksum (Luhn, mod 97, …), [`Proof::Grammar`] when the regex
    /// (and validator) is the type's whole grammar, so the match is exactly the entity
    /// (e-mail, IP, URL, UUID); [`Proof::None`] when the match is only likely (structural
    /// checks such as digit counts or date ranges, formats without clear ends). Exact
    /// spans win their characters against every model and rule span that overlaps them.
    pub proof: Proof,
    /// Words near the match that raise confidence (lower-case, whole words or phrases).
    pub context: &'static [&'static str],
    /// Words near the match that lower confidence; [`context::NEGATIVE`] unless a spec
    /// knows better (an empty list turns the penalty off).
    pub negative_context: &'static [&'static str],
    /// A list pattern's item: each match of this regex inside a validated match is its
    /// own entity (scored with the whole list's context), so that every number of
    /// `nos. 26480/95, 28291/95, 29280/95` gets the placeholder it gets when it stands alone.
    pub items: Option<&'static str>,
    /// Texts in which the pattern must find exactly the entity `examples[i].1`.
    pub examples: &'static [(&'static str, &'static str)],
    /// Texts in which the pattern must find nothing.
    pub counter_examples: &'static [&'static str],
}

impl PatternSpec {
    /// Defaults for the optional fields, so a declaration can end in `..PatternSpec::BASE`.
    pub const BASE: PatternSpec = PatternSpec {
        name: "",
        label: "",
        regex: "",
        group: 0,
        score: 0.5,
        prefilter: None,
        validate: None,
        surroundings: None,
        proof: Proof::None,
        context: &[],
        negative_context: context::NEGATIVE,
        items: None,
        examples: &[],
        counter_examples: &[],
    };
}

struct Compiled {
    spec: &'static PatternSpec,
    label: Label,
    /// `regex_automata`'s own, to search a span while look-arounds see past its edges.
    regex: meta::Regex,
    /// How far back from the end of one of its matches the match can start, when the
    /// ends of its matches are known: the set scans this very regex (no `prefilter`),
    /// or [`Compiled::ends`] finds them. Then only those stretches are searched
    /// ([`stretches`]).
    back: Option<Back>,
    /// For a pattern with a `prefilter` and a Unicode `\b`, which makes its own search
    /// crawl on non-ASCII text (no DFA decides a Unicode word boundary there): its
    /// regex without the boundaries, whose matches include every match of the pattern
    /// with the same ends, in a lazy DFA of its own that finds those ends.
    ends: Option<ScanSet>,
    items: Option<Regex>,
    context: context::Words,
}

/// All pattern specs, compiled once.
pub struct PatternRecognizer {
    set: ScanSet,
    patterns: Vec<Compiled>,
    labels: Vec<Label>,
    /// Search every matching pattern over its whole chunk, not its stretches: the
    /// reference the stretches are tested against.
    whole: bool,
}

impl PatternRecognizer {
    /// # Errors
    /// If a pattern does not compile or names an unknown label.
    pub fn new(specs: &'static [&'static PatternSpec]) -> Result<Self, BuildError> {
        let mut patterns = Vec::with_capacity(specs.len());
        for spec in specs {
            let label = Label::parse(spec.label)
                .filter(|l| l.as_str() == spec.label)
                .ok_or_else(|| BuildError::new(spec.name, "unknown label"))?;
            let form = match_form(spec.regex);
            let regex =
                meta::Regex::new(&form).map_err(|e| BuildError::new(spec.name, e.to_string()))?;
            if spec.group >= regex.captures_len() {
                return Err(BuildError::new(spec.name, "capture group out of range"));
            }
            let items = spec
                .items
                .map(|items| Regex::new(&match_form(items)))
                .transpose()
                .map_err(|e| BuildError::new(spec.name, e.to_string()))?;
            let context = context::Words::new(spec.context, spec.negative_context);
            // `form` keeps Unicode classes only where the regex names one (`match_form`).
            let own_in_set = form == ascii_classes(spec.regex);
            let unicode_boundary = !own_in_set && form.contains(r"\b");
            // The regex whose match ends are known: the finder's (below), or the set's
            // where it scans the very same regex.
            let (ends, ended) = if spec.prefilter.is_some() && unicode_boundary {
                let unbounded = rewrite(spec.regex, "(?:)", r"\d");
                let finder = ScanSet::new(std::slice::from_ref(&unbounded))
                    .map_err(|e| BuildError::new(spec.name, e.0))?;
                (Some(finder), Some(unbounded))
            } else {
                let own =
                    (spec.prefilter.is_none() && own_in_set).then(|| ascii_classes(spec.regex));
                (None, own)
            };
            let back = ended
                .map(|ended| Back::of(&ended))
                .transpose()
                .map_err(|e| BuildError::new(spec.name, e))?;
            patterns.push(Compiled {
                spec,
                label,
                regex,
                back,
                ends,
                items,
                context,
            });
        }
        let set =
            ScanSet::new(&set_forms(specs)).map_err(|e| BuildError::new("pattern set", e.0))?;
        let mut labels: Vec<Label> = patterns.iter().map(|p| p.label).collect();
        labels.sort();
        labels.dedup();
        Ok(Self {
            set,
            patterns,
            labels,
            whole: false,
        })
    }
}

/// What the set scan searches for each pattern: its `prefilter` or its regex, in
/// [`ascii_classes`].
fn set_forms(specs: &[&PatternSpec]) -> Vec<String> {
    specs
        .iter()
        .map(|s| ascii_classes(s.prefilter.unwrap_or(s.regex)))
        .collect()
}

/// Patterns that name Unicode classes (`\p{L}`: internationalised e-mail) keep Unicode
/// `\b` for their own match (they should declare a `prefilter` for the set); everything
/// else is matched with [`ascii_classes`].
fn match_form(regex: &str) -> String {
    if regex.contains(r"\p{") {
        regex.to_owned()
    } else {
        ascii_classes(regex)
    }
}

/// Rewrites `\b` to ASCII `(?-u:\b)` and `\d` to `[0-9]`.
///
/// Why: a Unicode word boundary makes the lazy DFA give up on the first non-ASCII byte
/// (a curly quote is enough), and the set then falls back to a far slower engine; Unicode
/// `\d` also matches Devanagari or Arabic-Indic digits, which no checksum here accepts.
/// Identifiers are ASCII, so ASCII classes lose nothing. Escaped backslashes (`\\b`)
/// are left alone.
fn ascii_classes(regex: &str) -> String {
    rewrite(regex, "(?-u:\\b)", "[0-9]")
}

/// Replaces unescaped `\b` with `boundary` and `\d` with `digit`.
fn rewrite(regex: &str, boundary: &str, digit: &str) -> String {
    let mut out = String::with_capacity(regex.len() + 32);
    let mut chars = regex.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push_str(boundary),
            Some('d') => out.push_str(digit),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

impl Recognizer for PatternRecognizer {
    fn labels(&self) -> &[Label] {
        &self.labels
    }

    fn basis(&self, text: &str, d: &super::Detection) -> Option<super::Basis> {
        let pattern = self.patterns.iter().find(|p| p.spec.name == d.trace.by)?;
        Some(super::Basis {
            base_score: pattern.spec.score,
            context_word: pattern.context.supporting(text, d.span),
        })
    }

    fn tier(&self) -> &'static str {
        "patterns"
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        // Looked up as the scan asks (the first wanted pattern of each shard, then the
        // hits): for one small text that is fewer look-ups than a mask of every pattern
        // (1 KB texts: 25 µs a text against 45).
        let wanted = |i: usize| wanted.contains(self.patterns[i].label);
        self.recognize_part(text, &scanned(text), &wanted, &mut |_, _, c| out.push(c));
    }

    /// For a [`large`] request, one text or many, the shards holding wanted patterns
    /// ([`SPLIT_MIN_SHARDS`] or more) are dealt to two threads of rayon's pool: the
    /// pattern tier is most of a rules-only request's time, and the other tiers take less
    /// than half of it on the second core. The candidates come out in the order one
    /// thread finds them.
    fn recognize_many(
        &self,
        texts: &[&str],
        wanted: &LabelSet,
        out: &mut [Vec<Candidate>],
    ) -> Result<(), RecognizeError> {
        let large = large(texts);
        if texts.len() < 2 && !large {
            return each_text(self, texts, wanted, out);
        }
        if out.len() < texts.len() {
            return Err(RecognizeError::new("one output per text is needed"));
        }
        // Which patterns are wanted, once for all texts: a look-up in the label set
        // compares names, and each text asks for each shard and each hit.
        let mask: Vec<bool> = (self.patterns.iter())
            .map(|p| wanted.contains(p.label))
            .collect();
        let Some(half_of) = large.then(|| self.halves(&mask)).flatten() else {
            for (text, out) in texts.iter().zip(out.iter_mut()) {
                self.recognize_part(text, &scanned(text), &|i| mask[i], &mut |_, _, c| {
                    out.push(c)
                });
            }
            return Ok(());
        };
        let chunked: Vec<Vec<ByteSpan>> = texts.iter().map(|t| scanned(t)).collect();
        // Each half: (text, chunk, pattern, candidate), in the order found.
        let half = |odd: usize| {
            let part = |i: usize| mask[i] && half_of[self.set.shard_of(i)] == Some(odd);
            let mut found = Vec::new();
            for (n, (text, chunks)) in texts.iter().zip(&chunked).enumerate() {
                self.recognize_part(text, chunks, &part, &mut |chunk, pattern, c| {
                    found.push(((n, chunk, pattern), c));
                });
            }
            found
        };
        let (mut found, odd) = rayon::join(|| half(0), || half(1));
        found.extend(odd);
        // Stable: within a pattern of a chunk, the order its search found.
        found.sort_by_key(|f| f.0);
        for ((n, _, _), candidate) in found {
            out[n].push(candidate);
        }
        Ok(())
    }
}

/// The stretches of `text` the pattern set scans one by one: a text with a PEM block,
/// which may hold a blank line (encrypted keys' headers), whole; everything else
/// paragraph by paragraph ([`chunks`]).
fn scanned(text: &str) -> Vec<ByteSpan> {
    if text.contains("-----BEGIN") {
        vec![ByteSpan::new(0, text.len())]
    } else {
        chunks(text).collect()
    }
}

/// Paragraph chunks of at least [`MIN_CHUNK`] bytes, split only at blank lines, which
/// no other entity spans.
///
/// Why: the set scan says which patterns match *somewhere* in its haystack; on a long
/// text nearly every pattern matches somewhere, and each then scans the whole text. Per
/// paragraph, a pattern scans only the paragraphs where it matches.
fn chunks(text: &str) -> impl Iterator<Item = ByteSpan> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let mut end = start;
        loop {
            match text[end..].find("\n\n") {
                Some(i) => {
                    end += i + 2;
                    if end - start >= MIN_CHUNK {
                        break;
                    }
                }
                None => {
                    end = text.len();
                    break;
                }
            }
        }
        let chunk = ByteSpan::new(start, end);
        start = end;
        Some(chunk)
    })
}

/// How far back from one of its ends a match of a pattern can start.
enum Back {
    /// At most this many bytes: its longest match.
    Reach(usize),
    /// Of unbounded length, holding no whitespace: back to the last byte before the
    /// end that no match holds.
    Within(MatchBytes),
    /// Of unbounded length, whitespace too: its regex searched back from the end.
    Starts(Box<Starts>),
}

impl Back {
    /// How far back the matches of `form` (the regex whose match ends are known) reach.
    fn of(form: &str) -> Result<Self, String> {
        let hir = regex_automata::util::syntax::parse(form).map_err(|e| e.to_string())?;
        if let Some(reach) = hir.properties().maximum_len() {
            return Ok(Back::Reach(reach));
        }
        let bytes = MatchBytes::of(form)?;
        Ok(if bytes.stops_at_whitespace() {
            Back::Within(bytes)
        } else {
            Back::Starts(Box::new(Starts::new(form).map_err(|e| e.0)?))
        })
    }

    /// `(start, end)` for each of `ends` (ascending): where a match ending there can
    /// start at the earliest, or earlier (any offset no later than the earliest start
    /// bounds the stretches as well). `None`: not known, or the searches back read
    /// [`BACK_BUDGET`] times the haystack (matches of unbounded length ending at every
    /// word of a long run would make them quadratic).
    fn bounds(&self, haystack: &str, ends: &[usize]) -> Option<Vec<(usize, usize)>> {
        match self {
            Back::Reach(reach) => Some(
                ends.iter()
                    .map(|&end| {
                        let mut start = end.saturating_sub(*reach);
                        while !haystack.is_char_boundary(start) {
                            start -= 1;
                        }
                        (start, end)
                    })
                    .collect(),
            ),
            Back::Within(bytes) => Some(
                bytes
                    .starts(haystack, ends)
                    .zip(ends.iter().copied())
                    .collect(),
            ),
            Back::Starts(starts) => {
                let budget = BACK_BUDGET * haystack.len().max(1024);
                let mut read = 0;
                ends.iter()
                    .map(|&end| {
                        let start = starts.earliest(haystack, end)?;
                        read += end - start;
                        (read <= budget).then_some((start, end))
                    })
                    .collect()
            }
        }
    }
}

/// The stretches of `haystack` a pattern must search, given every offset where one of
/// its matches ends (from any start) and how far back from each its matches start (or
/// earlier): `[start, end]` for each, merged where they touch. Every match lies inside
/// one stretch and no match starts in one and ends outside it (its own end's stretch
/// reaches back to its start), so searching each stretch leftmost-first finds exactly
/// what a search of the whole haystack finds. `None` when the starts are not known
/// ([`Back::bounds`]): the whole haystack is searched instead.
fn stretches(haystack: &str, ends: &[usize], back: &Back) -> Option<Vec<(usize, usize)>> {
    let mut bounds = back.bounds(haystack, ends)?;
    // Ends ascend, starts need not (a longer match may end later and start earlier).
    bounds.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (start, end) in bounds {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    Some(out)
}

/// Fewest searched shards for which a large request's pattern tier is split: each half
/// then interleaves two shards or more. One shard's scan waits on memory at every byte,
/// and a second interleaved with it on the same thread costs little more, while the
/// other thread may be busy with another tier: a request for `EMAIL_ADDRESS` alone (two
/// shards) ran at 30 instead of 40 MB/s split.
const SPLIT_MIN_SHARDS: usize = 4;

/// How many times its haystack the searches back for a pattern's starts may read.
const BACK_BUDGET: usize = 4;

/// Highest confidence of a pattern match that no checksum confirmed.
pub(crate) const UNVALIDATED_MAX: f32 = 0.95;

/// Smallest chunk: below this, per-call overhead of the set outweighs what it saves
/// (unmeasured first choice).
const MIN_CHUNK: usize = 512;

impl PatternRecognizer {
    /// The half (0 or 1) of each shard holding a pattern of `mask`, dealt alternately in
    /// the shards' order; `None` when fewer than [`SPLIT_MIN_SHARDS`] are searched.
    fn halves(&self, mask: &[bool]) -> Option<Vec<Option<usize>>> {
        let mut searched = vec![false; self.set.shards()];
        for (i, _) in mask.iter().enumerate().filter(|(_, &m)| m) {
            searched[self.set.shard_of(i)] = true;
        }
        let mut dealt = 0;
        let halves = (searched.into_iter())
            .map(|searched| {
                searched.then(|| {
                    dealt += 1;
                    (dealt - 1) % 2
                })
            })
            .collect();
        (dealt >= SPLIT_MIN_SHARDS).then_some(halves)
    }

    /// The `wanted` patterns (by index) in `chunks` of `text`: `found(chunk number,
    /// pattern index, candidate)`.
    fn recognize_part(
        &self,
        text: &str,
        chunks: &[ByteSpan],
        wanted: &dyn Fn(usize) -> bool,
        found: &mut dyn FnMut(usize, usize, Candidate),
    ) {
        for (n, &chunk) in chunks.iter().enumerate() {
            self.scan(text, chunk, wanted, &mut |p, c| found(n, p, c));
        }
    }

    /// Runs the `wanted` patterns that can match in `chunk` of `text`; context is read
    /// from the whole text. `found(pattern index, candidate)`, by pattern, then in the
    /// order of the pattern's search.
    fn scan(
        &self,
        text: &str,
        chunk: ByteSpan,
        wanted: &dyn Fn(usize) -> bool,
        found: &mut dyn FnMut(usize, Candidate),
    ) {
        let haystack = &text[chunk.start..chunk.end];
        let hits = self.set.matches(haystack, wanted);
        for Hit { index, ends } in hits {
            let pattern = &self.patterns[index];
            let ends = match &pattern.ends {
                // The set saw its prefilter; where can the pattern itself end?
                Some(finder) if !self.whole => match finder.matches(haystack, |_| true).pop() {
                    Some(hit) => hit.ends,
                    None => continue,
                },
                _ => ends,
            };
            let spans = match (&pattern.back, ends) {
                (Some(back), Some(ends)) if !self.whole => stretches(haystack, &ends, back),
                _ => None,
            }
            .unwrap_or_else(|| vec![(0, haystack.len())]);
            let group = pattern.spec.group;
            let matches = spans.into_iter().flat_map(|(from, to)| {
                let input = Input::new(haystack).range(from..to);
                // Whole-match patterns skip the capture engine (find is several times faster).
                let found: Box<dyn Iterator<Item = regex_automata::Span>> = if group == 0 {
                    Box::new(pattern.regex.find_iter(input).map(|m| m.span()))
                } else {
                    Box::new(
                        pattern
                            .regex
                            .captures_iter(input)
                            .filter_map(move |caps| caps.iter().skip(group).flatten().next()),
                    )
                };
                found
            });
            for m in matches {
                let matched = &haystack[m.range()];
                if pattern.spec.validate.is_some_and(|check| !check(matched)) {
                    continue;
                }
                let proof = pattern.spec.proof;
                let span = ByteSpan::new(chunk.start + m.start, chunk.start + m.end);
                if pattern
                    .spec
                    .surroundings
                    .is_some_and(|fits| !fits(text, span))
                {
                    continue;
                }
                let score = pattern.spec.score + pattern.context.adjust(text, span);
                // Only a passed checksum earns certainty; context alone tops out below it.
                let ceiling = if proof == Proof::Checksum {
                    1.0
                } else {
                    UNVALIDATED_MAX
                };
                let candidate = |span| Candidate {
                    span,
                    label: pattern.label,
                    score: score.clamp(0.0, ceiling),
                    proof,
                    trace: Trace::new("patterns", pattern.spec.name),
                };
                match &pattern.items {
                    None => found(index, candidate(span)),
                    Some(items) => {
                        for item in items.find_iter(matched) {
                            found(
                                index,
                                candidate(ByteSpan::new(
                                    span.start + item.start(),
                                    span.start + item.end(),
                                )),
                            );
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_boundaries_and_digits_become_ascii() {
        assert_eq!(
            ascii_classes(r"\b\d{3}\\b[\d.]"),
            r"(?-u:\b)[0-9]{3}\\b[[0-9].]"
        );
        let re = Regex::new(&ascii_classes(r"\b\d{3}\b")).expect("compiles");
        assert!(re.is_match("“123”"));
        assert!(!re.is_match("١٢٣"));
    }

    #[test]
    fn chunks_cover_the_text_and_split_only_after_blank_lines() {
        let para = "word ".repeat(100) + "\n\n";
        let text = para.repeat(20) + "tail without break";
        let spans: Vec<ByteSpan> = chunks(&text).collect();
        assert!(spans.len() > 1);
        assert_eq!(spans[0].start, 0);
        assert_eq!(spans.last().map(|s| s.end), Some(text.len()));
        for pair in spans.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(text[..pair[0].end].ends_with("\n\n"));
        }
        assert_eq!(chunks("").count(), 0);
    }

    /// Finds every `x` as a PERSON, to see what the default `recognize_many` does.
    struct Xs;

    impl Recognizer for Xs {
        fn labels(&self) -> &[Label] {
            &[]
        }

        fn tier(&self) -> &'static str {
            "test"
        }

        fn recognize(&self, text: &str, _: &LabelSet, out: &mut Vec<Candidate>) {
            for (i, _) in text.match_indices('x') {
                out.push(Candidate {
                    span: ByteSpan::new(i, i + 1),
                    label: Label::builtin("PERSON"),
                    score: 0.5,
                    proof: Proof::None,
                    trace: Trace::new("test", "x"),
                });
            }
        }
    }

    fn x_at(start: usize) -> Candidate {
        Candidate {
            span: ByteSpan::new(start, start + 1),
            label: Label::builtin("PERSON"),
            score: 0.5,
            proof: Proof::None,
            trace: Trace::new("test", "x"),
        }
    }

    #[test]
    fn the_default_recognize_many_appends_each_texts_candidates_to_its_own_output() {
        let mut out = vec![vec![x_at(99)], Vec::new(), Vec::new()];
        Xs.recognize_many(&["ax", "", "xx"], &LabelSet::all(), &mut out)
            .expect("infallible tier");
        assert_eq!(
            out,
            [vec![x_at(99), x_at(1)], vec![], vec![x_at(0), x_at(1)]]
        );
    }

    #[test]
    fn the_default_recognize_many_refuses_too_few_outputs_and_writes_nothing() {
        let mut out = vec![Vec::new()];
        let err = Xs
            .recognize_many(&["x", "x"], &LabelSet::all(), &mut out)
            .unwrap_err();
        assert_eq!(err, RecognizeError::new("one output per text is needed"));
        assert_eq!(out, [Vec::<Candidate>::new()]);
        // No texts, no outputs: nothing to do.
        Xs.recognize_many(&[], &LabelSet::all(), &mut [])
            .expect("empty batch");
    }

    /// Words of the engine's lists, mixed by a fixed-seed generator into ~400 KB of the
    /// registers users send: prose and chat, JSON and logfmt log lines with ids and
    /// addresses, code with secrets, CJK, emoji, and long lines without a break. Varied:
    /// a few paragraphs repeated would let a lazy DFA reuse a handful of states.
    fn varied_corpus() -> Vec<String> {
        let lists = [
            crate::engine::lexicon::lists::ENGLISH_WORDS,
            crate::engine::lexicon::lists::GIVEN_NAMES,
            crate::engine::lexicon::lists::LOCATIONS,
            crate::engine::lexicon::lists::ORGANIZATIONS,
        ];
        let words: Vec<&str> = lists
            .iter()
            .flat_map(|l| l.lines())
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect();
        let cjk = [
            "我叫王小明，住在北京市海淀区",
            "田中太郎さんは東京に住んでいます",
            "김민수 씨는 서울시 강남구에 삽니다",
            "电话",
            "会議は明日です",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n as u64).unwrap_or(0)
        };
        let mut texts = Vec::new();
        for register in 0..8 {
            let mut text = String::new();
            while text.len() < 50_000 {
                let mut sentence: Vec<String> = (0..3 + next(14))
                    .map(|_| words[next(words.len())].to_owned())
                    .collect();
                let at = next(sentence.len());
                sentence[at] = match next(10) {
                    0 => format!("{}{}@example.org", words[next(words.len())], next(999)),
                    1 => format!("+44 20 {} {}", 1000 + next(8999), 1000 + next(8999)),
                    2 => format!(
                        "{}-{:02}-{:02}",
                        1990 + next(35),
                        1 + next(12),
                        1 + next(28)
                    ),
                    3 => format!("10.{}.{}.{}", next(256), next(256), next(256)),
                    4 => format!("{:016x}{:016x}", next(usize::MAX), next(usize::MAX)),
                    5 => cjk[next(cjk.len())].to_owned(),
                    6 => ["🙂", "🚀", "“quoted”", "naïve café", "Straße"][next(5)].to_owned(),
                    7 => format!("{} {}", 100 + next(9899), words[next(words.len())]),
                    _ => sentence[at].clone(),
                };
                let line = sentence.join(" ");
                match register {
                    0 | 1 => text.push_str(&format!("{line}. ")),
                    2 => text.push_str(&format!("{line}\n")),
                    3 => text.push_str(&format!(
                        "{{\"ts\":\"2024-03-{:02}T10:{:02}:00Z\",\"level\":\"info\",\"trace_id\":\"{:016x}\",\"msg\":\"{line}\"}}\n",
                        1 + next(28),
                        next(60),
                        next(usize::MAX)
                    )),
                    4 => text.push_str(&format!(
                        "time=2024-03-{:02}T10:00:00Z level=warn user=u{} msg=\"{line}\"\n",
                        1 + next(28),
                        next(99_999)
                    )),
                    5 => text.push_str(&format!(
                        "const {} = \"sk-{:016x}{:016x}\"; // {line}\n",
                        words[next(words.len())],
                        next(usize::MAX),
                        next(usize::MAX)
                    )),
                    6 => text.push_str(&format!("{}。{line}\n", cjk[next(cjk.len())])),
                    _ => text.push_str(&format!("{line} ")),
                }
                if register < 2 && next(6) == 0 {
                    text.push_str("\n\n");
                }
            }
            texts.push(text);
        }
        texts
    }

    #[test]
    fn every_shard_of_the_pattern_set_fits_varied_text_in_a_quarter_of_its_cache() {
        // Served, a shard whose cache fills is rebuilt over and over and at last gives up
        // for a crawl (all patterns in one DFA with 2 MiB: ~0.1 MB/s on new text). Here
        // each shard must hold every state this corpus needs in a quarter of the cache
        // it gets when served, never clearing it. A pattern that breaks this needs a
        // `prefilter` (the set then searches a cheaper regex), or the shards get smaller.
        let forms = set_forms(crate::engine::tiers::patterns::ALL);
        let set =
            ScanSet::with_cache(&forms, super::super::scan_set::CACHE_BYTES / 4).expect("builds");
        let mut found = 0;
        for text in varied_corpus() {
            for chunk in chunks(&text) {
                found += set.matches(&text[chunk.start..chunk.end], |_| true).len();
            }
        }
        assert!(found > 500, "{found} patterns matched");
        let strain = set.strain();
        assert!(
            strain.iter().all(|&s| s == (0, 0)),
            "(scans given up, caches cleared) per shard: {strain:?}"
        );
    }

    #[test]
    fn the_set_scan_finds_every_end_one_overlapping_search_per_shard_finds() {
        let (rec, _) = stretched_and_whole();
        let mut ends = 0;
        for text in varied_corpus() {
            for chunk in chunks(&text).chain([ByteSpan::new(0, text.len())]) {
                let haystack = &text[chunk.start..chunk.end];
                let hits = rec.set.matches(haystack, |_| true);
                assert_eq!(
                    hits,
                    crate::engine::scan_set::reference_matches(&rec.set, haystack)
                );
                ends += hits.iter().flat_map(|h| h.ends.iter().flatten()).count();
            }
        }
        assert!(ends > 10_000, "{ends} ends");
    }

    #[test]
    fn searching_stretches_finds_exactly_what_searching_whole_chunks_finds() {
        let (stretched, whole) = stretched_and_whole();
        assert!(
            stretched
                .patterns
                .iter()
                .filter(|p| p.back.is_some())
                .count()
                > 100
        );
        // Both ways back for patterns of unbounded length are compared.
        let backs = || stretched.patterns.iter().filter_map(|p| p.back.as_ref());
        assert!(backs().any(|b| matches!(b, Back::Within(_))));
        assert!(backs().any(|b| matches!(b, Back::Starts(_))));
        let examples = crate::engine::tiers::patterns::ALL
            .iter()
            .flat_map(|s| {
                s.examples
                    .iter()
                    .map(|e| e.0)
                    .chain(s.counter_examples.iter().copied())
            })
            .map(str::to_owned);
        let mut compared = 0;
        for text in varied_corpus().into_iter().chain(examples) {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            stretched.recognize(&text, &LabelSet::all(), &mut a);
            whole.recognize(&text, &LabelSet::all(), &mut b);
            assert_eq!(a, b, "{text}");
            compared += a.len();
        }
        assert!(compared > 5_000, "{compared} candidates");
    }

    #[test]
    fn a_request_split_between_two_threads_finds_what_one_thread_finds_in_its_order() {
        let (rec, _) = stretched_and_whole();
        let corpus = varied_corpus();
        let mut texts: Vec<&str> = corpus.iter().map(String::as_str).collect();
        // Small texts too, which alone stay on one thread.
        texts.extend([
            "Mail jane@example.com",
            "",
            "SSN 536-22-1234, +44 20 7946 0958",
        ]);
        assert!(large(&texts[..1]));
        let mut split = vec![Vec::new(); texts.len()];
        rec.recognize_many(&texts, &LabelSet::all(), &mut split)
            .expect("recognizes");
        let mut found = 0;
        for (text, split) in texts.iter().zip(&split) {
            let mut one = Vec::new();
            rec.recognize(text, &LabelSet::all(), &mut one);
            assert_eq!(split, &one);
            found += one.len();
            // A large text alone is split too.
            let mut alone = vec![Vec::new()];
            rec.recognize_many(&[text], &LabelSet::all(), &mut alone)
                .expect("recognizes");
            assert_eq!(alone[0], one);
        }
        assert!(found > 1_000, "{found} candidates");
    }

    /// The searched recognizer and its whole-chunk reference, built once.
    fn stretched_and_whole() -> &'static (PatternRecognizer, PatternRecognizer) {
        static BOTH: std::sync::LazyLock<(PatternRecognizer, PatternRecognizer)> =
            std::sync::LazyLock::new(|| {
                let build =
                    || PatternRecognizer::new(crate::engine::tiers::patterns::ALL).expect("builds");
                let mut whole = build();
                whole.whole = true;
                (build(), whole)
            });
        &BOTH
    }

    proptest::proptest! {
        #[test]
        fn stretches_and_whole_chunks_agree_on_any_text(
            text in "[0-9a-zA-Z@._:/+#, -]{0,40}([0-9 -]{0,30}[A-Za-z@.éü號\n]{0,8}){0,12}"
        ) {
            let (stretched, whole) = stretched_and_whole();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            stretched.recognize(&text, &LabelSet::all(), &mut a);
            whole.recognize(&text, &LabelSet::all(), &mut b);
            proptest::prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn stretches_cover_each_end_back_to_its_reach_and_merge_where_they_touch() {
        assert_eq!(
            stretches("0123456789abcdef", &[5, 6, 14], &Back::Reach(4)),
            Some(vec![(1, 6), (10, 14)])
        );
        assert_eq!(
            stretches("0123456789", &[2, 5], &Back::Reach(3)),
            Some(vec![(0, 5)])
        );
        // Never inside a character: "é" is two bytes.
        assert_eq!(
            stretches("aé bc", &[5], &Back::Reach(3)),
            Some(vec![(1, 5)])
        );
        assert_eq!(stretches("abc", &[], &Back::Reach(3)), Some(vec![]));
        // Unbounded: back to the earliest start of a match ending there, which need not
        // ascend with the ends.
        let starts = Back::Starts(Box::new(
            Starts::new(r"[a-z]+ [0-9]+|x [0-9]+ [0-9]+").expect("builds"),
        ));
        let text = "ab 1 x 2 3 cd 4";
        assert_eq!(
            stretches(text, &[4, 8, 10, 15], &starts),
            Some(vec![(0, 4), (5, 10), (11, 15)])
        );
        assert_eq!(stretches(text, &[3], &starts), None);
        // Searches back that would read the haystack over and over: the whole of it.
        let run = "ab ".repeat(2_000) + "1";
        let ends: Vec<usize> = (0..run.len() / 3).map(|i| 3 * i + 2).collect();
        let words = Back::Starts(Box::new(
            Starts::new(r"[a-z]+(?: [a-z]+)*").expect("builds"),
        ));
        assert_eq!(stretches(&run, &ends, &words), None);
        assert_eq!(stretches(&run, &ends[..3], &words), Some(vec![(0, 8)]));
    }

    /// A pattern whose set form is its `prefilter` is searched only where the prefilter
    /// matched: the prefilter must match inside every match of the pattern.
    #[test]
    fn every_prefilter_matches_inside_every_match_of_its_pattern() {
        let code = [
            "const config = { stripeKey: 'lPPzUj/UQeBbJufBuVHmh2JH5NJFkeklvC9UWf+u' };",
            "recently.client.secret=eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIi",
            "$ curl -H 'X-Api-Key: sk-proj-XioKOq9Sg8Nv41JhLxwq1PIigRTeA55CFKbMho86d5yZ'",
            "AUTH_TOKEN => \"q8Wm2+Rt5/Yx0Kd3Lp7Zn4Vb6Hc1Jf9Gs2Aa8Ee\"\nBearer 9a8b7c6d5e4f3a2b1c0d",
        ];
        let specs = crate::engine::tiers::patterns::ALL;
        let examples = specs.iter().flat_map(|s| {
            s.examples
                .iter()
                .map(|e| e.0)
                .chain(s.counter_examples.iter().copied())
        });
        let texts: Vec<String> = varied_corpus()
            .into_iter()
            .chain(examples.chain(code).map(str::to_owned))
            .collect();
        // The very regexes the recognizer searches and the forms its set scans.
        let (rec, _) = stretched_and_whole();
        let mut checked = 0;
        for ((pattern, form), spec) in rec.patterns.iter().zip(set_forms(specs)).zip(specs) {
            if spec.prefilter.is_none() {
                continue;
            }
            let pre = meta::Regex::new(&form).expect("compiles");
            for text in &texts {
                for m in pattern.regex.find_iter(text.as_str()) {
                    let inside = Input::new(text.as_str()).range(m.range());
                    assert!(
                        pre.search(&inside).is_some(),
                        "{}: {:?}",
                        spec.name,
                        &text[m.range()]
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "{checked} matches");
    }

    #[test]
    fn many_texts_find_only_the_wanted_labels_each_text_alone_finds() {
        let rec = PatternRecognizer::new(crate::engine::tiers::patterns::ALL).expect("builds");
        let line = "jane@example.com paid with 4111 1111 1111 1111 from 203.0.113.7\n";
        let wanted = LabelSet::new(vec![
            Label::builtin("EMAIL_ADDRESS"),
            Label::builtin("IP_ADDRESS"),
        ]);
        let key = |c: &Candidate| (c.span.start, c.span.end, c.label, c.trace.by);
        // A few short texts, then enough text to be spread over two threads.
        for copies in [1, 200] {
            let texts: Vec<String> = (0..3).map(|n| line.repeat(copies + n)).collect();
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            assert_eq!(super::super::large(&texts), copies > 1);
            let mut many = vec![Vec::new(); texts.len()];
            rec.recognize_many(&texts, &wanted, &mut many).unwrap();
            for (text, many) in texts.iter().zip(&many) {
                let mut alone = Vec::new();
                rec.recognize(text, &wanted, &mut alone);
                assert!(!alone.is_empty());
                assert!(alone.iter().all(|c| wanted.contains(c.label)));
                let mut many: Vec<_> = many.iter().map(key).collect();
                let mut alone: Vec<_> = alone.iter().map(key).collect();
                many.sort();
                alone.sort();
                assert_eq!(many, alone);
            }
        }
    }

    #[test]
    fn chunked_scanning_finds_what_a_whole_scan_finds() {
        let rec = PatternRecognizer::new(crate::engine::tiers::patterns::ALL).expect("builds");
        let para = "Reach me at jane@example.com or +44 20 7946 0958 on 3 March 2024.\n\n";
        let text = "Nothing here at all, just words.\n\n".repeat(200) + &para.repeat(50);
        let mut chunked = Vec::new();
        rec.recognize(&text, &LabelSet::all(), &mut chunked);
        let mut whole = Vec::new();
        rec.scan(
            &text,
            ByteSpan::new(0, text.len()),
            &|_| true,
            &mut |_, c| whole.push(c),
        );
        let key = |c: &Candidate| (c.span.start, c.span.end, c.label);
        let mut a: Vec<_> = chunked.iter().map(key).collect();
        let mut b: Vec<_> = whole.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(a.len() >= 150);
    }
}
