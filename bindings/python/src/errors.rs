//! How cup's errors reach Python: bad arguments are `ValueError`, what the
//! platform failed to do is `cup.CupError` (a `RuntimeError`); the message
//! is cup's one line, which says what to do next.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

pyo3::create_exception!(
    cup,
    CupError,
    PyRuntimeError,
    "The platform could not do what was asked (the app did not answer, the display is gone, ...); the message says what to do next."
);

/// A session error as a Python exception.
pub fn session(e: cup::SessionError) -> PyErr {
    match e {
        cup::SessionError::Adapter(a) => CupError::new_err(a.to_string()),
        // Not the caller's fault: the UI did not get there in time.
        cup::SessionError::Timeout(m) => CupError::new_err(m),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A bad argument.
pub fn value(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// JSON that cup made and could not encode (not expected).
pub fn encode(e: &serde_json::Error) -> PyErr {
    CupError::new_err(format!("cannot encode the result as JSON: {e}"))
}
