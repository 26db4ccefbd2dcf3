//! Text read from pixels in snapshots: a window that gives no
//! accessibility tree (a Tk program, an app with its bridge off) is
//! screenshot and read by Tesseract ([`cup_ocr`]); each line becomes a
//! `text` element marked as read from pixels (`(ocr)` in the compact
//! text, an `ocr` entry in its `platform` data), with its bounds and a
//! `click` that cup performs with the pointer at its centre.

use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};

use cup_protocol::{Action, Node, PlatformId, Rect, Role};

use crate::adapter::{Adapter, ShotTarget};

/// When a snapshot reads text from pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OcrMode {
    /// For windows whose tree holds nothing (default).
    #[default]
    Auto,
    /// For every window captured, beside its tree.
    Always,
    /// Never.
    Never,
}

impl OcrMode {
    /// The word the front ends take.
    pub fn name(self) -> &'static str {
        match self {
            OcrMode::Auto => "auto",
            OcrMode::Always => "always",
            OcrMode::Never => "never",
        }
    }
}

impl FromStr for OcrMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "auto" => Ok(OcrMode::Auto),
            "always" => Ok(OcrMode::Always),
            "never" => Ok(OcrMode::Never),
            other => Err(format!("ocr {other:?}: use auto, always or never")),
        }
    }
}

/// A session's reader, started on first use and kept (with its cache).
#[derive(Default, Clone)]
pub(crate) struct Ocr {
    reader: Arc<Mutex<Option<Result<cup_ocr::Reader, String>>>>,
}

impl std::fmt::Debug for Ocr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ocr")
    }
}

/// Whether `root` (a window) is read from its pixels under `mode`: `auto`
/// where this build can read pixels (Linux, Windows and macOS, with
/// Tesseract installed: `cup_ocr::install`; a phone's screen too, read
/// on the computer cup runs on) and the window's tree says nothing.
fn wanted(root: &Node, mode: OcrMode) -> bool {
    match mode {
        OcrMode::Never => false,
        OcrMode::Always => true,
        OcrMode::Auto => {
            cfg!(any(
                target_os = "linux",
                target_os = "windows",
                target_os = "macos"
            )) && says_nothing(root)
        }
    }
}

/// Whether nothing below `root` says anything: no descendant with a name,
/// a value, a description or a placeholder. A window without a tree, or
/// with only nameless containers: a Flutter view without its semantics
/// (Android shows its FrameLayouts and one `View`), a Java frame without
/// the ATK bridge, a Chromium window whose renderer keeps its tree.
fn says_nothing(root: &Node) -> bool {
    fn quiet(n: &Node) -> bool {
        n.name.trim().is_empty()
            && n.value.as_deref().is_none_or(|v| v.trim().is_empty())
            && n.description.as_deref().is_none_or(|d| d.trim().is_empty())
            && n.attributes.placeholder.is_none()
            && n.children.iter().all(quiet)
    }
    root.children.iter().all(quiet)
}

/// Whether `node` is a drawing surface whose text lives only in its
/// pixels: a web page's `<canvas>` with nothing in its tree, on screen.
fn is_blank_canvas(node: &Node) -> bool {
    node.children.is_empty()
        && node.name.is_empty()
        && !node.states.contains(&cup_protocol::State::Offscreen)
        && node.bounds.is_some_and(|b| !b.is_empty())
        && node
            .platform
            .web
            .as_ref()
            .and_then(|w| w.tag_name.as_deref())
            .is_some_and(|t| t.eq_ignore_ascii_case("canvas"))
}

/// RGB pixels as RGBA (what the reader takes).
fn rgba_of_rgb(rgb: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgb.len() / 3 * 4);
    for p in rgb.chunks_exact(3) {
        out.extend_from_slice(&[p[0], p[1], p[2], 255]);
    }
    out
}

