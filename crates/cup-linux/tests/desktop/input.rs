//! X11 keyboard and pointer input (XTest) in a private desktop with
//! gtk3-widget-factory: typed Unicode text read back through AT-SPI, key
//! combos, clicks that toggle a check button, drags and scrolls that move
//! the real pointer, and keycodes lent to missing keysyms recorded as
//! leases, kept for later calls and taken back once their hold passed.

use std::time::{Duration, Instant};

use crate::support::{has, nodes, request, snapshot, Desk};
use cup::Snapshot;
use cup_linux::input::{Button, Input, InputError, InputOptions, Keymap, Level, Point, Resolution};
use cup_protocol::{Direction, Key, Modifier, NamedKey, Node, Role, Scope, State};
use cup_sandbox::SandboxOptions;

/// Opens input on the desktop's display.
async fn input(desk: &Desk) -> Input {
    let display = desk.sandbox.display().to_owned();
    Input::open_with(&display, InputOptions::default())
        .await
        .unwrap_or_else(|e| panic!("cannot open input on {display}: {e}"))
}

/// The leases recorded on the root window: (keycode, keysym).
fn leases(display: &str) -> Vec<(u8, u32)> {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};
    let (conn, screen) =
        cup_linux::internals::x11_connect(display).unwrap_or_else(|e| panic!("{e}"));
    let root = conn.setup().roots[screen].root;
    let atom = conn
        .intern_atom(false, b"_CUP_KEY_LEASES")
        .unwrap_or_else(|e| panic!("{e}"))
        .reply()
        .unwrap_or_else(|e| panic!("{e}"))
        .atom;
    let reply = conn
        .get_property(false, root, atom, AtomEnum::CARDINAL, 0, 4096)
        .unwrap_or_else(|e| panic!("{e}"))
        .reply()
        .unwrap_or_else(|e| panic!("{e}"));
    let words: Vec<u32> = reply.value32().map(Iterator::collect).unwrap_or_default();
    cup_linux::input::lease::Leases::decode(&words)
        .iter()
        .map(|l| (l.keycode, l.keysym))
        .collect()
}

/// Checks that `after` differs from `before` only on keycodes that were
/// empty and are now recorded leases carrying their keysym (lent rows),
/// and returns the lent keysyms.
fn lent_only(display: &str, before: &Keymap, after: &Keymap) -> Vec<u32> {
    let leases = leases(display);
    let mut lent = Vec::new();
    for kc in before.keycodes() {
        if before.row(kc) == after.row(kc) {
            continue;
        }
        assert!(
            before.row(kc).iter().all(|&k| k == 0),
            "keycode {kc} of the layout was changed: {:?} -> {:?}",
            before.row(kc),
            after.row(kc)
        );
        let lease = leases.iter().find(|l| l.0 == kc);
        match lease {
            Some(&(_, keysym)) => {
                assert!(after.is_lent_row(kc, keysym), "{kc}: {:x?}", after.row(kc));
                lent.push(keysym);
            }
            None => assert!(
                after.row(kc).iter().all(|&k| k == 0),
                "keycode {kc} changed but is no lease: {:?} ({leases:?})",
                after.row(kc)
            ),
        }
    }
    lent.sort_unstable();
    lent
}

fn centre(node: &Node) -> Point {
    let b = node
        .bounds
        .unwrap_or_else(|| panic!("{} has no bounds", node.id));
    let half = |v: u64| i64::try_from(v / 2).unwrap_or(0);
    Point::new(b.x + half(b.w), b.y + half(b.h))
}

/// The focused text box of a snapshot.
fn focused_textbox(snap: &Snapshot) -> Option<&Node> {
    nodes(snap)
        .into_iter()
        .find(|n| n.role == Role::TextBox && has(n, State::Focused))
}

