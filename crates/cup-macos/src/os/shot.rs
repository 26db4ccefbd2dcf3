//! Screenshots through ScreenCaptureKit (`SCScreenshotManager`, macOS 14
//! and later): a part of one display in its points at a given pixel size,
//! or one window on its own (desktop-independent, so windows in front of
//! it do not show). The completion handlers run on ScreenCaptureKit's
//! queue; this thread waits for them within a deadline.

use std::sync::mpsc;
use std::time::Duration;

use block2::RcBlock;
use objc2::rc::Retained;
use objc2::runtime::AnyClass;
use objc2::AllocAnyThread;
use objc2_core_foundation::{CGPoint, CGRect, CGSize};
use objc2_core_graphics::{CGDataProvider, CGImage, CGMainDisplayID};
use objc2_foundation::{NSArray, NSError};
use objc2_screen_capture_kit::{
    SCContentFilter, SCScreenshotManager, SCShareableContent, SCStreamConfiguration,
};

use crate::facts::PointRect;
use crate::shot::{order_of, to_bgra, Pixels};

/// `kCVPixelFormatType_32BGRA`.
const BGRA: u32 = u32::from_be_bytes(*b"BGRA");

/// What to capture.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A part of a display: its `CGDirectDisplayID`, the part in the
    /// display's own points, the size in pixels.
    Display {
        /// `CGDirectDisplayID`.
        id: u32,
        /// The part, in the display's points.
        rect: PointRect,
        /// Pixels.
        width: u32,
        /// Pixels.
        height: u32,
    },
    /// One window (`kCGWindowNumber`) at a size in pixels.
    Window {
        /// `kCGWindowNumber`.
        number: u32,
        /// Pixels.
        width: u32,
        /// Pixels.
        height: u32,
    },
}

/// What cup tells a user without the Screen Recording permission.
pub const DENIED: &str = "cup may not record the screen: System Settings > Privacy & Security > Screen & System Audio Recording, allow the app that runs cup (your terminal or IDE), then restart that app";

fn error_text(e: *mut NSError) -> String {
    // SAFETY: ScreenCaptureKit passes a live NSError or null.
    match unsafe { e.as_ref() } {
        Some(e) => {
            let text = e.localizedDescription().to_string();
            if e.code() == -3801 {
                format!("{text} ({DENIED})")
            } else {
                format!("{text} (ScreenCaptureKit error {})", e.code())
            }
        }
        None => "ScreenCaptureKit answered nothing".into(),
    }
}

fn pixels_of(image: &CGImage) -> Result<Pixels, String> {
    let img = Some(image);
    if CGImage::bits_per_pixel(img) != 32 {
        return Err(format!(
            "the screenshot has {} bits per pixel; cup reads 32",
            CGImage::bits_per_pixel(img)
        ));
    }
    let data = CGImage::data_provider(img)
        .and_then(|p| CGDataProvider::data(Some(&p)))
        .ok_or("the screenshot's pixels could not be read")?;
    to_bgra(
        &data.to_vec(),
        u32::try_from(CGImage::width(img)).unwrap_or(0),
        u32::try_from(CGImage::height(img)).unwrap_or(0),
        CGImage::bytes_per_row(img),
        order_of(CGImage::bitmap_info(img).0),
    )
}

/// Makes the filter and configuration of `source` from the shareable
/// content, and asks for the image; the answer goes to `tx`.
fn shoot(content: &SCShareableContent, source: &Source, tx: mpsc::Sender<Result<Pixels, String>>) {
    let fail = |tx: &mpsc::Sender<Result<Pixels, String>>, e: String| {
        let _ = tx.send(Err(e));
    };
    // SAFETY: plain ScreenCaptureKit calls on live objects from its own
    // completion handler; the filter's inputs come from `content`.
    let made: Result<(Retained<SCContentFilter>, Retained<SCStreamConfiguration>), String> = unsafe {
        let config = SCStreamConfiguration::new();
        config.setShowsCursor(false);
        config.setPixelFormat(BGRA);
        match source {
            Source::Display {
                id,
                rect,
                width,
                height,
            } => {
                let displays = content.displays();
                match displays.iter().find(|d| d.displayID() == *id) {
                    Some(d) => {
                        config.setSourceRect(CGRect {
                            origin: CGPoint {
                                x: rect.x,
                                y: rect.y,
                            },
                            size: CGSize {
                                width: rect.w,
                                height: rect.h,
                            },
                        });
                        config.setWidth(*width as usize);
                        config.setHeight(*height as usize);
                        let none = NSArray::new();
                        let filter = SCContentFilter::initWithDisplay_excludingWindows(
                            SCContentFilter::alloc(),
                            &d,
                            &none,
                        );
                        Ok((filter, config))
                    }
                    None => Err(format!("display {id} is gone; get_screen_size lists them")),
                }
            }
            Source::Window {
                number,
                width,
                height,
            } => {
                let windows = content.windows();
                match windows.iter().find(|w| w.windowID() == *number) {
                    Some(w) => {
                        config.setWidth(*width as usize);
                        config.setHeight(*height as usize);
                        let filter = SCContentFilter::initWithDesktopIndependentWindow(
                            SCContentFilter::alloc(),
                            &w,
                        );
                        Ok((filter, config))
                    }
                    None => Err(format!(
                        "window {number} is closed or on another Space; list windows again"
                    )),
                }
            }
        }
    };
    let (filter, config) = match made {
        Ok(m) => m,
        Err(e) => return fail(&tx, e),
    };
    let done = RcBlock::new(move |image: *mut CGImage, error: *mut NSError| {
        // SAFETY: ScreenCaptureKit passes a live image or null.
        let answer = match unsafe { image.as_ref() } {
            Some(img) => pixels_of(img),
            None => Err(error_text(error)),
        };
        let _ = tx.send(answer);
    });
    // SAFETY: live filter and configuration; the block is retained by
    // ScreenCaptureKit until it has run.
    unsafe {
        SCScreenshotManager::captureImageWithFilter_configuration_completionHandler(
            &filter,
            &config,
            Some(&done),
        );
    }
}

/// Captures `source` within `deadline`.
///
/// # Errors
///
/// macOS before 14, no Screen Recording permission, the display or window
/// is gone, or no answer in time.
pub fn capture(source: Source, deadline: Duration) -> Result<Pixels, String> {
    // ScreenCaptureKit's window filter calls into SkyLight, which asserts
    // that Core Graphics was set up in this process (CGS_REQUIRE_INIT): a
    // display call does that, whoever calls this first.
    let _ = CGMainDisplayID();
    if AnyClass::get(c"SCScreenshotManager").is_none() {
        return Err(
            "screenshots need macOS 14 or later (ScreenCaptureKit's SCScreenshotManager)".into(),
        );
    }
    let (tx, rx) = mpsc::channel();
    let handler = RcBlock::new(
        move |content: *mut SCShareableContent, error: *mut NSError| {
            // SAFETY: ScreenCaptureKit passes live content or null.
            match unsafe { content.as_ref() } {
                Some(c) => shoot(c, &source, tx.clone()),
                None => {
                    let _ = tx.send(Err(format!("{} ({DENIED})", error_text(error))));
                }
            }
        },
    );
    // SAFETY: the block is retained by ScreenCaptureKit until it has run.
    unsafe { SCShareableContent::getShareableContentWithCompletionHandler(&handler) };
    rx.recv_timeout(deadline).unwrap_or_else(|_| {
        Err(format!(
            "ScreenCaptureKit did not answer within {} s",
            deadline.as_secs()
        ))
    })
}