impl Ocr {
    /// Reads the windows of `roots` that `mode` asks for, adding a text
    /// element per line (ids from `next_id` on) and a note per window.
    pub(crate) async fn read_windows(
        &self,
        adapter: &dyn Adapter,
        platform: PlatformId,
        mode: OcrMode,
        roots: &mut [Node],
        next_id: &mut u64,
        notes: &mut Vec<String>,
    ) {
        for root in roots.iter_mut().filter(|r| wanted(r, mode)) {
            let title = root.name.clone();
            let Some(bounds) = root.bounds.filter(|b| !b.is_empty()) else {
                notes.push(format!(
                    "window '{title}': its text cannot be read from pixels: it has no place on screen"
                ));
                continue;
            };
            match self.read(adapter, bounds).await {
                Ok(lines) => {
                    let n = lines.len();
                    root.children.extend(
                        lines
                            .into_iter()
                            .map(|(line, origin)| line_node(line, origin, platform, next_id)),
                    );
                    // Keys go to the window; cup confirms them by reading
                    // the pixels back (crate::pixel_act).
                    if !root.actions.contains(&Action::Type) {
                        root.actions.push(Action::Type);
                    }
                    notes.push(format!(
                        "window '{title}': {n} line{} read from its pixels (ocr): a click on one is a pointer click at its centre; `type` on the window types with the keyboard and reads the text back",
                        if n == 1 { "" } else { "s" }
                    ));
                }
                Err(e) => notes.push(format!(
                    "window '{title}': its text cannot be read from pixels: {e}"
                )),
            }
        }
    }

    /// Reads the regions of `roots` whose text is only in their pixels (a
    /// `<canvas>`; see [`is_blank_canvas`]) under `auto` and `always`,
    /// adding a text element per line under the region (ids from
    /// `next_id` on) and a note per region.
    pub(crate) async fn read_regions(
        &self,
        adapter: &dyn Adapter,
        platform: PlatformId,
        mode: OcrMode,
        roots: &mut [Node],
        next_id: &mut u64,
        notes: &mut Vec<String>,
    ) {
        if mode == OcrMode::Never {
            return;
        }
        for root in roots.iter_mut() {
            let mut regions: Vec<&mut Node> = Vec::new();
            collect_canvases(root, &mut regions);
            for region in regions {
                let Some(bounds) = region.bounds else {
                    continue;
                };
                match self.read(adapter, bounds).await {
                    Ok(lines) => {
                        let n = lines.len();
                        region.children.extend(
                            lines
                                .into_iter()
                                .map(|(line, origin)| line_node(line, origin, platform, next_id)),
                        );
                        notes.push(format!(
                            "canvas {}: {n} line{} read from its pixels (ocr): a click on one is a pointer click at its centre",
                            region.id,
                            if n == 1 { "" } else { "s" }
                        ));
                    }
                    Err(e) => notes.push(format!(
                        "canvas {}: its text cannot be read from pixels: {e}",
                        region.id
                    )),
                }
            }
        }
    }

    /// The lines in the pixels of `bounds`, each with the screen point its
    /// image starts at.
    async fn read(
        &self,
        adapter: &dyn Adapter,
        bounds: Rect,
    ) -> Result<Vec<(cup_ocr::OcrLine, (i64, i64))>, String> {
        let shot = adapter
            .screenshot_rgb(&ShotTarget::Region(bounds))
            .await
            .map_err(|e| e.to_string())?;
        self.read_shot(shot).await
    }

    /// The lines in `shot` (pixels already taken), each with the screen
    /// point its image starts at.
    pub(crate) async fn read_shot(
        &self,
        shot: crate::image::RgbShot,
    ) -> Result<Vec<(cup_ocr::OcrLine, (i64, i64))>, String> {
        let origin = (shot.x, shot.y);
        let reader = Arc::clone(&self.reader);
        let lines = tokio::task::spawn_blocking(move || {
            let pixels = rgba_of_rgb(&shot.rgb);
            let mut guard = reader.lock().unwrap_or_else(PoisonError::into_inner);
            let started =
                guard.get_or_insert_with(|| cup_ocr::Reader::from_env().map_err(|e| e.to_string()));
            match started {
                Ok(r) => r
                    .read(&cup_ocr::Rgba {
                        width: shot.width as usize,
                        height: shot.height as usize,
                        pixels: &pixels,
                    })
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.clone()),
            }
        })
        .await
        .map_err(|e| format!("the reader stopped: {e}"))??;
        Ok(lines.into_iter().map(|l| (l, origin)).collect())
    }
}