/// Takes snapshots until `done` holds for one (or 3 s pass); returns the
/// last.
async fn snapshot_until(session: &mut cup::Session, done: impl Fn(&Snapshot) -> bool) -> Snapshot {
    let start = Instant::now();
    loop {
        let snap = snapshot(session, &request(Scope::Foreground)).await;
        // Generous: other desktops of the suite share the two cores.
        if done(&snap) || start.elapsed() > Duration::from_secs(10) {
            return snap;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

fn focused_value(snap: &Snapshot) -> Option<String> {
    focused_textbox(snap).and_then(|n| n.value.clone())
}

/// Starts a desktop with gtk3-widget-factory and puts the pointer on its
/// focused entry (without a window manager, focus follows the pointer).
async fn factory(with_window_manager: bool) -> (Desk, cup::Session, Input, Point) {
    let desk = Desk::start_with(SandboxOptions {
        with_window_manager,
        ..SandboxOptions::default()
    });
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    let input = input(&desk).await;
    let snap = snapshot_until(&mut session, |s| focused_textbox(s).is_some()).await;
    let entry =
        focused_textbox(&snap).unwrap_or_else(|| panic!("no focused text box:\n{}", snap.text));
    assert_eq!(entry.value.as_deref(), Some("comboboxentry"));
    let at = centre(entry);
    input
        .move_to(at)
        .await
        .unwrap_or_else(|e| panic!("move: {e}"));
    (desk, session, input, at)
}

async fn type_and_read(session: &mut cup::Session, input: &Input, text: &str) -> Option<String> {
    input
        .press("ctrl+a")
        .await
        .unwrap_or_else(|e| panic!("ctrl+a: {e}"));
    input
        .type_text(text)
        .await
        .unwrap_or_else(|e| panic!("type {text:?}: {e}"));
    let snap = snapshot_until(session, |s| focused_value(s).as_deref() == Some(text)).await;
    focused_value(&snap)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_unicode_text_reads_back_and_lent_keycodes_are_leases() {
    let (desk, mut session, input, _) = factory(false).await;
    let display = desk.sandbox.display().to_owned();
    let before = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));

    // é, ✓, 日 and 本 are not on the US keymap (lent), " needs Shift.
    let text = "héllo ✓ 日本 \"q\"";
    assert_eq!(
        type_and_read(&mut session, &input, text).await.as_deref(),
        Some(text)
    );
    let after = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    assert_eq!(
        lent_only(&display, &before, &after),
        vec![0xe9, 0x0100_2713, 0x0100_65e5, 0x0100_672c],
        "é ✓ 日 本 are lent"
    );
    // The same text again finds them on the keymap: nothing changes.
    assert_eq!(
        type_and_read(&mut session, &input, text).await.as_deref(),
        Some(text)
    );
    let again = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    assert!(
        again == after,
        "typing lent keysyms again changed the keymap"
    );

    // With no hold, the next change takes back what that call does not
    // use: é stays (ünïcödé has it), ✓ 日 本 go, Ω ü ï ö come.
    let eager = Input::open_with(
        &display,
        InputOptions {
            lease_hold: Duration::ZERO,
            ..InputOptions::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let replaced = "Ωmega €5 ünïcödé";
    assert_eq!(
        type_and_read(&mut session, &eager, replaced)
            .await
            .as_deref(),
        Some(replaced)
    );
    let now = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    let lent = lent_only(&display, &before, &now);
    let keysym = |c: char| {
        cup_linux::input::keysym::char_keysym(c).unwrap_or_else(|| panic!("no keysym for {c}"))
    };
    for c in ['é', 'ü', 'ï', 'ö', 'Ω'] {
        assert!(lent.contains(&keysym(c)), "{c} is lent: {lent:x?}");
    }
    for c in ['✓', '日', '本'] {
        assert!(!lent.contains(&keysym(c)), "{c} was taken back: {lent:x?}");
    }
    assert_eq!(
        type_and_read(&mut session, &input, "plain ASCII: a-Z_0~!")
            .await
            .as_deref(),
        Some("plain ASCII: a-Z_0~!")
    );

    // A control character is refused before anything is typed.
    let err = input.type_text("a\u{1}b").await.err();
    assert!(
        err.as_ref()
            .is_some_and(|e| e.to_string().contains("U+0001")),
        "{err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_modifiers_do_not_corrupt_typing() {
    let (_desk, mut session, input, _) = factory(false).await;
    // Shift held down (as by a user) and Caps Lock on while typing.
    input
        .press("caps_lock")
        .await
        .unwrap_or_else(|e| panic!("caps_lock: {e}"));
    let held = hold_key(input.display(), SHIFT_L);
    let text = "MiXed case é";
    assert_eq!(
        type_and_read(&mut session, &input, text).await.as_deref(),
        Some(text)
    );
    // Shift is down again afterwards, as the user holds it.
    assert!(key_is_down(&held.0, SHIFT_L), "Shift was not pressed again");
    release_key(&held, SHIFT_L);
    input
        .press("caps_lock")
        .await
        .unwrap_or_else(|e| panic!("caps_lock: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_toggles_a_check_button() {
    let (_desk, mut session, input, _) = factory(false).await;
    click_toggle(&mut session, &input).await;
}

/// Clicks the first enabled check button and waits until its state flips.
async fn click_toggle(session: &mut cup::Session, input: &Input) {
    let is_check =
        |n: &&Node| n.role == Role::Checkbox && n.name == "checkbutton" && !has(n, State::Disabled);
    let snap = snapshot(session, &request(Scope::Foreground)).await;
    let check = nodes(&snap)
        .into_iter()
        .find(is_check)
        .unwrap_or_else(|| panic!("no enabled check button:\n{}", snap.text))
        .clone();
    let was = has(&check, State::Checked);
    input
        .click(centre(&check), Button::Left, 1, &[])
        .await
        .unwrap_or_else(|e| panic!("click: {e}"));
    let toggled = |s: &Snapshot| {
        nodes(s)
            .into_iter()
            .any(|n| n.id == check.id && is_check(&n) && has(n, State::Checked) != was)
    };
    let snap = snapshot_until(session, toggled).await;
    assert!(
        toggled(&snap),
        "{} did not toggle (checked was {was}):\n{}",
        check.id,
        snap.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_window_manager_clicks_and_typing_work() {
    let (_desk, mut session, input, at) = factory(true).await;
    // With openbox, focus does not follow the pointer: click the entry,
    // then wait until the window manager has made the window active (keys
    // sent before that go nowhere).
    input
        .click(at, Button::Left, 1, &[])
        .await
        .unwrap_or_else(|e| panic!("click: {e}"));
    let start = Instant::now();
    loop {
        let windows = session
            .adapter()
            .windows()
            .await
            .unwrap_or_else(|e| panic!("windows: {e}"));
        if windows
            .iter()
            .any(|w| w.info.foreground && w.info.title.contains("widget"))
        {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "openbox did not activate the window: {windows:?}"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    // The WM marks the window active before GTK has taken the focus in: a
    // Ctrl+A sent between the two selected nothing (1 CI run, text typed
    // after "comboboxentry"). GTK's entry says FOCUSED once it has it.
    snapshot_until(&mut session, |s| focused_textbox(s).is_some()).await;
    let text = "wm ✓ ß";
    assert_eq!(
        type_and_read(&mut session, &input, text).await.as_deref(),
        Some(text)
    );
    click_toggle(&mut session, &input).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_named_key_and_lone_modifiers_are_sent() {
    let desk = Desk::start();
    let input = input(&desk).await;
    let before = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    for combo in [
        "shift",
        "ctrl",
        "alt",
        "super",
        "alt+f4",
        "alt+tab",
        "ctrl+shift+p",
        "ctrl++",
    ] {
        input
            .press(combo)
            .await
            .unwrap_or_else(|e| panic!("{combo}: {e}"));
    }
    let mut remapped = Vec::new();
    for &key in NamedKey::ALL {
        let resolution = input
            .resolve_key(Key::Named(key))
            .await
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        match resolution {
            Resolution::Key { place, .. } => assert!(place.keycode >= 8, "{key}: {place:?}"),
            Resolution::Remap { .. } => remapped.push(key.name()),
        }
        // Lock keys are pressed twice so the state is as before.
        let times = if matches!(
            key,
            NamedKey::CapsLock | NamedKey::NumLock | NamedKey::ScrollLock
        ) {
            2
        } else {
            1
        };
        for _ in 0..times {
            input
                .press(key.name())
                .await
                .unwrap_or_else(|e| panic!("{key}: {e}"));
        }
    }
    // The US keymap of Xvfb has no F13–F24 (its keys carry XF86 keysyms).
    assert!(remapped.contains(&"f13"), "{remapped:?}");
    assert!(
        !remapped.contains(&"f1") && !remapped.contains(&"kp_0"),
        "{remapped:?}"
    );
    // Characters: on the keymap, with Shift, and remapped.
    for (c, level_shift) in [('a', Some(false)), ('"', Some(true)), ('日', None)] {
        match input.resolve_key(Key::Char(c)).await {
            Ok(Resolution::Key { place, .. }) => {
                assert_eq!(Some(place.level.shift()), level_shift, "{c}")
            }
            Ok(Resolution::Remap { .. }) => assert_eq!(level_shift, None, "{c}"),
            Err(e) => panic!("{c}: {e}"),
        }
    }
    let after = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    // Keys the keymap lacks (F13–F24 ...) are lent, nothing else changed.
    let lent = lent_only(desk.sandbox.display(), &before, &after);
    assert!(lent.contains(&0xffca), "F13 is lent: {lent:x?}");
    // Errors say what to do.
    let err = input.press("ctrl+nosuchkey").await.err();
    assert!(
        err.as_ref().is_some_and(|e| e
            .to_string()
            .contains("use a single character or a key name")),
        "{err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drag_scroll_and_pointer_position() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let input = input(&desk).await;
    assert_eq!(input.screen_size().await.ok(), Some((1920, 1080)));

    input
        .move_to(Point::new(700, 400))
        .await
        .unwrap_or_else(|e| panic!("move: {e}"));
    assert_eq!(
        input.cursor_position().await.ok(),
        Some(Point::new(700, 400))
    );

    let path = [
        Point::new(600, 600),
        Point::new(800, 650),
        Point::new(820, 900),
    ];
    input
        .drag(
            &path,
            Button::Left,
            Duration::from_millis(100),
            None,
            &[Modifier::Shift],
        )
        .await
        .unwrap_or_else(|e| panic!("drag: {e}"));
    assert_eq!(
        input.cursor_position().await.ok(),
        Some(Point::new(820, 900))
    );
    input
        .drag(&path[..2], Button::Middle, Duration::ZERO, Some(3), &[])
        .await
        .unwrap_or_else(|e| panic!("drag: {e}"));
    assert_eq!(
        input.cursor_position().await.ok(),
        Some(Point::new(800, 650))
    );

    for (i, direction) in [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ]
    .into_iter()
    .enumerate()
    {
        let at = Point::new(300 + 10 * i64::try_from(i).unwrap_or(0), 500);
        let modifiers: &[Modifier] = if i == 0 { &[Modifier::Ctrl] } else { &[] };
        input
            .scroll(Some(at), direction, 3, modifiers)
            .await
            .unwrap_or_else(|e| panic!("scroll {direction:?}: {e}"));
        assert_eq!(input.cursor_position().await.ok(), Some(at));
    }
    input
        .scroll(None, Direction::Down, 1, &[Modifier::Shift])
        .await
        .unwrap_or_else(|e| panic!("scroll: {e}"));

    for (button, count) in [(Button::Right, 1), (Button::Back, 2), (Button::Forward, 3)] {
        input
            .click(Point::new(1500, 1000), button, count, &[])
            .await
            .unwrap_or_else(|e| panic!("click {button:?}: {e}"));
    }
    input
        .press("escape")
        .await
        .unwrap_or_else(|e| panic!("escape: {e}"));
    input
        .button_down(Button::Left, Some(Point::new(1600, 1000)))
        .await
        .unwrap_or_else(|e| panic!("down: {e}"));
    input
        .button_up(Button::Left, Some(Point::new(1610, 1010)))
        .await
        .unwrap_or_else(|e| panic!("up: {e}"));
    assert_eq!(
        input.cursor_position().await.ok(),
        Some(Point::new(1610, 1010))
    );

    // Refusals name the fix.
    let off = input
        .click(Point::new(1920, 5), Button::Left, 1, &[])
        .await
        .err();
    assert!(
        off.as_ref()
            .is_some_and(|e| e.to_string().contains("outside the 1920x1080 screen")),
        "{off:?}"
    );
    let count = input
        .click(Point::new(5, 5), Button::Left, 4, &[])
        .await
        .err();
    assert!(
        count
            .as_ref()
            .is_some_and(|e| e.to_string().contains("not 1, 2 or 3")),
        "{count:?}"
    );
    assert!(input
        .drag(&[], Button::Left, Duration::ZERO, None, &[])
        .await
        .is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn level3_and_mode_switch_keys_of_the_keymap() {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::ConnectionExt as _;
    let (desk, mut session, input, _) = factory(false).await;

    // Group 2 through Mode_switch: another client (as `xmodmap` would)
    // gives an empty keycode ſ on group 1 and ŵ Ŵ on group 2.
    let keymap = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    let keycode = (9..=255u8)
        .find(|&kc| keymap.row(kc).iter().all(|&k| k == 0))
        .unwrap_or_else(|| panic!("no empty keycode"));
    let per = keymap.per_keycode().max(4);
    let mut row = vec![0u32; usize::from(per)];
    row[..4].copy_from_slice(&[0x0100_017f, 0x0100_017f, 0x0100_0175, 0x0100_0174]);
    let (conn, _) =
        cup_linux::internals::x11_connect(input.display()).unwrap_or_else(|e| panic!("{e}"));
    conn.change_keyboard_mapping(1, keycode, per, &row)
        .unwrap_or_else(|e| panic!("{e}"))
        .check()
        .unwrap_or_else(|e| panic!("ChangeKeyboardMapping: {e}"));
    // A round trip of our Input after the change: its MappingNotify is
    // queued, so the next call reads the keymap again.
    let _ = input.cursor_position().await;
    for (c, level) in [('ŵ', Level::Group2), ('Ŵ', Level::Group2Shift)] {
        match input.resolve_key(Key::Char(c)).await {
            Ok(Resolution::Key { place, .. }) => {
                assert_eq!((place.keycode, place.level), (keycode, level), "{c}");
            }
            other => panic!("{c}: {other:?}"),
        }
    }
    let text = "ŵŴ";
    assert_eq!(
        type_and_read(&mut session, &input, text).await.as_deref(),
        Some(text)
    );
    let empty = vec![0u32; usize::from(per)];
    conn.change_keyboard_mapping(1, keycode, per, &empty)
        .unwrap_or_else(|e| panic!("{e}"))
        .check()
        .unwrap_or_else(|e| panic!("ChangeKeyboardMapping: {e}"));
    let _ = conn.flush();

    // Level 3 (AltGr) on a German keymap: € @ { without any remap.
    let status = desk
        .sandbox
        .command("setxkbmap")
        .args(["-layout", "de"])
        .status()
        .unwrap_or_else(|e| panic!("cannot run setxkbmap: {e} (apt-get install x11-xkb-utils)"));
    assert!(status.success(), "setxkbmap -layout de: {status}");
    let _ = input.cursor_position().await;
    for (c, level) in [
        ('€', Level::Level3),
        ('@', Level::Level3),
        ('{', Level::Level3),
        ('ü', Level::Base),
        ('Ü', Level::Shift),
    ] {
        match input.resolve_key(Key::Char(c)).await {
            Ok(Resolution::Key { place, .. }) => assert_eq!(place.level, level, "{c}"),
            other => panic!("{c}: {other:?}"),
        }
    }
    let before = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    let text = "€@{üÜzy";
    assert_eq!(
        type_and_read(&mut session, &input, text).await.as_deref(),
        Some(text)
    );
    let after = input
        .keyboard_mapping()
        .await
        .unwrap_or_else(|e| panic!("keymap: {e}"));
    assert!(before == after, "typing on the German keymap changed it");
}

#[tokio::test]
async fn a_silent_server_times_out_and_a_missing_one_is_named() {
    // A "server" that accepts connections and never answers.
    let (listener, number) = (600..700u16)
        .find_map(|n| {
            std::net::TcpListener::bind(("127.0.0.1", 6000 + n))
                .ok()
                .map(|l| (l, n))
        })
        .unwrap_or_else(|| panic!("no free TCP port 6600-6699 for a fake X server"));
    let display = format!("127.0.0.1:{number}");
    let options = InputOptions {
        timeout: Duration::from_millis(300),
        ..InputOptions::default()
    };
    let t = Instant::now();
    let result = Input::open_with(&display, options).await;
    let err = result.as_ref().err();
    assert!(
        matches!(err, Some(InputError::Timeout { .. })),
        "{result:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(
        err.is_some_and(|e| e.to_string().contains("within 300 ms")),
        "{err:?}"
    );
    drop(listener);

    let err = Input::open(&display).await.err();
    assert!(matches!(err, Some(InputError::Connect { .. })), "{err:?}");
    assert!(
        err.as_ref()
            .is_some_and(|e| e.to_string().contains("check DISPLAY")),
        "{err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_server_times_out_then_recovers() {
    let desk = Desk::start();
    let options = InputOptions {
        timeout: Duration::from_millis(300),
        ..InputOptions::default()
    };
    let input = Input::open_with(desk.sandbox.display(), options)
        .await
        .unwrap_or_else(|e| panic!("open: {e}"));
    let xvfb = desk
        .sandbox
        .pids()
        .into_iter()
        .find(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "Xvfb")
        })
        .unwrap_or_else(|| panic!("no Xvfb among the sandbox's processes"));
    let signal = |name: &str| {
        let status = std::process::Command::new("kill")
            .args([name, &xvfb.to_string()])
            .status()
            .unwrap_or_else(|e| panic!("kill {name}: {e}"));
        assert!(status.success(), "kill {name} {xvfb}");
    };
    signal("-STOP");
    let t = Instant::now();
    let first = input.press("a").await;
    let second = input.click(Point::new(5, 5), Button::Left, 1, &[]).await;
    signal("-CONT");
    assert!(
        matches!(first, Err(InputError::Timeout { .. })),
        "{first:?}"
    );
    assert!(
        matches!(second, Err(InputError::Stuck { .. })),
        "{second:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // Once the server answers again, the Input works again.
    let start = Instant::now();
    loop {
        match input.press("a").await {
            Ok(()) => break,
            Err(e) if start.elapsed() > Duration::from_secs(5) => panic!("after SIGCONT: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// The keycode of Shift_L on Xvfb's US keymap.
const SHIFT_L: u8 = 50;

/// Another client that holds a key down (as a user would), through XTest.
struct Holder(x11rb::rust_connection::RustConnection);

fn hold_key(display: &str, keycode: u8) -> Holder {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::ConnectionExt as _;
    use x11rb::protocol::xtest::ConnectionExt as _;
    let (conn, _) = cup_linux::internals::x11_connect(display)
        .unwrap_or_else(|e| panic!("connect {display}: {e}"));
    conn.xtest_fake_input(2, keycode, 0, x11rb::NONE, 0, 0, 0)
        .unwrap_or_else(|e| panic!("fake input: {e}"));
    conn.get_input_focus()
        .map(|c| c.reply())
        .unwrap_or_else(|e| panic!("sync: {e}"))
        .unwrap_or_else(|e| panic!("sync: {e}"));
    let _ = conn.flush();
    Holder(conn)
}

fn key_is_down(conn: &x11rb::rust_connection::RustConnection, keycode: u8) -> bool {
    use x11rb::protocol::xproto::ConnectionExt as _;
    let keys = conn
        .query_keymap()
        .map(|c| c.reply())
        .unwrap_or_else(|e| panic!("query keymap: {e}"))
        .unwrap_or_else(|e| panic!("query keymap: {e}"))
        .keys;
    keys[usize::from(keycode / 8)] & (1 << (keycode % 8)) != 0
}

fn release_key(holder: &Holder, keycode: u8) {
    use x11rb::protocol::xproto::ConnectionExt as _;
    use x11rb::protocol::xtest::ConnectionExt as _;
    holder
        .0
        .xtest_fake_input(3, keycode, 0, x11rb::NONE, 0, 0, 0)
        .unwrap_or_else(|e| panic!("fake input: {e}"));
    let _ = holder.0.get_input_focus().map(|c| c.reply());
}
