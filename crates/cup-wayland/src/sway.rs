//! sway's IPC (the i3 protocol over `SWAYSOCK`): the windows with their
//! screen rectangles, pids and app ids, the outputs, focus, and commands
//! (focus a window). Every exchange runs under [`IPC_TIMEOUT`].
//!
//! The parsing is pure ([`windows_of`], [`outputs_of`]) and tested with a
//! tree recorded from sway 1.7 (`fixtures/sway-tree.json`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use cup::{AdapterError, Monitor};

use crate::display::{Backend, DisplayState, TopWindow};
use cup_protocol::Rect;
use serde::Deserialize;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::UnixStream;

/// Deadline of one IPC exchange (connect, request, reply).
pub const IPC_TIMEOUT: Duration = Duration::from_secs(2);

/// The i3/sway IPC magic string that starts every message.
const MAGIC: &[u8; 6] = b"i3-ipc";
/// Replies larger than this are refused (a tree of thousands of windows
/// is a few MB).
const MAX_REPLY: u32 = 64 << 20;

/// Message types of the protocol.
#[derive(Debug, Clone, Copy)]
#[repr(u32)]
enum Kind {
    RunCommand = 0,
    GetOutputs = 3,
    GetTree = 4,
    GetVersion = 7,
}

/// A top-level window (a view: `con` or `floating_con` with a pid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwayWindow {
    /// The container id (`[con_id=N]` in commands).
    pub id: i64,
    /// The client's pid.
    pub pid: Option<u32>,
    /// The xdg-shell app id (`None` for XWayland windows).
    pub app_id: Option<String>,
    /// The title.
    pub title: String,
    /// The window's rectangle on the layout (its content, without sway's
    /// borders and title bar), in layout (logical) pixels.
    pub rect: Rect,
    /// It has the keyboard focus.
    pub focused: bool,
    /// It floats (above the tiled windows).
    pub floating: bool,
    /// `xdg_shell` or `xwayland`.
    pub shell: String,
    /// The X11 window id of an XWayland window.
    pub x11_window: Option<u32>,
}

impl SwayWindow {
    /// The window is an XWayland client: its toolkit reports screen
    /// coordinates of the X screen, which XWayland maps onto the layout.
    pub fn is_xwayland(&self) -> bool {
        self.shell == "xwayland"
    }
}

/// What sway says about the session.
#[derive(Debug, Clone, PartialEq)]
pub struct SwayState {
    /// The visible windows, bottom to top (tiled first, then floating in
    /// their stacking order).
    pub windows: Vec<SwayWindow>,
    /// The active outputs.
    pub outputs: Vec<Monitor>,
}

#[derive(Debug, Deserialize)]
struct RawRect {
    x: i64,
    y: i64,
    width: i64,
    height: i64,
}

impl RawRect {
    fn rect(&self) -> Rect {
        Rect::new(
            self.x,
            self.y,
            self.width.max(0).unsigned_abs(),
            self.height.max(0).unsigned_abs(),
        )
    }
}

#[derive(Debug, Deserialize)]
struct RawNode {
    id: i64,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    rect: RawRect,
    /// The client's area inside `rect` (inside sway's borders).
    #[serde(default)]
    window_rect: Option<RawRect>,
    #[serde(default)]
    focused: bool,
    #[serde(default)]
    pid: Option<u32>,
    #[serde(default)]
    app_id: Option<String>,
    #[serde(default)]
    visible: Option<bool>,
    #[serde(default)]
    shell: Option<String>,
    #[serde(default)]
    window: Option<u32>,
    #[serde(default)]
    nodes: Vec<RawNode>,
    #[serde(default)]
    floating_nodes: Vec<RawNode>,
}

#[derive(Debug, Deserialize)]
struct RawOutput {
    name: String,
    #[serde(default)]
    active: bool,
    #[serde(default)]
    primary: bool,
    #[serde(default)]
    focused: bool,
    rect: RawRect,
    #[serde(default)]
    scale: Option<f64>,
}

