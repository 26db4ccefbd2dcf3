//! The visual layer over MCP on the sandbox desktop (gtk3-widget-factory)
//! and a headless Chromium page: the agent cursor glides on its Bézier
//! (seen in screenshots taken by other processes during the glide), never
//! moves the real pointer or the focus, lets clicks through, hides when
//! idle or disabled; its tools refuse bad arguments in one line;
//! highlight flashes a rectangle; set-of-marks labels every actionable
//! element, readable back from the image, none overlapping.

use super::*;
use cup_draw::motion::{Motion, Path, Pt};
use cup_protocol::Rect;

/// Magenta: the test's cursor colour (nothing in the apps is this pure).
fn is_magenta(p: &[u8]) -> bool {
    p[0] > 225 && p[1] < 50 && p[2] > 225
}

/// A screenshot taken now by another `cup` process: RGB, width, height.
fn grab(env: &[(String, String)], file: &std::path::Path) -> (Vec<u8>, u32, u32) {
    let out = cup(&["screenshot", "-o", path_str(file)], env);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{e}"));
    cup::image::rgb_from_png(&bytes).unwrap_or_else(|e| panic!("{e}"))
}

/// Centroid and count of the pixels `pick` selects.
fn centroid(img: &(Vec<u8>, u32, u32), pick: fn(&[u8]) -> bool) -> Option<(f64, f64, usize)> {
    let (rgb, w, _) = img;
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
    for (i, p) in rgb.chunks_exact(3).enumerate() {
        if pick(p) {
            sx += (i % *w as usize) as f64;
            sy += (i / *w as usize) as f64;
            n += 1;
        }
    }
    (n > 0).then(|| (sx / n as f64, sy / n as f64, n))
}

/// Bounds `x,y wxh` of a compact line.
fn bounds_in(line: &str) -> Option<Rect> {
    line.split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .find_map(|w| {
            let (x, y) = w[0].split_once(',')?;
            let (bw, bh) = w[1].split_once('x')?;
            Some(Rect::new(
                x.parse().ok()?,
                y.parse().ok()?,
                bw.parse().ok()?,
                bh.parse().ok()?,
            ))
        })
}

fn centre(r: Rect) -> (i64, i64) {
    (r.x + (r.w / 2) as i64, r.y + (r.h / 2) as i64)
}

/// Sends `tool` and, until it answers, grabs screenshots; returns the
/// answer and the screenshots.
fn call_grabbing(
    c: &mut Client,
    env: &[(String, String)],
    dir: &std::path::Path,
    tool: &str,
    args: Value,
) -> (Value, Vec<(Vec<u8>, u32, u32)>) {
    writeln!(
        c.stdin,
        "{}",
        json!({"op": "call", "tool": tool, "args": args, "client": 0})
    )
    .unwrap_or_else(|e| panic!("client stdin: {e}"));
    let mut shots = Vec::new();
    let file = dir.join("during.png");
    let started = Instant::now();
    loop {
        if let Ok(line) = c.lines.recv_timeout(Duration::from_millis(1)) {
            let answer: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            return (answer, shots);
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{tool} did not answer"
        );
        shots.push(grab(env, &file));
    }
}

/// Every error is one line and names the tool.
fn one_line_error(c: &mut Client, tool: &str, args: Value, has: &str) {
    let e = error_text(&c.call(tool, args.clone()), tool);
    assert!(e.contains(has), "{tool} {args}: {e}");
    assert!(!e.trim().contains('\n'), "{tool} {args}: not one line: {e}");
}

