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
