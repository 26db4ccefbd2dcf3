//! GNOME under Wayland (`cup sandbox start --wayland gnome`:
//! gnome-shell 43 headless with cup's extension, as `nobody` when the
//! tests run as root), driven through the `cup` binary: windows with pid
//! and rectangle equal to what the extension tells, bounds on screen for
//! GTK 3, GTK 4 and Qt 5 windows GNOME placed at non-zero origins
//! (checked by pointer clicks at the reported centres), screenshots that
//! show the change, exact text in any script, and without the extension
//! a one-line refusal that says how to install it.

use super::common::*;
use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};

/// Starts a GNOME sandbox (1920x1080; `extra` flags) and returns its state
/// file and environment.
fn start(name: &str, extra: &[&str]) -> (StateFile, String, Vec<(String, String)>) {
    let state = state_file(name);
    let s = path_str(&state.0).to_owned();
    let mut args = vec![
        "sandbox",
        "start",
        "--wayland",
        "gnome",
        "--size",
        "1920x1080",
        "--state",
        &s,
    ];
    args.extend_from_slice(extra);
    let started = cup(&args, &[]);
    assert!(
        started.status.success(),
        "{} (apt-get install gnome-shell pipewire wireplumber, or scripts/install-deps.sh)",
        text(&started.stderr)
    );
    let mut env = exports(&text(&started.stdout));
    // This desktop's own kept snapshot (tests run side by side).
    let kept = state.0.with_extension("last-snapshot.json");
    env.push(("CUP_SNAPSHOT_STATE".into(), path_str(&kept).to_owned()));
    (state, s, env)
}

