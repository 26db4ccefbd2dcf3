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
pub fn poll_file<T>(path: &Path, judge: impl Fn(&[u8]) -> Result<T, String>) -> Result<T, String> {
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
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
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

/// One paragraph or heading of a flat ODF document (`.fodt`, `.fodp`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OdfBlock {
    /// `p` or `h`.
    pub kind: String,
    /// Its style's name (`Heading_20_1`, an automatic `P1`).
    pub style: String,
    /// Its text.
    pub text: String,
    /// Whether all its text is bold (by its style, or spans of bold
    /// styles).
    pub bold: bool,
}

const ODF_TEXT: &str = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
const ODF_STYLE: &str = "urn:oasis:names:tc:opendocument:xmlns:style:1.0";
const ODF_FO: &str = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0";

/// The text style of an ODF element ("" when it has none).
fn style_of<'a>(n: roxmltree::Node<'a, '_>) -> &'a str {
    n.attribute((ODF_TEXT, "style-name")).unwrap_or("")
}

/// The paragraphs and headings of a flat ODF file, in document order.
///
/// # Errors
///
/// The file is not XML.
pub fn odf_blocks(bytes: &[u8]) -> Result<Vec<OdfBlock>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("not XML: {e}"))?;
    let bold_styles: std::collections::HashSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name((ODF_STYLE, "style")))
        .filter(|n| {
            n.children().any(|c| {
                c.has_tag_name((ODF_STYLE, "text-properties"))
                    && c.attribute((ODF_FO, "font-weight")) == Some("bold")
            })
        })
        .filter_map(|n| n.attribute((ODF_STYLE, "name")))
        .collect();
    let blocks = doc
        .descendants()
        .filter(|n| n.has_tag_name((ODF_TEXT, "p")) || n.has_tag_name((ODF_TEXT, "h")))
        .map(|n| {
            let style = style_of(n);
            // Every piece of text is bold by the paragraph's style or a
            // span's.
            let pieces: Vec<(String, bool)> = n
                .descendants()
                .filter(|d| d.is_text())
                .map(|d| {
                    let bold = d
                        .ancestors()
                        .take_while(|a| *a != n)
                        .any(|a| bold_styles.contains(style_of(a)))
                        || bold_styles.contains(style);
                    (d.text().unwrap_or("").to_owned(), bold)
                })
                .collect();
            OdfBlock {
                kind: n.tag_name().name().to_owned(),
                style: style.to_owned(),
                text: pieces.iter().map(|(t, _)| t.as_str()).collect(),
                bold: !pieces.is_empty() && pieces.iter().all(|(t, b)| *b || t.trim().is_empty()),
            }
        })
        .collect();
    Ok(blocks)
}

const ODF_DRAW: &str = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0";
const ODF_PRESENTATION: &str = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0";

/// The title of each slide of a flat ODF presentation (`.fodp`), in
/// order, its white space collapsed ("" for a slide without a title).
///
/// # Errors
///
/// The file is not XML.
pub fn slide_titles(bytes: &[u8]) -> Result<Vec<String>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("not XML: {e}"))?;
    Ok(doc
        .descendants()
        .filter(|n| n.has_tag_name((ODF_DRAW, "page")))
        .map(|page| {
            let frames = || {
                page.children()
                    .filter(|f| f.has_tag_name((ODF_DRAW, "frame")))
            };
            // The title placeholder; else the first plain text frame (a
            // title frame LibreOffice did not take as a placeholder is
            // saved without its class).
            frames()
                .find(|f| f.attribute((ODF_PRESENTATION, "class")) == Some("title"))
                .or_else(|| frames().find(|f| f.attribute((ODF_PRESENTATION, "class")).is_none()))
                .map(|f| {
                    let text: String = f
                        .descendants()
                        .filter(|d| d.is_text())
                        .filter_map(|d| d.text())
                        .collect();
                    text.split_whitespace().collect::<Vec<_>>().join(" ")
                })
                .unwrap_or_default()
        })
        .collect())
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
    fn reads_flat_odf_blocks() {
        let fodt = r#"<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0">
<office:automatic-styles><style:style style:name="P1" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>
<office:body><office:text><text:h text:style-name="Heading_20_1">Title</text:h><text:p text:style-name="P1">All bold</text:p>
<text:p><text:span text:style-name="T1">Bold</text:span> and not</text:p><text:p><text:span text:style-name="T1">Span bold</text:span></text:p></office:text></office:body></office:document>"#;
        let blocks = super::odf_blocks(fodt.as_bytes()).unwrap_or_default();
        let seen: Vec<(&str, &str, bool)> = blocks
            .iter()
            .map(|b| (b.kind.as_str(), b.text.as_str(), b.bold))
            .collect();
        assert_eq!(
            seen,
            vec![
                ("h", "Title", false),
                ("p", "All bold", true),
                ("p", "Bold and not", false),
                ("p", "Span bold", true)
            ]
        );
        assert_eq!(blocks[0].style, "Heading_20_1");
    }

    #[test]
    fn reads_slide_titles() {
        let fodp = r#"<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:presentation>
<draw:page><draw:frame presentation:class="title"><draw:text-box><text:p>One</text:p></draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box><text:p>body</text:p></draw:text-box></draw:frame></draw:page>
<draw:page><draw:frame presentation:class="outline"/></draw:page>
<draw:page><draw:frame><draw:text-box><text:p>
  Plain  frame </text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document>"#;
        assert_eq!(
            super::slide_titles(fodp.as_bytes()),
            Ok(vec![
                "One".to_owned(),
                String::new(),
                "Plain frame".to_owned()
            ])
        );
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
