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
    let (backend, common) = tokio::join!(adapter.backend_checks(), common(adapter));
    let mut checks: Vec<Check> = backend
        .into_iter()
        .map(|c| check(c.name, c.result, c.fix))
        .collect();
    // The display first, then the accessibility bus, then input and
    // capture.
    let at = checks.len().min(1);
    checks.splice(at..at, common);
    checks
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
    // Windows on screen with no tree behind them, each with the way to turn
    // its app's accessibility on.
    let trees = async {
        let windows = cup::Adapter::windows(adapter)
            .await
            .map_err(|e| e.to_string())?;
        let dark = without_tree(&windows);
        if dark.is_empty() {
            return Ok(format!(
                "all {} window(s) expose an accessibility tree",
                windows.len()
            ));
        }
        Err(format!(
            "{} window(s) expose no accessibility tree (their text is read from pixels meanwhile): {}",
            dark.len(),
            dark.join("; ")
        ))
    };
    let (bus, enabled, trees) = tokio::join!(bus, enabled, trees);
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
        check(
            "apps with a tree",
            trees,
            "restart each app named above the way given for it",
        ),
    ]
}

/// The titled windows of `windows` that no AT-SPI frame stands for, each
/// as `'TITLE' (PROGRAM): ADVICE`.
fn without_tree(windows: &[cup::WindowHandle]) -> Vec<String> {
    windows
        .iter()
        .filter(|w| {
            cup_linux_display::display::Backend::is_window_handle(&w.native)
                && !w.info.title.trim().is_empty()
        })
        .map(|w| {
            let pid = w.info.pid.and_then(|p| u32::try_from(p).ok());
            let program = pid
                .and_then(|p| std::fs::read_to_string(format!("/proc/{p}/comm")).ok())
                .map(|c| c.trim().to_owned())
                .unwrap_or_default();
            let advice = cup_atspi::advice::for_program(&program)
                .unwrap_or("the app may not support AT-SPI; its text is read from pixels");
            if program.is_empty() {
                format!("'{}': {advice}", w.info.title)
            } else {
                format!("'{}' ({program}): {advice}", w.info.title)
            }
        })
        .collect()
}