fn bad_arguments(c: &mut Client) {
    for (tool, args, has) in [
        ("set_agent_cursor_enabled", json!({}), "missing `enabled`"),
        (
            "set_agent_cursor_enabled",
            json!({"enabled": "yes"}),
            "true or false",
        ),
        (
            "set_agent_cursor_enabled",
            json!({"enabled": true, "on": 1}),
            "unknown argument",
        ),
        (
            "set_agent_cursor_motion",
            json!({"spring": 2}),
            "spring must be a number from 0.3 to 1",
        ),
        (
            "set_agent_cursor_motion",
            json!({"arc_flow": -1.5}),
            "arc_flow",
        ),
        (
            "set_agent_cursor_motion",
            json!({"glide_duration_ms": "slow"}),
            "number",
        ),
        (
            "set_agent_cursor_motion",
            json!({"speed": 1}),
            "unknown argument",
        ),
        (
            "set_agent_cursor_style",
            json!({"bloom_color": "red"}),
            "#RRGGBB",
        ),
        (
            "set_agent_cursor_style",
            json!({"gradient_colors": ["#fff", 3]}),
            "list of strings",
        ),
        (
            "set_agent_cursor_style",
            json!({"gradient_colors": ["#12"]}),
            "#RRGGBB",
        ),
        (
            "set_agent_cursor_style",
            json!({"image_path": "/nonexistent/cursor.png"}),
            "cannot read",
        ),
        (
            "get_agent_cursor_state",
            json!({"x": 1}),
            "unknown argument",
        ),
        ("highlight", json!({}), "give element_id"),
        ("highlight", json!({"x": 1, "y": 2}), "give all of"),
        (
            "highlight",
            json!({"x": 1, "y": 2, "w": 3, "h": 4, "duration_ms": 99_999}),
            "from 1 to 10000",
        ),
        ("highlight", json!({"element_id": "e99999"}), "snapshot"),
        (
            "highlight",
            json!({"x": 1, "y": 2, "w": 3, "h": 4, "color": "blue"}),
            "#RRGGBB",
        ),
        ("screenshot", json!({"marks": "yes"}), "true or false"),
        (
            "set_config",
            json!({"key": "agent_cursor.motion.spring", "value": 9}),
            "from 0.3 to 1",
        ),
    ] {
        one_line_error(c, tool, args, has);
    }
}

/// Checks the screenshots taken during a flight from `from` to `to` with
/// the test's motion (5 s, so that a loaded machine still takes three
/// screenshots during it; arc 0.4): the magenta arrow is on the Bézier in
/// each, seen at 3 or more points of it, at least one well off the
/// straight line.
fn assert_flight(shots: &[(Vec<u8>, u32, u32)], from: (i64, i64), to: (i64, i64)) {
    let m = Motion {
        glide_duration_ms: 5000.0,
        arc_size: 0.4,
        ..Motion::default()
    };
    let (a, b) = (
        Pt::new(from.0 as f64, from.1 as f64),
        Pt::new(to.0 as f64, to.1 as f64),
    );
    let path = Path::new(a, b, &m);
    let chord = Path::new(a, b, &Motion { arc_size: 0.0, ..m });
    let mut seen: Vec<(f64, f64)> = Vec::new();
    for s in shots {
        let Some((x, y, _)) = centroid(s, is_magenta) else {
            continue;
        };
        // The arrow's pixels lie around its tip, within its size.
        let (t, d) = path.nearest(Pt::new(x, y));
        assert!(
            d < 24.0,
            "cursor at {x:.0},{y:.0} is {d:.0} px off the Bézier (t {t:.2})"
        );
        seen.push((t, chord.nearest(Pt::new(x, y)).1));
    }
    let mut ts: Vec<f64> = seen.iter().map(|s| s.0).collect();
    ts.sort_by(f64::total_cmp);
    ts.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    assert!(
        ts.len() >= 3,
        "the cursor was seen at {} points of its path in {} screenshots: {seen:?}",
        ts.len(),
        shots.len()
    );
    assert!(
        seen.iter().any(|s| s.1 > 60.0),
        "no point of the flight was off the straight line: {seen:?}"
    );
}

/// The foreground window line of list_windows.
fn foreground(c: &mut Client) -> String {
    let listed = ok_text(&c.call("list_windows", json!({})), "list_windows");
    listed
        .lines()
        .find(|l| l.contains("[fg]"))
        .unwrap_or(&listed)
        .to_owned()
}

fn pointer(c: &mut Client) -> Value {
    c.call("get_cursor_position", json!({}))["structured"].clone()
}

