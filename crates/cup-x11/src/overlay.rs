//! The visual layer on X11: one override-redirect window per overlay layer
//! (cursor, ripple, focus, highlight), always raised, with an empty input
//! shape so every click passes through to the window under it, and never
//! focused (override-redirect windows are not managed). Where a compositor
//! runs (`_NET_WM_CM_Sn` has an owner) the windows are 32-bit ARGB and
//! blend; elsewhere (Xvfb) they are plain windows cut to the picture's
//! opaque pixels by their bounding shape.
//!
//! x11rb blocks: the windows live on a thread of their own that takes
//! commands over a channel; each command is answered after a round trip
//! to the server (so a hidden layer is off the screen when `hide`
//! returns) and waited for under [`OVERLAY_TIMEOUT`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use cup::visual::{Layer, Overlay, Sprite};
use cup::{AdapterError, Point};
use cup_protocol::Rect;
use x11rb::connection::{Connection, RequestConnection as _};
use x11rb::protocol::shape::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{
    self, ChangeWindowAttributesAux, ClipOrdering, ColormapAlloc, ConfigureWindowAux,
    ConnectionExt as _, CreateWindowAux, ImageFormat, ImageOrder, PropMode, StackMode, VisualClass,
    WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// Longest one overlay command may take.
pub const OVERLAY_TIMEOUT: Duration = Duration::from_secs(1);

/// Alpha at or above which a pixel is shown where windows cannot blend.
const OPAQUE: u8 = 128;

type Reply = tokio::sync::oneshot::Sender<Result<(), String>>;

/// What the overlay thread is asked to do.
enum Cmd {
    Show(Layer, Arc<Sprite>, Point, Reply),
    Frame(Layer, Rect, [u8; 3], u32, Reply),
    Hide(Layer, Reply),
}

/// The overlay of one X11 display.
#[derive(Debug)]
pub struct X11Overlay {
    tx: std::sync::Mutex<mpsc::Sender<Cmd>>,
    broken: Arc<AtomicBool>,
    scale: f64,
    attended: bool,
}

impl X11Overlay {
    /// Connects to `display` (under the deadline); `scale` sizes the
    /// pictures, `attended` says whether a person watches this display.
    pub async fn open(
        display: &str,
        scale: f64,
        attended: bool,
    ) -> Result<X11Overlay, AdapterError> {
        let (tx, rx) = mpsc::channel::<Cmd>();
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let broken = Arc::new(AtomicBool::new(false));
        let display = display.to_owned();
        let flag = broken.clone();
        std::thread::Builder::new()
            .name("cup-x11-overlay".into())
            .spawn(move || match Windows::connect(&display) {
                Ok(mut w) => {
                    let _ = ready_tx.send(Ok(w.argb));
                    w.serve(&rx, &flag);
                }
                Err(e) => {
                    flag.store(true, Ordering::SeqCst);
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| AdapterError::Platform(format!("cannot start the overlay thread: {e}")))?;
        match tokio::time::timeout(OVERLAY_TIMEOUT * 2, ready_rx).await {
            // Whether windows blend (a compositor runs) is logged by the
            // thread.
            Ok(Ok(Ok(_))) => {}
            Ok(Ok(Err(e))) => return Err(AdapterError::Unavailable(e)),
            Ok(Err(_)) => return Err(AdapterError::Platform("the overlay thread ended".into())),
            Err(_) => {
                return Err(AdapterError::Unavailable(
                    "the X server did not answer the overlay within 2 s".into(),
                ))
            }
        };
        Ok(X11Overlay {
            tx: std::sync::Mutex::new(tx),
            broken,
            scale,
            attended,
        })
    }

    /// The connection failed; a new overlay is needed.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::SeqCst)
    }

    async fn send(&self, make: impl FnOnce(Reply) -> Cmd) -> Result<(), AdapterError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let sent = self
            .tx
            .lock()
            .map_err(|_| AdapterError::Platform("overlay channel poisoned".into()))?
            .send(make(reply));
        if sent.is_err() {
            return Err(AdapterError::Unavailable(
                "the overlay's X11 connection is gone".into(),
            ));
        }
        match tokio::time::timeout(OVERLAY_TIMEOUT, answer).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => Err(AdapterError::Platform(format!("overlay: {e}"))),
            Ok(Err(_)) => Err(AdapterError::Unavailable(
                "the overlay's X11 connection is gone".into(),
            )),
            Err(_) => Err(AdapterError::Unavailable(
                "the X server did not answer the overlay within 1 s".into(),
            )),
        }
    }
}

