//! Coordinates: monitors and their scales from the native facts, and
//! `SendInput`'s absolute coordinates over the whole virtual desktop. cup
//! runs per-monitor DPI aware (v2), so every rectangle UIA and Win32 give
//! it is in physical pixels of the virtual screen, the same space the
//! pointer moves in: a point needs no scaling, only normalizing.

use cup::{Monitor, ScreenInfo};
use cup_protocol::Rect;

use crate::facts::ScreenFacts;

/// A `[left, top, right, bottom]` rectangle as a CUP rectangle.
pub fn ltrb(r: [i32; 4]) -> Rect {
    let w = u64::try_from(i64::from(r[2]) - i64::from(r[0])).unwrap_or(0);
    let h = u64::try_from(i64::from(r[3]) - i64::from(r[1])).unwrap_or(0);
    Rect::new(i64::from(r[0]), i64::from(r[1]), w, h)
}

/// The scale of a monitor's DPI (96 = 1.0); 1.0 when unknown.
pub fn scale_of(dpi: u32) -> f64 {
    if dpi == 0 {
        1.0
    } else {
        f64::from(dpi) / 96.0
    }
}

/// The screen as cup reports it: the virtual desktop's size, the primary
/// monitor's scale, every monitor with its own.
pub fn screen_info(f: &ScreenFacts) -> ScreenInfo {
    let monitors: Vec<Monitor> = f
        .monitors
        .iter()
        .map(|m| Monitor {
            name: m.name.clone(),
            rect: ltrb(m.rect),
            primary: m.primary,
            scale: scale_of(m.dpi),
        })
        .collect();
    let primary = f
        .monitors
        .iter()
        .find(|m| m.primary)
        .or(f.monitors.first())
        .map_or(1.0, |m| scale_of(m.dpi));
    let [_, _, w, h] = f.virtual_screen;
    ScreenInfo {
        width: i64::from(w),
        height: i64::from(h),
        scale: primary,
        monitors,
    }
}

/// `SendInput`'s normalized absolute coordinates (0..=65535 over the
/// virtual desktop, `MOUSEEVENTF_VIRTUALDESK`) of pixel `(x, y)`: the
/// centre of the pixel, so Windows' mapping back (`dx * width / 65536`)
/// lands on it exactly on every monitor, also left of or above the
/// primary one. `None` when the point is outside the virtual desktop.
pub fn normalize(x: i64, y: i64, virtual_screen: [i32; 4]) -> Option<(i32, i32)> {
    let [vx, vy, vw, vh] = virtual_screen.map(i64::from);
    if vw <= 0 || vh <= 0 || x < vx || y < vy || x >= vx + vw || y >= vy + vh {
        return None;
    }
    let axis = |p: i64, o: i64, size: i64| -> i32 {
        let n = ((2 * (p - o) + 1) * 65_536) / (2 * size);
        i32::try_from(n.clamp(0, 65_535)).unwrap_or(65_535)
    };
    Some((axis(x, vx, vw), axis(y, vy, vh)))
}

/// Where Windows puts the pointer for normalized `(dx, dy)` (its own
/// mapping; the tests check [`normalize`] against it).
pub fn denormalize(dx: i32, dy: i32, virtual_screen: [i32; 4]) -> (i64, i64) {
    let [vx, vy, vw, vh] = virtual_screen.map(i64::from);
    (
        vx + (i64::from(dx) * vw) / 65_536,
        vy + (i64::from(dy) * vh) / 65_536,
    )
}

/// The part of a window's `PrintWindow` image (`window`: its
/// `GetWindowRect`, invisible resize borders included) that is the frame
/// cup reports as the window's bounds (`frame`: DWM's extended frame
/// bounds): `(x, y, width, height)` within the image, or `None` when the
/// frame is not inside it.
pub fn frame_in_window(window: Rect, frame: Rect) -> Option<(u32, u32, u32, u32)> {
    let dx = u32::try_from(frame.x - window.x).ok()?;
    let dy = u32::try_from(frame.y - window.y).ok()?;
    let (w, h) = (u32::try_from(frame.w).ok()?, u32::try_from(frame.h).ok()?);
    let fits = u64::from(dx) + frame.w <= window.w && u64::from(dy) + frame.h <= window.h;
    (fits && w > 0 && h > 0).then_some((dx, dy, w, h))
}

