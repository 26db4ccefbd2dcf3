//! X11 screenshots as PNG, pure Rust.
//!
//! A [`Grabber`] keeps one connection to the display. Each grab reads the
//! pixels of a rectangle of the root window with MIT-SHM when the server
//! offers it over a file descriptor (SHM 1.2: the segment is a file in
//! `/dev/shm`, read back with a plain `pread`, so no `unsafe` mapping is
//! needed), else with a core `GetImage`. The pixels are turned into RGB by
//! the masks of the root visual and encoded as PNG with the fast
//! (`fdeflate`) compressor.
//!
//! The blocking X11 work runs on a blocking thread under a deadline
//! ([`SHOT_TIMEOUT`]) so a hung X server cannot hang the process.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

pub use cup_linux_display::pixels::{Pixels, Png};
use cup_protocol::Rect;
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::shm::ConnectionExt as _;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, ImageOrder, Window};
use x11rb::rust_connection::RustConnection;

/// Deadline of one grab (pixels + PNG).
pub const SHOT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a screenshot failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShotError {
    /// No connection to the display.
    #[error("cannot open X11 display {display}: {reason}; start one with `cup sandbox start`")]
    Connect {
        /// The display name.
        display: String,
        /// What the connection said.
        reason: String,
    },
    /// The rectangle is empty or outside the screen.
    #[error("region {x},{y},{width},{height} is {why} (the screen is {screen_w}x{screen_h}); give x,y,w,h inside it")]
    Region {
        /// Requested left edge.
        x: i64,
        /// Requested top edge.
        y: i64,
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
        /// What is wrong with it.
        why: &'static str,
        /// Screen width.
        screen_w: u16,
        /// Screen height.
        screen_h: u16,
    },
    /// The root visual has a pixel layout this encoder does not read.
    #[error("unsupported X11 pixel format ({0}); run the display at depth 24 or 32")]
    Format(String),
    /// An X11 request failed.
    #[error("X11 {what} failed: {reason}")]
    X11 {
        /// The request.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
    /// The deadline passed.
    #[error("the X server did not deliver the screenshot within {0:?}")]
    Timeout(Duration),
}

fn x11_err(what: &'static str) -> impl FnOnce(Box<dyn std::fmt::Display>) -> ShotError {
    move |e| ShotError::X11 {
        what,
        reason: e.to_string(),
    }
}

macro_rules! x11 {
    ($what:expr, $e:expr) => {
        $e.map_err(|e| x11_err($what)(Box::new(e)))
    };
}

/// How pixels of the root visual are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelLayout {
    /// Bits per pixel of a ZPixmap of the root depth (24 or 32).
    pub bits_per_pixel: u8,
    /// Bytes of a pixel are least significant first.
    pub lsb_first: bool,
    /// Channel masks.
    pub red_mask: u32,
    /// Green mask.
    pub green_mask: u32,
    /// Blue mask.
    pub blue_mask: u32,
    /// Rows are padded to this many bits.
    pub scanline_pad: u8,
}

/// One channel: shift and width of its mask.
#[derive(Debug, Clone, Copy)]
struct Channel {
    shift: u32,
    bits: u32,
}

impl Channel {
    fn of(mask: u32) -> Result<Channel, ShotError> {
        if mask == 0 {
            return Err(ShotError::Format("a colour mask is empty".into()));
        }
        let shift = mask.trailing_zeros();
        let bits = (mask >> shift).trailing_ones();
        if bits > 8 || (mask >> shift) != (1 << bits) - 1 {
            return Err(ShotError::Format(format!("colour mask {mask:#x}")));
        }
        Ok(Channel { shift, bits })
    }

    fn read(self, pixel: u32) -> u8 {
        let v = (pixel >> self.shift) & ((1 << self.bits) - 1);
        // Scale to 8 bits (exact for 8-bit channels).
        ((v * 255 + ((1 << self.bits) - 1) / 2) / ((1 << self.bits) - 1)) as u8
    }
}

