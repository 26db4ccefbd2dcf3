//! Screenshots of a private desktop with gtk3-widget-factory: the whole
//! screen, a region, a monitor and a window, through MIT-SHM and through
//! core `GetImage`, decoded back from PNG and compared pixel by pixel.

use crate::support::Desk;
use cup::{Shot, ShotTarget};
use cup_linux::screenshot::{Grabber, Transport};
use cup_protocol::Rect;

/// A decoded RGB image.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// How many distinct colours the image holds (a blank or garbled grab
    /// has very few).
    fn colours(&self) -> usize {
        let mut seen: Vec<[u8; 3]> = self
            .rgb
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// The share of pixels of `self` equal to those of `other` at offset
    /// (`dx`, `dy`) in `other`.
    fn agreement(&self, other: &Image, dx: u32, dy: u32) -> f64 {
        let mut same = 0u64;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.pixel(x, y) == other.pixel(x + dx, y + dy) {
                    same += 1;
                }
            }
        }
        same as f64 / f64::from(self.width * self.height)
    }
}

/// Waits until the app has drawn its settled frame (focus rings fade in
/// after launch): grabs until two in a row differ in under 0.1% of the
/// pixels (the spinner keeps turning), for up to 10 s.
async fn settle(display: &str) {
    let grabber = Grabber::open(display)
        .await
        .unwrap_or_else(|e| panic!("grabber: {e}"));
    let start = std::time::Instant::now();
    let mut last: Option<Vec<u8>> = None;
    loop {
        let now = grabber
            .pixels(grabber.screen())
            .await
            .unwrap_or_else(|e| panic!("grab: {e}"))
            .rgb;
        if let Some(prev) = &last {
            let differ = prev
                .chunks_exact(3)
                .zip(now.chunks_exact(3))
                .filter(|(p, q)| p != q)
                .count();
            if differ * 1000 < now.len() / 3 {
                return;
            }
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "the screen kept changing for 10 s"
        );
        last = Some(now);
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
}

fn decode(png_bytes: &[u8]) -> Image {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder
        .read_info()
        .unwrap_or_else(|e| panic!("not a PNG: {e}"));
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader
        .next_frame(&mut buf)
        .unwrap_or_else(|e| panic!("bad PNG frame: {e}"));
    assert_eq!(info.color_type, png::ColorType::Rgb, "PNGs are RGB");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Image {
        width: info.width,
        height: info.height,
        rgb: buf,
    }
}

async fn shot(session: &mut cup::Session, target: ShotTarget) -> (Shot, Image) {
    let shot = session
        .screenshot(&target)
        .await
        .unwrap_or_else(|e| panic!("screenshot of {target:?}: {e}"));
    let image = decode(&shot.png);
    assert_eq!((image.width, image.height), (shot.width, shot.height));
    (shot, image)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screen_region_monitor_and_window() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    settle(desk.sandbox.display()).await;
    let mut session = desk.session();

    let (full, screen) = shot(&mut session, ShotTarget::Screen).await;
    assert_eq!(
        (full.width, full.height, full.x, full.y),
        (1920, 1080, 0, 0)
    );
    // A real window with text, icons and gradients, not a blank frame.
    assert!(
        screen.colours() > 50,
        "the screen has only {} colours",
        screen.colours()
    );

    let (monitor, _) = shot(&mut session, ShotTarget::Monitor(0)).await;
    assert_eq!((monitor.width, monitor.height), (1920, 1080));

    // A region is exactly that part of the screen.
    let region = Rect {
        x: 10,
        y: 20,
        w: 300,
        h: 200,
    };
    let (part, part_img) = shot(&mut session, ShotTarget::Region(region)).await;
    assert_eq!(
        (part.width, part.height, part.x, part.y),
        (300, 200, 10, 20)
    );
    let agree = part_img.agreement(&screen, 10, 20);
    assert!(agree > 0.98, "region agrees with the screen on {agree:.3}");

    // A region reaching past the edge is clipped to the screen.
    let edge = Rect {
        x: 1800,
        y: 1000,
        w: 500,
        h: 500,
    };
    let (clipped, _) = shot(&mut session, ShotTarget::Region(edge)).await;
    assert_eq!(
        (clipped.width, clipped.height, clipped.x, clipped.y),
        (120, 80, 1800, 1000)
    );

    // A region outside the screen is a clear error.
    let outside = Rect {
        x: 5000,
        y: 5000,
        w: 10,
        h: 10,
    };
    let err = session
        .screenshot(&ShotTarget::Region(outside))
        .await
        .err()
        .unwrap_or_else(|| panic!("a region outside the screen was captured"));
    assert!(err.to_string().contains("outside the screen"), "{err}");

    // A window by a part of its title: its frame, cut from the screen.
    let (win, win_img) = shot(&mut session, ShotTarget::Window("widget".into())).await;
    let windows = session
        .adapter()
        .windows()
        .await
        .unwrap_or_else(|e| panic!("windows: {e}"));
    let factory = windows
        .iter()
        .find(|w| w.info.title.contains("widget"))
        .unwrap_or_else(|| panic!("no widget factory window in {windows:?}"));
    let b = factory
        .info
        .bounds
        .unwrap_or_else(|| panic!("the window has no bounds"));
    assert_eq!(
        (win.x, win.y, u64::from(win.width), u64::from(win.height)),
        (b.x, b.y, b.w, b.h)
    );
    let (wx, wy) = (
        u32::try_from(win.x).unwrap_or(0),
        u32::try_from(win.y).unwrap_or(0),
    );
    let agree = win_img.agreement(&screen, wx, wy);
    // The spinner turns between the two grabs; everything else is still.
    assert!(agree > 0.98, "window agrees with the screen on {agree:.3}");

    // A window that is not there names the ones that are.
    let err = session
        .screenshot(&ShotTarget::Window("no such window".into()))
        .await
        .err()
        .unwrap_or_else(|| panic!("a missing window was captured"));
    assert!(err.to_string().contains("gtk3-widget-factory"), "{err}");

    // A monitor that does not exist is an error too.
    let err = session
        .screenshot(&ShotTarget::Monitor(7))
        .await
        .err()
        .unwrap_or_else(|| panic!("monitor 7 was captured"));
    assert!(err.to_string().contains("monitor 7"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_memory_and_core_protocol_agree() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let display = desk.sandbox.display().to_owned();
    settle(&display).await;

    let shm = Grabber::open(&display)
        .await
        .unwrap_or_else(|e| panic!("grabber: {e}"));
    let core = Grabber::open_with(&display, false)
        .await
        .unwrap_or_else(|e| panic!("grabber: {e}"));
    let screen = shm.screen();
    let a = shm
        .pixels(screen)
        .await
        .unwrap_or_else(|e| panic!("MIT-SHM grab: {e}"));
    let b = core
        .pixels(screen)
        .await
        .unwrap_or_else(|e| panic!("GetImage grab: {e}"));
    // Xvfb offers MIT-SHM; if the fast path failed it would have fallen
    // back silently, so check it held.
    assert_eq!(shm.transport(), Transport::Shm);
    assert_eq!(core.transport(), Transport::Core);
    assert_eq!((a.width, a.height), (1920, 1080));
    assert_eq!((b.width, b.height), (1920, 1080));
    let same = a
        .rgb
        .chunks_exact(3)
        .zip(b.rgb.chunks_exact(3))
        .filter(|(p, q)| p == q)
        .count();
    let share = same as f64 / f64::from(1920 * 1080);
    assert!(share > 0.99, "the two transports agree on {share:.4}");

    // A second, smaller grab reuses the segment and still reads the
    // screen (the still left part of the header bar), row by row.
    let (w, h) = (300usize, 40usize);
    let again = shm
        .pixels(Rect {
            x: 0,
            y: 0,
            w: w as u64,
            h: h as u64,
        })
        .await
        .unwrap_or_else(|e| panic!("second grab: {e}"));
    assert_eq!(again.rgb.len(), w * h * 3);
    for y in 0..h {
        let row = &again.rgb[y * w * 3..(y + 1) * w * 3];
        let full = &a.rgb[y * 1920 * 3..y * 1920 * 3 + w * 3];
        assert_eq!(row, full, "row {y} of the second grab");
    }
}
