//! Screenshots on wlroots compositors: `zwlr_screencopy_manager_v1` into
//! `wl_shm` buffers in memory files.
//!
//! Each output that meets the region is captured with
//! `capture_output_region` (output-local logical coordinates, without the
//! cursor), read back with a plain `pread` of the memory file (no mapping,
//! no `unsafe`), turned into RGB (XRGB8888, ARGB8888, XBGR8888, ABGR8888),
//! turned upright (`y_invert`, the output's transform), and composed into
//! one RGB frame in layout pixels; areas on no output are black.
//!
//! The result is in layout (logical) pixels: on an output of scale 1 a
//! logical pixel is a buffer pixel; on a scaled output (HiDPI, fractional
//! scales) the buffer is downscaled to logical pixels (each pixel the
//! average of the buffer pixels it covers), so frames of mixed-scale
//! layouts line up with the coordinates input uses.

use std::fs::File;
use std::os::fd::AsFd as _;
use std::os::unix::fs::FileExt as _;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use wayland_client::protocol::{wl_buffer, wl_shm, wl_shm_pool};
use wayland_client::{Connection, Dispatch, Proxy, QueueHandle, WEnum};
use wayland_protocols_wlr::screencopy::v1::client::{
    zwlr_screencopy_frame_v1, zwlr_screencopy_manager_v1,
};

use super::client::{
    intersect, layout_box, unsupported, Client, LayoutRect, Output, State, WaylandError,
    DEFAULT_TIMEOUT,
};
use super::vinput::{blocking, memfd};

/// A captured image: RGB, 3 bytes a pixel, rows top to bottom, in layout
/// (logical) pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The pixels, `width * height * 3` bytes.
    pub rgb: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Layout x of the top-left pixel.
    pub x: i64,
    /// Layout y of the top-left pixel.
    pub y: i64,
}

/// The largest frame captured, in pixels (a 16K x 8K layout).
const MAX_PIXELS: u64 = 16_384 * 8_192;

/// Screenshots over one long-lived connection to a compositor.
#[derive(Debug, Clone)]
pub struct Screencopy {
    inner: Arc<Mutex<Shooter>>,
}

impl Screencopy {
    /// Connects to the compositor at `socket` (each wait bounded by
    /// [`DEFAULT_TIMEOUT`]).
    pub async fn open(socket: &Path) -> Result<Screencopy, WaylandError> {
        Self::open_with_timeout(socket, DEFAULT_TIMEOUT).await
    }

    /// [`Screencopy::open`] with another deadline for each wait.
    pub async fn open_with_timeout(
        socket: &Path,
        timeout: Duration,
    ) -> Result<Screencopy, WaylandError> {
        let socket = socket.to_path_buf();
        let shooter = blocking(move || Shooter::open(&socket, timeout)).await?;
        Ok(Screencopy {
            inner: Arc::new(Mutex::new(shooter)),
        })
    }

    /// Captures `region` (`x, y, width, height` in layout pixels), or the
    /// whole layout (the outputs' bounding box) for `None`.
    pub async fn capture(
        &self,
        region: Option<(i64, i64, u64, u64)>,
    ) -> Result<Frame, WaylandError> {
        let inner = Arc::clone(&self.inner);
        blocking(move || {
            let mut shooter = inner.lock().unwrap_or_else(PoisonError::into_inner);
            shooter.capture(region)
        })
        .await
    }
}

/// The blocking side of [`Screencopy`].
#[derive(Debug)]
struct Shooter {
    client: Client,
    manager: zwlr_screencopy_manager_v1::ZwlrScreencopyManagerV1,
    shm: wl_shm::WlShm,
}

/// What a frame told so far.
#[derive(Debug, Default)]
struct Progress {
    buffer: Option<BufferInfo>,
    buffer_done: bool,
    y_invert: bool,
    ready: bool,
    failed: bool,
}

/// The `wl_shm` buffer a frame wants.
#[derive(Debug, Clone, Copy)]
struct BufferInfo {
    format: WEnum<wl_shm::Format>,
    width: u32,
    height: u32,
    stride: u32,
}

