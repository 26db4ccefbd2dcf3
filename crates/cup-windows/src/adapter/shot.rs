//! Screenshots on Windows: the screen, a monitor or a region copied from
//! the screen; a window drawn by itself (`PrintWindow`) where it can, so
//! a covered window shows its own content.

use cup::{Adapter, AdapterError, Shot, ShotTarget};
use cup_protocol::Rect;

use super::{blocking, WindowsAdapter};
use crate::os::{shot, win32};
use crate::screen::ltrb;
use crate::toplevel::hwnd_of;

impl WindowsAdapter {
    /// Window `hwnd` drawn by itself (`PrintWindow`, so a covered window
    /// shows its own content), cut to its frame; `None` when it cannot
    /// draw itself (the caller copies the screen instead).
    async fn print_window(&self, hwnd: i64, frame: Rect) -> Result<Option<Shot>, AdapterError> {
        blocking(move || {
            let window = ltrb(win32::window_rect(hwnd)?);
            let cut = crate::screen::frame_in_window(window, frame)?;
            let (w, h) = (i32::try_from(window.w).ok()?, i32::try_from(window.h).ok()?);
            let px = shot::print_window(hwnd, w, h)
                .map_err(|e| tracing::debug!("{e}; the window is copied from the screen"))
                .ok()?;
            let px = crate::screen::crop_bgra(&px, w as u32, cut);
            if crate::screen::is_blank(&px) {
                tracing::debug!("PrintWindow drew nothing; the window is copied from the screen");
                return None;
            }
            let png = cup::image::png_from_bgra(&px, cut.2, cut.3).ok()?;
            Some(Shot {
                png,
                width: cut.2,
                height: cut.3,
                x: frame.x,
                y: frame.y,
            })
        })
        .await
    }

    /// A screenshot of `target` ([`cup::Adapter::screenshot`]).
    pub(super) async fn take_screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let screen = blocking(win32::screen).await?;
        let rect = match target {
            ShotTarget::Screen | ShotTarget::FullPage => {
                let [x, y, w, h] = screen.virtual_screen;
                Rect::new(
                    i64::from(x),
                    i64::from(y),
                    u64::try_from(w).unwrap_or(0),
                    u64::try_from(h).unwrap_or(0),
                )
            }
            ShotTarget::Monitor(i) => {
                let m = screen.monitors.get(*i).ok_or_else(|| {
                    AdapterError::Invalid(format!(
                        "there is no monitor {i}; this machine has {}",
                        screen.monitors.len()
                    ))
                })?;
                ltrb(m.rect)
            }
            ShotTarget::Region(r) => *r,
            ShotTarget::Window(w) => {
                let all = self.windows().await?;
                let (found, frame) = cup::screenshot::window(&all, w)?;
                if let Some(hwnd) = hwnd_of(&found.native) {
                    if let Some(shot) = self.print_window(hwnd, frame).await? {
                        return Ok(shot);
                    }
                }
                frame
            }
        };
        let (x, y) = (
            i32::try_from(rect.x).unwrap_or(0),
            i32::try_from(rect.y).unwrap_or(0),
        );
        let (w, h) = (
            i32::try_from(rect.w).unwrap_or(0),
            i32::try_from(rect.h).unwrap_or(0),
        );
        let png = blocking(move || {
            let px = shot::grab(x, y, w, h)?;
            cup::image::png_from_bgra(&px, w as u32, h as u32)
        })
        .await?
        .map_err(AdapterError::Platform)?;
        Ok(Shot {
            png,
            width: w as u32,
            height: h as u32,
            x: rect.x,
            y: rect.y,
        })
    }
}
