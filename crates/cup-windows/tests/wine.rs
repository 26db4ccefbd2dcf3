//! cup.exe live under Wine 10: the linked Windows build of cup (for
//! `x86_64-pc-windows-gnu`) run in the Debian 13 root that
//! `scripts/wine-root.sh` makes, on a private Xvfb inside it, against
//! Wine's own programs. Every process is started here and stopped by PID
//! (Xvfb) or `wineserver -k` (Wine); /proc is mounted into the root only
//! while a test runs. Nothing is skipped: a missing root or exe fails with
//! what to run.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One Wine desktop at a time (they share the prefix's wineserver).
static ONE: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    let root = PathBuf::from(
        std::env::var("CUP_WINE_ROOT").unwrap_or_else(|_| "/var/lib/cup/wine-trixie".into()),
    );
    assert!(
        root.join(".cup-wine-root-complete").exists(),
        "no Wine 10 root at {} — run scripts/wine-root.sh (as root) first",
        root.display()
    );
    root
}

fn exe() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/x86_64-pc-windows-gnu");
    let built = ["debug", "release"]
        .iter()
        .map(|p| dir.join(p).join("cup.exe"))
        .filter(|p| p.exists())
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok());
    built.unwrap_or_else(|| {
        panic!("no cup.exe — build it: cargo build -p cup-cli --target x86_64-pc-windows-gnu")
    })
}

/// A private X display and Wine session inside the root.
struct WineDesk {
    root: PathBuf,
    display: u32,
    xvfb: Child,
    apps: Vec<Child>,
    mounted: bool,
    _one: MutexGuard<'static, ()>,
}

