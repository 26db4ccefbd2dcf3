//! Placing a native Wayland window's extents on the screen (pure).
//!
//! Under Wayland every toolkit reports window-relative extents (for
//! `ATSPI_COORD_TYPE_SCREEN` too), and only the compositor knows where
//! the window is. sway's rectangle is the window geometry (the content),
//! but a floating GTK 3 window's AT-SPI frame also covers the shadow its
//! client-side decorations draw around it (Adwaita: 26 px left, 23 px
//! top, measured on sway 1.7): its frame is larger than sway's rectangle,
//! and its content starts at the top-left of its children. Tiled and
//! maximized GTK 3 windows draw no shadow; GTK 4 frames are the window
//! geometry itself (measured), even when the window is larger than its
//! tile.

use cup_protocol::Rect;

/// How much larger than the compositor's rectangle a frame must be to
/// carry a client-side shadow (rounding of fractional scales aside).
const SLACK: u64 = 2;

/// The frame (window-relative extents) is larger than the window's
/// rectangle: a GTK 2/3 frame then includes its client-side shadow, and
/// its children say where the content starts.
pub fn has_shadow(rect: &Rect, frame: Option<&Rect>) -> bool {
    frame.is_some_and(|f| f.w > rect.w + SLACK || f.h > rect.h + SLACK)
}

/// The shadow's left and top widths. A GTK 2/3 frame's children start
/// where the content does (their top-left, at most the frame's excess
/// over the rectangle on each axis). A frame whose children cover it
/// whole has no such corner: Chromium's (its root view spans the 10 px
/// shadow insets it draws on every side alike, `even`) is inset by half
/// its excess; any other (a GTK 3 window too large for its tile, which
/// sway clips on the right and bottom) not at all. Empty children and
/// those GTK 3 parks at a negative position (unmapped ones report
/// `-2147483648`) are not the content.
pub fn inset(rect: &Rect, frame: &Rect, children: &[Rect], even: bool) -> (i64, i64) {
    let excess = |f: u64, r: u64| i64::try_from(f.saturating_sub(r)).unwrap_or(i64::MAX);
    let (ex, ey) = (excess(frame.w, rect.w), excess(frame.h, rect.h));
    let shown: Vec<&Rect> = children
        .iter()
        .filter(|c| c.w > 0 && c.h > 0 && c.x >= 0 && c.y >= 0)
        .collect();
    let corner = shown
        .iter()
        .map(|c| c.x)
        .min()
        .zip(shown.iter().map(|c| c.y).min());
    match corner {
        Some((left, top)) if left > 0 || top > 0 => (left.clamp(0, ex), top.clamp(0, ey)),
        _ if even => (ex / 2, ey / 2),
        _ => (0, 0),
    }
}

/// The frame (window-relative extents) is smaller than the window's
/// rectangle: the toolkit draws decorations of its own outside it (Qt on
/// a compositor that draws none, such as GNOME's).
pub fn decorated(rect: &Rect, frame: &Rect) -> bool {
    frame.w + SLACK < rect.w || frame.h + SLACK < rect.h
}

/// Where a [`decorated`] frame's content starts in the rectangle: equal
/// borders left, right and below, the rest of the height a title bar on
/// top (Qt's own decorations on GNOME 43: 3 px borders and a 30 px title
/// bar, measured).
pub fn decoration_inset(rect: &Rect, frame: &Rect) -> (i64, i64) {
    let side = i64::try_from(rect.w.saturating_sub(frame.w) / 2).unwrap_or(0);
    let height = i64::try_from(rect.h.saturating_sub(frame.h)).unwrap_or(0);
    (side, (height - side).max(0))
}

