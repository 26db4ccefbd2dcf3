//! `cup._native`: the extension module under the Python package `cup`.
//!
//! The Python layer (`python/cup`) gives the reference SDK's API; this
//! module gives it cup: a [`session::Session`] over the facade's Session
//! and the platform adapters (captures and actions run on one I/O thread,
//! the GIL released while they do), and the pure protocol helpers
//! (pruning, compact text, search, key combos) of `cup-protocol`. Data
//! crosses as JSON text, which the Python layer turns into dicts.

/// The allocator of the `cup` binary: a capture allocates many small
/// strings, and glibc's malloc made the package's captures slower than
/// cup's own. Python's objects keep Python's allocator; only Rust's
/// allocations go here.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod engine;
mod errors;
mod helpers;
mod session;

use pyo3::prelude::*;

/// JSON text of a value cup made.
pub(crate) fn to_json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| errors::encode(&e))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CupError", m.py().get_type::<errors::CupError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<session::Session>()?;
    helpers::register(m)?;
    Ok(())
}
