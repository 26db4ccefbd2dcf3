//! Screenshot targets resolved the same way on every platform. What a
//! [`ShotTarget::Window`](crate::ShotTarget::Window) names (a window's
//! native reference, or part of its title) is found among the adapter's
//! [`Adapter::windows`](crate::Adapter::windows) with [`window`]; the
//! screen, a monitor and a region are the platform's own.

use cup_protocol::Rect;

use crate::adapter::{AdapterError, WindowHandle};

/// The window `wanted` names among `windows`, and its frame (screen
/// pixels): the one whose native reference it is, else the first whose
/// title contains it (case ignored).
///
/// # Errors
///
/// - [`AdapterError::NotFound`]: `no window '{wanted}'; list windows to
///   see their titles`;
/// - [`AdapterError::Invalid`]: `'{title}' is minimized; restore it
///   first` (it has no bounds).
///
/// ```
/// use cup::screenshot::window;
/// use cup::WindowHandle;
/// use cup_protocol::{Rect, WindowInfo};
///
/// let info = WindowInfo {
///     title: "Untitled - Notepad".into(),
///     bounds: Some(Rect::new(10, 20, 640, 480)),
///     ..WindowInfo::default()
/// };
/// let all = [WindowHandle { info, native: "hwnd:66".into() }];
/// let (found, frame) = window(&all, "notepad").unwrap();
/// assert_eq!((found.native.as_str(), frame), ("hwnd:66", Rect::new(10, 20, 640, 480)));
/// assert!(window(&all, "Paint").is_err());
/// ```
pub fn window<'a>(
    windows: &'a [WindowHandle],
    wanted: &str,
) -> Result<(&'a WindowHandle, Rect), AdapterError> {
    let needle = wanted.to_lowercase();
    let found = windows
        .iter()
        .find(|h| h.native == wanted)
        .or_else(|| {
            windows
                .iter()
                .find(|h| h.info.title.to_lowercase().contains(&needle))
        })
        .ok_or_else(|| {
            AdapterError::NotFound(format!(
                "no window '{wanted}'; list windows to see their titles"
            ))
        })?;
    let frame = found.info.bounds.ok_or_else(|| {
        AdapterError::Invalid(format!(
            "'{}' is minimized; restore it first",
            found.info.title
        ))
    })?;
    Ok((found, frame))
}

/// A whole-screen PNG (`png`, its top-left at 0,0) cut to `region`,
/// which is first clipped to the picture: what phones, whose screenshot is
/// always the whole screen, give for a region or a window.
///
/// # Errors
///
/// - [`AdapterError::Invalid`]: the region is outside the picture;
/// - [`AdapterError::Platform`]: the PNG does not decode or encode.
pub fn crop_png(png: &[u8], region: Rect) -> Result<crate::Shot, AdapterError> {
    let (rgb, w, h) = crate::image::rgb_from_png(png)
        .map_err(|e| AdapterError::Platform(format!("the screenshot does not decode: {e}")))?;
    let cut = region.intersect(&Rect::new(0, 0, u64::from(w), u64::from(h)));
    if cut.is_empty() {
        return Err(AdapterError::Invalid(format!(
            "the region {},{} {}x{} is outside the {w}x{h} screen",
            region.x, region.y, region.w, region.h
        )));
    }
    let at = |v: i64| usize::try_from(v).unwrap_or(0);
    let size = |v: u64| usize::try_from(v).unwrap_or(0);
    let (x0, y0, cw, ch) = (at(cut.x), at(cut.y), size(cut.w), size(cut.h));
    let stride = size(u64::from(w)) * 3;
    let mut out = Vec::with_capacity(cw * ch * 3);
    for row in y0..y0 + ch {
        let start = row * stride + x0 * 3;
        out.extend_from_slice(rgb.get(start..start + cw * 3).unwrap_or_default());
    }
    let (width, height) = (
        u32::try_from(cw).unwrap_or(0),
        u32::try_from(ch).unwrap_or(0),
    );
    Ok(crate::Shot {
        png: crate::image::png_from_rgb(&out, width, height).map_err(AdapterError::Platform)?,
        width,
        height,
        x: cut.x,
        y: cut.y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(native: &str, title: &str, bounds: Option<Rect>) -> WindowHandle {
        WindowHandle {
            info: cup_protocol::WindowInfo {
                title: title.into(),
                bounds,
                ..cup_protocol::WindowInfo::default()
            },
            native: native.into(),
        }
    }

    #[test]
    fn a_reference_wins_over_a_title_and_titles_match_in_part_ignoring_case() {
        let frame = Rect::new(0, 0, 800, 600);
        let all = [
            handle("w:1", "Notes about w:2", Some(frame)),
            handle("w:2", "Terminal", Some(Rect::new(5, 5, 10, 10))),
        ];
        let (found, got) = window(&all, "w:2").expect("by reference");
        assert_eq!(
            (found.native.as_str(), got),
            ("w:2", Rect::new(5, 5, 10, 10))
        );
        let (found, got) = window(&all, "NOTES").expect("by title");
        assert_eq!((found.native.as_str(), got), ("w:1", frame));
        assert_eq!(window(&all, "term").expect("part").0.native, "w:2");
    }

    #[test]
    fn no_such_window_and_a_minimized_one_are_refused_in_one_line() {
        let all = [handle("w:1", "Mail", None)];
        assert_eq!(
            window(&all, "Calendar").map(|(h, _)| h.native.clone()),
            Err(AdapterError::NotFound(
                "no window 'Calendar'; list windows to see their titles".into()
            ))
        );
        assert_eq!(
            window(&all, "mail").map(|(h, _)| h.native.clone()),
            Err(AdapterError::Invalid(
                "'Mail' is minimized; restore it first".into()
            ))
        );
        assert!(window(&[], "Mail").is_err());
    }
}
