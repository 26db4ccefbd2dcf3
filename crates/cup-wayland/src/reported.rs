//! Windows as a desktop shell reports them in JSON: KWin's scripts
//! ([`super::kwin`]) and cup's GNOME Shell extension ([`super::gnome`])
//! send the same shape, read here into the display facts.

use cup::{AdapterError, Monitor};
use cup_protocol::Rect;
use serde::Deserialize;

use crate::display::{Backend, DisplayState, TopWindow};

/// One window as a desktop shell reports it (a KWin script, cup's GNOME
/// Shell extension).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReportedWindow {
    /// The shell's id (KWin: a UUID in braces; GNOME: a number).
    pub id: String,
    /// The client's pid (0 when KWin does not know it).
    #[serde(default)]
    pub pid: i64,
    /// The caption.
    #[serde(default)]
    pub title: String,
    /// Its resource class (the Wayland app id).
    #[serde(default)]
    pub app_id: String,
    /// The frame: the window as KWin draws it (decorations included,
    /// client-side shadows not).
    #[serde(default)]
    pub frame: Option<[f64; 4]>,
    /// The surface, where the toolkit's window-relative (0, 0) is.
    #[serde(default)]
    pub buffer: Option<[f64; 4]>,
    /// The client area (Plasma 6).
    #[serde(default)]
    pub client: Option<[f64; 4]>,
    /// It has the focus.
    #[serde(default)]
    pub active: bool,
    /// It is minimized.
    #[serde(default)]
    pub minimized: bool,
    /// Its place in the stacking order (higher is nearer the top).
    #[serde(default)]
    pub stacking: i64,
}

fn rect_of(b: [f64; 4]) -> Rect {
    Rect::new(
        b[0].round() as i64,
        b[1].round() as i64,
        b[2].round().max(0.0) as u64,
        b[3].round().max(0.0) as u64,
    )
}

impl ReportedWindow {
    /// The window's rectangle on the screen: its client area where KWin
    /// tells it, else its frame.
    pub fn rect(&self) -> Option<Rect> {
        self.client.or(self.frame).map(rect_of)
    }

    /// Where its toolkit's window-relative (0, 0) is on the screen: the
    /// surface's top-left (else the rectangle's).
    pub fn origin(&self) -> Option<(i64, i64)> {
        self.buffer
            .map(rect_of)
            .or_else(|| self.rect())
            .map(|r| (r.x, r.y))
    }
}

/// The windows of a shell's answer, bottom to top; `desktop` names the
/// shell and its version for the error (`KWin`, `your Plasma version`).
///
/// # Errors
///
/// The answer is not the JSON list.
pub fn windows_of(json: &str, desktop: (&str, &str)) -> Result<Vec<ReportedWindow>, AdapterError> {
    let mut windows: Vec<ReportedWindow> = serde_json::from_str(json).map_err(|e| {
        AdapterError::Platform(format!(
            "{}'s window list could not be read: {e}; report it with {}",
            desktop.0, desktop.1
        ))
    })?;
    windows.sort_by_key(|w| w.stacking);
    Ok(windows)
}

/// The window of a snapshot's frame named `title` (with `bounds`) among
/// `windows`: the only one with that title, else the one with that title
/// overlapping `bounds`; none when that does not tell.
pub fn choose<'a>(
    windows: &'a [ReportedWindow],
    title: &str,
    bounds: Option<Rect>,
) -> Option<&'a ReportedWindow> {
    let mut named = windows.iter().filter(|w| w.title == title);
    match (named.clone().count(), bounds) {
        (1, _) => named.next(),
        (_, Some(b)) => named.find(|w| w.rect().is_some_and(|r| !r.intersect(&b).is_empty())),
        _ => None,
    }
}

/// The display facts of a shell's windows on `monitors`: each window (not
/// minimized) with its rectangle, its pid, window-relative extents placed
/// by its surface; `ids` gives each shell id the number cup uses for it.
pub fn state_of(
    windows: &[ReportedWindow],
    monitors: Vec<Monitor>,
    ids: &mut dyn FnMut(&str) -> u32,
    backend: Backend,
) -> DisplayState {
    let width = monitors.iter().map(|m| m.rect.right()).max().unwrap_or(0);
    let height = monitors.iter().map(|m| m.rect.bottom()).max().unwrap_or(0);
    let scale = monitors.iter().map(|m| m.scale).fold(1.0_f64, f64::max);
    let mut active = None;
    let tops = windows
        .iter()
        .filter(|w| !w.minimized)
        .filter_map(|w| {
            let id = ids(&w.id);
            if w.active {
                active = Some(id);
            }
            Some(TopWindow {
                id,
                title: w.title.clone(),
                pid: u32::try_from(w.pid).ok().filter(|p| *p > 0),
                rect: w.rect()?,
                relative: true,
                app_id: w.app_id.clone(),
                origin: w.origin(),
            })
        })
        .collect();
    DisplayState {
        width,
        height,
        scale,
        monitors,
        windows: tops,
        active,
        managed: true,
        backend,
        unplaced: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KWin 5.27.5's answer for gtk3-widget-factory floating at its own
    /// place (measured here: frame -67,34 1415x732, surface with the
    /// shadow -93,11 1467x784) and a Qt window with KWin's decorations.
    const ANSWER: &str = r#"[
        {"id":"{dc353668-dacb-4922-88b8-4eb0209057b7}","pid":18427,"title":"gtk3-widget-factory",
         "app_id":"gtk3-widget-factory","desktop_file":"","frame":[-67,34,1415,732],
         "buffer":[-93,11,1467,784],"client":null,"active":true,"minimized":false,"stacking":3},
        {"id":"{0a}","pid":99,"title":"Calculator","app_id":"calculator","frame":[100,100,300,330],
         "buffer":[104,130,292,296],"client":null,"active":false,"minimized":false,"stacking":1},
        {"id":"{0b}","pid":0,"title":"Hidden","frame":[0,0,10,10],"minimized":true,"stacking":2}
    ]"#;

    #[test]
    fn the_scripts_answer_is_read_bottom_to_top() {
        let w = windows_of(ANSWER, ("KWin", "your Plasma version")).expect("the answer");
        let titles: Vec<&str> = w.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, vec!["Calculator", "Hidden", "gtk3-widget-factory"]);
        let gtk = &w[2];
        assert_eq!(gtk.rect(), Some(Rect::new(-67, 34, 1415, 732)));
        // The surface's corner: the shadow is part of it.
        assert_eq!(gtk.origin(), Some((-93, 11)));
        assert!(windows_of("{\"not\": \"a list\"}", ("KWin", "x")).is_err());
    }

    #[test]
    fn the_state_has_pids_places_and_the_active_window() {
        let w = windows_of(ANSWER, ("KWin", "your Plasma version")).expect("the answer");
        let mut next = 0;
        let mut ids = |_: &str| {
            next += 1;
            next
        };
        let monitors = vec![Monitor {
            name: "Virtual-0".into(),
            rect: Rect::new(0, 0, 1280, 800),
            primary: true,
            scale: 1.0,
        }];
        let s = state_of(&w, monitors, &mut ids, Backend::KWin);
        let got: Vec<(u32, &str, Option<u32>)> = s
            .windows
            .iter()
            .map(|t| (t.id, t.title.as_str(), t.pid))
            .collect();
        assert_eq!(
            got,
            vec![
                (1, "Calculator", Some(99)),
                (2, "gtk3-widget-factory", Some(18427))
            ]
        );
        assert_eq!(s.active, Some(2));
        assert_eq!((s.width, s.height), (1280, 800));
        assert_eq!(s.backend, Backend::KWin);
    }
}