/// The element of a line read from pixels whose image starts at screen
/// point `origin`: text with its bounds, a click, the `ocr` mark; its id
/// is `e{next_id}` (then counted on).
fn line_node(
    line: cup_ocr::OcrLine,
    origin: (i64, i64),
    platform: PlatformId,
    next_id: &mut u64,
) -> Node {
    let mut node = Node::new(format!("e{next_id}"), Role::Text, line.text);
    *next_id += 1;
    let (x, y, w, h) = line.bounds;
    node.bounds = Some(Rect::new(origin.0 + x, origin.1 + y, w, h));
    node.actions = vec![Action::Click];
    node.mark_from_pixels(platform, line.confidence);
    node
}

/// The blank canvases under `node`, in document order.
fn collect_canvases<'a>(node: &'a mut Node, out: &mut Vec<&'a mut Node>) {
    if is_blank_canvas(node) {
        out.push(node);
        return;
    }
    for child in &mut node.children {
        collect_canvases(child, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_are_words_with_a_clear_refusal() {
        assert_eq!("always".parse::<OcrMode>(), Ok(OcrMode::Always));
        assert_eq!(
            "sometimes".parse::<OcrMode>(),
            Err("ocr \"sometimes\": use auto, always or never".to_owned())
        );
        let empty = Node::new("e0", Role::Window, "Tk");
        let mut full = empty.clone();
        full.children.push(Node::new("e1", Role::Button, "OK"));
        assert!(wanted(&empty, OcrMode::Auto) && !wanted(&full, OcrMode::Auto));
        assert!(wanted(&full, OcrMode::Always) && !wanted(&empty, OcrMode::Never));
    }

    /// A Flutter screen without semantics on Android: FrameLayouts and
    /// one `View`, nothing named. Any text below makes the tree speak.
    #[test]
    fn a_window_of_nameless_containers_says_nothing() {
        let mut view = Node::new("e3", Role::Generic, "");
        view.bounds = Some(Rect::new(0, 0, 720, 1600));
        let mut content = Node::new("e2", Role::Generic, "");
        content.children.push(view);
        let mut window = Node::new("e0", Role::Window, "com.example.flutter");
        window.children.push(content);
        assert!(says_nothing(&window) && wanted(&window, OcrMode::Auto));
        let silent_after = |edit: fn(&mut Node)| {
            let mut w = window.clone();
            edit(&mut w.children[0].children[0]);
            says_nothing(&w)
        };
        assert!(!silent_after(|n| n.name = "Place order".into()));
        assert!(!silent_after(|n| n.value = Some("42".into())));
        assert!(!silent_after(|n| n.description = Some("Orders".into())));
        assert!(!silent_after(
            |n| n.attributes.placeholder = Some("Email".into())
        ));
        assert!(silent_after(|n| n.value = Some(" ".into())));
    }

    #[test]
    fn blank_canvases_on_screen_are_regions_to_read() {
        let canvas = |tag: &str, name: &str| {
            let mut n = Node::new("e5", Role::Img, name);
            n.bounds = Some(Rect::new(8, 114, 500, 200));
            n.platform.web = Some(cup_protocol::node::PlatformWeb {
                tag_name: Some(tag.to_owned()),
                ..Default::default()
            });
            n
        };
        assert!(is_blank_canvas(&canvas("canvas", "")));
        // A named canvas says what it shows; an image is not a canvas.
        assert!(!is_blank_canvas(&canvas("canvas", "Revenue chart")));
        assert!(!is_blank_canvas(&canvas("img", "")));
        let mut below = canvas("canvas", "");
        below.states.push(cup_protocol::State::Offscreen);
        assert!(!is_blank_canvas(&below));
        let mut doc = Node::new("e0", Role::Document, "Chart");
        doc.children.push(canvas("canvas", ""));
        let mut found = Vec::new();
        collect_canvases(&mut doc, &mut found);
        assert_eq!(found.len(), 1);
    }
}
