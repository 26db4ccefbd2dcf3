//! The one error type of the crate. Every message ends with what to do next.

use std::path::PathBuf;
use std::time::Duration;

/// Why a sandbox could not be started, used, saved, attached to or stopped.
///
/// Each message says what happened and what to install or do next.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// A program the sandbox needs is not installed.
    #[error("{program} not found; {hint}")]
    MissingProgram {
        /// The program that was looked for (a name on `PATH` or an absolute path).
        program: String,
        /// What to do, e.g. "install it: apt-get install xvfb (or run
        /// scripts/install-deps.sh as root)".
        hint: String,
    },

    /// The state directory could not be created, used or removed.
    #[error("state directory {path}: {reason}")]
    StateDir {
        /// The directory.
        path: PathBuf,
        /// What went wrong and what to do.
        reason: String,
    },

    /// A program could not be started at all.
    #[error("could not start {program}: {source}; check that it is installed and executable")]
    Spawn {
        /// The program.
        program: String,
        /// The error from `exec`.
        #[source]
        source: std::io::Error,
    },

    /// A component of the desktop (Xvfb, a bus, the registry, the window
    /// manager) did not become ready in time.
    #[error("{component} was not ready within {} s: {detail}{}", .timeout.as_secs_f32(), crate::procfs::load_note())]
    NotReady {
        /// The component, e.g. "Xvfb".
        component: String,
        /// The deadline that passed.
        timeout: Duration,
        /// What was observed, with the log file to read.
        detail: String,
    },

    /// A component of the desktop exited while the sandbox was starting.
    #[error("{component} exited during start-up ({status}); {detail}")]
    ComponentExited {
        /// The component, e.g. "Xvfb".
        component: String,
        /// Its exit status.
        status: String,
        /// The last lines of its log and the log's path.
        detail: String,
    },

    /// A D-Bus call failed.
    #[error("D-Bus: {context}: {message}; the sandbox's logs (*.log) are in its state directory")]
    Bus {
        /// What was being done.
        context: String,
        /// The error reported by D-Bus (or the connection).
        message: String,
    },

    /// A launched program did not show a window on the accessibility bus in time.
    #[error(
        "{program} did not register on the accessibility bus within {} s; {missing}; it was killed{}. Its output is in {}{tail}",
        .timeout.as_secs_f32(),
        crate::procfs::load_note(),
        .log.display()
    )]
    LaunchTimeout {
        /// The program that was launched.
        program: String,
        /// The deadline that passed.
        timeout: Duration,
        /// What was missing (no application with its pid, or no showing window).
        missing: String,
        /// The file holding the program's stdout and stderr (in the state
        /// directory, so gone once the sandbox stops).
        log: PathBuf,
        /// The last lines of that file, prefixed with ": " (or empty).
        tail: String,
    },

    /// A launched program exited before it showed a window.
    #[error(
        "{program} exited ({status}) before it showed a window on the accessibility bus; its output is in {}{tail}",
        .log.display()
    )]
    AppExited {
        /// The program that was launched.
        program: String,
        /// Its exit status.
        status: String,
        /// The file holding the program's stdout and stderr (in the state
        /// directory, so gone once the sandbox stops).
        log: PathBuf,
        /// The last lines of that file, prefixed with ": " (or empty).
        tail: String,
    },

    /// The state file of a saved sandbox could not be written, read or used.
    #[error("sandbox state file {path}: {reason}")]
    StateFile {
        /// The state file.
        path: PathBuf,
        /// What went wrong and what to do.
        reason: String,
    },

    /// Some processes were still running after SIGTERM and SIGKILL.
    #[error("processes {pids:?} of the sandbox were still running after SIGKILL; check them with `ps -o pid,stat,args -p <pid>` (state D = stuck in the kernel)")]
    Survivors {
        /// The process ids.
        pids: Vec<u32>,
    },

    /// Another I/O error.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl SandboxError {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let context = context.into();
        move |source| Self::Io { context, source }
    }

    pub(crate) fn bus<E: std::fmt::Display>(context: impl Into<String>) -> impl FnOnce(E) -> Self {
        let context = context.into();
        move |error| Self::Bus {
            context,
            message: error.to_string(),
        }
    }
}
