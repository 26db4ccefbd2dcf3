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

pub mod device;
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
use crate::links::Links;
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
    let mark = ctx.events.mark();
    let el = Element {
        conn: &conn,
        obj: &obj,
        interfaces,
        states: before.states,
    };
    let performed = verbs::perform(&el, verb, params, &ctx.fallback).await?;

    let by_ref: HashMap<&str, &str> = refs
        .iter()
        .map(|(id, r)| (r.as_str(), id.as_str()))
        .collect();
    let name_of = |r: &str| {
        by_ref
            .get(r)
            .map_or_else(|| r.to_owned(), |id| (*id).to_owned())
    };
    let started = Instant::now();
    let deadline = started + SETTLE;
    let mut step = FIRST_STEP;
    // Text typed with the keyboard arrives key by key after the keys were
    // sent: the first change may be part of it.
    let wanted_text = matches!(verb, Action::Type | Action::SetValue)
        .then(|| params.value.clone().unwrap_or_default());
    let (after, changes) = loop {
        let after = probe::read(&conn, &obj, plan).await;
        let mut changes = probe::diff(target.id, &before, &after);
        let around = events::changes(&ctx.events.since(mark), Some(&obj.bus), &name_of);
        merge(&mut changes, around);
        let now = Instant::now();
        let text_pending = wanted_text
            .as_deref()
            .is_some_and(|w| after.text.as_deref().is_some_and(|t| t != w));
        if (!changes.is_empty() && !text_pending)
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
    let effect = if changes.is_empty() {
        if after.alive {
            Effect::NoChange
        } else {
            Effect::Unverified
        }
    } else {
        Effect::Confirmed
    };
    let elapsed = started.elapsed();
    tracing::debug!(verb = %verb, ?effect, settle_ms = elapsed.as_secs_f64() * 1e3, "action observed");

    let mut message = performed.message.clone();
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
        if got == wanted {
            result.message = format!("{} (reads back exactly)", result.message);
        } else if !performed.refused {
            result.success = false;
            result.error = Some(format!(
                "the field reads back {got:?}, not {wanted:?}; the app may filter or reformat input"
            ));
        }
    }
    Ok(result)
}

/// Refuses when the object at the snapshot's reference is no longer the
/// element the snapshot showed (another AT-SPI role, or another name).
fn same_element(
    target: &Target<'_>,
    role: crate::raw::AtspiRole,
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
    let live = crate::mapping::text::cap(name.trim(), crate::mapping::text::NAME_MAX);
    // The snapshot may have named the element from its text or its window
    // title; only a different non-empty accessible name counts.
    let name_changed = !live.is_empty() && !snapshot_name.is_empty() && live != snapshot_name;
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
    observed(
        ctx.events,
        format!("Pressed {combo}"),
        refs,
        device.keys(combo),
    )
    .await
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
    let by_ref: HashMap<&str, &str> = refs
        .iter()
        .map(|(id, r)| (r.as_str(), id.as_str()))
        .collect();
    let name_of = |r: &str| {
        by_ref
            .get(r)
            .map_or_else(|| r.to_owned(), |id| (*id).to_owned())
    };
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

fn plan_reads_text(facts: &probe::Facts) -> bool {
    facts.text.is_some()
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
