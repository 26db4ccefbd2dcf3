//! A session's I/O thread ([`cup_tools::bindings::IoThread`]), awaited
//! from napi's runtime: JavaScript's thread never waits.

use std::future::Future;

use cup_tools::bindings::IoThread;

use crate::errors;

/// The runtime thread of one session.
#[derive(Debug)]
pub struct Engine(IoThread);

impl Engine {
    /// Starts the thread.
    pub fn start() -> napi::Result<Engine> {
        IoThread::start().map(Engine).map_err(errors::failure)
    }

    /// Whether [`Engine::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
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
        self.0.spawn(fut).await.map_err(|_| {
            errors::failure(
                "the Session was closed during the call; make a new one with Session.create()",
            )
        })?
    }

    /// Stops the I/O thread: a call in progress and every later call fail.
    /// Blocks until the thread ends (call it off JavaScript's thread).
    pub fn close(&self) {
        self.0.close();
    }
}
