//! Joining AT-SPI frames with X11 top-level windows (pure logic, tested
//! with fixtures): by pid and title, then pid and overlap, then pid alone;
//! X11 windows without a pid by title. Ordered top-most first; the
//! foreground window is the X11 active one, else the frame in the ACTIVE
//! state, else the FOCUSED one, else the top-most with a frame.

use std::collections::HashSet;

use atspi::{Role as AtspiRole, State as AtspiState, StateSet};
use cup::WindowHandle;
use cup_protocol::{Rect, WindowInfo};

use crate::atspi_calls::ObjRef;
use crate::display::{DisplayState, TopWindow};

/// A top-level AT-SPI window of an application.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The frame object.
    pub obj: ObjRef,
    /// Role (frame, window, dialog, ...).
    pub role: AtspiRole,
    /// Name (title).
    pub name: String,
    /// States.
    pub states: StateSet,
    /// Screen extents as the toolkit reports them.
    pub extents: Option<Rect>,
    /// Process id of the application.
    pub pid: Option<u32>,
}

/// A rule that pairs an X11 window with a frame.
type Matcher = dyn Fn(&TopWindow, &Frame) -> bool;

/// Joins AT-SPI frames with X11 windows; the result is ordered top-most
/// first, with the foreground window flagged.
pub fn join_windows(frames: &[Frame], x11: &DisplayState) -> Vec<WindowHandle> {
    // X11 lists bottom to top; agents care about the top first.
    let xws: Vec<&TopWindow> = x11.windows.iter().rev().collect();
    let mut used = vec![false; frames.len()];
    let mut hits: Vec<Option<usize>> = vec![None; xws.len()];
    // Strongest evidence first, over all windows, so that a helper surface
    // of a process never takes the frame its titled window matches.
    let passes: [&Matcher; 5] = [
        &|xw, f| xw.pid.is_some() && f.pid == xw.pid && f.name == xw.title,
        // The same place and size: a dialog whose X title differs from its
        // accessible name (LibreOffice's "Confirm File Format" is the
        // "Question" alert), before any larger window it overlaps.
        &|xw, f| {
            xw.pid.is_some()
                && f.pid == xw.pid
                && f.extents.is_some_and(|e| same_place(&e, &xw.rect))
        },
        &|xw, f| {
            xw.pid.is_some() && f.pid == xw.pid && f.extents.is_some_and(|e| overlaps(&e, &xw.rect))
        },
        &|xw, f| xw.pid.is_some() && f.pid == xw.pid,
        // No pid on the X window: the same title.
        &|xw, f| xw.pid.is_none() && !xw.title.is_empty() && f.name == xw.title,
    ];
    for pass in passes {
        for (k, xw) in xws.iter().enumerate() {
            if hits[k].is_some() {
                continue;
            }
            if let Some(i) = (0..frames.len()).find(|&i| !used[i] && pass(xw, &frames[i])) {
                used[i] = true;
                hits[k] = Some(i);
            }
        }
    }
    let mut out: Vec<(Option<usize>, Option<&TopWindow>)> =
        hits.into_iter().zip(xws.into_iter().map(Some)).collect();
    for (i, _) in frames.iter().enumerate().filter(|(i, _)| !used[*i]) {
        out.push((Some(i), None));
    }
    // Untitled X11 windows without a frame of a process that has framed
    // windows are its helpers (Chromium's popup surfaces), not windows.
    let framed_pids: HashSet<u32> = out
        .iter()
        .filter_map(|(f, _)| f.and_then(|i| frames[i].pid))
        .collect();
    out.retain(|(f, xw)| {
        !(f.is_none()
            && xw.is_some_and(|w| {
                w.title.trim().is_empty() && w.pid.is_some_and(|p| framed_pids.contains(&p))
            }))
    });

    let fg = out
        .iter()
        .position(|(_, xw)| xw.is_some_and(|w| Some(w.id) == x11.active))
        .or_else(|| {
            // A Wayland shell that lists its windows but has given none
            // the focus yet (GNOME before the first input): its top-most
            // window, not a frame of the shell's own (untitled, unlisted).
            let listed = x11.backend != crate::display::Backend::X11 && !x11.windows.is_empty();
            listed
                .then(|| {
                    x11.windows.iter().rev().find_map(|top| {
                        out.iter()
                            .position(|(_, xw)| xw.is_some_and(|w| w.id == top.id))
                    })
                })
                .flatten()
        })
        .or_else(|| {
            out.iter()
                .position(|(f, _)| f.is_some_and(|i| frames[i].states.contains(AtspiState::Active)))
        })
        .or_else(|| {
            out.iter().position(|(f, _)| {
                f.is_some_and(|i| frames[i].states.contains(AtspiState::Focused))
            })
        })
        .or_else(|| out.iter().position(|(f, _)| f.is_some()))
        .or(if out.is_empty() { None } else { Some(0) });
    // Without a window manager (no active window but the X input focus,
    // which may have stayed on the document), a showing modal dialog of
    // the foreground window's application takes its input, so it is what
    // is in front
    // (LibreOffice leaves its document frame ACTIVE under the "Keep
    // current format" question, and may stack the document above it).
    let fg = if !x11.managed {
        let pid = fg.and_then(|k| out[k].0).and_then(|i| frames[i].pid);
        let modal = |i: usize| {
            let st = &frames[i].states;
            frames[i].pid == pid
                && st.contains(AtspiState::Modal)
                && crate::capture::is_showing(*st)
        };
        // Else a dialog of the same app stacked above it (GIMP's Scale
        // Image dialog is not modal; the X focus stays on the image).
        let dialog_above = |k: usize| {
            out[..k].iter().position(|(f, _)| {
                f.is_some_and(|i| {
                    frames[i].pid == pid
                        && matches!(
                            frames[i].role,
                            AtspiRole::Dialog | AtspiRole::Alert | AtspiRole::FileChooser
                        )
                        && crate::capture::is_showing(frames[i].states)
                })
            })
        };
        pid.and_then(|_| out.iter().position(|(f, _)| f.is_some_and(modal)))
            .or_else(|| fg.and_then(dialog_above))
            .or(fg)
    } else {
        fg
    };

    out.into_iter()
        .enumerate()
        .map(|(k, (frame, xw))| {
            let f = frame.map(|i| &frames[i]);
            let title = f
                .map(|f| f.name.clone())
                .filter(|t| !t.is_empty())
                .or_else(|| xw.map(|w| w.title.clone()))
                .unwrap_or_default();
            WindowHandle {
                info: WindowInfo {
                    title,
                    pid: f
                        .and_then(|f| f.pid)
                        .or_else(|| xw.and_then(|w| w.pid))
                        .map(i64::from),
                    foreground: Some(k) == fg,
                    bounds: xw.map(|w| w.rect).or_else(|| f.and_then(|f| f.extents)),
                    ..WindowInfo::default()
                },
                native: match (f, xw) {
                    (Some(f), _) => f.obj.key(),
                    (None, Some(w)) => format!("{}:{}", x11.backend.prefix(), w.id),
                    (None, None) => String::new(),
                },
            }
        })
        .collect()
}

