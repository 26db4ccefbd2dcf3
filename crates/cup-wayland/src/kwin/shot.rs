//! Screenshots on KWin through `org.kde.KWin.ScreenShot2.CaptureArea`:
//! KWin writes the raw image into a pipe cup passes, and answers with its
//! size, stride and `QImage` format. KWin serves it only to programs a
//! desktop file allows (`X-KDE-DBUS-Restricted-Interfaces`, which
//! `cup setup kde` writes). The pipe is read on its own thread while the
//! call is in flight (a large image would fill it first), all under a
//! deadline.

use std::collections::HashMap;
use std::io::Read as _;
use std::os::fd::OwnedFd;
use std::time::Duration;

use cup::AdapterError;
use zbus::zvariant::{Fd, OwnedValue};
use zbus::Connection;

/// Longest one capture may take: as long as a script exchange, for the
/// same reason (KWin's main thread hashing a new allowed client's
/// executable; see [`super::script::TIMEOUT`]).
pub const TIMEOUT: Duration = super::script::TIMEOUT;

const SERVICE: &str = "org.kde.KWin.ScreenShot2";
const PATH: &str = "/org/kde/KWin/ScreenShot2";
const INTERFACE: &str = "org.kde.KWin.ScreenShot2";

/// What KWin said of the image it wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bytes a row.
    pub stride: u32,
    /// The `QImage::Format` number.
    pub format: u32,
}

/// The image's meta data from KWin's answer.
///
/// # Errors
///
/// A field is missing, or the type is not `raw`.
pub fn meta_of(results: &HashMap<String, OwnedValue>) -> Result<Meta, AdapterError> {
    let number = |key: &str| -> Result<u32, AdapterError> {
        results
            .get(key)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                AdapterError::Platform(format!(
                    "KWin's screenshot answer has no {key}: report it with your Plasma version"
                ))
            })
    };
    if let Some(kind) = results.get("type").and_then(|v| <&str>::try_from(v).ok()) {
        if kind != "raw" {
            return Err(AdapterError::Platform(format!(
                "KWin sent a {kind} screenshot, not a raw one"
            )));
        }
    }
    Ok(Meta {
        width: number("width")?,
        height: number("height")?,
        stride: number("stride")?,
        format: number("format")?,
    })
}

