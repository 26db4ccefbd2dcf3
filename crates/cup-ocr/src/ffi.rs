//! libtesseract's C API (`tesseract/capi.h`, Tesseract 5): the few calls
//! cup makes, found in the library when the first reader starts (dlopen),
//! so that cup runs, and says what to install, on a machine without
//! Tesseract. Where the library is: [`crate::install`].

use std::ffi::{c_char, c_float, c_int, c_uchar, c_void};
use std::sync::OnceLock;

/// `TessBaseAPI*`.
#[repr(C)]
pub struct TessBaseApi {
    _private: [u8; 0],
}

/// `TessResultIterator*`.
#[repr(C)]
pub struct TessResultIterator {
    _private: [u8; 0],
}

/// `TessPageIterator*`.
#[repr(C)]
pub struct TessPageIterator {
    _private: [u8; 0],
}

/// `PSM_SPARSE_TEXT`: as much text as possible, in no particular order
/// (what a window's labels and buttons are).
pub const PSM_SPARSE_TEXT: c_int = 11;
/// `RIL_TEXTLINE`.
pub const RIL_TEXTLINE: c_int = 2;

/// The calls, by their C names.
#[allow(non_snake_case)]
pub struct Api {
    pub TessBaseAPICreate: unsafe extern "C" fn() -> *mut TessBaseApi,
    pub TessBaseAPIDelete: unsafe extern "C" fn(*mut TessBaseApi),
    pub TessBaseAPIInit3:
        unsafe extern "C" fn(*mut TessBaseApi, *const c_char, *const c_char) -> c_int,
    pub TessBaseAPISetVariable:
        unsafe extern "C" fn(*mut TessBaseApi, *const c_char, *const c_char) -> c_int,
    pub TessBaseAPISetPageSegMode: unsafe extern "C" fn(*mut TessBaseApi, c_int),
    pub TessBaseAPISetImage:
        unsafe extern "C" fn(*mut TessBaseApi, *const c_uchar, c_int, c_int, c_int, c_int),
    pub TessBaseAPISetSourceResolution: unsafe extern "C" fn(*mut TessBaseApi, c_int),
    pub TessBaseAPIRecognize: unsafe extern "C" fn(*mut TessBaseApi, *mut c_void) -> c_int,
    pub TessBaseAPIGetIterator: unsafe extern "C" fn(*mut TessBaseApi) -> *mut TessResultIterator,
    pub TessBaseAPIClear: unsafe extern "C" fn(*mut TessBaseApi),
    pub TessBaseAPIEnd: unsafe extern "C" fn(*mut TessBaseApi),
    pub TessResultIteratorDelete: unsafe extern "C" fn(*mut TessResultIterator),
    pub TessResultIteratorNext: unsafe extern "C" fn(*mut TessResultIterator, c_int) -> c_int,
    pub TessResultIteratorGetUTF8Text:
        unsafe extern "C" fn(*const TessResultIterator, c_int) -> *mut c_char,
    pub TessResultIteratorConfidence:
        unsafe extern "C" fn(*const TessResultIterator, c_int) -> c_float,
    pub TessResultIteratorGetPageIteratorConst:
        unsafe extern "C" fn(*const TessResultIterator) -> *const TessPageIterator,
    pub TessPageIteratorBoundingBox: unsafe extern "C" fn(
        *const TessPageIterator,
        c_int,
        *mut c_int,
        *mut c_int,
        *mut c_int,
        *mut c_int,
    ) -> c_int,
    pub TessDeleteText: unsafe extern "C" fn(*const c_char),
    /// The language data beside the library, when Tesseract's default
    /// would not find it (Windows' and macOS's installs).
    pub tessdata: Option<std::path::PathBuf>,
    /// Keeps the library mapped while the pointers above are used.
    _library: libloading::Library,
}

/// The library's calls, loaded once per process.
///
/// # Errors
///
/// What is missing, and the package that installs it.
pub fn api() -> Result<&'static Api, String> {
    static API: OnceLock<Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Api, String> {
    // Tesseract's OpenMP threads spin on a busy 2-core machine: one
    // recognition took 480 ms with them and 80 ms without. libgomp reads
    // its limit when it loads, which is now (libtesseract needs it); a
    // limit the user set stays.
    if std::env::var_os("OMP_THREAD_LIMIT").is_none() {
        std::env::set_var("OMP_THREAD_LIMIT", "1");
    }
    let places = crate::install::places(
        crate::install::Os::this(),
        &|k| std::env::var_os(k).map(std::path::PathBuf::from),
        &|p| p.exists(),
    );
    let mut tried = Vec::new();
    let mut found = None;
    for place in places {
        // SAFETY: loading libtesseract runs its initialisers (C++ statics,
        // the OpenMP runtime's environment read), which have no
        // preconditions.
        match unsafe { libloading::Library::new(&place.library) } {
            Ok(lib) => {
                found = Some((lib, place));
                break;
            }
            Err(e) => tried.push(format!("{} ({e})", place.library.display())),
        }
    }
    let Some((library, place)) = found else {
        return Err(format!(
            "libtesseract cannot be loaded (tried {}): {}",
            tried.join(", "),
            crate::install::ADVICE
        ));
    };
    let name = place.library.display().to_string();
    macro_rules! sym {
        ($name:ident) => {{
            // SAFETY: the symbol has the C signature `capi.h` gives it,
            // which the field's type repeats.
            let s = unsafe { library.get(concat!(stringify!($name), "\0").as_bytes()) }
                .map_err(|e| format!("{name} has no {}: {e}", stringify!($name)))?;
            *s
        }};
    }
    Ok(Api {
        TessBaseAPICreate: sym!(TessBaseAPICreate),
        TessBaseAPIDelete: sym!(TessBaseAPIDelete),
        TessBaseAPIInit3: sym!(TessBaseAPIInit3),
        TessBaseAPISetVariable: sym!(TessBaseAPISetVariable),
        TessBaseAPISetPageSegMode: sym!(TessBaseAPISetPageSegMode),
        TessBaseAPISetImage: sym!(TessBaseAPISetImage),
        TessBaseAPISetSourceResolution: sym!(TessBaseAPISetSourceResolution),
        TessBaseAPIRecognize: sym!(TessBaseAPIRecognize),
        TessBaseAPIGetIterator: sym!(TessBaseAPIGetIterator),
        TessBaseAPIClear: sym!(TessBaseAPIClear),
        TessBaseAPIEnd: sym!(TessBaseAPIEnd),
        TessResultIteratorDelete: sym!(TessResultIteratorDelete),
        TessResultIteratorNext: sym!(TessResultIteratorNext),
        TessResultIteratorGetUTF8Text: sym!(TessResultIteratorGetUTF8Text),
        TessResultIteratorConfidence: sym!(TessResultIteratorConfidence),
        TessResultIteratorGetPageIteratorConst: sym!(TessResultIteratorGetPageIteratorConst),
        TessPageIteratorBoundingBox: sym!(TessPageIteratorBoundingBox),
        TessDeleteText: sym!(TessDeleteText),
        tessdata: place.tessdata,
        _library: library,
    })
}
