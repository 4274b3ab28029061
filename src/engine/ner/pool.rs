//! The inference pool: a few dedicated worker threads, each owning one ONNX session,
//! fed from a bounded queue of jobs.
//!
//! Callers (request threads, never the async executor) tokenize and window their texts
//! themselves, submit all windows as one job and block until every window has a result.
//! A free worker takes up to `max_batch_tokens` tokens of windows **round-robin across
//! the queued jobs** — one window from each job in turn — so windows of concurrent
//! requests share forward passes, and a one-window request is served in the next pass
//! even while a 1-million-character text is being worked through. The windows taken
//! are sorted by length and cut into padded batches of about one length each
//! ([`batch_rows`]), which keeps padding small.
//!
//! Concurrency is bounded twice: `workers` sessions run at once (each with its own
//! intra-op threads), and at most `queue_capacity` jobs wait; a caller beyond that
//! blocks in `infer` (back-pressure rather than unbounded memory).
//!
//! The pool's timeout bounds how long a job may go **without progress**: from its
//! submission to its first finished window (queueing included), and from each finished
//! window to the next. A hung or starved runtime fails the job within the timeout, while
//! a large job that keeps moving (a 10 MiB request is minutes of model work on 2 cores)
//! is never cut off for its size. A job that fails this way leaves the queue with its
//! windows not yet taken, and the results of windows already running are dropped when
//! they arrive.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::model::{Model, TokenClass};
use super::NerError;

/// Most windows in one forward pass, whatever their length.
const MAX_BATCH_ROWS: usize = 64;

/// Most padding a window may get, as a fraction `1 / PADDING_DIVISOR` of the pass's
/// width (at least [`MIN_PADDING`] tokens); a shorter window waits for a later pass. A
/// padded token costs a real token's time, a pass costs a few tokens' worth: on 32 texts
/// of ~600 characters, 1/16 cut padding from 23 % to 1.5 % of the tokens and the model's
/// time by about a fifth (`cargo bench --bench detect -- engine/`); no limit or none at
/// all (one pass per length) were both slower.
const PADDING_DIVISOR: usize = 16;
const MIN_PADDING: usize = 4;

/// Longest timeout honoured: `Instant + Duration` panics on overflow, and nobody waits
/// a day for one request.
const MAX_TIMEOUT: Duration = Duration::from_secs(86_400);

/// One model input row: `[CLS] tokens… [SEP]` ids and their `token_type_ids` (as long
/// as `ids`, or empty for all zeros).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WindowIds {
    pub ids: Vec<i64>,
    pub types: Vec<i64>,
}

type Reply = Result<Vec<Vec<TokenClass>>, NerError>;

/// What a job's caller hears: a window finished, or the whole answer.
enum Message {
    Progress,
    Done(Reply),
}

/// Where a job's results gather until the last window is done.
struct Sink {
    results: Vec<Vec<TokenClass>>,
    remaining: usize,
    failure: Option<NerError>,
    reply: Option<mpsc::Sender<Message>>,
}

impl Sink {
    /// Records one window's outcome; answers the caller after the last one.
    fn settle(&mut self, window: usize, outcome: Result<Vec<TokenClass>, NerError>) {
        match outcome {
            Ok(classes) => {
                if let Some(slot) = self.results.get_mut(window) {
                    *slot = classes;
                }
            }
            Err(e) => {
                self.failure.get_or_insert(e);
            }
        }
        self.remaining = self.remaining.saturating_sub(1);
        if self.remaining == 0 {
            if let Some(reply) = self.reply.take() {
                let answer = match self.failure.take() {
                    Some(e) => Err(e),
                    None => Ok(std::mem::take(&mut self.results)),
                };
                // The caller may have given up (timed out): its receiver is gone, the
                // send fails, and the results are dropped here.
                let _ = reply.send(Message::Done(answer));
            }
        } else if let Some(reply) = &self.reply {
            let _ = reply.send(Message::Progress);
        }
    }
}