impl PixelLayout {
    /// Converts one ZPixmap image of `width` x `height` to RGB.
    pub fn to_rgb(&self, data: &[u8], width: u32, height: u32) -> Result<Vec<u8>, ShotError> {
        let bpp = u32::from(self.bits_per_pixel);
        if bpp != 24 && bpp != 32 {
            return Err(ShotError::Format(format!("{bpp} bits per pixel")));
        }
        let (w, h) = (width as usize, height as usize);
        let bytes_pp = (bpp / 8) as usize;
        let pad = usize::from(self.scanline_pad.max(8)) / 8;
        let stride = (w * bytes_pp).div_ceil(pad) * pad;
        if data.len() < stride * h.saturating_sub(1) + w * bytes_pp {
            return Err(ShotError::X11 {
                what: "GetImage",
                reason: format!(
                    "{} bytes for a {width}x{height} image of {bpp} bits per pixel",
                    data.len()
                ),
            });
        }
        let mut rgb = Vec::with_capacity(w * h * 3);
        let standard = bpp == 32
            && self.lsb_first
            && self.red_mask == 0x00ff_0000
            && self.green_mask == 0x0000_ff00
            && self.blue_mask == 0x0000_00ff;
        if standard {
            // The common case (BGRX in memory): no mask arithmetic.
            for row in data.chunks(stride).take(h) {
                for px in row[..w * 4].chunks_exact(4) {
                    rgb.extend_from_slice(&[px[2], px[1], px[0]]);
                }
            }
            return Ok(rgb);
        }
        let (r, g, b) = (
            Channel::of(self.red_mask)?,
            Channel::of(self.green_mask)?,
            Channel::of(self.blue_mask)?,
        );
        for row in data.chunks(stride).take(h) {
            for px in row[..w * bytes_pp].chunks_exact(bytes_pp) {
                let mut v = 0u32;
                for (i, byte) in px.iter().enumerate() {
                    let shift = if self.lsb_first {
                        8 * i
                    } else {
                        8 * (bytes_pp - 1 - i)
                    };
                    v |= u32::from(*byte) << shift;
                }
                rgb.extend_from_slice(&[r.read(v), g.read(v), b.read(v)]);
            }
        }
        Ok(rgb)
    }
}

/// Encodes RGB pixels as PNG (fast compression).
pub fn encode_png(pixels: &Pixels) -> Result<Png, ShotError> {
    cup_linux_display::pixels::encode_png(pixels).map_err(ShotError::Png)
}

/// Clips `r` to a `w` x `h` screen; an empty or outside rectangle is an
/// error.
pub fn clip_region(r: &Rect, w: u16, h: u16) -> Result<Rect, ShotError> {
    let err = |why| ShotError::Region {
        x: r.x,
        y: r.y,
        width: r.w,
        height: r.h,
        why,
        screen_w: w,
        screen_h: h,
    };
    if r.w == 0 || r.h == 0 {
        return Err(err("empty"));
    }
    let screen = Rect {
        x: 0,
        y: 0,
        w: u64::from(w),
        h: u64::from(h),
    };
    let c = r.intersect(&screen);
    if c.is_empty() {
        return Err(err("outside the screen"));
    }
    Ok(c)
}

/// A shared-memory segment attached to the server.
struct Segment {
    id: u32,
    file: File,
    size: usize,
}

/// The blocking side: one connection and, when possible, a segment.
struct Link {
    conn: RustConnection,
    root: Window,
    width: u16,
    height: u16,
    depth: u8,
    layout: PixelLayout,
    shm: Option<bool>,
    segment: Option<Segment>,
}

impl Link {
    fn connect(display: &str) -> Result<Link, ShotError> {
        let (conn, n) = crate::xauth::connect(display).map_err(|e| ShotError::Connect {
            display: display.to_owned(),
            reason: e.to_string(),
        })?;
        let setup = conn.setup();
        let screen = setup.roots.get(n).ok_or_else(|| ShotError::Connect {
            display: display.to_owned(),
            reason: format!("the server has no screen {n}"),
        })?;
        let depth = screen.root_depth;
        let visual = screen
            .allowed_depths
            .iter()
            .flat_map(|d| d.visuals.iter())
            .find(|v| v.visual_id == screen.root_visual)
            .ok_or_else(|| ShotError::Format("the root visual is not listed".into()))?;
        let format = setup
            .pixmap_formats
            .iter()
            .find(|f| f.depth == depth)
            .ok_or_else(|| ShotError::Format(format!("no pixmap format of depth {depth}")))?;
        let layout = PixelLayout {
            bits_per_pixel: format.bits_per_pixel,
            lsb_first: setup.image_byte_order == ImageOrder::LSB_FIRST,
            red_mask: visual.red_mask,
            green_mask: visual.green_mask,
            blue_mask: visual.blue_mask,
            scanline_pad: format.scanline_pad,
        };
        let (root, width, height) = (screen.root, screen.width_in_pixels, screen.height_in_pixels);
        Ok(Link {
            conn,
            root,
            width,
            height,
            depth,
            layout,
            shm: None,
            segment: None,
        })
    }

