//! Accessibility reads: one `AXUIElementCopyMultipleAttributeValues` per
//! element (children included), action names only for roles that can act,
//! `AXValue` settability only for roles that take a value; every app
//! element with a messaging timeout, so an app that does not answer costs
//! at most that per call.

use std::collections::BTreeSet;
use std::ptr::NonNull;
use std::sync::{Mutex, PoisonError};

use objc2_application_services::{
    AXCopyMultipleAttributeOptions, AXError, AXUIElement, AXValue, AXValueType,
};
use objc2_core_foundation::{
    CFArray, CFBoolean, CFHash, CFNumber, CFRetained, CFString, CFType, CGPoint, CGSize, CFURL,
};

use crate::facts::{AxElement, AxValue, PointRect, WindowFacts};
use crate::keys::shortcut_text;
use crate::mapping::actions::reads_actions;
use crate::walk::{ReadError, Reads};

/// An AX element handle.
pub type Element = CFRetained<AXUIElement>;

/// The longest one AX call waits for an app (seconds). Set process-wide
/// (on the system-wide element: a timeout set on another element holds
/// for that element only, and every child read would wait the ~6 s
/// default). 1 s: with the timeout applied everywhere, 0.5 s risks false
/// time-outs on large Chromium web areas still building their tree (the
/// review's concern, not measured here; peers use 2 s).
pub const MESSAGING_TIMEOUT: f32 = 1.0;

/// Sets [`MESSAGING_TIMEOUT`] for every AX call of this process, once.
pub fn set_process_timeout() {
    static SET: std::sync::Once = std::sync::Once::new();
    SET.call_once(|| {
        // SAFETY: creating the system-wide element makes no call to an app.
        let everywhere = unsafe { AXUIElement::new_system_wide() };
        // SAFETY: a live element; the timeout is a plain number.
        let _ = unsafe { everywhere.set_messaging_timeout(MESSAGING_TIMEOUT) };
    });
}

/// What cup tells a user without the Accessibility permission.
pub const DENIED: &str = "cup may not use Accessibility: System Settings > Privacy & Security > Accessibility, allow the app that runs cup (your terminal or IDE), then run it again";

/// The attributes of one read, in this order.
const ATTRS: [&str; 28] = [
    "AXRole",
    "AXSubrole",
    "AXRoleDescription",
    "AXTitle",
    "AXDescription",
    "AXValue",
    "AXHelp",
    "AXPlaceholderValue",
    "AXIdentifier",
    "AXEnabled",
    "AXFocused",
    "AXSelected",
    "AXExpanded",
    "AXDisclosing",
    "AXRequired",
    "AXModal",
    "AXElementBusy",
    "AXOrientation",
    "AXMinValue",
    "AXMaxValue",
    "AXDisclosureLevel",
    "AXURL",
    "AXMenuItemMarkChar",
    "AXMenuItemCmdChar",
    "AXMenuItemCmdModifiers",
    "AXPosition",
    "AXSize",
    "AXChildren",
];

/// A failed AX call as a read error; `what` names the call.
pub fn read_error(e: AXError, what: &str) -> ReadError {
    match e {
        AXError::InvalidUIElement => ReadError::Gone(format!("{what}: the element is gone")),
        AXError::CannotComplete => ReadError::NotAnswering(format!(
            "{what}: the app did not answer within {MESSAGING_TIMEOUT} s (kAXErrorCannotComplete)"
        )),
        AXError::APIDisabled => ReadError::Denied(DENIED.to_owned()),
        other => ReadError::Failed(format!("{what} failed: AXError {}", other.0)),
    }
}

fn cf_string(s: &str) -> CFRetained<CFString> {
    CFString::from_str(s)
}

/// A CF value as text (strings, URLs).
pub fn text_of(v: &CFType) -> Option<String> {
    if let Some(s) = v.downcast_ref::<CFString>() {
        return Some(s.to_string());
    }
    v.downcast_ref::<CFURL>().map(|u| u.string().to_string())
}

/// A CF value as a number (numbers, booleans).
pub fn number_of(v: &CFType) -> Option<f64> {
    if let Some(n) = v.downcast_ref::<CFNumber>() {
        return n.as_f64();
    }
    v.downcast_ref::<CFBoolean>()
        .map(|b| if b.as_bool() { 1.0 } else { 0.0 })
}

