//! The overview text: the open windows, one line each, without a tree walk.
//!
//! ```text
//! # CUP 0.1.0 | linux | 1920x1080
//! # overview | 2 windows
//!
//! * [fg] Text Editor (pid:1234) @0,0 800x600
//!   Terminal (pid:99)
//! ```

use std::fmt::Write as _;

use crate::compact::render::{push_title_line, UNTITLED};
use crate::compact::text::{self, URL_MAX};
use crate::envelope::{PlatformId, Screen, WindowInfo, CUP_VERSION};

/// Renders the window list of an overview.
pub fn render_overview(platform: PlatformId, screen: &Screen, windows: &[WindowInfo]) -> String {
    let mut out = String::with_capacity(64 + windows.len() * 64);
    push_title_line(&mut out, CUP_VERSION, platform.name(), screen);
    let _ = writeln!(out, "# overview | {} windows", windows.len());
    out.push('\n');
    for w in windows {
        out.push_str(if w.foreground { "* [fg] " } else { "  " });
        if w.title.is_empty() {
            out.push_str(UNTITLED);
        } else {
            text::push_plain(&mut out, &w.title);
        }
        if let Some(pid) = w.pid {
            let _ = write!(out, " (pid:{pid})");
        }
        if let Some(b) = w.bounds {
            let _ = write!(out, " @{},{} {}x{}", b.x, b.y, b.w, b.h);
        }
        if let Some(url) = w.url.as_deref().filter(|u| !u.is_empty()) {
            out.push_str(" url:");
            let (head, was_cut) = text::cut(url, URL_MAX);
            text::push_plain(&mut out, head);
            if was_cut {
                out.push_str(text::ELLIPSIS);
            }
        }
        out.push('\n');
    }
    out
}
