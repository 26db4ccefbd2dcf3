//! Actions, decided from native facts: which pattern call performs a verb
//! on an element ([`plan`]), or cup's input at the element's centre when
//! the element offers no pattern for it (Win32 controls under Wine, custom
//! controls); and what changed afterwards ([`changes`]), so a result is
//! `confirmed` only with evidence.

use cup::plan::{number, refuse_disabled};
use cup::Change;
use cup_protocol::{Action, Direction};

use crate::facts::Element;
use crate::mapping::{map_element, MapContext};

/// How a verb is performed.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// `InvokePattern::Invoke`.
    Invoke,
    /// `TogglePattern::Toggle`.
    Toggle,
    /// `ExpandCollapsePattern::Expand`.
    Expand,
    /// `ExpandCollapsePattern::Collapse`.
    Collapse,
    /// `SelectionItemPattern::Select`.
    Select,
    /// `ValuePattern::SetValue`.
    SetValue(String),
    /// `RangeValuePattern::SetValue` to this number.
    SetRange(f64),
    /// `ScrollPattern::Scroll` by one large step in a direction, `n` times.
    Scroll(Direction, u32),
    /// `WindowPattern::Close`.
    Close,
    /// `LegacyIAccessiblePattern::DoDefaultAction`.
    DefaultAction,
    /// `IUIAutomationElement::SetFocus`.
    Focus,
    /// Focus the element, select all, then type the text (keyboard).
    FocusAndType {
        /// The text.
        text: String,
        /// Replace what is there (select all first).
        replace: bool,
    },
    /// A pointer click at the element's centre.
    Click {
        /// Physical pixel.
        x: i64,
        /// Physical pixel.
        y: i64,
        /// Button: `right` for a right click.
        right: bool,
        /// Clicks (2 for a double click).
        count: u8,
    },
    /// The wheel over the element's centre.
    Wheel {
        /// Physical pixel.
        x: i64,
        /// Physical pixel.
        y: i64,
        /// Which way.
        direction: Direction,
        /// Notches.
        notches: u32,
    },
}

pub use cup::plan::PlanError;

fn centre(el: &Element, verb: &str) -> Result<(i64, i64), PlanError> {
    match el.bounds.filter(|b| !b.is_empty()) {
        Some(b) if !el.is_offscreen => Ok(b.centre()),
        _ => Err(PlanError(format!(
            "the element offers no pattern for {verb} and has no place on screen to click (offscreen or collapsed); scroll it into view or open its parent first"
        ))),
    }
}

/// Where a click on an element goes: UIA's clickable point
/// (`GetClickablePoint`: the text of a wrapped link, not the gap between
/// its lines; the rim of a ring, not its hole) when it lies inside the
/// element's bounds, else the centre the plan chose.
pub fn click_point(el: &Element, planned: (i64, i64), clickable: Option<(i64, i64)>) -> (i64, i64) {
    let inside = |(x, y): (i64, i64)| {
        el.bounds.filter(|b| !b.is_empty()).is_some_and(|b| {
            let (x, y) = (x as f64, y as f64);
            x >= b.left && x < b.left + b.width && y >= b.top && y < b.top + b.height
        })
    };
    clickable.filter(|&p| inside(p)).unwrap_or(planned)
}

/// Whether an action that found no way to reach `el` (no pattern, no
/// place on screen) should first scroll it into view: it is offscreen
/// and offers `ScrollItem` (a row below a list's fold).
pub fn wants_scroll_into_view(el: &Element, planned: &Result<Plan, PlanError>) -> bool {
    planned.is_err() && el.is_enabled && el.is_offscreen && el.patterns.scroll_item
}

