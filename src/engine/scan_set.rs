//! Which patterns can match in a haystack: the pattern tier's first pass.
//!
//! All patterns in one overlapping lazy DFA blow up: the DFA's states are sets of NFA
//! states of every pattern at once, so on varied text (not one paragraph repeated) the
//! cache fills, is cleared, fills again, and the DFA gives up for a PikeVM that runs at
//! ~0.1 MB/s. Split into shards of [`SHARD`] patterns, each shard's states stay few
//! enough to be reused request after request, and a request skips the shards holding
//! none of its labels.
//!
//! A shard that gives up anyway answers "maybe" for each of its wanted patterns, whose
//! own regexes then search: the result is the same, only slower, and [`fallbacks_total`] counts it (exported as
//! `anonymizer_pattern_scan_fallbacks_total`; a registry test keeps it at zero on a
//! varied corpus).

use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::pool::Pool;
use regex_automata::{Input, MatchKind, PatternSet};

/// Patterns per shard. On new text (each 25 KB document scanned once after ten others,
/// 16 MiB caches), the scan of the whole set ran at: 8 per shard ~10 (mixed registers
/// with CJK) / 16 (prose) / 18 MB/s (JSON logs); 24: ~10 / 24 / 31; 48: ~7 / 11 / 18;
/// 100: ~2 / 5 / 7. Fewer patterns per shard keep the states each new text needs few;
/// more shards mean more passes.
const SHARD: usize = 24;

/// Most memory one shard's lazy DFA keeps per thread; it fills only as text needs states
/// (all shards together: ~20 MB after 2 MB of new text). The `regex` crate's 2 MiB
/// holds too few states for varied text (cleared over and over, then it gives up); 8 MiB
/// was cleared on prose and scanned it at about half the speed.
pub(crate) const CACHE_BYTES: usize = 16 << 20;

static FALLBACKS: AtomicU64 = AtomicU64::new(0);

/// Shard scans the lazy DFA gave up on since start, answered pattern by pattern.
pub fn fallbacks_total() -> u64 {
    FALLBACKS.load(Ordering::Relaxed)
}

type CacheFn = Box<dyn Fn() -> Cache + Send + Sync + UnwindSafe + RefUnwindSafe>;

struct Shard {
    /// Scans of this shard the DFA gave up on.
    gave_up: AtomicU64,
    /// Times a cache of this shard was full and cleared: states built again.
    clears: AtomicU64,
    /// Index in the whole set of this shard's first pattern.
    first: usize,
    dfa: DFA,
    caches: Pool<Cache, CacheFn>,
}

/// The set of all patterns' prefilter forms, as shards of lazy DFAs.
pub struct ScanSet {
    shards: Vec<Shard>,
}

/// Why the set could not be built (a pattern the DFA cannot compile).
#[derive(Debug)]
pub struct ScanSetError(pub String);

impl ScanSet {
    /// # Errors
    /// When a form does not compile into a lazy DFA.
    pub fn new(forms: &[String]) -> Result<Self, ScanSetError> {
        Self::with_cache(forms, CACHE_BYTES)
    }

    /// With caches of at most `cache_bytes` per shard and thread.
    ///
    /// # Errors
    /// When a form does not compile into a lazy DFA.
    pub fn with_cache(forms: &[String], cache_bytes: usize) -> Result<Self, ScanSetError> {
        let mut shards = Vec::new();
        for (n, chunk) in forms.chunks(SHARD).enumerate() {
            let dfa = DFA::builder()
                .configure(
                    DFA::config()
                        .match_kind(MatchKind::All)
                        .cache_capacity(cache_bytes)
                        .unicode_word_boundary(true)
                        // As the `regex` crate's own lazy DFA: give up rather than
                        // crawl when states are rebuilt faster than they are reused.
                        .minimum_cache_clear_count(Some(3))
                        .minimum_bytes_per_state(Some(10)),
                )
                .thompson(thompson::Config::new().which_captures(WhichCaptures::None))
                .build_many(chunk)
                .map_err(|e| ScanSetError(e.to_string()))?;
            let for_cache = dfa.clone();
            let create: CacheFn = Box::new(move || for_cache.create_cache());
            shards.push(Shard {
                gave_up: AtomicU64::new(0),
                clears: AtomicU64::new(0),
                first: n * SHARD,
                dfa,
                caches: Pool::new(create),
            });
        }
        Ok(Self { shards })
    }

    /// The indices (into the forms given to [`ScanSet::new`]) of the patterns that match
    /// somewhere in `haystack`, among those for which `wanted(index)` holds; shards with
    /// no wanted pattern are not searched. In a shard the DFA
    /// gave up on, every wanted pattern counts as matching.
    pub fn matches(&self, haystack: &str, wanted: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut out = Vec::new();
        for shard in &self.shards {
            let len = shard.dfa.pattern_len();
            let range = shard.first..shard.first + len;
            if !range.clone().any(&wanted) {
                continue;
            }
            let mut set = PatternSet::new(len);
            let mut cache = shard.caches.get();
            let cleared = cache.clear_count();
            let searched = shard.dfa.try_which_overlapping_matches(
                &mut cache,
                &Input::new(haystack),
                &mut set,
            );
            let cleared = cache.clear_count().saturating_sub(cleared);
            shard.clears.fetch_add(cleared as u64, Ordering::Relaxed);
            match searched {
                Ok(()) => out.extend(
                    set.iter()
                        .map(|p| shard.first + p.as_usize())
                        .filter(|&i| wanted(i)),
                ),
                Err(_) => {
                    FALLBACKS.fetch_add(1, Ordering::Relaxed);
                    shard.gave_up.fetch_add(1, Ordering::Relaxed);
                    out.extend(range.filter(|&i| wanted(i)));
                }
            }
        }
        out
    }

    /// For each shard: how many of its scans the DFA gave up on, and how many times one
    /// of its caches was full and cleared.
    pub fn strain(&self) -> Vec<(u64, u64)> {
        self.shards
            .iter()
            .map(|s| {
                (
                    s.gave_up.load(Ordering::Relaxed),
                    s.clears.load(Ordering::Relaxed),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("w{i}x")).collect()
    }

    #[test]
    fn only_matching_wanted_patterns_are_reported_across_shards() {
        let set = ScanSet::new(&forms(SHARD + 5)).expect("builds");
        let last = SHARD + 4;
        let text = format!("a w1x, a w3x and a w{last}x");
        assert_eq!(set.matches(&text, |_| true), [1, 3, last]);
        assert_eq!(set.matches(&text, |i| i != 3), [1, last]);
        assert_eq!(set.matches(&text, |i| i == last), [last]);
        assert_eq!(set.matches("nothing", |_| true), Vec::<usize>::new());
        assert_eq!(set.strain(), [(0, 0), (0, 0)]);
    }

    #[test]
    fn a_shard_the_dfa_gives_up_on_reports_every_wanted_pattern_and_is_counted() {
        // A Unicode word boundary makes the lazy DFA quit at the first non-ASCII byte.
        let set = ScanSet::new(&[r"\bcat\b".to_owned(), "dog".to_owned()]).expect("builds");
        let before = fallbacks_total();
        assert_eq!(set.matches("une chatte née", |_| true), [0, 1]);
        assert_eq!(set.matches("une chatte née", |i| i == 1), [1]);
        assert_eq!(set.strain(), [(2, 0)]);
        assert!(fallbacks_total() >= before + 2);
        // ASCII text: searched, exact.
        assert_eq!(set.matches("a cat", |_| true), [0]);
    }
}
