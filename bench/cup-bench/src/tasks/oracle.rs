//! What the oracles read: files the apps wrote, waited for by their
//! content (an app writes a file after the action that asked for it
//! returns), never after a fixed sleep.

use std::path::Path;
use std::time::{Duration, Instant};

/// How long an oracle waits for an app's file to say what it should.
const FILE_DEADLINE: Duration = Duration::from_secs(20);

/// Reads `path` until `judge` accepts its content (or the file's state at
/// the deadline is judged); `judge`'s verdict.
///
/// # Errors
///
/// The last verdict, or why the file could not be read.
pub fn poll_file<T>(
    path: &Path,
    judge: impl Fn(&[u8]) -> Result<T, String>,
) -> Result<T, String> {
    let deadline = Instant::now() + FILE_DEADLINE;
    loop {
        let verdict = std::fs::read(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|bytes| judge(&bytes));
        if verdict.is_ok() || Instant::now() >= deadline {
            return verdict;
        }
        // The app is writing the file; look again soon.
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until `done` holds (a path appears or goes), up to the oracle's
/// deadline.
pub fn poll(done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + FILE_DEADLINE;
    while !done() {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    true
}

/// The rows of a CSV file LibreOffice wrote (comma-separated, quotes
/// around text with a comma only).
pub fn csv_rows(bytes: &[u8]) -> Vec<Vec<String>> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|line| {
            let mut cells = Vec::new();
            let mut cell = String::new();
            let mut quoted = false;
            for c in line.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => cells.push(std::mem::take(&mut cell)),
                    other => cell.push(other),
                }
            }
            cells.push(cell);
            cells
        })
        .collect()
}

/// The width and height in a PNG file's header.
pub fn png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return Err("not a PNG file".into());
    }
    let be = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Ok((be(16), be(20)))
}

/// A PNG of `w`x`h` grey pixels.
pub fn write_png(path: &Path, w: u32, h: u32) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let pixels = vec![128u8; (w * h * 3) as usize];
    writer
        .write_image_data(&pixels)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The value of `key=` in a settings file of `key=value` lines (VLC's
/// `vlcrc`), ignoring commented-out defaults.
pub fn setting(text: &str, key: &str) -> Option<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .map(|v| v.trim().to_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_csv_and_settings() {
        let rows = super::csv_rows(b"Item,Amount\n\"a, b\",3\n");
        assert_eq!(rows, vec![vec!["Item", "Amount"], vec!["a, b", "3"]]);
        let rc = "# one-instance=0\none-instance=1\n#loop=0\n";
        assert_eq!(super::setting(rc, "one-instance").as_deref(), Some("1"));
        assert_eq!(super::setting(rc, "loop"), None);
    }

    #[test]
    fn writes_and_reads_png_sizes() {
        let dir = std::env::temp_dir().join(format!("cup-oracle-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("x.png");
        assert_eq!(super::write_png(&path, 30, 20), Ok(()));
        let bytes = std::fs::read(&path).unwrap_or_default();
        assert_eq!(super::png_size(&bytes), Ok((30, 20)));
        assert!(super::png_size(b"nope").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