/// RGB bytes (3 a pixel, rows top to bottom) of KWin's raw image `data`.
/// `QImage` formats 4 (RGB32), 5 (ARGB32) and 6 (ARGB32, premultiplied)
/// are 32-bit native-endian `0xAARRGGBB`: blue, green, red, alpha in
/// memory on little-endian machines.
///
/// # Errors
///
/// Another format, or fewer bytes than the size says.
pub fn to_rgb(meta: Meta, data: &[u8]) -> Result<Vec<u8>, AdapterError> {
    if !matches!(meta.format, 4..=6) {
        return Err(AdapterError::Platform(format!(
            "KWin sent a screenshot in QImage format {}, which cup does not read yet",
            meta.format
        )));
    }
    let (w, h, stride) = (
        meta.width as usize,
        meta.height as usize,
        meta.stride as usize,
    );
    if stride < w * 4 || data.len() < stride * h {
        return Err(AdapterError::Platform(format!(
            "KWin's screenshot is short: {} bytes for {w}x{h} (stride {stride})",
            data.len()
        )));
    }
    let mut rgb = Vec::with_capacity(w * h * 3);
    for row in data.chunks(stride).take(h) {
        for px in row[..w * 4].chunks_exact(4) {
            let v = u32::from_ne_bytes([px[0], px[1], px[2], px[3]]);
            let a = v >> 24;
            let (mut r, mut g, mut b) = ((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
            if meta.format == 6 && a > 0 && a < 255 {
                // Un-premultiply.
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
            }
            rgb.extend_from_slice(&[r.min(255) as u8, g.min(255) as u8, b.min(255) as u8]);
        }
    }
    Ok(rgb)
}

/// Captures the area `(x, y, width, height)` of the screen (layout
/// pixels), returning its meta data and RGB bytes.
///
/// # Errors
///
/// KWin refuses (not allowed: the one-line fix), does not answer in time,
/// or sends an image cup cannot read.
pub async fn capture_area(
    conn: &Connection,
    area: (i32, i32, u32, u32),
) -> Result<(Meta, Vec<u8>), AdapterError> {
    let (read_end, write_end) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|e| AdapterError::Platform(format!("cannot make a pipe: {e}")))?;
    let reader = std::thread::spawn(move || {
        let mut file = std::fs::File::from(read_end);
        let mut data = Vec::new();
        file.read_to_end(&mut data).map(|_| data)
    });
    let options: HashMap<&str, zbus::zvariant::Value<'_>> = HashMap::from([
        ("include-cursor", false.into()),
        ("native-resolution", false.into()),
    ]);
    let body = (
        area.0,
        area.1,
        area.2,
        area.3,
        options,
        Fd::from(&write_end),
    );
    let call = conn.call_method(Some(SERVICE), PATH, Some(INTERFACE), "CaptureArea", &body);
    let reply = tokio::time::timeout(TIMEOUT, call).await;
    drop(body);
    // Ours closes: KWin's copy ends the stream when it has written.
    drop::<OwnedFd>(write_end);
    let reply = reply
        .map_err(|_| AdapterError::Unavailable(format!(
            "KWin did not take the screenshot within {} s",
            TIMEOUT.as_secs()
        )))?
        .map_err(|e| {
            let text = e.to_string();
            if text.contains("AccessDenied") || text.contains("NoAuthorized") || text.contains("not authorized") {
                AdapterError::Unsupported(format!(
                    "unsupported: screenshots on KWin without the right to org.kde.KWin.ScreenShot2 ({text}): run `cup setup kde` as the desktop's user, then log out and in"
                ))
            } else {
                AdapterError::Platform(format!("KWin's screenshot failed: {text}"))
            }
        })?;
    let results: HashMap<String, OwnedValue> = reply
        .body()
        .deserialize()
        .map_err(|e| AdapterError::Platform(format!("KWin's screenshot answer: {e}")))?;
    let meta = meta_of(&results)?;
    let data = tokio::task::spawn_blocking(move || reader.join())
        .await
        .map_err(|e| AdapterError::Platform(format!("the screenshot reader failed: {e}")))?
        .map_err(|_| AdapterError::Platform("the screenshot reader panicked".into()))?
        .map_err(|e| AdapterError::Platform(format!("reading KWin's screenshot: {e}")))?;
    Ok((meta, to_rgb(meta, &data)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argb32_rows_become_rgb() {
        let meta = Meta {
            width: 2,
            height: 1,
            stride: 12,
            format: 5,
        };
        let mut data = Vec::new();
        data.extend_from_slice(&0xff10_2030_u32.to_ne_bytes());
        data.extend_from_slice(&0xff40_5060_u32.to_ne_bytes());
        data.extend_from_slice(&[0; 4]); // row padding
        assert_eq!(
            to_rgb(meta, &data).ok(),
            Some(vec![0x10, 0x20, 0x30, 0x40, 0x50, 0x60])
        );
        // Premultiplied half-transparent white is white.
        let pre = Meta {
            format: 6,
            stride: 4,
            width: 1,
            ..meta
        };
        let px = 0x8080_8080_u32.to_ne_bytes();
        assert_eq!(to_rgb(pre, &px).ok(), Some(vec![255, 255, 255]));
        // Short data and unknown formats are refused.
        assert!(to_rgb(meta, &data[..4]).is_err());
        assert!(to_rgb(Meta { format: 13, ..meta }, &data).is_err());
    }

    #[test]
    fn the_answer_gives_the_size() {
        let results: HashMap<String, OwnedValue> = HashMap::from([
            (
                "type".to_owned(),
                OwnedValue::try_from(zbus::zvariant::Value::from("raw")).expect("value"),
            ),
            ("width".to_owned(), OwnedValue::from(1280_u32)),
            ("height".to_owned(), OwnedValue::from(800_u32)),
            ("stride".to_owned(), OwnedValue::from(5120_u32)),
            ("format".to_owned(), OwnedValue::from(5_u32)),
        ]);
        assert_eq!(
            meta_of(&results).ok(),
            Some(Meta {
                width: 1280,
                height: 800,
                stride: 5120,
                format: 5
            })
        );
        let mut missing = results.clone();
        missing.remove("stride");
        assert!(meta_of(&missing).is_err());
    }
}
