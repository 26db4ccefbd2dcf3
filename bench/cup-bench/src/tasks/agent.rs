//! The "agent" of the task suite: the official MCP client (the Python
//! SDK, `crates/cup-cli/tests/mcp_client.py`) talking to `cup mcp` over
//! stdio, driven one JSON line per tool call. A plan calls tools the way an
//! agent would (snapshot, `find` by words, act on the id `find` returned,
//! read the next snapshot), and every call is counted: tool calls, acting
//! steps and the o200k tokens of every result the agent read.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use cup_sandbox::Sandbox;
use serde_json::{json, Value};

/// How long one tool call may take before the plan fails.
const CALL_DEADLINE: Duration = Duration::from_secs(150);

/// The Python of the MCP client venv (scripts/install-mcp-client.sh).
fn client_python() -> PathBuf {
    std::env::var_os("CUP_MCP_CLIENT_VENV")
        .map_or_else(
            || crate::workspace_root().join("target").join("mcp-client"),
            PathBuf::from,
        )
        .join("bin")
        .join("python")
}

/// One element line of a `find` or snapshot result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// `e12`.
    pub id: String,
    /// The compact role (`btn`, `tbx`, `cel`).
    pub role: String,
    /// The name, unescaped ("" when it has none).
    pub name: String,
    /// `val="..."`, unescaped.
    pub value: Option<String>,
    /// The whole line.
    pub line: String,
}

/// A quoted compact string starting at `s` (after its opening quote):
/// the text and the rest after the closing quote.
fn quoted(s: &str) -> (String, &str) {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, e)) = chars.next() {
                    out.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
            }
            '"' => return (out, &s[i + 1..]),
            other => out.push(other),
        }
    }
    (out, "")
}

impl Found {
    /// Parses `[e3] btn "Name" 1,2 3x4 {..} [..] val="v"`; `None` for
    /// comment and header lines.
    pub fn parse(line: &str) -> Option<Found> {
        let rest = line.trim_start().strip_prefix('[')?;
        let (id, rest) = rest.split_once(']')?;
        if !id.starts_with('e') || !id[1..].chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let rest = rest.trim_start();
        let (role, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let rest = rest.trim_start();
        let (name, rest) = match rest.strip_prefix('"') {
            Some(r) => quoted(r),
            None => (String::new(), rest),
        };
        let value = rest.find(" val=\"").map(|i| quoted(&rest[i + 6..]).0);
        Some(Found {
            id: id.to_owned(),
            role: role.to_owned(),
            name,
            value,
            line: line.trim().to_owned(),
        })
    }

    /// The elements of a compact text, in order.
    pub fn all(text: &str) -> Vec<Found> {
        text.lines().filter_map(Found::parse).collect()
    }
}

/// One tool result as the client saw it.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The result's text.
    pub text: String,
    /// The tool said it failed.
    pub is_error: bool,
}

/// The MCP client with its counters.
#[derive(Debug)]
pub struct Agent {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every tool call.
    pub calls: usize,
    /// Calls that act (action, press, open_app).
    pub steps: usize,
    /// o200k tokens of every result read.
    pub tokens: usize,
    /// The calls so far, one line each (for a failure's report).
    pub transcript: Vec<String>,
    /// The last snapshot's text.
    pub last_snapshot: String,
}

