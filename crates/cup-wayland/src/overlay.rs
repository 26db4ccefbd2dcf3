//! The visual layer on a compositor with `zwlr_layer_shell_v1` (wlroots
//! ones, KWin): one `zwlr_layer_shell_v1`
//! surface per overlay layer (cursor, ripple, focus, highlight) on the
//! compositor's top-most layer (`overlay`), with an empty input region so
//! every click passes through to the window under it, no keyboard
//! interactivity (it never takes the focus) and an exclusive zone of -1
//! (it moves no other surface). The compositor blends it (premultiplied
//! ARGB buffers), and its screencopy frames show it as a person sees it.
//!
//! A surface lives on one output: a picture is placed on the output under
//! its hotspot (a frame: under its top-left corner), by its margins from
//! that output's top-left corner, in layout (logical) pixels. Each command
//! is answered after a round trip (so a hidden layer is gone when `hide`
//! returns), every wait bounded by the connection's deadline.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write as _;
use std::os::fd::AsFd as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use cup::visual::{Layer, Overlay, Sprite};
use cup::{AdapterError, Point};
use cup_protocol::Rect;
use wayland_client::protocol::{wl_buffer, wl_compositor, wl_region, wl_shm, wl_surface};
use wayland_client::{Connection, Dispatch, Proxy, QueueHandle};
use wayland_protocols_wlr::layer_shell::v1::client::{zwlr_layer_shell_v1, zwlr_layer_surface_v1};

use super::client::{unsupported, Client, LayoutRect, Output, State, WaylandError};
use super::vinput::{blocking, memfd};

/// How long one overlay command's waits may take: the same 2 s as every
/// other Wayland call of cup's.
pub const OVERLAY_TIMEOUT: Duration = super::client::DEFAULT_TIMEOUT;

/// The layer-shell namespace of cup's surfaces (compositors' rules can
/// match it).
pub const NAMESPACE: &str = "cup-agent-overlay";

/// The largest side of a picture, in pixels.
const MAX_SIDE: u32 = 16_384;

/// A picture ready for a `wl_shm` buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `ARGB8888` pixels as `wl_shm` wants them: premultiplied, 4 bytes a
    /// pixel in little-endian order (blue, green, red, alpha).
    pub argb: Vec<u8>,
    /// Equal keys, equal pictures (an unchanged picture is not sent again).
    pub key: u64,
}

/// Straight-alpha RGBA (a [`Sprite`]'s pixels) as premultiplied
/// `ARGB8888` bytes.
pub fn argb_of_rgba(rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgba.len());
    for p in rgba.chunks_exact(4) {
        let a = u32::from(p[3]);
        let pre = |c: u8| ((u32::from(c) * a + 127) / 255) as u8;
        out.extend_from_slice(&[pre(p[2]), pre(p[1]), pre(p[0]), p[3]]);
    }
    out
}

/// The outline of a `width` x `height` rectangle, `thickness` pixels
/// wide inside its edges, in `colour`; transparent inside.
pub fn outline(width: u32, height: u32, colour: [u8; 3], thickness: u32) -> Picture {
    let (w, h) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
    let t = thickness.clamp(1, w.min(h));
    let pixel = [colour[2], colour[1], colour[0], 255];
    let mut argb = vec![0u8; (w as usize) * (h as usize) * 4];
    for y in 0..h {
        let band = y < t || y >= h - t;
        for x in 0..w {
            if band || x < t || x >= w - t {
                let i = ((y * w + x) as usize) * 4;
                argb[i..i + 4].copy_from_slice(&pixel);
            }
        }
    }
    let key = u64::from(w)
        | u64::from(h) << 16
        | u64::from(t) << 32
        | u64::from(u32::from_le_bytes([colour[0], colour[1], colour[2], 0])) << 40;
    Picture {
        width: w,
        height: h,
        argb,
        // Frames and sprites never share a key (sprites' are hashes).
        key: key ^ 0x0f0f_0000_0000_0000,
    }
}