    /// Whether the server takes SHM segments as file descriptors.
    fn shm_usable(&mut self) -> bool {
        if let Some(ok) = self.shm {
            return ok;
        }
        let ok = self
            .conn
            .extension_information(x11rb::protocol::shm::X11_EXTENSION_NAME)
            .ok()
            .flatten()
            .is_some()
            && self
                .conn
                .shm_query_version()
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|v| (v.major_version, v.minor_version) >= (1, 2));
        self.shm = Some(ok);
        ok
    }

    /// The id of a segment of at least `size` bytes (made or grown on
    /// demand).
    fn segment(&mut self, size: usize) -> Result<u32, ShotError> {
        if let Some(s) = self.segment.as_ref().filter(|s| s.size >= size) {
            return Ok(s.id);
        }
        if let Some(old) = self.segment.take() {
            let _ = self.conn.shm_detach(old.id);
        }
        let file = shm_file(size)?;
        let fd =
            x11rb::utils::RawFdContainer::from(file.try_clone().map_err(|e| ShotError::X11 {
                what: "SHM segment",
                reason: e.to_string(),
            })?);
        let id = x11!("SHM segment id", self.conn.generate_id())?;
        x11!(
            "ShmAttachFd",
            x11!("ShmAttachFd", self.conn.shm_attach_fd(id, fd, false))?.check()
        )?;
        self.segment = Some(Segment { id, file, size });
        Ok(id)
    }

    fn grab(&mut self, r: &Rect) -> Result<Pixels, ShotError> {
        let r = clip_region(r, self.width, self.height)?;
        // Clipped to a u16 screen, so these fit.
        let (x, y, w, h) = (r.x as i16, r.y as i16, r.w as u16, r.h as u16);
        let data = if self.shm_usable() {
            match self.grab_shm(x, y, w, h) {
                Ok(d) => d,
                Err(e) => {
                    tracing::debug!("MIT-SHM grab failed ({e}); using GetImage");
                    self.shm = Some(false);
                    self.grab_core(x, y, w, h)?
                }
            }
        } else {
            self.grab_core(x, y, w, h)?
        };
        let rgb = self.layout.to_rgb(&data, u32::from(w), u32::from(h))?;
        Ok(Pixels {
            rgb,
            width: u32::from(w),
            height: u32::from(h),
            x: r.x,
            y: r.y,
        })
    }

    fn stride(&self, w: u16) -> usize {
        let bytes_pp = usize::from(self.layout.bits_per_pixel) / 8;
        let pad = usize::from(self.layout.scanline_pad.max(8)) / 8;
        (usize::from(w) * bytes_pp).div_ceil(pad) * pad
    }

    fn grab_shm(&mut self, x: i16, y: i16, w: u16, h: u16) -> Result<Vec<u8>, ShotError> {
        let size = self.stride(w) * usize::from(h);
        let root = self.root;
        let id = self.segment(size)?;
        let reply = x11!(
            "ShmGetImage",
            x11!(
                "ShmGetImage",
                self.conn.shm_get_image(
                    root,
                    x,
                    y,
                    w,
                    h,
                    !0,
                    u8::from(ImageFormat::Z_PIXMAP),
                    id,
                    0
                )
            )?
            .reply()
        )?;
        if reply.depth != self.depth {
            return Err(ShotError::Format(format!("image depth {}", reply.depth)));
        }
        let mut data = vec![0u8; size];
        let Some(segment) = &self.segment else {
            return Err(ShotError::X11 {
                what: "ShmGetImage",
                reason: "the segment is gone".into(),
            });
        };
        segment
            .file
            .read_exact_at(&mut data, 0)
            .map_err(|e| ShotError::X11 {
                what: "reading the SHM segment",
                reason: e.to_string(),
            })?;
        Ok(data)
    }

    fn grab_core(&self, x: i16, y: i16, w: u16, h: u16) -> Result<Vec<u8>, ShotError> {
        // Large images in horizontal bands, so no reply exceeds the
        // server's maximum request size on the way back either.
        let max = self.conn.maximum_request_bytes().max(1 << 16);
        let rows = (max / self.stride(w).max(1)).clamp(1, usize::from(h));
        let mut data = Vec::with_capacity(self.stride(w) * usize::from(h));
        let mut top = 0usize;
        let mut cookies = Vec::new();
        while top < usize::from(h) {
            let n = rows.min(usize::from(h) - top);
            cookies.push(x11!(
                "GetImage",
                self.conn.get_image(
                    ImageFormat::Z_PIXMAP,
                    self.root,
                    x,
                    y + top as i16,
                    w,
                    n as u16,
                    !0
                )
            )?);
            top += n;
        }
        for c in cookies {
            let reply = x11!("GetImage", c.reply())?;
            data.extend_from_slice(&reply.data);
        }
        Ok(data)
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(s) = self.segment.take() {
            let _ = self.conn.shm_detach(s.id);
            let _ = self.conn.flush();
        }
    }
}

