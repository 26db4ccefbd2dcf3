//! What Tesseract found, made into the lines cup shows: back in the
//! image's coordinates, without the empty, the unsure and the lines that
//! are only a frame's strokes, top to bottom then left to right.

/// A line as the engine gives it, in the prepared (scaled) image's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct RawLine {
    /// Its text (Tesseract ends it with a newline).
    pub text: String,
    /// Confidence, 0-100.
    pub confidence: f32,
    /// Left, top, right, bottom.
    pub bbox: (i32, i32, i32, i32),
}

/// A line of text read from pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrLine {
    /// The words, joined by single spaces.
    pub text: String,
    /// Where it is in the image: x, y, width, height.
    pub bounds: (i64, i64, u64, u64),
    /// Tesseract's confidence, 0-100.
    pub confidence: f32,
}

/// Lines below this confidence are dropped: at UI sizes they are nearly
/// always a control's outline or an icon read as letters.
pub const MIN_CONFIDENCE: f32 = 45.0;

/// Whether a word is only a frame's stroke read as text (a button's
/// border beside its label: `Place order |`).
fn is_stroke(word: &str) -> bool {
    word.chars().all(|c| "|[]{}_—–=~¦".contains(c))
}

/// The words of `text` without the strokes at its ends.
fn words(text: &str) -> String {
    let mut w: Vec<&str> = text.split_whitespace().collect();
    while w.first().is_some_and(|f| is_stroke(f)) {
        w.remove(0);
    }
    while w.last().is_some_and(|l| is_stroke(l)) {
        w.pop();
    }
    w.join(" ")
}

/// Whether `text` has something to read: a letter or a digit.
fn readable(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric)
}

/// `raw` (from an image scaled by `scale`) as lines in the image's
/// coordinates, in reading order.
pub fn assemble(raw: &[RawLine], scale: usize) -> Vec<OcrLine> {
    let k = i64::try_from(scale.max(1)).unwrap_or(1);
    let mut out: Vec<OcrLine> = raw
        .iter()
        .filter(|l| l.confidence >= MIN_CONFIDENCE)
        .filter_map(|l| {
            let text = words(&l.text);
            if !readable(&text) {
                return None;
            }
            let (x0, y0, x1, y1) = l.bbox;
            let (x0, y0) = (i64::from(x0) / k, i64::from(y0) / k);
            let (x1, y1) = ((i64::from(x1) + k - 1) / k, (i64::from(y1) + k - 1) / k);
            let w = u64::try_from(x1 - x0).ok().filter(|w| *w > 0)?;
            let h = u64::try_from(y1 - y0).ok().filter(|h| *h > 0)?;
            Some(OcrLine {
                text,
                bounds: (x0, y0, w, h),
                confidence: l.confidence,
            })
        })
        .collect();
    // Reading order: by row (lines whose middles are within half a line
    // of each other share one), then left to right.
    out.sort_by_key(|l| {
        (
            l.bounds.1 + i64::try_from(l.bounds.3 / 2).unwrap_or(0),
            l.bounds.0,
        )
    });
    let mut rows: Vec<Vec<OcrLine>> = Vec::new();
    for l in out {
        let mid = l.bounds.1 + i64::try_from(l.bounds.3 / 2).unwrap_or(0);
        match rows.last_mut() {
            Some(row)
                if row.first().is_some_and(|f| {
                    let fm = f.bounds.1 + i64::try_from(f.bounds.3 / 2).unwrap_or(0);
                    (mid - fm).unsigned_abs() * 2 <= f.bounds.3.max(l.bounds.3)
                }) =>
            {
                row.push(l);
            }
            _ => rows.push(vec![l]),
        }
    }
    rows.into_iter()
        .flat_map(|mut row| {
            row.sort_by_key(|l| l.bounds.0);
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str, confidence: f32, bbox: (i32, i32, i32, i32)) -> RawLine {
        RawLine {
            text: text.into(),
            confidence,
            bbox,
        }
    }

    #[test]
    fn lines_come_back_in_the_images_coordinates_in_reading_order() {
        let found = assemble(
            &[
                raw("Cancel\n", 91.0, (600, 300, 690, 330)),
                raw("[ Name:  Ada\n", 88.0, (30, 90, 240, 120)),
                raw("OK |\n", 93.0, (300, 303, 350, 333)),
                raw("|  —\n", 70.0, (0, 0, 20, 600)),
                raw("blurred\n", 20.0, (0, 400, 100, 430)),
            ],
            3,
        );
        let texts: Vec<&str> = found.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["Name: Ada", "OK", "Cancel"]);
        assert_eq!(found[0].bounds, (10, 30, 70, 10));
        assert_eq!(found[1].bounds, (100, 101, 17, 10));
    }
}
