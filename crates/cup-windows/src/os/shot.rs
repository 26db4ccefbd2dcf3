//! Screenshots through GDI: the screen's device context copied (BitBlt)
//! into a top-down 32-bit DIB, handed to [`crate::image`] as BGRA rows.

use windows::Win32::Graphics::Gdi::{
    BitBlt, CreateCompatibleBitmap, CreateCompatibleDC, DeleteDC, DeleteObject, GetDC, GetDIBits,
    ReleaseDC, SelectObject, BITMAPINFO, BITMAPINFOHEADER, BI_RGB, DIB_RGB_COLORS, SRCCOPY,
};

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
        let lines = GetDIBits(
            mem,
            bitmap,
            0,
            h as u32,
            Some(pixels.as_mut_ptr().cast()),
            &mut info,
            DIB_RGB_COLORS,
        );
        let _ = DeleteObject(bitmap.into());
        let _ = DeleteDC(mem);
        ReleaseDC(None, screen);
        if let Err(e) = blt {
            return Err(crate::os::call_error(&e, "BitBlt"));
        }
        if lines != h {
            return Err(format!("GetDIBits copied {lines} of {h} lines"));
        }
        Ok(pixels)
    }
}