impl cup_linux_display::backend::Drawn for X11Overlay {
    fn is_broken(&self) -> bool {
        X11Overlay::is_broken(self)
    }
}

#[async_trait]
impl Overlay for X11Overlay {
    async fn show(&self, layer: Layer, sprite: Arc<Sprite>, at: Point) -> Result<(), AdapterError> {
        self.send(|r| Cmd::Show(layer, sprite, at, r)).await
    }

    async fn frame(
        &self,
        layer: Layer,
        rect: Rect,
        colour: [u8; 3],
        thickness: u32,
    ) -> Result<(), AdapterError> {
        self.send(|r| Cmd::Frame(layer, rect, colour, thickness, r))
            .await
    }

    async fn hide(&self, layer: Layer) -> Result<(), AdapterError> {
        self.send(|r| Cmd::Hide(layer, r)).await
    }

    async fn attended(&self) -> bool {
        self.attended
    }

    fn scale(&self) -> f64 {
        self.scale
    }
}

/// How colours become pixel values on this server.
#[derive(Debug, Clone, Copy)]
struct Format {
    depth: u8,
    visual: u32,
    red: u32,
    green: u32,
    blue: u32,
    /// The alpha bits (ARGB windows).
    alpha: u32,
    lsb_first: bool,
}

fn channel(mask: u32, v: u8) -> u32 {
    if mask == 0 {
        return 0;
    }
    let shift = mask.trailing_zeros();
    let bits = (mask >> shift).count_ones();
    ((u32::from(v) * ((1 << bits) - 1) + 127) / 255) << shift
}

impl Format {
    /// The pixel of a straight-alpha colour (premultiplied where windows
    /// blend; opaque where they cannot).
    fn pixel(&self, rgba: [u8; 4]) -> u32 {
        if self.alpha == 0 {
            return channel(self.red, rgba[0])
                | channel(self.green, rgba[1])
                | channel(self.blue, rgba[2]);
        }
        let a = u32::from(rgba[3]);
        let pre = |c: u8| ((u32::from(c) * a + 127) / 255) as u8;
        channel(self.red, pre(rgba[0]))
            | channel(self.green, pre(rgba[1]))
            | channel(self.blue, pre(rgba[2]))
            | channel(self.alpha, rgba[3])
    }

    /// The sprite as a 32-bit ZPixmap image.
    fn image(&self, s: &Sprite) -> Vec<u8> {
        let mut out = Vec::with_capacity(s.rgba.len());
        for px in s.rgba.chunks_exact(4) {
            let v = self.pixel([px[0], px[1], px[2], px[3]]);
            if self.lsb_first {
                out.extend_from_slice(&v.to_le_bytes());
            } else {
                out.extend_from_slice(&v.to_be_bytes());
            }
        }
        out
    }
}

/// One layer's window and what it shows.
#[derive(Debug)]
struct LayerWindow {
    id: u32,
    pixmap: Option<u32>,
    /// Key of the picture shown (none: a frame).
    key: Option<u64>,
    size: (u32, u32),
    mapped: bool,
}