/// `(x, y, w, h)` of a `width`-pixel-wide BGRA image, copied out.
pub fn crop_bgra(pixels: &[u8], width: u32, (x, y, w, h): (u32, u32, u32, u32)) -> Vec<u8> {
    let stride = width as usize * 4;
    let mut out = Vec::with_capacity(w as usize * h as usize * 4);
    for row in y as usize..(y + h) as usize {
        let start = row * stride + x as usize * 4;
        if let Some(line) = pixels.get(start..start + w as usize * 4) {
            out.extend_from_slice(line);
        }
    }
    out
}

/// Whether a `PrintWindow` image is blank (every pixel black): what some
/// windows answer with `TRUE` (a window that draws only on the screen);
/// such a window is shot from the screen instead.
pub fn is_blank(pixels: &[u8]) -> bool {
    pixels.chunks_exact(4).all(|p| p[..3] == [0, 0, 0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_shot_is_cut_to_the_frame_cup_reports() {
        // Windows 10/11: 7 px invisible borders left, right and bottom.
        let window = Rect::new(93, 100, 814, 607);
        let frame = Rect::new(100, 100, 800, 600);
        assert_eq!(frame_in_window(window, frame), Some((7, 0, 800, 600)));
        assert_eq!(frame_in_window(frame, frame), Some((0, 0, 800, 600)));
        assert_eq!(frame_in_window(frame, window), None, "frame larger");
        assert_eq!(frame_in_window(window, Rect::new(90, 100, 10, 10)), None);
        // A 3x2 image, the middle column cut.
        let px: Vec<u8> = (0..24).collect();
        assert_eq!(
            crop_bgra(&px, 3, (1, 0, 1, 2)),
            vec![4, 5, 6, 7, 16, 17, 18, 19]
        );
        assert!(is_blank(&[0, 0, 0, 255, 0, 0, 0, 0]));
        assert!(!is_blank(&[0, 0, 1, 255]));
    }
    use crate::facts::MonitorFacts;

    fn two_monitors() -> ScreenFacts {
        // A 4K monitor at 150 % left of a 1080p primary at 100 %.
        ScreenFacts {
            virtual_screen: [-3840, -600, 5760, 2160],
            monitors: vec![
                MonitorFacts {
                    name: r"\\.\DISPLAY1".into(),
                    rect: [0, 0, 1920, 1080],
                    work: [0, 0, 1920, 1040],
                    dpi: 96,
                    primary: true,
                },
                MonitorFacts {
                    name: r"\\.\DISPLAY2".into(),
                    rect: [-3840, -600, 0, 1560],
                    work: [-3840, -600, 0, 1520],
                    dpi: 144,
                    primary: false,
                },
            ],
        }
    }

    #[test]
    fn every_pixel_of_every_monitor_maps_back_to_itself() {
        let f = two_monitors();
        for m in &f.monitors {
            let r = m.rect.map(i64::from);
            for x in [r[0], r[0] + 1, (r[0] + r[2]) / 2, r[2] - 2, r[2] - 1] {
                for y in [r[1], r[1] + 1, (r[1] + r[3]) / 2, r[3] - 1] {
                    let (dx, dy) = normalize(x, y, f.virtual_screen).expect("inside");
                    assert_eq!(denormalize(dx, dy, f.virtual_screen), (x, y), "{}", m.name);
                }
            }
        }
        // Odd sizes too (a 1366 px monitor beside a 2560 px one).
        let vs = [0, 0, 3926, 1440];
        for x in 0..3926 {
            let (dx, _) = normalize(x, 0, vs).expect("inside");
            assert_eq!(denormalize(dx, 0, vs).0, x);
        }
    }

    #[test]
    fn points_off_the_virtual_desktop_are_refused() {
        let f = two_monitors();
        assert_eq!(normalize(1920, 0, f.virtual_screen), None);
        assert_eq!(normalize(-3841, 0, f.virtual_screen), None);
        assert_eq!(normalize(0, 1560, f.virtual_screen), None);
    }

    #[test]
    fn the_screen_has_each_monitors_scale() {
        let s = screen_info(&two_monitors());
        assert_eq!((s.width, s.height, s.scale), (5760, 2160, 1.0));
        assert_eq!(s.monitors[1].rect, Rect::new(-3840, -600, 3840, 2160));
        assert_eq!(s.monitors[1].scale, 1.5);
    }
}
