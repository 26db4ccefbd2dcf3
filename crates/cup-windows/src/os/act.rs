//! Acting on an element found again from its reference: pattern calls,
//! focus, and the live reads an action's effect is judged by.

use cup_protocol::Direction;
use windows::Win32::UI::Accessibility::{
    IUIAutomationElement, IUIAutomationExpandCollapsePattern, IUIAutomationInvokePattern,
    IUIAutomationLegacyIAccessiblePattern, IUIAutomationRangeValuePattern,
    IUIAutomationScrollItemPattern, IUIAutomationScrollPattern, IUIAutomationSelectionItemPattern,
    IUIAutomationTogglePattern, IUIAutomationValuePattern, IUIAutomationWindowPattern,
    ScrollAmount, ScrollAmount_LargeDecrement, ScrollAmount_LargeIncrement, ScrollAmount_NoAmount,
    UIA_ExpandCollapsePatternId, UIA_InvokePatternId, UIA_LegacyIAccessiblePatternId,
    UIA_RangeValuePatternId, UIA_ScrollItemPatternId, UIA_ScrollPatternId,
    UIA_SelectionItemPatternId, UIA_TogglePatternId, UIA_ValuePatternId, UIA_WindowPatternId,
};

use crate::act::{describe, Plan};
use crate::facts::Element;
use crate::os::call_error;
use crate::os::uia::Uia;
use crate::refs::ElementRef;
use crate::walk::Reads;

/// Finds the element `r` names: from its window's root along its path,
/// one round trip a level with element-scope requests (not the window's
/// whole subtree: an action locates its target up to three times, and a
/// large window's subtree took longer than the action's deadline),
/// checked by control type and (when the provider gives one) runtime id;
/// a runtime id that moved is searched for in the window.
pub fn locate(uia: &Uia, r: &ElementRef) -> Result<(IUIAutomationElement, Element), String> {
    let stale = "the element is no longer where the snapshot saw it (the window changed); take a new snapshot";
    let mut reads = crate::os::uia::UiaReads {
        uia,
        per_element: true,
    };
    let mut el = reads
        .fetch_root(r.hwnd)
        .map_err(|e| format!("{e}; the window may have closed — take a new snapshot"))?;
    let root = el.clone();
    let mut on_path = true;
    for &i in &r.path {
        let mut kids = reads.fetch_children(&el).map_err(|e| e.to_string())?;
        if i >= kids.len() {
            on_path = false;
            break;
        }
        el = kids.swap_remove(i);
    }
    if on_path {
        let facts = reads.facts(&el);
        let same_id = r.runtime_id.is_empty() || facts.runtime_id == r.runtime_id;
        if same_id && facts.control_type == r.control_type {
            return Ok((el, facts));
        }
    }
    // Not at its path any more (a sibling inserted before it, a list that
    // scrolled): its runtime id, when it has one, is searched for.
    crate::walk::find_runtime_id(&mut reads, root, &r.runtime_id, MOVED_SEARCH)
        .map(|el| (reads.facts(&el), el))
        .filter(|(facts, _)| facts.control_type == r.control_type)
        .map(|(facts, el)| (el, facts))
        .ok_or_else(|| stale.into())
}

/// Elements read at most (a round trip each) when searching for one that
/// moved.
const MOVED_SEARCH: usize = 1_000;

/// The live facts of `el` (one round trip).
pub fn refresh(uia: &Uia, el: &IUIAutomationElement) -> Option<Element> {
    // SAFETY: a COM call on a live element with the worker's element-scope
    // request.
    let fresh = unsafe { el.BuildUpdatedCache(&uia.element_request) }.ok()?;
    Some(uia.facts(&fresh))
}

/// The focused element, described (`textbox "Search"`). A UIA that
/// answers the desktop (Wine 10) is asked for the focused window's
/// element instead.
pub fn focus(uia: &Uia) -> Option<String> {
    // SAFETY: COM calls on the worker's client and request.
    let el = unsafe {
        uia.automation
            .GetFocusedElementBuildCache(&uia.element_request)
    }
    .ok();
    match el.map(|e| uia.facts(&e)) {
        Some(f) if f.class_name != "#32769" => Some(describe(&f)),
        _ => {
            let h = crate::os::win32::focus_window();
            if h == 0 {
                return None;
            }
            let el = uia.window_element(h).ok()?;
            Some(describe(&uia.facts(&el)))
        }
    }
}

/// Where UIA says a click on `el` lands on it (`GetClickablePoint`), in
/// physical pixels, when the provider knows one.
pub fn clickable_point(el: &IUIAutomationElement) -> Option<(i64, i64)> {
    let mut p = windows::Win32::Foundation::POINT::default();
    // SAFETY: a COM call on a live element writing into a local POINT.
    let got = unsafe { el.GetClickablePoint(&mut p) }.ok()?;
    got.as_bool().then_some((i64::from(p.x), i64::from(p.y)))
}

/// Scrolls `el` into view through its `ScrollItem` pattern.
pub fn scroll_into_view(el: &IUIAutomationElement) -> Result<(), String> {
    let p: IUIAutomationScrollItemPattern = pattern(el, UIA_ScrollItemPatternId, "ScrollItem")?;
    // SAFETY: a COM call on the element's live pattern.
    unsafe { p.ScrollIntoView() }.map_err(|e| call_error(&e, "ScrollIntoView"))
}

