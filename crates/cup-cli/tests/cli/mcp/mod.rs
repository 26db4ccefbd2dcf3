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
pub(crate) struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    pub(crate) fn start(mode_args: &[String], env: &[(String, String)]) -> Client {
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

    pub(crate) fn read(&mut self, within: Duration) -> Value {
        let line = self
            .lines
            .recv_timeout(within)
            .unwrap_or_else(|e| panic!("no answer from the MCP client within {within:?}: {e}"));
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad answer {line}: {e}"))
    }

    /// Sends a command without waiting for its answer ([`Client::read`]).
    pub(crate) fn post(&mut self, cmd: &Value) {
        writeln!(self.stdin, "{cmd}").unwrap_or_else(|e| panic!("client stdin: {e}"));
    }

    fn send(&mut self, cmd: &Value) -> Value {
        self.post(cmd);
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
    desktop_with(name, &[])
}

/// [`desktop`] with more `cup sandbox start` arguments (`--wayland`).
fn desktop_with(
    name: &str,
    start: &[&str],
) -> (crate::common::StateFile, Vec<(String, String)>, u32) {
    let state = state_file(name);
    let s = path_str(&state.0).to_owned();
    let mut args = vec!["sandbox", "start", "--state", &s];
    args.extend_from_slice(start);
    let started = cup(&args, &[]);
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

/// Stops a browser started by [`headless_page`] and removes its folder.
struct Browser(PathBuf);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = cup(&["browser", "stop", "--state", path_str(&self.0)], &[]);
        if let Some(d) = self.0.parent() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// A headless Chromium (`cup browser start --headless`) showing `html`
/// from a file in a folder of its own named after `name`: the guard that
/// stops it, its environment, and the folder.
fn headless_page(name: &str, html: &str) -> (Browser, Vec<(String, String)>, PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let page = dir.join("page.html");
    std::fs::write(&page, html).unwrap_or_else(|e| panic!("{e}"));
    let url = format!("file://{}", path_str(&page));
    headless_url(dir, &url)
}

/// A headless Chromium on `url`, its state in `dir`.
fn headless_url(dir: PathBuf, url: &str) -> (Browser, Vec<(String, String)>, PathBuf) {
    let _ = std::fs::create_dir_all(&dir);
    let state = dir.join("browser.json");
    let started = cup(
        &[
            "browser",
            "start",
            "--headless",
            url,
            "--state",
            path_str(&state),
        ],
        &[],
    );
    assert!(started.status.success(), "{}", text(&started.stderr));
    (Browser(state), exports(&text(&started.stdout)), dir)
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

mod android;
mod arguments;
mod config;
mod desktop;
mod frames;
mod http;
mod recording;
mod visual;
mod web;
