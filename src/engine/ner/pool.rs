//! The inference pool: a few dedicated worker threads, each owning one ONNX session,
//! fed through a bounded queue.
//!
//! Callers (request threads, never the async executor) tokenize and window their texts
//! themselves, submit all windows as one job and block until the reply comes. A worker
//! takes one job, then drains whatever else is queued up to `max_batch_tokens`, so
//! windows of concurrent requests share a forward pass. Windows are sorted by length
//! before being cut into padded batches, which keeps padding small.
//!
//! Concurrency is bounded twice: `workers` sessions run at once (each with its own
//! intra-op threads), and at most `queue_capacity` jobs wait; a caller beyond that
//! blocks in `submit` (back-pressure rather than unbounded memory).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::model::{Model, TokenClass};
use super::NerError;

/// Most windows in one forward pass, whatever their length.
const MAX_BATCH_ROWS: usize = 64;

/// One model input row: `[CLS] tokens… [SEP]` ids.
pub type WindowIds = Vec<i64>;

type Reply = Result<Vec<Vec<TokenClass>>, NerError>;

struct Job {
    windows: Vec<WindowIds>,
    reply: mpsc::Sender<Reply>,
}

pub struct Pool {
    sender: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts one worker thread per model.
    ///
    /// # Errors
    /// A thread cannot be spawned.
    pub fn start(
        models: Vec<Model>,
        queue_capacity: usize,
        max_batch_tokens: usize,
        pad: i64,
    ) -> Result<Pool, NerError> {
        let (sender, receiver) = mpsc::sync_channel::<Job>(queue_capacity.max(1));
        let receiver = Arc::new(Mutex::new(receiver));
        let mut workers = Vec::with_capacity(models.len());
        for (i, model) in models.into_iter().enumerate() {
            let receiver = Arc::clone(&receiver);
            let handle = std::thread::Builder::new()
                .name(format!("ner-{i}"))
                .spawn(move || work(model, &receiver, max_batch_tokens, pad))
                .map_err(|e| NerError::runtime(format!("spawning an inference thread: {e}")))?;
            workers.push(handle);
        }
        Ok(Pool {
            sender: Some(sender),
            workers,
        })
    }

    /// Runs `windows` through the model; blocks until done. Returns one result per
    /// window, each as long as the window (special tokens included).
    ///
    /// # Errors
    /// Inference failed, or every worker is gone.
    pub fn infer(&self, windows: Vec<WindowIds>) -> Reply {
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        let (reply, answer) = mpsc::channel();
        let sender = self.sender.as_ref().ok_or_else(stopped)?;
        sender.send(Job { windows, reply }).map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Closing the queue ends each worker after its current batch.
        self.sender.take();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

fn stopped() -> NerError {
    NerError::runtime("the inference workers have stopped")
}

fn work(mut model: Model, receiver: &Mutex<Receiver<Job>>, max_batch_tokens: usize, pad: i64) {
    loop {
        let jobs = {
            let Ok(queue) = receiver.lock() else { return };
            let Ok(first) = queue.recv() else { return };
            let mut tokens: usize = first.windows.iter().map(Vec::len).sum();
            let mut jobs = vec![first];
            while tokens < max_batch_tokens {
                match queue.try_recv() {
                    Ok(job) => {
                        tokens += job.windows.iter().map(Vec::len).sum::<usize>();
                        jobs.push(job);
                    }
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            jobs
        };
        run_jobs(&mut model, jobs, max_batch_tokens, pad);
    }
}

/// Runs every window of `jobs` in length-sorted padded batches and answers each job.
fn run_jobs(model: &mut Model, jobs: Vec<Job>, max_batch_tokens: usize, pad: i64) {
    // (job, window) of every window, longest first.
    let mut order: Vec<(usize, usize)> = jobs
        .iter()
        .enumerate()
        .flat_map(|(j, job)| (0..job.windows.len()).map(move |w| (j, w)))
        .collect();
    order.sort_by_key(|&(j, w)| std::cmp::Reverse(jobs[j].windows[w].len()));
    let mut results: Vec<Vec<Vec<TokenClass>>> = jobs
        .iter()
        .map(|job| vec![Vec::new(); job.windows.len()])
        .collect();
    let mut failure: Option<NerError> = None;
    let mut rest = &order[..];
    while !rest.is_empty() {
        let width = jobs[rest[0].0].windows[rest[0].1].len().max(1);
        let rows = (max_batch_tokens / width)
            .clamp(1, MAX_BATCH_ROWS)
            .min(rest.len());
        let (batch, tail) = rest.split_at(rows);
        rest = tail;
        let mut ids = vec![pad; rows * width];
        let mut lengths = Vec::with_capacity(rows);
        for (r, &(j, w)) in batch.iter().enumerate() {
            let window = &jobs[j].windows[w];
            ids[r * width..r * width + window.len()].copy_from_slice(window);
            lengths.push(window.len());
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| model.run(&ids, &lengths, width)))
            .unwrap_or_else(|_| Err(NerError::runtime("inference panicked")));
        match outcome {
            Ok(rows_out) => {
                for (&(j, w), row) in batch.iter().zip(rows_out) {
                    results[j][w] = row;
                }
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    for (job, result) in jobs.into_iter().zip(results) {
        let reply = match &failure {
            Some(e) => Err(e.clone()),
            None => Ok(result),
        };
        // The caller may have given up; nothing to do then.
        let _ = job.reply.send(reply);
    }
}
