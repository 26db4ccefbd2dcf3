//! # cup-wayland
//!
//! The Wayland backends of cup's Linux adapter, one per kind of compositor,
//! each implementing `cup_linux_display`'s `DisplayBackend`: sway, a
//! generic wlroots compositor, KWin and GNOME. [`choose`] picks one for a
//! native Wayland desktop. Nothing here knows AT-SPI or X11: XWayland's
//! window list comes in through `XWindows`.
//!
//! ## Layout
//!
//! - `backend/`: the `DisplayBackend` implementations (`sway`, `wlr`,
//!   `kwin`, `gnome`) and what they share (`compositor`: the screencopy,
//!   virtual devices and overlay of a wlroots-style compositor).
//! - The Wayland protocol: `client` (connection, globals, deadlines),
//!   `toplevel` (foreign toplevels), `screencopy`, `overlay` (layer-shell
//!   surfaces), `vinput` and `xkb` (virtual pointer and keyboard, with the
//!   keymap they need), `device` (the gesture device over them).
//! - Per compositor: `sway` (its IPC), `kwin/` (scripts, EIS entry,
//!   screenshots), `fakeinput` (KWin's fake input), `gnome/` (the shell
//!   extension), `mutter` (RemoteDesktop), `portal/` (the desktop portal),
//!   `eis` (libei's protocol), `reported` (window lists a compositor
//!   reports itself).

mod backend;
mod bus;
mod client;
mod device;
mod eis;
mod fakeinput;
mod gnome;
mod kwin;
mod mutter;
mod overlay;
mod portal;
mod reported;
mod screencopy;
mod sway;
mod toplevel;
mod vinput;
mod xkb;

use std::sync::Arc;

use cup_linux_display::backend::{DisplayBackend, XWindows};
use cup_linux_display::env::Desktop;
// The boundary's modules under the names this crate's code uses.
use cup_linux_display::{display, keysym, pixels};

/// The backend of a native Wayland desktop: sway (its IPC socket), GNOME
/// (mutter's RemoteDesktop and cup's shell extension on the session bus),
/// KWin (its scripting on the session bus), else a generic wlroots
/// compositor, whose XWayland windows `xwindows` reads.
pub async fn choose(desktop: &Desktop, xwindows: Arc<dyn XWindows>) -> Box<dyn DisplayBackend> {
    let socket = desktop.wayland.clone();
    if let Some(sock) = desktop.swaysock.clone() {
        return Box::new(backend::sway::Sway::new(sway::SwayIpc::new(sock), socket));
    }
    if let Some(bus) = desktop.session_bus.as_deref() {
        if let Ok(shell) = gnome::shell::GnomeShell::connect(bus).await {
            if shell.present().await {
                return Box::new(backend::gnome::Gnome::new(shell, socket));
            }
        }
        // Scripts go where KWin (the desktop's user) can read them: the
        // desktop's runtime directory.
        let dir = socket
            .as_deref()
            .and_then(std::path::Path::parent)
            .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
        if let Ok(scripts) = kwin::script::KWinScripts::connect(bus, dir).await {
            if scripts.present().await {
                return Box::new(backend::kwin::KWin::new(scripts, socket));
            }
        }
    }
    Box::new(backend::wlr::Wlr::new(
        socket,
        desktop.display.clone(),
        xwindows,
    ))
}

pub use toplevel::pair_by_app_id;

/// sway's IPC (the i3 protocol over `SWAYSOCK`).
pub mod sway_ipc {
    pub use crate::sway::{windows_of, SwayIpc, SwayState, SwayWindow};
}

/// What `cup setup gnome|kde` installs: cup's GNOME Shell extension, and
/// the desktop file that lets a program use KWin's fake input and
/// screenshots.
pub mod setup {
    pub use crate::fakeinput::install_desktop_file;

    /// Holds a KWin fake-input device on the compositor at `socket` until
    /// KWin goes away, calling `ready` once the device is there. A KWin
    /// with no pointer of its own (`kwin_wayland --virtual`, headless)
    /// gives its seat a pointer only while some device is connected: when
    /// each cup command brought the first one, apps were still binding
    /// their `wl_pointer` to the new seat capability as the press came, and
    /// lost it (5 of 14 clicks beside two busy processes; 0 of 14 with a
    /// device held). `cup sandbox start --compositor kwin` runs this, as a
    /// desktop with a mouse has one. Returns why it ended.
    pub async fn hold_pointer(socket: &std::path::Path, ready: impl FnOnce()) -> String {
        match crate::fakeinput::FakeInput::open(socket, crate::client::DEFAULT_TIMEOUT).await {
            Ok(device) => {
                ready();
                device
                    .keep(std::time::Duration::from_secs(2))
                    .await
                    .to_string()
            }
            Err(e) => e.to_string(),
        }
    }
    pub use crate::gnome::{
        install_extension, installed_extension_files, installed_shell_major,
        with_extension_enabled, BUS_NAME, UUID,
    };
}
