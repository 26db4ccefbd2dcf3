//! The I/O thread of a session: one single-threaded tokio runtime, driven
//! by a thread of its own for the session's life, so D-Bus and CDP
//! messages are read even between calls; Python threads hand it futures
//! and wait with the GIL released.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::CupError;

/// How often a waiting Python thread looks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// The runtime thread.
pub struct Engine {
    handle: tokio::runtime::Handle,
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    closed: AtomicBool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the thread.
    pub fn start() -> PyResult<Engine> {
        let rt = cup_tools::target::runtime().map_err(CupError::new_err)?;
        let handle = rt.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("cup-io".into())
            .spawn(move || {
                rt.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| CupError::new_err(format!("cannot start cup's I/O thread: {e}")))?;
        Ok(Engine {
            handle,
            stop: Mutex::new(Some(stop)),
            thread: Mutex::new(Some(thread)),
            closed: AtomicBool::new(false),
        })
    }

    /// Runs `fut` on the I/O thread and waits for it with the GIL
    /// released. Ctrl-C stops the wait (the work itself ends at its own
    /// deadline).
    pub fn run<T, F>(&self, py: Python<'_>, fut: F) -> PyResult<T>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        if self.closed.load(Ordering::SeqCst) {
            return Err(CupError::new_err(
                "this Session is closed; make a new Session",
            ));
        }
        let (tx, rx) = mpsc::channel();
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        let mut rx = rx;
        loop {
            // The receiver is not `Sync`: it moves into the GIL-free
            // closure and back.
            let (got, back) = py.detach(move || (rx.recv_timeout(SIGNAL_POLL), rx));
            rx = back;
            match got {
                Ok(v) => return Ok(v),
                Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(CupError::new_err(
                        "cup's I/O thread stopped during the call; make a new Session",
                    ))
                }
            }
        }
    }
}

impl Engine {
    /// Stops the I/O thread (after the call in progress, if any); later
    /// calls fail. Idempotent.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let stop = self.stop.lock().map(|mut s| s.take()).unwrap_or_default();
        if let Some(stop) = stop {
            let _ = stop.send(());
        }
        let thread = self.thread.lock().map(|mut t| t.take()).unwrap_or_default();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.close();
    }
}