/// The plan for `action` on `el`. `value` is the action's text or number,
/// `direction`/`amount` a scroll's.
pub fn plan(
    el: &Element,
    action: Action,
    value: Option<&str>,
    direction: Option<Direction>,
    amount: Option<u32>,
) -> Result<Plan, PlanError> {
    let p = &el.patterns;
    refuse_disabled(el.is_enabled, action)?;
    let need_value = || cup::plan::need_value(action, value);
    let click = |right: bool, count: u8| -> Result<Plan, PlanError> {
        let (x, y) = centre(el, action.name())?;
        Ok(Plan::Click { x, y, right, count })
    };
    match action {
        Action::Click if p.invoke => Ok(Plan::Invoke),
        Action::Click if p.toggle.is_some() => Ok(Plan::Toggle),
        Action::Click if p.selection_item.is_some() && el.bounds.is_none() => Ok(Plan::Select),
        Action::Click => click(false, 1).or_else(|e| {
            let legacy = p
                .legacy
                .as_ref()
                .is_some_and(|l| !l.default_action.is_empty());
            if legacy {
                Ok(Plan::DefaultAction)
            } else {
                Err(e)
            }
        }),
        Action::DoubleClick => click(false, 2),
        Action::RightClick => click(true, 1),
        Action::Toggle if p.toggle.is_some() => Ok(Plan::Toggle),
        Action::Toggle => click(false, 1),
        Action::Expand if p.expand_collapse.is_some() => Ok(Plan::Expand),
        Action::Collapse if p.expand_collapse.is_some() => Ok(Plan::Collapse),
        Action::Expand | Action::Collapse => click(false, 1),
        Action::Select if p.selection_item.is_some() => Ok(Plan::Select),
        Action::Select => click(false, 1),
        Action::SetValue if p.value.as_ref().is_some_and(|v| !v.is_read_only) => {
            Ok(Plan::SetValue(need_value()?))
        }
        Action::SetValue if p.range_value.as_ref().is_some_and(|r| !r.is_read_only) => {
            Ok(Plan::SetRange(number(&need_value()?)?))
        }
        Action::SetValue => Ok(Plan::FocusAndType {
            text: need_value()?,
            replace: true,
        }),
        Action::Type => Ok(Plan::FocusAndType {
            text: need_value()?,
            replace: false,
        }),
        Action::Increment | Action::Decrement => {
            let r = p
                .range_value
                .as_ref()
                .filter(|r| !r.is_read_only)
                .ok_or_else(|| {
                    PlanError(format!(
                        "the element has no writable range; it cannot {}",
                        action.name()
                    ))
                })?;
            let step = if r.small_change > 0.0 {
                r.small_change
            } else {
                1.0
            };
            let next = if action == Action::Increment {
                r.value + step
            } else {
                r.value - step
            };
            Ok(Plan::SetRange(
                next.clamp(r.minimum.min(r.maximum), r.maximum.max(r.minimum)),
            ))
        }
        Action::Scroll => {
            let d = direction.unwrap_or(Direction::Down);
            let n = amount.unwrap_or(3).max(1);
            if p.scroll.as_ref().is_some_and(|s| match d {
                Direction::Up | Direction::Down => s.vertically_scrollable,
                Direction::Left | Direction::Right => s.horizontally_scrollable,
            }) {
                Ok(Plan::Scroll(d, n))
            } else {
                let (x, y) = centre(el, "scroll")?;
                Ok(Plan::Wheel {
                    x,
                    y,
                    direction: d,
                    notches: n,
                })
            }
        }
        Action::Dismiss if p.window.is_some() => Ok(Plan::Close),
        Action::Dismiss => Err(PlanError(
            "only a window or dialog can be dismissed; press escape to close a menu or popup"
                .into(),
        )),
        Action::Focus => Ok(Plan::Focus),
        Action::LongPress => Err(PlanError(
            "longpress is a touch gesture; Windows desktop apps take rightclick instead".into(),
        )),
    }
}

/// What cup compares before and after an action: the target's UIA facts,
/// the top-level app windows (handle and title), the focused element.
pub type Observed = cup::watch::Observed<Element>;

/// How a focused element is named in a change (`textbox "Search"`).
pub fn describe(el: &Element) -> String {
    cup::watch::describe(&map_element(el, &MapContext::default()))
}