/// An unlinked file in `/dev/shm` (else the temp dir) of `size` bytes.
fn shm_file(size: usize) -> Result<File, ShotError> {
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let err = |e: std::io::Error| ShotError::X11 {
        what: "SHM segment",
        reason: e.to_string(),
    };
    let mut last = None;
    for attempt in 0..8u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path = dir.join(format!(
            "cup-shot-{}-{nanos:x}-{attempt}",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => {
                let _ = std::fs::remove_file(&path);
                file.set_len(size as u64).map_err(err)?;
                return Ok(file);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(err(e)),
        }
    }
    Err(err(
        last.unwrap_or_else(|| std::io::Error::other("no free name"))
    ))
}

/// Screenshots of one display, over one kept connection.
#[derive(Clone)]
pub struct Grabber {
    link: Arc<Mutex<Link>>,
    width: u16,
    height: u16,
}

impl std::fmt::Debug for Grabber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grabber")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

/// How pixels travel from the X server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// A shared-memory segment (MIT-SHM `ShmGetImage`): one copy.
    Shm,
    /// The core protocol (`GetImage` in bands over the socket).
    Core,
}

impl Transport {
    /// The protocol's name, for logs and reports.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Shm => "MIT-SHM",
            Transport::Core => "GetImage",
        }
    }
}

impl Grabber {
    /// Connects to `display`; grabs use MIT-SHM when the server offers it
    /// (falling back to `GetImage` for good if it fails once).
    pub async fn open(display: &str) -> Result<Grabber, ShotError> {
        Grabber::open_with(display, true).await
    }

    /// Connects to `display`, with MIT-SHM allowed or not (a remote X
    /// server cannot map our memory: `use_shm = false` skips the attempt).
    pub async fn open_with(display: &str, use_shm: bool) -> Result<Grabber, ShotError> {
        let display = display.to_owned();
        let link = run(move || {
            let mut link = Link::connect(&display)?;
            if !use_shm {
                link.shm = Some(false);
            }
            Ok(link)
        })
        .await?;
        Ok(Grabber {
            width: link.width,
            height: link.height,
            link: Arc::new(Mutex::new(link)),
        })
    }

    /// The transport grabs use now (decided at the first grab: before it,
    /// the one that will be tried first).
    pub fn transport(&self) -> Transport {
        let link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        if link.shm == Some(false) {
            Transport::Core
        } else {
            Transport::Shm
        }
    }

    /// The screen size in pixels.
    pub fn size(&self) -> (u16, u16) {
        (self.width, self.height)
    }

    /// The whole screen.
    pub fn screen(&self) -> Rect {
        Rect {
            x: 0,
            y: 0,
            w: u64::from(self.width),
            h: u64::from(self.height),
        }
    }