/// Where a picture goes: the index of the output under `anchor` (or, when
/// no output holds it, the nearest one) and the margins of its top-left
/// corner `top_left` from that output's top-left corner. `None` without
/// outputs.
pub fn place(
    outputs: &[LayoutRect],
    anchor: (i64, i64),
    top_left: (i64, i64),
) -> Option<(usize, i32, i32)> {
    let distance = |&(x, y, w, h): &LayoutRect| {
        let dx = (x - anchor.0).max(anchor.0 - (x + w - 1)).max(0);
        let dy = (y - anchor.1).max(anchor.1 - (y + h - 1)).max(0);
        dx.saturating_mul(dx).saturating_add(dy.saturating_mul(dy))
    };
    let (index, rect) = outputs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.2 > 0 && r.3 > 0)
        .min_by_key(|(_, r)| distance(r))?;
    let margin = |v: i64, origin: i64| {
        i32::try_from(v - origin).unwrap_or(if v < origin { i32::MIN } else { i32::MAX })
    };
    Some((
        index,
        margin(top_left.0, rect.0),
        margin(top_left.1, rect.1),
    ))
}

/// The overlay of one Wayland compositor.
#[derive(Debug)]
pub struct WaylandOverlay {
    painter: Arc<Mutex<Painter>>,
    broken: Arc<AtomicBool>,
    attended: bool,
}

impl WaylandOverlay {
    /// Connects to the compositor at `socket`; an `unsupported:` error
    /// when it offers no layer shell. A person is taken to watch it when
    /// an output is not a headless one.
    pub async fn open(socket: &Path) -> Result<WaylandOverlay, WaylandError> {
        let socket = socket.to_path_buf();
        let painter = blocking(move || Painter::open(&socket)).await?;
        let attended = painter
            .client
            .outputs()
            .iter()
            .any(|o| !o.name.starts_with("HEADLESS-"));
        Ok(WaylandOverlay {
            painter: Arc::new(Mutex::new(painter)),
            broken: Arc::new(AtomicBool::new(false)),
            attended,
        })
    }

    /// The connection failed; a new overlay is needed.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::SeqCst)
    }

    async fn run(
        &self,
        work: impl FnOnce(&mut Painter) -> Result<(), WaylandError> + Send + 'static,
    ) -> Result<(), AdapterError> {
        let painter = Arc::clone(&self.painter);
        let result = blocking(move || {
            let mut p = painter.lock().unwrap_or_else(PoisonError::into_inner);
            work(&mut p)
        })
        .await;
        result.map_err(|e| match e {
            WaylandError::Invalid(m) => AdapterError::Invalid(m),
            WaylandError::Unsupported(m) => AdapterError::Unsupported(m),
            e @ (WaylandError::Connection { .. } | WaylandError::Timeout { .. }) => {
                self.broken.store(true, Ordering::SeqCst);
                AdapterError::Unavailable(format!("overlay: {e}"))
            }
            e => AdapterError::Platform(format!("overlay: {e}")),
        })
    }
}

impl cup_linux_display::backend::Drawn for WaylandOverlay {
    fn is_broken(&self) -> bool {
        WaylandOverlay::is_broken(self)
    }
}

#[async_trait]
impl Overlay for WaylandOverlay {
    async fn show(&self, layer: Layer, sprite: Arc<Sprite>, at: Point) -> Result<(), AdapterError> {
        self.run(move |p| {
            let top_left = (at.x - sprite.hot_x, at.y - sprite.hot_y);
            let picture = Picture {
                width: sprite.width,
                height: sprite.height,
                argb: Vec::new(),
                key: sprite.key,
            };
            p.show(layer, picture, Some(&sprite.rgba), (at.x, at.y), top_left)
        })
        .await
    }

    async fn frame(
        &self,
        layer: Layer,
        rect: Rect,
        colour: [u8; 3],
        thickness: u32,
    ) -> Result<(), AdapterError> {
        self.run(move |p| {
            let w = u32::try_from(rect.w).unwrap_or(MAX_SIDE);
            let h = u32::try_from(rect.h).unwrap_or(MAX_SIDE);
            let picture = outline(w, h, colour, thickness);
            p.show(layer, picture, None, (rect.x, rect.y), (rect.x, rect.y))
        })
        .await
    }