struct Job {
    windows: Arc<Vec<WindowIds>>,
    /// First window not yet handed to a worker.
    next: usize,
    sink: Arc<Mutex<Sink>>,
}

struct Queue {
    jobs: VecDeque<Job>,
    closed: bool,
}

/// The work the pool has done since it started, for the service's metrics: what the
/// model costs, and proof that a request which needs no model label never reached it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PoolStats {
    /// Forward passes (padded batches) run.
    pub passes: u64,
    /// Windows run, each one row of a pass.
    pub windows: u64,
    /// Tokens of those windows, special tokens included.
    pub tokens: u64,
    /// Padding added to make the rows of a pass equally long.
    pub padding: u64,
    /// Wall-clock time inside forward passes.
    pub seconds: f64,
}

#[derive(Default)]
struct Counters {
    passes: AtomicU64,
    windows: AtomicU64,
    tokens: AtomicU64,
    padding: AtomicU64,
    nanos: AtomicU64,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a job arrives or the pool closes.
    work: Condvar,
    /// Signalled when a job leaves the queue.
    space: Condvar,
    capacity: usize,
    max_batch_tokens: usize,
    pad: i64,
    done: Counters,
}

impl Shared {
    fn lock(&self) -> Result<MutexGuard<'_, Queue>, NerError> {
        self.queue
            .lock()
            .map_err(|_| NerError::runtime("inference queue lock poisoned"))
    }
}

impl Counters {
    /// One forward pass of rows of these `lengths`, padded to `width`.
    fn count(&self, lengths: &[usize], width: usize, took: Duration) {
        let tokens: usize = lengths.iter().sum();
        self.passes.fetch_add(1, Ordering::Relaxed);
        self.windows
            .fetch_add(lengths.len() as u64, Ordering::Relaxed);
        self.tokens.fetch_add(tokens as u64, Ordering::Relaxed);
        let padded = lengths.len() * width;
        self.padding
            .fetch_add(padded.saturating_sub(tokens) as u64, Ordering::Relaxed);
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
    }
}

/// A window handed to a worker: its ids and where its result goes.
struct Taken {
    windows: Arc<Vec<WindowIds>>,
    index: usize,
    sink: Arc<Mutex<Sink>>,
}

impl Taken {
    fn ids(&self) -> &[i64] {
        self.windows.get(self.index).map_or(&[], |w| &w.ids)
    }

    fn types(&self) -> &[i64] {
        self.windows.get(self.index).map_or(&[], |w| &w.types)
    }
}

pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    timeout: Duration,
}