/// The visible windows of a `get_tree` reply, bottom to top.
///
/// # Errors
///
/// The reply is not a sway tree.
pub fn windows_of(tree: &[u8]) -> Result<Vec<SwayWindow>, AdapterError> {
    let root: RawNode = serde_json::from_slice(tree)
        .map_err(|e| platform(format!("sway's tree could not be read: {e}")))?;
    let mut out = Vec::new();
    collect(&root, false, &mut out);
    Ok(out)
}

/// Tiled views first (tree order), then floating ones (their stacking
/// order: sway raises a focused floating window to the end of the list).
/// Views on hidden workspaces (`visible: false`) and the scratchpad are
/// left out, as unmapped windows are on X11.
fn collect(node: &RawNode, floating: bool, out: &mut Vec<SwayWindow>) {
    if node.kind == "workspace" && node.name.as_deref() == Some("__i3_scratch") {
        return;
    }
    let is_view = matches!(node.kind.as_str(), "con" | "floating_con")
        && (node.pid.is_some() || node.app_id.is_some() || node.window.is_some());
    if is_view {
        if node.visible != Some(false) {
            out.push(SwayWindow {
                id: node.id,
                pid: node.pid,
                app_id: node.app_id.clone(),
                title: node.name.clone().unwrap_or_default(),
                rect: content(node),
                focused: node.focused,
                floating,
                shell: node.shell.clone().unwrap_or_default(),
                x11_window: node.window,
            });
        }
        return;
    }
    for child in &node.nodes {
        collect(child, floating, out);
    }
    for child in &node.floating_nodes {
        collect(child, true, out);
    }
}

/// A view's content on the layout: `rect` is the container without its
/// title bar, `window_rect` the client's area inside the borders.
fn content(node: &RawNode) -> Rect {
    let outer = node.rect.rect();
    match &node.window_rect {
        Some(w) if w.width > 0 && w.height > 0 => Rect::new(
            outer.x + w.x,
            outer.y + w.y,
            w.width.unsigned_abs(),
            w.height.unsigned_abs(),
        ),
        _ => outer,
    }
}

/// The active outputs of a `get_outputs` reply; the focused one is
/// primary when none says it is.
///
/// # Errors
///
/// The reply is not a list of outputs.
pub fn outputs_of(reply: &[u8]) -> Result<Vec<Monitor>, AdapterError> {
    let raw: Vec<RawOutput> = serde_json::from_slice(reply)
        .map_err(|e| platform(format!("sway's outputs could not be read: {e}")))?;
    let any_primary = raw.iter().any(|o| o.active && o.primary);
    Ok(raw
        .into_iter()
        .filter(|o| o.active)
        .map(|o| Monitor {
            name: o.name,
            rect: o.rect.rect(),
            primary: o.primary || (!any_primary && o.focused),
            scale: o.scale.filter(|s| *s > 0.0).unwrap_or(1.0),
        })
        .collect())
}

impl SwayState {
    /// The display facts cup joins with the AT-SPI frames: the screen is
    /// the outputs' bounding box, its scale the largest output scale, and
    /// every native window's extents are window-relative.
    pub fn display_state(&self) -> DisplayState {
        let right = self.outputs.iter().map(|m| m.rect.right()).max();
        let bottom = self.outputs.iter().map(|m| m.rect.bottom()).max();
        let scale = self.outputs.iter().map(|m| m.scale).fold(1.0_f64, f64::max);
        let windows: Vec<TopWindow> = self
            .windows
            .iter()
            .filter_map(|w| {
                Some(TopWindow {
                    id: u32::try_from(w.id).ok()?,
                    title: w.title.clone(),
                    pid: w.pid,
                    rect: w.rect,
                    relative: !w.is_xwayland(),
                    app_id: w.app_id.clone().unwrap_or_default(),
                    origin: None,
                })
            })
            .collect();
        DisplayState {
            width: right.unwrap_or(0),
            height: bottom.unwrap_or(0),
            scale,
            monitors: self.outputs.clone(),
            active: self
                .windows
                .iter()
                .find(|w| w.focused)
                .and_then(|w| u32::try_from(w.id).ok()),
            windows,
            managed: true,
            backend: Backend::Sway,
            unplaced: None,
        }
    }
}