/// Where window-relative (0, 0) is on the screen.
pub fn origin(rect: &Rect, inset: (i64, i64)) -> (i64, i64) {
    (rect.x - inset.0, rect.y - inset.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qt_decorations_on_gnome_put_the_content_below_its_title_bar() {
        // Measured: the Qt calculator on GNOME 43, rectangle 310x331,
        // frame 304x298; its "7" button's centre is 3 px right and 30 px
        // below where the frame's (0, 0) at the rectangle's corner put it.
        let rect = Rect::new(50, 82, 310, 331);
        let frame = Rect::new(0, 0, 304, 298);
        assert!(decorated(&rect, &frame));
        assert_eq!(decoration_inset(&rect, &frame), (3, 30));
        assert_eq!(origin(&rect, (-3, -30)), (53, 112));
        assert!(!decorated(&rect, &Rect::new(0, 0, 310, 331)));
        assert!(!decorated(&rect, &Rect::new(0, 0, 309, 330)));
    }

    #[test]
    fn a_floating_gtk3_window_is_placed_past_its_shadow() {
        // Measured on sway 1.7: frame 1499x816 for a 1447x764 window at
        // (100, 80); the header bar at (26, 23) of the frame.
        let rect = Rect::new(100, 80, 1447, 764);
        let frame = Rect::new(0, 0, 1499, 816);
        assert!(has_shadow(&rect, Some(&frame)));
        let children = [Rect::new(26, 23, 1447, 46), Rect::new(26, 69, 1447, 718)];
        let inset = inset(&rect, &frame, &children, false);
        assert_eq!(inset, (26, 23));
        assert_eq!(origin(&rect, inset), (74, 57));
        // A button at (40, 100) of the frame is at (114, 157) on screen:
        // 14 px right of the window's left edge, 77 px below its top.
    }

    #[test]
    fn tiled_windows_and_gtk4_frames_have_no_shadow() {
        let rect = Rect::new(0, 0, 1280, 800);
        assert!(!has_shadow(&rect, Some(&Rect::new(0, 0, 1280, 800))));
        assert!(!has_shadow(&rect, Some(&Rect::new(0, 0, 1281, 801))));
        assert!(!has_shadow(&rect, None));
        assert_eq!(origin(&rect, (0, 0)), (0, 0));
    }

    #[test]
    fn a_frame_its_children_cover_has_its_shadow_on_every_side() {
        // Measured: Chromium 156 on sway 1.7, tiled: a 636x773 window, a
        // 656x793 frame whose root view covers it whole; the page's
        // content starts 10 px in.
        let rect = Rect::new(642, 25, 636, 773);
        let frame = Rect::new(0, 0, 656, 793);
        assert!(has_shadow(&rect, Some(&frame)));
        assert_eq!(
            inset(&rect, &frame, &[Rect::new(0, 0, 656, 793)], true),
            (10, 10)
        );
        assert_eq!(inset(&rect, &frame, &[], true), (10, 10));
    }

    #[test]
    fn a_gtk3_window_too_large_for_its_tile_is_not_inset() {
        // Measured: gtk3-widget-factory tiled in a 1276x773 area, its
        // 1415x773 frame's header bar at (0, 0); sway clips the right.
        let rect = Rect::new(2, 25, 1276, 773);
        let frame = Rect::new(0, 0, 1415, 773);
        assert_eq!(
            inset(&rect, &frame, &[Rect::new(0, 0, 1415, 47)], false),
            (0, 0)
        );
    }

    #[test]
    fn the_inset_never_exceeds_the_frames_excess() {
        let rect = Rect::new(10, 10, 100, 100);
        let frame = Rect::new(0, 0, 110, 104);
        // A child placed far inside (a window whose content starts with
        // a margin) does not push the origin past the shadow.
        let inset = inset(&rect, &frame, &[Rect::new(40, 30, 20, 20)], false);
        assert_eq!(inset, (10, 4));
        // Unallocated children (empty) are ignored.
        assert_eq!(
            super::inset(
                &rect,
                &frame,
                &[Rect::new(0, 0, 0, 0), Rect::new(5, 2, 9, 9)],
                false
            ),
            (5, 2)
        );
        // An unmapped GTK 3 child (seen on gtk3-widget-factory's frame).
        let parked = Rect::new(-2_147_483_648, -2_147_483_648, 1, 1);
        assert_eq!(
            super::inset(&rect, &frame, &[parked, Rect::new(5, 2, 9, 9)], false),
            (5, 2)
        );
    }
}
