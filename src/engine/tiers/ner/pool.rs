//! The inference pool: a few dedicated worker threads, each owning one ONNX session,
//! fed from a bounded queue of jobs.
//!
//! Callers (request threads, never the async executor) tokenize and window their texts
//! themselves, submit all windows as one job and block until every window has a result.
//! A job's forward passes are **planned from its own windows alone** when it is
//! submitted ([`plan_passes`]): sorted by length, cut into padded batches of about one
//! length each, at most `max_batch_tokens` tokens. The int8 model quantizes activations
//! with one scale per pass, so a window's result depends on the windows it shares a
//! pass with; keeping requests apart makes a request's detections the same whatever
//! else the service is doing. Free workers take **one pass at a time, round-robin
//! across the queued jobs**, so a one-window request is served after the pass that is
//! running even while a 1-million-character text is being worked through.
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
/// of ~600 characters, 1/16 cut padding from 19 % to under 1 % of the tokens and the model's
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
    /// Passes not yet handed to a worker, each a list of indexes into `windows`.
    passes: VecDeque<Vec<usize>>,
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
    /// Of `windows`, those read a second time with lower-case words capitalised
    /// (`NerRecognizer::with_second_reading`); counted by the model tier, not the pool.
    pub reread: u64,
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

/// A pass handed to a worker: its job's windows, which of them it runs (longest
/// first), and where their results go.
struct Taken {
    windows: Arc<Vec<WindowIds>>,
    rows: Vec<usize>,
    sink: Arc<Mutex<Sink>>,
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
            passes: plan_passes(&windows, self.shared.max_batch_tokens).into(),
            windows: Arc::new(windows),
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
            reread: 0,
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
            let taken = take_pass(&mut queue.jobs);
            // Work may remain for another worker.
            if !queue.jobs.is_empty() {
                shared.work.notify_one();
            }
            taken
        };
        shared.space.notify_all();
        if let Some(taken) = taken {
            run(&mut model, &taken, shared);
        }
    }
}

/// Takes the next pass of the job at the front of the queue and moves that job to the
/// back (or out, when this was its last pass). `None` when no job has a pass left.
fn take_pass(jobs: &mut VecDeque<Job>) -> Option<Taken> {
    while let Some(mut job) = jobs.pop_front() {
        let Some(rows) = job.passes.pop_front() else {
            continue;
        };
        let taken = Taken {
            windows: Arc::clone(&job.windows),
            rows,
            sink: Arc::clone(&job.sink),
        };
        if !job.passes.is_empty() {
            jobs.push_back(job);
        }
        return Some(taken);
    }
    None
}