fn bool_of(v: &CFType) -> Option<bool> {
    if let Some(b) = v.downcast_ref::<CFBoolean>() {
        return Some(b.as_bool());
    }
    v.downcast_ref::<CFNumber>()
        .and_then(CFNumber::as_i64)
        .map(|n| n != 0)
}

fn value_of(v: &CFType) -> Option<AxValue> {
    if let Some(b) = v.downcast_ref::<CFBoolean>() {
        return Some(AxValue::Bool(b.as_bool()));
    }
    if let Some(n) = v.downcast_ref::<CFNumber>() {
        return n.as_f64().map(AxValue::Number);
    }
    text_of(v).map(AxValue::Text)
}

fn point_of(v: &CFType) -> Option<CGPoint> {
    let ax = v.downcast_ref::<AXValue>()?;
    let mut p = CGPoint::ZERO;
    // SAFETY: the AXValue is live; its type is checked to be a CGPoint
    // before the value is copied into a CGPoint.
    let ok = unsafe {
        ax.r#type() == AXValueType::CGPoint
            && ax.value(AXValueType::CGPoint, NonNull::from(&mut p).cast())
    };
    ok.then_some(p)
}

fn size_of(v: &CFType) -> Option<CGSize> {
    let ax = v.downcast_ref::<AXValue>()?;
    let mut s = CGSize::ZERO;
    // SAFETY: as in `point_of`, for a CGSize.
    let ok = unsafe {
        ax.r#type() == AXValueType::CGSize
            && ax.value(AXValueType::CGSize, NonNull::from(&mut s).cast())
    };
    ok.then_some(s)
}

/// The items of an untyped CF array, as CF values.
pub fn items(arr: &CFArray) -> Vec<CFRetained<CFType>> {
    // SAFETY: every item of a CF array is a CF object; the typed view has
    // the same layout.
    let typed: &CFArray<CFType> = unsafe { &*std::ptr::from_ref(arr).cast::<CFArray<CFType>>() };
    typed.to_vec()
}

/// The elements of a CF array of AX elements.
fn elements_of(v: &CFType) -> Vec<CFRetained<AXUIElement>> {
    let Some(arr) = v.downcast_ref::<CFArray>() else {
        return Vec::new();
    };
    items(arr)
        .into_iter()
        .filter_map(|e| e.downcast::<AXUIElement>().ok())
        .collect()
}

/// One attribute of `el` (`None`: no value, unsupported).
pub fn attribute(el: &AXUIElement, name: &str) -> Result<Option<CFRetained<CFType>>, ReadError> {
    let mut out: *const CFType = std::ptr::null();
    // SAFETY: `out` is a valid place for the returned (+1) reference.
    let e = unsafe { el.copy_attribute_value(&cf_string(name), NonNull::from(&mut out)) };
    match e {
        AXError::Success => Ok(NonNull::new(out.cast_mut()).map(|p| {
            // SAFETY: a Copy function's result is ours to release.
            unsafe { CFRetained::from_raw(p) }
        })),
        AXError::NoValue | AXError::AttributeUnsupported => Ok(None),
        other => Err(read_error(other, name)),
    }
}

/// The app element of `pid`, with cup's messaging timeout (set for the
/// whole process first: [`set_process_timeout`]).
pub fn app(pid: i32) -> CFRetained<AXUIElement> {
    set_process_timeout();
    // SAFETY: creating an element for a pid makes no call to the app.
    let app = unsafe { AXUIElement::new_application(pid) };
    // SAFETY: a live element; the timeout is a plain number.
    let _ = unsafe { app.set_messaging_timeout(MESSAGING_TIMEOUT) };
    app
}

/// Apps asked to build their full tree already (once per process).
static EXPOSED: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Asks a Chromium or Electron app to build its web content's tree
/// (`AXManualAccessibility`, their own switch; without it, or VoiceOver's
/// `AXEnhancedUserInterface`, a web area has no children). Other apps
/// answer that the attribute is unsupported. Asked once per process; the
/// app builds the tree within a moment, so the first capture after it can
/// still be thin.
fn expose_web_tree(app: &AXUIElement, pid: i32) {
    let first = EXPOSED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(pid);
    if first {
        // SAFETY: a live element, an attribute name and a CF Boolean.
        let e = unsafe {
            app.set_attribute_value(&cf_string("AXManualAccessibility"), CFBoolean::new(true))
        };
        tracing::debug!(pid, error = e.0, "AXManualAccessibility asked");
    }
}