/// The byte layout of a 32-bit pixel format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelFormat {
    /// `[B, G, R, X]` in memory (XRGB8888 and ARGB8888, little-endian).
    Bgrx,
    /// `[R, G, B, X]` in memory (XBGR8888 and ABGR8888, little-endian).
    Rgbx,
}

impl PixelFormat {
    /// The layout of a `wl_shm` format, or `None` for formats cup does not
    /// read.
    pub fn of(format: WEnum<wl_shm::Format>) -> Option<PixelFormat> {
        match format {
            WEnum::Value(wl_shm::Format::Xrgb8888 | wl_shm::Format::Argb8888) => {
                Some(PixelFormat::Bgrx)
            }
            WEnum::Value(wl_shm::Format::Xbgr8888 | wl_shm::Format::Abgr8888) => {
                Some(PixelFormat::Rgbx)
            }
            _ => None,
        }
    }
}

/// An RGB image (3 bytes a pixel, rows top to bottom).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixels.
    pub rgb: Vec<u8>,
}

/// The RGB image of a 32-bit buffer: `stride` bytes a row, rows bottom to
/// top when `y_invert`.
pub fn to_rgb(
    data: &[u8],
    format: PixelFormat,
    width: usize,
    height: usize,
    stride: usize,
    y_invert: bool,
) -> Result<Image, WaylandError> {
    let row_bytes = width * 4;
    if stride < row_bytes || data.len() < stride * height.saturating_sub(1) + row_bytes {
        return Err(WaylandError::Capture(format!(
            "the buffer ({} bytes, stride {stride}) is too small for {width}x{height} \
             (a compositor bug; retry)",
            data.len()
        )));
    }
    let mut rgb = Vec::with_capacity(width * height * 3);
    for y in 0..height {
        let src_y = if y_invert { height - 1 - y } else { y };
        let row = &data[src_y * stride..src_y * stride + row_bytes];
        for px in row.chunks_exact(4) {
            match format {
                PixelFormat::Bgrx => rgb.extend_from_slice(&[px[2], px[1], px[0]]),
                PixelFormat::Rgbx => rgb.extend_from_slice(&[px[0], px[1], px[2]]),
            }
        }
    }
    Ok(Image { width, height, rgb })
}

/// Turns an image in an output's buffer orientation into the layout's,
/// by the output's `wl_output.transform`: 1–3 turn the buffer clockwise
/// by 90°, 180°, 270°, and 4–7 do the same and then mirror it left to
/// right (as `grim` composes screencopy frames; checked against it on
/// sway for every transform).
pub fn upright(image: Image, transform: u32) -> Image {
    let transform = transform % 8;
    if transform == 0 {
        return image;
    }
    let (w, h) = (image.width, image.height);
    let flipped = transform >= 4;
    let quarter_turns = transform % 4;
    let (dw, dh) = if quarter_turns % 2 == 1 {
        (h, w)
    } else {
        (w, h)
    };
    let mut rgb = vec![0; w * h * 3];
    for dy in 0..dh {
        for dx in 0..dw {
            // Mirrored after the turn: read the turned image's mirror pixel.
            let tx = if flipped { dw - 1 - dx } else { dx };
            // The source pixel of (tx, dy) in the clockwise-turned image.
            let (sx, sy) = match quarter_turns {
                1 => (dy, h - 1 - tx),
                2 => (w - 1 - tx, h - 1 - dy),
                3 => (w - 1 - dy, tx),
                _ => (tx, dy),
            };
            let s = (sy * w + sx) * 3;
            let d = (dy * dw + dx) * 3;
            rgb[d..d + 3].copy_from_slice(&image.rgb[s..s + 3]);
        }
    }
    Image {
        width: dw,
        height: dh,
        rgb,
    }
}

