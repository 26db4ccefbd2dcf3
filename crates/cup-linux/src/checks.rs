//! `check_permissions` on Linux: what cup needs from the desktop, each
//! checked for real (a connection opened, a flag read) and paired with how
//! to fix it.

use cup::Check;

use crate::adapter::LinuxAdapter;

fn check(name: &str, result: Result<String, String>, fix: &str) -> Check {
    match result {
        Ok(detail) => Check {
            name: name.to_owned(),
            ok: true,
            detail,
            fix: String::new(),
        },
        Err(detail) => Check {
            name: name.to_owned(),
            ok: false,
            detail,
            fix: fix.to_owned(),
        },
    }
}

/// Runs every check (display, accessibility bus and flag, input, screen
/// capture) concurrently.
pub async fn run(adapter: &LinuxAdapter) -> Vec<Check> {
    let (mut checks, common) = if adapter.desktop().is_native_wayland() {
        tokio::join!(wayland(adapter), common(adapter))
    } else {
        tokio::join!(x11(adapter), common(adapter))
    };
    // The display first, then the accessibility bus, then input and
    // capture.
    let at = checks.len().min(1);
    checks.splice(at..at, common);
    checks
}

/// The checks of a native Wayland desktop: the backend and the compositor
/// found (sway, or another one and what it offers), its virtual pointer
/// and keyboard, screencopy.
async fn wayland(adapter: &LinuxAdapter) -> Vec<Check> {
    let desktop = adapter.desktop();
    let display = async {
        let socket = desktop
            .wayland
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let s = adapter.display_state().await.map_err(|e| e.to_string())?;
        let screen = format!(
            "{}x{}, {} output(s), scale {}",
            s.width,
            s.height,
            s.monitors.len(),
            s.scale
        );
        if let Some(shell) = adapter.gnome().await {
            let version = shell.extension().await?;
            return Ok(format!(
                "Wayland, native: GNOME Shell {} at {socket} ({screen}); windows, places and pids from cup's extension (version {})",
                version.shell, version.extension
            ));
        }
        if adapter.kwin().await.is_some() {
            return Ok(format!(
                "Wayland, native: KWin at {socket} ({screen}); windows, places and pids from KWin scripting"
            ));
        }
        if let Some(sway) = adapter.sway() {
            let version = sway.version().await.map_err(|e| e.to_string())?;
            return Ok(format!(
                "Wayland, native: sway {version} at {socket} ({screen}); window positions from sway's IPC"
            ));
        }
        let toplevels = adapter
            .wayland_toplevels()
            .await
            .map_err(|e| e.to_string())?;
        let offers = toplevels.globals().names().join(", ");
        let list = if toplevels.lists() {
            "windows from zwlr_foreign_toplevel_manager_v1"
        } else {
            "no window list from the compositor"
        };
        Ok(format!(
            "Wayland, native, without sway's IPC at {socket} ({screen}); {list}; window positions unknown: native windows' elements get no bounds (compositor offers: {offers})"
        ))
    };
    let kwin = adapter.kwin().await.is_some();
    let gnome = adapter.gnome().await.is_some();
    let input = async {
        adapter.wayland_input().await.map_err(|e| e.to_string())?;
        Ok(if gnome {
            let dev = adapter.wayland_input().await.map_err(|e| e.to_string())?;
            if dev.is_eis() {
                format!(
                    "EIS through {} (libei's protocol)",
                    if dev.is_portal() {
                        "the desktop portal"
                    } else {
                        "mutter's RemoteDesktop"
                    }
                )
            } else if dev.is_portal() {
                "the desktop portal's RemoteDesktop (ASCII keys; other text through the elements' type action)".to_owned()
            } else {
                "mutter's org.gnome.Mutter.RemoteDesktop (ASCII keys; other text through the elements' type action)".to_owned()
            }
        } else if kwin {
            "org_kde_kwin_fake_input (US keys; other text through the elements' type action)"
                .to_owned()
        } else {
            "zwlr_virtual_pointer_v1 and zwp_virtual_keyboard_v1 (cup's own keymaps)".to_owned()
        })
    };
    let capture = async {
        if let Some(shell) = adapter.gnome().await {
            shell.extension().await.map_err(|why| {
                format!("{why}; without it a screenshot goes through the desktop portal (whole screen, cut; GNOME asks its user once, and the portal refuses a root cup)")
            })?;
            shell
                .screenshot((0, 0, 1, 1))
                .await
                .map_err(|e| e.to_string())?;
            return Ok("Shell.Screenshot through cup's GNOME Shell extension".to_owned());
        }
        if let Some(scripts) = adapter.kwin().await {
            crate::wayland::kwin_shot::capture_area(scripts.connection(), (0, 0, 1, 1))
                .await
                .map_err(|e| e.to_string())?;
            return Ok("org.kde.KWin.ScreenShot2".to_owned());
        }
        adapter.wayland_shots().await.map_err(|e| e.to_string())?;
        Ok("zwlr_screencopy_manager_v1".to_owned())
    };
    let (display, input, capture) = tokio::join!(display, input, capture);
    vec![
        check(
            "display",
            display,
            if gnome {
                crate::wayland::gnome::SETUP_LINE
            } else {
                "check WAYLAND_DISPLAY and SWAYSOCK (sway sets both), or run `eval \"$(cup sandbox start --wayland)\"`"
            },
        ),
        check(
            "input (virtual pointer and keyboard)",
            input,
            if gnome {
                "run cup as the desktop's user; where mutter refuses its RemoteDesktop, cup asks the desktop portal (xdg-desktop-portal with its GNOME backend) and the user allows it once (CUP_WAYLAND_INPUT=portal asks it first)"
            } else if kwin {
                "run `cup setup kde` as the desktop's user (a desktop file that lets this cup use KWin's fake input)"
            } else {
                "use a wlroots compositor (sway, Hyprland, river, labwc, Wayfire): cup's Wayland input needs its virtual pointer and keyboard protocols"
            },
        ),
        check(
            "screen capture",
            capture,
            if gnome {
                crate::wayland::gnome::SETUP_LINE
            } else if kwin {
                "run `cup setup kde` as the desktop's user (the same desktop file allows KWin's screenshots)"
            } else {
                "use a wlroots compositor that offers wlr-screencopy (sway does)"
            },
        ),
    ]
}