fn pattern<T: windows::core::Interface>(
    el: &IUIAutomationElement,
    id: windows::Win32::UI::Accessibility::UIA_PATTERN_ID,
    name: &str,
) -> Result<T, String> {
    // SAFETY: a COM call on a live element; the result is cast to the
    // pattern interface that id stands for.
    unsafe { el.GetCurrentPatternAs::<T>(id) }.map_err(|e| {
        format!(
            "{}; the element does not offer the {name} pattern now",
            call_error(&e, &format!("GetCurrentPattern({name})"))
        )
    })
}

fn amounts(d: Direction) -> (ScrollAmount, ScrollAmount) {
    match d {
        Direction::Up => (ScrollAmount_NoAmount, ScrollAmount_LargeDecrement),
        Direction::Down => (ScrollAmount_NoAmount, ScrollAmount_LargeIncrement),
        Direction::Left => (ScrollAmount_LargeDecrement, ScrollAmount_NoAmount),
        Direction::Right => (ScrollAmount_LargeIncrement, ScrollAmount_NoAmount),
    }
}

/// Performs a pattern plan on `el` and says what was done. Input plans
/// (click, wheel, typing) are the caller's.
pub fn perform(el: &IUIAutomationElement, plan: &Plan) -> Result<String, String> {
    let done = |what: &str| Ok(what.to_owned());
    let fail = |e: windows::core::Error, what: &str| Err(call_error(&e, what));
    // SAFETY (every block below): COM calls on a live element or one of
    // its patterns, with plain arguments.
    match plan {
        Plan::Invoke => {
            let p: IUIAutomationInvokePattern = pattern(el, UIA_InvokePatternId, "Invoke")?;
            unsafe { p.Invoke() }.map_or_else(|e| fail(e, "Invoke"), |()| done("Invoked"))
        }
        Plan::Toggle => {
            let p: IUIAutomationTogglePattern = pattern(el, UIA_TogglePatternId, "Toggle")?;
            unsafe { p.Toggle() }.map_or_else(|e| fail(e, "Toggle"), |()| done("Toggled"))
        }
        Plan::Expand => {
            let p: IUIAutomationExpandCollapsePattern =
                pattern(el, UIA_ExpandCollapsePatternId, "ExpandCollapse")?;
            unsafe { p.Expand() }.map_or_else(|e| fail(e, "Expand"), |()| done("Expanded"))
        }
        Plan::Collapse => {
            let p: IUIAutomationExpandCollapsePattern =
                pattern(el, UIA_ExpandCollapsePatternId, "ExpandCollapse")?;
            unsafe { p.Collapse() }.map_or_else(|e| fail(e, "Collapse"), |()| done("Collapsed"))
        }
        Plan::Select => {
            let p: IUIAutomationSelectionItemPattern =
                pattern(el, UIA_SelectionItemPatternId, "SelectionItem")?;
            unsafe { p.Select() }.map_or_else(|e| fail(e, "Select"), |()| done("Selected"))
        }
        Plan::SetValue(v) => {
            let p: IUIAutomationValuePattern = pattern(el, UIA_ValuePatternId, "Value")?;
            unsafe { p.SetValue(&windows::core::BSTR::from(v.as_str())) }
                .map_or_else(|e| fail(e, "SetValue"), |()| done("Value set"))
        }
        Plan::SetRange(n) => {
            let p: IUIAutomationRangeValuePattern =
                pattern(el, UIA_RangeValuePatternId, "RangeValue")?;
            unsafe { p.SetValue(*n) }
                .map_or_else(|e| fail(e, "RangeValue.SetValue"), |()| done("Value set"))
        }
        Plan::Scroll(d, n) => {
            let p: IUIAutomationScrollPattern = pattern(el, UIA_ScrollPatternId, "Scroll")?;
            let (h, v) = amounts(*d);
            for _ in 0..*n {
                if let Err(e) = unsafe { p.Scroll(h, v) } {
                    return fail(e, "Scroll");
                }
            }
            done("Scrolled")
        }
        Plan::Close => {
            let p: IUIAutomationWindowPattern = pattern(el, UIA_WindowPatternId, "Window")?;
            unsafe { p.Close() }.map_or_else(|e| fail(e, "Window.Close"), |()| done("Closed"))
        }
        Plan::DefaultAction => {
            let p: IUIAutomationLegacyIAccessiblePattern =
                pattern(el, UIA_LegacyIAccessiblePatternId, "LegacyIAccessible")?;
            unsafe { p.DoDefaultAction() }.map_or_else(
                |e| fail(e, "DoDefaultAction"),
                |()| done("Default action done"),
            )
        }
        Plan::Focus | Plan::FocusAndType { .. } => {
            unsafe { el.SetFocus() }.map_or_else(|e| fail(e, "SetFocus"), |()| done("Focused"))
        }
        Plan::Click { .. } | Plan::Wheel { .. } => {
            Err("a pointer plan is performed with input, not a pattern".into())
        }
    }
}