/// Runs `program` in the sandbox and waits (up to 30 s) until cup's
/// window list has `title` with a place on the screen.
fn launch(s: &str, env: &[(String, String)], program: &str, title: &str) {
    let run = cup(&["sandbox", "run", "--state", s, "--", program], &[]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let overview = cup(&["snapshot", "--scope", "overview", "--json"], env);
        let envelope: Value = serde_json::from_slice(&overview.stdout).unwrap_or_default();
        let placed = envelope["windows"].as_array().is_some_and(|w| {
            w.iter()
                .any(|w| w["title"] == title && w["bounds"]["w"].as_i64().is_some_and(|v| v > 0))
        });
        if placed {
            return;
        }
        assert!(
            Instant::now() < until,
            "{title} never showed with a place:\n{envelope}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// What cup's extension itself says of the windows (the test asks it over
/// D-Bus with gdbus): (pid, frame rectangle) by title.
fn extension_windows(env: &[(String, String)]) -> Vec<(String, i64, [i64; 4])> {
    let out = Command::new("gdbus")
        .args(["call", "--session", "--dest", "org.cup.Shell"])
        .args(["--object-path", "/org/cup/Shell"])
        .args(["--method", "org.cup.Shell.Windows"])
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            var(env, "DBUS_SESSION_BUS_ADDRESS"),
        )
        .output()
        .unwrap_or_else(|e| panic!("gdbus (apt-get install libglib2.0-bin): {e}"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    // ('[...]',)
    let reply = text(&out.stdout);
    let json = reply
        .trim()
        .strip_prefix("('")
        .and_then(|r| r.strip_suffix("',)"))
        .unwrap_or_else(|| panic!("gdbus said {reply}"));
    let list: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    list.as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|w| {
            let f = |i: usize| w["frame"][i].as_i64().unwrap_or(-1);
            (
                w["title"].as_str().unwrap_or_default().to_owned(),
                w["pid"].as_i64().unwrap_or(0),
                [f(0), f(1), f(2), f(3)],
            )
        })
        .collect()
}

/// The id (`e12`) of a compact line.
fn id_of(line: &str) -> String {
    line.trim_start()
        .strip_prefix('[')
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("no id in {line}"))
        .to_owned()
}

/// The first unchecked, enabled check button of a compact snapshot.
fn unchecked(snap: &str) -> String {
    snap.lines()
        .find(|l| {
            l.contains("chk \"checkbutton\"")
                && !l.contains("{dis")
                && !l.contains("dis}")
                && !l.contains("dis,")
                && !l.contains("chk}")
                && !l.contains("{chk")
                && !l.contains(",chk")
                && !l.contains("mix")
        })
        .unwrap_or_else(|| panic!("no unchecked check button in:\n{snap}"))
        .to_owned()
}

fn full(env: &[(String, String)], app: &str) -> String {
    text(&cup(&["snapshot", "--scope", "full", "--app", app], env).stdout)
}

/// Clicks by pointer at the centre of `line`'s bounds.
fn click_centre(env: &[(String, String)], line: &str) -> String {
    let (x, y, w, h) = bounds(line);
    let at = format!("{{\"x\": {}, \"y\": {}}}", x + w / 2, y + h / 2);
    let clicked = cup(&["call", "click", &at], env);
    let said = format!("{}{}", text(&clicked.stdout), text(&clicked.stderr));
    assert!(clicked.status.success(), "{said}");
    said
}

#[test]
fn gnome_windows_bounds_pointer_screenshots_and_text() {
    let _one = one_heavy_desktop();
    let (_state, s, env) = start("gnome", &[]);
    let dir = std::path::PathBuf::from(var(&env, "XDG_RUNTIME_DIR"))
        .parent()
        .unwrap_or_else(|| panic!("no state dir"))
        .to_path_buf();
    let checks = text(&cup(&["call", "check_permissions", "{}"], &env).stdout);
    assert!(
        checks.contains("GNOME Shell 43") && !checks.contains("FAIL"),
        "{checks}"
    );
    launch(&s, &env, "gtk3-widget-factory", "gtk3-widget-factory");

    // The window list: with pid and the rectangle the extension tells,
    // at a non-zero origin (GNOME centres new windows here).
    let overview = cup(&["snapshot", "--scope", "overview", "--json"], &env);
    let envelope: Value =
        serde_json::from_slice(&overview.stdout).unwrap_or_else(|e| panic!("{e}"));
    let told = extension_windows(&env);
    let listed: Vec<&Value> = envelope["windows"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter(|w| w["title"] == "gtk3-widget-factory")
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(listed.len(), 1, "{envelope}");
    let (_, pid, frame) = told
        .iter()
        .find(|(t, _, _)| t == "gtk3-widget-factory")
        .unwrap_or_else(|| panic!("{told:?}"));
    let b = &listed[0]["bounds"];
    assert_eq!(listed[0]["pid"].as_i64(), Some(*pid), "{envelope}");
    assert_eq!(
        [
            b["x"].as_i64(),
            b["y"].as_i64(),
            b["w"].as_i64(),
            b["h"].as_i64()
        ],
        frame.map(Some),
        "{envelope}"
    );
    assert!(
        frame[0] > 0 && frame[1] > 32,
        "not at a non-zero origin: {frame:?}"
    );

    // GTK 3: the pointer click at an unchecked check button's reported
    // centre toggles it; a screenshot of its place shows the change.
    let snap = full(&env, "gtk3-widget-factory");
    let check = unchecked(&snap);
    let (x, y, w, h) = bounds(&check);
    assert!(
        x >= frame[0] && y >= frame[1] && x + w <= frame[0] + frame[2],
        "{check} in {frame:?}"
    );
    let region = format!("{},{},{},{}", x - 4, y - 4, w + 8, h + 8);
    let shot = |name: &str| -> Vec<u8> {
        let file = dir.join(name);
        let out = cup(
            &["screenshot", "--region", &region, "-o", path_str(&file)],
            &env,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let png = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        png
    };
    let before = shot("before.png");
    let said = click_centre(&env, &check);
    assert!(said.contains("confirmed"), "{said}");
    let after = full(&env, "gtk3-widget-factory");
    let now = after
        .lines()
        .find(|l| l.contains("chk \"checkbutton\"") && bounds(l) == (x, y, w, h))
        .unwrap_or_else(|| panic!("the check button at {x},{y} in:\n{after}"));
    assert!(now.contains("chk}") || now.contains(",chk"), "{now}");
    let (a, b) = (image_rgb(&before), image_rgb(&shot("after.png")));
    assert_eq!(a.len(), b.len());
    let differing = a.chunks(3).zip(b.chunks(3)).filter(|(p, q)| p != q).count();
    assert!(differing > 20, "the check mark changed pixels: {differing}");

    // Text: any script through the element's type action (AT-SPI), 20
    // runs all exact; ASCII keys through mutter; anything else refused in
    // one line, not typed wrong.
    let entry = after
        .lines()
        .find(|l| l.contains("val=\"entry\"") && !l.contains("{dis") && !l.contains("dis,"))
        .unwrap_or_else(|| panic!("no entry in:\n{after}"));
    let id = id_of(entry);
    let typed_text = "héllo ✓ 日本 👍🏽 שלום";
    let mut missed = Vec::new();
    for run in 0..20 {
        let value = format!("{typed_text} {run}");
        let typed = cup(&["action", &id, "type", "--value", &value], &env);
        let read = full(&env, "gtk3-widget-factory");
        if !(typed.status.success() && read.contains(&format!("val=\"{value}\""))) {
            let said = format!("{}{}", text(&typed.stdout), text(&typed.stderr));
            let now = read
                .lines()
                .find(|l| l.contains(&format!("[{id}]")))
                .unwrap_or_default()
                .to_owned();
            missed.push(format!("run {run}: cup said {said:?}; the entry: {now}"));
        }
    }
    assert!(
        missed.is_empty(),
        "exact typings of 20 missed:\n{}",
        missed.join("\n")
    );
    let read = full(&env, "gtk3-widget-factory");
    let entry = line_with(&read, &[&format!("val=\"{typed_text} 19\"")]).to_owned();
    click_centre(&env, &entry);
    let all = cup(&["press", "ctrl+a"], &env);
    assert!(all.status.success(), "{}", text(&all.stderr));
    let keys = cup(&["call", "type_text", r#"{"text": "Ok, 42!"}"#], &env);
    assert!(keys.status.success(), "{}", text(&keys.stderr));
    let read = full(&env, "gtk3-widget-factory");
    assert!(
        read.contains("val=\"Ok, 42!\""),
        "the entry: {}; ctrl+a said {:?}; type_text said {:?}",
        read.lines()
            .find(|l| l.contains(&format!("[{id}]")))
            .unwrap_or_default(),
        text(&all.stdout),
        text(&keys.stdout)
    );
    let accented = cup(&["call", "type_text", r#"{"text": "é"}"#], &env);
    let said = format!("{}{}", text(&accented.stdout), text(&accented.stderr));
    assert!(
        said.contains("unsupported: typing 'é' on GNOME") && said.trim().lines().count() == 1,
        "{said}"
    );
    let unchanged = full(&env, "gtk3-widget-factory");
    assert!(unchanged.contains("val=\"Ok, 42!\""), "{unchanged}");

    // GTK 4 (4.8 gives its check buttons no actions, so compact text
    // shows no bounds for them): a pointer click at its sensitive entry's
    // reported centre gives that entry the focus. GTK 4.8 does not mark
    // its insensitive entry: the last one is the sensitive one.
    launch(&s, &env, "gtk4-widget-factory", "GTK Widget Factory");
    let gtk4 = full(&env, "GTK Widget Factory");
    let entry4 = gtk4
        .lines()
        .rfind(|l| l.contains("val=\"entry\"") && l.contains("tbx"))
        .unwrap_or_else(|| panic!("GTK 4's entry:\n{gtk4}"))
        .to_owned();
    assert!(!entry4.contains("foc"), "{entry4}");
    let (x4, y4, w4, h4) = bounds(&entry4);
    let said = click_centre(&env, &entry4);
    let after4 = full(&env, "GTK Widget Factory");
    let now4 = after4
        .lines()
        .find(|l| l.contains("tbx") && bounds_of(l) == Some((x4, y4, w4, h4)))
        .unwrap_or_else(|| panic!("GTK 4's entry at {x4},{y4} in:\n{after4}"));
    assert!(now4.contains("foc"), "{now4}; the click said {said}");

    // Qt 5, with the title bar and borders it draws itself on GNOME:
    // 7 + 5 = by pointer at the reported centres shows 12.
    let calculator = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";
    launch(&s, &env, calculator, "Calculator");
    for key in ["7", "+", "5", "="] {
        let calc = full(&env, "Calculator");
        click_centre(&env, line_with(&calc, &[&format!("btn \"{key}\"")]));
    }
    // The "=" may be handled after its click's answer on a busy machine:
    // the display is read again until it shows the sum (10 s at most);
    // each read is a snapshot through the app, which paces the loop.
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let shown = full(&env, "Calculator");
        if line_with(&shown, &["tbx"]).contains("val=\"12\"") {
            break;
        }
        assert!(Instant::now() < until, "7 + 5 = by pointer:\n{shown}");
    }
}

#[test]
fn gnome_without_the_extension_says_how_to_install_it() {
    let _one = one_heavy_desktop();
    let (_state, s, env) = start("gnome-bare", &["--without-extension"]);
    let run = cup(
        &["sandbox", "run", "--state", &s, "--", "gtk3-widget-factory"],
        &[],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));

    // The capture has the window's elements without bounds, and says why.
    let snap = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    assert!(snap.contains("chk \"checkbutton\""), "{snap}");
    assert!(
        snap.lines()
            .filter(|l| l.contains("chk \"checkbutton\""))
            .all(|l| bounds_of(l).is_none()),
        "no bounds without the extension:\n{snap}"
    );
    assert!(snap.contains("cup setup gnome"), "{snap}");

    // A screenshot is refused in one line naming the fix.
    let shot = cup(&["screenshot", "-o", "/dev/null"], &env);
    let said = text(&shot.stderr);
    assert!(
        !shot.status.success()
            && said.contains("unsupported: screenshots on GNOME")
            && said.contains("cup setup gnome")
            && said.trim().lines().count() == 1,
        "{said}"
    );

    // check_permissions names what is missing and how to grant it.
    let checks = text(&cup(&["call", "check_permissions", "{}"], &env).stdout);
    assert!(checks.contains("cup setup gnome"), "{checks}");

    // As the desktop's user, a screenshot goes through the desktop
    // portal: GNOME Shell asks once ("Allow Applications to Take
    // Screenshots?", its own dialog, whose buttons offer no actions: the
    // test answers with Tab and Return through cup's keyboard), then the
    // picture comes; the next one needs no question.
    let home = std::path::PathBuf::from(var(&env, "XDG_RUNTIME_DIR"))
        .parent()
        .unwrap_or_else(|| panic!("no state dir"))
        .join("home");
    let first = home.join("first.png");
    let waiting = as_user(
        &env,
        &home,
        &[
            "screenshot",
            "--region",
            "0,0,640,400",
            "-o",
            path_str(&first),
        ],
        false,
    );
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let snap = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
        if snap.contains("Allow Applications to Take Screenshots?")
            && snap.contains("btn \"Allow\"")
        {
            break;
        }
        assert!(Instant::now() < until, "GNOME Shell never asked:\n{snap}");
        std::thread::sleep(Duration::from_millis(300));
    }
    for key in ["Tab", "Return"] {
        let pressed = cup(&["press", key], &env);
        assert!(pressed.status.success(), "{}", text(&pressed.stderr));
    }
    let said = finished(waiting);
    assert!(said.contains("640x400"), "{said}");
    let png = std::fs::read(&first).unwrap_or_else(|e| panic!("{e}"));
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let second = home.join("second.png");
    let again = finished(as_user(
        &env,
        &home,
        &[
            "screenshot",
            "--region",
            "0,0,640,400",
            "-o",
            path_str(&second),
        ],
        false,
    ));
    assert!(again.contains("640x400"), "{again}");
}

#[test]
fn cup_setup_gnome_installs_and_enables_the_extension() {
    let home = std::env::temp_dir().join(format!("cup-setup-gnome-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("{e}"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_cup"));
    command
        .args(["setup", "gnome"])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME")
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GSETTINGS_BACKEND", "keyfile");
    let out = command.output().unwrap_or_else(|e| panic!("{e}"));
    let said = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(said.contains("log out and back in"), "{said}");
    let dir = home.join(".local/share/gnome-shell/extensions/cup-windows@cup-rs");
    let meta = std::fs::read_to_string(dir.join("metadata.json")).unwrap_or_default();
    assert!(meta.contains("\"43\""), "{meta}");
    let js = std::fs::read_to_string(dir.join("extension.js")).unwrap_or_default();
    assert!(js.contains("org.cup.Shell") && js.contains("function init()"));
    let keyfile =
        std::fs::read_to_string(home.join(".config/glib-2.0/settings/keyfile")).unwrap_or_default();
    assert!(keyfile.contains("cup-windows@cup-rs"), "{keyfile}");
    let _ = std::fs::remove_dir_all(&home);
}

/// Starts `cup call click AT` as the desktop's user with input through
/// the desktop portal (`CUP_WAYLAND_INPUT=portal`), in the background.
fn portal_click(env: &[(String, String)], home: &std::path::Path, at: &str) -> std::process::Child {
    as_user(env, home, &["call", "click", at], true)
}

/// Starts `cup ARGS` as the desktop's user (the desktop portal tells its
/// callers apart through /proc), in the background; `portal`: input
/// through the desktop portal.
fn as_user(
    env: &[(String, String)],
    home: &std::path::Path,
    args: &[&str],
    portal: bool,
) -> std::process::Child {
    use std::os::unix::process::CommandExt as _;
    let mut command = Command::new(env!("CARGO_BIN_EXE_cup"));
    command
        .args(args)
        .env_remove("AT_SPI_BUS_ADDRESS")
        .env("HOME", home)
        .env_remove("XDG_STATE_HOME")
        .env("CUP_WAYLAND_INPUT", if portal { "portal" } else { "" })
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    if let Some(uid) = sandbox_uid() {
        command.uid(uid).gid(uid);
    }
    command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run cup: {e}"))
}

/// Waits (up to 30 s) for the portal's dialog and returns its compact
/// text.
fn portal_dialog(env: &[(String, String)]) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let snap = full(env, "Remote desktop");
        if snap.contains("\"_Share Share\"") || snap.contains("Share\"") {
            return snap;
        }
        assert!(
            Instant::now() < until,
            "the desktop portal's dialog never showed:\n{snap}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// What the background cup said, once it is done (up to 30 s).
fn finished(mut child: std::process::Child) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    while child.try_wait().ok().flatten().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            panic!("cup did not finish within 30 s of the dialog's answer");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn gnome_portal_dialog_answered_by_cup_declined_then_allowed() {
    let _one = one_heavy_desktop();
    let (_state, s, env) = start("gnome-portal", &[]);
    let home = std::path::PathBuf::from(var(&env, "XDG_RUNTIME_DIR"))
        .parent()
        .unwrap_or_else(|| panic!("no state dir"))
        .join("home");
    launch(&s, &env, "gtk3-widget-factory", "gtk3-widget-factory");
    let snap = full(&env, "gtk3-widget-factory");
    let check = unchecked(&snap);
    let (x, y, w, h) = bounds(&check);
    let at = format!("{{\"x\": {}, \"y\": {}}}", x + w / 2, y + h / 2);

    // Declined: the portal's dialog (a window of this desktop, read and
    // answered by cup like any other) is cancelled; the click is refused
    // in one line and nothing is clicked.
    let waiting = portal_click(&env, &home, &at);
    let dialog = portal_dialog(&env);
    let cancel = id_of(line_with(&dialog, &["btn", "Cancel"]));
    let answered = cup(&["action", &cancel, "click"], &env);
    // The dialog closes: cup's exit code says what it saw (GTK 4 tells no
    // change when its window goes), the line says the click was done.
    assert!(
        text(&answered.stdout).starts_with("ok"),
        "{}{}",
        text(&answered.stdout),
        text(&answered.stderr)
    );
    let said = finished(waiting);
    assert!(
        said.contains("declined") && said.trim().lines().count() == 1,
        "{said}"
    );
    let still = full(&env, "gtk3-widget-factory");
    assert!(still.contains(check.trim()), "nothing clicked:\n{still}");

    // Allowed: remote interaction switched on and shared; the click goes
    // through the portal and toggles the check button.
    let waiting = portal_click(&env, &home, &at);
    let dialog = portal_dialog(&env);
    let allow = line_with(&dialog, &["chk \"Allow remote interaction\""]);
    if !allow.contains("chk}") && !allow.contains(",chk") && !allow.contains("{chk") {
        let toggled = cup(&["action", &id_of(allow), "toggle"], &env);
        assert!(toggled.status.success(), "{}", text(&toggled.stderr));
    }
    let dialog = full(&env, "Remote desktop");
    let share = id_of(line_with(&dialog, &["btn", "Share"]));
    let answered = cup(&["action", &share, "click"], &env);
    assert!(
        text(&answered.stdout).starts_with("ok"),
        "{}",
        text(&answered.stderr)
    );
    let said = finished(waiting);
    assert!(said.contains("confirmed"), "{said}");
    let after = full(&env, "gtk3-widget-factory");
    let now = after
        .lines()
        .find(|l| l.contains("chk \"checkbutton\"") && bounds_of(l) == Some((x, y, w, h)))
        .unwrap_or_else(|| panic!("the check button at {x},{y} in:\n{after}"));
    assert!(
        now.contains("chk}") || now.contains(",chk"),
        "{now}; the click said {said}"
    );
}
