//! Which patterns can match in a haystack: the pattern tier's first pass.
//!
//! All patterns in one overlapping lazy DFA blow up: the DFA's states are sets of NFA
//! states of every pattern at once, so on varied text (not one paragraph repeated) the
//! cache fills, is cleared, fills again, and the DFA gives up for a PikeVM that runs at
//! ~0.1 MB/s. Split into shards of [`SHARD`] patterns, each shard's states stay few
//! enough to be reused request after request, and a request skips the shards holding
//! none of its labels.
//!
//! The shards are scanned side by side, each byte by every shard in turn
//! ([`every_end`]): one shard's scan waits on memory at every byte, several interleaved
//! do not wait on each other.
//!
//! The scan also says where each pattern's matches end, so that a pattern whose form
//! here is its own regex searches only just before those ends (`recognizer.rs`).
//!
//! A shard that gives up anyway answers "maybe, anywhere" for each of its wanted
//! patterns, whose own regexes then search the whole text: the result is the same, only
//! slower, and [`fallbacks_total`] counts it (exported as
//! `anonymizer_pattern_scan_fallbacks_total`; a registry test keeps every shard well
//! within its cache on a varied corpus).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Input, MatchKind};

/// Patterns per shard. On new text (each 25 KB document scanned once after ten others,
/// 16 MiB caches), the scan of the whole set ran at: 8 per shard ~10 (mixed registers
/// with CJK) / 16 (prose) / 18 MB/s (JSON logs); 24: ~10 / 24 / 31; 48: ~7 / 11 / 18;
/// 100: ~2 / 5 / 7. Fewer patterns per shard keep the states each new text needs few;
/// more shards mean more passes.
const SHARD: usize = 24;

/// Most memory one cache of a shard's lazy DFA counts (its vectors' spare capacity comes
/// on top: the heap held about twice the count); it fills only as text needs states
/// (all shards together: ~20 MB after 2 MB of new text, 64 MB after 112 MB). The `regex`
/// crate's 2 MiB holds too few states for varied text (cleared over and over, then it
/// gives up); 8 MiB scanned three streams of new mixed text 16 % slower for 88 instead
/// of 113 MB, 4 MiB one stream 40 % slower.
pub(crate) const CACHE_BYTES: usize = 16 << 20;

static FALLBACKS: AtomicU64 = AtomicU64::new(0);

/// Bytes held by all lazy-DFA caches when last returned to their pools.
static CACHE_HELD: AtomicU64 = AtomicU64::new(0);

/// What the lazy DFAs' caches hold (states built for the text seen), all pools together.
pub fn cache_bytes() -> u64 {
    CACHE_HELD.load(Ordering::Relaxed)
}

/// Scans the lazy DFA gave up on since start (a shard's, answered pattern by pattern, or
/// a search back for a start, answered with the whole text).
pub fn fallbacks_total() -> u64 {
    FALLBACKS.load(Ordering::Relaxed)
}

/// The lazy-DFA caches of one DFA, shared by all threads, at most one per core. A
/// cache holds the states its scans built (MBs on varied text). The `regex` crate's pool
/// keeps caches per stack of threads, and the event loop's threads, the blocking pool's
/// and a large request's two halves made five of each shard's on two cores (~130 MB in
/// all); scans beyond the cores cannot run at once anyway, so a scan beyond the limit
/// waits for a cache instead of building its own. A set scan takes its shards' caches in
/// the shards' order and gives them all back before it takes any other (a pattern's
/// search back takes one at a time), so no two threads wait on each other.
struct Caches {
    dfa: DFA,
    state: Mutex<Lendable>,
    returned: Condvar,
}

#[derive(Default)]
struct Lendable {
    free: Vec<Cache>,
    /// Caches made, free or lent.
    made: usize,
    /// Scans waiting for a cache to come back.
    waiting: usize,
}

/// Most caches of one DFA: one per core, as no more scans can run at once. Each cache
/// fills towards its cap with the states new text needs, so the limit bounds memory:
/// three request streams of new mixed text left 141 MB in the caches with twice the
/// cores, 113 MB with the cores, at the same speed. Read once: the cores are looked up
/// in the cgroup files.
fn cache_limit() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

