//! How each CUP verb is done over AT-SPI, and when the pointer or keyboard
//! must step in (see [`super::fallback`]).

use crate::peers::Peer;
use cup::{ActionParams, AdapterError, Direction};
use cup_protocol::keys::{parse_combo, Combo};
use cup_protocol::Action;

use super::events::EventLog;
use super::fallback::Fallback;
use crate::atspi_actions as act;
use crate::atspi_calls::{self as calls, ObjRef};
use crate::facts::{AtspiState, Interface, InterfaceSet, StateSet};
use crate::mapping::raw_action_index;

/// What was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Performed {
    /// E.g. `Clicked`, `Typed "abc"`, `Already expanded`.
    pub message: String,
    /// The toolkit refused (e.g. the element is disabled).
    pub refused: bool,
    /// Nothing was to be done (already in the asked state).
    pub already: bool,
}

impl Performed {
    fn done(message: impl Into<String>) -> Self {
        Performed {
            message: message.into(),
            refused: false,
            already: false,
        }
    }
    fn accepted(message: impl Into<String>, accepted: bool) -> Self {
        Performed {
            message: message.into(),
            refused: !accepted,
            already: false,
        }
    }
    fn already(message: impl Into<String>) -> Self {
        Performed {
            message: message.into(),
            refused: false,
            already: true,
        }
    }
}

/// The element acted on.
#[derive(Debug)]
pub struct Element<'a> {
    /// Connection to its app.
    pub conn: &'a Peer,
    /// The object.
    pub obj: &'a ObjRef,
    /// Interfaces.
    pub interfaces: InterfaceSet,
    /// States before the action.
    pub states: StateSet,
    /// Its CUP role in the snapshot (what a raw action means can depend
    /// on it: Qt's `ShowMenu` on a menu item opens the item's menu).
    pub role: cup_protocol::Role,
    /// The app's toolkit (`ToolkitName`), when the snapshot knew it.
    pub toolkit: &'a str,
}

fn platform(e: zbus::Error, what: &str) -> AdapterError {
    AdapterError::Platform(format!(
        "{what} failed over AT-SPI: {e}; take a new snapshot and try again"
    ))
}

async fn names(el: &Element<'_>) -> Vec<String> {
    if el.interfaces.contains(Interface::Action) {
        calls::action_names(el.conn, el.obj)
            .await
            .unwrap_or_default()
    } else {
        Vec::new()
    }
}

/// Runs the first raw action that means `verb`; `None` when there is none.
async fn raw(
    el: &Element<'_>,
    verb: Action,
    label: &str,
) -> Result<Option<Performed>, AdapterError> {
    let names = names(el).await;
    let Some(index) = raw_action_index(&names, verb, el.role) else {
        return Ok(None);
    };
    let ok = act::do_action(el.conn, el.obj, index)
        .await
        .map_err(|e| platform(e, label))?;
    Ok(Some(Performed::accepted(
        format!("{label} (action \"{}\")", names[index]),
        ok,
    )))
}

fn combo(text: &str) -> Combo {
    parse_combo(text).unwrap_or_default()
}

/// Most options of a drop-down read to find the one asked for.
const OPTIONS_MAX: usize = 500;

/// The option named `wanted` of a drop-down (GTK's combo box: a menu of
/// items; Chromium's select: a list of options), searched two levels
/// down: exactly (ignoring case), else the only one that starts with it.
async fn find_option(el: &Element<'_>, wanted: &str) -> Option<ObjRef> {
    let wanted = wanted.trim().to_lowercase();
    let mut level = vec![el.obj.clone()];
    let mut seen: Vec<(ObjRef, String)> = Vec::new();
    for _ in 0..2 {
        let mut next = Vec::new();
        for obj in &level {
            let count =
                calls::property::<i32>(el.conn, obj, "org.a11y.atspi.Accessible", "ChildCount")
                    .await
                    .ok()?;
            if usize::try_from(count).map_or(true, |n| n > OPTIONS_MAX) {
                continue;
            }
            next.extend(calls::children(el.conn, obj).await.ok()?);
        }
        let named = futures::future::join_all(next.iter().map(|o| async move {
            calls::accessible_props(el.conn, o, false)
                .await
                .map(|p| p.name.trim().to_lowercase())
                .unwrap_or_default()
        }))
        .await;
        seen.extend(next.iter().cloned().zip(named));
        if let Some((obj, _)) = seen.iter().find(|(_, n)| *n == wanted) {
            return Some(obj.clone());
        }
        level = next;
    }
    let mut prefixed = seen
        .iter()
        .filter(|(_, n)| !wanted.is_empty() && n.starts_with(&wanted));
    match (prefixed.next(), prefixed.next()) {
        (Some((obj, _)), None) => Some(obj.clone()),
        _ => None,
    }
}

