//! UI Automation reads: one `IUIAutomation` per worker thread (COM in the
//! multithreaded apartment), one cache request with every property the
//! mapping needs, and the [`Reads`] of a window walk over it.

use windows::Win32::System::Com::{
    CoCreateInstance, CoInitializeEx, CLSCTX_INPROC_SERVER, COINIT_MULTITHREADED, SAFEARRAY,
};
use windows::Win32::System::Ole::{
    SafeArrayAccessData, SafeArrayGetLBound, SafeArrayGetUBound, SafeArrayUnaccessData,
};
use windows::Win32::System::Variant::{
    VariantClear, VARIANT, VT_ARRAY, VT_BOOL, VT_BSTR, VT_I2, VT_I4, VT_R8, VT_UI4,
};
use windows::Win32::UI::Accessibility::{
    CUIAutomation, CUIAutomation8, IUIAutomation, IUIAutomation2, IUIAutomationCacheRequest,
    IUIAutomationCondition, IUIAutomationElement, TreeScope_Children, TreeScope_Subtree,
    UIA_PROPERTY_ID,
};

use crate::facts::{
    Bounds, Element, GridFacts, GridItemFacts, Legacy, RangeFacts, ScrollFacts, SelectionFacts,
    ValueFacts, WindowPatternFacts,
};
use crate::os::{call_error, read_error};
use crate::walk::{ReadError, Reads};

pub use crate::control::prop;

/// A property value, read out of its VARIANT.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// `VT_EMPTY`, the not-supported sentinel (`VT_UNKNOWN`) or a type cup
    /// does not read.
    None,
    /// `VT_I4`, `VT_I2`, `VT_UI4`.
    Int(i64),
    /// `VT_BOOL`.
    Bool(bool),
    /// `VT_R8`.
    Real(f64),
    /// `VT_BSTR`.
    Str(String),
    /// `VT_ARRAY | VT_I4`.
    Ints(Vec<i32>),
    /// `VT_ARRAY | VT_R8`.
    Reals(Vec<f64>),
}