impl Caches {
    fn new(dfa: DFA) -> Self {
        Caches {
            dfa,
            state: Mutex::default(),
            returned: Condvar::new(),
        }
    }

    /// A cache: a free one, a new one while fewer than the limit exist, or the next one
    /// returned.
    fn lend(&self) -> Lent<'_> {
        let cache = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(cache) = state.free.pop() {
                    break cache;
                }
                if state.made < cache_limit() {
                    state.made += 1;
                    break self.dfa.create_cache();
                }
                state.waiting += 1;
                state = self.returned.wait(state).unwrap_or_else(|e| e.into_inner());
                state.waiting -= 1;
            }
        };
        Lent {
            caches: self,
            held: cache.memory_usage() as u64,
            cache: Some(cache),
        }
    }

    /// Runs `scan` with a lent cache.
    fn with<R>(&self, scan: impl FnOnce(&DFA, &mut Cache) -> R) -> R {
        let mut lent = self.lend();
        scan(&self.dfa, lent.cache_mut())
    }
}

/// A pool goes with its DFA (a configuration reload builds new ones): what its caches
/// held leaves the gauge. None is lent then, as a lent cache borrows the pool.
impl Drop for Caches {
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let held: u64 = state.free.iter().map(|c| c.memory_usage() as u64).sum();
        CACHE_HELD.fetch_sub(held, Ordering::Relaxed);
    }
}

/// A cache out of its pool; it goes back when dropped, after a panic too.
struct Lent<'a> {
    caches: &'a Caches,
    cache: Option<Cache>,
    /// What the cache held when lent, as the gauge counts it.
    held: u64,
}

impl Lent<'_> {
    fn cache_mut(&mut self) -> &mut Cache {
        self.cache.as_mut().expect("lent until dropped")
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(cache) = self.cache.take() {
            // Most scans of a warm cache build no state: no write to the shared counter.
            // A cleared cache shrinks; the wrapping add is then a subtraction.
            let now = cache.memory_usage() as u64;
            if now != self.held {
                CACHE_HELD.fetch_add(now.wrapping_sub(self.held), Ordering::Relaxed);
            }
            let mut state = self.caches.state.lock().unwrap_or_else(|e| e.into_inner());
            state.free.push(cache);
            // A notification is a system call; most returns have no one to wake.
            let waiting = state.waiting > 0;
            drop(state);
            if waiting {
                self.caches.returned.notify_one();
            }
        }
    }
}

struct Shard {
    /// Scans of this shard the DFA gave up on.
    gave_up: AtomicU64,
    /// Times a cache of this shard was full and cleared: states built again.
    clears: AtomicU64,
    /// Index in the whole set of each of this shard's patterns, ascending.
    members: Vec<usize>,
    caches: Caches,
}

impl Shard {
    /// The wanted patterns of this shard that match, given its scan's (pattern within
    /// the shard, end) events; every wanted pattern, with no ends, when the DFA gave up.
    fn hits(
        &self,
        events: Option<Vec<(usize, usize)>>,
        wanted: impl Fn(usize) -> bool,
        hits: &mut Vec<Hit>,
    ) {
        let Some(mut events) = events else {
            let every = self.members.iter().filter(|&&i| wanted(i));
            hits.extend(every.map(|&index| Hit { index, ends: None }));
            return;
        };
        events.sort_unstable();
        events.dedup();
        for group in events.chunk_by(|a, b| a.0 == b.0) {
            let index = self.members[group[0].0];
            if wanted(index) {
                hits.push(Hit {
                    index,
                    ends: Some(group.iter().map(|&(_, end)| end).collect()),
                });
            }
        }
    }
}

/// Regexes searched together, as shards of lazy DFAs: the set forms of all patterns, or
/// one pattern's finder of match ends.
pub struct ScanSet {
    shards: Vec<Shard>,
    /// The shard of each pattern.
    shard_of: Vec<usize>,
}