/// The windows, on the overlay thread.
struct Windows {
    conn: RustConnection,
    root: u32,
    format: Format,
    colormap: u32,
    argb: bool,
    layers: HashMap<Layer, LayerWindow>,
    /// The graphics context of every picture upload (made with the first).
    gc: Option<u32>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl Windows {
    fn connect(display: &str) -> Result<Windows, String> {
        let (conn, screen_num) = crate::xauth::connect(display).map_err(|e| {
            format!("cannot open the X11 display {display} for the overlay: {e}; check DISPLAY")
        })?;
        let screen = conn
            .setup()
            .roots
            .get(screen_num)
            .ok_or("the X server has no screen")?
            .clone();
        conn.extension_information(shape::X11_EXTENSION_NAME)
            .map_err(err)?
            .ok_or("the X server lacks the SHAPE extension, which a click-through overlay needs")?;
        let cm = conn
            .intern_atom(false, format!("_NET_WM_CM_S{screen_num}").as_bytes())
            .map_err(err)?
            .reply()
            .map_err(err)?
            .atom;
        let composited = conn
            .get_selection_owner(cm)
            .map_err(err)?
            .reply()
            .map_err(err)?
            .owner
            != x11rb::NONE;
        let setup = conn.setup();
        let lsb_first = setup.image_byte_order == ImageOrder::LSB_FIRST;
        let bpp_of = |depth: u8| {
            setup
                .pixmap_formats
                .iter()
                .find(|f| f.depth == depth)
                .map(|f| f.bits_per_pixel)
        };
        // An ARGB visual where a compositor blends, else the root's.
        let argb_visual = composited
            .then(|| {
                screen
                    .allowed_depths
                    .iter()
                    .filter(|d| d.depth == 32)
                    .flat_map(|d| d.visuals.iter())
                    .find(|v| v.class == VisualClass::TRUE_COLOR)
                    .cloned()
            })
            .flatten();
        let (format, colormap, argb) = match argb_visual {
            Some(v) if bpp_of(32) == Some(32) => {
                let colormap = conn.generate_id().map_err(err)?;
                conn.create_colormap(ColormapAlloc::NONE, colormap, screen.root, v.visual_id)
                    .map_err(err)?;
                let rgb = v.red_mask | v.green_mask | v.blue_mask;
                (
                    Format {
                        depth: 32,
                        visual: v.visual_id,
                        red: v.red_mask,
                        green: v.green_mask,
                        blue: v.blue_mask,
                        alpha: !rgb,
                        lsb_first,
                    },
                    colormap,
                    true,
                )
            }
            _ => {
                let v = screen
                    .allowed_depths
                    .iter()
                    .flat_map(|d| d.visuals.iter())
                    .find(|v| v.visual_id == screen.root_visual)
                    .ok_or("the root visual is not listed")?;
                let bpp = bpp_of(screen.root_depth).unwrap_or(0);
                if bpp != 32 {
                    return Err(format!(
                        "the X server's pixels are {bpp} bits (depth {}); the overlay draws 32-bit pixels",
                        screen.root_depth
                    ));
                }
                (
                    Format {
                        depth: screen.root_depth,
                        visual: screen.root_visual,
                        red: v.red_mask,
                        green: v.green_mask,
                        blue: v.blue_mask,
                        alpha: 0,
                        lsb_first,
                    },
                    x11rb::COPY_FROM_PARENT,
                    false,
                )
            }
        };
        tracing::debug!(argb, "X11 overlay connected");
        Ok(Windows {
            conn,
            root: screen.root,
            format,
            colormap,
            argb,
            layers: HashMap::new(),
            gc: None,
        })
    }

    fn serve(&mut self, rx: &mpsc::Receiver<Cmd>, broken: &AtomicBool) {
        while let Ok(cmd) = rx.recv() {
            let (result, reply) = match cmd {
                Cmd::Show(layer, sprite, at, reply) => (self.show(layer, &sprite, at), reply),
                Cmd::Frame(layer, rect, colour, t, reply) => {
                    (self.frame(layer, rect, colour, t), reply)
                }
                Cmd::Hide(layer, reply) => (self.hide(layer), reply),
            };
            // A round trip: the server has done it all when this answers.
            let result = result.and_then(|()| {
                self.conn
                    .get_input_focus()
                    .map_err(err)?
                    .reply()
                    .map(|_| ())
                    .map_err(err)
            });
            if result.is_err() {
                broken.store(true, Ordering::SeqCst);
            }
            let _ = reply.send(result);
        }
    }

    /// The layer's window, made when first needed: override-redirect (no
    /// window manager touches it, it never takes focus), empty input shape.
    fn window(&mut self, layer: Layer) -> Result<&mut LayerWindow, String> {
        if !self.layers.contains_key(&layer) {
            let id = self.conn.generate_id().map_err(err)?;
            let mut aux = CreateWindowAux::new()
                .override_redirect(1)
                .border_pixel(0)
                .background_pixel(0);
            if self.argb {
                aux = aux.colormap(self.colormap);
            }
            self.conn
                .create_window(
                    self.format.depth,
                    id,
                    self.root,
                    -100,
                    -100,
                    1,
                    1,
                    0,
                    WindowClass::INPUT_OUTPUT,
                    self.format.visual,
                    &aux,
                )
                .map_err(err)?;
            // Input goes through: the input region is empty.
            self.conn
                .shape_rectangles(
                    shape::SO::SET,
                    shape::SK::INPUT,
                    ClipOrdering::UNSORTED,
                    id,
                    0,
                    0,
                    &[],
                )
                .map_err(err)?;
            let name = format!("cup overlay ({})", layer.name());
            self.conn
                .change_property8(
                    PropMode::REPLACE,
                    id,
                    xproto::AtomEnum::WM_NAME,
                    xproto::AtomEnum::STRING,
                    name.as_bytes(),
                )
                .map_err(err)?;
            self.layers.insert(
                layer,
                LayerWindow {
                    id,
                    pixmap: None,
                    key: None,
                    size: (1, 1),
                    mapped: false,
                },
            );
        }
        self.layers
            .get_mut(&layer)
            .ok_or_else(|| "no overlay window".to_owned())
    }

    fn raise_and_map(
        &mut self,
        layer: Layer,
        x: i64,
        y: i64,
        w: u32,
        h: u32,
    ) -> Result<(), String> {
        let conn = &self.conn;
        let lw = self
            .layers
            .get_mut(&layer)
            .ok_or_else(|| "no overlay window".to_owned())?;
        let clamp = |v: i64| v.clamp(-30_000, 30_000) as i32;
        conn.configure_window(
            lw.id,
            &ConfigureWindowAux::new()
                .x(clamp(x))
                .y(clamp(y))
                .width(w.max(1))
                .height(h.max(1))
                .stack_mode(StackMode::ABOVE),
        )
        .map_err(err)?;
        lw.size = (w.max(1), h.max(1));
        if !lw.mapped {
            conn.map_window(lw.id).map_err(err)?;
            lw.mapped = true;
        }
        Ok(())
    }

    fn show(&mut self, layer: Layer, s: &Sprite, at: Point) -> Result<(), String> {
        let format = self.format;
        let argb = self.argb;
        let root = self.root;
        let id = self.window(layer)?.id;
        let shown = self.layers.get(&layer).and_then(|l| l.key);
        if shown != Some(s.key) {
            let conn = &self.conn;
            let pixmap = conn.generate_id().map_err(err)?;
            conn.create_pixmap(
                format.depth,
                pixmap,
                root,
                s.width.max(1) as u16,
                s.height.max(1) as u16,
            )
            .map_err(err)?;
            let gc = match self.gc {
                Some(gc) => gc,
                None => {
                    // Good for every pixmap of this depth and screen.
                    let gc = conn.generate_id().map_err(err)?;
                    conn.create_gc(gc, pixmap, &xproto::CreateGCAux::new())
                        .map_err(err)?;
                    self.gc = Some(gc);
                    gc
                }
            };
            conn.put_image(
                ImageFormat::Z_PIXMAP,
                pixmap,
                gc,
                s.width as u16,
                s.height as u16,
                0,
                0,
                0,
                format.depth,
                &format.image(s),
            )
            .map_err(err)?;
            conn.change_window_attributes(
                id,
                &ChangeWindowAttributesAux::new().background_pixmap(pixmap),
            )
            .map_err(err)?;
            // The window's shape: the picture's pixels (blending windows
            // keep the soft ones, others only the opaque ones).
            let threshold = if argb { 1 } else { OPAQUE };
            let rects: Vec<xproto::Rectangle> = s
                .runs(threshold)
                .into_iter()
                .map(|(y, x0, x1)| xproto::Rectangle {
                    x: x0 as i16,
                    y: y as i16,
                    width: (x1 - x0) as u16,
                    height: 1,
                })
                .collect();
            conn.shape_rectangles(
                shape::SO::SET,
                shape::SK::BOUNDING,
                ClipOrdering::YX_SORTED,
                id,
                0,
                0,
                &rects,
            )
            .map_err(err)?;
            let lw = self
                .layers
                .get_mut(&layer)
                .ok_or_else(|| "no overlay window".to_owned())?;
            if let Some(old) = lw.pixmap.replace(pixmap) {
                conn.free_pixmap(old).map_err(err)?;
            }
            lw.key = Some(s.key);
        }
        self.raise_and_map(layer, at.x - s.hot_x, at.y - s.hot_y, s.width, s.height)?;
        // Repaint from the (new) background.
        self.conn.clear_area(false, id, 0, 0, 0, 0).map_err(err)?;
        self.conn.flush().map_err(err)
    }

    fn frame(
        &mut self,
        layer: Layer,
        r: Rect,
        colour: [u8; 3],
        thickness: u32,
    ) -> Result<(), String> {
        let pixel = self.format.pixel([colour[0], colour[1], colour[2], 255]);
        let id = self.window(layer)?.id;
        let (w, h) = (
            u32::try_from(r.w).unwrap_or(u32::MAX).clamp(1, 30_000),
            u32::try_from(r.h).unwrap_or(u32::MAX).clamp(1, 30_000),
        );
        let t = thickness.clamp(1, w.min(h).max(1)) as u16;
        let (w16, h16) = (
            w.min(u32::from(u16::MAX)) as u16,
            h.min(u32::from(u16::MAX)) as u16,
        );
        let bands = [
            xproto::Rectangle {
                x: 0,
                y: 0,
                width: w16,
                height: t,
            },
            xproto::Rectangle {
                x: 0,
                y: (h16 - t.min(h16)) as i16,
                width: w16,
                height: t,
            },
            xproto::Rectangle {
                x: 0,
                y: 0,
                width: t,
                height: h16,
            },
            xproto::Rectangle {
                x: (w16 - t.min(w16)) as i16,
                y: 0,
                width: t,
                height: h16,
            },
        ];
        let conn = &self.conn;
        conn.change_window_attributes(
            id,
            &ChangeWindowAttributesAux::new().background_pixel(pixel),
        )
        .map_err(err)?;
        conn.shape_rectangles(
            shape::SO::SET,
            shape::SK::BOUNDING,
            ClipOrdering::UNSORTED,
            id,
            0,
            0,
            &bands,
        )
        .map_err(err)?;
        if let Some(lw) = self.layers.get_mut(&layer) {
            if let Some(old) = lw.pixmap.take() {
                self.conn.free_pixmap(old).map_err(err)?;
            }
            lw.key = None;
        }
        self.raise_and_map(layer, r.x, r.y, w, h)?;
        self.conn.clear_area(false, id, 0, 0, 0, 0).map_err(err)?;
        self.conn.flush().map_err(err)
    }

    fn hide(&mut self, layer: Layer) -> Result<(), String> {
        if let Some(lw) = self.layers.get_mut(&layer) {
            if lw.mapped {
                self.conn.unmap_window(lw.id).map_err(err)?;
                lw.mapped = false;
            }
        }
        self.conn.flush().map_err(err)
    }
}

/// Whether a person is likely to watch a display with these monitors: a
/// virtual framebuffer (Xvfb) has one output named `screen`; real outputs
/// are named after their connectors (eDP-1, HDMI-1, Virtual-1, VNC-0).
pub fn attended(monitors: &[cup::Monitor]) -> bool {
    !monitors.iter().all(|m| m.name == "screen")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_follow_the_visual() {
        let rgb = Format {
            depth: 24,
            visual: 0,
            red: 0xff_0000,
            green: 0xff00,
            blue: 0xff,
            alpha: 0,
            lsb_first: true,
        };
        assert_eq!(rgb.pixel([0x12, 0x34, 0x56, 10]), 0x12_3456);
        let argb = Format {
            depth: 32,
            alpha: 0xff00_0000,
            ..rgb
        };
        // Premultiplied: half-transparent white is half grey with alpha.
        assert_eq!(argb.pixel([255, 255, 255, 128]), 0x8080_8080);
        let s = Sprite::new(1, 1, vec![1, 2, 3, 255], 0, 0);
        assert_eq!(rgb.image(&s), vec![3, 2, 1, 0]);
        let msb = Format {
            lsb_first: false,
            ..rgb
        };
        assert_eq!(msb.image(&s), vec![0, 1, 2, 3]);
        // 16-bit masks scale the channel.
        assert_eq!(channel(0xf800, 255), 0xf800);
    }

    #[test]
    fn a_framebuffer_has_nobody_watching() {
        let m = |name: &str| cup::Monitor {
            name: name.into(),
            rect: Rect::new(0, 0, 10, 10),
            primary: true,
            scale: 1.0,
        };
        assert!(!attended(&[m("screen")]));
        assert!(attended(&[m("eDP-1")]));
        assert!(attended(&[m("screen"), m("HDMI-1")]));
    }
}
