//! Element actions on Linux with observed effects.
//!
//! 1. The target is re-identified (its role still answers; it is the same
//!    kind of element the snapshot showed).
//! 2. Its facts are read ([`probe`]) and the event log is marked
//!    ([`events`]).
//! 3. The verb runs over AT-SPI, or through the pointer/keyboard
//!    ([`verbs`], [`fallback`]).
//! 4. The facts are re-read with a short backoff, waking early on events,
//!    until a change shows (then a brief quiet window lets follow-up events
//!    arrive) or the settle time ends. No fixed sleeps.
//! 5. The result carries the deltas on the target and around it; `effect`
//!    is `confirmed` only when something changed. Elements outside the
//!    snapshot are named by role and name ([`outsiders`]).

pub mod events;
pub mod fallback;
pub mod gesture;
pub mod outsiders;
pub mod probe;
pub mod verbs;

use std::collections::HashMap;
use std::time::Duration;

use cup::{ActionParams, ActionResult, AdapterError, Change, Effect, Target};
use cup_protocol::Action;
use tokio::time::Instant;

use crate::atspi_calls::{self as calls, ObjRef};
use crate::peers::Links;
use events::EventLog;
use fallback::Fallback;
use verbs::Element;

/// Longest wait for an effect to show.
pub const SETTLE: Duration = Duration::from_millis(600);
/// After the first evidence, how long to wait for follow-up events.
pub const QUIET: Duration = Duration::from_millis(8);
/// First re-read delay; doubles up to [`MAX_STEP`].
const FIRST_STEP: Duration = Duration::from_millis(2);
const MAX_STEP: Duration = Duration::from_millis(40);

/// Everything an action needs from the adapter.
#[derive(Debug)]
pub struct Context<'a> {
    /// Connections.
    pub links: &'a Links,
    /// The event log.
    pub events: &'a EventLog,
    /// Pointer/keyboard fallback.
    pub fallback: Fallback<'a>,
}

fn gone(target: &Target<'_>) -> AdapterError {
    AdapterError::NotFound(format!(
        "element {} ({} \"{}\") no longer exists; take a new snapshot",
        target.id,
        target.node.role.name(),
        target.node.name
    ))
}