/// A pattern that can match in the haystack scanned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Its index among the forms given to [`ScanSet::new`].
    pub index: usize,
    /// Every offset, ascending, at which a match of its form ends, from any start: a
    /// pattern whose form is its own regex need only be searched just before them.
    /// `None` when the shard's DFA gave up (the whole haystack must be searched).
    pub ends: Option<Vec<usize>>,
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
        for members in balanced(forms)? {
            let chunk: Vec<&str> = members.iter().map(|&i| forms[i].as_str()).collect();
            let dfa = DFA::builder()
                .configure(lazy_dfa(cache_bytes))
                .thompson(thompson::Config::new().which_captures(WhichCaptures::None))
                .build_many(&chunk)
                .map_err(|e| ScanSetError(e.to_string()))?;
            shards.push(Shard {
                gave_up: AtomicU64::new(0),
                clears: AtomicU64::new(0),
                members,
                caches: Caches::new(dfa),
            });
        }
        let mut shard_of = vec![0; forms.len()];
        for (n, shard) in shards.iter().enumerate() {
            for &i in &shard.members {
                shard_of[i] = n;
            }
        }
        Ok(Self { shards, shard_of })
    }

    /// The shard pattern `index` is scanned in, below [`ScanSet::shards`].
    pub fn shard_of(&self, index: usize) -> usize {
        self.shard_of[index]
    }

    /// How many shards the set scans.
    pub fn shards(&self) -> usize {
        self.shards.len()
    }

    /// The patterns that match somewhere in `haystack`, ascending, among those for which
    /// `wanted(index)` holds; shards with no wanted pattern are not searched. In a shard
    /// the DFA gave up on, every wanted pattern counts as matching, with no ends.
    pub fn matches(&self, haystack: &str, wanted: impl Fn(usize) -> bool) -> Vec<Hit> {
        let searched: Vec<&Shard> = (self.shards.iter())
            .filter(|shard| shard.members.iter().any(|&i| wanted(i)))
            .collect();
        // Lent in the shards' order, by every scan: no two scans wait on each other.
        let mut lent: Vec<Lent<'_>> = searched.iter().map(|s| s.caches.lend()).collect();
        let input = Input::new(haystack);
        let mut lanes: Vec<Lane<'_>> = (searched.iter().zip(lent.iter_mut()))
            .map(|(shard, lent)| Lane::new(&shard.caches.dfa, lent.cache_mut(), &input))
            .collect();
        every_end(&mut lanes, haystack.as_bytes());
        let mut hits = Vec::new();
        for (shard, lane) in searched.iter().zip(lanes) {
            shard
                .clears
                .fetch_add(lane.cleared() as u64, Ordering::Relaxed);
            let events = lane.events();
            if events.is_none() {
                FALLBACKS.fetch_add(1, Ordering::Relaxed);
                shard.gave_up.fetch_add(1, Ordering::Relaxed);
            }
            shard.hits(events, &wanted, &mut hits);
        }
        hits.sort_unstable_by_key(|h| h.index);
        hits
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

/// One shard's overlapping search in progress.
struct Lane<'a> {
    dfa: &'a DFA,
    cache: &'a mut Cache,
    sid: LazyStateID,
    /// Its cache's clears before the search.
    clears: usize,
    /// (pattern within the shard, end offset) of every match.
    events: Vec<(usize, usize)>,
    search: Search,
}

/// Where a lane's search is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Search {
    On,
    /// A dead state or the end of the haystack.
    Ended,
    GaveUp,
}

impl<'a> Lane<'a> {
    /// At the start of `input`.
    fn new(dfa: &'a DFA, cache: &'a mut Cache, input: &Input<'_>) -> Self {
        let clears = cache.clear_count();
        let (sid, search) = match dfa.start_state_forward(cache, input) {
            Ok(sid) => {
                cache.search_start(input.start());
                (sid, Search::On)
            }
            // No state to step from: a lane that gave up is never stepped.
            Err(_) => (LazyStateID::default(), Search::GaveUp),
        };
        Lane {
            dfa,
            cache,
            sid,
            clears,
            events: Vec::new(),
            search,
        }
    }