impl Pool {
    /// Starts one worker thread per model. `infer` gives up after `timeout`.
    ///
    /// # Errors
    /// A thread cannot be spawned.
    pub fn start(
        models: Vec<Model>,
        queue_capacity: usize,
        max_batch_tokens: usize,
        pad: i64,
        timeout: Duration,
    ) -> Result<Pool, NerError> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                closed: false,
            }),
            work: Condvar::new(),
            space: Condvar::new(),
            capacity: queue_capacity.max(1),
            max_batch_tokens: max_batch_tokens.max(1),
            pad,
            done: Counters::default(),
        });
        let mut pool = Pool {
            shared,
            workers: Vec::with_capacity(models.len()),
            timeout: timeout.min(MAX_TIMEOUT),
        };
        for (i, model) in models.into_iter().enumerate() {
            let shared = Arc::clone(&pool.shared);
            let handle = std::thread::Builder::new()
                .name(format!("ner-{i}"))
                .spawn(move || work(model, &shared))
                .map_err(|e| NerError::runtime(format!("spawning an inference thread: {e}")))?;
            pool.workers.push(handle);
        }
        Ok(pool)
    }

    /// Runs `windows` through the model; blocks until done, or until the pool's timeout
    /// passes without one of them finishing. Returns one result per window, each as
    /// long as the window (special tokens included).
    ///
    /// # Errors
    /// Inference failed or stalled past the timeout, or the pool has stopped.
    pub fn infer(&self, windows: Vec<WindowIds>) -> Reply {
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        let mut deadline = Instant::now() + self.timeout;
        let (reply, answer) = mpsc::channel();
        let count = windows.len();
        let sink = Arc::new(Mutex::new(Sink {
            results: vec![Vec::new(); count],
            remaining: count,
            failure: None,
            reply: Some(reply),
        }));
        let job = Job {
            windows: Arc::new(windows),
            next: 0,
            sink: Arc::clone(&sink),
        };
        {
            let mut queue = self.shared.lock()?;
            while queue.jobs.len() >= self.shared.capacity && !queue.closed {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(self.timed_out());
                }
                queue = self
                    .shared
                    .space
                    .wait_timeout(queue, left)
                    .map_err(|_| NerError::runtime("inference queue lock poisoned"))?
                    .0;
            }
            if queue.closed {
                return Err(stopped());
            }
            queue.jobs.push_back(job);
        }
        self.shared.work.notify_one();
        loop {
            match answer.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Message::Progress) => deadline = Instant::now() + self.timeout,
                Ok(Message::Done(result)) => return result,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.withdraw(&sink);
                    return Err(self.timed_out());
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(stopped()),
            }
        }
    }

    /// Takes a given-up job's windows that no worker has taken yet out of the queue, so
    /// they cost nothing. Windows already running finish; `Sink::settle` drops their
    /// results, as the receiver is gone.
    fn withdraw(&self, sink: &Arc<Mutex<Sink>>) {
        let Ok(mut queue) = self.shared.lock() else {
            return;
        };
        let before = queue.jobs.len();
        queue.jobs.retain(|job| !Arc::ptr_eq(&job.sink, sink));
        if queue.jobs.len() < before {
            self.shared.space.notify_all();
        }
    }

    /// What the workers have run so far.
    pub fn stats(&self) -> PoolStats {
        let done = &self.shared.done;
        PoolStats {
            passes: done.passes.load(Ordering::Relaxed),
            windows: done.windows.load(Ordering::Relaxed),
            tokens: done.tokens.load(Ordering::Relaxed),
            padding: done.padding.load(Ordering::Relaxed),
            seconds: done.nanos.load(Ordering::Relaxed) as f64 / 1e9,
        }
    }

    fn timed_out(&self) -> NerError {
        NerError::runtime(format!(
            "inference did not finish within {} ms without progress (model.inference_timeout_ms)",
            self.timeout.as_millis()
        ))
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        if let Ok(mut queue) = self.shared.queue.lock() {
            queue.closed = true;
        }
        self.shared.work.notify_all();
        self.shared.space.notify_all();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

fn stopped() -> NerError {
    NerError::runtime("the inference workers have stopped")
}

fn work(mut model: Model, shared: &Shared) {
    loop {
        let taken = {
            let Ok(mut queue) = shared.lock() else { return };
            while queue.jobs.is_empty() && !queue.closed {
                queue = match shared.work.wait(queue) {
                    Ok(q) => q,
                    Err(_) => return,
                };
            }
            if queue.jobs.is_empty() {
                // Closed and drained.
                return;
            }
            let taken = take_round_robin(&mut queue.jobs, shared.max_batch_tokens);
            // Work may remain for another worker.
            if !queue.jobs.is_empty() {
                shared.work.notify_one();
            }
            taken
        };
        shared.space.notify_all();
        run(&mut model, taken, shared);
    }
}

/// Takes windows one per job in turn until `budget` tokens are taken (at least one
/// window); drops fully handed-out jobs from the queue.
fn take_round_robin(jobs: &mut VecDeque<Job>, budget: usize) -> Vec<Taken> {
    let mut taken = Vec::new();
    let mut tokens = 0;
    'rounds: loop {
        let mut progressed = false;
        for job in jobs.iter_mut() {
            let Some(window) = job.windows.get(job.next) else {
                continue;
            };
            if !taken.is_empty() && tokens + window.ids.len() > budget {
                break 'rounds;
            }
            tokens += window.ids.len();
            taken.push(Taken {
                windows: Arc::clone(&job.windows),
                index: job.next,
                sink: Arc::clone(&job.sink),
            });
            job.next += 1;
            progressed = true;
        }
        if !progressed {
            break;
        }
    }
    jobs.retain(|job| job.next < job.windows.len());
    taken
}