/// The frame of an element in points (`AXPosition` + `AXSize`).
pub fn frame(el: &AXUIElement) -> Option<PointRect> {
    let p = attribute(el, "AXPosition").ok()??;
    let s = attribute(el, "AXSize").ok()??;
    let (p, s) = (point_of(&p)?, size_of(&s)?);
    Some(PointRect {
        x: p.x,
        y: p.y,
        w: s.width,
        h: s.height,
    })
}

/// The `AXWindow` element of a Core Graphics window: the app's window with
/// the same frame, else the only one with the same title, else the app's
/// only window (`toplevel::window_by_frame`, `window_by_title_or_only`);
/// an error rather than a guess among several.
///
/// # Errors
///
/// When the app does not answer, has no windows, or none can be told to
/// be this one.
pub fn window_element(w: &WindowFacts) -> Result<CFRetained<AXUIElement>, ReadError> {
    let app = app(w.pid);
    expose_web_tree(&app, w.pid);
    if w.number == 0 {
        return desktop_element(&app);
    }
    let list = attribute(&app, "AXWindows")?
        .map(|v| elements_of(&v))
        .unwrap_or_default();
    if list.is_empty() {
        return Err(ReadError::Failed(format!(
            "{} lists no accessible window for '{}'",
            w.owner, w.title
        )));
    }
    let frames: Vec<Option<PointRect>> = list.iter().map(|el| frame(el)).collect();
    let at = crate::toplevel::window_by_frame(&frames, &w.bounds).or_else(|| {
        let titles: Vec<Option<String>> = list
            .iter()
            .map(|el| {
                attribute(el, "AXTitle")
                    .ok()
                    .flatten()
                    .and_then(|t| text_of(&t))
            })
            .collect();
        crate::toplevel::window_by_title_or_only(&titles, &w.title)
    });
    at.and_then(|i| list.into_iter().nth(i)).ok_or_else(|| {
        ReadError::Failed(format!(
            "cannot tell which of {}'s {} accessible windows is '{}' (it may be moving, or have no accessible window); take a new snapshot",
            w.owner,
            frames.len(),
            w.title
        ))
    })
}

/// The desktop of an app with one (Finder): its scroll area of icons
/// among the app element's children, which are otherwise the menu bar and
/// the windows.
fn desktop_element(app: &AXUIElement) -> Result<CFRetained<AXUIElement>, ReadError> {
    children(app)?
        .into_iter()
        .find(|c| {
            attribute(c, "AXRole")
                .ok()
                .flatten()
                .and_then(|r| text_of(&r))
                .is_some_and(|r| r == "AXScrollArea")
        })
        .ok_or_else(|| ReadError::Failed("Finder shows no desktop (its icons are hidden)".into()))
}

/// The children of an element (`AXChildren`).
///
/// # Errors
///
/// When the element is gone or the app does not answer.
pub fn children(el: &AXUIElement) -> Result<Vec<CFRetained<AXUIElement>>, ReadError> {
    Ok(attribute(el, "AXChildren")?
        .map(|v| elements_of(&v))
        .unwrap_or_default())
}

/// An element-valued attribute (`AXFocusedUIElement`, `AXCloseButton`).
///
/// # Errors
///
/// When the element is gone or the app does not answer.
pub fn element_attribute(
    el: &AXUIElement,
    name: &str,
) -> Result<Option<CFRetained<AXUIElement>>, ReadError> {
    Ok(attribute(el, name)?.and_then(|v| v.downcast::<AXUIElement>().ok()))
}