/// Most arrow keys pressed to reach an option of a web drop-down.
const OPTION_KEYS_MAX: usize = 200;

/// The arrow key and how many presses move a web drop-down's selection
/// from the selected option to option `wanted` of `states` (its options'
/// states, in order): the keys pass over disabled options. `None` when no
/// option is selected or the wanted one is disabled.
fn option_keys(states: &[StateSet], wanted: usize) -> Option<(&'static str, usize)> {
    let enabled =
        |s: &StateSet| s.contains(AtspiState::Enabled) || s.contains(AtspiState::Sensitive);
    let selected = states
        .iter()
        .position(|s| s.contains(AtspiState::Selected))?;
    if !states.get(wanted).is_some_and(enabled) {
        return None;
    }
    let (from, to, key) = if wanted >= selected {
        (selected + 1, wanted + 1, "down")
    } else {
        (wanted, selected, "up")
    };
    let presses = states[from..to].iter().filter(|s| enabled(s)).count();
    Some((key, presses))
}

/// Chooses `option` of the web drop-down `el` with the arrow keys, as a
/// person does: the page hears its change event (Thunderbird's account
/// form sets the port for the protocol chosen; an option set over AT-SPI
/// changes the value and tells the page nothing). `None` when the keys
/// cannot be counted.
async fn choose_by_keys(
    el: &Element<'_>,
    option: &ObjRef,
    wanted: &str,
    input: &Fallback<'_>,
    events: &EventLog,
) -> Result<Option<Performed>, AdapterError> {
    let (Ok(list), Ok(index)) = (
        act::parent(el.conn, option).await,
        act::index_in_parent(el.conn, option).await,
    ) else {
        return Ok(None);
    };
    let Ok(siblings) = calls::children(el.conn, &list).await else {
        return Ok(None);
    };
    if siblings.len() > OPTIONS_MAX {
        return Ok(None);
    }
    let states: Vec<StateSet> =
        futures::future::join_all(siblings.iter().map(|o| calls::states(el.conn, o)))
            .await
            .into_iter()
            .map(Result::unwrap_or_default)
            .collect();
    let Some((key, presses)) = usize::try_from(index)
        .ok()
        .and_then(|i| option_keys(&states, i))
        .filter(|(_, n)| *n <= OPTION_KEYS_MAX)
    else {
        return Ok(None);
    };
    if presses == 0 {
        return Ok(Some(Performed::already(format!(
            "{wanted:?} is already chosen"
        ))));
    }
    let _ = act::grab_focus(el.conn, el.obj).await;
    until_focused(el, events).await;
    for _ in 0..presses {
        input.keys(events, &combo(key)).await?;
    }
    Ok(Some(Performed::done(format!(
        "Selected {wanted:?} (keyboard: {key} \u{d7}{presses})"
    ))))
}

/// Selects the option `el` of a web drop-down (its list's parent is the
/// combo box) with the drop-down's arrow keys (see [`choose_by_keys`]);
/// `None` when `el` is no such option.
async fn option_of_web_dropdown(
    el: &Element<'_>,
    input: &Fallback<'_>,
    events: &EventLog,
) -> Result<Option<Performed>, AdapterError> {
    let Ok(list) = act::parent(el.conn, el.obj).await else {
        return Ok(None);
    };
    let Ok(dropdown) = act::parent(el.conn, &list).await else {
        return Ok(None);
    };
    if !calls::role(el.conn, &dropdown)
        .await
        .is_ok_and(|r| r == crate::facts::AtspiRole::ComboBox)
    {
        return Ok(None);
    }
    let (Ok(interfaces), Ok(states)) = (
        calls::interfaces(el.conn, &dropdown).await,
        calls::states(el.conn, &dropdown).await,
    ) else {
        return Ok(None);
    };
    let name = calls::accessible_props(el.conn, el.obj, false)
        .await
        .map(|p| p.name.trim().to_owned())
        .unwrap_or_default();
    let combo_box = Element {
        conn: el.conn,
        obj: &dropdown,
        interfaces,
        states,
        role: cup_protocol::Role::Combobox,
        toolkit: el.toolkit,
    };
    choose_by_keys(&combo_box, el.obj, &name, input, events).await
}