    fn on(&self) -> bool {
        self.search == Search::On
    }

    /// The transition on the byte at `at` that the fast path could not take: a state to
    /// build, a match, the end of the search.
    #[inline(never)]
    fn step(&mut self, bytes: &[u8], at: usize) {
        // Progress counts for `minimum_bytes_per_state` when a state is built.
        self.cache.search_update(at);
        match self.dfa.next_state(self.cache, self.sid, bytes[at]) {
            Err(_) => self.stop(at, true),
            Ok(sid) => {
                self.sid = sid;
                if sid.is_match() {
                    self.matched(at);
                } else if sid.is_dead() {
                    self.stop(at, false);
                } else if sid.is_quit() {
                    self.stop(at, true);
                }
            }
        }
    }

    fn matched(&mut self, at: usize) {
        for i in 0..self.dfa.match_len(self.cache, self.sid) {
            let pattern = self.dfa.match_pattern(self.cache, self.sid, i);
            self.events.push((pattern.as_usize(), at));
        }
    }

    fn stop(&mut self, at: usize, gave_up: bool) {
        self.cache.search_finish(at);
        self.search = if gave_up {
            Search::GaveUp
        } else {
            Search::Ended
        };
    }

    fn cleared(&self) -> usize {
        self.cache.clear_count().saturating_sub(self.clears)
    }

    /// Its match events; `None` when the DFA gave up.
    fn events(self) -> Option<Vec<(usize, usize)>> {
        (self.search != Search::GaveUp).then_some(self.events)
    }
}

/// Every (pattern, end) at which a match of a lane's patterns ends in `bytes`, from
/// any start, in each lane's events: what an overlapping search reports.
///
/// Why not `try_search_overlapping_fwd`, one shard after another: each byte's transition
/// is a load that depends on the one before, so one lazy DFA's scan waits on memory at
/// every byte (~500 MB/s for one literal, 200–340 for a shard of patterns), and that
/// routine also takes the checked transition at every byte and returns at every match.
/// Here the shards take each byte in turn: their loads do not depend on each other and
/// overlap, and a lane leaves the transitions its cache already holds only to build a
/// state, report a match or stop. Matches are reported one byte late, as the lazy DFA
/// delays them to see past their ends (look-arounds).
fn every_end(lanes: &mut [Lane<'_>], bytes: &[u8]) {
    for (at, &byte) in bytes.iter().enumerate() {
        for lane in lanes.iter_mut() {
            if !lane.sid.is_tagged() {
                let next = lane.dfa.next_state_untagged(lane.cache, lane.sid, byte);
                if !next.is_tagged() {
                    lane.sid = next;
                    continue;
                }
            }
            if lane.on() {
                lane.step(bytes, at);
            }
        }
    }
    for lane in lanes.iter_mut().filter(|lane| lane.on()) {
        match lane.dfa.next_eoi_state(lane.cache, lane.sid) {
            Err(_) => lane.stop(bytes.len(), true),
            Ok(sid) => {
                lane.sid = sid;
                if sid.is_match() {
                    lane.matched(bytes.len());
                }
                lane.stop(bytes.len(), false);
            }
        }
    }
}

/// The lazy DFAs' settings: every match (overlapping, or the longest back), a cache of
/// at most `cache_bytes` per thread.
fn lazy_dfa(cache_bytes: usize) -> regex_automata::hybrid::dfa::Config {
    DFA::config()
        .match_kind(MatchKind::All)
        .cache_capacity(cache_bytes)
        .unicode_word_boundary(true)
        // As the `regex` crate's own lazy DFA: give up rather than crawl when states
        // are rebuilt faster than they are reused.
        .minimum_cache_clear_count(Some(3))
        .minimum_bytes_per_state(Some(10))
}

/// Where the matches of one regex that end at a given offset can start: its reverse
/// lazy DFA, searched back from the end. For a pattern of unbounded length whose match
/// ends the set scan found, this bounds the stretch its own regex must search, as a
/// maximum length bounds it for the others.
pub struct Starts {
    caches: Caches,
}

impl Starts {
    /// # Errors
    /// When `form` does not compile into a lazy DFA.
    pub fn new(form: &str) -> Result<Self, ScanSetError> {
        let dfa = DFA::builder()
            .configure(
                // All: the search goes on past the shortest match to the earliest start.
                lazy_dfa(CACHE_BYTES / 4),
            )
            .thompson(
                thompson::Config::new()
                    .reverse(true)
                    .which_captures(WhichCaptures::None),
            )
            .build(form)
            .map_err(|e| ScanSetError(e.to_string()))?;
        Ok(Self {
            caches: Caches::new(dfa),
        })
    }

    /// The earliest offset at which a match ending at `end` starts; `None` when no
    /// match ends there or the DFA gave up.
    pub fn earliest(&self, haystack: &str, end: usize) -> Option<usize> {
        let input = Input::new(haystack)
            .range(..end)
            .anchored(regex_automata::Anchored::Yes);
        match self
            .caches
            .with(|dfa, cache| dfa.try_search_rev(cache, &input))
        {
            Ok(found) => found.map(|m| m.offset()),
            Err(_) => {
                FALLBACKS.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }
}

/// The forms' indices in shards of at most [`SHARD`], each ascending, with the forms'
/// NFA sizes spread evenly: a shard's lazy DFA builds states for the combinations of
/// its patterns that text starts at once, and two long word alternations in one shard
/// (conditions, occupations, street types) multiplied them: on new prose, the shard
/// holding five of them cost ten times its warm scan, the others under 1.5 times.
fn balanced(forms: &[String]) -> Result<Vec<Vec<usize>>, ScanSetError> {
    let mut sizes = Vec::with_capacity(forms.len());
    for (i, form) in forms.iter().enumerate() {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::None))
            .build(form)
            .map_err(|e| ScanSetError(e.to_string()))?;
        sizes.push((nfa.states().len(), i));
    }
    // Largest first, each to the lightest shard with room (ties: the first).
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let n = forms.len().div_ceil(SHARD);
    let mut shards: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); n];
    for (size, i) in sizes {
        let lightest = shards
            .iter_mut()
            .filter(|s| s.1.len() < SHARD)
            .min_by_key(|s| s.0)
            .expect("n shards hold every form");
        lightest.0 += size;
        lightest.1.push(i);
    }
    Ok(shards
        .into_iter()
        .map(|(_, mut members)| {
            members.sort_unstable();
            members
        })
        .collect())
}