/// The checks every desktop shares: the accessibility bus and its flag.
async fn common(adapter: &LinuxAdapter) -> Vec<Check> {
    let desktop = adapter.desktop();
    let bus = async {
        let links = adapter.links().await.map_err(|e| e.to_string())?;
        let apps = crate::atspi_calls::applications(links.bus())
            .await
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "connected; {} application(s) registered",
            apps.len()
        ))
    };
    let enabled = async {
        if desktop.a11y_bus.is_some() && desktop.session_bus.is_none() {
            return Ok(
                "AT_SPI_BUS_ADDRESS is set (no session bus to read the flag from)".to_owned(),
            );
        }
        match crate::bus::a11y_enabled(desktop).await {
            Ok(true) => Ok("org.a11y.Status.IsEnabled = true".to_owned()),
            Ok(false) => Err(
                "org.a11y.Status.IsEnabled = false: toolkits may not expose their trees".to_owned(),
            ),
            Err(e) => Err(e.to_string()),
        }
    };
    let (bus, enabled) = tokio::join!(bus, enabled);
    vec![
        check(
            "accessibility bus",
            bus,
            "install at-spi2-core (apt-get install at-spi2-core), run in a D-Bus session (DBUS_SESSION_BUS_ADDRESS), or use `cup sandbox start`",
        ),
        check(
            "accessibility enabled",
            enabled,
            "gsettings set org.gnome.desktop.interface toolkit-accessibility true, or: gdbus call --session --dest org.a11y.Bus --object-path /org/a11y/bus --method org.freedesktop.DBus.Properties.Set org.a11y.Status IsEnabled '<true>'; then restart the apps",
        ),
    ]
}

/// The checks of an X11 desktop: the display, XTest, screen capture.
async fn x11(adapter: &LinuxAdapter) -> Vec<Check> {
    let desktop = adapter.desktop();
    let display = async {
        let s = crate::x11::read_state(desktop.display.as_deref())
            .await
            .map_err(|e| e.to_string())?;
        // A Wayland session without sway's IPC: cup sees the XWayland
        // windows only.
        let wayland = if desktop.wayland.is_some() {
            "; a Wayland session without SWAYSOCK: native Wayland windows are not seen (GNOME and KDE are not supported natively yet), X11 apps through XWayland are"
        } else {
            ""
        };
        Ok(format!(
            "X11 {} ({}x{}, {} monitor(s), scale {}){wayland}",
            desktop.display.clone().unwrap_or_default(),
            s.width,
            s.height,
            s.monitors.len(),
            s.scale
        ))
    };
    let input = async {
        let input = adapter.input().await.map_err(|e| e.to_string())?;
        let p = input.cursor_position().await.map_err(|e| e.to_string())?;
        Ok(format!("XTest available; pointer at {},{}", p.x, p.y))
    };
    let capture = async {
        let g = adapter.grabber().await.map_err(|e| e.to_string())?;
        let (w, h) = g.size();
        Ok(format!("{} ({w}x{h})", g.transport().name()))
    };
    let (display, input, capture) = tokio::join!(display, input, capture);
    vec![
        check(
            "display",
            display,
            "set DISPLAY to a running X11 server, or run `eval \"$(cup sandbox start)\"`",
        ),
        check(
            "input (XTest)",
            input,
            "run an X server with the XTEST extension (Xorg and Xvfb have it by default)",
        ),
        check(
            "screen capture",
            capture,
            "check that the X server runs and allows GetImage (it does unless a security extension forbids it)",
        ),
    ]
}