/// Resizes an image to `width` x `height`: each pixel the average of the
/// source pixels it covers (downscaling), or the nearest one (upscaling).
pub fn resample(image: &Image, width: usize, height: usize) -> Image {
    if image.width == width && image.height == height {
        return image.clone();
    }
    let (sw, sh) = (image.width, image.height);
    let mut rgb = Vec::with_capacity(width * height * 3);
    if sw == 0 || sh == 0 {
        rgb.resize(width * height * 3, 0);
        return Image { width, height, rgb };
    }
    let span = |d: usize, dst: usize, src: usize| {
        let start = d * src / dst;
        let end = ((d + 1) * src).div_ceil(dst).clamp(start + 1, src);
        (start.min(src - 1), end)
    };
    let columns: Vec<(usize, usize)> = (0..width).map(|x| span(x, width, sw)).collect();
    for y in 0..height {
        let (y0, y1) = span(y, height, sh);
        for &(x0, x1) in &columns {
            let mut sum = [0u32; 3];
            for sy in y0..y1 {
                for sx in x0..x1 {
                    let s = (sy * sw + sx) * 3;
                    for (acc, &v) in sum.iter_mut().zip(&image.rgb[s..s + 3]) {
                        *acc += u32::from(v);
                    }
                }
            }
            let n = u32::try_from((y1 - y0) * (x1 - x0))
                .unwrap_or(u32::MAX)
                .max(1);
            for acc in sum {
                // Rounded average; at most 255.
                rgb.push(u8::try_from((acc + n / 2) / n).unwrap_or(u8::MAX));
            }
        }
    }
    Image { width, height, rgb }
}

/// Composes pieces (each with its layout rectangle, already at that
/// rectangle's size) into a frame of `region`; the rest is black.
pub fn compose(region: LayoutRect, pieces: &[(LayoutRect, Image)]) -> Result<Frame, WaylandError> {
    let (rx, ry, rw, rh) = region;
    let too_large = || {
        WaylandError::Invalid(format!(
            "the region {rw}x{rh} is too large to capture: capture a smaller part"
        ))
    };
    let width = usize::try_from(rw).map_err(|_| too_large())?;
    let height = usize::try_from(rh).map_err(|_| too_large())?;
    let mut rgb = vec![0u8; width * height * 3];
    for &((px, py, pw, ph), ref image) in pieces {
        let Some((ix, iy, iw, ih)) = intersect(region, (px, py, pw, ph)) else {
            continue;
        };
        // Offsets are non-negative and inside both images by construction.
        let to_usize = |v: i64| usize::try_from(v).unwrap_or(0);
        let (iw, ih) = (to_usize(iw), to_usize(ih));
        let (sx, sy) = (to_usize(ix - px), to_usize(iy - py));
        let (dx, dy) = (to_usize(ix - rx), to_usize(iy - ry));
        if sx + iw > image.width || sy + ih > image.height {
            continue;
        }
        for row in 0..ih {
            let s = ((sy + row) * image.width + sx) * 3;
            let d = ((dy + row) * width + dx) * 3;
            rgb[d..d + iw * 3].copy_from_slice(&image.rgb[s..s + iw * 3]);
        }
    }
    Ok(Frame {
        rgb,
        width: u32::try_from(width).map_err(|_| too_large())?,
        height: u32::try_from(height).map_err(|_| too_large())?,
        x: rx,
        y: ry,
    })
}

/// A capture under way: one output's piece of the region.
struct Pending {
    output: Output,
    /// The piece in layout coordinates.
    rect: LayoutRect,
    frame: zwlr_screencopy_frame_v1::ZwlrScreencopyFrameV1,
    progress: Arc<Mutex<Progress>>,
    buffer: Option<(File, wl_buffer::WlBuffer, BufferInfo)>,
}

impl Pending {
    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.frame.destroy();
        if let Some((_, buffer, _)) = &self.buffer {
            buffer.destroy();
        }
    }
}

impl Shooter {
    fn open(socket: &Path, timeout: Duration) -> Result<Shooter, WaylandError> {
        let client = Client::connect(socket, timeout)?;
        let globals = client.globals();
        let interface = zwlr_screencopy_manager_v1::ZwlrScreencopyManagerV1::interface().name;
        if !globals.has(interface) {
            return Err(unsupported(&format!("{interface} (screenshots)"), globals));
        }
        let manager = client.bind(3)?;
        let shm = client.bind(1)?;
        Ok(Shooter {
            client,
            manager,
            shm,
        })
    }

