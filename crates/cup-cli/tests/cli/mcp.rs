//! `cup mcp` driven by a real MCP client, the official Python SDK
//! (`tests/mcp_client.py`, installed by scripts/install-mcp-client.sh): over
//! stdio and over streamable HTTP, on a private desktop with
//! gtk3-widget-factory and on a headless Chromium page. Tools are listed,
//! snapshot -> action -> snapshot is checked on real apps, every tool is
//! called with bad arguments, and a hung or killed app gives errors, never
//! a hang.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use crate::common::{cup, exports, path_str, state_file, text};
use serde_json::{json, Value};

/// The Python of the MCP client venv.
fn client_python() -> PathBuf {
    let python = std::env::var_os("CUP_MCP_CLIENT_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/mcp-client")
        })
        .join("bin/python");
    assert!(
        python.exists(),
        "the MCP client is not installed ({} missing); run scripts/install-mcp-client.sh (scripts/test.sh does)",
        python.display()
    );
    python
}

/// A running Python MCP client, one JSON line per command and answer.
struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    fn start(mode_args: &[String], env: &[(String, String)]) -> Client {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client.py");
        let mut command = Command::new(client_python());
        command
            .arg(&script)
            .args(mode_args)
            .env_remove("AT_SPI_BUS_ADDRESS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the MCP client: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = Client {
            child,
            stdin,
            lines,
        };
        let ready = c.read(Duration::from_secs(60));
        assert!(ready.get("ready").is_some(), "client not ready: {ready}");
        c
    }

    fn read(&mut self, within: Duration) -> Value {
        let line = self
            .lines
            .recv_timeout(within)
            .unwrap_or_else(|e| panic!("no answer from the MCP client within {within:?}: {e}"));
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad answer {line}: {e}"))
    }

    fn send(&mut self, cmd: &Value) -> Value {
        writeln!(self.stdin, "{cmd}").unwrap_or_else(|e| panic!("client stdin: {e}"));
        let answer = self.read(Duration::from_secs(150));
        assert!(
            answer.get("exception").is_none(),
            "the client failed on {cmd}: {answer}"
        );
        answer
    }

    fn call_on(&mut self, client: usize, tool: &str, args: Value) -> Value {
        self.send(&json!({"op": "call", "tool": tool, "args": args, "client": client}))
    }

    fn call(&mut self, tool: &str, args: Value) -> Value {
        self.call_on(0, tool, args)
    }

    fn tools(&mut self) -> Value {
        self.send(&json!({"op": "list"}))
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", json!({"op": "quit"}));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ok_text(answer: &Value, what: &str) -> String {
    assert_eq!(
        answer["is_error"],
        json!(false),
        "{what} failed: {}",
        answer["text"]
    );
    answer["text"].as_str().unwrap_or_default().to_owned()
}

fn error_text(answer: &Value, what: &str) -> String {
    assert_eq!(
        answer["is_error"],
        json!(true),
        "{what} did not fail: {answer}"
    );
    answer["text"].as_str().unwrap_or_default().to_owned()
}

/// The id of the first line containing every one of `parts` (and not
/// disabled).
fn id_of(snapshot: &str, parts: &[&str]) -> String {
    snapshot
        .lines()
        .find(|l| parts.iter().all(|p| l.contains(p)) && !l.contains("{dis"))
        .and_then(|l| {
            let start = l.find("[e")? + 1;
            let end = start + l[start..].find(']')?;
            Some(l[start..end].to_owned())
        })
        .unwrap_or_else(|| panic!("no line with {parts:?} in:\n{snapshot}"))
}