/// Performs `verb` on `target` and observes what changed.
pub async fn act(
    ctx: &Context<'_>,
    target: &Target<'_>,
    verb: Action,
    params: &ActionParams,
    refs: &HashMap<String, String>,
) -> Result<ActionResult, AdapterError> {
    let obj = ObjRef::from_key(target.native).ok_or_else(|| gone(target))?;
    let conn = ctx.links.to(&obj.bus);
    let (role, interfaces) =
        tokio::try_join!(calls::role(&conn, &obj), calls::interfaces(&conn, &obj))
            .map_err(|_| gone(target))?;
    let plan = probe::Plan::for_element(role, interfaces);
    let before = probe::read(&conn, &obj, plan).await;
    if !before.alive {
        return Err(gone(target));
    }
    same_element(target, role, &before.name)?;
    // A scroll shows as the content moving (AT-SPI announces none).
    let anchor = if verb == Action::Scroll {
        probe::scroll_anchor(&conn, &obj).await
    } else {
        None
    };
    let anchored = match &anchor {
        Some(a) => probe::anchor_position(&conn, a).await,
        None => None,
    };
    let mark = ctx.events.mark();
    let toolkit = target
        .node
        .platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("toolkit"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    let el = Element {
        conn: &conn,
        obj: &obj,
        interfaces,
        states: before.states,
        role: target.node.role,
        toolkit,
    };
    let performed = verbs::perform(&el, verb, params, &ctx.fallback, ctx.events).await?;

    let by_ref = by_reference(refs);
    let name_of = |r: &str| id_of(&by_ref, r);
    let started = Instant::now();
    let mut deadline = started + SETTLE;
    let mut step = FIRST_STEP;
    // Text typed with the keyboard arrives key by key after the keys were
    // sent: the first change may be part of it, and while it keeps
    // arriving the wait goes on (up to TEXT_SETTLE_MAX).
    let wanted_text = matches!(verb, Action::Type | Action::SetValue)
        .then(|| params.value.clone().unwrap_or_default());
    let mut text_seen = before.text.clone();
    // A push button's `pressed` lasts as long as its click animation
    // (Qt: 100 ms, then `clicked`): the effect comes after the release. A
    // toggle button's `pressed` is its state.
    let press_passes = role != crate::facts::AtspiRole::ToggleButton;
    let mut last_position: Option<(i32, i32)> = None;
    // Focus is what focusing does, and what clicking into a text field
    // does; for any other verb it is a side effect.
    let focus_is_the_effect = verb == Action::Focus
        || (verb == Action::Click && crate::mapping::kinds::is_text_input(target.node.role));
    let (after, changes) = loop {
        let after = probe::read(&conn, &obj, plan).await;
        let mut changes = probe::diff(target.id, &before, &after);
        // A smooth scroll moves the content over several frames: the
        // result waits until it stops.
        let mut scrolling = false;
        if let (Some(a), Some(from)) = (&anchor, anchored) {
            if let Some(to) = probe::anchor_position(&conn, a).await {
                changes.extend(probe::scrolled(target.id, from, to));
                scrolling = to != from && last_position.is_none_or(|p| p != to);
                last_position = Some(to);
            }
        }
        let around = events::changes(&ctx.events.since(mark), Some(&obj.bus), &name_of);
        merge(&mut changes, around);
        let now = Instant::now();
        let text_pending = wanted_text
            .as_deref()
            .is_some_and(|w| after.text.as_deref().is_some_and(|t| t != w));
        if text_pending && after.text != text_seen {
            text_seen.clone_from(&after.text);
            deadline = deadline.max(now + SETTLE).min(started + TEXT_SETTLE_MAX);
        }
        // Part of the text is there and the rest is still to come (a
        // strict prefix of it): a busy app (a Gecko content process under
        // load) can pause longer than SETTLE between keys, so the wait
        // goes on to TEXT_SETTLE_MAX. A reformatting app rarely leaves a
        // prefix.
        let arriving = wanted_text.as_deref().is_some_and(|w| {
            after
                .text
                .as_deref()
                .is_some_and(|t| !t.is_empty() && t.len() < w.len() && w.starts_with(t))
        });
        if arriving {
            deadline = deadline.max(started + TEXT_SETTLE_MAX);
        }
        // The press animation, or only the focus moving to the element
        // (most actions focus it first): the effect is yet to come.
        let pressing = press_passes && events::only_transient(&changes, target.id);
        let focus_only = !focus_is_the_effect && events::only_focus(&changes);
        // Nothing cup can read changed, but the app (the press released)
        // announced changes without saying what (Qt): enough to stop
        // waiting; the result says it could not tell what changed.
        let heard = changes.is_empty()
            && !text_pending
            && events::unreadable(&ctx.events.since(mark), &obj.bus) > 0;
        if (!changes.is_empty() && !text_pending && !pressing && !focus_only && !scrolling)
            || heard
            || now >= deadline
            || performed.already
            || performed.refused
        {
            if !changes.is_empty() {
                // Let follow-up events (other elements, windows) arrive.
                let quiet_until = now + QUIET;
                loop {
                    let seen = ctx.events.mark();
                    ctx.events.wait(quiet_until).await;
                    if ctx.events.mark() == seen || Instant::now() >= quiet_until {
                        break;
                    }
                }
                let around = events::changes(&ctx.events.since(mark), Some(&obj.bus), &name_of);
                merge(&mut changes, around);
            }
            break (
                after,
                outsiders::name(changes, |bus| ctx.links.to(bus)).await,
            );
        }
        ctx.events.wait((now + step).min(deadline)).await;
        step = (step * 2).min(MAX_STEP);
    };
    let unreadable = events::unreadable(&ctx.events.since(mark), &obj.bus);
    let effect = if changes.is_empty() {
        if after.alive && unreadable == 0 {
            Effect::NoChange
        } else {
            Effect::Unverified
        }
    } else {
        Effect::Confirmed
    };
    // Expanding has one evidence, the element's expanded state: the
    // focus moving to it (Gecko's "activate" on a tree row) is not it.
    let unexpanded = matches!(verb, Action::Expand | Action::Collapse)
        && effect == Effect::Confirmed
        && events::only_focus(&changes)
        && after.states.contains(crate::facts::AtspiState::Expanded) != (verb == Action::Expand);
    let effect = if unexpanded { Effect::NoChange } else { effect };
    let elapsed = started.elapsed();
    tracing::debug!(verb = %verb, ?effect, settle_ms = elapsed.as_secs_f64() * 1e3, "action observed");

    let mut message = performed.message.clone();
    if changes.is_empty() && unreadable > 0 {
        message.push_str(&format!(
            "; the app announced {unreadable} changes without saying what changed (Qt does); take a snapshot to see them"
        ));
    }
    if unexpanded {
        message.push_str("; only the keyboard focus moved to it");
    }
    if effect == Effect::NoChange && !performed.already {
        let why = if target.node.states.contains(&cup_protocol::State::Disabled) {
            " (the element is disabled)"
        } else {
            ""
        };
        message.push_str(&format!(
            "; nothing changed within {} ms{why}",
            elapsed.as_millis()
        ));
    }
    let mut result = ActionResult::observed(message, effect, changes);
    if performed.refused {
        result.success = false;
        result.error = Some(format!(
            "the app refused {verb} on {} (it may be disabled or not ready); take a snapshot to check its states",
            target.id
        ));
    }
    if matches!(verb, Action::Type | Action::SetValue) && plan_reads_text(&after) {
        let wanted = params.value.clone().unwrap_or_default();
        let got = after.text.clone().unwrap_or_default();
        // A terminal's text is its screen: the typed lines show there,
        // among the prompt and the output.
        let terminal = role == crate::facts::AtspiRole::Terminal;
        if !terminal && got == wanted {
            result.message = format!("{} (reads back exactly)", result.message);
        } else if terminal && shown_in_terminal(&got, &wanted) {
            result.message = format!("{} (shown in the terminal)", result.message);
        } else if !performed.refused {
            result.success = false;
            result.error = Some(format!(
                "the field reads back {got:?}, not {wanted:?}; the app may filter or reformat input"
            ));
        }
    }
    Ok(result)
}

/// Every line typed into a terminal is on its screen.
fn shown_in_terminal(screen: &str, typed: &str) -> bool {
    typed
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .all(|l| screen.contains(l))
}

/// Refuses when the object at the snapshot's reference is no longer the
/// element the snapshot showed (another AT-SPI role, or another name).
fn same_element(
    target: &Target<'_>,
    role: crate::facts::AtspiRole,
    name: &str,
) -> Result<(), AdapterError> {
    let snapshot_role = target
        .node
        .platform
        .linux
        .as_ref()
        .and_then(|l| l.atspi_role.clone());
    let live_role = crate::mapping::atspi_role_name(role);
    let role_changed = snapshot_role.is_some_and(|r| r != live_role);
    let snapshot_name = target.node.name.as_str();
    let live = crate::mapping::text::cap(
        crate::mapping::text::without_mnemonic_echo(name.trim()),
        crate::mapping::text::NAME_MAX,
    );
    // The snapshot may have named the element from its text, its window
    // title, its description, label, wrapper or content (`nameFrom`), or
    // dropped a name that is the app's type name (Nautilus's
    // "NautilusGridCell"): only a different accessible name it showed
    // counts.
    let named_elsewhere = target
        .node
        .platform
        .linux
        .as_ref()
        .is_some_and(|l| l.extra.contains_key(crate::mapping::NAME_FROM));
    let name_changed = !named_elsewhere
        && !crate::mapping::text::is_app_type_name(&live)
        && !live.is_empty()
        && !snapshot_name.is_empty()
        && live != snapshot_name;
    if role_changed || name_changed {
        return Err(AdapterError::NotFound(format!(
            "element {} is no longer {} \"{}\" (now {} \"{}\"); take a new snapshot",
            target.id,
            target.node.role.name(),
            snapshot_name,
            live_role,
            live
        )));
    }
    Ok(())
}

/// Presses `combo` and reports what changed anywhere (the focused app
/// reacts; which one is not known in advance).
pub async fn press(
    ctx: &Context<'_>,
    combo: &cup_protocol::keys::Combo,
    refs: &HashMap<String, String>,
) -> Result<ActionResult, AdapterError> {
    let device = ctx.fallback.input.ok_or_else(|| {
        AdapterError::Unavailable(
            "no synthetic input on this display (XTest missing); keys cannot be pressed".into(),
        )
    })?;
    keyboard_ready(ctx.events, device).await?;
    observed(
        ctx.events,
        format!("Pressed {combo}"),
        refs,
        device.keys(combo),
    )
    .await
}

/// The longest wait for an app to take the keyboard's focus after a
/// device made the keyboard (see [`keyboard_ready`]).
const KEYBOARD_FOCUS: Duration = Duration::from_millis(1500);

/// Primes the device's keyboard; when that made a keyboard just now (a
/// headless GNOME has none before), waits until an app reports the focus
/// it gets with it (a window `active` or an element `focused`), for at
/// most 1.5 s. Keys sent before the app took the keyboard
/// are lost (measured: a Ctrl+A right after a click on GNOME 43, 1 time
/// in 5).
pub async fn keyboard_ready(
    events: &EventLog,
    device: &dyn fallback::InputOps,
) -> Result<(), AdapterError> {
    let mark = events.mark();
    let started = Instant::now();
    if !device.prime_keyboard().await? {
        return Ok(());
    }
    let deadline = Instant::now() + KEYBOARD_FOCUS;
    loop {
        let focused = events.since(mark).iter().any(|e| {
            e.member == "StateChanged"
                && e.detail1 == 1
                && (e.kind == "active" || e.kind == "focused")
        });
        if focused {
            tracing::debug!(
                elapsed_ms = started.elapsed().as_millis(),
                "an app took the keyboard's focus"
            );
            return Ok(());
        }
        if Instant::now() >= deadline {
            tracing::debug!(
                elapsed_ms = started.elapsed().as_millis(),
                "no app reported taking the keyboard's focus"
            );
            return Ok(());
        }
        events.wait(deadline).await;
    }
}

/// Runs `perform` (input whose target is not known in advance: keys, a
/// click at a point) and reports the changes any application announced
/// within [`PRESS_SETTLE`]: `confirmed` with them, else `no_change`.
pub async fn observed(
    events: &EventLog,
    message: String,
    refs: &HashMap<String, String>,
    perform: impl std::future::Future<Output = Result<(), AdapterError>>,
) -> Result<ActionResult, AdapterError> {
    let mark = events.mark();
    perform.await?;
    let by_ref = by_reference(refs);
    let name_of = |r: &str| id_of(&by_ref, r);
    let deadline = Instant::now() + PRESS_SETTLE;
    loop {
        let changes = events::changes(&events.since(mark), None, &name_of);
        let now = Instant::now();
        if !changes.is_empty() {
            let quiet_until = now + QUIET;
            loop {
                let seen = events.mark();
                events.wait(quiet_until).await;
                if events.mark() == seen || Instant::now() >= quiet_until {
                    break;
                }
            }
            let changes = events::changes(&events.since(mark), None, &name_of);
            let changes = match events.bus() {
                Some(bus) => outsiders::name(changes, |_| bus.clone()).await,
                None => outsiders::rename(changes, &HashMap::new()),
            };
            return Ok(ActionResult::observed(message, Effect::Confirmed, changes));
        }
        if now >= deadline {
            return Ok(ActionResult::observed(
                format!(
                    "{message}; no application reported a change within {} ms",
                    PRESS_SETTLE.as_millis()
                ),
                Effect::NoChange,
                Vec::new(),
            ));
        }
        events.wait(deadline).await;
    }
}

/// How long a key press may take to show an effect.
pub const PRESS_SETTLE: Duration = Duration::from_millis(400);
/// Longest wait for typed text that keeps arriving (a loaded machine, a
/// slow app): each new character gives the rest [`SETTLE`] more, up to
/// this.
pub const TEXT_SETTLE_MAX: Duration = Duration::from_secs(5);
/// What each typed character adds to [`typed`]'s cap.
const PER_CHAR: Duration = Duration::from_millis(5);

/// Types `text` (`perform`) and reports what changed, returning only once
/// the apps reported every typed character inserted, in order
/// (`TextChanged` events: [`events::typed_so_far`]), or the text stopped arriving for [`SETTLE`], or
/// [`TEXT_SETTLE_MAX`] passed. `confirmed` only when every character
/// arrived; `unverified` when some did, or when something else changed
/// but no text was reported (keys that are shortcuts there, a widget that
/// announces no text); `no_change` when nothing changed.
pub async fn typed(
    events: &EventLog,
    message: String,
    refs: &HashMap<String, String>,
    text: &str,
    perform: impl std::future::Future<Output = Result<(), AdapterError>>,
) -> Result<ActionResult, AdapterError> {
    let want = typed_chars(text);
    if want == 0 {
        // Only Return and Tab: keys, observed as keys are.
        return observed(events, message, refs, perform).await;
    }
    let mark = events.mark();
    perform.await?;
    // A long text is read key by key (GTK lays out the line again for
    // each): the cap grows with it.
    let cap = TEXT_SETTLE_MAX + PER_CHAR * u32::try_from(want).unwrap_or(u32::MAX);
    let started = Instant::now();
    let mut last_progress = started;
    let mut seen = 0;
    loop {
        let got = events::typed_so_far(&events.since(mark), text);
        let now = Instant::now();
        if got > seen {
            seen = got;
            last_progress = now;
        }
        let first_wait = if seen == 0 { PRESS_SETTLE } else { SETTLE };
        let until = (last_progress + first_wait).min(started + cap);
        if seen >= want || now >= until {
            break;
        }
        events.wait(until).await;
    }
    if seen >= want {
        read_back(events, mark, text).await;
    }
    // Follow-up events (a completion popup, a counter) after the last key.
    let quiet_until = Instant::now() + QUIET;
    loop {
        let seen_mark = events.mark();
        events.wait(quiet_until).await;
        if events.mark() == seen_mark || Instant::now() >= quiet_until {
            break;
        }
    }
    let by_ref = by_reference(refs);
    let name_of = |r: &str| id_of(&by_ref, r);
    let changes = events::changes(&events.since(mark), None, &name_of);
    let changes = match events.bus() {
        Some(bus) => outsiders::name(changes, |_| bus.clone()).await,
        None => outsiders::rename(changes, &HashMap::new()),
    };
    let ms = started.elapsed().as_millis();
    let (effect, message) = if seen >= want {
        (
            Effect::Confirmed,
            format!("{message}; the app reported all {want} characters inserted"),
        )
    } else if changes.is_empty() {
        (
            Effect::NoChange,
            format!("{message}; no application reported a change within {ms} ms"),
        )
    } else if seen > 0 {
        (
            Effect::Unverified,
            format!("{message}; the app reported {seen} of {want} characters inserted within {ms} ms; take a snapshot to check the text"),
        )
    } else {
        (
            Effect::Unverified,
            format!("{message}; the focused element reported no inserted text (it may not announce text); take a snapshot to check it"),
        )
    };
    Ok(ActionResult::observed(message, effect, changes))
}

/// Longest wait for the typed text to read back from the element that
/// announced it.
const READ_BACK_MAX: Duration = Duration::from_secs(1);

/// The end of `typed` that a read-back looks for: the last (up to 16)
/// characters of its last line.
fn read_back_tail(typed: &str) -> String {
    let last = typed.rsplit(['\n', '\r']).next().unwrap_or("");
    let chars: Vec<char> = last.chars().filter(|c| !c.is_control()).collect();
    chars[chars.len().saturating_sub(16)..].iter().collect()
}

/// Waits (up to [`READ_BACK_MAX`]) until the element that announced the
/// last typed characters reads them back, in its text and in its name when
/// it has one. Some apps announce an insert before their accessible model
/// holds it (LibreOffice: a paragraph's name followed its text by a few
/// hundred ms under load), and the snapshot an agent takes next must show
/// what was typed.
async fn read_back(events: &EventLog, mark: u64, typed: &str) {
    let Some(conn) = events.bus() else {
        return;
    };
    let tail = read_back_tail(typed);
    let Some(last) = events
        .since(mark)
        .into_iter()
        .rev()
        .find(|e| e.member == "TextChanged" && e.kind.starts_with("insert"))
    else {
        return;
    };
    if tail.is_empty() {
        return;
    }
    let obj = ObjRef::new(last.bus, last.path);
    let until = Instant::now() + READ_BACK_MAX;
    loop {
        let text = calls::text(conn, &obj, -1).await.ok();
        let name: Option<String> = calls::property(conn, &obj, "org.a11y.atspi.Accessible", "Name")
            .await
            .ok();
        let holds = |s: &Option<String>| {
            s.as_deref()
                .is_none_or(|s| s.trim().is_empty() || s.contains(&tail))
        };
        if holds(&text) && holds(&name) {
            return;
        }
        if Instant::now() >= until {
            tracing::debug!(?text, ?name, %tail, "typed text did not read back");
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The characters of `text` that insert text: not the newlines and tabs
/// (Return and Tab may activate or move focus instead).
fn typed_chars(text: &str) -> usize {
    text.chars().filter(|c| !c.is_control()).count()
}

fn plan_reads_text(facts: &probe::Facts) -> bool {
    facts.text.is_some()
}

/// The snapshot's ids by native reference (`refs` reversed).
fn by_reference(refs: &HashMap<String, String>) -> HashMap<&str, &str> {
    refs.iter()
        .map(|(id, r)| (r.as_str(), id.as_str()))
        .collect()
}

/// The id of the element at native reference `r`, or `r` itself when the
/// snapshot does not have it (named after the action: [`outsiders`]).
fn id_of(by_ref: &HashMap<&str, &str>, r: &str) -> String {
    by_ref
        .get(r)
        .map_or_else(|| r.to_owned(), |id| (*id).to_owned())
}

/// Adds `more` to `changes`, skipping what the target diff already says.
fn merge(changes: &mut Vec<Change>, more: Vec<Change>) {
    for c in more {
        let dup = changes
            .iter()
            .any(|x| x.target == c.target && x.field == c.field);
        if !dup {
            changes.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_lines_are_looked_for_on_a_terminal_screen() {
        let screen = "root@vm:~# echo $((6*7))-done\n42-done\nroot@vm:~#";
        assert!(shown_in_terminal(screen, "echo $((6*7))-done\n"));
        assert!(shown_in_terminal(screen, ""));
        assert!(!shown_in_terminal(screen, "echo 7\n"));
    }

    #[test]
    fn the_read_back_looks_for_the_end_of_the_last_line() {
        assert_eq!(read_back_tail("Zoë ✓ 東京 👍🏽"), "Zoë ✓ 東京 👍🏽");
        assert_eq!(read_back_tail("one\ntwo\t"), "two");
        assert_eq!(
            read_back_tail("abcdefghijklmnopqrstuvwxyz"),
            "klmnopqrstuvwxyz"
        );
        assert_eq!(read_back_tail("line\n"), "");
    }

    #[test]
    fn typed_characters_leave_out_return_and_tab() {
        assert_eq!(typed_chars("héllo ✓"), 7);
        assert_eq!(typed_chars("a\nb\tc"), 3);
        assert_eq!(typed_chars("\n"), 0);
        assert_eq!(typed_chars("👍🏽"), 2);
    }

    #[test]
    fn ids_stand_for_their_references() {
        let refs: HashMap<String, String> = [("e3".to_owned(), ":1.5:/a/3".to_owned())]
            .into_iter()
            .collect();
        let by_ref = by_reference(&refs);
        assert_eq!(id_of(&by_ref, ":1.5:/a/3"), "e3");
        assert_eq!(id_of(&by_ref, ":1.5:/a/9"), ":1.5:/a/9");
    }
}
