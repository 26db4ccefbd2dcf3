//! Desktop set-up that cup's front ends do on a user's behalf: `cup setup
//! gnome` (cup's GNOME Shell extension), `cup setup kde` (the desktop file
//! that lets a program use KWin's fake input and screenshots), and the X
//! cookie of a desktop cup started itself (`cup serve`, the sandbox). The
//! whole of what the binary needs from the platform's internals for it.
//! GNOME and KDE set-up needs the `wayland` feature (on by default).

use std::path::Path;
#[cfg(feature = "wayland")]
use std::path::PathBuf;

#[cfg(feature = "wayland")]
/// The uuid of cup's GNOME Shell extension.
pub const GNOME_EXTENSION_UUID: &str = cup_wayland::setup::UUID;

#[cfg(feature = "wayland")]
/// The session-bus name cup's GNOME Shell extension owns.
pub const GNOME_EXTENSION_BUS_NAME: &str = cup_wayland::setup::BUS_NAME;

#[cfg(feature = "wayland")]
/// The major version of the GNOME Shell installed here.
///
/// # Errors
///
/// When no GNOME Shell is installed, or its version cannot be read: why,
/// and what to install.
pub fn gnome_shell_major() -> Result<u32, String> {
    cup_wayland::setup::installed_shell_major()
}

#[cfg(feature = "wayland")]
/// The files of cup's GNOME Shell extension for the GNOME Shell installed
/// here (name, content), as a sandbox installs them.
///
/// # Errors
///
/// As [`gnome_shell_major`].
pub fn gnome_extension_files() -> Result<Vec<(String, String)>, String> {
    cup_wayland::setup::installed_extension_files()
}

#[cfg(feature = "wayland")]
/// Writes cup's GNOME Shell extension for GNOME Shell `major` under
/// `data_home` (`$XDG_DATA_HOME`); returns its folder.
///
/// # Errors
///
/// When a file cannot be written.
pub fn install_gnome_extension(data_home: &Path, major: u32) -> std::io::Result<PathBuf> {
    cup_wayland::setup::install_extension(data_home, major)
}

#[cfg(feature = "wayland")]
/// `org.gnome.shell enabled-extensions` (as `gsettings get` prints it)
/// with cup's extension in it.
///
/// # Errors
///
/// When `list` is not a list of strings.
pub fn with_gnome_extension_enabled(list: &str) -> Result<String, String> {
    cup_wayland::setup::with_extension_enabled(list)
}

#[cfg(feature = "wayland")]
/// Writes the desktop file that lets `exe` use KWin's fake input and
/// screenshots under `data_home` (`$XDG_DATA_HOME/applications`);
/// returns its path.
///
/// # Errors
///
/// When the file cannot be written.
pub fn install_kde_desktop_file(data_home: &Path, exe: &Path) -> std::io::Result<PathBuf> {
    cup_wayland::setup::install_desktop_file(data_home, exe)
}

/// Makes cup's connections to X `display` present the cookie in the
/// Xauthority file `file` (a desktop cup started, not the process's
/// `XAUTHORITY`).
pub fn register_x_cookie(display: &str, file: &Path) {
    cup_x11::register(display, file);
}

/// Holds a KWin fake-input device on the compositor at `socket` until
/// KWin goes away, calling `ready` once it is there, so that a headless
/// KWin's seat keeps a pointer between cup's commands (apps lose a press
/// that comes as the seat first gains one). Returns why it ended.
#[cfg(feature = "wayland")]
pub async fn hold_kde_pointer(socket: &Path, ready: impl FnOnce()) -> String {
    cup_wayland::setup::hold_pointer(socket, ready).await
}

/// Opens this desktop's pointer and keyboard as cup's actions do, makes
/// the seat's keyboard (a headless GNOME has none until a remote-desktop
/// session makes one, and its windows are active only while one exists),
/// calls `ready`, and holds them for the life of the process: cup's
/// commands, each a new session, then find the seat as a desktop with a
/// keyboard has it, instead of windows that turn inactive and active again
/// between two commands (a selection made by one was gone for the next).
/// Returns only why it could not.
#[cfg(feature = "wayland")]
pub async fn hold_input(desktop: crate::Desktop, ready: impl FnOnce()) -> String {
    let adapter = crate::LinuxAdapter::for_desktop(desktop);
    let input = match adapter.input_ops().await {
        Ok(input) => input,
        Err(e) => return e.to_string(),
    };
    if let Err(e) = input.prime_keyboard().await {
        return e.to_string();
    }
    ready();
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
    }
}