#[test]
fn desktop_agent_cursor_highlight_and_marks() {
    agent_cursor_highlight_and_marks(desktop("mcp-visual"));
}

/// The same on a headless sway: the overlay is the compositor's layer
/// surfaces, the screenshots its screencopy frames.
#[test]
fn wayland_agent_cursor_highlight_and_marks() {
    agent_cursor_highlight_and_marks(desktop_with("mcp-visual-wl", &["--wayland"]));
}

fn agent_cursor_highlight_and_marks(
    (state, env, _pid): (crate::common::StateFile, Vec<(String, String)>, u32),
) {
    let dir = state
        .0
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    bad_arguments(&mut c);

    // Nobody watches Xvfb (and CI is off too): off unless set.
    let st = c.call("get_agent_cursor_state", json!({}));
    ok_text(&st, "get_agent_cursor_state");
    assert_eq!(st["structured"]["enabled"], json!(false), "{st}");
    assert_eq!(st["structured"]["configured"], json!("auto"), "{st}");

    let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
    let check = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let check_box =
        bounds_in(line_of(&snap, &check)).unwrap_or_else(|| panic!("no bounds: {snap}"));
    let (cx, cy) = centre(check_box);

    // Off: a click draws nothing.
    ok_text(
        &c.call("move_cursor", json!({"x": 900, "y": 900})),
        "move_cursor",
    );
    let (answer, shots) = call_grabbing(&mut c, &env, &dir, "click", json!({"x": cx, "y": cy}));
    ok_text(&answer, "click, cursor off");
    let after = grab(&env, &dir.join("after.png"));
    for s in shots.iter().chain([&after]) {
        assert!(
            centroid(s, is_magenta).is_none(),
            "a cursor was drawn while off"
        );
    }
    // The click toggled it; put it back.
    ok_text(&c.call("click", json!({"x": cx, "y": cy})), "click back");

    // On: a magenta arrow (its focus frame and ripple cyan), a slow wide
    // arc, a short idle.
    let motion = json!({"glide_duration_ms": 5000, "arc_size": 0.4, "dwell_after_click_ms": 200, "idle_hide_ms": 1500});
    ok_text(
        &c.call("set_agent_cursor_motion", motion),
        "set_agent_cursor_motion",
    );
    ok_text(
        &c.call(
            "set_agent_cursor_style",
            json!({"gradient_colors": ["#FF00FF"], "bloom_color": "#00FFFF"}),
        ),
        "set_agent_cursor_style",
    );
    let on = c.call("set_agent_cursor_enabled", json!({"enabled": true}));
    assert_eq!(on["structured"]["enabled"], json!(true), "{on}");
    ok_text(
        &c.call("move_cursor", json!({"x": 900, "y": 900})),
        "move_cursor",
    );
    let pointer_before = pointer(&mut c);
    let focus_before = foreground(&mut c);
    // The move itself glided the drawn cursor to 900,900; wait until the
    // idle hide took it away, so the next flight starts there.
    idle_hidden(&mut c, &env, &dir, "after move_cursor");

    // An element click (AT-SPI action): the cursor flies from 900,900 to
    // the element; screenshots during the flight show it on the curve.
    let (answer, shots) = call_grabbing(&mut c, &env, &dir, "click", json!({"element_id": check}));
    ok_text(&answer, "element click with the cursor");
    assert_eq!(
        answer["structured"]["effect"],
        json!("confirmed"),
        "{answer}"
    );
    assert_flight(&shots, (900, 900), (cx, cy));
    // Drawn only: the pointer and the focused window did not move.
    assert_eq!(pointer(&mut c), pointer_before);
    assert_eq!(foreground(&mut c), focus_before);

    // A pixel click at the cursor's own position goes through the overlay.
    let before = line_of(&ok_text(&c.call("snapshot", json!({})), "snapshot"), &check).to_owned();
    let clicked = c.call("click", json!({"x": cx, "y": cy, "observe": true}));
    let clicked_text = ok_text(&clicked, "pixel click through the cursor");
    assert_eq!(
        clicked["structured"]["effect"],
        json!("confirmed"),
        "{clicked_text}"
    );
    let visible = grab(&env, &dir.join("rest.png"));
    let (x, y, _) = centroid(&visible, is_magenta)
        .unwrap_or_else(|| panic!("the cursor is not shown after the click"));
    assert!(
        (x - cx as f64).abs() < 20.0 && (y - cy as f64).abs() < 24.0,
        "cursor at {x},{y}, click at {cx},{cy}"
    );
    let now = line_of(&ok_text(&c.call("snapshot", json!({})), "snapshot"), &check).to_owned();
    assert_ne!(
        before, now,
        "the click did not reach the checkbutton under the cursor"
    );
    // Gone after idle_hide_ms (1500).
    idle_hidden(&mut c, &env, &dir, "after the pixel click");
    let st = c.call("get_agent_cursor_state", json!({}));
    assert_eq!(st["structured"]["visible"], json!(false), "{st}");
    assert_eq!(
        st["structured"]["motion"]["glide_duration_ms"],
        json!(5000.0),
        "{st}"
    );

    // Saved: another process sees the settings.
    let other = cup(&["call", "get_agent_cursor_state", "--json"], &env);
    let other_text = text(&other.stdout);
    assert!(
        other_text.contains("glide 5000 ms") && other_text.contains("#FF00FF"),
        "{other_text}"
    );

    // Disabled: removed at once, nothing drawn during the next click.
    ok_text(
        &c.call("click", json!({"x": cx, "y": cy})),
        "click back with the cursor",
    );
    ok_text(
        &c.call("set_agent_cursor_enabled", json!({"enabled": false})),
        "disable",
    );
    assert!(gone(&env, &dir, is_magenta), "shown after disabling");
    let (answer, shots) = call_grabbing(&mut c, &env, &dir, "click", json!({"element_id": check}));
    ok_text(&answer, "click after disabling");
    assert!(
        !shots.is_empty() && shots.iter().all(|s| centroid(s, is_magenta).is_none()),
        "drawn while disabled ({} screenshots during the click)",
        shots.len()
    );

    highlight_on(&mut c, &env, &dir, json!({"element_id": check}), check_box);

    marks_on(&mut c, &dir, "gtk3-widget-factory");
}

