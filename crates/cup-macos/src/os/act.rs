//! Acting through Accessibility: an element found again from its
//! reference, AX actions performed, Boolean, text and number attributes
//! set, a window's close button pressed, a window raised; and the reads an
//! action is judged by (the target again, the focused element).

use objc2_application_services::{AXError, AXUIElement};
use objc2_core_foundation::{CFBoolean, CFNumber, CFRetained, CFString, CFType};

use crate::act::Plan;
use crate::facts::{AxElement, WindowFacts};
use crate::os::ax::{self, AxReads};
use crate::refs::ElementRef;

fn ax_result(e: AXError, what: &str) -> Result<(), String> {
    match e {
        AXError::Success => Ok(()),
        AXError::ActionUnsupported | AXError::AttributeUnsupported => Err(format!(
            "{what}: the element does not support it (it changed since the snapshot?); take a new snapshot"
        )),
        AXError::IllegalArgument => Err(format!("{what}: the app refused the value")),
        other => Err(ax::read_error(other, what).to_string()),
    }
}

/// The element `r` names and its facts, found by walking its child-index
/// path from its window, checked to have the role the snapshot saw.
///
/// # Errors
///
/// The window or element is gone, or the path now reaches another role.
pub fn locate(
    reads: &AxReads,
    r: &ElementRef,
    windows: &[WindowFacts],
) -> Result<(CFRetained<AXUIElement>, AxElement), String> {
    let gone = || {
        "the element is no longer where the snapshot saw it (its window changed); take a new snapshot"
            .to_owned()
    };
    let window = if r.window == 0 {
        WindowFacts {
            number: 0,
            pid: r.pid,
            ..WindowFacts::default()
        }
    } else {
        windows
            .iter()
            .find(|w| w.number == r.window && w.pid == r.pid)
            .cloned()
            .ok_or_else(|| {
                "the element's window is closed or on another Space; take a new snapshot".to_owned()
            })?
    };
    let mut el = ax::window_element(&window).map_err(|e| e.to_string())?;
    for &i in &r.path {
        let next = ax::children(&el)
            .map_err(|e| e.to_string())?
            .into_iter()
            .nth(i)
            .ok_or_else(gone)?;
        el = next;
    }
    let facts = reads.facts(&el).map_err(|e| e.to_string())?;
    if facts.role != r.role {
        return Err(gone());
    }
    Ok((el, facts))
}

/// The facts of `el` now (`None`: gone).
pub fn refresh(reads: &AxReads, el: &AXUIElement) -> Option<AxElement> {
    reads.facts(el).ok()
}

/// The focused element of app `pid`, read.
pub fn focus(reads: &AxReads, pid: i32) -> Option<AxElement> {
    let app = ax::app(pid);
    let el = ax::element_attribute(&app, "AXFocusedUIElement").ok()??;
    refresh(reads, &el)
}

fn set(el: &AXUIElement, attr: &str, value: &CFType) -> Result<(), String> {
    // SAFETY: a live element, an attribute name and a CF value.
    let e = unsafe { el.set_attribute_value(&CFString::from_str(attr), value) };
    ax_result(e, &format!("setting {attr}"))
}

/// Sets `AXFocused` on `el`.
///
/// # Errors
///
/// The app refused it.
pub fn set_focused(el: &AXUIElement) -> Result<(), String> {
    set(el, "AXFocused", CFBoolean::new(true))
}

/// Performs the AX part of `plan` on `el` (pid `pid`) and says what was
/// done. Input plans are the caller's.
///
/// # Errors
///
/// The app refused or did not answer.
pub fn perform(el: &AXUIElement, pid: i32, plan: &Plan) -> Result<String, String> {
    match plan {
        Plan::Perform(action) => {
            // SAFETY: a live element and an action name.
            let e = unsafe { el.perform_action(&CFString::from_str(action)) };
            ax_result(e, action)?;
            Ok(format!("Performed {action}"))
        }
        Plan::SetBool(attr, on) => {
            set(el, attr, CFBoolean::new(*on))?;
            Ok(format!("Set {attr} to {on}"))
        }
        Plan::SetText(text) => {
            set(el, "AXValue", &CFString::from_str(text))?;
            Ok(format!(
                "Set the value ({} characters)",
                text.chars().count()
            ))
        }
        Plan::SetNumber(n) => {
            set(el, "AXValue", &CFNumber::new_f64(*n))?;
            Ok(format!("Set the value to {n}"))
        }
        Plan::CloseWindow => {
            let button = ax::element_attribute(el, "AXCloseButton")
                .map_err(|e| e.to_string())?
                .ok_or_else(|| {
                    "the window has no close button; press escape or cmd+w instead".to_owned()
                })?;
            // SAFETY: a live element and an action name.
            let e = unsafe { button.perform_action(&CFString::from_str("AXPress")) };
            ax_result(e, "pressing the close button")?;
            Ok("Pressed the window's close button".into())
        }
        Plan::Raise => {
            let app = ax::app(pid);
            set(&app, "AXFrontmost", CFBoolean::new(true))?;
            // SAFETY: a live element and an action name.
            let e = unsafe { el.perform_action(&CFString::from_str("AXRaise")) };
            ax_result(e, "AXRaise")?;
            let _ = set(el, "AXMain", CFBoolean::new(true));
            Ok("Raised the window and brought its app to the front".into())
        }
        Plan::FocusAndType { .. }
        | Plan::Click { .. }
        | Plan::Hold { .. }
        | Plan::Wheel { .. }
        | Plan::Escape => Err("an input plan has no AX call".into()),
    }
}