/// The changes from `before` to `after`, the target named `target`
/// ([`cup::watch::changes`]).
pub fn changes(target: &str, before: &Observed, after: &Observed) -> Vec<Change> {
    let ctx = MapContext::default();
    cup::watch::changes(target, before, after, |el| map_element(el, &ctx))
}

/// How long a pattern call (Invoke, Toggle, Expand, DoDefaultAction...)
/// may take before cup stops waiting for it: providers may run it
/// synchronously, so an Invoke that opens a modal dialog returns only once
/// the dialog closes (WinForms menu items, FlaUI#203). After this the
/// action counts as performed, its effect as whatever the watch sees (a
/// new window, a focus change); the worker stays in the call and rejoins
/// the pool when it returns.
pub const PATTERN_GRACE: std::time::Duration = std::time::Duration::from_millis(750);

/// The message of a pattern call still running after [`PATTERN_GRACE`].
pub fn still_running(plan: &Plan) -> String {
    format!(
        "{plan:?} was performed and had not returned after {} ms (the app may show a modal dialog, or it works synchronously)",
        PATTERN_GRACE.as_millis()
    )
}

/// The effect of an action, from whether its watch saw a change and
/// whether its call was still running: never `no_change` for a call that
/// had not returned (it may yet change things).
pub fn effect_of(seen: bool, still_running: bool) -> cup::Effect {
    match (seen, still_running) {
        (true, _) => cup::Effect::Confirmed,
        (false, true) => cup::Effect::Unverified,
        (false, false) => cup::Effect::NoChange,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_goes_to_the_clickable_point_only_inside_the_element() {
        let e = el(ct::HYPERLINK);
        let centre = e.bounds.map(|b| b.centre()).unwrap_or_default();
        assert_eq!(centre, (120, 20));
        assert_eq!(click_point(&e, centre, Some((105, 12))), (105, 12));
        assert_eq!(click_point(&e, centre, Some((300, 12))), centre, "outside");
        assert_eq!(
            click_point(&e, centre, Some((140, 12))),
            centre,
            "right edge excluded"
        );
        assert_eq!(click_point(&e, centre, None), centre);
    }

    #[test]
    fn an_offscreen_row_with_scroll_item_is_scrolled_into_view_first() {
        let mut row = el(ct::LIST_ITEM);
        row.is_offscreen = true;
        let planned = plan(&row, Action::Click, None, None, None);
        assert!(planned.is_err(), "{planned:?}");
        assert!(!wants_scroll_into_view(&row, &planned), "no ScrollItem");
        row.patterns.scroll_item = true;
        assert!(wants_scroll_into_view(&row, &planned));
        row.is_offscreen = false;
        let planned = plan(&row, Action::Click, None, None, None);
        assert!(planned.is_ok(), "{planned:?}");
        assert!(
            !wants_scroll_into_view(&row, &planned),
            "on screen: clicked"
        );
        row.is_offscreen = true;
        row.is_enabled = false;
        let planned = plan(&row, Action::Click, None, None, None);
        assert!(!wants_scroll_into_view(&row, &planned), "disabled");
    }

    #[test]
    fn a_call_still_running_is_performed_with_its_effect_unverified() {
        use cup::Effect;
        assert_eq!(effect_of(true, true), Effect::Confirmed, "a dialog opened");
        assert_eq!(effect_of(false, true), Effect::Unverified);
        assert_eq!(effect_of(false, false), Effect::NoChange);
        let m = still_running(&Plan::Invoke);
        assert!(m.starts_with("Invoke was performed"), "{m}");
        assert!(m.contains("750 ms") && m.contains("modal dialog"), "{m}");
    }
    use crate::control::ct;
    use crate::facts::{Bounds, RangeFacts, ValueFacts};

    fn el(control_type: i32) -> Element {
        Element {
            control_type,
            name: "X".into(),
            is_enabled: true,
            bounds: Some(Bounds {
                left: 100.0,
                top: 10.0,
                width: 40.0,
                height: 20.0,
            }),
            ..Element::default()
        }
    }

    #[test]
    fn patterns_come_first_and_the_pointer_stands_in() {
        let mut b = el(ct::BUTTON);
        b.patterns.invoke = true;
        assert_eq!(plan(&b, Action::Click, None, None, None), Ok(Plan::Invoke));
        // Wine: a menu item with no patterns is clicked at its centre.
        let m = el(ct::MENU_ITEM);
        let left_click = Ok(Plan::Click {
            x: 120,
            y: 20,
            right: false,
            count: 1,
        });
        assert_eq!(
            plan(&m, Action::Click, None, None, None),
            left_click.clone()
        );
        assert_eq!(
            plan(&m, Action::Expand, None, None, None),
            left_click.clone()
        );
        assert_eq!(
            plan(&m, Action::RightClick, None, None, None),
            Ok(Plan::Click {
                x: 120,
                y: 20,
                right: true,
                count: 1
            })
        );
    }

    #[test]
    fn values_go_through_value_range_or_the_keyboard() {
        let mut e = el(ct::EDIT);
        e.patterns.value = Some(ValueFacts {
            value: String::new(),
            is_read_only: false,
        });
        assert_eq!(
            plan(&e, Action::SetValue, Some("hi"), None, None),
            Ok(Plan::SetValue("hi".into()))
        );
        assert_eq!(
            plan(&e, Action::Type, Some("hi"), None, None),
            Ok(Plan::FocusAndType {
                text: "hi".into(),
                replace: false
            })
        );
        let plain = el(ct::EDIT);
        assert_eq!(
            plan(&plain, Action::SetValue, Some("hi"), None, None),
            Ok(Plan::FocusAndType {
                text: "hi".into(),
                replace: true
            })
        );
        let err = plan(&plain, Action::SetValue, None, None, None).expect_err("no value");
        assert!(err.0.contains("needs a value"), "{err}");
        let mut s = el(ct::SLIDER);
        s.patterns.range_value = Some(RangeFacts {
            value: 99.5,
            minimum: 0.0,
            maximum: 100.0,
            small_change: 1.0,
            large_change: 10.0,
            is_read_only: false,
        });
        assert_eq!(
            plan(&s, Action::Increment, None, None, None),
            Ok(Plan::SetRange(100.0))
        );
        assert_eq!(
            plan(&s, Action::SetValue, Some("42"), None, None),
            Ok(Plan::SetRange(42.0))
        );
        assert!(plan(&s, Action::SetValue, Some("lots"), None, None).is_err());
    }

    #[test]
    fn refusals_say_what_to_do() {
        let mut d = el(ct::BUTTON);
        d.is_enabled = false;
        assert!(plan(&d, Action::Click, None, None, None)
            .expect_err("disabled")
            .0
            .contains("enable it"));
        let mut off = el(ct::MENU_ITEM);
        off.is_offscreen = true;
        assert!(plan(&off, Action::Click, None, None, None)
            .expect_err("offscreen")
            .0
            .contains("scroll it into view"));
        assert!(plan(&el(ct::BUTTON), Action::Dismiss, None, None, None)
            .expect_err("no window")
            .0
            .contains("escape"));
    }

    #[test]
    fn changes_name_states_values_focus_and_windows() {
        let mut b = el(ct::CHECK_BOX);
        b.patterns.toggle = Some(0);
        let mut a = b.clone();
        a.patterns.toggle = Some(1);
        let before = Observed {
            target: Some(b),
            windows: vec![(1, "Notepad".into())],
            focus: None,
        };
        let after = Observed {
            target: Some(a),
            windows: vec![(1, "Notepad".into()), (2, String::new())],
            focus: Some("menuitem \"New\"".into()),
        };
        let c = changes("e5", &before, &after);
        let fields: Vec<(&str, &str)> = c
            .iter()
            .map(|c| (c.target.as_str(), c.field.as_str()))
            .collect();
        assert_eq!(
            fields,
            [("e5", "states"), ("focus", "focus"), ("windows", "windows")]
        );
        assert_eq!(c[0].after.as_deref(), Some("checked"));
        assert!(changes("e5", &before, &before).is_empty());
    }
}