/// The same rectangle, give or take a few pixels of decoration.
fn same_place(a: &Rect, b: &Rect) -> bool {
    const SLACK: u64 = 4;
    a.x.abs_diff(b.x) <= SLACK
        && a.y.abs_diff(b.y) <= SLACK
        && a.w.abs_diff(b.w) <= SLACK
        && a.h.abs_diff(b.h) <= SLACK
}

fn overlaps(a: &Rect, b: &Rect) -> bool {
    !a.intersect(b).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(bus: &str, name: &str, pid: u32, active: bool) -> Frame {
        let mut states = StateSet::empty();
        states.insert(AtspiState::Showing);
        states.insert(AtspiState::Visible);
        if active {
            states.insert(AtspiState::Active);
        }
        Frame {
            obj: ObjRef::new(bus, "/org/a11y/atspi/accessible/1"),
            role: AtspiRole::Frame,
            name: name.into(),
            states,
            extents: Some(Rect::new(0, 0, 100, 100)),
            pid: Some(pid),
        }
    }

    fn xwin(id: u32, title: &str, pid: Option<u32>) -> TopWindow {
        TopWindow {
            id,
            title: title.into(),
            pid,
            rect: Rect::new(0, 0, 100, 100),
            relative: false,
            app_id: String::new(),
            origin: None,
        }
    }

    fn state(windows: Vec<TopWindow>, active: Option<u32>) -> DisplayState {
        DisplayState {
            width: 1920,
            height: 1080,
            scale: 1.0,
            monitors: Vec::new(),
            windows,
            active,
            managed: active.is_some(),
            backend: crate::display::Backend::X11,
            unplaced: None,
        }
    }

    #[test]
    fn joined_by_pid_and_title_top_most_first() {
        let frames = vec![
            frame(":1.2", "Editor", 10, false),
            frame(":1.3", "Files", 11, false),
        ];
        let x = state(
            vec![xwin(1, "Editor", Some(10)), xwin(2, "Files", Some(11))],
            Some(1),
        );
        let w = join_windows(&frames, &x);
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].info.title, "Files");
        assert_eq!(w[0].native, ":1.3:/org/a11y/atspi/accessible/1");
        assert!(w[1].info.foreground, "the X11 active window");
        assert!(!w[0].info.foreground);
    }

    #[test]
    fn one_pid_with_several_application_objects() {
        // Two AT-SPI applications (two bus names) of the same process.
        let frames = vec![
            frame(":1.2", "Main", 10, false),
            frame(":1.5", "Tool", 10, false),
        ];
        let x = state(
            vec![xwin(1, "Main", Some(10)), xwin(2, "Tool", Some(10))],
            None,
        );
        let w = join_windows(&frames, &x);
        let natives: Vec<&str> = w.iter().map(|w| w.native.as_str()).collect();
        assert_eq!(
            natives,
            vec![
                ":1.5:/org/a11y/atspi/accessible/1",
                ":1.2:/org/a11y/atspi/accessible/1"
            ]
        );
    }

    #[test]
    fn without_a_window_manager_the_active_frame_is_foreground() {
        let frames = vec![frame(":1.2", "A", 10, true), frame(":1.3", "B", 11, false)];
        let x = state(vec![xwin(1, "A", Some(10)), xwin(2, "B", Some(11))], None);
        let w = join_windows(&frames, &x);
        let fg: Vec<&str> = w
            .iter()
            .filter(|w| w.info.foreground)
            .map(|w| w.info.title.as_str())
            .collect();
        assert_eq!(fg, vec!["A"]);
    }

    #[test]
    fn without_a_window_manager_a_modal_dialog_is_in_front_of_its_app() {
        // The document's window was raised above its question.
        // Its X title is not its accessible name, and the document's frame
        // stays ACTIVE.
        let mut question = frame(":1.2", "Question", 10, false);
        question.role = AtspiRole::Alert;
        question.states.insert(AtspiState::Modal);
        question.extents = Some(Rect::new(697, 444, 525, 191));
        let mut document = frame(":1.2", "sales.csv", 10, true);
        document.extents = Some(Rect::new(57, 50, 1805, 980));
        let frames = vec![document, question];
        let mut dialog = xwin(2, "Confirm File Format", Some(10));
        dialog.rect = Rect::new(697, 444, 525, 191);
        let mut main = xwin(1, "sales.csv", Some(10));
        main.rect = Rect::new(57, 50, 1805, 980);
        let mut x = state(vec![main, dialog], Some(1));
        x.managed = false;
        let w = join_windows(&frames, &x);
        let bounds: Vec<(&str, Option<Rect>)> = w
            .iter()
            .map(|w| (w.info.title.as_str(), w.info.bounds))
            .collect();
        assert!(
            bounds.contains(&("Question", Some(Rect::new(697, 444, 525, 191)))),
            "{bounds:?}"
        );
        let fg: Vec<&str> = w
            .iter()
            .filter(|w| w.info.foreground)
            .map(|w| w.info.title.as_str())
            .collect();
        assert_eq!(fg, vec!["Question"]);
    }

    #[test]
    fn without_a_window_manager_a_dialog_above_its_window_is_in_front() {
        let mut dialog = frame(":1.2", "Scale Image", 10, false);
        dialog.role = AtspiRole::Dialog;
        let frames = vec![frame(":1.2", "photo - GIMP", 10, false), dialog];
        let mut x = state(
            vec![
                xwin(1, "photo - GIMP", Some(10)),
                xwin(2, "Scale Image", Some(10)),
            ],
            Some(1),
        );
        x.managed = false;
        let fg: Vec<String> = join_windows(&frames, &x)
            .into_iter()
            .filter(|w| w.info.foreground)
            .map(|w| w.info.title)
            .collect();
        assert_eq!(fg, ["Scale Image"]);
        // With a window manager, its active window is the foreground.
        x.managed = true;
        let fg: Vec<String> = join_windows(&frames, &x)
            .into_iter()
            .filter(|w| w.info.foreground)
            .map(|w| w.info.title)
            .collect();
        assert_eq!(fg, ["photo - GIMP"]);
    }

    #[test]
    fn untitled_helper_surfaces_of_a_framed_process_are_dropped() {
        let frames = vec![frame(":1.2", "Browser", 10, true)];
        let x = state(
            vec![
                xwin(1, "Browser", Some(10)),
                xwin(2, "", Some(10)),
                xwin(3, "xterm", Some(20)),
            ],
            None,
        );
        let w = join_windows(&frames, &x);
        let titles: Vec<&str> = w.iter().map(|w| w.info.title.as_str()).collect();
        assert_eq!(titles, vec!["xterm", "Browser"]);
        assert!(
            w[0].native.starts_with("x11:"),
            "a window without a tree is still listed"
        );
    }
}
