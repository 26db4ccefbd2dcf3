//! KDE Plasma's KWin under Wayland (`cup sandbox start --wayland
//! --compositor kwin`: `kwin_wayland --virtual`, as `nobody` when the
//! tests run as root), driven through the `cup` binary: windows with pid
//! and rectangle from KWin's scripting, bounds on screen for a GTK 3
//! window KWin placed at a non-zero origin, input refused in one line
//! until `cup setup kde` allows it, then a pointer click at a check
//! button's reported centre toggles it, and text goes in exactly.

use super::common::*;
use serde_json::Value;
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Output};

/// `PROGRAM ARGS` as the desktop's user, with its home and `env`: KWin
/// grants its fake input by the client's program, which it reads from
/// /proc (it cannot read a root process's).
fn as_user(
    program: &std::path::Path,
    args: &[&str],
    env: &[(String, String)],
    home: &std::path::Path,
) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .env_remove("AT_SPI_BUS_ADDRESS")
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME");
    for (k, v) in env {
        command.env(k, v);
    }
    if let Some(uid) = sandbox_uid() {
        command.uid(uid).gid(uid);
    }
    command
}

/// `cup ARGS` as the desktop's user (see [`as_user`]), run to its end.
fn cup_as_user(args: &[&str], env: &[(String, String)], home: &std::path::Path) -> Output {
    as_user(env!("CARGO_BIN_EXE_cup").as_ref(), args, env, home)
        .output()
        .unwrap_or_else(|e| panic!("cannot run cup {args:?}: {e}"))
}

