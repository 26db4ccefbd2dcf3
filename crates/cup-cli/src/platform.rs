//! The adapter the live commands use (this machine's desktop, a browser
//! over CDP, or a phone), and the async runtime they run on: the command line's
//! options over [`cup_tools::Target`], which the bindings share.

use std::sync::OnceLock;

use crate::cli::TargetArgs;
use crate::commands::Failure;

static TARGET: OnceLock<TargetArgs> = OnceLock::new();

/// Remembers the command line's target options (once, at start).
pub fn configure(target: &TargetArgs) {
    let _ = TARGET.set(target.clone());
}

fn target() -> cup_tools::Target {
    let t = TARGET.get().cloned().unwrap_or_default();
    cup_tools::Target {
        platform: t.platform,
        cdp_port: t.cdp_port,
        cdp_host: t.cdp_host,
        cdp_url: t.cdp_url,
        ax_source: t.ax_source,
        serial: t.serial,
        wda_url: t.wda_url,
    }
}

/// The browser's DevTools endpoint: the options, else the environment.
pub fn endpoint() -> Result<cup_web::Endpoint, Failure> {
    target().endpoint().map_err(Failure::usage)
}

/// A key naming the UI the live commands see (to keep snapshots apart).
pub fn target_key() -> String {
    target().key()
}

/// The adapter of the target.
pub fn adapter() -> Result<Box<dyn cup::Adapter>, Failure> {
    target().adapter().map_err(Failure::usage)
}

/// The async runtime of the live commands (see [`cup_tools::target::runtime`]).
pub fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    cup_tools::target::runtime().map_err(Failure::usage)
}

/// Page scripting in the browser of the options or environment (the web
/// adapter, connected on first use).
pub fn page_scripting() -> Result<Box<dyn cup::page::PageScripting>, Failure> {
    Ok(Box::new(cup_web::WebAdapter::new(endpoint()?)))
}

/// The tools over the session `make` creates, page scripting going to the
/// browser of the options or environment.
pub fn toolbox(profile: cup_tools::Profile, make: cup_tools::SessionMaker) -> cup_tools::Toolbox {
    let mut tb = cup_tools::Toolbox::new(profile, make);
    tb.set_page_scripting(Box::new(|| page_scripting().map_err(|f| f.message)));
    tb
}