/// A private desktop with gtk3-widget-factory; its environment and the
/// app's pid. The desktop stops when the returned guard drops.
fn desktop(name: &str) -> (crate::common::StateFile, Vec<(String, String)>, u32) {
    let state = state_file(name);
    let s = path_str(&state.0).to_owned();
    let started = cup(&["sandbox", "start", "--state", &s], &[]);
    assert!(started.status.success(), "{}", text(&started.stderr));
    let mut env = exports(&text(&started.stdout));
    let dir = state.0.parent().unwrap_or_else(|| panic!("no parent"));
    env.push((
        "CUP_SNAPSHOT_STATE".into(),
        path_str(&dir.join("last.json")).to_owned(),
    ));
    // The test's own settings file (none yet: the defaults).
    env.push((
        "CUP_CONFIG".into(),
        path_str(&dir.join("config.json")).to_owned(),
    ));
    let run = cup(
        &["sandbox", "run", "--state", &s, "--", "gtk3-widget-factory"],
        &[],
    );
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}{}", text(&run.stderr));
    let pid = out
        .split("pid ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|p| p.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no pid in {out}"));
    (state, env, pid)
}

fn stdio_args(extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "stdio".to_owned(),
        "--".to_owned(),
        env!("CARGO_BIN_EXE_cup").to_owned(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

/// The checkbox line of `id` in a snapshot.
fn line_of<'a>(snapshot: &'a str, id: &str) -> &'a str {
    let tag = format!("[{id}]");
    snapshot
        .lines()
        .find(|l| l.trim_start().starts_with(&tag))
        .unwrap_or_else(|| panic!("no {id} in:\n{snapshot}"))
}