    fn capture(&mut self, region: Option<(i64, i64, u64, u64)>) -> Result<Frame, WaylandError> {
        self.client.roundtrip("reading the outputs")?;
        let outputs = self.client.outputs();
        let layout = layout_box(&outputs).ok_or_else(|| {
            WaylandError::Capture("the compositor reports no outputs (is one enabled?)".to_owned())
        })?;
        let region = match region {
            None => layout,
            Some((x, y, w, h)) => {
                let w = i64::try_from(w).unwrap_or(i64::MAX);
                let h = i64::try_from(h).unwrap_or(i64::MAX);
                if w == 0 || h == 0 {
                    return Err(WaylandError::Invalid(
                        "the region to capture is empty: give it a width and height".to_owned(),
                    ));
                }
                (x, y, w, h)
            }
        };
        let pixels = u64::try_from(region.2)
            .unwrap_or(u64::MAX)
            .saturating_mul(u64::try_from(region.3).unwrap_or(u64::MAX));
        if pixels > MAX_PIXELS {
            return Err(WaylandError::Invalid(format!(
                "the region {}x{} is too large to capture: capture a smaller part",
                region.2, region.3
            )));
        }

        let mut pending = Vec::new();
        for output in outputs {
            let Some(rect) = intersect(region, output.rect()) else {
                continue;
            };
            let (x, y, w, h) = rect;
            let local = [x - i64::from(output.x), y - i64::from(output.y), w, h]
                .map(|v| i32::try_from(v).unwrap_or(i32::MAX));
            let progress = Arc::new(Mutex::new(Progress::default()));
            let frame = self.manager.capture_output_region(
                0,
                &output.proxy,
                local[0],
                local[1],
                local[2],
                local[3],
                self.client.qh(),
                Arc::clone(&progress),
            );
            pending.push(Pending {
                output,
                rect,
                frame,
                progress,
                buffer: None,
            });
        }
        if pending.is_empty() {
            let (x, y, w, h) = region;
            let (bx, by, bw, bh) = layout;
            return Err(WaylandError::Invalid(format!(
                "the region {w}x{h} at ({x}, {y}) is on no output (the layout spans {bw}x{bh} \
                 at ({bx}, {by})): capture a part of the screen"
            )));
        }

        // The buffer parameters (version 3 lists them all, then
        // `buffer_done`).
        let wants_done = self.manager.version() >= 3;
        let deadline = Instant::now() + self.client.timeout();
        let progresses: Vec<_> = pending.iter().map(|p| Arc::clone(&p.progress)).collect();
        self.client.dispatch_until(
            "waiting for the screencopy buffer parameters",
            deadline,
            |_| {
                progresses.iter().all(|p| {
                    let p = p.lock().unwrap_or_else(PoisonError::into_inner);
                    p.failed
                        || if wants_done {
                            p.buffer_done
                        } else {
                            p.buffer.is_some()
                        }
                })
            },
        )?;

        for p in &mut pending {
            let (info, failed) = {
                let progress = p.progress();
                (progress.buffer, progress.failed)
            };
            if failed {
                return Err(failed_error(&p.output));
            }
            let Some(info) = info else {
                return Err(unsupported(
                    &format!(
                        "screencopy into shared-memory buffers on output {}",
                        p.output.name
                    ),
                    self.client.globals(),
                ));
            };
            if PixelFormat::of(info.format).is_none() {
                return Err(WaylandError::Unsupported(format!(
                    "unsupported: screencopy pixel format {} of output {} (cup reads \
                     XRGB8888, ARGB8888, XBGR8888 and ABGR8888)",
                    format_name(info.format),
                    p.output.name
                )));
            }
            let size = u64::from(info.stride) * u64::from(info.height);
            let width_ok = u64::from(info.stride) >= u64::from(info.width) * 4;
            let size_i32 = i32::try_from(size).ok().filter(|_| width_ok && size > 0);
            let (Some(size_i32), Ok(width), Ok(height), Ok(stride)) = (
                size_i32,
                i32::try_from(info.width),
                i32::try_from(info.height),
                i32::try_from(info.stride),
            ) else {
                return Err(WaylandError::Capture(format!(
                    "output {} asked for an impossible buffer ({}x{}, stride {}); retry",
                    p.output.name, info.width, info.height, info.stride
                )));
            };
            let file = memfd("cup-screencopy")?;
            file.set_len(size).map_err(|source| WaylandError::Io {
                what: "sizing the screenshot buffer",
                source,
            })?;
            let pool = self
                .shm
                .create_pool(file.as_fd(), size_i32, self.client.qh(), ());
            let format = match info.format {
                WEnum::Value(f) => f,
                WEnum::Unknown(_) => wl_shm::Format::Xrgb8888,
            };
            let buffer = pool.create_buffer(0, width, height, stride, format, self.client.qh(), ());
            pool.destroy();
            p.frame.copy(&buffer);
            p.buffer = Some((file, buffer, info));
        }

        let deadline = Instant::now() + self.client.timeout();
        self.client
            .dispatch_until("waiting for the screenshot", deadline, |_| {
                progresses.iter().all(|p| {
                    let p = p.lock().unwrap_or_else(PoisonError::into_inner);
                    p.ready || p.failed
                })
            })?;

        let mut pieces = Vec::with_capacity(pending.len());
        for p in &pending {
            let (y_invert, failed) = {
                let progress = p.progress();
                (progress.y_invert, progress.failed)
            };
            if failed {
                return Err(failed_error(&p.output));
            }
            let Some((file, _, info)) = &p.buffer else {
                continue;
            };
            let to_usize = |v: u32| usize::try_from(v).unwrap_or(usize::MAX);
            let (width, height, stride) = (
                to_usize(info.width),
                to_usize(info.height),
                to_usize(info.stride),
            );
            let mut data = vec![0u8; stride * height];
            file.read_exact_at(&mut data, 0)
                .map_err(|source| WaylandError::Io {
                    what: "reading the screenshot buffer",
                    source,
                })?;
            let format = PixelFormat::of(info.format).unwrap_or(PixelFormat::Bgrx);
            let image = to_rgb(&data, format, width, height, stride, y_invert)?;
            let image = upright(image, p.output.transform);
            let (_, _, w, h) = p.rect;
            let image = resample(
                &image,
                usize::try_from(w).unwrap_or(0),
                usize::try_from(h).unwrap_or(0),
            );
            pieces.push((p.rect, image));
        }
        drop(pending);
        let frame = compose(region, &pieces);
        self.client.flush("releasing the screenshot buffers")?;
        frame
    }
}

