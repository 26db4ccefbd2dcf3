//! Screenshots through GDI: the screen's device context copied (BitBlt),
//! or a window drawn by itself (`PrintWindow`), into a top-down 32-bit
//! DIB, handed to [`crate::image`] as BGRA rows.

use windows::Win32::Graphics::Gdi::{
    BitBlt, CreateCompatibleBitmap, CreateCompatibleDC, DeleteDC, DeleteObject, GetDC, GetDIBits,
    ReleaseDC, SelectObject, BITMAPINFO, BITMAPINFOHEADER, BI_RGB, DIB_RGB_COLORS, HBITMAP, HDC,
    SRCCOPY,
};
use windows::Win32::Storage::Xps::{PrintWindow, PRINT_WINDOW_FLAGS};

/// `PW_RENDERFULLCONTENT` (Windows 8.1+; not in the `windows` crate's
/// constants): the window's DirectComposition content too (Chromium,
/// UWP, WinUI), not only what it draws with GDI.
const PW_RENDERFULLCONTENT: PRINT_WINDOW_FLAGS = PRINT_WINDOW_FLAGS(2);

/// The BGRA pixels of window `hwnd` drawn by itself (`PrintWindow`) into
/// a `w` × `h` image (its `GetWindowRect` size): what it shows even where
/// another window covers it.
pub fn print_window(hwnd: i64, w: i32, h: i32) -> Result<Vec<u8>, String> {
    if w <= 0 || h <= 0 {
        return Err(format!("an empty window ({w}x{h}) has no pixels"));
    }
    // SAFETY: as in `grab`; the window handle is only passed to
    // PrintWindow, which fails for one that closed.
    unsafe {
        let screen = GetDC(None);
        if screen.is_invalid() {
            return Err("GetDC(NULL) failed: no screen device context".into());
        }
        let mem = CreateCompatibleDC(Some(screen));
        let bitmap = CreateCompatibleBitmap(screen, w, h);
        let old = SelectObject(mem, bitmap.into());
        let printed =
            PrintWindow(crate::os::win32::hwnd(hwnd), mem, PW_RENDERFULLCONTENT).as_bool();
        SelectObject(mem, old);
        let pixels = dib(mem, bitmap, w, h);
        let _ = DeleteObject(bitmap.into());
        let _ = DeleteDC(mem);
        ReleaseDC(None, screen);
        if !printed {
            return Err("PrintWindow failed (the window closed or does not draw itself)".into());
        }
        pixels
    }
}

/// The pixels of `bitmap` (selected out of every device context) as
/// top-down BGRA.
///
/// # Safety
/// `mem` and `bitmap` are live GDI objects of this thread; `bitmap` is
/// `w` × `h`.
unsafe fn dib(mem: HDC, bitmap: HBITMAP, w: i32, h: i32) -> Result<Vec<u8>, String> {
    let mut info = BITMAPINFO {
        bmiHeader: BITMAPINFOHEADER {
            biSize: size_of::<BITMAPINFOHEADER>() as u32,
            biWidth: w,
            biHeight: -h,
            biPlanes: 1,
            biBitCount: 32,
            biCompression: BI_RGB.0,
            ..BITMAPINFOHEADER::default()
        },
        ..BITMAPINFO::default()
    };
    let len = usize::try_from(w).unwrap_or(0) * usize::try_from(h).unwrap_or(0) * 4;
    let mut pixels = vec![0_u8; len];
    // SAFETY: the buffer has exactly w*h*4 bytes, the size the BITMAPINFO
    // describes (32 bpp, top-down); the caller vouches for the handles.
    let lines = unsafe {
        GetDIBits(
            mem,
            bitmap,
            0,
            h as u32,
            Some(pixels.as_mut_ptr().cast()),
            &mut info,
            DIB_RGB_COLORS,
        )
    };
    if lines != h {
        return Err(format!("GetDIBits copied {lines} of {h} lines"));
    }
    Ok(pixels)
}

/// The BGRA pixels of the screen rectangle at `(x, y)` of `w` × `h`
/// physical pixels (virtual-screen coordinates).
pub fn grab(x: i32, y: i32, w: i32, h: i32) -> Result<Vec<u8>, String> {
    if w <= 0 || h <= 0 {
        return Err(format!("an empty region ({w}x{h}) has no pixels"));
    }
    // SAFETY: GDI objects are created, selected, used and released in
    // order on this thread; the pixel buffer has exactly w*h*4 bytes, the
    // size the BITMAPINFO describes (32 bpp, top-down).
    unsafe {
        let screen = GetDC(None);
        if screen.is_invalid() {
            return Err(
                "GetDC(NULL) failed: no screen device context (a service session has no desktop)"
                    .into(),
            );
        }
        let mem = CreateCompatibleDC(Some(screen));
        let bitmap = CreateCompatibleBitmap(screen, w, h);
        let old = SelectObject(mem, bitmap.into());
        // No CAPTUREBLT: not needed under DWM (it makes the cursor flicker
        // and slows the copy).
        let blt = BitBlt(mem, 0, 0, w, h, Some(screen), x, y, SRCCOPY);
        // GetDIBits wants the bitmap selected out of any device context.
        SelectObject(mem, old);
        let pixels = dib(mem, bitmap, w, h);
        let _ = DeleteObject(bitmap.into());
        let _ = DeleteDC(mem);
        ReleaseDC(None, screen);
        if let Err(e) = blt {
            return Err(crate::os::call_error(&e, "BitBlt"));
        }
        pixels
    }
}