    /// The pixels of `region` (clipped to the screen).
    pub async fn pixels(&self, region: Rect) -> Result<Pixels, ShotError> {
        let link = Arc::clone(&self.link);
        run(move || {
            let mut link = link.lock().unwrap_or_else(PoisonError::into_inner);
            link.grab(&region)
        })
        .await
    }

    /// A PNG of `region` (clipped to the screen).
    pub async fn png(&self, region: Rect) -> Result<Png, ShotError> {
        let link = Arc::clone(&self.link);
        run(move || {
            let pixels = {
                let mut link = link.lock().unwrap_or_else(PoisonError::into_inner);
                link.grab(&region)?
            };
            encode_png(&pixels)
        })
        .await
    }
}

async fn run<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ShotError> + Send + 'static,
) -> Result<T, ShotError> {
    match tokio::time::timeout(SHOT_TIMEOUT, tokio::task::spawn_blocking(f)).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => Err(ShotError::X11 {
            what: "screenshot thread",
            reason: e.to_string(),
        }),
        Err(_) => Err(ShotError::Timeout(SHOT_TIMEOUT)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(bpp: u8, lsb: bool) -> PixelLayout {
        PixelLayout {
            bits_per_pixel: bpp,
            lsb_first: lsb,
            red_mask: 0xff0000,
            green_mask: 0xff00,
            blue_mask: 0xff,
            scanline_pad: 32,
        }
    }

    #[test]
    fn bgrx_becomes_rgb() {
        let data = [3, 2, 1, 0, 30, 20, 10, 0];
        let rgb = layout(32, true).to_rgb(&data, 2, 1).expect("must work");
        assert_eq!(rgb, vec![1, 2, 3, 10, 20, 30]);
    }

    #[test]
    fn msb_first_and_24_bpp_with_padding() {
        // 24 bpp, 1 pixel a row, rows padded to 4 bytes.
        let data = [1, 2, 3, 0, 4, 5, 6, 0];
        let rgb = layout(24, false).to_rgb(&data, 1, 2).expect("must work");
        assert_eq!(rgb, vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn narrow_masks_are_scaled() {
        let l = PixelLayout {
            bits_per_pixel: 32,
            lsb_first: true,
            red_mask: 0x3ff0_0000,
            green_mask: 0x000f_fc00,
            blue_mask: 0x3ff,
            scanline_pad: 32,
        };
        // 10-bit masks are not read (more than 8 bits).
        assert!(l.to_rgb(&[0; 4], 1, 1).is_err());
        let l = PixelLayout {
            red_mask: 0xf800,
            green_mask: 0x07e0,
            blue_mask: 0x1f,
            ..l
        };
        let rgb = l.to_rgb(&[0xff, 0xff, 0, 0], 1, 1).expect("must work");
        assert_eq!(rgb, vec![255, 255, 255]);
    }

    #[test]
    fn short_data_is_an_error() {
        assert!(layout(32, true).to_rgb(&[0; 7], 2, 1).is_err());
    }

    #[test]
    fn regions_are_clipped_or_refused() {
        let r = |x, y, w, h| Rect { x, y, w, h };
        assert_eq!(
            clip_region(&r(1900, 1000, 100, 100), 1920, 1080).expect("must work"),
            r(1900, 1000, 20, 80)
        );
        let e = clip_region(&r(3000, 0, 10, 10), 1920, 1080).expect_err("must fail");
        assert!(e.to_string().contains("outside the screen"), "{e}");
        assert!(clip_region(&r(0, 0, 0, 10), 1920, 1080).is_err());
    }

    #[test]
    fn png_round_trips() {
        let pixels = Pixels {
            rgb: (0..(4 * 3 * 3)).map(|i| i as u8).collect(),
            width: 4,
            height: 3,
            x: 5,
            y: 6,
        };
        let png = encode_png(&pixels).expect("must work");
        let dec = png::Decoder::new(std::io::Cursor::new(png.bytes));
        let mut reader = dec.read_info().expect("must work");
        let mut buf = vec![0; reader.output_buffer_size().expect("must work")];
        let info = reader.next_frame(&mut buf).expect("must work");
        assert_eq!((info.width, info.height), (4, 3));
        assert_eq!(&buf[..info.buffer_size()], &pixels.rgb[..]);
    }
}
