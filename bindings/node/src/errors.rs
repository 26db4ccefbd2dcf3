//! cup's errors as JavaScript `Error`s: the one-line message, and a `code`
//! saying whose fault it was (`InvalidArg`: the call's arguments;
//! `GenericFailure`: the platform, the app, the session).

use napi::{Error, Status};

/// A bad argument, refused before anything runs.
pub fn invalid(message: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, message.into())
}

/// A failure of the platform, an app or the session.
pub fn failure(message: impl Into<String>) -> Error {
    Error::new(Status::GenericFailure, message.into())
}

/// A session's error: the caller's (bad id, bad parameters) or the
/// platform's.
pub fn session(e: cup::SessionError) -> Error {
    match e {
        cup::SessionError::Adapter(a) => failure(a.to_string()),
        // Not the caller's fault: the UI did not get there in time.
        cup::SessionError::Timeout(m) => failure(m),
        other => invalid(other.to_string()),
    }
}