/// The error of a frame the compositor could not copy.
fn failed_error(output: &Output) -> WaylandError {
    WaylandError::Capture(format!(
        "the compositor could not copy output {} (is it disabled or powered off? retry)",
        output.name
    ))
}

/// A readable name of a `wl_shm` format.
fn format_name(format: WEnum<wl_shm::Format>) -> String {
    match format {
        WEnum::Value(f) => format!("{f:?}").to_uppercase(),
        WEnum::Unknown(code) => {
            let bytes = code.to_le_bytes();
            if bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
                format!("'{}'", String::from_utf8_lossy(&bytes).trim_end())
            } else {
                format!("{code:#x}")
            }
        }
    }
}

impl Dispatch<zwlr_screencopy_frame_v1::ZwlrScreencopyFrameV1, Arc<Mutex<Progress>>> for State {
    fn event(
        _: &mut Self,
        _: &zwlr_screencopy_frame_v1::ZwlrScreencopyFrameV1,
        event: zwlr_screencopy_frame_v1::Event,
        progress: &Arc<Mutex<Progress>>,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let mut p = progress.lock().unwrap_or_else(PoisonError::into_inner);
        match event {
            zwlr_screencopy_frame_v1::Event::Buffer {
                format,
                width,
                height,
                stride,
            } => {
                p.buffer = Some(BufferInfo {
                    format,
                    width,
                    height,
                    stride,
                });
            }
            zwlr_screencopy_frame_v1::Event::BufferDone => p.buffer_done = true,
            zwlr_screencopy_frame_v1::Event::Flags { flags } => {
                p.y_invert = match flags {
                    WEnum::Value(f) => f.contains(zwlr_screencopy_frame_v1::Flags::YInvert),
                    WEnum::Unknown(f) => f & 1 != 0,
                };
            }
            zwlr_screencopy_frame_v1::Event::Ready { .. } => p.ready = true,
            zwlr_screencopy_frame_v1::Event::Failed => p.failed = true,
            _ => {}
        }
    }
}