/// Reads one element: its attributes and its children.
///
/// # Errors
///
/// When the element is gone or the app does not answer.
pub fn read(
    attrs: &CFArray<CFString>,
    el: &AXUIElement,
) -> Result<(AxElement, Vec<CFRetained<AXUIElement>>), ReadError> {
    let mut out: *const CFArray = std::ptr::null();
    // SAFETY: `attrs` is an array of attribute names; `out` a valid place
    // for the returned (+1) array. Missing attributes come back as
    // AXValues of the error type, which no reader below accepts.
    let e = unsafe {
        el.copy_multiple_attribute_values(
            attrs.as_opaque(),
            AXCopyMultipleAttributeOptions::empty(),
            NonNull::from(&mut out),
        )
    };
    if e != AXError::Success {
        return Err(read_error(e, "AXUIElementCopyMultipleAttributeValues"));
    }
    let Some(values) = NonNull::new(out.cast_mut()) else {
        return Err(ReadError::Failed(
            "AXUIElementCopyMultipleAttributeValues answered no array".into(),
        ));
    };
    // SAFETY: a Copy function's result is ours to release.
    let values: CFRetained<CFArray> = unsafe { CFRetained::from_raw(values) };
    let values = items(&values);
    let v = |i: usize| values.get(i).cloned();
    let t = |i: usize| v(i).and_then(|x| text_of(&x)).filter(|s| !s.is_empty());
    let b = |i: usize| v(i).and_then(|x| bool_of(&x));
    let n = |i: usize| v(i).and_then(|x| number_of(&x));
    let children = v(27).map(|x| elements_of(&x)).unwrap_or_default();
    let frame = match (
        v(25).and_then(|x| point_of(&x)),
        v(26).and_then(|x| size_of(&x)),
    ) {
        (Some(p), Some(s)) => Some(PointRect {
            x: p.x,
            y: p.y,
            w: s.width,
            h: s.height,
        }),
        _ => None,
    };
    let role = t(0).unwrap_or_default();
    let shortcut = t(23).map(|c| shortcut_text(&c, n(24).unwrap_or(0.0) as i64));
    let mut element = AxElement {
        subrole: t(1),
        role_description: t(2),
        title: t(3),
        description: t(4),
        value: v(5).and_then(|x| value_of(&x)),
        help: t(6),
        placeholder: t(7),
        identifier: t(8),
        enabled: b(9),
        focused: b(10),
        selected: b(11),
        expanded: b(12),
        disclosing: b(13),
        required: b(14),
        modal: b(15),
        busy: b(16),
        orientation: t(17),
        min_value: n(18),
        max_value: n(19),
        disclosure_level: n(20).map(|l| l as i64),
        url: t(21),
        mark_char: t(22),
        shortcut,
        frame,
        children_count: children.len(),
        ..AxElement::default()
    };
    if reads_actions(&role) {
        let mut names: *const CFArray = std::ptr::null();
        // SAFETY: `names` is a valid place for the returned (+1) array.
        let e = unsafe { el.copy_action_names(NonNull::from(&mut names)) };
        if e == AXError::Success {
            if let Some(p) = NonNull::new(names.cast_mut()) {
                // SAFETY: a Copy function's result is ours to release.
                let names: CFRetained<CFArray> = unsafe { CFRetained::from_raw(p) };
                element.actions = items(&names)
                    .into_iter()
                    .filter_map(|a| a.downcast::<CFString>().ok())
                    .map(|s| s.to_string())
                    .collect();
            }
        }
    }
    if matches!(
        role.as_str(),
        "AXTextField"
            | "AXTextArea"
            | "AXComboBox"
            | "AXSlider"
            | "AXIncrementor"
            | "AXSecureTextField"
    ) {
        let mut settable: u8 = 0;
        // SAFETY: `settable` is a valid place for the Boolean answer.
        let e = unsafe {
            el.is_attribute_settable(&cf_string("AXValue"), NonNull::from(&mut settable))
        };
        if e == AXError::Success {
            element.value_settable = Some(settable != 0);
        }
    }
    element.role = role;
    Ok((element, children))
}

/// The reads of one app's walk.
#[derive(Debug)]
pub struct AxReads {
    attrs: CFRetained<CFArray<CFString>>,
}

impl AxReads {
    /// Reads for one app task.
    pub fn new() -> AxReads {
        let names: Vec<CFRetained<CFString>> = ATTRS.iter().map(|a| cf_string(a)).collect();
        AxReads {
            attrs: CFArray::from_retained_objects(&names),
        }
    }
}

impl AxReads {
    /// The facts of one element (its children are not kept).
    ///
    /// # Errors
    ///
    /// When the element is gone or the app does not answer.
    pub fn facts(&self, el: &AXUIElement) -> Result<AxElement, ReadError> {
        read(&self.attrs, el).map(|(f, _)| f)
    }
}

impl Default for AxReads {
    fn default() -> Self {
        Self::new()
    }
}

impl Reads for AxReads {
    type Element = CFRetained<AXUIElement>;

    fn window(&mut self, window: &WindowFacts) -> Result<Self::Element, ReadError> {
        window_element(window)
    }

    fn read(
        &mut self,
        element: &Self::Element,
    ) -> Result<(AxElement, Vec<Self::Element>), ReadError> {
        read(&self.attrs, element)
    }

    fn identity(&mut self, element: &Self::Element) -> u64 {
        let cf: &CFType = element.as_ref();
        CFHash(Some(cf)) as u64
    }
}