impl Val {
    fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }
    fn boolean(&self) -> Option<bool> {
        match self {
            Val::Bool(b) => Some(*b),
            Val::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
    fn real(&self) -> Option<f64> {
        match self {
            Val::Real(r) => Some(*r),
            Val::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
    fn text(&self) -> String {
        match self {
            Val::Str(s) => s.clone(),
            _ => String::new(),
        }
    }
}

/// Reads an array of `T` out of a SAFEARRAY.
///
/// # Safety
/// `psa` must be a valid one-dimensional SAFEARRAY of `T` elements.
unsafe fn array<T: Copy>(psa: *const SAFEARRAY) -> Vec<T> {
    if psa.is_null() {
        return Vec::new();
    }
    // SAFETY: the caller passes a valid SAFEARRAY; bounds and data access
    // are checked calls, and the data is read only between Access and
    // Unaccess, `upper - lower + 1` elements of `T`.
    unsafe {
        let (Ok(lower), Ok(upper)) = (SafeArrayGetLBound(psa, 1), SafeArrayGetUBound(psa, 1))
        else {
            return Vec::new();
        };
        let len = usize::try_from(upper - lower + 1).unwrap_or(0);
        let mut data: *mut core::ffi::c_void = core::ptr::null_mut();
        if len == 0 || SafeArrayAccessData(psa, &mut data).is_err() || data.is_null() {
            return Vec::new();
        }
        let out = core::slice::from_raw_parts(data.cast::<T>(), len).to_vec();
        let _ = SafeArrayUnaccessData(psa);
        out
    }
}

/// Reads and clears a VARIANT.
pub fn take(mut v: VARIANT) -> Val {
    // SAFETY: `vt` tells which union member is live; each arm reads only
    // that member; the VARIANT is then cleared once (releasing a BSTR,
    // array or interface it owns) and not used again.
    unsafe {
        let inner = &v.Anonymous.Anonymous;
        let vt = inner.vt;
        let val = if vt == VT_I4 {
            Val::Int(i64::from(inner.Anonymous.lVal))
        } else if vt == VT_I2 {
            Val::Int(i64::from(inner.Anonymous.iVal))
        } else if vt == VT_UI4 {
            Val::Int(i64::from(inner.Anonymous.ulVal))
        } else if vt == VT_BOOL {
            Val::Bool(inner.Anonymous.boolVal.as_bool())
        } else if vt == VT_R8 {
            Val::Real(inner.Anonymous.dblVal)
        } else if vt == VT_BSTR {
            Val::Str((*inner.Anonymous.bstrVal).to_string())
        } else if vt.0 == VT_ARRAY.0 | VT_I4.0 {
            Val::Ints(array::<i32>(inner.Anonymous.parray))
        } else if vt.0 == VT_ARRAY.0 | VT_R8.0 {
            Val::Reals(array::<f64>(inner.Anonymous.parray))
        } else {
            Val::None
        };
        let _ = VariantClear(&mut v);
        val
    }
}

/// One worker thread's UI Automation: the client object, the cache
/// request, and what this UIA implementation can do.
pub struct Uia {
    /// The client.
    pub automation: IUIAutomation,
    /// Every property of [`prop::ALL`] that the request took, subtree scope
    /// when possible.
    pub request: IUIAutomationCacheRequest,
    /// The request caches whole subtrees (Wine's cannot set a tree scope).
    pub subtree: bool,
    /// Children come from child windows: this UIA navigates no further
    /// than a window handle's element (Wine 10: no tree scope, child
    /// searches answer a null array).
    pub hwnd_children: bool,
    /// The same properties for one element (live re-reads of a target).
    pub element_request: IUIAutomationCacheRequest,
    /// The smaller request event handlers are registered with (UIA fills
    /// it for every event before the handler runs):
    /// [`prop::ALL`] without [`prop::EVENT_SKIPPED`].
    pub event_request: IUIAutomationCacheRequest,
    /// The condition of child fetches (the control view).
    pub children: IUIAutomationCondition,
    /// Properties the request refused (logged once).
    pub refused: Vec<i32>,
}

impl std::fmt::Debug for Uia {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uia")
            .field("subtree", &self.subtree)
            .field("refused", &self.refused)
            .finish_non_exhaustive()
    }
}

impl Uia {
    /// Starts COM (multithreaded) on this thread and makes the client:
    /// `CUIAutomation8`, else `CUIAutomation`.
    pub fn new() -> Result<Uia, String> {
        // Bounding rectangles in physical pixels on every monitor.
        super::win32::thread_dpi_aware();
        // SAFETY: COM initialisation of the calling (worker) thread, once;
        // S_FALSE (already initialised) is fine.
        let hr = unsafe { CoInitializeEx(None, COINIT_MULTITHREADED) };
        if hr.is_err() {
            return Err(format!(
                "CoInitializeEx(COINIT_MULTITHREADED) failed: HRESULT 0x{:08X}",
                crate::os::hresult_bits(hr)
            ));
        }
        // SAFETY: creating an in-process COM object by its class id.
        let automation: IUIAutomation = unsafe {
            CoCreateInstance(&CUIAutomation8, None, CLSCTX_INPROC_SERVER)
                .or_else(|_| CoCreateInstance(&CUIAutomation, None, CLSCTX_INPROC_SERVER))
        }
        .map_err(|e| {
            format!(
                "{}; UI Automation is not available (is uiautomationcore.dll registered?)",
                call_error(&e, "CoCreateInstance(CUIAutomation)")
            )
        })?;
        // SAFETY: plain COM calls on the client just made.
        let request = unsafe { automation.CreateCacheRequest() }
            .map_err(|e| call_error(&e, "IUIAutomation::CreateCacheRequest"))?;
        // SAFETY: as above.
        let element_request = unsafe { automation.CreateCacheRequest() }
            .map_err(|e| call_error(&e, "IUIAutomation::CreateCacheRequest"))?;
        // SAFETY: as above.
        let event_request = unsafe { automation.CreateCacheRequest() }
            .map_err(|e| call_error(&e, "IUIAutomation::CreateCacheRequest"))?;
        let mut refused = Vec::new();
        for id in prop::ALL {
            if !prop::EVENT_SKIPPED.contains(id) {
                // SAFETY: a COM call with a plain integer id.
                let _ = unsafe { event_request.AddProperty(UIA_PROPERTY_ID(*id)) };
            }
            // SAFETY: COM calls with a plain integer id.
            if unsafe { request.AddProperty(UIA_PROPERTY_ID(*id)) }.is_err() {
                refused.push(*id);
            }
            // SAFETY: as above.
            let _ = unsafe { element_request.AddProperty(UIA_PROPERTY_ID(*id)) };
        }
        // SAFETY: COM calls on the request and client just made.
        let subtree = unsafe { request.SetTreeScope(TreeScope_Subtree) }.is_ok();
        // SAFETY: as above.
        let children = unsafe { automation.ControlViewCondition() }
            .or_else(|_| unsafe { automation.CreateTrueCondition() })
            .map_err(|e| call_error(&e, "IUIAutomation::ControlViewCondition"))?;
        // SAFETY: as above; the control view is also the cache's filter.
        let _ = unsafe { request.SetTreeFilter(&children) };
        if !refused.is_empty() || !subtree {
            tracing::info!(?refused, subtree, "UI Automation cache request is limited");
        }
        // UIA's own time-outs (20 s per transaction by default): a large
        // window's subtree then fails with UIA_E_TIMEOUT within the
        // capture's budget and is read element by element (walk); a
        // provider that does not connect gives up in time. IUIAutomation2
        // is Windows 8.1+; without it the defaults stay.
        if let Ok(a2) = windows::core::Interface::cast::<IUIAutomation2>(&automation) {
            // SAFETY: plain COM setters on the client just made.
            unsafe {
                let _ = a2.SetTransactionTimeout(TRANSACTION_TIMEOUT_MS);
                let _ = a2.SetConnectionTimeout(CONNECTION_TIMEOUT_MS);
            }
        }
        Ok(Uia {
            automation,
            request,
            subtree,
            hwnd_children: !subtree,
            element_request,
            event_request,
            children,
            refused,
        })
    }

    /// A cached property of `el`.
    pub fn cached(&self, el: &IUIAutomationElement, id: i32) -> Val {
        // SAFETY: a COM call on a live element; the VARIANT is taken over.
        match unsafe { el.GetCachedPropertyValueEx(UIA_PROPERTY_ID(id), true) } {
            Ok(v) => take(v),
            Err(_) => Val::None,
        }
    }

    /// The element of window handle `hwnd` with `request`'s properties
    /// cached.
    fn handle_element(
        &self,
        hwnd: i64,
        request: &IUIAutomationCacheRequest,
    ) -> Result<IUIAutomationElement, ReadError> {
        let h = crate::os::win32::hwnd(hwnd);
        // SAFETY: COM calls with a window handle (UIA checks it) and one of
        // the worker's requests.
        let el = unsafe { self.automation.ElementFromHandle(h) }
            .map_err(|e| read_error(&e, "IUIAutomation::ElementFromHandle"))?;
        // SAFETY: as above.
        unsafe { el.BuildUpdatedCache(request) }
            .map_err(|e| read_error(&e, "IUIAutomationElement::BuildUpdatedCache"))
    }

    /// The element of window handle `hwnd`, with its own properties
    /// cached (no subtree).
    pub fn window_element(&self, hwnd: i64) -> Result<IUIAutomationElement, ReadError> {
        self.handle_element(hwnd, &self.element_request)
    }

    /// The root element of window `hwnd`, cached (with its subtree when the
    /// request has subtree scope).
    pub fn root(&self, hwnd: i64) -> Result<IUIAutomationElement, ReadError> {
        self.handle_element(hwnd, &self.request)
    }

    /// The facts of a cached element.
    pub fn facts(&self, el: &IUIAutomationElement) -> Element {
        let g = |id| self.cached(el, id);
        let b = |id| g(id).boolean().unwrap_or(false);
        let i = |id| g(id).int().unwrap_or(0);
        let r = |id| g(id).real().unwrap_or(0.0);
        let s = |id| g(id).text();
        let i32_of = |id| i32::try_from(i(id)).unwrap_or(0);
        let bounds = match g(prop::BOUNDING_RECTANGLE) {
            Val::Reals(v) if v.len() == 4 => Some(Bounds {
                left: v[0],
                top: v[1],
                width: v[2],
                height: v[3],
            }),
            _ => None,
        }
        .filter(|b| !b.is_empty());
        let runtime_id = match g(prop::RUNTIME_ID) {
            Val::Ints(v) => v,
            _ => Vec::new(),
        };
        let mut e = Element {
            control_type: i32_of(prop::CONTROL_TYPE),
            localized_control_type: s(prop::LOCALIZED_CONTROL_TYPE),
            name: s(prop::NAME),
            automation_id: s(prop::AUTOMATION_ID),
            class_name: s(prop::CLASS_NAME),
            framework_id: s(prop::FRAMEWORK_ID),
            bounds,
            // A provider that does not answer IsEnabled is not disabled.
            is_enabled: g(prop::IS_ENABLED).boolean().unwrap_or(true),
            is_offscreen: b(prop::IS_OFFSCREEN),
            has_keyboard_focus: b(prop::HAS_KEYBOARD_FOCUS),
            is_keyboard_focusable: b(prop::IS_KEYBOARD_FOCUSABLE),
            is_password: b(prop::IS_PASSWORD),
            is_required_for_form: b(prop::IS_REQUIRED_FOR_FORM),
            is_dialog: b(prop::IS_DIALOG),
            help_text: s(prop::HELP_TEXT),
            orientation: i32_of(prop::ORIENTATION),
            aria_role: s(prop::ARIA_ROLE),
            aria_properties: s(prop::ARIA_PROPERTIES),
            heading_level: i32_of(prop::HEADING_LEVEL),
            position_in_set: i32_of(prop::POSITION_IN_SET),
            size_of_set: i32_of(prop::SIZE_OF_SET),
            level: i32_of(prop::LEVEL),
            native_window_handle: i(prop::NATIVE_WINDOW_HANDLE),
            process_id: u32::try_from(i(prop::PROCESS_ID)).unwrap_or(0),
            window_style: crate::os::win32::style(i(prop::NATIVE_WINDOW_HANDLE)),
            runtime_id,
            ..Element::default()
        };
        let p = &mut e.patterns;
        p.invoke = b(prop::IS_INVOKE_AVAILABLE);
        if b(prop::IS_TOGGLE_AVAILABLE) {
            p.toggle = Some(i32_of(prop::TOGGLE_STATE));
        }
        if b(prop::IS_EXPAND_COLLAPSE_AVAILABLE) {
            p.expand_collapse = Some(i32_of(prop::EXPAND_COLLAPSE_STATE));
        }
        if b(prop::IS_VALUE_AVAILABLE) {
            p.value = Some(ValueFacts {
                value: s(prop::VALUE_VALUE),
                is_read_only: b(prop::VALUE_IS_READ_ONLY),
            });
        }
        if b(prop::IS_RANGE_VALUE_AVAILABLE) {
            p.range_value = Some(RangeFacts {
                value: r(prop::RANGE_VALUE),
                minimum: r(prop::RANGE_MINIMUM),
                maximum: r(prop::RANGE_MAXIMUM),
                small_change: r(prop::RANGE_SMALL_CHANGE),
                large_change: r(prop::RANGE_LARGE_CHANGE),
                is_read_only: b(prop::RANGE_IS_READ_ONLY),
            });
        }
        if b(prop::IS_SELECTION_AVAILABLE) {
            p.selection = Some(SelectionFacts {
                can_select_multiple: b(prop::SELECTION_CAN_MULTIPLE),
                is_selection_required: b(prop::SELECTION_REQUIRED),
            });
        }
        if b(prop::IS_SELECTION_ITEM_AVAILABLE) {
            p.selection_item = Some(b(prop::SELECTION_ITEM_IS_SELECTED));
        }
        if b(prop::IS_SCROLL_AVAILABLE) {
            p.scroll = Some(ScrollFacts {
                horizontally_scrollable: b(prop::SCROLL_H_SCROLLABLE),
                vertically_scrollable: b(prop::SCROLL_V_SCROLLABLE),
                horizontal_percent: r(prop::SCROLL_H_PERCENT),
                vertical_percent: r(prop::SCROLL_V_PERCENT),
                horizontal_view_size: r(prop::SCROLL_H_VIEW),
                vertical_view_size: r(prop::SCROLL_V_VIEW),
            });
        }
        p.scroll_item = b(prop::IS_SCROLL_ITEM_AVAILABLE);
        if b(prop::IS_GRID_AVAILABLE) {
            p.grid = Some(GridFacts {
                row_count: i32_of(prop::GRID_ROW_COUNT),
                column_count: i32_of(prop::GRID_COLUMN_COUNT),
            });
        }
        if b(prop::IS_GRID_ITEM_AVAILABLE) {
            p.grid_item = Some(GridItemFacts {
                row: i32_of(prop::GRID_ITEM_ROW),
                column: i32_of(prop::GRID_ITEM_COLUMN),
                row_span: i32_of(prop::GRID_ITEM_ROW_SPAN),
                column_span: i32_of(prop::GRID_ITEM_COLUMN_SPAN),
            });
        }
        p.table = b(prop::IS_TABLE_AVAILABLE);
        p.table_item = b(prop::IS_TABLE_ITEM_AVAILABLE);
        if b(prop::IS_WINDOW_AVAILABLE) {
            p.window = Some(WindowPatternFacts {
                is_modal: b(prop::WINDOW_IS_MODAL),
                is_topmost: b(prop::WINDOW_IS_TOPMOST),
                can_minimize: b(prop::WINDOW_CAN_MINIMIZE),
                can_maximize: b(prop::WINDOW_CAN_MAXIMIZE),
                visual_state: i32_of(prop::WINDOW_VISUAL_STATE),
            });
        }
        p.text = b(prop::IS_TEXT_AVAILABLE);
        let legacy_role = g(prop::LEGACY_ROLE).int();
        if b(prop::IS_LEGACY_AVAILABLE) || legacy_role.is_some() {
            p.legacy = Some(Legacy {
                role: u32::try_from(legacy_role.unwrap_or(0)).unwrap_or(0),
                state: u32::try_from(i(prop::LEGACY_STATE)).unwrap_or(0),
                default_action: s(prop::LEGACY_DEFAULT_ACTION),
                value: s(prop::LEGACY_VALUE),
            });
        }
        e
    }

    fn elements(
        &self,
        arr: windows::core::Result<windows::Win32::UI::Accessibility::IUIAutomationElementArray>,
        what: &str,
    ) -> Result<Vec<IUIAutomationElement>, ReadError> {
        let arr = match arr {
            Ok(a) => a,
            // No children: UIA answers a null array with S_OK.
            Err(e) if e.code().is_ok() => return Ok(Vec::new()),
            Err(e) => return Err(read_error(&e, what)),
        };
        // SAFETY: COM calls on a live element array, indexes below its
        // length.
        unsafe {
            let n = arr.Length().map_err(|e| read_error(&e, what))?;
            let mut out = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
            for i in 0..n {
                out.push(arr.GetElement(i).map_err(|e| read_error(&e, what))?);
            }
            Ok(out)
        }
    }
}

/// UIA's transaction time-out (ms): one cross-process call, a whole
/// subtree fetch included; under the 3 s default capture budget, so a
/// subtree that times out leaves time to read element by element.
pub const TRANSACTION_TIMEOUT_MS: u32 = 1500;
/// UIA's connection time-out (ms).
pub const CONNECTION_TIMEOUT_MS: u32 = 1000;

/// The walk's reads over one worker's [`Uia`].
#[derive(Debug)]
pub struct UiaReads<'a> {
    /// The worker's client.
    pub uia: &'a Uia,
    /// Children are fetched with the element-scope request (the subtree
    /// timed out: [`Reads::fetch_root`]).
    pub per_element: bool,
}

impl Reads for UiaReads<'_> {
    type Element = IUIAutomationElement;

    fn fetch(&mut self, hwnd: i64) -> Result<(IUIAutomationElement, bool), ReadError> {
        Ok((self.uia.root(hwnd)?, self.uia.subtree))
    }

    fn fetch_root(&mut self, hwnd: i64) -> Result<IUIAutomationElement, ReadError> {
        self.per_element = true;
        self.uia.window_element(hwnd)
    }

    fn facts(&mut self, element: &IUIAutomationElement) -> Element {
        self.uia.facts(element)
    }

    fn cached_children(
        &mut self,
        element: &IUIAutomationElement,
    ) -> Result<Vec<IUIAutomationElement>, ReadError> {
        // SAFETY: a COM call on a live, cached element.
        let arr = unsafe { element.GetCachedChildren() };
        self.uia
            .elements(arr, "IUIAutomationElement::GetCachedChildren")
    }

    fn fetch_children(
        &mut self,
        element: &IUIAutomationElement,
    ) -> Result<Vec<IUIAutomationElement>, ReadError> {
        // SAFETY: a COM call on a live element with the worker's condition
        // and request.
        let request = if self.per_element {
            &self.uia.element_request
        } else {
            &self.uia.request
        };
        let arr =
            unsafe { element.FindAllBuildCache(TreeScope_Children, &self.uia.children, request) };
        let found = self
            .uia
            .elements(arr, "IUIAutomationElement::FindAllBuildCache")?;
        if !found.is_empty() || !self.uia.hwnd_children {
            return Ok(found);
        }
        // This UIA does not navigate below a window handle's element
        // (Wine 10): the element's child windows are its children.
        let hwnd = self
            .uia
            .cached(element, prop::NATIVE_WINDOW_HANDLE)
            .int()
            .unwrap_or(0);
        if hwnd == 0 {
            return Ok(Vec::new());
        }
        let handles = crate::os::win32::child_windows(hwnd);
        let elements: Vec<IUIAutomationElement> = handles
            .iter()
            .filter_map(|h| match self.uia.window_element(*h) {
                Ok(el) => Some(el),
                Err(e) => {
                    tracing::debug!(hwnd = h, %e, "a child window has no UIA element");
                    None
                }
            })
            .collect();
        tracing::debug!(
            parent = hwnd,
            windows = handles.len(),
            elements = elements.len(),
            "children from child windows"
        );
        Ok(elements)
    }
}
