//! Text read from pixels, for the windows and regions an app leaves
//! without an accessibility tree (a Tk program, a terminal, a canvas).
//!
//! Layout:
//! - [`image`]: the pixels given (RGBA rows) and their preparation for
//!   Tesseract (grey, light text on dark turned dark on light, upscaled so
//!   UI-sized text reaches the height Tesseract reads best);
//! - [`lines`]: what Tesseract found, back in the image's coordinates,
//!   filtered (empty, unsure and frame-drawing lines go) in reading order;
//! - [`cache`]: results by the pixels they came from, so an unchanged
//!   window costs a hash, not a recognition;
//! - [`install`]: where libtesseract is on Linux, Windows and macOS;
//! - `ffi` and `engine`: libtesseract's C API, loaded when the first
//!   reader starts, and the only module that calls it.
//!
//! [`Reader`] puts them together: `Reader::new()?.read(&image)`.

pub mod cache;
pub mod image;
pub mod install;
pub mod lines;

#[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
#[allow(unsafe_code)]
mod engine;
#[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
#[allow(unsafe_code)]
mod ffi;

pub use cache::Cache;
pub use image::{Gray, Rgba};
pub use lines::{OcrLine, RawLine};

/// The environment variable naming the languages a session reads:
/// Tesseract's codes joined by `+` (`deu+eng`, `chi_sim`); English when
/// unset. Each language needs its data (Debian: `tesseract-ocr-deu`).
pub const LANGUAGES_ENV: &str = "CUP_OCR_LANGUAGES";

/// The languages to read, from [`LANGUAGES_ENV`]'s value: English when
/// there is none; else Tesseract's codes (letters, digits, `_`) joined by
/// `+`, spaces around them ignored.
///
/// # Errors
///
/// [`OcrError::Unavailable`] naming the variable and what it takes.
pub fn languages(value: Option<&str>) -> Result<String, OcrError> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok("eng".to_owned());
    };
    let codes: Vec<&str> = value.split('+').map(str::trim).collect();
    if codes
        .iter()
        .any(|c| c.is_empty() || !c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_'))
    {
        return Err(OcrError::Unavailable(format!(
            "{LANGUAGES_ENV}={value:?} is not a list of languages: give Tesseract's codes joined by +, e.g. deu+eng"
        )));
    }
    Ok(codes.join("+"))
}

/// Why text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OcrError {
    /// Tesseract could not start (no language data, no library).
    #[error("OCR cannot start: {0}")]
    Unavailable(String),
    /// The pixels given do not make an image.
    #[error("OCR: {0}")]
    Image(String),
}

/// Reads text from images: one Tesseract engine (English, and the other
/// languages whose data is installed when asked) and a cache of results.
pub struct Reader {
    /// The languages the engines read.
    #[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
    languages: String,
    /// One engine, and a second one started when an image is large enough
    /// to be read in two bands side by side (on two cores or more).
    #[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
    engines: Vec<engine::Engine>,
    cache: Cache,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

impl Reader {
    /// A reader of English text.
    ///
    /// # Errors
    ///
    /// [`OcrError::Unavailable`] when Tesseract or its English data is not
    /// installed (the message says which package installs it).
    pub fn new() -> Result<Self, OcrError> {
        Self::with_languages("eng")
    }

    /// A reader of the languages [`LANGUAGES_ENV`] names (English when
    /// it is unset or empty).
    ///
    /// # Errors
    ///
    /// [`OcrError::Unavailable`] as [`Reader::new`], or when the variable
    /// does not hold language codes.
    pub fn from_env() -> Result<Self, OcrError> {
        let set = std::env::var(LANGUAGES_ENV).ok();
        Self::with_languages(&languages(set.as_deref())?)
    }