    async fn hide(&self, layer: Layer) -> Result<(), AdapterError> {
        self.run(move |p| p.hide(layer)).await
    }

    async fn attended(&self) -> bool {
        self.attended
    }
}

/// What a layer surface was told.
#[derive(Debug, Default)]
struct Configured {
    /// A configure arrived (and was acknowledged).
    configured: bool,
    /// The compositor closed the surface (its output went away).
    closed: bool,
}

/// One layer's surface on the screen.
#[derive(Debug)]
struct Shown {
    surface: wl_surface::WlSurface,
    layer_surface: zwlr_layer_surface_v1::ZwlrLayerSurfaceV1,
    output: String,
    size: (u32, u32),
    margins: (i32, i32),
    key: u64,
    buffer: Option<(File, wl_buffer::WlBuffer)>,
    state: Arc<Mutex<Configured>>,
}

impl Shown {
    fn state(&self) -> std::sync::MutexGuard<'_, Configured> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn destroy(self) {
        self.layer_surface.destroy();
        self.surface.destroy();
        if let Some((_, buffer)) = self.buffer {
            buffer.destroy();
        }
    }
}

/// The blocking side of [`WaylandOverlay`].
#[derive(Debug)]
struct Painter {
    client: Client,
    compositor: wl_compositor::WlCompositor,
    shm: wl_shm::WlShm,
    shell: zwlr_layer_shell_v1::ZwlrLayerShellV1,
    layers: HashMap<Layer, Shown>,
}

impl Painter {
    fn open(socket: &Path) -> Result<Painter, WaylandError> {
        let client = Client::connect(socket, OVERLAY_TIMEOUT)?;
        let globals = client.globals();
        let interface = zwlr_layer_shell_v1::ZwlrLayerShellV1::interface().name;
        if !globals.has(interface) {
            return Err(unsupported(
                &format!("{interface} (the agent cursor and highlight overlay)"),
                globals,
            ));
        }
        let shell = client.bind(4)?;
        let compositor = client.bind(4)?;
        let shm = client.bind(1)?;
        Ok(Painter {
            client,
            compositor,
            shm,
            shell,
            layers: HashMap::new(),
        })
    }

    /// Shows `picture` (its pixels from `rgba` when given, else its own)
    /// with its top-left at `top_left`, on the output under `anchor`.
    fn show(
        &mut self,
        layer: Layer,
        mut picture: Picture,
        rgba: Option<&[u8]>,
        anchor: (i64, i64),
        top_left: (i64, i64),
    ) -> Result<(), WaylandError> {
        if picture.width == 0 || picture.height == 0 {
            return self.hide(layer);
        }
        let outputs: Vec<Output> = self.client.outputs();
        let rects: Vec<LayoutRect> = outputs.iter().map(Output::rect).collect();
        let Some((index, left, top)) = place(&rects, anchor, top_left) else {
            return Err(WaylandError::Invalid(
                "the compositor reports no outputs to draw the overlay on (is one enabled?)"
                    .to_owned(),
            ));
        };
        let output = &outputs[index];
        let size = (picture.width, picture.height);
        // A surface on another output, of another size, or closed by the
        // compositor is made anew.
        let stale = self
            .layers
            .get(&layer)
            .is_some_and(|s| s.output != output.name || s.size != size || s.state().closed);
        if stale {
            if let Some(s) = self.layers.remove(&layer) {
                s.destroy();
            }
        }
        if !self.layers.contains_key(&layer) {
            let made = self.surface(layer, output, size, (left, top))?;
            self.layers.insert(layer, made);
        }
        let Some(shown) = self.layers.get_mut(&layer) else {
            return Ok(());
        };
        if shown.margins != (left, top) {
            shown.layer_surface.set_margin(top, 0, 0, left);
            shown.margins = (left, top);
        }
        let mut old = None;
        if shown.buffer.is_none() || shown.key != picture.key {
            if let Some(rgba) = rgba {
                picture.argb = argb_of_rgba(rgba);
            }
            let buffer = buffer(&self.shm, self.client.qh(), &picture)?;
            shown.surface.attach(Some(&buffer.1), 0, 0);
            shown.surface.damage_buffer(0, 0, i32::MAX, i32::MAX);
            old = shown.buffer.replace(buffer);
            shown.key = picture.key;
        }
        shown.surface.commit();
        let result = self.client.roundtrip("showing the overlay");
        // The compositor has its copy of the new picture now.
        if let Some((_, b)) = old {
            b.destroy();
        }
        result
    }

