//! Blocking platform calls (an OS API that waits, a library without async)
//! run off the async runtime, on tokio's blocking pool, with a panic in the
//! call turned into an [`AdapterError`] that names the platform.

use crate::adapter::AdapterError;

/// Runs `f` on tokio's blocking pool and gives its result. `what` names
/// the kind of call, with its article, for the error: `"a Win32 call"`,
/// `"a macOS call"`. An adapter that prepares each such thread (e.g. a
/// DPI awareness per thread) does it first thing in `f`.
///
/// # Errors
///
/// [`AdapterError::Platform`]: `{what} panicked: {the panic}` when `f`
/// panicked (or the runtime is shutting down).
///
/// # Panics
///
/// Outside a tokio runtime.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let n = cup::blocking::run("a test call", || 6 * 7).await;
/// assert_eq!(n, Ok(42));
/// # }
/// ```
pub async fn run<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AdapterError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| AdapterError::Platform(format!("{what} panicked: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_call_gives_its_result_or_its_panic_as_a_platform_error() {
        assert_eq!(run("a test call", || "done").await, Ok("done"));
        let thread = std::thread::current().id();
        let other = run("a test call", move || std::thread::current().id() != thread).await;
        assert_eq!(other, Ok(true), "off the runtime's thread");
        let err = run("a Win32 call", || -> u8 { panic!("access violation") })
            .await
            .expect_err("panicked");
        let AdapterError::Platform(m) = err else {
            panic!("{err:?}");
        };
        assert!(m.starts_with("a Win32 call panicked: "), "{m}");
        assert!(m.contains("access violation"), "{m}");
    }
}