/// Chooses the option named `wanted` of the drop-down `el`: in a web
/// page with the arrow keys (see [`choose_by_keys`]), else selected in its
/// list (`Selection.SelectChild`), else its own action (a GTK menu item's
/// "click").
async fn choose_option(
    el: &Element<'_>,
    wanted: &str,
    input: &Fallback<'_>,
    events: &EventLog,
) -> Result<Performed, AdapterError> {
    let option = find_option(el, wanted).await.ok_or_else(|| {
        AdapterError::Unsupported(format!(
            "no option named {wanted:?} in this drop-down; open it (expand) and take a snapshot to see its options"
        ))
    })?;
    if crate::mapping::is_web_toolkit(el.toolkit) {
        if let Some(done) = choose_by_keys(el, &option, wanted, input, events).await? {
            return Ok(done);
        }
    }
    if let (Ok(parent), Ok(index)) = (
        act::parent(el.conn, &option).await,
        act::index_in_parent(el.conn, &option).await,
    ) {
        if let Ok(true) = act::select_child(el.conn, &parent, index).await {
            return Ok(Performed::done(format!("Selected {wanted:?}")));
        }
    }
    let names = calls::action_names(el.conn, &option)
        .await
        .unwrap_or_default();
    let index = names
        .iter()
        .position(|n| {
            matches!(
                n.to_ascii_lowercase().as_str(),
                "click" | "press" | "activate" | "select"
            )
        })
        .ok_or_else(|| {
            AdapterError::Unsupported(format!(
                "the option {wanted:?} can be neither selected nor clicked over AT-SPI; open the drop-down (expand) and click it"
            ))
        })?;
    let ok = act::do_action(el.conn, &option, index)
        .await
        .map_err(|e| platform(e, "choosing the option"))?;
    Ok(Performed::accepted(
        format!("Selected {wanted:?} (action \"{}\")", names[index]),
        ok,
    ))
}

/// Most children of a document read for where its focus is.
const FOCUS_LOOK_MAX: usize = 200;

/// Whether a child of `el` has the keyboard focus (Writer's paragraph with
/// the caret, Calc's sheet). Its children are asked for only when it
/// counts a few (a container that manages its descendants makes each one
/// it is asked for; Writer's document counts its paragraphs on screen).
async fn child_has_focus(el: &Element<'_>) -> bool {
    let count =
        calls::property::<i32>(el.conn, el.obj, "org.a11y.atspi.Accessible", "ChildCount").await;
    if !count.is_ok_and(|n| usize::try_from(n).is_ok_and(|n| n <= FOCUS_LOOK_MAX)) {
        return false;
    }
    let Ok(kids) = calls::children(el.conn, el.obj).await else {
        return false;
    };
    let looks = kids
        .iter()
        .take(FOCUS_LOOK_MAX)
        .map(|k| calls::states(el.conn, k));
    futures::future::join_all(looks)
        .await
        .into_iter()
        .any(|s| s.is_ok_and(|s| s.contains(AtspiState::Focused)))
}

/// Longest wait for a grabbed focus to arrive before typing.
const FOCUS_WAIT: std::time::Duration = std::time::Duration::from_millis(1_000);

/// Waits (at most [`FOCUS_WAIT`]) until `el` reports the keyboard focus
/// it was asked to take. A field's focus-in handler may reset its text
/// (LibreOffice's Paragraph Style box shows the caret's style again):
/// text set before the focus arrives is lost on a busy machine.
async fn until_focused(el: &Element<'_>, events: &EventLog) {
    let deadline = tokio::time::Instant::now() + FOCUS_WAIT;
    let mut step = std::time::Duration::from_millis(2);
    loop {
        if calls::states(el.conn, el.obj)
            .await
            .map_or(true, |s| s.contains(AtspiState::Focused))
        {
            return;
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            tracing::debug!("the focus did not arrive within {FOCUS_WAIT:?}; typing anyway");
            return;
        }
        events.wait((now + step).min(deadline)).await;
        step = (step * 2).min(std::time::Duration::from_millis(50));
    }
}