/// Moves the GTK window to (x, y) with a KWin script (the test's own
/// doing, through gdbus), so its origin is not KWin's choice; waits (up
/// to 20 s on a loaded machine, running the script again each second)
/// until cup's window list shows it there.
fn move_window(env: &[(String, String)], dir: &std::path::Path, x: i64, y: i64) {
    let script = dir.join("move.js");
    std::fs::write(
        &script,
        format!(
            "var l = workspace.clientList(); for (var i = 0; i < l.length; i++) {{ l[i].frameGeometry = {{x: {x}, y: {y}, width: 900, height: 640}}; }}"
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let bus = var(env, "DBUS_SESSION_BUS_ADDRESS");
    let gdbus = |args: &[&str]| {
        let out = Command::new("gdbus")
            .args(["call", "--session", "--dest", "org.kde.KWin"])
            .args(args)
            .env("DBUS_SESSION_BUS_ADDRESS", bus)
            .output()
            .unwrap_or_else(|e| panic!("gdbus (apt-get install libglib2.0-bin): {e}"));
        assert!(
            out.status.success(),
            "gdbus {args:?}: {}",
            text(&out.stderr)
        );
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        // A script of that name still loaded would make loadScript refuse.
        gdbus(&[
            "--object-path",
            "/Scripting",
            "--method",
            "org.kde.kwin.Scripting.unloadScript",
            "cup-test-move",
        ]);
        gdbus(&[
            "--object-path",
            "/Scripting",
            "--method",
            "org.kde.kwin.Scripting.loadScript",
            path_str(&script),
            "cup-test-move",
        ]);
        gdbus(&[
            "--object-path",
            "/Scripting",
            "--method",
            "org.kde.kwin.Scripting.start",
        ]);
        let step = std::time::Instant::now() + std::time::Duration::from_secs(1);
        while std::time::Instant::now() < step {
            let overview = cup(&["snapshot", "--scope", "overview", "--json"], env);
            let envelope: Value = serde_json::from_slice(&overview.stdout).unwrap_or_default();
            let placed = envelope["windows"].as_array().is_some_and(|w| {
                w.len() == 1 && w[0]["bounds"]["x"] == x && w[0]["bounds"]["y"] == y
            });
            if placed {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        assert!(
            std::time::Instant::now() < until,
            "KWin did not move the window to {x},{y} within 20 s"
        );
    }
}

#[test]
fn kwin_windows_bounds_pointer_and_text() {
    let _one = one_heavy_desktop();
    let state = state_file("kde");
    let s = path_str(&state.0).to_owned();
    let started = cup(
        &[
            "sandbox",
            "start",
            "--wayland",
            "--compositor",
            "kwin",
            "--size",
            "1280x800",
            "--state",
            &s,
        ],
        &[],
    );
    assert!(
        started.status.success(),
        "{} (apt-get install kwin-wayland, or scripts/install-deps.sh)",
        text(&started.stderr)
    );
    let mut env = exports(&text(&started.stdout));
    // This desktop's own kept snapshot (tests run side by side).
    let kept = state.0.with_extension("last-snapshot.json");
    env.push(("CUP_SNAPSHOT_STATE".into(), path_str(&kept).to_owned()));
    let runtime = std::path::PathBuf::from(var(&env, "XDG_RUNTIME_DIR"));
    let dir = runtime
        .parent()
        .unwrap_or_else(|| panic!("no state dir"))
        .to_path_buf();
    let home = dir.join("home");
    let run = cup(
        &["sandbox", "run", "--state", &s, "--", "gtk3-widget-factory"],
        &[],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    move_window(&env, &dir, 150, 100);

    // The window list: KWin's, with pid and rectangle.
    let overview = cup(&["snapshot", "--scope", "overview", "--json"], &env);
    assert!(overview.status.success(), "{}", text(&overview.stderr));
    let envelope: Value =
        serde_json::from_slice(&overview.stdout).unwrap_or_else(|e| panic!("{e}"));
    let windows = envelope["windows"].as_array().cloned().unwrap_or_default();
    assert_eq!(windows.len(), 1, "{envelope}");
    assert!(
        windows[0]["pid"].as_i64().is_some_and(|p| p > 0),
        "{envelope}"
    );
    assert_eq!(windows[0]["bounds"]["x"], 150, "{envelope}");
    assert_eq!(windows[0]["bounds"]["y"], 100, "{envelope}");

    // Bounds on screen: an unchecked check button inside the window.
    let snap = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    let check = line_with(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let check = snap
        .lines()
        .find(|l| {
            l.contains("chk \"checkbutton\"")
                && !l.contains("{dis")
                && !l.contains("chk}")
                && !l.contains("mix")
                && !l.contains(",chk")
        })
        .unwrap_or(check)
        .to_owned();
    let (x, y, w, h) = bounds(&check);
    assert!(
        x >= 150 && y >= 100 && x + w <= 1050 && y + h <= 740,
        "{check}"
    );
    let (cx, cy) = (x + w / 2, y + h / 2);
    let click = format!("{{\"x\": {cx}, \"y\": {cy}}}");

    // This cup is allowed (`cup setup kde`); a copy of it at another path,
    // which no desktop file names, gets a one-line refusal and clicks
    // nothing. (KWin reads the desktop files when it first needs them: the
    // file goes in first.)
    let setup = cup_as_user(&["setup", "kde"], &[], &home);
    assert!(setup.status.success(), "{}", text(&setup.stderr));
    let other = dir.join("other-cup");
    std::fs::copy(env!("CARGO_BIN_EXE_cup"), &other).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::set_permissions(&other, std::os::unix::fs::PermissionsExt::from_mode(0o755));
    let refused = as_user(&other, &["call", "click", &click], &env, &home)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let said = format!("{}{}", text(&refused.stdout), text(&refused.stderr));
    assert!(
        said.contains("unsupported: input on KWin without org_kde_kwin_fake_input")
            && said.contains("cup setup kde")
            && said.lines().count() == 1,
        "{said}"
    );
    let still = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    assert!(still.contains(check.trim()), "nothing changed:\n{still}");

    // Screenshots: allowed for this cup (KWin's ScreenShot2), refused in
    // one line for a process KWin cannot name (root's).
    let shot = |name: &str| -> Vec<u8> {
        let file = dir.join(name);
        let region = format!("{},{},{},{}", x - 4, y - 4, w + 8, h + 8);
        let out = cup_as_user(
            &["screenshot", "--region", &region, "-o", path_str(&file)],
            &env,
            &home,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"))
    };
    let before = shot("before.png");
    if sandbox_uid().is_some() {
        let root = cup(&["screenshot", "-o", path_str(&dir.join("root.png"))], &env);
        let said = text(&root.stderr);
        assert!(
            !root.status.success()
                && said.contains("unsupported: screenshots on KWin")
                && said.lines().count() == 1,
            "{said}"
        );
    }

    // The visual layer on KWin: a highlight is a zwlr_layer_shell_v1
    // surface on the overlay layer, which KWin's own screenshots show; a
    // green frame on the rectangle's edges while the call runs, nothing
    // after it.
    let (hx, hy, hw, hh) = (200_i64, 300_i64, 400_i64, 200_i64);
    let green = |p: &[u8]| p[0] < 40 && p[1] > 220 && p[2] < 40;
    // Every screenshot must succeed, the ones taken while the overlay's
    // surface appears included (KWin, rendering in software here, stalls
    // then): cup's waits follow the compositor's answers. The frame stays
    // 7 s.
    let full_shot = |name: &str| -> Result<(Vec<u8>, u32, u32), String> {
        let file = dir.join(name);
        let out = cup_as_user(&["screenshot", "-o", path_str(&file)], &env, &home);
        if !out.status.success() {
            return Err(text(&out.stderr).trim().to_owned());
        }
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
        Ok(cup::image::rgb_from_png(&bytes).unwrap_or_else(|e| panic!("{e}")))
    };
    let framed = |(rgb, width, _): &(Vec<u8>, u32, u32)| {
        let at = |x: i64, y: i64| {
            let i = (usize::try_from(y * i64::from(*width) + x).unwrap_or(0)) * 3;
            rgb.get(i..i + 3).is_some_and(green)
        };
        at(hx + hw / 2, hy) && at(hx, hy + hh / 2) && !at(hx + hw / 2, hy + hh / 2)
    };
    let args = format!(
        r##"{{"x": {hx}, "y": {hy}, "w": {hw}, "h": {hh}, "duration_ms": 7000, "color": "#00FF00"}}"##
    );
    let mut highlight = as_user(
        env!("CARGO_BIN_EXE_cup").as_ref(),
        &["call", "highlight", &args],
        &env,
        &home,
    );
    highlight
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let running = highlight.spawn().unwrap_or_else(|e| panic!("{e}"));
    let started = std::time::Instant::now();
    let mut seen = false;
    while !seen && started.elapsed() < std::time::Duration::from_millis(6500) {
        let shot = full_shot("highlight.png")
            .unwrap_or_else(|e| panic!("a screenshot during the highlight failed: {e}"));
        seen = framed(&shot);
    }
    let answer = running.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let said = format!("{}{}", text(&answer.stdout), text(&answer.stderr));
    assert!(
        answer.status.success() && said.contains("highlighted"),
        "{said}"
    );
    assert!(
        seen,
        "no green frame on the edges of {hx},{hy} {hw}x{hh} during the highlight"
    );
    let after_call = full_shot("highlight-gone.png")
        .unwrap_or_else(|e| panic!("the screenshot after the highlight failed: {e}"));
    assert!(!framed(&after_call), "the frame stayed after the call");

    // Allowed: the pointer click at the reported centre toggles it, with
    // one click, right after the highlight's overlay surface came and
    // went (where KWin 5.27 once lost 8 clicks in 42): cup lets KWin apply
    // the move before it presses, and the sandbox holds a pointer device
    // so that the seat keeps its pointer between commands.
    let clicked = cup_as_user(&["call", "click", &click], &env, &home);
    let said = format!("{}{}", text(&clicked.stdout), text(&clicked.stderr));
    assert!(clicked.status.success(), "{said}");
    let after = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    let now = after
        .lines()
        .find(|l| l.contains("chk \"checkbutton\"") && bounds(l) == (x, y, w, h))
        .unwrap_or_else(|| panic!("the check button at {x},{y} in:\n{after}"))
        .to_owned();
    if !(now.contains("chk}") || now.contains(",chk")) {
        // Say whether the press was lost or only slow to show.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut later = "never, within 5 s";
        while std::time::Instant::now() < until {
            let again = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
            if again.lines().any(|l| {
                l.contains("chk \"checkbutton\"")
                    && bounds(l) == (x, y, w, h)
                    && (l.contains("chk}") || l.contains(",chk"))
            }) {
                later = "later";
                break;
            }
        }
        panic!("not toggled by one click: {now}; the click said {said}; toggled {later}");
    }
    let after = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    assert!(after.contains(now.trim()), "{after}");
    let (a, b) = (image_rgb(&before), image_rgb(&shot("after.png")));
    assert_eq!(a.len(), b.len());
    let differing = a.chunks(3).zip(b.chunks(3)).filter(|(p, q)| p != q).count();
    assert!(differing > 20, "the check mark changed pixels: {differing}");

    // Text: any script through the element's type action (AT-SPI), US
    // keys through the fake keyboard, anything else refused in one line.
    let entry_line = line_with(&after, &["tbx", "val=\"entry\"", "[clk,sv,typ]"]);
    let entry_line = after
        .lines()
        .find(|l| l.contains("val=\"entry\"") && !l.contains("{dis"))
        .unwrap_or(entry_line);
    let id = entry_line
        .trim_start()
        .strip_prefix('[')
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("no id in {entry_line}"))
        .to_owned();
    let typed_text = "héllo ✓ 日本 👍🏽 שלום";
    let typed = cup(&["action", &id, "type", "--value", typed_text], &env);
    assert!(typed.status.success(), "{}", text(&typed.stderr));
    let read = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    assert!(read.contains(&format!("val=\"{typed_text}\"")), "{read}");
    let (ex, ey, ew, eh) = bounds(line_with(&read, &[&format!("val=\"{typed_text}\"")]));
    let focus = format!("{{\"x\": {}, \"y\": {}}}", ex + ew / 2, ey + eh / 2);
    let clicked = cup_as_user(&["call", "click", &focus], &env, &home);
    assert!(clicked.status.success(), "{}", text(&clicked.stderr));
    let keys = cup_as_user(&["call", "type_text", r#"{"text": " Ok!"}"#], &env, &home);
    assert!(keys.status.success(), "{}", text(&keys.stderr));
    let read = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
    assert!(read.contains(" Ok!"), "{read}");
    let accented = cup_as_user(&["call", "type_text", r#"{"text": "é"}"#], &env, &home);
    let said = format!("{}{}", text(&accented.stdout), text(&accented.stderr));
    assert!(said.contains("unsupported: typing 'é' on KWin 5"), "{said}");

    // 20 runs of the mixed text through the type action: all exact.
    let mut exact = 0;
    for run in 0..20 {
        let value = format!("{typed_text} {run}");
        let typed = cup(&["action", &id, "type", "--value", &value], &env);
        let read = text(&cup(&["snapshot", "--scope", "full"], &env).stdout);
        if typed.status.success() && read.contains(&format!("val=\"{value}\"")) {
            exact += 1;
        }
    }
    assert_eq!(exact, 20, "exact typings of 20");

    // Qt 5 (with KWin's own decorations): the calculator's 7 clicked by
    // pointer at its reported centre shows 7.
    let calculator = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";
    let run = cup(&["sandbox", "run", "--state", &s, "--", calculator], &[]);
    assert!(
        run.status.success(),
        "{} (apt-get install qtbase5-examples qtwayland5)",
        text(&run.stderr)
    );
    let calc = text(
        &cup(
            &["snapshot", "--scope", "full", "--app", "Calculator"],
            &env,
        )
        .stdout,
    );
    let seven = line_with(&calc, &["btn \"7\""]);
    let (sx, sy, sw, sh) = bounds(seven);
    let at = format!("{{\"x\": {}, \"y\": {}}}", sx + sw / 2, sy + sh / 2);
    let pressed = cup_as_user(&["call", "click", &at], &env, &home);
    assert!(pressed.status.success(), "{}", text(&pressed.stderr));
    let shown = text(
        &cup(
            &["snapshot", "--scope", "full", "--app", "Calculator"],
            &env,
        )
        .stdout,
    );
    assert!(
        line_with(&shown, &["tbx"]).contains("val=\"7\""),
        "the display shows 7 after the click at {at}:\n{shown}"
    );

    // GTK 4: a click at its entry's reported centre gives it the focus.
    let run = cup(
        &["sandbox", "run", "--state", &s, "--", "gtk4-widget-factory"],
        &[],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let gtk4 = loop {
        let snap = text(
            &cup(
                &["snapshot", "--scope", "full", "--app", "Widget Factory"],
                &env,
            )
            .stdout,
        );
        if snap.contains("val=\"entry\"") {
            break snap;
        }
        assert!(
            std::time::Instant::now() < until,
            "GTK 4's entry never showed:\n{snap}"
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    };
    // GTK 4.8 does not mark its insensitive entry: the last one is the
    // sensitive one.
    let entry4 = gtk4
        .lines()
        .rfind(|l| l.contains("val=\"entry\"") && l.contains("tbx"))
        .unwrap_or_else(|| panic!("GTK 4's entry:\n{gtk4}"))
        .to_owned();
    let (gx, gy, gw, gh) = bounds(&entry4);
    let at = format!("{{\"x\": {}, \"y\": {}}}", gx + gw / 2, gy + gh / 2);
    let clicked = cup_as_user(&["call", "click", &at], &env, &home);
    assert!(clicked.status.success(), "{}", text(&clicked.stderr));
    let focused = text(
        &cup(
            &["snapshot", "--scope", "full", "--app", "Widget Factory"],
            &env,
        )
        .stdout,
    );
    let now = focused
        .lines()
        .find(|l| l.contains("tbx") && bounds(l) == (gx, gy, gw, gh))
        .unwrap_or_else(|| panic!("the entry at {gx},{gy}:\n{focused}"));
    assert!(
        now.contains("foc"),
        "focused after the click at {at}: {now}"
    );
}
