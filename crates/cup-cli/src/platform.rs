//! The adapter for this machine and the async runtime the live commands use.

use crate::commands::Failure;

/// The platform adapter of this OS.
pub fn adapter() -> Result<Box<dyn cup::Adapter>, Failure> {
    #[cfg(target_os = "linux")]
    {
        Ok(Box::new(cup_linux::LinuxAdapter::new()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        Err(Failure::usage("live capture is implemented for Linux only so far; `cup render` works on files everywhere"))
    }
}

/// A small multi-threaded tokio runtime.
pub fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the async runtime: {e}")))
}
