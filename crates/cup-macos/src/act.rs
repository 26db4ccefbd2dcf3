//! Actions, decided from native facts: which AX action or attribute
//! performs a verb on an element ([`plan`]), or CGEvents at the element's
//! centre when it names none (web content, custom views); and what changed
//! afterwards ([`changes`]), so a result is `confirmed` only with evidence.
//!
//! AX actions are pure RPC to the app: they work on background and hidden
//! windows and move neither the user's pointer nor the focus. Input
//! fallbacks are delivered to the element's process (`CGEventPostToPid`).

use cup::plan::{number, refuse_disabled};
use cup::Change;
use cup_protocol::{Action, Direction};

use crate::facts::{AxElement, AxValue};
use crate::mapping::{map_element, Context, MapContext};
use crate::screen::Layout;

/// How a verb is performed.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// `AXUIElementPerformAction` with this action (`AXPress`, ...).
    Perform(&'static str),
    /// `AXUIElementSetAttributeValue` of a Boolean attribute (`AXFocused`,
    /// `AXSelected`, `AXExpanded`, `AXDisclosing`).
    SetBool(&'static str, bool),
    /// `AXValue` set to this text.
    SetText(String),
    /// `AXValue` set to this number (sliders, steppers).
    SetNumber(f64),
    /// The window's close button (`AXCloseButton`), pressed.
    CloseWindow,
    /// The window raised (`AXRaise`, `AXMain`) and its app made frontmost.
    Raise,
    /// Focus the element (`AXFocused`; a click at its centre when that is
    /// refused), select all when replacing, then type the text as
    /// keyboard events to its process.
    FocusAndType {
        /// The text.
        text: String,
        /// Replace what is there (cmd+a first).
        replace: bool,
        /// Where to click when `AXFocused` is refused (points).
        at: Option<(f64, f64)>,
    },
    /// Pointer clicks at the element's centre (global points).
    Click {
        /// Points.
        x: f64,
        /// Points.
        y: f64,
        /// The secondary button.
        right: bool,
        /// 1, 2 (double click).
        count: u8,
    },
    /// The left button held at the centre (long press).
    Hold {
        /// Points.
        x: f64,
        /// Points.
        y: f64,
    },
    /// The wheel over the element's centre.
    Wheel {
        /// Points.
        x: f64,
        /// Points.
        y: f64,
        /// Which way the content moves into view.
        direction: Direction,
        /// Notches.
        notches: u32,
    },
    /// Escape to the element's process (closes a menu or popup that has no
    /// `AXCancel`).
    Escape,
}

pub use cup::plan::PlanError;

/// The centre of `el` in global points, when it is on a display.
fn centre(el: &AxElement, layout: &Layout, verb: &str) -> Result<(f64, f64), PlanError> {
    match el.frame.filter(|f| !f.is_empty()) {
        Some(f) if !layout.offscreen(&f) => Ok(f.centre()),
        _ => Err(PlanError(format!(
            "the element names no AX action for {verb} and has no place on screen to click (offscreen or collapsed); scroll it into view or open its parent first"
        ))),
    }
}

/// Roles whose selection is the `AXSelected` attribute (rows, cells,
/// items of lists and outlines).
fn selected_by_attribute(ax_role: &str) -> bool {
    matches!(ax_role, "AXRow" | "AXCell" | "AXOutlineRow")
}

/// Roles that open a menu or list when pressed.
fn opens_popup(ax_role: &str) -> bool {
    matches!(
        ax_role,
        "AXPopUpButton" | "AXComboBox" | "AXMenuButton" | "AXMenuBarItem"
    )
}

/// The plan for `action` on `el` (on the displays of `layout`). `value`
/// is the action's text or number, `direction`/`amount` a scroll's.
pub fn plan(
    el: &AxElement,
    layout: &Layout,
    action: Action,
    value: Option<&str>,
    direction: Option<Direction>,
    amount: Option<u32>,
) -> Result<Plan, PlanError> {
    let ax = |name: &str| el.actions.iter().any(|a| a == name);
    let first = |names: &[&'static str]| names.iter().copied().find(|n| ax(n));
    refuse_disabled(el.enabled != Some(false), action)?;
    let need_value = || cup::plan::need_value(action, value);
    let click = |right: bool, count: u8| -> Result<Plan, PlanError> {
        let (x, y) = centre(el, layout, action.name())?;
        Ok(Plan::Click { x, y, right, count })
    };
    let role = el.role.as_str();
    let window_like = matches!(role, "AXWindow" | "AXSheet" | "AXDrawer");
    match action {
        Action::Click | Action::Toggle => match first(&["AXPress", "AXConfirm", "AXPick"]) {
            Some(a) => Ok(Plan::Perform(a)),
            None if selected_by_attribute(role) => Ok(Plan::SetBool("AXSelected", true)),
            None => click(false, 1),
        },
        Action::DoubleClick => match first(&["AXOpen"]) {
            Some(a) => Ok(Plan::Perform(a)),
            None => click(false, 2),
        },
        Action::RightClick => match first(&["AXShowMenu"]) {
            Some(a) => Ok(Plan::Perform(a)),
            None => click(true, 1),
        },
        Action::LongPress => {
            let (x, y) = centre(el, layout, "longpress")?;
            Ok(Plan::Hold { x, y })
        }
        Action::Expand | Action::Collapse => {
            let open = action == Action::Expand;
            if matches!(role, "AXRow" | "AXOutlineRow") {
                return Ok(Plan::SetBool("AXDisclosing", open));
            }
            if role == "AXDisclosureTriangle" {
                return match first(&["AXPress"]) {
                    Some(a) => Ok(Plan::Perform(a)),
                    None => click(false, 1),
                };
            }
            if opens_popup(role) {
                return if open {
                    match first(&["AXShowMenu", "AXPress", "AXPick"]) {
                        Some(a) => Ok(Plan::Perform(a)),
                        None => click(false, 1),
                    }
                } else {
                    Ok(first(&["AXCancel"]).map_or(Plan::Escape, Plan::Perform))
                };
            }
            if el.expanded.is_some() {
                return Ok(Plan::SetBool("AXExpanded", open));
            }
            match first(&["AXPress"]) {
                Some(a) => Ok(Plan::Perform(a)),
                None => click(false, 1),
            }
        }
        Action::Select => {
            if selected_by_attribute(role) {
                Ok(Plan::SetBool("AXSelected", true))
            } else if let Some(a) = first(&["AXPick", "AXPress"]) {
                Ok(Plan::Perform(a))
            } else {
                click(false, 1)
            }
        }
        Action::SetValue => {
            let v = need_value()?;
            let settable = el.value_settable != Some(false);
            match role {
                "AXSlider" | "AXIncrementor" if settable => Ok(Plan::SetNumber(number(&v)?)),
                "AXTextField" | "AXTextArea" | "AXComboBox" | "AXSearchField"
                    if el.value_settable == Some(true) =>
                {
                    Ok(Plan::SetText(v))
                }
                // Secure fields take typed keys only.
                _ => Ok(Plan::FocusAndType {
                    text: v,
                    replace: true,
                    at: el.frame.map(|f| f.centre()),
                }),
            }
        }
        Action::Type => Ok(Plan::FocusAndType {
            text: need_value()?,
            replace: false,
            at: el.frame.map(|f| f.centre()),
        }),
        Action::Increment | Action::Decrement => {
            let up = action == Action::Increment;
            if let Some(a) = first(if up {
                &["AXIncrement"]
            } else {
                &["AXDecrement"]
            }) {
                return Ok(Plan::Perform(a));
            }
            let (Some(v), Some(min), Some(max)) = (
                el.value.as_ref().and_then(AxValue::number),
                el.min_value,
                el.max_value,
            ) else {
                return Err(PlanError(format!(
                    "the element has no AX{} action and no range; it cannot {}",
                    if up { "Increment" } else { "Decrement" },
                    action.name()
                )));
            };
            if el.value_settable == Some(false) {
                return Err(PlanError(format!(
                    "the element's value is read-only; it cannot {}",
                    action.name()
                )));
            }
            // One step is a tenth of the range, as AXIncrement does for
            // sliders without tick marks.
            let step = ((max - min) / 10.0).abs().max(f64::EPSILON);
            let next = if up { v + step } else { v - step };
            Ok(Plan::SetNumber(next.clamp(min.min(max), max.max(min))))
        }
        Action::Scroll => {
            let (x, y) = centre(el, layout, "scroll")?;
            Ok(Plan::Wheel {
                x,
                y,
                direction: direction.unwrap_or(Direction::Down),
                notches: amount.unwrap_or(3).max(1),
            })
        }
        Action::Dismiss => {
            if let Some(a) = first(&["AXCancel"]) {
                return Ok(Plan::Perform(a));
            }
            if window_like {
                return Ok(Plan::CloseWindow);
            }
            if matches!(role, "AXMenu" | "AXMenuItem" | "AXPopover") || opens_popup(role) {
                return Ok(Plan::Escape);
            }
            Err(PlanError(
                "only a window, sheet, popover or menu can be dismissed; press escape to close anything else"
                    .into(),
            ))
        }
        Action::Focus if window_like => Ok(Plan::Raise),
        Action::Focus => Ok(Plan::SetBool("AXFocused", true)),
    }
}

/// What cup compares before and after an action: the target's AX facts,
/// the app windows front to back (`kCGWindowNumber` and title), the
/// focused element.
pub type Observed = cup::watch::Observed<AxElement>;

/// The context elements are mapped in to be compared or named.
fn context(layout: &Layout) -> MapContext<'_> {
    MapContext {
        layout,
        family: Context::default(),
    }
}

/// How an element outside the snapshot is named in a change
/// (`textbox "Search"`; the role alone when it has no name).
pub fn describe(el: &AxElement, layout: &Layout) -> String {
    cup::watch::describe(&map_element(el, &context(layout)))
}

/// The changes from `before` to `after`, the target named `target`
/// ([`cup::watch::changes`]).
pub fn changes(target: &str, before: &Observed, after: &Observed, layout: &Layout) -> Vec<Change> {
    let ctx = context(layout);
    cup::watch::changes(target, before, after, |el| map_element(el, &ctx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::PointRect;

    fn layout() -> Layout {
        crate::screen::one_display(1512.0, 982.0, 2.0)
    }

    fn el(role: &str, actions: &[&str]) -> AxElement {
        AxElement {
            role: role.into(),
            enabled: Some(true),
            frame: Some(PointRect {
                x: 100.0,
                y: 10.0,
                w: 40.0,
                h: 20.0,
            }),
            actions: actions.iter().map(|a| (*a).to_owned()).collect(),
            ..AxElement::default()
        }
    }

    fn p(e: &AxElement, a: Action) -> Result<Plan, PlanError> {
        plan(e, &layout(), a, None, None, None)
    }

    #[test]
    fn ax_actions_come_first_and_the_pointer_stands_in() {
        let b = el("AXButton", &["AXPress", "AXShowMenu"]);
        assert_eq!(p(&b, Action::Click), Ok(Plan::Perform("AXPress")));
        assert_eq!(p(&b, Action::RightClick), Ok(Plan::Perform("AXShowMenu")));
        assert_eq!(
            p(&b, Action::DoubleClick),
            Ok(Plan::Click {
                x: 120.0,
                y: 20.0,
                right: false,
                count: 2
            })
        );
        let finder_item = el("AXImage", &["AXOpen"]);
        assert_eq!(
            p(&finder_item, Action::DoubleClick),
            Ok(Plan::Perform("AXOpen"))
        );
        let web = el("AXGroup", &[]);
        assert_eq!(
            p(&web, Action::Click),
            Ok(Plan::Click {
                x: 120.0,
                y: 20.0,
                right: false,
                count: 1
            })
        );
        let menu_bar_item = el("AXMenuBarItem", &["AXPick", "AXCancel"]);
        assert_eq!(
            p(&menu_bar_item, Action::Click),
            Ok(Plan::Perform("AXPick"))
        );
        assert_eq!(
            p(&menu_bar_item, Action::Expand),
            Ok(Plan::Perform("AXPick"))
        );
        assert_eq!(
            p(&menu_bar_item, Action::Collapse),
            Ok(Plan::Perform("AXCancel"))
        );
    }

    #[test]
    fn attributes_select_expand_focus_and_set_values() {
        let row = el("AXRow", &["AXShowMenu"]);
        assert_eq!(
            p(&row, Action::Select),
            Ok(Plan::SetBool("AXSelected", true))
        );
        assert_eq!(
            p(&row, Action::Expand),
            Ok(Plan::SetBool("AXDisclosing", true))
        );
        let mut field = el("AXTextField", &["AXConfirm"]);
        field.value_settable = Some(true);
        assert_eq!(
            plan(&field, &layout(), Action::SetValue, Some("hi"), None, None),
            Ok(Plan::SetText("hi".into()))
        );
        assert_eq!(
            plan(&field, &layout(), Action::Type, Some("hi"), None, None),
            Ok(Plan::FocusAndType {
                text: "hi".into(),
                replace: false,
                at: Some((120.0, 20.0))
            })
        );
        assert_eq!(
            p(&field, Action::Focus),
            Ok(Plan::SetBool("AXFocused", true))
        );
        field.value_settable = Some(false);
        assert!(matches!(
            plan(&field, &layout(), Action::SetValue, Some("hi"), None, None),
            Ok(Plan::FocusAndType { replace: true, .. })
        ));
        let err = p(&field, Action::SetValue).expect_err("no value");
        assert!(err.0.contains("needs a value"), "{err}");
        let mut slider = el("AXSlider", &[]);
        slider.value = Some(AxValue::Number(95.0));
        slider.min_value = Some(0.0);
        slider.max_value = Some(100.0);
        assert_eq!(p(&slider, Action::Increment), Ok(Plan::SetNumber(100.0)));
        assert_eq!(p(&slider, Action::Decrement), Ok(Plan::SetNumber(85.0)));
        assert_eq!(
            plan(&slider, &layout(), Action::SetValue, Some("42"), None, None),
            Ok(Plan::SetNumber(42.0))
        );
        assert!(plan(
            &slider,
            &layout(),
            Action::SetValue,
            Some("lots"),
            None,
            None
        )
        .is_err());
        let stepper = el("AXIncrementor", &["AXIncrement", "AXDecrement"]);
        assert_eq!(
            p(&stepper, Action::Decrement),
            Ok(Plan::Perform("AXDecrement"))
        );
        let window = el("AXWindow", &["AXRaise"]);
        assert_eq!(p(&window, Action::Focus), Ok(Plan::Raise));
        assert_eq!(p(&window, Action::Dismiss), Ok(Plan::CloseWindow));
        let menu = el("AXMenu", &[]);
        assert_eq!(p(&menu, Action::Dismiss), Ok(Plan::Escape));
    }

    #[test]
    fn refusals_say_what_to_do() {
        let mut d = el("AXButton", &["AXPress"]);
        d.enabled = Some(false);
        assert!(p(&d, Action::Click)
            .expect_err("disabled")
            .0
            .contains("enable it"));
        let mut off = el("AXGroup", &[]);
        off.frame = Some(PointRect {
            x: 5000.0,
            y: 5000.0,
            w: 10.0,
            h: 10.0,
        });
        assert!(p(&off, Action::Click)
            .expect_err("offscreen")
            .0
            .contains("scroll it into view"));
        assert!(p(&el("AXButton", &["AXPress"]), Action::Dismiss)
            .expect_err("not dismissable")
            .0
            .contains("escape"));
        assert!(p(&el("AXStaticText", &[]), Action::Increment)
            .expect_err("no range")
            .0
            .contains("no range"));
    }

    #[test]
    fn changes_name_states_values_focus_and_windows() {
        let mut b = el("AXCheckBox", &["AXPress"]);
        b.value = Some(AxValue::Number(0.0));
        let mut a = b.clone();
        a.value = Some(AxValue::Number(1.0));
        let before = Observed {
            target: Some(b),
            windows: vec![(1, "Notes".into())],
            focus: None,
        };
        let after = Observed {
            target: Some(a),
            windows: vec![(1, "Notes".into()), (2, String::new())],
            focus: Some("button \"OK\"".into()),
        };
        let c = changes("e5", &before, &after, &layout());
        let fields: Vec<(&str, &str)> = c
            .iter()
            .map(|c| (c.target.as_str(), c.field.as_str()))
            .collect();
        assert_eq!(
            fields,
            [("e5", "states"), ("focus", "focus"), ("windows", "windows")]
        );
        assert_eq!(c[0].after.as_deref(), Some("checked"));
        assert!(changes("e5", &before, &before, &layout()).is_empty());
        let gone = Observed {
            target: None,
            ..before.clone()
        };
        assert_eq!(
            changes("e5", &before, &gone, &layout())[0].field,
            "children"
        );
    }

    #[test]
    fn others_are_named_by_role_and_name() {
        let mut f = el("AXTextField", &[]);
        f.title = Some("Search".into());
        assert_eq!(describe(&f, &layout()), "textbox \"Search\"");
        assert_eq!(describe(&el("AXButton", &[]), &layout()), "button");
    }
}