/// Runs one pass, its rows padded to the longest, and settles each row's result.
fn run(model: &mut Model, taken: &Taken, shared: &Shared) {
    // `plan_passes` made the indexes, so every one is in range.
    let windows: Vec<&WindowIds> = taken.rows.iter().map(|&i| &taken.windows[i]).collect();
    let width = windows
        .iter()
        .map(|w| w.ids.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let rows = windows.len();
    let mut ids = vec![shared.pad; rows * width];
    let mut types = vec![0; rows * width];
    let mut lengths = Vec::with_capacity(rows);
    for (r, w) in windows.iter().enumerate() {
        ids[r * width..r * width + w.ids.len()].copy_from_slice(&w.ids);
        let typed = w.types.len().min(w.ids.len());
        types[r * width..r * width + typed].copy_from_slice(&w.types[..typed]);
        lengths.push(w.ids.len());
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
    // A poisoned sink only happens after a panic while settling; its caller then sees
    // the reply channel close.
    if let Ok(mut sink) = taken.sink.lock() {
        for (&index, result) in taken.rows.iter().zip(rows_out) {
            sink.settle(index, result);
        }
    }
}

/// A job's passes: its windows longest first, cut by [`batch_rows`]. Each pass lists
/// indexes into `windows`; every window is in exactly one pass.
fn plan_passes(windows: &[WindowIds], max_batch_tokens: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..windows.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(windows[i].ids.len()));
    let lengths: Vec<usize> = order.iter().map(|&i| windows[i].ids.len()).collect();
    let mut passes = Vec::new();
    let mut at = 0;
    while at < order.len() {
        let rows = batch_rows(&lengths[at..], max_batch_tokens);
        passes.push(order[at..at + rows].to_vec());
        at += rows;
    }
    passes
}

/// How many windows of `sorted` lengths (longest first) the next pass takes: within the
/// token budget and [`MAX_BATCH_ROWS`], and none padded by more than its share of the
/// first's width; at least one unless `sorted` is empty.
fn batch_rows(sorted: &[usize], max_batch_tokens: usize) -> usize {
    let Some(&first) = sorted.first() else {
        return 0;
    };
    let width = first.max(1);
    let most = (max_batch_tokens / width)
        .clamp(1, MAX_BATCH_ROWS)
        .min(sorted.len());
    let padding = (width / PADDING_DIVISOR).max(MIN_PADDING);
    sorted[..most]
        .iter()
        .take_while(|&&len| len + padding >= width)
        .count()
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job of windows of these lengths, its passes planned with a `budget` of tokens.
    fn job(lengths: &[usize], budget: usize) -> (Job, mpsc::Receiver<Message>) {
        let (reply, answer) = mpsc::channel();
        let windows = windows(lengths);
        let count = windows.len();
        let job = Job {
            passes: plan_passes(&windows, budget).into(),
            windows: Arc::new(windows),
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
        let (j, answer) = job(&[3, 3], 100);
        drop(answer);
        let mut sink = j.sink.lock().unwrap();
        sink.settle(0, Ok(vec![(1, 0.5)]));
        sink.settle(1, Err(NerError::runtime("late")));
        assert!(sink.reply.is_none(), "answered (into the void) once");
        assert_eq!(sink.remaining, 0);
    }

    #[test]
    fn a_small_job_runs_after_one_pass_of_a_big_one() {
        let (big, _) = job(&[100; 50], 300);
        let (small, _) = job(&[10], 300);
        let mut jobs = VecDeque::from([big, small]);
        let mut sizes = Vec::new();
        for _ in 0..3 {
            let taken = take_pass(&mut jobs).unwrap();
            sizes.push(taken.rows.len());
        }
        assert_eq!(sizes, [3, 1, 3]);
        assert_eq!(jobs.len(), 1, "the small job is done and gone");
        assert_eq!(jobs[0].passes.len(), 17 - 2);
    }

    #[test]
    fn a_job_is_cut_into_passes_of_about_one_length_within_the_budget() {
        let passes = |lengths: &[usize], budget| plan_passes(&windows(lengths), budget);
        // Longest first; 128 wide allows up to 8 tokens of padding (1/16), so 119, 46
        // and 20 wait for passes of their own.
        assert_eq!(
            passes(&[46, 128, 120, 20, 121, 128, 119], 4096),
            [vec![1, 5, 4, 2], vec![6], vec![0], vec![3]]
        );
        // Short windows: at least 4 tokens of padding.
        assert_eq!(passes(&[20, 16, 15], 4096), [vec![0, 1], vec![2]]);
        // The budget and the row cap bind before the padding does.
        let sizes = |p: Vec<Vec<usize>>| p.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(sizes(passes(&[128; 40], 4096)), [32, 8]);
        assert_eq!(sizes(passes(&[10; 100], 4096)), [MAX_BATCH_ROWS, 36]);
        // A window over the budget still runs, alone.
        assert_eq!(passes(&[5000, 10], 4096), [vec![0], vec![1]]);
        assert!(passes(&[], 4096).is_empty());
    }

    #[test]
    fn a_job_is_answered_once_after_its_last_window_with_any_failure() {
        let (j, answer) = job(&[3, 3], 100);
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

        let (j, answer) = job(&[3, 3], 100);
        let mut sink = j.sink.lock().unwrap();
        sink.settle(0, Err(NerError::runtime("boom")));
        sink.settle(1, Ok(vec![]));
        assert!(matches!(answer.try_recv(), Ok(Message::Progress)));
        assert!(matches!(answer.try_recv(), Ok(Message::Done(Err(_)))));
    }
}
