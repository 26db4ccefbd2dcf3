//! Trajectory recording and replay over stdio and `cup call`.

use super::*;

fn checked(line: &str) -> bool {
    line.contains("{chk") || line.contains(",chk")
}

#[test]
fn recording_writes_turns_and_replay_acts_again_on_the_same_element() {
    record_and_replay(desktop("mcp-record"));
}

/// The same on a headless sway (screenshots by screencopy, the pixel
/// click by the compositor's virtual pointer).
#[test]
fn recording_and_replay_on_wayland() {
    record_and_replay(desktop_with("mcp-record-wl", &["--wayland"]));
}

fn record_and_replay((state, env, _pid): (crate::common::StateFile, Vec<(String, String)>, u32)) {
    let dir = state
        .0
        .parent()
        .unwrap_or_else(|| panic!("no parent"))
        .join("trajectory");
    let dir_s = path_str(&dir).to_owned();
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let idle = c.call("get_recording_state", json!({}));
    assert_eq!(idle["structured"]["enabled"], json!(false), "{idle}");
    let missing = c.call("set_recording", json!({"enabled": true}));
    assert!(error_text(&missing, "set_recording without a dir").contains("output_dir"));
    ok_text(
        &c.call(
            "set_recording",
            json!({"enabled": true, "output_dir": dir_s}),
        ),
        "set_recording",
    );

    // One recorded action: the check button toggled. Snapshots are reads:
    // not turns.
    let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let was = checked(line_of(&snap, &id));
    let acted = c.call("action", json!({"action": "toggle", "element_id": id}));
    ok_text(&acted, "action toggle");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    // The recorder's look did not replace the agent's snapshot: its id
    // still acts, here as a batch step (toggled back; a second turn).
    let again = c.call(
        "batch",
        json!({"steps": [{"action": "toggle", "element_id": id}]}),
    );
    ok_text(&again, "batch toggle");
    assert_eq!(
        again["structured"]["results"][0]["effect"],
        json!("confirmed"),
        "{again}"
    );
    let st = c.call("get_recording_state", json!({}));
    assert_eq!(st["structured"]["next_turn"], json!(3), "{st}");
    ok_text(
        &c.call("set_recording", json!({"enabled": false})),
        "stop recording",
    );

    // The turn folders: the call, the element, the effect, the look after.
    let turn1 = dir.join("turn-00001");
    let record: Value = serde_json::from_slice(
        &std::fs::read(turn1.join("action.json")).unwrap_or_else(|e| panic!("action.json: {e}")),
    )
    .unwrap_or_else(|e| panic!("action.json: {e}"));
    assert_eq!(record["tool"], json!("action"), "{record}");
    assert_eq!(record["arguments"]["element_id"], json!(id), "{record}");
    assert_eq!(
        record["elements"][&id]["role"],
        json!("checkbox"),
        "{record}"
    );
    assert_eq!(
        record["elements"][&id]["name"],
        json!("checkbutton"),
        "{record}"
    );
    assert_eq!(record["result"]["structured"]["effect"], json!("confirmed"));
    assert!(record["timestamp"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    let look = std::fs::read_to_string(turn1.join("snapshot.txt"))
        .unwrap_or_else(|e| panic!("snapshot.txt: {e}"));
    let after_turn1 = look
        .lines()
        .find(|l| {
            l.contains("chk \"checkbutton\"") && l.contains("[clk,tog]") && !l.contains("{dis")
        })
        .unwrap_or_else(|| panic!("no checkbutton in the look:\n{look}"));
    assert_ne!(checked(after_turn1), was, "{after_turn1}");
    let png = std::fs::read(turn1.join("screenshot.png")).unwrap_or_else(|e| panic!("png: {e}"));
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(dir.join("turn-00002/action.json").exists());
    assert!(!dir.join("turn-00003").exists());

    let record2: Value = serde_json::from_slice(
        &std::fs::read(dir.join("turn-00002/action.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("turn 2: {e}"));
    assert_eq!(record2["tool"], json!("batch"), "{record2}");
    assert_eq!(
        record2["elements"][&id]["name"],
        json!("checkbutton"),
        "{record2}"
    );

    // Replay of the first turn alone (the second removed): the element is
    // found again in a fresh snapshot and toggled, its effect confirmed
    // like the recording's, and the window shows it. Then the batch turn
    // alone: its step's id is found again too.
    let turn2 = dir.join("turn-00002");
    let kept = dir.join("kept-turn-00002");
    std::fs::rename(&turn2, &kept).unwrap_or_else(|e| panic!("{e}"));
    let replay = c.call("replay_trajectory", json!({"dir": dir_s, "delay_ms": 0}));
    let report = ok_text(&replay, "replay_trajectory");
    assert!(report.starts_with("replayed 1 of 1 turns"), "{report}");
    assert_eq!(replay["structured"]["ok"], json!(1), "{replay}");
    let turn = &replay["structured"]["turns"][0];
    assert_eq!(turn["effect"], json!("confirmed"), "{replay}");
    assert_eq!(turn["recorded_effect"], json!("confirmed"), "{replay}");
    let now = ok_text(&c.call("snapshot", json!({})), "snapshot after replay");
    let id_now = id_of(&now, &["chk \"checkbutton\"", "[clk,tog]"]);
    assert_ne!(checked(line_of(&now, &id_now)), was, "{now}");

    std::fs::remove_dir_all(&turn1).unwrap_or_else(|e| panic!("{e}"));
    std::fs::rename(&kept, &turn2).unwrap_or_else(|e| panic!("{e}"));
    let replay = c.call("replay_trajectory", json!({"dir": dir_s, "delay_ms": 0}));
    let report = ok_text(&replay, "replay of the batch");
    assert!(report.contains("turn-00002 batch: ok on "), "{report}");
    let now = ok_text(
        &c.call("snapshot", json!({})),
        "snapshot after batch replay",
    );
    let id_now = id_of(&now, &["chk \"checkbutton\"", "[clk,tog]"]);
    assert_eq!(checked(line_of(&now, &id_now)), was, "{now}");

    // Refusals: replaying the directory being recorded, an empty one.
    ok_text(
        &c.call(
            "set_recording",
            json!({"enabled": true, "output_dir": dir_s}),
        ),
        "record again",
    );
    let into_itself = c.call("replay_trajectory", json!({"dir": dir_s}));
    assert!(error_text(&into_itself, "replay into itself").contains("being recorded"));
    ok_text(&c.call("set_recording", json!({"enabled": false})), "stop");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap_or_else(|e| panic!("{e}"));
    let none = c.call("replay_trajectory", json!({"dir": path_str(&empty)}));
    assert!(error_text(&none, "replay of nothing").contains("no turn folders"));
    drop(c);

    // `cup call` keeps recording on between invocations.
    let mut call_env = env.clone();
    call_env.push((
        "CUP_RECORDING_STATE".into(),
        path_str(&dir.join("recording-state.json")).to_owned(),
    ));
    let cli_dir = dir.join("cli");
    let cli_dir_s = path_str(&cli_dir).to_owned();
    let on = cup(
        &[
            "call",
            "set_recording",
            &json!({"enabled": true, "output_dir": cli_dir_s}).to_string(),
        ],
        &call_env,
    );
    assert!(on.status.success(), "{}", text(&on.stderr));
    let key = cup(&["call", "press_key", r#"{"key": "shift"}"#], &call_env);
    assert!(
        key.status.success(),
        "{}{}",
        text(&key.stdout),
        text(&key.stderr)
    );
    // A pixel click: click.png marks its point (the screenshot is the
    // whole screen, from 0,0).
    let click = cup(&["call", "click", r#"{"x": 200, "y": 200}"#], &call_env);
    assert!(click.status.success(), "{}", text(&click.stdout));
    let state_now = cup(&["call", "get_recording_state"], &call_env);
    assert!(
        text(&state_now.stdout).contains("next turn 3"),
        "{}",
        text(&state_now.stdout)
    );
    let off = cup(
        &["call", "set_recording", r#"{"enabled": false}"#],
        &call_env,
    );
    assert!(off.status.success(), "{}", text(&off.stderr));
    assert!(cli_dir.join("turn-00001/action.json").exists());
    assert!(
        !cli_dir.join("turn-00001/click.png").exists(),
        "a key press has no point"
    );
    let turn2 = cli_dir.join("turn-00002");
    let record: Value = serde_json::from_slice(
        &std::fs::read(turn2.join("action.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record["click_point"], json!([200, 200]), "{record}");
    // The screenshot is of the window: the point is 200,200 less the
    // window's place (0,0 on the bare X server; under sway's title bar).
    let origin = &record["screenshot_origin"];
    let (px, py) = match (origin[0].as_i64(), origin[1].as_i64()) {
        (Some(x), Some(y)) => (200 - x, 200 - y),
        _ => panic!("no screenshot_origin: {record}"),
    };
    let (w, plain) = rgb_pixels(&turn2.join("screenshot.png"));
    let (w2, marked) = rgb_pixels(&turn2.join("click.png"));
    assert_eq!((w, plain.len()), (w2, marked.len()));
    let at = |px: &[u8], x: i64, y: i64| px[(y as usize * w + x as usize) * 3..][..3].to_vec();
    assert_eq!(at(&marked, px, py), vec![230, 20, 20]);
    for (i, (a, b)) in plain.chunks(3).zip(marked.chunks(3)).enumerate() {
        if a != b {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            assert!(
                (x - px).pow(2) + (y - py).pow(2) <= 64,
                "click.png changed {x},{y}, away from the point {px},{py}"
            );
        }
    }
    let idle = cup(&["call", "get_recording_state"], &call_env);
    assert!(
        text(&idle.stdout).contains("not recording"),
        "{}",
        text(&idle.stdout)
    );
}

#[test]
fn recording_into_a_directory_that_cannot_be_written_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("cup-cli-rec-refused-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let env = vec![(
        "CUP_RECORDING_STATE".to_owned(),
        path_str(&dir.join("recording-state.json")).to_owned(),
    )];
    let call = |args: &[&str]| {
        let mut all = vec!["call"];
        all.extend_from_slice(args);
        cup(&all, &env)
    };
    let refused = call(&[
        "set_recording",
        r#"{"enabled": true, "output_dir": "/proc/self"}"#,
    ]);
    let said = format!("{}{}", text(&refused.stdout), text(&refused.stderr));
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("cannot write into /proc/self: ")
            && said.contains("give a writable directory")
            && said.trim().lines().count() == 1,
        "{said}"
    );
    let idle = call(&["get_recording_state"]);
    assert!(
        text(&idle.stdout).contains("not recording"),
        "the refusal changed nothing: {}",
        text(&idle.stdout)
    );
    // A missing directory is created, and recording starts.
    let made = dir.join("made");
    let on = call(&[
        "set_recording",
        &json!({"enabled": true, "output_dir": path_str(&made)}).to_string(),
    ]);
    assert!(on.status.success(), "{}", text(&on.stdout));
    assert!(made.is_dir());
    let off = call(&["set_recording", r#"{"enabled": false}"#]);
    assert!(off.status.success(), "{}", text(&off.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Width and RGB pixels of a PNG file (alpha dropped).
fn rgb_pixels(path: &std::path::Path) -> (usize, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut dec = png::Decoder::new(BufReader::new(file));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().unwrap_or_else(|e| panic!("{e}"));
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader
        .next_frame(&mut buf)
        .unwrap_or_else(|e| panic!("{e}"));
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        _ => buf,
    };
    (info.width as usize, rgb)
}