/// Runs the taken windows in length-sorted padded batches and settles each result.
fn run(model: &mut Model, mut taken: Vec<Taken>, shared: &Shared) {
    taken.sort_by_key(|t| std::cmp::Reverse(t.ids().len()));
    let mut rest = &taken[..];
    while !rest.is_empty() {
        let width = rest[0].ids().len().max(1);
        let rows = batch_rows(rest, width, shared.max_batch_tokens);
        let (batch, tail) = rest.split_at(rows);
        rest = tail;
        let mut ids = vec![shared.pad; rows * width];
        let mut types = vec![0; rows * width];
        let mut lengths = Vec::with_capacity(rows);
        for (r, t) in batch.iter().enumerate() {
            let (window, window_types) = (t.ids(), t.types());
            ids[r * width..r * width + window.len()].copy_from_slice(window);
            let typed = window_types.len().min(window.len());
            types[r * width..r * width + typed].copy_from_slice(&window_types[..typed]);
            lengths.push(window.len());
        }
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            model.run(&ids, &types, &lengths, width)
        }))
        .unwrap_or_else(|_| Err(NerError::runtime("inference panicked")));
        shared.done.count(&lengths, width, started.elapsed());
        let mut rows_out = match outcome {
            Ok(rows_out) => rows_out.into_iter().map(Ok).collect(),
            Err(e) => vec![Err(e); rows],
        };
        rows_out.resize_with(rows, || {
            Err(NerError::runtime("model returned too few rows"))
        });
        for (t, result) in batch.iter().zip(rows_out) {
            match t.sink.lock() {
                Ok(mut sink) => sink.settle(t.index, result),
                // A poisoned sink only happens after a panic while settling; its
                // caller then sees the reply channel close.
                Err(_) => continue,
            }
        }
    }
}