/// Waits until the agent cursor hid itself after its idle time: its state
/// says not visible and no magenta is on screen. Polled to a 10 s deadline
/// (the idle timer is 1.5 s; a busy machine delays it, never cancels it).
fn idle_hidden(c: &mut Client, env: &[(String, String)], dir: &std::path::Path, when: &str) {
    let started = Instant::now();
    loop {
        let st = c.call("get_agent_cursor_state", json!({}));
        if st["structured"]["visible"] == json!(false)
            && centroid(&grab(env, &dir.join("idle.png")), is_magenta).is_none()
        {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the agent cursor is still shown 10 s {when} (idle_hide_ms is 1500): {st}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether nothing `pick` selects is on screen within 2 s. Without a
/// compositor the pixels under an overlay window are the app's to repaint
/// when it is unmapped (X sends it an Expose); a busy app takes a moment.
fn gone(env: &[(String, String)], dir: &std::path::Path, pick: fn(&[u8]) -> bool) -> bool {
    let started = Instant::now();
    loop {
        if centroid(&grab(env, &dir.join("gone.png")), pick).is_none_or(|c| c.2 < 20) {
            return true;
        }
        if started.elapsed() > Duration::from_secs(2) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `highlight` with `target` (an element or x,y,w,h) shows a green frame
/// on the edges of `r` (not in its middle) during the call, and nothing
/// after it.
fn highlight_on(
    c: &mut Client,
    env: &[(String, String)],
    dir: &std::path::Path,
    target: Value,
    r: Rect,
) {
    let mut args = target;
    args["duration_ms"] = json!(1200);
    args["color"] = json!("#00FF00");
    let (answer, shots) = call_grabbing(c, env, dir, "highlight", args);
    ok_text(&answer, "highlight");
    fn green(p: &[u8]) -> bool {
        p[0] < 40 && p[1] > 220 && p[2] < 40
    }
    let framed = shots.iter().any(|s| {
        let (rgb, w, _) = s;
        let at = |x: i64, y: i64| {
            let i = ((y as usize) * (*w as usize) + x as usize) * 3;
            green(&rgb[i..i + 3])
        };
        at(r.x + (r.w / 2) as i64, r.y)
            && at(r.x, r.y + (r.h / 2) as i64)
            && !at(r.x + (r.w / 2) as i64, r.y + (r.h / 2) as i64)
    });
    assert!(
        framed,
        "no green frame on the edges of {r:?} during highlight ({} shots)",
        shots.len()
    );
    assert!(gone(env, dir, green), "the frame stayed");
}

/// Set-of-marks on what the MCP server shows: every actionable element of
/// the snapshot that is visible has a label, read back from the PNG; no
/// two labels overlap.
pub(super) fn marks_on(c: &mut Client, dir: &std::path::Path, what: &str) {
    // The screenshot tool marks too (its image goes to the client).
    let plain = c.call("screenshot", json!({"marks": true}));
    let plain_text = ok_text(&plain, "screenshot marks");
    assert!(plain_text.contains("marks: "), "{plain_text}");
    assert_eq!(plain["images"][0]["png"], json!(true), "{plain}");
    let file = dir.join("marks.png");
    let shot = c.call(
        "get_window_state",
        json!({"marks": true, "screenshot_out_file": path_str(&file)}),
    );
    let snap = ok_text(&shot, "get_window_state marks");
    let s = &shot["structured"];
    let (iw, ih) = (
        s["image"]["width"].as_i64().unwrap_or(0),
        s["image"]["height"].as_i64().unwrap_or(0),
    );
    let (ix, iy) = (
        s["image"]["x"].as_i64().unwrap_or(0),
        s["image"]["y"].as_i64().unwrap_or(0),
    );
    let png = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
    let (rgb, w, h) = cup::image::rgb_from_png(&png).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((i64::from(w), i64::from(h)), (iw, ih));
    let placed = s["marks"].as_array().cloned().unwrap_or_default();
    let rect = |v: &Value| {
        Rect::new(
            v["x"].as_i64().unwrap_or(0),
            v["y"].as_i64().unwrap_or(0),
            v["w"].as_u64().unwrap_or(0),
            v["h"].as_u64().unwrap_or(0),
        )
    };
    let mut drawn = std::collections::HashSet::new();
    for p in &placed {
        let id = p["id"].as_str().unwrap_or_default();
        let label = rect(&p["label"]);
        let read = cup_draw::marks::read_label_rgb(&rgb, w, h, label);
        assert_eq!(
            read.as_deref(),
            Some(id),
            "{what}: the label of {id} reads {read:?}"
        );
        drawn.insert(id.to_owned());
    }
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            assert!(
                rect(&a["label"]).intersect(&rect(&b["label"])).is_empty(),
                "{what}: labels of {} and {} overlap",
                a["id"],
                b["id"]
            );
        }
    }
    // Every actionable element the snapshot shows on screen.
    let screen = Rect::new(ix, iy, w.into(), h.into());
    let mut wanted = Vec::new();
    for line in snap.lines() {
        let Some(start) = line.find("[e") else {
            continue;
        };
        let Some(end) = line[start..].find(']') else {
            continue;
        };
        let id = &line[start + 1..start + end];
        let acts = line
            .rfind(" [")
            .map(|i| &line[i + 2..line.len() - 1])
            .unwrap_or("");
        let actionable = acts.split(',').any(|a| !a.is_empty() && a != "foc");
        let off = line.contains("{off") || line.contains(",off");
        if let (true, false, Some(b)) = (actionable, off, bounds_in(line)) {
            if !b.intersect(&screen).is_empty() {
                wanted.push(id.to_owned());
            }
        }
    }
    assert!(wanted.len() >= 5, "{what}: few actionable elements: {snap}");
    let missing: Vec<&String> = wanted.iter().filter(|id| !drawn.contains(*id)).collect();
    assert!(
        missing.is_empty(),
        "{what}: no label for {missing:?} ({} drawn, unplaced {})",
        drawn.len(),
        s["unplaced"]
    );
    assert!(
        snap.contains(&format!("marks: {} (", placed.len())),
        "{snap}"
    );
}

#[test]
fn web_agent_cursor_and_marks_in_headless_chromium() {
    let (_browser, mut env, dir) = headless_page(
        "cup-mcp-visual-web",
        r##"<!doctype html><title>Form</title><body style="margin:0;background:#fff">
<button id=b style="position:absolute;left:100px;top:150px;width:140px;height:40px" onclick="document.title='Pressed'">Press</button>
<label style="position:absolute;left:400px;top:160px"><input type=checkbox> Remember</label>
<a href="#x" style="position:absolute;left:600px;top:160px">More</a>
<input aria-label=Name style="position:absolute;left:100px;top:300px">
<select aria-label=Size style="position:absolute;left:400px;top:300px"><option>S<option>M</select>
</body>"##,
    );
    env.push((
        "CUP_CONFIG".into(),
        path_str(&dir.join("config.json")).to_owned(),
    ));
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let mut snap = String::new();
    for _ in 0..50 {
        snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
        if snap.contains("Press") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // A headless browser has nobody watching: off unless set.
    let st = c.call("get_agent_cursor_state", json!({}));
    assert_eq!(st["structured"]["enabled"], json!(false), "{st}");
    let press = id_of(&snap, &["btn \"Press\""]);
    let target = bounds_in(line_of(&snap, &press)).unwrap_or_else(|| panic!("no bounds: {snap}"));
    let (tx, ty) = centre(target);

    ok_text(
        &c.call("set_agent_cursor_motion", json!({"glide_duration_ms": 5000, "arc_size": 0.4, "dwell_after_click_ms": 200, "idle_hide_ms": 1500})),
        "set_agent_cursor_motion",
    );
    ok_text(
        &c.call(
            "set_agent_cursor_style",
            json!({"gradient_colors": ["#FF00FF"], "bloom_color": "#00FFFF"}),
        ),
        "set_agent_cursor_style",
    );
    ok_text(
        &c.call("set_agent_cursor_enabled", json!({"enabled": true})),
        "enable",
    );
    // Place it (the browser reports no pointer: it appears there), and let
    // it hide.
    ok_text(
        &c.call("move_cursor", json!({"x": 700, "y": 500})),
        "move_cursor",
    );
    idle_hidden(&mut c, &env, &dir, "after move_cursor");

    let (answer, shots) = call_grabbing(
        &mut c,
        &env,
        &dir,
        "click",
        json!({"element_id": press, "observe": true}),
    );
    let answer_text = ok_text(&answer, "click Press with the cursor");
    assert_eq!(
        answer["structured"]["effect"],
        json!("confirmed"),
        "{answer_text}"
    );
    assert!(answer_text.contains("Pressed"), "{answer_text}");
    assert_flight(&shots, (700, 500), (tx, ty));
    idle_hidden(&mut c, &env, &dir, "after the click");

    // Off: nothing drawn during a click.
    ok_text(
        &c.call("set_agent_cursor_enabled", json!({"enabled": false})),
        "disable",
    );
    let (answer, shots) = call_grabbing(&mut c, &env, &dir, "click", json!({"x": tx, "y": ty}));
    ok_text(&answer, "click while off");
    assert!(
        !shots.is_empty() && shots.iter().all(|s| centroid(s, is_magenta).is_none()),
        "drawn while off ({} screenshots during the click)",
        shots.len()
    );

    highlight_on(
        &mut c,
        &env,
        &dir,
        json!({"x": 380, "y": 280, "w": 200, "h": 60}),
        Rect::new(380, 280, 200, 60),
    );

    marks_on(&mut c, &dir, "web page");
}
