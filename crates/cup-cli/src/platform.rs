//! The adapter the live commands use (this machine's desktop, or a browser
//! over CDP), and the async runtime they run on.

use std::sync::OnceLock;

use crate::cli::TargetArgs;
use crate::commands::Failure;

static TARGET: OnceLock<TargetArgs> = OnceLock::new();

/// Remembers the command line's target options (once, at start).
pub fn configure(target: &TargetArgs) {
    let _ = TARGET.set(target.clone());
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The platform the command line or `CUP_PLATFORM` names, lowercase.
fn named_platform() -> Option<String> {
    TARGET
        .get()
        .and_then(|t| t.platform.clone())
        .or_else(|| env("CUP_PLATFORM"))
        .map(|p| p.to_ascii_lowercase())
}

/// Whether the live commands target a browser.
pub fn is_web() -> bool {
    let t = TARGET.get().cloned().unwrap_or_default();
    match named_platform() {
        Some(p) => p == "web",
        None => t.cdp_port.is_some() || t.cdp_host.is_some() || t.cdp_url.is_some(),
    }
}

/// The browser's DevTools endpoint: the options, else the environment.
pub fn endpoint() -> Result<cup_web::Endpoint, Failure> {
    let t = TARGET.get().cloned().unwrap_or_default();
    if let Some(url) = &t.cdp_url {
        return cup_web::Endpoint::parse(url).map_err(Failure::usage);
    }
    let from_env = cup_web::Endpoint::from_env().map_err(Failure::usage)?;
    let (env_host, env_port) = match &from_env {
        cup_web::Endpoint::Http { host, port } => (host.clone(), *port),
        cup_web::Endpoint::WebSocket(_) if t.cdp_host.is_none() && t.cdp_port.is_none() => {
            return Ok(from_env)
        }
        cup_web::Endpoint::WebSocket(_) => {
            ("127.0.0.1".to_owned(), cup_web::endpoint::DEFAULT_PORT)
        }
    };
    Ok(cup_web::Endpoint::Http {
        host: t.cdp_host.unwrap_or(env_host),
        port: t.cdp_port.unwrap_or(env_port),
    })
}

/// A key naming the UI the live commands see (to keep snapshots apart).
pub fn target_key() -> String {
    if is_web() {
        return endpoint().map_or_else(|_| "web".into(), |e| format!("web|{}", e.describe()));
    }
    let var = |n: &str| std::env::var(n).unwrap_or_default();
    format!(
        "{}|{}|{}",
        var("DISPLAY"),
        var("DBUS_SESSION_BUS_ADDRESS"),
        var("AT_SPI_BUS_ADDRESS")
    )
}

/// The adapter of the target.
pub fn adapter() -> Result<Box<dyn cup::Adapter>, Failure> {
    if is_web() {
        return Ok(Box::new(cup_web::WebAdapter::new(endpoint()?)));
    }
    // A desktop named by its OS must be this machine's.
    let named = named_platform();
    let here = if cfg!(windows) {
        "windows"
    } else {
        std::env::consts::OS
    };
    if let Some(p) = named.filter(|p| p != "desktop" && p != here) {
        return Err(Failure::usage(format!(
            "--platform {p}: this cup runs on {here}; use --platform desktop (or {here}) for this machine, or web for a browser"
        )));
    }
    #[cfg(target_os = "linux")]
    {
        Ok(Box::new(cup_linux::LinuxAdapter::new()))
    }
    #[cfg(windows)]
    {
        Ok(Box::new(cup_windows::WindowsAdapter::new()))
    }
    #[cfg(target_os = "macos")]
    {
        Ok(Box::new(cup_macos::MacAdapter::new()))
    }
    #[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
    {
        Err(Failure::usage("desktop capture is implemented for Linux, Windows and macOS; use --platform web for a browser, or `cup render` on files"))
    }
}

/// A single-threaded tokio runtime. cup's work is I/O: hundreds of D-Bus
/// or CDP calls in flight, whose replies wake their callers on the thread
/// that read them; with worker threads, each reply is a hop between threads
/// (a gtk3-widget-factory capture: median 118 -> 102 ms, 30 % less system
/// CPU). CPU-heavy steps (screenshot encoding, freeing big trees) run on
/// the blocking pool.
pub fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the async runtime: {e}")))
}

/// The tools over the session `make` creates, page scripting going to the
/// browser of the options or environment.
pub fn toolbox(profile: cup_tools::Profile, make: cup_tools::SessionMaker) -> cup_tools::Toolbox {
    let mut tb = cup_tools::Toolbox::new(profile, make);
    tb.set_endpoint(Box::new(|| endpoint().map_err(|f| f.message)));
    tb
}
