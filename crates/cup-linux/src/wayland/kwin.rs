//! KWin (KDE Plasma) under Wayland: the windows, their places, pids and
//! stacking, and activation, through KWin's scripting API. KWin has no
//! window-list protocol for ordinary clients; a script it runs can read
//! every window and call back over D-Bus.
//!
//! cup loads a small script ([`script`]) through `org.kde.kwin.Scripting`
//! on the session bus, runs it, and the script calls cup's own connection
//! back (`callDBus`) with a JSON list of the windows ([`windows_of`]);
//! then cup unloads it. Each exchange is bounded by a deadline. The
//! script reads both script APIs: Plasma 5's `workspace.clientList()` /
//! `activeClient` and Plasma 6's `workspace.windowList()` /
//! `activeWindow`.
//!
//! A window's `bufferGeometry` is its surface on the screen, the box its
//! toolkit's window-relative extents start at (a GTK 3 window's shadow
//! included): so its origin is exact, with no inset to guess.

use cup::{AdapterError, Monitor};
use cup_protocol::Rect;
use serde::Deserialize;

use crate::display::{Backend, DisplayState, TopWindow};

/// The D-Bus interface cup serves for the scripts' answers.
pub const REPORT_INTERFACE: &str = "org.cup.KWinReport";
/// Its object path.
pub const REPORT_PATH: &str = "/org/cup/KWinReport";

/// The script that lists the windows and sends them to `service` (cup's
/// unique bus name) with `token`. Every value it sends is read defensively
/// (a property a KWin version lacks is `undefined`).
pub fn script(service: &str, token: &str) -> String {
    format!(
        r#"(function () {{
    var list = (typeof workspace.windowList === "function") ? workspace.windowList() : workspace.clientList();
    var active = (workspace.activeWindow !== undefined) ? workspace.activeWindow : workspace.activeClient;
    var box = function (g) {{ return g ? [g.x, g.y, g.width, g.height] : null; }};
    var out = [];
    for (var i = 0; i < list.length; i++) {{
        var w = list[i];
        if (!w.normalWindow && !w.dialog) {{ continue; }}
        out.push({{
            id: String(w.internalId),
            pid: w.pid,
            title: String(w.caption),
            app_id: String(w.resourceClass || ""),
            desktop_file: String(w.desktopFileName || ""),
            frame: box(w.frameGeometry),
            buffer: box(w.bufferGeometry),
            client: box(w.clientGeometry),
            active: w === active,
            minimized: !!w.minimized,
            stacking: (typeof w.stackingOrder === "number") ? w.stackingOrder : i
        }});
    }}
    callDBus({service}, "{REPORT_PATH}", "{REPORT_INTERFACE}", "Report", {token}, JSON.stringify(out));
}})();
"#,
        service = js_string(service),
        token = js_string(token),
    )
}

/// The script that activates the window whose `internalId` is `id` and
/// answers `true` when it found it.
pub fn activate_script(service: &str, token: &str, id: &str) -> String {
    format!(
        r#"(function () {{
    var list = (typeof workspace.windowList === "function") ? workspace.windowList() : workspace.clientList();
    var found = false;
    for (var i = 0; i < list.length; i++) {{
        if (String(list[i].internalId) === {id}) {{
            if (workspace.activeWindow !== undefined) {{ workspace.activeWindow = list[i]; }} else {{ workspace.activeClient = list[i]; }}
            found = true;
        }}
    }}
    callDBus({service}, "{REPORT_PATH}", "{REPORT_INTERFACE}", "Report", {token}, JSON.stringify(found));
}})();
"#,
        service = js_string(service),
        token = js_string(token),
        id = js_string(id),
    )
}

/// `s` as a JavaScript string literal.
fn js_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// One window as the script reports it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct KWinWindow {
    /// KWin's id (a UUID in braces).
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

impl KWinWindow {
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

/// The windows of a script's answer, bottom to top.
///
/// # Errors
///
/// The answer is not the script's JSON list.
pub fn windows_of(json: &str) -> Result<Vec<KWinWindow>, AdapterError> {
    let mut windows: Vec<KWinWindow> = serde_json::from_str(json).map_err(|e| {
        AdapterError::Platform(format!(
            "KWin's window list could not be read: {e}; report it with your Plasma version"
        ))
    })?;
    windows.sort_by_key(|w| w.stacking);
    Ok(windows)
}

/// The display facts of KWin's windows on `monitors`: each window (not
/// minimized) with its rectangle, its pid, window-relative extents placed
/// by its surface; `ids` gives each KWin id the number cup uses for it.
pub fn state_of(
    windows: &[KWinWindow],
    monitors: Vec<Monitor>,
    ids: &mut dyn FnMut(&str) -> u32,
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
        backend: Backend::KWin,
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
        let w = windows_of(ANSWER).expect("the answer");
        let titles: Vec<&str> = w.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, vec!["Calculator", "Hidden", "gtk3-widget-factory"]);
        let gtk = &w[2];
        assert_eq!(gtk.rect(), Some(Rect::new(-67, 34, 1415, 732)));
        // The surface's corner: the shadow is part of it.
        assert_eq!(gtk.origin(), Some((-93, 11)));
        assert!(windows_of("{\"not\": \"a list\"}").is_err());
    }

    #[test]
    fn the_state_has_pids_places_and_the_active_window() {
        let w = windows_of(ANSWER).expect("the answer");
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
        let s = state_of(&w, monitors, &mut ids);
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

    #[test]
    fn the_scripts_quote_what_they_are_given() {
        let s = script(":1.42", "t\"1");
        assert!(
            s.contains(r#"callDBus(":1.42", "/org/cup/KWinReport""#),
            "{s}"
        );
        assert!(s.contains(r#""t\"1""#), "{s}");
        let a = activate_script(":1.42", "t", "{dc35}");
        assert!(a.contains(r#"=== "{dc35}""#), "{a}");
    }
}