impl WineDesk {
    fn start() -> WineDesk {
        let one = ONE.lock().unwrap_or_else(PoisonError::into_inner);
        let root = root();
        let proc_dir = root.join("proc");
        let mounted_already = Command::new("mountpoint")
            .arg("-q")
            .arg(&proc_dir)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !mounted_already {
            let ok = Command::new("mount")
                .args(["-t", "proc", "proc"])
                .arg(&proc_dir)
                .status()
                .expect("mount (run the tests as root)");
            assert!(ok.success(), "cannot mount /proc into {}", root.display());
        }
        // Free on the host too: abstract X sockets are shared with it. A
        // lock file whose X server is gone (one killed outright) is stale:
        // removed, as X servers themselves do.
        let sockets = std::fs::read_to_string("/proc/net/unix").unwrap_or_default();
        let display = (90..190)
            .find(|n| {
                !Path::new(&format!("/tmp/.X{n}-lock")).exists()
                    && free_in_root(&root, *n)
                    && !sockets.contains(&format!("@/tmp/.X11-unix/X{n}\n"))
            })
            .expect("a free display number");
        let xvfb = Command::new("env")
            .args(["-i", "/usr/sbin/chroot"])
            .arg(&root)
            .args([
                "/usr/bin/Xvfb",
                &format!(":{display}"),
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb in the root");
        let socket = root.join(format!("tmp/.X11-unix/X{display}"));
        let end = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(
                Instant::now() < end,
                "Xvfb :{display} did not start in the root"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::fs::copy(exe(), root.join("tmp/cup.exe")).expect("copy cup.exe into the root");
        WineDesk {
            root,
            display,
            xvfb,
            apps: Vec::new(),
            mounted: !mounted_already,
            _one: one,
        }
    }

    fn wine(&self) -> Command {
        let mut c = Command::new("env");
        c.arg("-i")
            .arg("HOME=/root")
            .arg("PATH=/usr/bin:/bin")
            // Wine converts command-line arguments from the Unix locale.
            .arg("LANG=C.UTF-8")
            .arg(format!("DISPLAY=:{}", self.display))
            .arg("WINEPREFIX=/wineprefix")
            .arg("WINEDLLOVERRIDES=mscoree,mshtml=;winedbg.exe=d")
            .arg("WINEDEBUG=-all")
            // cup's own debug log (stderr): which UIA events an action saw.
            .arg("CUP_LOG=cup_windows=debug")
            .arg("/usr/sbin/chroot")
            .arg(&self.root)
            .arg("wine");
        c
    }

    fn launch(&mut self, program: &str) {
        let child = self
            .wine()
            .arg(program)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("wine");
        self.apps.push(child);
    }

    /// Runs `cup.exe ARGS` and returns its output (within 60 s).
    fn cup(&self, args: &[&str]) -> Output {
        // Output goes to files, not pipes: Wine's helper processes (started
        // by the first program of a session) inherit the handles and keep
        // a pipe open long after cup.exe has exited.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let base = std::env::temp_dir().join(format!("cup-wine-{}-{n}", std::process::id()));
        let (out_path, err_path) = (base.with_extension("out"), base.with_extension("err"));
        let out_file = std::fs::File::create(&out_path).expect("stdout file");
        let err_file = std::fs::File::create(&err_path).expect("stderr file");
        let mut c = self.wine();
        c.arg("/tmp/cup.exe").args(args);
        c.stdin(Stdio::null())
            .stdout(Stdio::from(out_file))
            .stderr(Stdio::from(err_file));
        let mut child = c.spawn().expect("wine cup.exe");
        let end = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > end {
                let _ = child.kill();
                panic!("cup.exe {args:?} did not finish within 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let read = |p: &Path| {
            let bytes = std::fs::read(p).unwrap_or_default();
            let _ = std::fs::remove_file(p);
            bytes
        };
        Output {
            status,
            stdout: read(&out_path),
            stderr: read(&err_path),
        }
    }

    /// Polls `cup.exe ARGS` until its output contains `wanted`.
    fn cup_until(&self, args: &[&str], wanted: &str, secs: u64) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let out = self.cup(args);
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            if text.contains(wanted) {
                return text;
            }
            assert!(
                Instant::now() < end,
                "cup.exe {args:?} never showed {wanted:?}; last:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

/// Whether display `n` is free in the root: no lock file, or one whose
/// X server is gone (then it and the display's socket are removed).
fn free_in_root(root: &Path, n: u32) -> bool {
    let lock = root.join(format!("tmp/.X{n}-lock"));
    let Ok(text) = std::fs::read_to_string(&lock) else {
        return !lock.exists();
    };
    let alive = text
        .trim()
        .parse::<u32>()
        .is_ok_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if alive {
        return false;
    }
    let _ = std::fs::remove_file(root.join(format!("tmp/.X11-unix/X{n}")));
    std::fs::remove_file(&lock).is_ok()
}

impl Drop for WineDesk {
    fn drop(&mut self) {
        let _ = Command::new("env")
            .args([
                "-i",
                "HOME=/root",
                "PATH=/usr/bin:/bin",
                "WINEPREFIX=/wineprefix",
                "/usr/sbin/chroot",
            ])
            .arg(&self.root)
            .args(["wineserver", "-k"])
            .status();
        for app in &mut self.apps {
            let _ = app.kill();
            let _ = app.wait();
        }
        // SIGTERM first: Xvfb then removes its lock file and socket.
        let _ = Command::new("kill")
            .args(["-TERM", &self.xvfb.id().to_string()])
            .status();
        let end = Instant::now() + Duration::from_secs(3);
        while Instant::now() < end && matches!(self.xvfb.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
        let _ = free_in_root(&self.root, self.display);
        if self.mounted {
            let _ = Command::new("umount").arg(self.root.join("proc")).status();
        }
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: &Output, what: &str) -> String {
    assert!(out.status.success(), "{what} failed:\n{}", text(out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The envelope of a `snapshot --json`.
fn envelope(desk: &WineDesk, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["snapshot", "--json"];
    all.extend_from_slice(args);
    let out = ok(&desk.cup(&all), "snapshot --json");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}:\n{out}"))
}

fn nodes(v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
    if let Some(list) = v.as_array() {
        for n in list {
            out.push(n.clone());
            nodes(&n["children"], out);
        }
    }
}

/// Notepad's edit area (id, and its text: Wine exposes it as the name).
fn edit(desk: &WineDesk) -> (String, String) {
    let env = envelope(desk, &["--scope", "full", "--app", "Notepad"]);
    let mut all = Vec::new();
    nodes(&env["tree"], &mut all);
    let e = all
        .iter()
        .find(|n| n["role"] == "textbox")
        .unwrap_or_else(|| panic!("no textbox in notepad's tree:\n{env:#}"));
    let text = e["value"]
        .as_str()
        .or(e["name"].as_str())
        .unwrap_or("")
        .to_owned();
    (e["id"].as_str().unwrap_or("").to_owned(), text)
}

/// Polls until the edit area reads `wanted` (Wine's notepad takes the
/// keys asynchronously).
fn edit_reads(desk: &WineDesk, wanted: &str) -> String {
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        let (_, got) = edit(desk);
        if got == wanted || Instant::now() > end {
            return got;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The size and pixels of the PNG `file` cup.exe wrote to `C:\\`.
fn png_of(desk: &WineDesk, file: &str) -> (u32, u32, Vec<u8>) {
    let png = std::fs::read(desk.root.join("wineprefix/drive_c").join(file)).expect("the PNG");
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("pixels");
    (info.width, info.height, buf)
}

fn action(desk: &WineDesk, id: &str, verb: &str, value: Option<&str>) -> serde_json::Value {
    let mut args = vec!["action", id, verb, "--json"];
    if let Some(v) = value {
        args.extend_from_slice(&["--value", v]);
    }
    let out = ok(&desk.cup(&args), &format!("action {id} {verb}"));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}:\n{out}"))
}

#[test]
fn notepad_is_captured_typed_into_keyed_and_its_menu_opened() {
    let mut desk = WineDesk::start();
    desk.launch("notepad");
    let overview = desk.cup_until(
        &["snapshot", "--scope", "overview"],
        "Untitled - Notepad",
        60,
    );
    assert!(overview.contains("windows |"), "{overview}");

    // The window, its edit area (focused, editable) and status bar, and the
    // native facts behind them.
    let snap = desk.cup_until(
        &["snapshot", "--scope", "full", "--app", "Notepad"],
        "tbx",
        30,
    );
    assert!(snap.contains("[e0] win \"Untitled - Notepad\""), "{snap}");
    assert!(
        snap.contains("{edt,foc}"),
        "the edit area has the focus:\n{snap}"
    );
    let env = envelope(&desk, &["--scope", "full", "--app", "Notepad"]);
    let mut all = Vec::new();
    nodes(&env["tree"], &mut all);
    assert!(
        all.iter()
            .any(|n| n["role"] == "status" && n["name"] == "Ln 1, Col 1"),
        "the status bar (msctls_statusbar32):\n{env:#}"
    );
    ok(
        &desk.cup(&[
            "snapshot",
            "--scope",
            "full",
            "--app",
            "Notepad",
            "--native-dump",
            r"C:\wine-notepad.json",
        ]),
        "snapshot --native-dump",
    );
    let dump = std::fs::read_to_string(desk.root.join("wineprefix/drive_c/wine-notepad.json"))
        .expect("the dump");
    let dump: cup_windows::facts::NativeDump =
        serde_json::from_str(&dump).expect("the dump is a NativeDump");
    assert_eq!(dump.trees.len(), 1);
    assert!(
        dump.trees[0].root.as_ref().is_some_and(|r| r.count() >= 3),
        "{dump:?}"
    );

    // Typing arrives exactly (Unicode, a surrogate pair, CJK), through the
    // element's type action (keyboard: Wine's edit has no Value pattern).
    let (id, before) = edit(&desk);
    assert_eq!(before, "");
    let typed = "Hi été 😀 中 ok";
    let r = action(&desk, &id, "type", Some(typed));
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(edit_reads(&desk, typed), typed);
    assert_eq!(r["effect"], "confirmed", "the typed text was seen: {r}");

    // A key combo: select all, then delete.
    // Selecting changes nothing cup reads (no_change, exit 1); deleting
    // the selection changes the text (confirmed).
    let all = desk.cup(&["press", "ctrl+a"]);
    assert!(
        text(&all).contains("[no_change] Pressed ctrl+a"),
        "{}",
        text(&all)
    );
    let del = ok(&desk.cup(&["press", "delete"]), "press delete");
    assert!(del.contains("[confirmed] Pressed delete"), "{del}");
    assert_eq!(edit_reads(&desk, ""), "", "ctrl+a, delete cleared the text");

    // A menu opened by an element action: Wine exposes no menu bar items,
    // and no patterns, so a right click at the edit area's centre (the
    // input fallback) opens its context menu, which cup sees open.
    ok(
        &desk.cup(&["snapshot", "--scope", "full", "--app", "Notepad"]),
        "snapshot",
    );
    let (id, _) = edit(&desk);
    let r = action(&desk, &id, "rightclick", None);
    assert_eq!(r["effect"], "confirmed", "{r}");
    let changes = r["changes"].to_string();
    assert!(changes.contains("menu"), "a menu window opened: {r}");
    let esc = ok(&desk.cup(&["press", "escape"]), "press escape");
    assert!(esc.contains("[confirmed]"), "escape closed the menu: {esc}");

    // UIA events as evidence: Wine 10 raises focus-changed events (its
    // property and structure handlers are E_NOTIMPL). Tab in the Find
    // dialog moves the focus; the action saw the event, not only the
    // re-read.
    let find = ok(&desk.cup(&["press", "ctrl+f"]), "press ctrl+f");
    assert!(find.contains("Find"), "the Find dialog opened: {find}");
    let tab = desk.cup(&["press", "tab"]);
    let out = text(&tab);
    assert!(
        out.contains("[confirmed] Pressed tab") && out.contains("focus:"),
        "{out}"
    );
    assert!(
        out.contains("UIA events during the action") && out.contains("Focus"),
        "the focus-changed event arrived: {out}"
    );
    ok(&desk.cup(&["press", "escape"]), "press escape (Find)");

    // A screenshot of the whole screen: a PNG of its size with content.
    ok(
        &desk.cup(&["screenshot", "-o", r"C:\shot.png"]),
        "screenshot",
    );
    let (width, height, buf) = png_of(&desk, "shot.png");
    assert_eq!((width, height), (1280, 1024));
    let mut colours: Vec<&[u8]> = buf.chunks(3).collect();
    colours.sort();
    colours.dedup();
    assert!(
        colours.len() > 2,
        "the screenshot shows notepad, not one colour"
    );

    // A window's screenshot: the frame cup reports, with content. (Wine's
    // PrintWindow sends WM_PRINT with a device context of cup's process
    // and draws nothing, so here the window is copied from the screen;
    // on Windows it draws itself, covered or not.)
    let notepad = envelope(&desk, &["--scope", "full", "--app", "Notepad"]);
    let frame = &notepad["tree"][0]["bounds"];
    ok(
        &desk.cup(&["screenshot", "--window", "Notepad", "-o", r"C:\window.png"]),
        "screenshot --window",
    );
    let (width, height, buf) = png_of(&desk, "window.png");
    assert_eq!(
        (u64::from(width), u64::from(height)),
        (
            frame["w"].as_u64().unwrap_or(0),
            frame["h"].as_u64().unwrap_or(0)
        ),
        "the window's frame: {frame}"
    );
    let mut colours: Vec<&[u8]> = buf.chunks(3).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 2, "the window's screenshot shows notepad");
    // Typing refuses, in one line, when the target is not in front: here
    // notepad's Open dialog (modal) holds notepad disabled.
    // The press sees the dialog open: Wine's file dialog lists a folder
    // before it shows, and the watch waits while notepad is busy.
    let pressed = text(&desk.cup(&["press", "ctrl+o"]));
    assert!(
        pressed.contains("[confirmed] Pressed ctrl+o")
            && pressed
                .lines()
                .any(|l| l.trim_start().starts_with("windows:") && l.contains("-> Open")),
        "the press saw the Open dialog open: {pressed}"
    );
    desk.cup_until(&["snapshot", "--scope", "overview"], "[fg] Open", 30);
    let (id, before) = edit(&desk);
    let typed = desk.cup(&["action", &id, "type", "--value", "zz"]);
    let said = text(&typed);
    assert!(!typed.status.success(), "typing was refused: {said}");
    let line = said
        .lines()
        .find(|l| l.starts_with("cup: error:"))
        .unwrap_or_else(|| panic!("one error line: {said}"));
    assert!(
        line.contains(
            "'Untitled - Notepad' (notepad.exe) has 'Open' (notepad.exe) open in front of it"
        ) && line.contains("nothing was typed"),
        "{line}"
    );
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(edit(&desk).1, before, "nothing was typed into notepad");
    let dialog = ok(
        &desk.cup(&["snapshot", "--scope", "full", "--app", "Open"]),
        "snapshot of the Open dialog",
    );
    assert!(
        dialog.contains("*.txt") && !dialog.contains("zz"),
        "nor into the dialog:\n{dialog}"
    );
}

#[test]
fn cup_mcp_answers_a_real_client_under_wine() {
    let mut desk = WineDesk::start();
    desk.launch("notepad");
    desk.cup_until(
        &["snapshot", "--scope", "overview"],
        "Untitled - Notepad",
        60,
    );
    let python =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/mcp-client/bin/python");
    assert!(
        python.exists(),
        "the MCP client is not installed; run scripts/install-mcp-client.sh"
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cup-cli/tests/mcp_client.py");
    let server = desk.wine();
    let mut argv: Vec<String> = vec![server.get_program().to_string_lossy().into_owned()];
    argv.extend(server.get_args().map(|a| a.to_string_lossy().into_owned()));
    argv.extend(["/tmp/cup.exe".to_owned(), "mcp".to_owned()]);
    let mut client = Command::new(python)
        .arg(script)
        .arg("stdio")
        .arg("--")
        .args(&argv)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the MCP client");
    {
        use std::io::Write;
        let mut stdin = client.stdin.take().expect("stdin");
        let commands = [
            serde_json::json!({"op": "list", "client": 0}),
            serde_json::json!({"op": "call", "tool": "snapshot", "args": {}, "client": 0}),
            serde_json::json!({"op": "quit"}),
        ];
        for c in commands {
            writeln!(stdin, "{c}").expect("command");
        }
    }
    let end = Instant::now() + Duration::from_secs(90);
    while client.try_wait().expect("wait").is_none() {
        if Instant::now() > end {
            let _ = client.kill();
            panic!("the MCP client did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = client.wait_with_output().expect("output");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let all = format!("{lines:#?}\n{}", String::from_utf8_lossy(&out.stderr));
    let tools = lines
        .iter()
        .find_map(|l| l["tools"].as_array())
        .unwrap_or_else(|| panic!("no tools/list answer:\n{all}"));
    assert!(tools.len() > 10, "{all}");
    assert!(
        tools
            .iter()
            .any(|t| t == "snapshot" || t["name"] == "snapshot"),
        "{all}"
    );
    let snap = lines
        .iter()
        .find(|l| l.get("is_error").is_some())
        .unwrap_or_else(|| panic!("no snapshot answer:\n{all}"));
    assert_eq!(snap["is_error"], false, "{all}");
    let text = snap["text"].as_str().unwrap_or("");
    assert!(
        text.contains("windows") && text.contains("Notepad"),
        "{all}"
    );
}

/// The Wine processes of this desktop whose `/proc/PID/comm` is `comm`
/// (Wine names its processes after their .exe), by their `DISPLAY`.
fn wine_processes(desk: &WineDesk, comm: &str) -> Vec<u32> {
    let display = format!("DISPLAY=:{}", desk.display);
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == comm)
                && std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|b| *b == 0).any(|kv| kv == display.as_bytes()))
        })
        .collect()
}

/// Sends `signal` to `pid` (kill(1)).
fn signal(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .expect("kill");
    assert!(ok.success(), "kill -{signal} {pid}");
}

/// A full snapshot of 12 windows (ten notepads, regedit, winecfg) reads
/// every window (the worker pool has 8 threads: windows 9 and up used to
/// fail with "all 8 worker threads are stuck; restart cup"); with one
/// notepad's process stopped, a snapshot still comes back within its
/// deadline with that window marked as not answering and every other
/// window read, and the next one too (the stuck worker is counted, not
/// mistaken for a busy one).
#[test]
fn a_full_snapshot_of_twelve_windows_reads_them_all_even_with_one_hung() {
    let mut desk = WineDesk::start();
    for _ in 0..10 {
        desk.launch("notepad");
    }
    desk.launch("regedit");
    desk.launch("winecfg");
    let end = Instant::now() + Duration::from_secs(120);
    let listed = loop {
        let out = desk.cup(&["snapshot", "--scope", "overview"]);
        let text = text(&out);
        let notepads = text.matches("Untitled - Notepad").count();
        if notepads >= 10 && text.contains("Registry Editor") && text.contains("Wine configuration")
        {
            break text;
        }
        assert!(
            Instant::now() < end,
            "the 12 windows did not all show within 120 s:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    let windows_of = |env: &serde_json::Value| env["tree"].as_array().cloned().unwrap_or_default();
    // Every window has its tree: a root with children, none an error.
    let env = envelope(&desk, &["--scope", "full"]);
    let roots = windows_of(&env);
    assert!(roots.len() >= 12, "{listed}\n{env:#}");
    let empty: Vec<String> = roots
        .iter()
        .filter(|r| r["children"].as_array().is_none_or(Vec::is_empty))
        .map(|r| r["name"].to_string())
        .collect();
    assert!(empty.is_empty(), "windows without a tree: {empty:?}");
    let full = ok(&desk.cup(&["snapshot", "--scope", "full"]), "full snapshot");
    assert!(!full.contains("restart cup"), "{full}");

    // One notepad's process stopped: it answers nothing.
    let notepads = wine_processes(&desk, "notepad.exe");
    assert!(notepads.len() >= 10, "notepad processes: {notepads:?}");
    signal(notepads[0], "STOP");
    for round in 1..=2 {
        let started = Instant::now();
        let out = desk.cup(&["snapshot", "--scope", "full"]);
        let took = started.elapsed();
        let snap = text(&out);
        assert!(!snap.contains("restart cup"), "round {round}:\n{snap}");
        assert!(
            snap.contains("did not answer") || snap.contains("no answer"),
            "round {round}: the stopped window is said not to answer:\n{snap}"
        );
        // The others are read: notepad's edit areas and regedit's tree.
        assert!(
            snap.matches("tbx").count() >= 9,
            "round {round}: nine notepads' edit areas:\n{snap}"
        );
        assert!(
            took < Duration::from_secs(30),
            "round {round} took {took:?}"
        );
    }
    signal(notepads[0], "CONT");
}
