//! The one place that asks which desktop this is: picks the display
//! backend (cup-x11's, or one of cup-wayland's) the adapter composes with
//! AT-SPI, once, when the adapter first needs it.

use std::sync::Arc;

use cup_linux_display::backend::DisplayBackend;
use cup_linux_display::env::Desktop;

/// Picks the backend of `desktop`: X11 unless the desktop is a native
/// Wayland session (built with the `wayland` feature); there cup-wayland
/// picks sway, GNOME, KWin or a generic wlroots compositor.
pub(crate) async fn choose(
    desktop: &Desktop,
    x11_reader: Arc<cup_x11::X11Reader>,
) -> Box<dyn DisplayBackend> {
    #[cfg(feature = "wayland")]
    if desktop.is_native_wayland() {
        let xwindows: Arc<dyn cup_linux_display::backend::XWindows> = x11_reader;
        return cup_wayland::choose(desktop, xwindows).await;
    }
    Box::new(cup_x11::X11::new(desktop.display.clone(), x11_reader))
}
