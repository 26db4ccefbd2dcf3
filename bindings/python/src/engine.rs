//! The I/O thread of a session: one single-threaded tokio runtime, driven
//! by a thread of its own for the session's life, so D-Bus and CDP
//! messages are read even between calls; Python threads hand it futures
//! and wait with the GIL released.

use std::future::Future;
use std::sync::mpsc;
use std::time::Duration;

use cup_tools::bindings::IoThread;
use pyo3::prelude::*;

use crate::errors::CupError;

/// How often a waiting Python thread looks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// The runtime thread ([`IoThread`]) of one session.
#[derive(Debug)]
pub struct Engine(IoThread);

impl Engine {
    /// Starts the thread.
    pub fn start() -> PyResult<Engine> {
        IoThread::start().map(Engine).map_err(CupError::new_err)
    }

    /// Runs `fut` on the I/O thread and waits for it with the GIL
    /// released. Ctrl-C stops the wait (the work itself ends at its own
    /// deadline).
    pub fn run<T, F>(&self, py: Python<'_>, fut: F) -> PyResult<T>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        if self.0.is_closed() {
            return Err(CupError::new_err(
                "this Session is closed; make a new Session",
            ));
        }
        let (tx, rx) = mpsc::channel();
        // The answer comes through a std channel: a wait with a timeout,
        // to look for signals between.
        drop(self.0.spawn(async move {
            let _ = tx.send(fut.await);
        }));
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

    /// Stops the I/O thread (after the call in progress, if any); later
    /// calls fail. Idempotent.
    pub fn close(&self) {
        self.0.close();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.0.close();
    }
}
