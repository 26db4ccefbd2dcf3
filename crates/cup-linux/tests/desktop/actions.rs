//! Element actions on real apps, each checked by an independent snapshot:
//! the effect the action reports must be the one the next capture shows.

use crate::support::{has, nodes, request, snapshot, Desk};
use cup::{ActionParams, Direction, Effect, Session, SnapshotRequest};
use cup_protocol::{Node, Role, Scope, State};

async fn fresh(session: &mut Session) -> cup::Snapshot {
    snapshot(session, &request(Scope::Foreground)).await
}

fn first(snap: &cup::Snapshot, pred: impl Fn(&Node) -> bool) -> &Node {
    nodes(snap)
        .into_iter()
        .find(|n| pred(n))
        .unwrap_or_else(|| panic!("no such element in:\n{}", snap.text))
}

fn value(text: &str) -> ActionParams {
    ActionParams {
        value: Some(text.to_owned()),
        ..ActionParams::default()
    }
}

async fn act(
    session: &mut Session,
    id: &str,
    verb: &str,
    params: &ActionParams,
) -> cup::ActionResult {
    session
        .action(id, verb, params)
        .await
        .unwrap_or_else(|e| panic!("{verb} on {id}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn toggle_type_replace_and_spin() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();

    // Toggle an unchecked, enabled check button: {chk} appears.
    let snap = fresh(&mut session).await;
    let check = first(&snap, |n| {
        n.role == Role::Checkbox && n.name == "checkbutton" && n.states.is_empty()
    })
    .id
    .clone();
    let r = act(&mut session, &check, "toggle", &ActionParams::default()).await;
    assert!(r.success, "{r:?}");
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(
        r.changes.iter().any(
            |c| c.target == check && c.after.as_deref().is_some_and(|a| a.contains("+checked"))
        ),
        "{r:?}"
    );
    let snap = fresh(&mut session).await;
    let again = first(&snap, |n| n.id == check);
    assert!(
        has(again, State::Checked),
        "the next snapshot shows it checked: {again:?}"
    );

    // Type Unicode into an entry and read it back exactly.
    let entry = first(&snap, |n| {
        n.role == Role::TextBox && n.value.as_deref() == Some("entry") && !has(n, State::Disabled)
    })
    .id
    .clone();
    let text = "héllo ✓ 日本 \"q\"";
    let r = act(&mut session, &entry, "type", &value(text)).await;
    assert!(r.success && r.effect == Effect::Confirmed, "{r:?}");
    assert!(r.message.contains("reads back exactly"), "{r:?}");
    let snap = fresh(&mut session).await;
    assert_eq!(first(&snap, |n| n.id == entry).value.as_deref(), Some(text));

    // Replace it.
    let r = act(&mut session, &entry, "setvalue", &value("replaced")).await;
    assert!(r.success && r.effect == Effect::Confirmed, "{r:?}");
    let snap = fresh(&mut session).await;
    assert_eq!(
        first(&snap, |n| n.id == entry).value.as_deref(),
        Some("replaced")
    );

    // Increment a spin button (50 → 51).
    let spin = first(&snap, |n| {
        n.role == Role::SpinButton && !has(n, State::Disabled) && n.value.as_deref() == Some("50")
    })
    .id
    .clone();
    let r = act(&mut session, &spin, "increment", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    let snap = fresh(&mut session).await;
    assert_eq!(first(&snap, |n| n.id == spin).value.as_deref(), Some("51"));
    let r = act(&mut session, &spin, "decrement", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disabled_button_reports_no_change_and_bad_requests_say_why() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    let snap = fresh(&mut session).await;
    let disabled = first(&snap, |n| {
        n.role == Role::Checkbox
            && has(n, State::Disabled)
            && !has(n, State::Checked)
            && !has(n, State::Mixed)
    })
    .id
    .clone();
    let r = act(&mut session, &disabled, "click", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::NoChange, "{r:?}");
    assert!(r.changes.is_empty(), "{r:?}");
    assert!(
        r.message.contains("nothing changed") && r.message.contains("disabled"),
        "{r:?}"
    );

    let err = |r: Result<cup::ActionResult, cup::SessionError>| {
        r.err().map(|e| e.to_string()).unwrap_or_default()
    };
    let e = err(session
        .action("e99999", "click", &ActionParams::default())
        .await);
    assert!(e.contains("not found in the current snapshot"), "{e}");
    let e = err(session
        .action(&disabled, "jump", &ActionParams::default())
        .await);
    assert!(e.starts_with("Unknown action 'jump'"), "{e}");
    let label = first(&snap, |n| n.role == Role::Text && n.actions.is_empty())
        .id
        .clone();
    let e = err(session
        .action(&label, "toggle", &ActionParams::default())
        .await);
    assert!(e.contains("does not support toggle; it supports:"), "{e}");
    let e = err(session
        .action(&disabled, "type", &ActionParams::default())
        .await);
    assert!(e.contains("requires a 'value' parameter"), "{e}");
    let scroll = ActionParams {
        direction: None,
        ..ActionParams::default()
    };
    let e = err(session.action(&disabled, "scroll", &scroll).await);
    assert!(e.contains("requires 'direction'"), "{e}");
    let _ = Direction::Down;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn combo_box_item_and_tree_row() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    let snap = fresh(&mut session).await;

    // Open the "Left" combo box: a menu window appears; pick "Middle".
    let combo = first(&snap, |n| n.role == Role::Combobox && n.name == "Left")
        .id
        .clone();
    let r = act(&mut session, &combo, "click", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    let full = SnapshotRequest {
        scope: Scope::Full,
        ..SnapshotRequest::default()
    };
    let snap = snapshot(&mut session, &full).await;
    let item = first(&snap, |n| {
        n.role == Role::MenuItem && n.name == "Middle" && !has(n, State::Offscreen)
    })
    .id
    .clone();
    let r = act(&mut session, &item, "click", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    let snap = fresh(&mut session).await;
    assert!(
        nodes(&snap)
            .iter()
            .filter(|n| n.role == Role::Combobox && n.name == "Middle")
            .count()
            >= 2,
        "the first combo now shows Middle too:\n{}",
        snap.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tree_row_expands_and_collapses() {
    let desk = Desk::start();
    desk.launch("gtk3-demo", &[]);
    let mut session = desk.session();
    let snap = fresh(&mut session).await;
    let row = first(&snap, |n| {
        n.role == Role::Cell && n.name == "Benchmark" && has(n, State::Collapsed)
    })
    .id
    .clone();
    let r = act(&mut session, &row, "expand", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(
        r.changes
            .iter()
            .any(|c| c.after.as_deref().is_some_and(|a| a.contains("+expanded"))),
        "{r:?}"
    );
    let snap = fresh(&mut session).await;
    assert!(has(first(&snap, |n| n.id == row), State::Expanded));
    assert!(
        nodes(&snap).iter().any(|n| n.name == "Fishbowl"),
        "a child row shows:\n{}",
        snap.text
    );
    let r = act(&mut session, &row, "expand", &ActionParams::default()).await;
    assert!(
        r.success && r.message == "Already expanded" && r.effect == Effect::NoChange,
        "{r:?}"
    );
    let r = act(&mut session, &row, "collapse", &ActionParams::default()).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_app_launches_the_widget_factory() {
    let desk = Desk::start();
    let mut session = desk.session();
    let launched = session
        .open_app("widget factory")
        .await
        .unwrap_or_else(|e| panic!("open_app: {e}"));
    let window = launched
        .window
        .clone()
        .unwrap_or_else(|| panic!("no window: {launched:?}"));
    assert_eq!(window.info.title, "gtk3-widget-factory");
    let snap = fresh(&mut session).await;
    assert_eq!(snap.envelope.tree[0].name, "gtk3-widget-factory");
    let e = session
        .open_app("no such application anywhere")
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("no installed app matches"), "{e}");
    // The launched app belongs to this test's desktop: end it with it.
    let _ = std::process::Command::new("kill")
        .arg(launched.pid.to_string())
        .status();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyboard_pointer_and_scroll() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    // The app reports its initial focus a little after its window shows.
    let mut snap = fresh(&mut session).await;
    for _ in 0..50 {
        if nodes(&snap)
            .iter()
            .any(|n| n.role == Role::TextBox && has(n, State::Focused))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        snap = fresh(&mut session).await;
    }

    // ctrl+a in the focused entry selects its text: an observed effect.
    let focused = first(&snap, |n| n.role == Role::TextBox && has(n, State::Focused))
        .id
        .clone();
    let r = session
        .press("ctrl+a")
        .await
        .unwrap_or_else(|e| panic!("press: {e}"));
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(r.changes.iter().any(|c| c.target == focused), "{r:?}");
    // Elements outside the snapshot are named by role and name, never by
    // their AT-SPI path.
    assert!(
        r.changes
            .iter()
            .all(|c| !c.target.contains(":/")
                && c.after.as_deref().is_none_or(|a| !a.contains(":/"))),
        "{r:?}"
    );
    // Then typing over the selection with the keyboard replaces it.
    let input = cup_linux::input::Input::open(desk.desktop().display.as_deref().unwrap_or(":0"))
        .await
        .unwrap_or_else(|e| panic!("input: {e}"));
    input
        .type_text("kb ✓")
        .await
        .unwrap_or_else(|e| panic!("type: {e}"));
    // The call returns once the X server has the keys; the app handles
    // them after that.
    let typed =
        |snap: &cup::Snapshot| first(snap, |n| n.id == focused).value.as_deref() == Some("kb ✓");
    let mut snap = fresh(&mut session).await;
    let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !typed(&snap) && std::time::Instant::now() < end {
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        snap = fresh(&mut session).await;
    }
    assert_eq!(
        first(&snap, |n| n.id == focused).value.as_deref(),
        Some("kb ✓")
    );

    // Drag the first enabled horizontal slider's knob to the right: its value rises.
    let slider = first(&snap, |n| {
        n.role == Role::Slider
            && !has(n, State::Disabled)
            && n.attributes
                .orientation
                .is_some_and(|o| o == cup_protocol::Orientation::Horizontal)
    })
    .clone();
    let b = slider
        .bounds
        .unwrap_or_else(|| panic!("slider without bounds"));
    let before: f64 = slider
        .value
        .as_deref()
        .unwrap_or("0")
        .parse()
        .unwrap_or(0.0);
    let y = b.y + i64::try_from(b.h / 2).unwrap_or(0);
    let from = cup_linux::input::Point::new(b.x + i64::try_from(b.w / 2).unwrap_or(0), y);
    let to = cup_linux::input::Point::new(b.x + i64::try_from(b.w).unwrap_or(0) - 4, y);
    input
        .drag(
            &[from, to],
            cup_linux::input::Button::Left,
            std::time::Duration::from_millis(150),
            None,
            &[],
        )
        .await
        .unwrap_or_else(|e| panic!("drag: {e}"));
    let snap = fresh(&mut session).await;
    let after: f64 = first(&snap, |n| n.id == slider.id)
        .value
        .as_deref()
        .unwrap_or("0")
        .parse()
        .unwrap_or(0.0);
    assert!(after > before, "slider value {before} -> {after}");

    // Scroll the text view's scroll pane down: its scroll bar moves.
    let pane = first(&snap, |n| {
        n.actions.contains(&cup_protocol::Action::Scroll)
            && n.children.iter().any(|c| c.role == Role::TextBox)
    })
    .id
    .clone();
    let down = ActionParams {
        direction: Some(Direction::Down),
        amount: Some(5),
        ..ActionParams::default()
    };
    let r = act(&mut session, &pane, "scroll", &down).await;
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_in_order_with_gen1_names_stops_at_the_first_failure() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    let snap = fresh(&mut session).await;
    let check = first(&snap, |n| {
        n.role == Role::Checkbox && n.name == "checkbutton" && n.states.is_empty()
    })
    .id
    .clone();
    let steps: Vec<serde_json::Value> = serde_json::from_str(&format!(
        r#"[
            {{"action": "find_elements", "role": "checkbox", "name": "checkbutton", "state": "checked"}},
            {{"action": "execute", "verb": "toggle", "element_id": "{check}"}},
            {{"action": "wait", "ms": 10}},
            {{"action": "press_keys", "keys": "ctrl+a"}},
            {{"action": "capture", "scope": "overview"}},
            {{"action": "click", "element_id": "e99999"}},
            {{"action": "press", "keys": "a"}}
        ]"#
    ))
    .unwrap_or_else(|e| panic!("steps: {e}"));
    let results = session.batch_execute(&steps).await;
    // Six ran; the seventh did not, because the sixth failed.
    assert_eq!(results.len(), 6, "{results:#?}");
    assert!(results[0].success, "{:?}", results[0]);
    assert!(
        results[0].message.contains("chk \"checkbutton\""),
        "{}",
        results[0].message
    );
    assert_eq!(results[1].effect, Effect::Confirmed, "{:?}", results[1]);
    // Waits are held to 50-5000 ms, as the spec says.
    assert_eq!(results[2].message, "Waited 50ms");
    assert!(results[3].success, "{:?}", results[3]);
    assert!(
        results[4].message.contains("gtk3-widget-factory"),
        "{}",
        results[4].message
    );
    assert!(!results[5].success);
    let error = results[5].error.clone().unwrap_or_default();
    assert!(
        error.starts_with("step 6: ") && error.contains("e99999"),
        "{error}"
    );
    // The check button is checked now, as the toggle reported.
    let after = fresh(&mut session).await;
    let node = nodes(&after).into_iter().find(|n| n.id == check).cloned();
    assert!(
        node.as_ref().is_some_and(|n| has(n, State::Checked)),
        "{node:?}"
    );
}