fn platform(message: String) -> AdapterError {
    AdapterError::Platform(message)
}

fn unavailable(message: String) -> AdapterError {
    AdapterError::Unavailable(message)
}

/// How long the outputs read with the windows are reused: they change
/// when a monitor is plugged or reconfigured, while the windows are read
/// at every snapshot (one exchange fewer for most of them).
pub const OUTPUTS_KEPT: Duration = Duration::from_secs(2);

/// Outputs and when they were read.
type KeptOutputs = (std::time::Instant, Vec<Monitor>);

/// A client of one sway IPC socket. Each exchange opens a connection of
/// its own (sway answers a connect in microseconds, and a connection that
/// missed a deadline is never reused half-read).
#[derive(Debug, Clone)]
pub struct SwayIpc {
    socket: PathBuf,
    /// The outputs of the last read, and when they were read.
    outputs: std::sync::Arc<std::sync::Mutex<Option<KeptOutputs>>>,
}

impl SwayIpc {
    /// The IPC of the sway listening at `socket` (`SWAYSOCK`).
    pub fn new(socket: impl Into<PathBuf>) -> Self {
        SwayIpc {
            socket: socket.into(),
            outputs: std::sync::Arc::default(),
        }
    }

    /// The socket.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    async fn exchange(&self, kind: Kind, payload: &str) -> Result<Vec<u8>, AdapterError> {
        let socket = self.socket.clone();
        let body = payload.as_bytes().to_vec();
        let talk = async move {
            let mut stream = UnixStream::connect(&socket).await.map_err(|e| {
                unavailable(format!(
                    "cannot reach sway's IPC at {}: {e}; check SWAYSOCK and that sway runs",
                    socket.display()
                ))
            })?;
            let len = u32::try_from(body.len())
                .map_err(|_| platform("sway IPC payload too large".to_owned()))?;
            let mut message = Vec::with_capacity(14 + body.len());
            message.extend_from_slice(MAGIC);
            message.extend_from_slice(&len.to_ne_bytes());
            message.extend_from_slice(&(kind as u32).to_ne_bytes());
            message.extend_from_slice(&body);
            let lost = |e: std::io::Error| platform(format!("sway's IPC connection failed: {e}"));
            stream.write_all(&message).await.map_err(lost)?;
            let mut header = [0_u8; 14];
            stream.read_exact(&mut header).await.map_err(lost)?;
            if &header[..6] != MAGIC {
                return Err(platform(
                    "sway's IPC answered without the i3-ipc header; is SWAYSOCK a sway socket?"
                        .to_owned(),
                ));
            }
            let size = u32::from_ne_bytes([header[6], header[7], header[8], header[9]]);
            if size > MAX_REPLY {
                return Err(platform(format!(
                    "sway's IPC reply of {size} bytes is too large"
                )));
            }
            let mut reply = vec![0_u8; size as usize];
            stream.read_exact(&mut reply).await.map_err(lost)?;
            Ok(reply)
        };
        tokio::time::timeout(IPC_TIMEOUT, talk).await.map_err(|_| {
            unavailable(format!(
                "sway's IPC did not answer within {} s",
                IPC_TIMEOUT.as_secs()
            ))
        })?
    }

    /// The windows now, and the outputs (read with them, or kept from a
    /// read less than `OUTPUTS_KEPT` ago).
    pub async fn state(&self) -> Result<SwayState, AdapterError> {
        let kept = self
            .outputs
            .lock()
            .ok()
            .and_then(|o| o.clone())
            .filter(|(at, _)| at.elapsed() < OUTPUTS_KEPT)
            .map(|(_, outputs)| outputs);
        let read_outputs = async {
            if let Some(outputs) = kept {
                return Ok(outputs);
            }
            let outputs = outputs_of(&self.exchange(Kind::GetOutputs, "").await?)?;
            if let Ok(mut slot) = self.outputs.lock() {
                *slot = Some((std::time::Instant::now(), outputs.clone()));
            }
            Ok::<_, AdapterError>(outputs)
        };
        let (tree, outputs) = tokio::join!(self.exchange(Kind::GetTree, ""), read_outputs);
        Ok(SwayState {
            windows: windows_of(&tree?)?,
            outputs: outputs?,
        })
    }

    /// sway's version string (`human_readable`), as a presence check.
    pub async fn version(&self) -> Result<String, AdapterError> {
        #[derive(Deserialize)]
        struct Version {
            human_readable: String,
        }
        let reply = self.exchange(Kind::GetVersion, "").await?;
        serde_json::from_slice::<Version>(&reply)
            .map(|v| v.human_readable)
            .map_err(|e| platform(format!("sway's version could not be read: {e}")))
    }

    /// Runs a sway command (e.g. `[con_id=6] focus`); a command sway
    /// refuses is an error with sway's reason.
    pub async fn command(&self, command: &str) -> Result<(), AdapterError> {
        #[derive(Deserialize)]
        struct Outcome {
            success: bool,
            #[serde(default)]
            error: Option<String>,
        }
        let reply = self.exchange(Kind::RunCommand, command).await?;
        let outcomes: Vec<Outcome> = serde_json::from_slice(&reply).map_err(|e| {
            platform(format!(
                "sway's answer to {command:?} could not be read: {e}"
            ))
        })?;
        match outcomes.into_iter().find(|o| !o.success) {
            None => Ok(()),
            Some(o) => Err(platform(format!(
                "sway refused {command:?}: {}",
                o.error.unwrap_or_else(|| "no reason given".to_owned())
            ))),
        }
    }

    /// Gives the keyboard focus to the window `id` (raising it when it
    /// floats).
    pub async fn focus(&self, id: i64) -> Result<(), AdapterError> {
        self.command(&format!("[con_id={id}] focus")).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &[u8] = include_bytes!("fixtures/sway-tree.json");
    const OUTPUTS: &[u8] = include_bytes!("fixtures/sway-outputs.json");

    #[test]
    fn the_recorded_tree_gives_its_two_views_tiled_first() {
        let w = windows_of(TREE).expect("fixture parses");
        let ids: Vec<i64> = w.iter().map(|w| w.id).collect();
        assert_eq!(
            ids,
            vec![6, 5],
            "the tiled GTK 4 window under the floating GTK 3 one"
        );
        assert_eq!(w[0].app_id.as_deref(), Some("org.gtk.WidgetFactory4"));
        assert_eq!(w[0].rect, Rect::new(0, 0, 1280, 800));
        assert!(w[0].focused && !w[0].floating);
        assert_eq!(w[1].app_id.as_deref(), Some("gtk3-widget-factory"));
        assert_eq!(w[1].title, "gtk3-widget-factory");
        assert_eq!(w[1].pid, Some(25440));
        assert!(w[1].floating && !w[1].is_xwayland());
        assert_eq!((w[1].rect.x, w[1].rect.y), (100, 80));
    }

    #[test]
    fn the_display_state_of_the_recorded_session() {
        let state = SwayState {
            windows: windows_of(TREE).expect("fixture parses"),
            outputs: outputs_of(OUTPUTS).expect("fixture parses"),
        };
        let d = state.display_state();
        assert_eq!((d.width, d.height), (1280, 800));
        assert_eq!(d.backend, Backend::Sway);
        assert_eq!(d.active, Some(6), "the focused GTK 4 window");
        assert!(d.windows.iter().all(|w| w.relative));
        assert_eq!(d.windows[1].rect, Rect::new(100, 80, 1415, 732));
    }

    #[test]
    fn hidden_workspaces_and_the_scratchpad_are_left_out() {
        let tree = br#"{"id":1,"type":"root","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[
          {"id":2,"type":"output","name":"__i3","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[
            {"id":3,"type":"workspace","name":"__i3_scratch","rect":{"x":0,"y":0,"width":10,"height":10},
             "floating_nodes":[{"id":9,"type":"floating_con","pid":7,"app_id":"a","name":"hidden","visible":false,"rect":{"x":0,"y":0,"width":5,"height":5}}]}]},
          {"id":4,"type":"output","name":"HEADLESS-1","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[
            {"id":5,"type":"workspace","name":"1","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[
              {"id":6,"type":"con","pid":8,"app_id":"b","name":"shown","visible":true,"rect":{"x":0,"y":0,"width":10,"height":10}}]},
            {"id":10,"type":"workspace","name":"2","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[
              {"id":11,"type":"con","pid":12,"shell":"xwayland","window":4194307,"name":"elsewhere","visible":false,"rect":{"x":0,"y":0,"width":10,"height":10}}]}]}]}"#;
        let w = windows_of(tree).expect("parses");
        let titles: Vec<&str> = w.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, vec!["shown"]);
    }

    #[test]
    fn a_bordered_view_is_its_client_area_inside_the_borders() {
        // Recorded: a tiled GTK 4 window under sway's title bar and 2 px
        // borders.
        let tree = br#"{"id":1,"type":"root","rect":{"x":0,"y":0,"width":1280,"height":800},"nodes":[
            {"id":6,"type":"con","pid":8,"app_id":"org.gtk.WidgetFactory4","name":"GTK Widget Factory","visible":true,
             "rect":{"x":0,"y":25,"width":1280,"height":775},"window_rect":{"x":2,"y":0,"width":1276,"height":773}}]}"#;
        let w = windows_of(tree).expect("parses");
        assert_eq!(w[0].rect, Rect::new(2, 25, 1276, 773));
    }

    #[test]
    fn an_xwayland_view_keeps_its_x_window() {
        let tree = br#"{"id":1,"type":"root","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[
            {"id":6,"type":"con","pid":8,"shell":"xwayland","window":4194307,"name":"xterm","visible":true,"rect":{"x":3,"y":4,"width":10,"height":10}}]}"#;
        let w = windows_of(tree).expect("parses");
        assert!(w[0].is_xwayland());
        assert_eq!(w[0].x11_window, Some(4_194_307));
        assert_eq!(w[0].app_id, None);
    }

    #[test]
    fn outputs_with_their_scale_and_the_focused_one_primary() {
        let m = outputs_of(OUTPUTS).expect("fixture parses");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].name, "HEADLESS-1");
        assert_eq!(m[0].rect, Rect::new(0, 0, 1280, 800));
        assert!(m[0].primary);
        assert!((m[0].scale - 1.0).abs() < f64::EPSILON);
        let two = br#"[{"name":"A","active":true,"focused":false,"rect":{"x":0,"y":0,"width":1280,"height":800},"scale":2.0},
                       {"name":"B","active":true,"focused":true,"rect":{"x":1280,"y":0,"width":960,"height":540},"scale":1.5},
                       {"name":"C","active":false,"rect":{"x":0,"y":0,"width":0,"height":0}}]"#;
        let m = outputs_of(two).expect("parses");
        let names: Vec<(&str, bool)> = m.iter().map(|m| (m.name.as_str(), m.primary)).collect();
        assert_eq!(names, vec![("A", false), ("B", true)]);
        assert!((m[1].scale - 1.5).abs() < f64::EPSILON);
    }

    #[test]
    fn a_reply_that_is_not_a_tree_is_a_one_line_error() {
        let e = windows_of(b"[1,2]").expect_err("not a tree");
        let text = e.to_string();
        assert!(text.contains("sway's tree could not be read"), "{text}");
        assert!(!text.contains('\n'));
    }
}