    /// A new layer surface of `size` on `output`, configured (and
    /// acknowledged) before it gets a picture.
    fn surface(
        &mut self,
        layer: Layer,
        output: &Output,
        size: (u32, u32),
        (left, top): (i32, i32),
    ) -> Result<Shown, WaylandError> {
        let qh = self.client.qh().clone();
        let surface = self.compositor.create_surface(&qh, ());
        // Clicks pass through: an empty input region.
        let region = self.compositor.create_region(&qh, ());
        surface.set_input_region(Some(&region));
        region.destroy();
        let state = Arc::new(Mutex::new(Configured::default()));
        let layer_surface = self.shell.get_layer_surface(
            &surface,
            Some(&output.proxy),
            zwlr_layer_shell_v1::Layer::Overlay,
            format!("{NAMESPACE}-{}", layer.name()),
            &qh,
            Arc::clone(&state),
        );
        layer_surface.set_size(size.0, size.1);
        layer_surface
            .set_anchor(zwlr_layer_surface_v1::Anchor::Top | zwlr_layer_surface_v1::Anchor::Left);
        layer_surface.set_exclusive_zone(-1);
        layer_surface
            .set_keyboard_interactivity(zwlr_layer_surface_v1::KeyboardInteractivity::None);
        layer_surface.set_margin(top, 0, 0, left);
        surface.commit();
        let shown = Shown {
            surface,
            layer_surface,
            output: output.name.clone(),
            size,
            margins: (left, top),
            key: 0,
            buffer: None,
            state,
        };
        // A new surface's first configure gets a new connection's 5 s:
        // KWin rendering in software stalls about a second when an
        // overlay surface first appears, and took over 2 s under load.
        let deadline = Instant::now() + self.client.timeout().max(super::client::CONNECT_TIMEOUT);
        let waited = self
            .client
            .dispatch_until("placing the overlay", deadline, |_| {
                let s = shown.state();
                s.configured || s.closed
            });
        if let Err(e) = waited {
            shown.destroy();
            return Err(e);
        }
        if shown.state().closed {
            shown.destroy();
            return Err(WaylandError::Invalid(format!(
                "the compositor refused an overlay surface on output {} (is it enabled?)",
                output.name
            )));
        }
        Ok(shown)
    }

    fn hide(&mut self, layer: Layer) -> Result<(), WaylandError> {
        match self.layers.remove(&layer) {
            Some(shown) => {
                shown.destroy();
                self.client.roundtrip("hiding the overlay")
            }
            None => Ok(()),
        }
    }
}

impl Drop for Painter {
    fn drop(&mut self) {
        for (_, shown) in self.layers.drain() {
            shown.destroy();
        }
        self.client.flush_now();
    }
}

/// A `wl_shm` buffer holding `picture`.
fn buffer(
    shm: &wl_shm::WlShm,
    qh: &QueueHandle<State>,
    picture: &Picture,
) -> Result<(File, wl_buffer::WlBuffer), WaylandError> {
    let stride = picture.width.saturating_mul(4);
    let size = u64::from(stride) * u64::from(picture.height);
    let (Ok(width), Ok(height), Ok(stride_i32), Ok(size_i32)) = (
        i32::try_from(picture.width),
        i32::try_from(picture.height),
        i32::try_from(stride),
        i32::try_from(size),
    ) else {
        return Err(WaylandError::Invalid(format!(
            "an overlay picture of {}x{} is too large: draw a smaller one",
            picture.width, picture.height
        )));
    };
    if picture.argb.len() as u64 != size {
        return Err(WaylandError::Invalid(format!(
            "an overlay picture of {}x{} came with {} bytes, not {size}",
            picture.width,
            picture.height,
            picture.argb.len()
        )));
    }
    let mut file = memfd("cup-overlay")?;
    file.write_all(&picture.argb)
        .map_err(|source| WaylandError::Io {
            what: "writing the overlay picture",
            source,
        })?;
    let pool = shm.create_pool(file.as_fd(), size_i32, qh, ());
    let buffer = pool.create_buffer(
        0,
        width,
        height,
        stride_i32,
        wl_shm::Format::Argb8888,
        qh,
        (),
    );
    pool.destroy();
    Ok((file, buffer))
}