/// Performs `verb` on `el`.
pub async fn perform(
    el: &Element<'_>,
    verb: Action,
    params: &ActionParams,
    input: &Fallback<'_>,
    events: &EventLog,
) -> Result<Performed, AdapterError> {
    let has = |s: AtspiState| el.states.contains(s);
    match verb {
        // A text box is clicked with the pointer (focus and caret, as a
        // person's click): its raw "activate" is the Enter key (GTK's
        // entry fires its activate signal: a dialog's default button).
        Action::Click if crate::mapping::kinds::is_text_input(el.role) => input
            .click(el, 1, 1)
            .await
            .map(|()| Performed::done("Clicked (pointer)")),
        Action::Click => match raw(el, Action::Click, "Clicked").await? {
            Some(p) => Ok(p),
            None => input
                .click(el, 1, 1)
                .await
                .map(|()| Performed::done("Clicked (pointer)")),
        },
        Action::Toggle => match raw(el, Action::Toggle, "Toggled").await? {
            Some(p) => Ok(p),
            None => match raw(el, Action::Click, "Toggled").await? {
                Some(p) => Ok(p),
                None => input
                    .click(el, 1, 1)
                    .await
                    .map(|()| Performed::done("Toggled (pointer)")),
            },
        },
        Action::Expand | Action::Collapse => {
            let expanding = verb == Action::Expand;
            if has(AtspiState::Expanded) == expanding
                && (has(AtspiState::Expandable) || has(AtspiState::Expanded))
            {
                return Ok(Performed::already(if expanding {
                    "Already expanded"
                } else {
                    "Already collapsed"
                }));
            }
            let label = if expanding { "Expanded" } else { "Collapsed" };
            if let Some(p) = raw(el, verb, label).await? {
                return Ok(p);
            }
            // A web tree item (the ARIA tree pattern: Thunderbird's folder
            // tree, a page's tree view) offers only "activate", which
            // selects its row: the pattern's keys open and close it.
            if el.role == cup_protocol::Role::TreeItem && crate::mapping::is_web_toolkit(el.toolkit)
            {
                let _ = act::grab_focus(el.conn, el.obj).await;
                if has(AtspiState::Focusable) {
                    until_focused(el, events).await;
                }
                let key = if expanding { "right" } else { "left" };
                input.keys(events, &combo(key)).await?;
                return Ok(Performed::done(format!("{label} (keyboard: {key})")));
            }
            match raw(el, Action::Click, label).await? {
                Some(p) => Ok(p),
                None => input
                    .click(el, 1, 1)
                    .await
                    .map(|()| Performed::done(format!("{label} (pointer)"))),
            }
        }
        // A drop-down with the option to choose.
        Action::Select if el.role == cup_protocol::Role::Combobox && params.value.is_some() => {
            choose_option(
                el,
                params.value.as_deref().unwrap_or_default(),
                input,
                events,
            )
            .await
        }
        // A paragraph or heading of a document: its text (LibreOffice's
        // document says it selected the child and selects nothing).
        Action::Select
            if el.interfaces.contains(Interface::Text)
                && matches!(
                    el.role,
                    cup_protocol::Role::Text | cup_protocol::Role::Heading
                ) =>
        {
            let count = act::char_count(el.conn, el.obj)
                .await
                .map_err(|e| platform(e, "select"))?;
            let ok = act::select_text(el.conn, el.obj, 0, count)
                .await
                .map_err(|e| platform(e, "select"))?;
            Ok(Performed::accepted("Selected its text", ok))
        }
        Action::Select => {
            if crate::mapping::is_web_toolkit(el.toolkit) {
                if let Some(done) = option_of_web_dropdown(el, input, events).await? {
                    return Ok(done);
                }
            }
            if let Ok(parent) = act::parent(el.conn, el.obj).await {
                if let Ok(index) = act::index_in_parent(el.conn, el.obj).await {
                    // As a person's click: this item becomes the selection
                    // (SelectChild adds to a multiple selection; Impress
                    // then deleted every selected slide, not the one).
                    let multiple = calls::states(el.conn, &parent)
                        .await
                        .is_ok_and(|s| s.contains(AtspiState::Multiselectable));
                    if multiple {
                        let _ = act::clear_selection(el.conn, &parent).await;
                    }
                    if let Ok(ok) = act::select_child(el.conn, &parent, index).await {
                        if ok {
                            return Ok(Performed::done("Selected"));
                        }
                    }
                }
            }
            match raw(el, Action::Select, "Selected").await? {
                Some(p) => Ok(p),
                None => match raw(el, Action::Click, "Selected").await? {
                    Some(p) => Ok(p),
                    None => input
                        .click(el, 1, 1)
                        .await
                        .map(|()| Performed::done("Selected (pointer)")),
                },
            }
        }
        Action::Focus => {
            let ok = act::grab_focus(el.conn, el.obj)
                .await
                .map_err(|e| platform(e, "focus"))?;
            Ok(Performed::accepted("Focused", ok))
        }
        Action::Type | Action::SetValue => {
            let value = params.value.clone().unwrap_or_default();
            // A spin button has both: its number goes through Value, which
            // commits it (text set through EditableText stays uncommitted
            // until the field loses the focus: GIMP's Width kept 1920).
            let number_field = el.interfaces.contains(Interface::EditableText)
                && verb == Action::SetValue
                && value.trim().parse::<f64>().is_ok();
            if el.interfaces.contains(Interface::Value)
                && (!el.interfaces.contains(Interface::EditableText) || number_field)
            {
                let number: f64 = value.trim().parse().map_err(|_| {
                    AdapterError::Invalid(format!(
                        "this element takes a number; {value:?} is not one"
                    ))
                })?;
                act::set_value(el.conn, el.obj, number)
                    .await
                    .map_err(|e| platform(e, "setting the value"))?;
                return Ok(Performed::done(format!("Set value to {value}")));
            }
            let label = if verb == Action::Type {
                "Typed"
            } else {
                "Set value to"
            };
            // Gecko answers EditableText calls on web content with `true`
            // and changes nothing: there the keyboard types.
            let editable_calls_work = !crate::mapping::is_gecko(el.toolkit);
            if el.interfaces.contains(Interface::EditableText) && editable_calls_work {
                // The element takes the keyboard focus first, as it would
                // for a person typing: the next key (Enter in a Name Box
                // or a search field) goes to it.
                if verb == Action::Type && !has(AtspiState::Focused) {
                    let _ = act::grab_focus(el.conn, el.obj).await;
                    if has(AtspiState::Focusable) {
                        until_focused(el, events).await;
                    }
                }
                let ok = act::set_text(el.conn, el.obj, &value)
                    .await
                    .map_err(|e| platform(e, "replacing the text"))?;
                return Ok(Performed::accepted(format!("{label} {value:?}"), ok));
            }
            // A document (Writer's text, Calc's sheet) is typed into at
            // its caret: selecting all first would replace the whole
            // document with the text.
            if el.role == cup_protocol::Role::Document && verb == Action::Type {
                // Its caret's paragraph (or sheet) has the focus already:
                // asking the document for the focus would move the caret to
                // its start (LibreOffice Writer).
                if !has(AtspiState::Focused) && !child_has_focus(el).await {
                    let _ = act::grab_focus(el.conn, el.obj).await;
                }
                input.type_text(events, &value).await?;
                return Ok(Performed::done(format!(
                    "{label} {value:?} at the caret (keyboard)"
                )));
            }
            // No EditableText: focus, select all, type with the keyboard.
            // The keys go where the focus is when they arrive: wait for
            // it (Chromium's web form on a busy machine sent the start of
            // an e-mail address to the name field before).
            let _ = act::grab_focus(el.conn, el.obj).await;
            if !has(AtspiState::Focused) && has(AtspiState::Focusable) {
                until_focused(el, events).await;
            }
            input.keys(events, &combo("ctrl+a")).await?;
            input.type_text(events, &value).await?;
            Ok(Performed::done(format!("{label} {value:?} (keyboard)")))
        }
        Action::Increment | Action::Decrement => {
            let up = verb == Action::Increment;
            let label = if up { "Incremented" } else { "Decremented" };
            if let Some(p) = raw(el, verb, label).await? {
                return Ok(p);
            }
            if !el.interfaces.contains(Interface::Value) {
                return Err(AdapterError::Unsupported(format!(
                    "this element has neither an {verb} action nor a value to change"
                )));
            }
            let value = crate::atspi_calls::value(el.conn, el.obj, false)
                .await
                .map_err(|e| platform(e, "reading the value"))?;
            let step = if value.increment > 0.0 {
                value.increment
            } else {
                1.0
            };
            let next = if up {
                value.current + step
            } else {
                value.current - step
            };
            let next = if value.maximum > value.minimum {
                next.clamp(value.minimum, value.maximum)
            } else {
                next
            };
            act::set_value(el.conn, el.obj, next)
                .await
                .map_err(|e| platform(e, "setting the value"))?;
            Ok(Performed::done(format!("{label} to {next}")))
        }
        Action::Dismiss => {
            let names = names(el).await;
            let close = names.iter().position(|n| {
                let n = n.to_ascii_lowercase();
                n == "close" || n == "dismiss" || n == "cancel"
            });
            if let Some(i) = close {
                let ok = act::do_action(el.conn, el.obj, i)
                    .await
                    .map_err(|e| platform(e, "dismiss"))?;
                return Ok(Performed::accepted(
                    format!("Dismissed (action \"{}\")", names[i]),
                    ok,
                ));
            }
            let _ = act::grab_focus(el.conn, el.obj).await;
            input.keys(events, &combo("escape")).await?;
            Ok(Performed::done("Dismissed (Escape)"))
        }
        Action::RightClick => match raw(el, Action::RightClick, "Right-clicked").await? {
            Some(p) => Ok(p),
            None => input
                .click(el, 3, 1)
                .await
                .map(|()| Performed::done("Right-clicked (pointer)")),
        },
        Action::DoubleClick => input
            .click(el, 1, 2)
            .await
            .map(|()| Performed::done("Double-clicked (pointer)")),
        Action::LongPress => input
            .long_press(el)
            .await
            .map(|()| Performed::done("Long-pressed (pointer)")),
        Action::Scroll => {
            let direction = params.direction.unwrap_or(Direction::Down);
            let amount = params.amount.unwrap_or(3).clamp(1, 50);
            input.scroll(el, direction, amount).await?;
            Ok(Performed::done(format!(
                "Scrolled {direction} ×{amount} (wheel)"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(list: &[(bool, bool)]) -> Vec<StateSet> {
        list.iter()
            .map(|&(enabled, selected)| {
                let mut s = StateSet::empty();
                if enabled {
                    s.insert(AtspiState::Enabled);
                }
                if selected {
                    s.insert(AtspiState::Selected);
                }
                s
            })
            .collect()
    }

    #[test]
    fn option_keys_count_the_enabled_options_between() {
        // IMAP (selected), POP3, Exchange: POP3 is one Down away.
        let s = states(&[(true, true), (true, false), (true, false)]);
        assert_eq!(option_keys(&s, 1), Some(("down", 1)));
        assert_eq!(option_keys(&s, 2), Some(("down", 2)));
        assert_eq!(option_keys(&s, 0), Some(("down", 0)));
        // From the last back to the first.
        let s = states(&[(true, false), (true, false), (true, true)]);
        assert_eq!(option_keys(&s, 0), Some(("up", 2)));
        // A disabled option between is passed over by the keys.
        let s = states(&[(true, true), (false, false), (true, false)]);
        assert_eq!(option_keys(&s, 2), Some(("down", 1)));
        let s = states(&[(true, false), (false, false), (true, true)]);
        assert_eq!(option_keys(&s, 0), Some(("up", 1)));
    }

    #[test]
    fn option_keys_need_a_selected_option_and_an_enabled_target() {
        let none_selected = states(&[(true, false), (true, false)]);
        assert_eq!(option_keys(&none_selected, 1), None);
        let disabled_target = states(&[(true, true), (false, false)]);
        assert_eq!(option_keys(&disabled_target, 1), None);
        assert_eq!(option_keys(&disabled_target, 5), None);
    }
}