impl Agent {
    /// Starts the client, which starts `cup mcp` (the binary `cup`) with
    /// the sandbox's environment plus `env`, its settings under `scratch`.
    ///
    /// # Errors
    ///
    /// The client is not installed, does not start or does not get ready.
    pub fn start(
        sandbox: &Sandbox,
        cup: &Path,
        scratch: &Path,
        env: &[(String, String)],
    ) -> Result<Agent, String> {
        let python = client_python();
        if !python.exists() {
            return Err(format!(
                "the MCP client is not installed ({} missing): run scripts/install-mcp-client.sh",
                python.display()
            ));
        }
        let script = crate::workspace_root()
            .join("crates")
            .join("cup-cli")
            .join("tests")
            .join("mcp_client.py");
        let log = std::fs::File::create(scratch.join("cup-mcp.stderr.log")).map_err(|e| {
            format!(
                "cannot create the client's log in {}: {e}",
                scratch.display()
            )
        })?;
        let mut command = sandbox.command(&python);
        command
            .arg(&script)
            .arg("stdio")
            .arg("--")
            .arg(cup)
            .arg("mcp")
            .env("CUP_CONFIG", scratch.join("cup-config.json"))
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start the MCP client {}: {e}", python.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("the MCP client has no pipes".into());
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut agent = Agent {
            child,
            stdin,
            lines,
            calls: 0,
            steps: 0,
            tokens: 0,
            transcript: Vec::new(),
            last_snapshot: String::new(),
        };
        let ready = agent.read(Duration::from_secs(60))?;
        if ready.get("ready").is_none() {
            return Err(format!("the MCP client did not get ready: {ready}"));
        }
        Ok(agent)
    }

    fn read(&mut self, within: Duration) -> Result<Value, String> {
        let line = self
            .lines
            .recv_timeout(within)
            .map_err(|e| format!("no answer from the MCP client within {within:?}: {e}"))?;
        serde_json::from_str(&line).map_err(|e| format!("bad answer from the MCP client: {e}"))
    }

    /// Calls `tool` with `args`: counts the call and the tokens of its
    /// text. A tool error is a [`Reply`] with `is_error`, not an `Err`.
    ///
    /// # Errors
    ///
    /// The client failed or did not answer in time.
    pub fn call(&mut self, tool: &str, args: Value) -> Result<Reply, String> {
        let started = Instant::now();
        let cmd = json!({"op": "call", "tool": tool, "args": args});
        writeln!(self.stdin, "{cmd}").map_err(|e| format!("the MCP client's stdin: {e}"))?;
        let answer = self.read(CALL_DEADLINE)?;
        if let Some(e) = answer.get("exception") {
            return Err(format!("{tool} {args}: the client failed: {e}"));
        }
        let text = answer
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let is_error = answer
            .get("is_error")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.calls += 1;
        if matches!(tool, "action" | "open_app") {
            self.steps += 1;
        }
        self.tokens += crate::tokens::count(&text)?;
        // An action's result with its observed changes; other results by
        // their first line.
        let shown = if tool == "action" { 8 } else { 1 };
        let head: Vec<String> = text
            .lines()
            .take(shown)
            .map(|l| l.chars().take(160).collect())
            .collect();
        self.transcript.push(format!(
            "{tool} {args} -> {}{} ({:.0} ms)",
            if is_error { "ERROR " } else { "" },
            head.join("\n    "),
            started.elapsed().as_secs_f64() * 1e3
        ));
        Ok(Reply { text, is_error })
    }

    /// A foreground snapshot; its text.
    ///
    /// # Errors
    ///
    /// The call failed or the tool said so.
    pub fn snapshot(&mut self) -> Result<String, String> {
        self.snapshot_with(json!({}))
    }

    /// A snapshot with these arguments (`scope`, `app`, `query`); its text.
    ///
    /// # Errors
    ///
    /// The call failed or the tool said so.
    pub fn snapshot_with(&mut self, args: Value) -> Result<String, String> {
        let r = self.call("snapshot", args)?;
        if r.is_error {
            return Err(format!("snapshot failed: {}", r.text));
        }
        self.last_snapshot = r.text.clone();
        Ok(r.text)
    }

    /// `find` in the last snapshot; the matches, best first.
    ///
    /// # Errors
    ///
    /// The call failed or the tool said so.
    pub fn find(&mut self, args: Value) -> Result<Vec<Found>, String> {
        let r = self.call("find", args.clone())?;
        if r.is_error {
            return Err(format!("find {args} failed: {}", r.text));
        }
        Ok(Found::all(&r.text))
    }

