//! # cup-sandbox
//!
//! A private headless Linux desktop for cup's tests, benchmarks, the
//! `cup sandbox start|run|stop` commands and agents in containers:
//!
//! 1. `Xvfb -displayfd` on a free display that Xvfb picks itself,
//! 2. a private session bus (`dbus-daemon --session --nofork`),
//! 3. a private `XDG_RUNTIME_DIR` (0700, in the state directory), so the
//!    accessibility bus socket is private too,
//! 4. the accessibility bus (`at-spi-bus-launcher --launch-immediately`),
//! 5. `org.a11y.Status.IsEnabled` and `ScreenReaderEnabled = true` (Qt5,
//!    Chromium and Electron expose their trees only then),
//! 6. the AT-SPI registry (`at-spi2-registryd`, D-Bus-activated),
//! 7. optionally the `openbox` window manager
//!    ([`SandboxOptions::with_window_manager`]; default: none).
//!
//! Several sandboxes can run at once (parallel tests): each has its own
//! display, directory and buses. Everything is started with
//! [`std::process`] and ended by pid (SIGTERM, then SIGKILL), never by
//! name; see [`Sandbox::stop`]. The D-Bus calls use the `zbus` that `atspi`
//! re-exports, on a helper thread, so the API is synchronous and also
//! usable from async code.
//!
//! Needs, on Debian 12: `xvfb dbus at-spi2-core procps` (and `openbox
//! x11-utils` for the window manager); `scripts/install-deps.sh` installs
//! them with the test applications. A missing program is reported as
//! [`SandboxError::MissingProgram`] with the package to install.
//!
//! Environment: everything in the sandbox gets [`Sandbox::env`] and loses
//! [`REMOVED_ENV`] (a stale `AT_SPI_BUS_ADDRESS` inherited from another
//! session makes the registry hang, `NO_AT_BRIDGE` turns accessibility off).

#![doc(html_no_source)]

mod browser;
mod bus;
mod error;
pub mod firefox;
pub mod libreoffice;
mod procfs;
mod sandbox;
pub mod settle;
pub mod thunderbird;
pub mod webapps;
mod xauth;

pub use browser::{chromium_binary, Browser, BrowserOptions, BrowserState};
pub use error::SandboxError;
pub(crate) use sandbox::missing;
pub use sandbox::{
    App, Check, Compositor, Health, LaunchOptions, Sandbox, SandboxOptions, ShellExtension,
    MARKER_ENV, REMOVED_ENV,
};