impl Dispatch<zwlr_layer_surface_v1::ZwlrLayerSurfaceV1, Arc<Mutex<Configured>>> for State {
    fn event(
        _: &mut Self,
        proxy: &zwlr_layer_surface_v1::ZwlrLayerSurfaceV1,
        event: zwlr_layer_surface_v1::Event,
        state: &Arc<Mutex<Configured>>,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
        match event {
            zwlr_layer_surface_v1::Event::Configure { serial, .. } => {
                // The size is the one asked for (no anchor spans an edge).
                proxy.ack_configure(serial);
                s.configured = true;
            }
            zwlr_layer_surface_v1::Event::Closed => s.closed = true,
            _ => {}
        }
    }
}

super::client::ignore_events!(
    zwlr_layer_shell_v1::ZwlrLayerShellV1,
    wl_compositor::WlCompositor,
    wl_surface::WlSurface,
    wl_region::WlRegion,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_are_premultiplied_bgra() {
        let rgba = [255, 0, 0, 255, 0, 255, 0, 128, 10, 20, 30, 0];
        assert_eq!(
            argb_of_rgba(&rgba),
            vec![0, 0, 255, 255, 0, 128, 0, 128, 0, 0, 0, 0]
        );
    }

    #[test]
    fn an_outline_is_its_edges_only() {
        let p = outline(10, 6, [0, 255, 0], 2);
        assert_eq!((p.width, p.height, p.argb.len()), (10, 6, 240));
        let at = |x: usize, y: usize| &p.argb[(y * 10 + x) * 4..(y * 10 + x) * 4 + 4];
        assert_eq!(at(0, 0), [0, 255, 0, 255]);
        assert_eq!(at(1, 1), [0, 255, 0, 255]);
        assert_eq!(at(9, 5), [0, 255, 0, 255]);
        assert_eq!(at(2, 2), [0, 0, 0, 0]);
        assert_eq!(at(7, 3), [0, 0, 0, 0]);
        assert_eq!(at(8, 3), [0, 255, 0, 255]);
        // A thickness beyond the rectangle fills it; empty sizes are 1 px.
        assert!(outline(4, 3, [1, 2, 3], 9)
            .argb
            .chunks(4)
            .all(|c| c[3] == 255));
        assert_eq!(outline(0, 0, [1, 2, 3], 1).argb.len(), 4);
        assert_ne!(
            outline(4, 3, [1, 2, 3], 1).key,
            outline(4, 3, [1, 2, 4], 1).key
        );
    }

    #[test]
    fn a_picture_goes_on_the_output_under_its_anchor() {
        // Two outputs side by side: 1280x800 at 0,0 and 1920x1080 at 1280,0.
        let outputs = [(0, 0, 1280, 800), (1280, 0, 1920, 1080)];
        assert_eq!(place(&outputs, (100, 50), (90, 40)), Some((0, 90, 40)));
        assert_eq!(
            place(&outputs, (1300, 900), (1290, 890)),
            Some((1, 10, 890))
        );
        // A hotspot just inside the second output, the picture's corner
        // left of it: a negative margin there.
        assert_eq!(place(&outputs, (1282, 10), (1270, 0)), Some((1, -10, 0)));
        // Below the first output's bottom (x < 1280): the nearest output.
        assert_eq!(place(&outputs, (100, 900), (100, 900)), Some((0, 100, 900)));
        assert_eq!(place(&[], (0, 0), (0, 0)), None);
        assert_eq!(place(&[(0, 0, 0, 0)], (0, 0), (0, 0)), None);
    }
}