    /// A reader of `languages` (Tesseract's codes joined by `+`, e.g.
    /// `eng+deu`), each needing its data installed.
    ///
    /// # Errors
    ///
    /// [`OcrError::Unavailable`] as [`Reader::new`].
    pub fn with_languages(languages: &str) -> Result<Self, OcrError> {
        #[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
        {
            Ok(Reader {
                languages: languages.to_owned(),
                engines: vec![engine::Engine::start(languages)?],
                cache: Cache::new(cache::DEFAULT_ENTRIES),
            })
        }
        #[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "macos")))]
        {
            Err(OcrError::Unavailable(format!(
                "this build of cup reads text from pixels on Linux, Windows and macOS only (languages {languages})"
            )))
        }
    }

    /// The lines of text in `image`, in reading order, in the image's
    /// pixel coordinates. A second read of the same pixels is answered
    /// from the cache.
    ///
    /// # Errors
    ///
    /// [`OcrError::Image`] when the pixels do not make an image.
    pub fn read(&mut self, image: &Rgba<'_>) -> Result<Vec<OcrLine>, OcrError> {
        image.check()?;
        let key = cache::key(image);
        if let Some(hit) = self.cache.get(&key) {
            return Ok(hit);
        }
        let prepared = image::prepare(image);
        #[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
        let raw = self.recognize(&prepared);
        #[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "macos")))]
        let raw: Vec<RawLine> = Vec::new();
        let mut found = lines::assemble(&raw, prepared.scale);
        if found.is_empty() && prepared.scale == 1 {
            // Text that looked large enough to read as it is (a terminal's
            // small font under a tall cursor) but gave nothing: ×2.
            let larger = image::prepare_at(image, Some(2));
            #[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
            let raw = self.recognize(&larger);
            found = lines::assemble(&raw, larger.scale);
        }
        self.cache.put(key, found.clone());
        Ok(found)
    }

    /// Tesseract's lines in `prepared`: a large image is cut into bands at
    /// blank rows and the bands read side by side, one engine each (as
    /// many as the cores, at most two); lines come back in the whole
    /// image's pixels.
    #[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
    fn recognize(&mut self, prepared: &image::Prepared) -> Vec<RawLine> {
        // Tesseract's idea of the text's size: screen pixels at 96 dpi.
        let dpi = i32::try_from(96 * prepared.scale).unwrap_or(300);
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let bands = image::bands(&prepared.gray, cores.min(2));
        if bands.len() > 1 && self.engines.len() < bands.len() {
            match engine::Engine::start(&self.languages) {
                Ok(e) => self.engines.push(e),
                Err(e) => tracing::debug!("a second OCR engine did not start: {e}"),
            }
        }
        if bands.len() < 2 || self.engines.len() < bands.len() {
            return match self.engines.first_mut() {
                Some(e) => e.recognize(&prepared.gray, dpi),
                None => Vec::new(),
            };
        }
        let gray = &prepared.gray;
        std::thread::scope(|scope| {
            let running: Vec<_> = self
                .engines
                .iter_mut()
                .zip(bands)
                .map(|(engine, band)| {
                    let part = image::rows(gray, band.clone());
                    let top = i32::try_from(band.start).unwrap_or(0);
                    scope.spawn(move || {
                        let mut lines = engine.recognize(&part, dpi);
                        for l in &mut lines {
                            l.bbox.1 += top;
                            l.bbox.3 += top;
                        }
                        lines
                    })
                })
                .collect();
            running
                .into_iter()
                .flat_map(|r| r.join().unwrap_or_default())
                .collect()
        })
    }

    /// Results kept, and reads answered from them so far.
    pub fn cache_stats(&self) -> (usize, u64) {
        (self.cache.len(), self.cache.hits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_codes_joined_by_plus() {
        assert_eq!(languages(None).as_deref(), Ok("eng"));
        assert_eq!(languages(Some("  ")).as_deref(), Ok("eng"));
        assert_eq!(languages(Some(" deu + eng ")).as_deref(), Ok("deu+eng"));
        assert_eq!(languages(Some("chi_sim")).as_deref(), Ok("chi_sim"));
        for bad in ["deu,eng", "deu+", "../eng", "de u"] {
            let e = languages(Some(bad)).unwrap_or_else(|e| e.to_string());
            assert!(
                e.contains("CUP_OCR_LANGUAGES") && e.contains("deu+eng"),
                "{e}"
            );
        }
    }
}
