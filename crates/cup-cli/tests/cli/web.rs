//! `cup browser start`, then `cup snapshot`, `cup action`, `cup web`,
//! `cup screenshot` against it in separate processes, then `cup browser
//! stop`: the web target end to end through the binary.

use std::io::Write as _;
use std::net::TcpListener;

use crate::common::{cup, exports, path_str, text};

/// Serves one page on a loopback port (for the life of the test).
fn serve(page: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let port = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("addr: {e}"))
        .port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    port
}

struct Stop(std::path::PathBuf);

impl Drop for Stop {
    fn drop(&mut self) {
        let _ = std::process::Command::new(env!("CARGO_BIN_EXE_cup"))
            .args(["browser", "stop", "--state"])
            .arg(&self.0)
            .output();
        if let Some(d) = self.0.parent() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

#[test]
fn browser_snapshot_action_script_screenshot_stop() {
    let port = serve(
        r#"<!doctype html><title>Shop</title><h1>Checkout</h1>
<label>Name <input></label><button onclick="this.textContent='Sent!'">Send</button>"#,
    );
    let dir = std::env::temp_dir().join(format!("cup-cli-web-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let state = Stop(dir.join("browser.json"));
    let url = format!("http://127.0.0.1:{port}/");
    let started = cup(
        &[
            "browser",
            "start",
            "--headless",
            &url,
            "--state",
            path_str(&state.0),
        ],
        &[],
    );
    assert!(started.status.success(), "start: {}", text(&started.stderr));
    let mut env = exports(&text(&started.stdout));
    assert!(
        env.iter().any(|(k, v)| k == "CUP_PLATFORM" && v == "web"),
        "{env:?}"
    );
    env.push((
        "CUP_SNAPSHOT_STATE".into(),
        path_str(&dir.join("last.json")).to_owned(),
    ));

    let mut snap = String::new();
    for _ in 0..50 {
        let out = cup(&["snapshot"], &env);
        snap = text(&out.stdout);
        if snap.contains("Checkout") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(snap.contains("# CUP 0.1.0 | web |"), "{snap}");
    let line = snap
        .lines()
        .find(|l| l.contains("btn \"Send\""))
        .unwrap_or_else(|| panic!("no Send button:\n{snap}"));
    // `x,y WxH` after the name: the web node has real bounds.
    let numeric = |t: &str, sep: char| {
        let parts: Vec<&str> = t.split(sep).collect();
        parts.len() == 2
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '-'))
    };
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert!(
        tokens
            .windows(2)
            .any(|w| numeric(w[0], ',') && numeric(w[1], 'x')),
        "no bounds: {line}"
    );
    let id = line
        .split(['[', ']'])
        .nth(1)
        .unwrap_or_else(|| panic!("no id in {line}"))
        .to_owned();
    let acted = cup(&["action", &id, "click"], &env);
    let out = text(&acted.stdout);
    assert!(acted.status.success(), "{out}{}", text(&acted.stderr));
    assert!(
        out.starts_with("ok [confirmed]") && out.contains("Sent!"),
        "{out}"
    );

    // The native dump names the Send button's id with its page facts.
    let dump_path = dir.join("dump.json");
    let dumped = cup(&["snapshot", "--native-dump", path_str(&dump_path)], &env);
    assert!(dumped.status.success(), "{}", text(&dumped.stderr));
    let dump: serde_json::Value = serde_json::from_slice(
        &std::fs::read(&dump_path).unwrap_or_else(|e| panic!("no dump written: {e}")),
    )
    .unwrap_or_else(|e| panic!("the dump is not JSON: {e}"));
    assert_eq!(dump["platform"], "web");
    let native = dump["ids"][id.as_str()]
        .as_str()
        .unwrap_or_else(|| panic!("{id} is not in the dump's ids: {}", dump["ids"]));
    // A walker reference (page/target/frame:walker-id): the walk in the
    // dump numbers its nodes by deltas; the id's node is the button.
    let wid: i64 = native
        .rsplit(':')
        .next()
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("not a walker node reference: {native}"));
    let walk = &dump["pages"][0]["walker"]["frames"][0]["walk"];
    let strings = walk["strings"]
        .as_array()
        .unwrap_or_else(|| panic!("no walk in the dump: {}", dump["pages"][0]));
    let mut at = 0;
    let index = walk["id"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .position(|d| {
            at += d.as_i64().unwrap_or(0);
            at == wid
        })
        .unwrap_or_else(|| panic!("walker id {wid} is not in the dump's walk"));
    let role = walk["role"][index]
        .as_u64()
        .and_then(|r| strings.get(usize::try_from(r).unwrap_or(usize::MAX)));
    assert_eq!(
        role.and_then(|r| r.as_str()),
        Some("button"),
        "the button's node is in the dump"
    );

    let title = cup(&["web", "js", "document.title"], &env);
    assert_eq!(text(&title.stdout).trim(), "\"Shop\"");
    let png = dir.join("page.png");
    let shot = cup(&["screenshot", "-o", path_str(&png)], &env);
    assert!(shot.status.success(), "{}", text(&shot.stderr));
    assert!(std::fs::read(&png).is_ok_and(|b| b.starts_with(b"\x89PNG")));

    let stopped = cup(&["browser", "stop", "--state", path_str(&state.0)], &[]);
    assert!(stopped.status.success(), "{}", text(&stopped.stderr));
    let after = cup(&["snapshot"], &env);
    assert_eq!(after.status.code(), Some(1));
    assert!(
        text(&after.stderr).contains("cup browser start"),
        "{}",
        text(&after.stderr)
    );
}
