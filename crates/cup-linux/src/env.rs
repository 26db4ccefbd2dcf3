//! Which desktop the adapter talks to: the X display, the session bus and
//! the accessibility bus. By default the process environment
//! (`DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`, `AT_SPI_BUS_ADDRESS`); tests and
//! tools that drive several private desktops at once give them explicitly.

/// Addresses of one desktop.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Desktop {
    /// X11 display name (`:0`).
    pub display: Option<String>,
    /// D-Bus session bus address, used to look up the accessibility bus.
    pub session_bus: Option<String>,
    /// Accessibility bus address; when set, the session bus is not asked.
    pub a11y_bus: Option<String>,
    /// The Xauthority file with the display's cookie, for a display other
    /// than the environment's (see [`crate::xauth`]); `None`: the
    /// environment's (`XAUTHORITY`, else `~/.Xauthority`).
    pub xauthority: Option<std::path::PathBuf>,
}

impl Desktop {
    /// The desktop of the process environment.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        // Without DBUS_SESSION_BUS_ADDRESS, D-Bus falls back to the
        // well-known socket of the user's runtime directory.
        let session_bus = var("DBUS_SESSION_BUS_ADDRESS").or_else(|| {
            let socket = std::path::Path::new(&var("XDG_RUNTIME_DIR")?).join("bus");
            socket
                .exists()
                .then(|| format!("unix:path={}", socket.display()))
        });
        Desktop {
            display: var("DISPLAY"),
            session_bus,
            a11y_bus: var("AT_SPI_BUS_ADDRESS"),
            xauthority: None,
        }
    }
}
