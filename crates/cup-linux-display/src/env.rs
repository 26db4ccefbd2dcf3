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
    /// than the environment's (see `xauth`); `None`: the
    /// environment's (`XAUTHORITY`, else `~/.Xauthority`).
    pub xauthority: Option<std::path::PathBuf>,
    /// The Wayland compositor's socket (absolute: `WAYLAND_DISPLAY`, made
    /// absolute with `XDG_RUNTIME_DIR` when it is a bare name).
    pub wayland: Option<std::path::PathBuf>,
    /// sway's IPC socket (`SWAYSOCK`): with [`Desktop::wayland`], the
    /// desktop is driven natively (window positions from sway, input and
    /// screenshots through the compositor).
    pub swaysock: Option<std::path::PathBuf>,
}

impl Desktop {
    /// The desktop of the process environment.
    pub fn from_env() -> Self {
        Desktop::from_vars(|name| std::env::var(name).ok())
    }

    /// The desktop that these variables (`name=value` pairs, as a sandbox
    /// gives them to its programs) describe; unset ones are not looked up
    /// in the process environment. The Xauthority file is `XAUTHORITY`'s.
    pub fn from_pairs(pairs: &[(String, String)]) -> Self {
        let mut desktop = Desktop::from_vars(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        });
        desktop.xauthority = pairs
            .iter()
            .find(|(k, _)| k == "XAUTHORITY")
            .map(|(_, v)| std::path::PathBuf::from(v));
        desktop
    }

    fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let var = |name: &str| lookup(name).filter(|v| !v.is_empty());
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
            wayland: var("WAYLAND_DISPLAY").and_then(|name| {
                let name = std::path::PathBuf::from(name);
                if name.is_absolute() {
                    return Some(name);
                }
                Some(std::path::Path::new(&var("XDG_RUNTIME_DIR")?).join(name))
            }),
            swaysock: var("SWAYSOCK").map(std::path::PathBuf::from),
        }
    }

    /// The desktop is a Wayland session (`WAYLAND_DISPLAY`), which cup
    /// drives natively: input and screenshots through the compositor,
    /// native windows placed by sway's rectangles under sway, and left
    /// without bounds under a compositor that tells no window positions;
    /// XWayland windows in it keep their X11 places.
    pub fn is_native_wayland(&self) -> bool {
        self.wayland.is_some()
    }
}
