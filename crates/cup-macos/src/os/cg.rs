//! Core Graphics reads: the window list front to back
//! (`CGWindowListCopyWindowInfo`), the displays with their scales, and the
//! Accessibility and Screen Recording permissions.

use objc2_application_services::{kAXTrustedCheckOptionPrompt, AXIsProcessTrustedWithOptions};
use objc2_core_foundation::{CFBoolean, CFDictionary, CFRetained, CFString, CFType, CGRect};
use objc2_core_graphics::{
    kCGWindowAlpha, kCGWindowBounds, kCGWindowIsOnscreen, kCGWindowLayer, kCGWindowName,
    kCGWindowNumber, kCGWindowOwnerName, kCGWindowOwnerPID, CGDirectDisplayID, CGDisplayBounds,
    CGDisplayCopyDisplayMode, CGDisplayMode, CGError, CGGetActiveDisplayList, CGMainDisplayID,
    CGPreflightScreenCaptureAccess, CGRectMakeWithDictionaryRepresentation,
    CGRequestScreenCaptureAccess, CGWindowListCopyWindowInfo, CGWindowListOption,
};

use crate::facts::{DisplayFacts, PointRect, ScreenFacts, WindowFacts};
use crate::os::ax::{number_of, text_of};

fn rect(r: CGRect) -> PointRect {
    PointRect {
        x: r.origin.x,
        y: r.origin.y,
        w: r.size.width,
        h: r.size.height,
    }
}

/// On-screen windows, front to back, desktop elements excluded.
pub fn windows() -> Vec<WindowFacts> {
    list(CGWindowListOption::OptionOnScreenOnly | CGWindowListOption::ExcludeDesktopElements)
}

/// The process that draws the desktop's icons (Finder), from its desktop
/// window (layer below 0).
pub fn desktop_owner() -> Option<i32> {
    list(CGWindowListOption::OptionOnScreenOnly)
        .into_iter()
        .find(|w| w.layer < 0 && w.owner == "Finder")
        .map(|w| w.pid)
}

fn list(options: CGWindowListOption) -> Vec<WindowFacts> {
    let Some(list) = CGWindowListCopyWindowInfo(options, 0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in crate::os::ax::items(&list) {
        let Ok(dict) = item.downcast::<CFDictionary>() else {
            continue;
        };
        // SAFETY: the window list's dictionaries map CFString keys to CF
        // values, as documented for CGWindowListCopyWindowInfo.
        let dict: CFRetained<CFDictionary<CFString, CFType>> =
            unsafe { CFRetained::cast_unchecked(dict) };
        // SAFETY: the keys are the framework's own constant strings.
        let get = |key: &CFString| dict.get(key);
        let (num_key, pid_key, owner_key, name_key, layer_key, on_key, alpha_key, bounds_key) = unsafe {
            (
                kCGWindowNumber,
                kCGWindowOwnerPID,
                kCGWindowOwnerName,
                kCGWindowName,
                kCGWindowLayer,
                kCGWindowIsOnscreen,
                kCGWindowAlpha,
                kCGWindowBounds,
            )
        };
        let number = |k: &CFString| get(k).and_then(|v| number_of(&v));
        let mut bounds = CGRect::ZERO;
        if let Some(b) = get(bounds_key).and_then(|v| v.downcast::<CFDictionary>().ok()) {
            // SAFETY: `bounds` is a valid CGRect to fill; the dictionary is
            // a rectangle's representation.
            unsafe { CGRectMakeWithDictionaryRepresentation(Some(&b), &mut bounds) };
        }
        out.push(WindowFacts {
            number: number(num_key).unwrap_or(0.0) as u32,
            pid: number(pid_key).unwrap_or(0.0) as i32,
            owner: get(owner_key).and_then(|v| text_of(&v)).unwrap_or_default(),
            bundle_id: None,
            title: get(name_key).and_then(|v| text_of(&v)).unwrap_or_default(),
            bounds: rect(bounds),
            layer: number(layer_key).unwrap_or(0.0) as i32,
            on_screen: get(on_key)
                .and_then(|v| v.downcast::<CFBoolean>().ok())
                .is_some_and(|b| b.as_bool()),
            alpha: number(alpha_key).unwrap_or(1.0),
        });
    }
    out
}

/// The active displays with their scales.
pub fn screen() -> ScreenFacts {
    let mut ids: [CGDirectDisplayID; 16] = [0; 16];
    let mut count: u32 = 0;
    // SAFETY: `ids` has room for the 16 displays asked for; `count` is a
    // valid place for the answer.
    let e = unsafe { CGGetActiveDisplayList(16, ids.as_mut_ptr(), &mut count) };
    if e != CGError::Success {
        return ScreenFacts::default();
    }
    let main = CGMainDisplayID();
    let displays = ids
        .iter()
        .take(count as usize)
        .map(|&id| {
            let mode = CGDisplayCopyDisplayMode(id);
            let (px, pt) = (
                CGDisplayMode::pixel_width(mode.as_deref()),
                CGDisplayMode::width(mode.as_deref()),
            );
            let scale = if pt > 0 { px as f64 / pt as f64 } else { 1.0 };
            DisplayFacts {
                id,
                bounds: rect(CGDisplayBounds(id)),
                scale,
                main: id == main,
            }
        })
        .collect();
    ScreenFacts { displays }
}

/// Whether cup may use Accessibility; with `prompt`, macOS shows its
/// dialog that offers to grant it.
pub fn accessibility_trusted(prompt: bool) -> bool {
    // SAFETY: the key is the framework's constant; the dictionary maps it
    // to a CFBoolean, as AXIsProcessTrustedWithOptions documents.
    unsafe {
        let key: &CFString = kAXTrustedCheckOptionPrompt;
        let value: &CFBoolean = CFBoolean::new(prompt);
        let options = CFDictionary::from_slices(&[key], &[value]);
        AXIsProcessTrustedWithOptions(Some(options.as_opaque()))
    }
}

/// Whether cup may capture the screen (Screen Recording).
pub fn screen_recording_allowed() -> bool {
    CGPreflightScreenCaptureAccess()
}

/// Asks macOS to show its Screen Recording prompt (once per app; it
/// answers at once whether access is granted now).
pub fn request_screen_recording() -> bool {
    CGRequestScreenCaptureAccess()
}