super::client::ignore_events!(
    zwlr_screencopy_manager_v1::ZwlrScreencopyManagerV1,
    wl_shm_pool::WlShmPool,
    wl_buffer::WlBuffer,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` x `h` image whose pixel (x, y) is `[x, y, 7]`.
    fn coords(w: usize, h: usize) -> Image {
        let mut rgb = Vec::new();
        for y in 0..h {
            for x in 0..w {
                rgb.extend_from_slice(&[x as u8, y as u8, 7]);
            }
        }
        Image {
            width: w,
            height: h,
            rgb,
        }
    }

    fn pixel(image: &Image, x: usize, y: usize) -> [u8; 3] {
        let i = (y * image.width + x) * 3;
        [image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]]
    }

    #[test]
    fn formats() {
        use wl_shm::Format as F;
        assert_eq!(
            PixelFormat::of(WEnum::Value(F::Xrgb8888)),
            Some(PixelFormat::Bgrx)
        );
        assert_eq!(
            PixelFormat::of(WEnum::Value(F::Argb8888)),
            Some(PixelFormat::Bgrx)
        );
        assert_eq!(
            PixelFormat::of(WEnum::Value(F::Xbgr8888)),
            Some(PixelFormat::Rgbx)
        );
        assert_eq!(
            PixelFormat::of(WEnum::Value(F::Abgr8888)),
            Some(PixelFormat::Rgbx)
        );
        assert_eq!(PixelFormat::of(WEnum::Value(F::Xrgb2101010)), None);
        assert_eq!(PixelFormat::of(WEnum::Unknown(0x1234)), None);
        assert_eq!(format_name(WEnum::Value(F::Xrgb2101010)), "XRGB2101010");
        assert_eq!(
            format_name(WEnum::Unknown(u32::from_le_bytes(*b"NV12"))),
            "'NV12'"
        );
        assert_eq!(format_name(WEnum::Unknown(3)), "0x3");
    }

    #[test]
    fn buffers_to_rgb() {
        // 2x2, stride 12 (4 bytes of padding a row).
        let data = [
            1, 2, 3, 0xff, 4, 5, 6, 0xff, 0, 0, 0, 0, //
            7, 8, 9, 0xff, 10, 11, 12, 0xff, 0, 0, 0, 0,
        ];
        let bgrx = to_rgb(&data, PixelFormat::Bgrx, 2, 2, 12, false).ok();
        assert_eq!(
            bgrx.map(|i| i.rgb),
            Some(vec![3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10])
        );
        let rgbx = to_rgb(&data, PixelFormat::Rgbx, 2, 2, 12, false).ok();
        assert_eq!(
            rgbx.map(|i| i.rgb),
            Some(vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        );
        // y_invert: the last row first.
        let inverted = to_rgb(&data, PixelFormat::Rgbx, 2, 2, 12, true).ok();
        assert_eq!(
            inverted.map(|i| i.rgb),
            Some(vec![7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6])
        );
        // The last row may end at its pixels (no trailing padding).
        assert!(to_rgb(&data[..20], PixelFormat::Rgbx, 2, 2, 12, false).is_ok());
        assert!(to_rgb(&data[..19], PixelFormat::Rgbx, 2, 2, 12, false).is_err());
        assert!(to_rgb(&data, PixelFormat::Rgbx, 4, 2, 12, false).is_err());
    }

    #[test]
    fn transforms_turn_the_buffer_upright() {
        let image = coords(3, 2);
        assert_eq!(upright(image.clone(), 0), image);
        // 90° clockwise: the bottom-left pixel becomes the top-left, the
        // top-left the top-right.
        let r90 = upright(image.clone(), 1);
        assert_eq!((r90.width, r90.height), (2, 3));
        assert_eq!(pixel(&r90, 0, 0), [0, 1, 7]);
        assert_eq!(pixel(&r90, 1, 0), [0, 0, 7]);
        assert_eq!(pixel(&r90, 0, 2), [2, 1, 7]);
        let r180 = upright(image.clone(), 2);
        assert_eq!((r180.width, r180.height), (3, 2));
        assert_eq!(pixel(&r180, 0, 0), [2, 1, 7]);
        assert_eq!(pixel(&r180, 2, 1), [0, 0, 7]);
        // 270° clockwise: the top-right pixel becomes the top-left.
        let r270 = upright(image.clone(), 3);
        assert_eq!((r270.width, r270.height), (2, 3));
        assert_eq!(pixel(&r270, 0, 0), [2, 0, 7]);
        assert_eq!(pixel(&r270, 1, 2), [0, 1, 7]);
        // Four quarter turns are the identity.
        let turned = (0..4).fold(image.clone(), |i, _| upright(i, 1));
        assert_eq!(turned, image);
        // Flipped: mirrored left to right.
        let flipped = upright(image.clone(), 4);
        assert_eq!(pixel(&flipped, 0, 0), [2, 0, 7]);
        assert_eq!(pixel(&flipped, 2, 1), [0, 1, 7]);
        assert_eq!(upright(flipped, 4), image);
        // Flipped 90: turned clockwise, then mirrored.
        let f90 = upright(image.clone(), 5);
        let mirrored_r90 = upright(upright(image.clone(), 1), 4);
        assert_eq!(f90, mirrored_r90);
        assert_eq!(pixel(&f90, 0, 0), [0, 0, 7]);
        let f270 = upright(image.clone(), 7);
        assert_eq!(f270, upright(upright(image, 3), 4));
    }

    #[test]
    fn downscaling_averages() {
        // 4x2 at scale 2 -> 2x1.
        let image = Image {
            width: 4,
            height: 2,
            rgb: vec![
                0, 0, 0, 100, 100, 100, 10, 20, 30, 10, 20, 30, //
                200, 200, 200, 100, 100, 101, 10, 20, 30, 10, 20, 30,
            ],
        };
        let half = resample(&image, 2, 1);
        assert_eq!(half.rgb, vec![100, 100, 100, 10, 20, 30]);
        assert_eq!(resample(&image, 4, 2), image);
        // Fractional (1.5): 3x3 -> 2x2, every source pixel used.
        let odd = coords(3, 3);
        let small = resample(&odd, 2, 2);
        assert_eq!((small.width, small.height), (2, 2));
        assert_eq!(pixel(&small, 0, 0), [1, 1, 7]); // avg of x 0..2, y 0..2
        assert_eq!(pixel(&small, 1, 1), [2, 2, 7]); // avg of x 1..3 -> 1.5 rounds up
                                                    // Upscaling picks the nearest pixel.
        let big = resample(&coords(2, 1), 4, 1);
        assert_eq!(big.rgb, vec![0, 0, 7, 0, 0, 7, 1, 0, 7, 1, 0, 7]);
    }

    #[test]
    fn composition_of_outputs() {
        // Two outputs side by side, the right one lower; a region across
        // both and the gap under the left one.
        let left = Image {
            width: 2,
            height: 2,
            rgb: vec![10; 12],
        };
        let right = Image {
            width: 2,
            height: 3,
            rgb: vec![20; 18],
        };
        let frame = compose((1, 0, 3, 3), &[((0, 0, 2, 2), left), ((2, 0, 2, 3), right)]);
        let frame = frame.ok();
        let frame = frame.as_ref();
        assert_eq!(
            frame.map(|f| (f.width, f.height, f.x, f.y)),
            Some((3, 3, 1, 0))
        );
        let rows: Vec<Vec<u8>> = frame
            .map(|f| {
                f.rgb
                    .chunks(9)
                    .map(|r| r.iter().step_by(3).copied().collect())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            rows,
            vec![vec![10, 20, 20], vec![10, 20, 20], vec![0, 20, 20]]
        );
    }

    #[test]
    fn composition_of_a_piece_inside_the_region() {
        let piece = coords(2, 2);
        let frame = compose((-1, -1, 4, 4), &[((0, 0, 2, 2), piece)]).ok();
        let rgb = frame.map(|f| f.rgb).unwrap_or_default();
        let at = |x: usize, y: usize| {
            let i = (y * 4 + x) * 3;
            [rgb[i], rgb[i + 1], rgb[i + 2]]
        };
        assert_eq!(at(0, 0), [0, 0, 0]);
        assert_eq!(at(1, 1), [0, 0, 7]);
        assert_eq!(at(2, 2), [1, 1, 7]);
        assert_eq!(at(3, 3), [0, 0, 0]);
    }
}
