//! The I/O thread of a binding's session: one single-threaded tokio
//! runtime, driven by a thread of its own for the session's life, so
//! D-Bus and CDP messages are read even between calls; the language's
//! threads hand it futures and wait (Python, with the GIL released) or
//! await (Node) the answer.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The runtime thread.
pub struct IoThread {
    handle: tokio::runtime::Handle,
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    closed: AtomicBool,
}

impl std::fmt::Debug for IoThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IoThread")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

impl IoThread {
    /// Starts the thread (`cup-io`).
    ///
    /// # Errors
    ///
    /// When the runtime or the thread cannot be made.
    pub fn start() -> Result<IoThread, String> {
        let rt = crate::target::runtime()?;
        let handle = rt.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("cup-io".into())
            .spawn(move || {
                rt.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| format!("cannot start cup's I/O thread: {e}"))?;
        Ok(IoThread {
            handle,
            stop: Mutex::new(Some(stop)),
            thread: Mutex::new(Some(thread)),
            closed: AtomicBool::new(false),
        })
    }

    /// Whether [`IoThread::close`] was called (or the thread was dropped).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Runs `fut` on the thread; the receiver gets its output, or is
    /// dropped when the thread stops first.
    pub fn spawn<T, F>(&self, fut: F) -> tokio::sync::oneshot::Receiver<T>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx
    }

    /// Marks the thread closed and tells it to stop after the work in
    /// progress; returns at once.
    fn signal_stop(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let stop = self.stop.lock().map(|mut s| s.take()).unwrap_or_default();
        if let Some(stop) = stop {
            let _ = stop.send(());
        }
    }

    /// Stops the thread and waits for it: a call in progress and every
    /// later call fail. Idempotent; blocks (call it off an event loop).
    pub fn close(&self) {
        self.signal_stop();
        let thread = self.thread.lock().map(|mut t| t.take()).unwrap_or_default();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

impl Drop for IoThread {
    /// Tells the thread to stop without waiting for it (a session
    /// garbage-collected on a language's main thread must not block).
    fn drop(&mut self) {
        self.signal_stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_runs_on_the_thread_and_fails_after_close() {
        let io = IoThread::start().expect("thread");
        let rx = io.spawn(async { std::thread::current().name().map(str::to_owned) });
        assert_eq!(rx.blocking_recv().ok().flatten().as_deref(), Some("cup-io"));
        io.close();
        assert!(io.is_closed());
        let rx = io.spawn(async { 1 });
        assert!(rx.blocking_recv().is_err(), "no answer once stopped");
        io.close();
    }
}