/// How many of `sorted` (longest first, the first `width` tokens long) the next pass
/// takes: within the token budget and [`MAX_BATCH_ROWS`], and none padded by more than
/// its share of `width`; always at least one.
fn batch_rows(sorted: &[Taken], width: usize, max_batch_tokens: usize) -> usize {
    let most = (max_batch_tokens / width)
        .clamp(1, MAX_BATCH_ROWS)
        .min(sorted.len());
    let padding = (width / PADDING_DIVISOR).max(MIN_PADDING);
    sorted[..most]
        .iter()
        .take_while(|t| t.ids().len() + padding >= width)
        .count()
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(lengths: &[usize]) -> (Job, mpsc::Receiver<Message>) {
        let (reply, answer) = mpsc::channel();
        let windows: Vec<WindowIds> = lengths
            .iter()
            .map(|&n| WindowIds {
                ids: vec![0; n],
                types: vec![0; n],
            })
            .collect();
        let count = windows.len();
        let job = Job {
            windows: Arc::new(windows),
            next: 0,
            sink: Arc::new(Mutex::new(Sink {
                results: vec![Vec::new(); count],
                remaining: count,
                failure: None,
                reply: Some(reply),
            })),
        };
        (job, answer)
    }

    fn windows(lengths: &[usize]) -> Vec<WindowIds> {
        lengths
            .iter()
            .map(|&n| WindowIds {
                ids: vec![0; n],
                types: vec![0; n],
            })
            .collect()
    }

    #[test]
    fn a_job_not_done_in_time_fails_and_leaves_the_queue() {
        // No workers: nothing ever runs, so the caller must give up on its own.
        let pool = Pool::start(Vec::new(), 4, 100, 0, Duration::from_millis(30)).unwrap();
        let started = Instant::now();
        let err = pool.infer(windows(&[5, 5])).unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(30));
        assert_eq!(
            err.to_string(),
            "inference did not finish within 30 ms without progress (model.inference_timeout_ms)"
        );
        assert!(pool.shared.lock().unwrap().jobs.is_empty(), "job withdrawn");
        // The pool keeps answering (and timing out) later callers.
        assert!(pool.infer(windows(&[5])).is_err());
        assert!(pool.infer(Vec::new()).unwrap().is_empty());
    }

    #[test]
    fn results_for_a_caller_that_gave_up_are_dropped_without_a_panic() {
        let (j, answer) = job(&[3, 3]);
        drop(answer);
        let mut sink = j.sink.lock().unwrap();
        sink.settle(0, Ok(vec![(1, 0.5)]));
        sink.settle(1, Err(NerError::runtime("late")));
        assert!(sink.reply.is_none(), "answered (into the void) once");
        assert_eq!(sink.remaining, 0);
    }

    #[test]
    fn a_small_job_gets_into_the_next_batch_behind_a_big_one() {
        let (big, _) = job(&[100; 50]);
        let (small, _) = job(&[10]);
        let mut jobs = VecDeque::from([big, small]);
        let taken = take_round_robin(&mut jobs, 300);
        let sizes: Vec<usize> = taken.iter().map(|t| t.ids().len()).collect();
        assert_eq!(sizes, [100, 10, 100]);
        assert_eq!(jobs.len(), 1, "the small job is fully handed out");
        assert_eq!(jobs[0].next, 2);
    }

    #[test]
    fn a_pass_takes_windows_of_about_one_length_within_the_budget() {
        let rows = |lengths: &[usize], budget| {
            let (j, _) = job(lengths);
            let mut jobs = VecDeque::from([j]);
            let taken = take_round_robin(&mut jobs, usize::MAX);
            batch_rows(&taken, lengths[0], budget)
        };
        // 128 wide: up to 8 tokens of padding (1/16); 46 is left for a later pass.
        assert_eq!(rows(&[128, 128, 120, 119, 46], 4096), 3);
        // Short windows: at least 4 tokens of padding.
        assert_eq!(rows(&[20, 16, 15], 4096), 2);
        // The budget and the row cap bind before the padding does.
        assert_eq!(rows(&[128; 40], 4096), 32);
        assert_eq!(rows(&[10; 100], 4096), MAX_BATCH_ROWS);
        assert_eq!(rows(&[5000, 10], 4096), 1);
    }

    #[test]
    fn one_oversized_window_is_still_taken() {
        let (big, _) = job(&[1000]);
        let mut jobs = VecDeque::from([big]);
        assert_eq!(take_round_robin(&mut jobs, 300).len(), 1);
        assert!(jobs.is_empty());
    }

    #[test]
    fn a_job_is_answered_once_after_its_last_window_with_any_failure() {
        let (j, answer) = job(&[3, 3]);
        let mut sink = j.sink.lock().unwrap();
        sink.settle(1, Ok(vec![(1, 0.5)]));
        assert!(matches!(answer.try_recv(), Ok(Message::Progress)));
        assert!(answer.try_recv().is_err());
        sink.settle(0, Ok(vec![(2, 0.5)]));
        let Ok(Message::Done(done)) = answer.try_recv() else {
            panic!("no answer after the last window");
        };
        assert_eq!(done.unwrap(), [vec![(2, 0.5)], vec![(1, 0.5)]]);
        drop(sink);

        let (j, answer) = job(&[3, 3]);
        let mut sink = j.sink.lock().unwrap();
        sink.settle(0, Err(NerError::runtime("boom")));
        sink.settle(1, Ok(vec![]));
        assert!(matches!(answer.try_recv(), Ok(Message::Progress)));
        assert!(matches!(answer.try_recv(), Ok(Message::Done(Err(_)))));
    }
}