/// The same as [`ScanSet::matches`] through `regex_automata`'s own overlapping search,
/// one shard after another: the reference the interleaved scan is tested against.
#[cfg(test)]
pub(crate) fn reference_matches(set: &ScanSet, haystack: &str) -> Vec<Hit> {
    use regex_automata::hybrid::dfa::OverlappingState;
    let mut hits = Vec::new();
    for shard in &set.shards {
        let mut events = Vec::new();
        let searched = shard.caches.with(|dfa, cache| {
            let input = Input::new(haystack);
            let mut state = OverlappingState::start();
            loop {
                dfa.try_search_overlapping_fwd(cache, &input, &mut state)?;
                match state.get_match() {
                    None => break Ok::<_, regex_automata::MatchError>(()),
                    Some(m) => events.push((m.pattern().as_usize(), m.offset())),
                }
            }
        });
        shard.hits(searched.ok().map(|()| events), |_| true, &mut hits);
    }
    hits.sort_unstable_by_key(|h| h.index);
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interleaved_scan_reports_what_one_overlapping_search_per_shard_reports() {
        // Boundaries at both edges, matches at the end of the text, several patterns
        // ending at one offset, a pattern whose lazy DFA quits on non-ASCII text while
        // the others go on, and more forms than one shard holds.
        let mut forms: Vec<String> = [
            r"(?-u:\b)[0-9]{3}(?-u:\b)",
            r"[a-z]+@[a-z]+\.com",
            r"(?i)key[=:][a-z0-9]{4,}",
            r"\bcat\b",
            r"[0-9]+",
            r"a[a-z]*",
            r"(?-u:\b)end$",
            r"[^\n]{3}\n\n",
        ]
        .iter()
        .map(|f| f.to_string())
        .collect();
        forms.extend((0..SHARD).map(|i| format!("w{i}x")));
        let set = ScanSet::new(&forms).expect("builds");
        assert!(set.shards() >= 2);
        for text in [
            "",
            "123",
            "a 123 b 4567 c 89 end",
            "mail bob@example.com, key=ABCD1234 and w3x w17x 42\n\nnext",
            "une chatte née à 123 rue, a cat, key:zz99",
            "w0xw1x w25x aaa 000 end",
            "😀 123 😀\n\n\n",
        ] {
            assert_eq!(
                set.matches(text, |_| true),
                reference_matches(&set, text),
                "{text:?}"
            );
        }
    }

    fn forms(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("w{i}x")).collect()
    }

    #[test]
    fn many_threads_share_at_most_the_limit_of_caches_and_each_finds_its_matches() {
        let set = ScanSet::new(&forms(3)).unwrap();
        let limit = cache_limit();
        std::thread::scope(|scope| {
            for t in 0..4 * limit {
                let set = &set;
                scope.spawn(move || {
                    for i in 0..50 {
                        let text = format!("{t} w{}x {i}", (t + i) % 3);
                        let hits = set.matches(&text, |_| true);
                        assert_eq!(hits.len(), 1, "{text}");
                        assert_eq!(hits[0].index, (t + i) % 3);
                    }
                });
            }
        });
        let state = set.shards[0].caches.state.lock().unwrap();
        let created = state.made;
        assert!(
            created <= limit && state.free.len() == created,
            "{created} of {limit}"
        );
    }

    #[test]
    fn only_matching_wanted_patterns_are_reported_across_shards() {
        let set = ScanSet::new(&forms(SHARD + 5)).expect("builds");
        let last = SHARD + 4;
        let text = format!("a w1x, a w3x and a w{last}x, w1x");
        let indices = |wanted: &dyn Fn(usize) -> bool| -> Vec<usize> {
            set.matches(&text, wanted).iter().map(|h| h.index).collect()
        };
        assert_eq!(indices(&|_| true), [1, 3, last]);
        assert_eq!(indices(&|i| i != 3), [1, last]);
        assert_eq!(indices(&|i| i == last), [last]);
        assert_eq!(set.matches("nothing", |_| true), []);
        // Every end of every match, where the match ends.
        assert_eq!(
            set.matches(&text, |i| i == 1),
            [Hit {
                index: 1,
                ends: Some(vec![5, 28])
            }]
        );
        assert_eq!(set.strain(), [(0, 0), (0, 0)]);
    }

    #[test]
    fn starts_are_the_earliest_of_the_matches_ending_there() {
        let starts = Starts::new(r"(?-u:\b)[a-z]+ [0-9]+").expect("builds");
        let text = "at main street 12 and 7";
        assert_eq!(starts.earliest(text, 17), Some(8));
        assert_eq!(starts.earliest(text, 16), Some(8));
        assert_eq!(starts.earliest(text, 23), Some(18));
        assert_eq!(starts.earliest(text, 14), None);
    }

    #[test]
    fn a_shard_the_dfa_gives_up_on_reports_every_wanted_pattern_and_is_counted() {
        // A Unicode word boundary makes the lazy DFA quit at the first non-ASCII byte.
        let set = ScanSet::new(&[r"\bcat\b".to_owned(), "dog".to_owned()]).expect("builds");
        let before = fallbacks_total();
        let hit = |index| Hit { index, ends: None };
        assert_eq!(set.matches("une chatte née", |_| true), [hit(0), hit(1)]);
        assert_eq!(set.matches("une chatte née", |i| i == 1), [hit(1)]);
        assert_eq!(set.strain(), [(2, 0)]);
        assert!(fallbacks_total() >= before + 2);
        // ASCII text: searched, exact.
        assert_eq!(
            set.matches("a cat", |_| true),
            [Hit {
                index: 0,
                ends: Some(vec![5])
            }]
        );
    }
}
