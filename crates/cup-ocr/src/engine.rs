//! One Tesseract engine: started with its language data, fed a grey
//! image, read back line by line. The only module that calls
//! libtesseract; every call goes through [`crate::ffi`].

use std::ffi::{CStr, CString};

use crate::ffi;
use crate::image::Gray;
use crate::lines::RawLine;
use crate::OcrError;

/// A started engine (`TessBaseAPI`).
pub struct Engine {
    lib: &'static ffi::Api,
    api: *mut ffi::TessBaseApi,
}

// SAFETY: a TessBaseAPI may move between threads; it is used by one at a
// time, through `&mut self`.
unsafe impl Send for Engine {}

impl Engine {
    /// Starts an engine for `languages` (`eng`, `eng+deu`), with the data
    /// where Tesseract looks by default (`$TESSDATA_PREFIX`, else
    /// Debian's `/usr/share/tesseract-ocr/5/tessdata`).
    pub fn start(languages: &str) -> Result<Engine, OcrError> {
        let lang = CString::new(languages).map_err(|_| {
            OcrError::Unavailable(format!("a language code with a NUL: {languages:?}"))
        })?;
        let lib = ffi::api().map_err(OcrError::Unavailable)?;
        // SAFETY: a constructor without arguments.
        let api = unsafe { (lib.TessBaseAPICreate)() };
        if api.is_null() {
            return Err(OcrError::Unavailable("libtesseract made no engine".into()));
        }
        let engine = Engine { lib, api };
        // Tesseract's own messages (a resolution guessed, ...) go nowhere:
        // cup says what matters in its own words.
        engine.set(
            "debug_file",
            if cfg!(windows) { "NUL" } else { "/dev/null" },
        );
        // cup turns light-on-dark images itself (crate::image::prepare):
        // Tesseract's second pass over each unsure line inverted is time
        // for nothing.
        engine.set("tessedit_do_invert", "0");
        // The data beside the library's install (Windows, macOS), else
        // Tesseract's default.
        let data = lib
            .tessdata
            .as_ref()
            .and_then(|d| CString::new(d.to_string_lossy().into_owned()).ok());
        // SAFETY: `api` is live; `lang` and `data` outlive the call; a null
        // data path means Tesseract's default.
        let r = unsafe {
            (lib.TessBaseAPIInit3)(
                api,
                data.as_ref().map_or(std::ptr::null(), |d| d.as_ptr()),
                lang.as_ptr(),
            )
        };
        if r != 0 {
            let packages: Vec<String> = languages
                .split('+')
                .map(|code| format!("tesseract-ocr-{}", code.to_lowercase().replace('_', "-")))
                .collect();
            return Err(OcrError::Unavailable(format!(
                "Tesseract has no data for {languages:?}: install {} (Debian), or set TESSDATA_PREFIX to the folder holding their .traineddata",
                packages.join(" ")
            )));
        }
        // SAFETY: `api` is live and started.
        unsafe { (lib.TessBaseAPISetPageSegMode)(api, ffi::PSM_SPARSE_TEXT) };
        Ok(engine)
    }

    fn set(&self, name: &str, value: &str) {
        let (Ok(n), Ok(v)) = (CString::new(name), CString::new(value)) else {
            return;
        };
        // SAFETY: `api` is live; both strings outlive the call.
        unsafe { (self.lib.TessBaseAPISetVariable)(self.api, n.as_ptr(), v.as_ptr()) };
    }

    /// The text lines Tesseract finds in `image`, in its pixels; `dpi`
    /// tells Tesseract how large the text is.
    pub fn recognize(&mut self, image: &Gray, dpi: i32) -> Vec<RawLine> {
        let (Ok(w), Ok(h)) = (i32::try_from(image.width), i32::try_from(image.height)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // SAFETY: `api` is live; the pixels (w*h bytes, one a pixel, w a
        // row) outlive the recognition, which ends before this returns;
        // the iterator is deleted and the engine cleared below.
        unsafe {
            (self.lib.TessBaseAPISetImage)(self.api, image.pixels.as_ptr(), w, h, 1, w);
            (self.lib.TessBaseAPISetSourceResolution)(self.api, dpi);
            if (self.lib.TessBaseAPIRecognize)(self.api, std::ptr::null_mut()) != 0 {
                tracing::debug!("Tesseract could not recognise the image");
                (self.lib.TessBaseAPIClear)(self.api);
                return out;
            }
            let it = (self.lib.TessBaseAPIGetIterator)(self.api);
            if !it.is_null() {
                loop {
                    if let Some(line) = line_at(self.lib, it) {
                        out.push(line);
                    }
                    if (self.lib.TessResultIteratorNext)(it, ffi::RIL_TEXTLINE) == 0 {
                        break;
                    }
                }
                (self.lib.TessResultIteratorDelete)(it);
            }
            (self.lib.TessBaseAPIClear)(self.api);
        }
        out
    }
}

/// The line the iterator is at.
///
/// # Safety
///
/// `it` is a live result iterator.
unsafe fn line_at(lib: &ffi::Api, it: *mut ffi::TessResultIterator) -> Option<RawLine> {
    // SAFETY: the caller's; the text is copied, then freed by Tesseract's
    // own call.
    unsafe {
        let raw = (lib.TessResultIteratorGetUTF8Text)(it, ffi::RIL_TEXTLINE);
        if raw.is_null() {
            return None;
        }
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        (lib.TessDeleteText)(raw);
        let confidence = (lib.TessResultIteratorConfidence)(it, ffi::RIL_TEXTLINE);
        let page = (lib.TessResultIteratorGetPageIteratorConst)(it);
        let (mut l, mut t, mut r, mut b) = (0, 0, 0, 0);
        if page.is_null()
            || (lib.TessPageIteratorBoundingBox)(
                page,
                ffi::RIL_TEXTLINE,
                &mut l,
                &mut t,
                &mut r,
                &mut b,
            ) == 0
        {
            return None;
        }
        Some(RawLine {
            text,
            confidence,
            bbox: (l, t, r, b),
        })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: `api` is live and dropped once.
        unsafe {
            (self.lib.TessBaseAPIEnd)(self.api);
            (self.lib.TessBaseAPIDelete)(self.api);
        }
    }
}