    /// The best match of `find` whose role is `role` (compact, e.g. `btn`)
    /// when given.
    ///
    /// # Errors
    ///
    /// Nothing matched.
    pub fn find_one(&mut self, args: Value, role: Option<&str>) -> Result<Found, String> {
        let found = self.find(args.clone())?;
        found
            .into_iter()
            .find(|f| role.is_none_or(|r| f.role == r))
            .ok_or_else(|| {
                format!(
                    "find {args} matched no {}; the last snapshot:\n{}",
                    role.unwrap_or("element"),
                    self.last_snapshot
                )
            })
    }

    /// Acts on `id`; the result's text.
    ///
    /// # Errors
    ///
    /// The call failed or cup reported the action failed.
    pub fn act(&mut self, id: &str, verb: &str, value: Option<&str>) -> Result<String, String> {
        let mut args = json!({"action": verb, "element_id": id});
        if let Some(v) = value {
            args["value"] = json!(v);
        }
        let r = self.call("action", args)?;
        if r.is_error {
            return Err(format!("{verb} on {id} failed: {}", r.text));
        }
        Ok(r.text)
    }

    /// Presses a key combo (`ctrl+s`); the result's text.
    ///
    /// # Errors
    ///
    /// The call failed or cup reported the press failed.
    pub fn press(&mut self, keys: &str) -> Result<String, String> {
        let r = self.call("action", json!({"action": "press", "keys": keys}))?;
        if r.is_error {
            return Err(format!("press {keys} failed: {}", r.text));
        }
        Ok(r.text)
    }

    /// Waits (the `wait` tool, which snapshots until an element matching
    /// `query` shows; `find` then searches that snapshot); the matches it
    /// lists.
    ///
    /// # Errors
    ///
    /// It did not show within `timeout_ms`.
    pub fn wait_for(&mut self, query: &str, timeout_ms: u64) -> Result<String, String> {
        let r = self.call("wait", json!({"query": query, "timeout_ms": timeout_ms}))?;
        if r.is_error {
            return Err(format!(
                "wait for {query:?} failed: {}; the last snapshot:\n{}",
                r.text, self.last_snapshot
            ));
        }
        Ok(r.text)
    }

    /// Takes snapshots until `done` holds for one (at most `tries`), the
    /// way an agent checks a result; that snapshot's text.
    ///
    /// # Errors
    ///
    /// It never held.
    pub fn snapshot_until(
        &mut self,
        what: &str,
        tries: usize,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        for _ in 0..tries {
            let text = self.snapshot()?;
            if done(&text) {
                return Ok(text);
            }
            // Another look after the app's next frame, not a fixed wait.
            let _ = self.call("wait", json!({"ms": 100}))?;
        }
        Err(format!(
            "{what}: not seen in {tries} snapshots; the last one:\n{}",
            self.last_snapshot
        ))
    }

    /// Ends the client (and with it `cup mcp`).
    pub fn stop(mut self) {
        let _ = writeln!(self.stdin, "{}", json!({"op": "quit"}));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::Found;

    #[test]
    fn parses_element_lines() {
        let f = Found::parse(r#"  [e803] cel "A1" 98,188 61x17 {foc} [sel] val="It\"em""#);
        let f = f.unwrap_or_else(|| panic!("not parsed"));
        assert_eq!((f.id.as_str(), f.role.as_str()), ("e803", "cel"));
        assert_eq!(f.name, "A1");
        assert_eq!(f.value.as_deref(), Some("It\"em"));
        let nameless = Found::parse(r#"[e956] tbx 61,155 126x34 {edt} [clk,sv,typ] val="A1""#);
        let nameless = nameless.unwrap_or_else(|| panic!("not parsed"));
        assert_eq!(
            (nameless.name.as_str(), nameless.value.as_deref()),
            ("", Some("A1"))
        );
        assert!(Found::parse("# 3 match(es)").is_none());
        assert!(Found::parse("  # 24 items in closed menu e7").is_none());
    }
}
