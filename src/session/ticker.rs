//! A store's background thread: runs a tick at once and then every interval, until the
//! tick says it is done or the [`Ticker`] is dropped (which waits for the thread).

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Stops its thread when dropped; keep it for the life of the store.
#[must_use = "dropping the ticker stops its thread"]
#[derive(Debug)]
pub struct Ticker {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts the thread `name`; `tick` returns `false` when there is nothing left to
    /// do (its store is gone).
    ///
    /// # Errors
    /// When the OS refuses a new thread.
    pub fn start(
        name: &str,
        interval: Duration,
        mut tick: impl FnMut() -> bool + Send + 'static,
    ) -> std::io::Result<Ticker> {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                while tick() {
                    match stopped.recv_timeout(interval) {
                        Err(RecvTimeoutError::Timeout) => {}
                        Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            })?;
        Ok(Ticker {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