#[test]
fn stdio_desktop_snapshot_action_snapshot_and_driver_tools() {
    let (_state, env, _pid) = desktop("mcp-stdio");
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let listed = c.tools();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for t in [
        "snapshot",
        "snapshot_app",
        "snapshot_desktop",
        "overview",
        "action",
        "open_app",
        "find",
        "screenshot",
        "page",
        "batch",
        "wait",
        "get_window_state",
        "click",
        "double_click",
        "right_click",
        "mouse_down",
        "mouse_up",
        "drag",
        "move_cursor",
        "get_cursor_position",
        "get_screen_size",
        "hotkey",
        "press_key",
        "type_text",
        "set_value",
        "scroll",
        "list_apps",
        "list_windows",
        "launch_app",
        "zoom",
        "check_permissions",
    ] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }

    // snapshot -> action -> snapshot.
    let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
    assert!(snap.starts_with("# CUP 0.1.0 | linux |"), "{snap}");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let before = line_of(&snap, &id).to_owned();
    let was_checked = before.contains("chk}") || before.contains("{chk") || before.contains(",chk");
    let acted = c.call(
        "action",
        json!({"action": "toggle", "element_id": id, "observe": true}),
    );
    let acted_text = ok_text(&acted, "action toggle");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    assert!(acted_text.contains("# observed: 1 changed"), "{acted_text}");
    let after = ok_text(&c.call("snapshot", json!({})), "snapshot after");
    let now = line_of(&after, &id);
    let is_checked = now.contains("{chk") || now.contains(",chk");
    assert_ne!(was_checked, is_checked, "before: {before}\nafter: {now}");

    // Gen-1 names answer too.
    let gen1 = c.call(
        "execute_action",
        json!({"action": "toggle", "element_id": id}),
    );
    ok_text(&gen1, "execute_action");
    ok_text(&c.call("get_foreground", json!({})), "get_foreground");

    // The window state: compact tree plus a PNG image block of the window.
    let ws = c.call("get_window_state", json!({"query": "checkbutton"}));
    let ws_text = ok_text(&ws, "get_window_state");
    assert!(ws_text.contains("query \"checkbutton\""), "{ws_text}");
    let img = &ws["images"][0];
    assert_eq!(img["mime"], json!("image/png"));
    assert_eq!(img["png"], json!(true), "{img}");
    assert!(img["width"].as_u64().unwrap_or(0) > 100, "{img}");

    // Screenshot of a region: exactly that size.
    let shot = c.call("screenshot", json!({"x": 10, "y": 20, "w": 300, "h": 200}));
    ok_text(&shot, "screenshot");
    assert_eq!(shot["images"][0]["png"], json!(true));
    assert_eq!(shot["images"][0]["width"], json!(300));
    assert_eq!(shot["images"][0]["height"], json!(200));

    // A pixel click at the checkbox's centre, through zoom coordinates.
    let bounds: Vec<i64> = now
        .split_whitespace()
        .find(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
        .map(|t| t.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(bounds.len(), 2, "{now}");
    let zoom = c.call(
        "zoom",
        json!({"x": bounds[0], "y": bounds[1], "w": 100, "h": 20}),
    );
    let zoom_text = ok_text(&zoom, "zoom");
    assert_eq!(zoom["images"][0]["png"], json!(true));
    let origin: Vec<i64> = zoom_text
        .split(" at ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .map(|p| p.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(origin.len(), 2, "{zoom_text}");
    let click = c.call(
        "click",
        json!({"x": bounds[0] + 10 - origin[0], "y": bounds[1] + 10 - origin[1], "from_zoom": true}),
    );
    ok_text(&click, "click from_zoom");
    assert_eq!(click["structured"]["effect"], json!("confirmed"), "{click}");

    // Pointer and keys.
    let moved = c.call("move_cursor", json!({"x": 40, "y": 30}));
    ok_text(&moved, "move_cursor");
    let pos = c.call("get_cursor_position", json!({}));
    assert_eq!(pos["structured"], json!({"x": 40, "y": 30}), "{pos}");
    let size = c.call("get_screen_size", json!({}));
    assert_eq!(size["structured"]["width"], json!(1920), "{size}");
    let snap = ok_text(&c.call("snapshot", json!({"query": "entry"})), "snapshot");
    let entry = id_of(&snap, &["tbx", "val=\"entry\"", "[clk,sv,typ]"]);
    let typed = c.call(
        "type_text",
        json!({"element_id": entry, "text": "héllo ✓", "observe": true}),
    );
    let typed_text = ok_text(&typed, "type_text");
    assert!(typed_text.contains("héllo ✓"), "{typed_text}");
    ok_text(&c.call("hotkey", json!({"keys": ["ctrl", "a"]})), "hotkey");
    ok_text(
        &c.call("press_key", json!({"key": "backspace"})),
        "press_key",
    );
    let set = c.call(
        "set_value",
        json!({"element_id": entry, "value": "set by MCP"}),
    );
    assert!(ok_text(&set, "set_value").contains("reads back exactly"));
    let perms = c.call("check_permissions", json!({}));
    assert_eq!(perms["structured"]["ok"], json!(true), "{perms}");
    let windows = ok_text(&c.call("list_windows", json!({})), "list_windows");
    assert!(windows.contains("gtk3-widget-factory"), "{windows}");
    let apps = ok_text(
        &c.call("list_apps", json!({"running_only": true})),
        "list_apps",
    );
    assert!(
        apps.contains("Widget Factory") && apps.contains("running pid"),
        "{apps}"
    );
}

fn checked(line: &str) -> bool {
    line.contains("{chk") || line.contains(",chk")
}

#[test]
fn recording_writes_turns_and_replay_acts_again_on_the_same_element() {
    let (state, env, _pid) = desktop("mcp-record");
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
    // A pixel click: click.png marks its point (the window is at 0,0: no
    // window manager).
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
    let (w, plain) = rgb_pixels(&turn2.join("screenshot.png"));
    let (w2, marked) = rgb_pixels(&turn2.join("click.png"));
    assert_eq!((w, plain.len()), (w2, marked.len()));
    let at = |px: &[u8], x: usize, y: usize| px[(y * w + x) * 3..][..3].to_vec();
    assert_eq!(at(&marked, 200, 200), vec![230, 20, 20]);
    for (i, (a, b)) in plain.chunks(3).zip(marked.chunks(3)).enumerate() {
        if a != b {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            assert!(
                (x - 200).pow(2) + (y - 200).pow(2) <= 64,
                "click.png changed {x},{y}, away from the point"
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

#[test]
fn config_persists_across_servers_and_shapes_get_window_state() {
    let (state, env, _pid) = desktop("mcp-config");
    let file = state
        .0
        .parent()
        .unwrap_or_else(|| panic!("no parent"))
        .join("config.json");
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);
    let shown = c.call("get_config", json!({}));
    ok_text(&shown, "get_config");
    assert_eq!(
        shown["structured"]["config"]["capture_mode"],
        json!("som"),
        "{shown}"
    );
    assert_eq!(
        shown["structured"]["config"]["snapshot"]["deadline_ms"],
        json!(3000),
        "{shown}"
    );
    assert!(!file.exists(), "reading the config must not write it");

    // som (default): tree and image.
    let both = c.call("get_window_state", json!({}));
    assert!(ok_text(&both, "som").contains("chk \"checkbutton\""));
    assert_eq!(both["images"][0]["png"], json!(true), "{both}");
    // ax: the tree only.
    ok_text(
        &c.call("set_config", json!({"key": "capture_mode", "value": "ax"})),
        "set ax",
    );
    let ax = c.call("get_window_state", json!({}));
    assert!(ok_text(&ax, "ax").contains("chk \"checkbutton\""));
    assert!(
        ax["images"].as_array().is_none_or(Vec::is_empty),
        "ax returned an image: {ax}"
    );
    // vision: the image only, no tree walk; the call can still ask for
    // the tree.
    ok_text(
        &c.call(
            "set_config",
            json!({"key": "capture_mode", "value": "vision"}),
        ),
        "set vision",
    );
    let vision = c.call("get_window_state", json!({}));
    let vision_text = ok_text(&vision, "vision");
    assert!(
        vision_text.starts_with("# capture_mode vision"),
        "{vision_text}"
    );
    assert!(!vision_text.contains("checkbutton"), "{vision_text}");
    assert_eq!(vision["images"][0]["png"], json!(true), "{vision}");
    let tree = c.call("get_window_state", json!({"include_screenshot": false}));
    assert!(ok_text(&tree, "vision without image").contains("chk \"checkbutton\""));

    // Snapshot defaults: detail full keeps what compact prunes.
    let compact = ok_text(&c.call("snapshot", json!({})), "compact snapshot");
    ok_text(
        &c.call(
            "set_config",
            json!({"key": "snapshot.detail", "value": "full"}),
        ),
        "set detail",
    );
    let full = ok_text(&c.call("snapshot", json!({})), "full snapshot");
    assert!(
        full.lines().count() > compact.lines().count() + 20,
        "{full}"
    );

    // Refused values change nothing, in one line each.
    let saved = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("config: {e}"));
    for (key, value) in [
        ("capture_mode", json!("pixels")),
        ("snapshot.deadline_ms", json!(5)),
        ("no.such.key", json!(1)),
    ] {
        let msg = error_text(
            &c.call("set_config", json!({"key": key, "value": value})),
            key,
        );
        assert!(!msg.contains('\n'), "{msg}");
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        saved,
        "a refused value must not touch the file"
    );
    drop(c);

    // Another server, and `cup call`, read the same settings.
    let mut other = Client::start(&stdio_args(&["mcp"]), &env);
    let again = other.call("get_config", json!({}));
    assert_eq!(
        again["structured"]["config"]["capture_mode"],
        json!("vision"),
        "{again}"
    );
    assert_eq!(
        again["structured"]["config"]["snapshot"]["detail"],
        json!("full")
    );
    drop(other);
    let cli = cup(&["call", "get_config"], &env);
    assert!(
        text(&cli.stdout).contains("\"vision\""),
        "{}",
        text(&cli.stdout)
    );

    // A broken file: the defaults are used and said so; set_config will
    // not overwrite it.
    std::fs::write(&file, "{broken").unwrap_or_else(|e| panic!("{e}"));
    let broken = cup(&["call", "get_config"], &env);
    assert!(
        text(&broken.stdout).contains("defaults are in effect"),
        "{}",
        text(&broken.stdout)
    );
    let refused = cup(
        &[
            "call",
            "set_config",
            r#"{"key": "capture_mode", "value": "ax"}"#,
        ],
        &env,
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused.stdout).contains("fix or remove the file"),
        "{}",
        text(&refused.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "{broken"
    );
}

/// Bad arguments for every property of `schema` (wrong type, and out of
/// range for integers), and `{}` when something is required.
fn bad_arguments(schema: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if schema["required"].as_array().is_some_and(|r| !r.is_empty()) {
        out.push(json!({}));
    }
    if let Some(props) = schema["properties"].as_object() {
        for (key, prop) in props {
            let wrong = match prop["type"].as_str() {
                Some("integer") => json!("twelve"),
                Some("boolean") => json!("yes"),
                Some("array") => json!(5),
                Some("object") => json!("x"),
                _ => json!(123),
            };
            out.push(json!({ key: wrong }));
            if prop["type"] == json!("integer") {
                out.push(json!({ key: 1_000_000_000_000_i64 }));
            }
            if prop["enum"].is_array() {
                out.push(json!({ key: "no-such-choice" }));
            }
        }
    }
    out.push(json!({"no_such_argument": 1}));
    out
}

#[test]
fn every_tool_refuses_bad_arguments_and_the_server_keeps_serving() {
    let (_state, env, pid) = desktop("mcp-bad");
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);
    // The raw tool list, schemas included.
    let tools = list_with_schemas(&env);
    assert!(tools.len() >= 31, "{}", tools.len());
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or_default();
        for args in bad_arguments(&tool["inputSchema"]) {
            let answer = c.call(name, args.clone());
            let msg = error_text(&answer, &format!("{name} {args}"));
            assert!(
                !msg.trim().is_empty() && !msg.contains('\n'),
                "{name} {args}: not one line: {msg:?}"
            );
        }
    }
    ok_text(&c.call("overview", json!({})), "overview after bad calls");

    // A hung app: the capture comes back (partial or an error), no hang.
    let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    signal(pid, "STOP");
    let started = Instant::now();
    let hung = c.call("snapshot", json!({}));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "snapshot of a hung app took {:?}",
        started.elapsed()
    );
    let hung_text = hung["text"].as_str().unwrap_or_default();
    assert!(
        hung["is_error"] == json!(true) || hung_text.contains("partial"),
        "{hung}"
    );
    // Killed: acting on its old ids is an error that says what to do.
    signal(pid, "KILL");
    signal(pid, "CONT");
    let started = Instant::now();
    let gone = c.call("action", json!({"action": "toggle", "element_id": id}));
    let msg = error_text(&gone, "action on a killed app");
    assert!(
        msg.contains("snapshot"),
        "the error should say to take a new snapshot: {msg}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    ok_text(&c.call("overview", json!({})), "overview after the kill");
}

fn signal(pid: u32, sig: &str) {
    let status = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(status.success() || sig == "CONT", "kill -{sig} {pid}");
}

/// tools/list with input schemas, through a raw stdio exchange with
/// `cup mcp` (newline-delimited JSON-RPC, as the protocol defines it).
fn list_with_schemas(env: &[(String, String)]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .arg("mcp")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cup mcp: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    writeln!(stdin, "{init}").unwrap_or_else(|e| panic!("{e}"));
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap_or_else(|e| panic!("{e}"));
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut tools = Vec::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        let v: Value = serde_json::from_str(&line).unwrap_or_default();
        if v["id"] == json!(2) {
            tools = v["result"]["tools"].as_array().cloned().unwrap_or_default();
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    tools
}

/// Reads the first stdout line of `cup mcp --http` (where it serves and the
/// token).
fn http_server(env: &[(String, String)]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .args(["mcp", "--http", "127.0.0.1:0"])
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env_remove("CUP_MCP_TOKEN")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cup mcp --http: {e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut line = String::new();
    let _ = BufReader::new(stdout).read_line(&mut line);
    // cup mcp: serving http://127.0.0.1:PORT/mcp token HEX
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_owned();
    let token = line
        .split(" token ")
        .nth(1)
        .map(|t| t.trim().to_owned())
        .unwrap_or_else(|| panic!("no token in {line:?}"));
    (child, url, token)
}

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A raw POST to `url` with an optional bearer token; the status line.
fn raw_post(url: &str, token: Option<&str>) -> String {
    let rest = url.trim_start_matches("http://");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream =
        std::net::TcpStream::connect(host).unwrap_or_else(|e| panic!("connect {host}: {e}"));
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    .to_string();
    let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "POST /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap_or_else(|e| panic!("write: {e}"));
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn http_needs_the_token_and_keeps_each_clients_state_apart() {
    let (_state, env, _pid) = desktop("mcp-http");
    let (child, url, token) = http_server(&env);
    let _server = Kill(child);
    assert!(
        raw_post(&url, None).contains(" 401 "),
        "no token must be refused"
    );
    assert!(
        raw_post(&url, Some("wrong-token-123")).contains(" 401 "),
        "a wrong token must be refused"
    );
    assert!(raw_post(&url, Some(&token)).contains(" 200 "));

    let mut c = Client::start(
        &[
            "http".to_owned(),
            url.clone(),
            token.clone(),
            "2".to_owned(),
        ],
        &[],
    );
    let listed = c.tools();
    assert!(listed["tools"].as_array().is_some_and(|t| t.len() >= 31));
    // Client 0 takes a snapshot and acts; client 1 has no snapshot of its own.
    let snap = ok_text(&c.call_on(0, "snapshot", json!({})), "snapshot");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let other = c.call_on(1, "action", json!({"action": "toggle", "element_id": id}));
    let msg = error_text(&other, "action on another client's ids");
    assert!(msg.contains("no snapshot"), "{msg}");
    let acted = c.call_on(0, "action", json!({"action": "toggle", "element_id": id}));
    ok_text(&acted, "toggle over HTTP");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    let shot = c.call_on(1, "screenshot", json!({}));
    assert_eq!(shot["images"][0]["png"], json!(true), "{shot}");
}

#[test]
fn http_refuses_a_public_bind_without_a_token() {
    let out = Command::new(env!("CARGO_BIN_EXE_cup"))
        .args(["mcp", "--http", "0.0.0.0:0"])
        .env_remove("CUP_MCP_TOKEN")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--token"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn stdio_web_page_snapshot_action_snapshot_and_screenshot() {
    let dir = std::env::temp_dir().join(format!("cup-mcp-web-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let page = dir.join("page.html");
    std::fs::write(
        &page,
        r#"<!doctype html><title>Shop</title><h1>Checkout</h1>
<label><input type=checkbox> Gift wrap</label>
<button onclick="document.title='Sent!'">Send</button>"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let state = dir.join("browser.json");
    let url = format!("file://{}", path_str(&page));
    let started = cup(
        &[
            "browser",
            "start",
            "--headless",
            &url,
            "--state",
            path_str(&state),
        ],
        &[],
    );
    assert!(started.status.success(), "{}", text(&started.stderr));
    struct Stop(PathBuf);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = cup(&["browser", "stop", "--state", path_str(&self.0)], &[]);
            if let Some(d) = self.0.parent() {
                let _ = std::fs::remove_dir_all(d);
            }
        }
    }
    let _stop = Stop(state.clone());
    let env = exports(&text(&started.stdout));
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let mut snap = String::new();
    for _ in 0..50 {
        snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
        if snap.contains("Checkout") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(snap.starts_with("# CUP 0.1.0 | web |"), "{snap}");
    let send = id_of(&snap, &["btn \"Send\""]);
    let acted = c.call("click", json!({"element_id": send, "observe": true}));
    let acted_text = ok_text(&acted, "click Send");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    assert!(acted_text.contains("Sent!"), "{acted_text}");
    let after = ok_text(&c.call("snapshot", json!({})), "snapshot after");
    assert!(after.contains("doc \"Sent!\""), "{after}");

    // A pixel click on the checkbox, seen on the element under the point.
    let gift = id_of(&after, &["chk \"Gift wrap\""]);
    let line = line_of(&after, &gift);
    let xy: Vec<i64> = line
        .split_whitespace()
        .find(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
        .map(|t| t.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(xy.len(), 2, "{line}");
    let click = c.call("click", json!({"x": xy[0] + 5, "y": xy[1] + 5}));
    let click_text = ok_text(&click, "pixel click");
    assert!(click_text.contains("+checked"), "{click_text}");

    let shot = c.call("screenshot", json!({}));
    ok_text(&shot, "screenshot");
    assert_eq!(shot["images"][0]["png"], json!(true), "{shot}");
    let js = c.call(
        "page",
        json!({"action": "execute_javascript", "javascript": "document.title"}),
    );
    assert_eq!(ok_text(&js, "page js").trim(), "Sent!");
}
