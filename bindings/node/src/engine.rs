//! The I/O thread of a session: one single-threaded tokio runtime, driven
//! by a thread of its own for the session's life, so D-Bus and CDP
//! messages are read even between calls. A call hands it a future and
//! awaits the answer on napi's runtime: JavaScript's thread never waits.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::errors;

/// The runtime thread.
pub struct Engine {
    handle: tokio::runtime::Handle,
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    closed: AtomicBool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the thread.
    pub fn start() -> napi::Result<Engine> {
        let rt = cup_tools::target::runtime().map_err(errors::failure)?;
        let handle = rt.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("cup-io".into())
            .spawn(move || {
                rt.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| errors::failure(format!("cannot start cup's I/O thread: {e}")))?;
        Ok(Engine {
            handle,
            stop: Mutex::new(Some(stop)),
            thread: Mutex::new(Some(thread)),
            closed: AtomicBool::new(false),
        })
    }

    /// Whether [`Engine::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Runs `fut` on the I/O thread; its answer, or a clear error when the
    /// session is (or gets) closed.
    pub async fn run<T, F>(&self, fut: F) -> napi::Result<T>
    where
        T: Send + 'static,
        F: Future<Output = napi::Result<T>> + Send + 'static,
    {
        if self.is_closed() {
            return Err(errors::invalid(
                "this Session is closed; make a new one with Session.create()",
            ));
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx.await.map_err(|_| {
            errors::failure(
                "the Session was closed during the call; make a new one with Session.create()",
            )
        })?
    }

    /// Stops the I/O thread: a call in progress and every later call fail.
    /// Idempotent; blocks until the thread ends (call it off JavaScript's
    /// thread).
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
        self.closed.store(true, Ordering::SeqCst);
        let stop = self.stop.lock().map(|mut s| s.take()).unwrap_or_default();
        if let Some(stop) = stop {
            let _ = stop.send(());
        }
        // The thread is not joined here: a session garbage-collected on
        // JavaScript's thread must not wait for it.
    }
}
