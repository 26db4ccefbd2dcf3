//! `cup serve` as a process: probes while it starts and once it is up, the
//! lifetime and idle limits ending it with exit 0 and nothing left, the
//! env file, and one-line refusals of bad options and of a desktop that
//! cannot start. (The fleet bench, which the test command runs, drives
//! many at once through MCP, with SIGTERM, 401 and 409.)

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{cup, text};

/// Starts `cup serve ARGS` with a token; the child and its address.
fn serve(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .arg("serve")
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env("CUP_MCP_TOKEN", "serve-test-token")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cup serve: {e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut line = String::new();
    let _ = BufReader::new(stdout).read_line(&mut line);
    // cup serve: serving http://127.0.0.1:PORT/mcp
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    assert!(
        !line.contains(" token "),
        "an explicit token is never printed: {line}"
    );
    (child, addr)
}

/// `GET path`: status and body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return (0, String::new());
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map_or("", |b| b.1).to_owned();
    (status, body)
}

/// Waits (at most 60 s) until `/readyz` answers 200; returns when it
/// started waiting.
fn wait_ready(addr: &str) -> Instant {
    let started = Instant::now();
    while get(addr, "/readyz").0 != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "not ready in 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    started
}

/// Waits for the child's exit (at most `within`).
fn exit_of(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + within;
    loop {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        if Instant::now() >= until {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The live processes whose environment names `display` (the desktop's
/// X server, buses, apps).
fn sandbox_processes(display: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
                env.split(|b| *b == 0)
                    .any(|v| v == format!("DISPLAY={display}").as_bytes())
            }) && std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| !s.contains(") Z "))
        })
        .collect()
}

#[test]
fn probes_lifetime_and_env_file() {
    let dir = std::env::temp_dir().join(format!("cup-serve-test-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let env_file = dir.join("env");
    let env_arg = env_file.to_string_lossy().into_owned();
    let (mut child, addr) = serve(&[
        "--app",
        "gtk3-widget-factory",
        "--max-lifetime",
        "20",
        "--env-file",
        &env_arg,
    ]);
    // Alive at once; ready once the desktop and the app answer.
    assert_eq!(get(&addr, "/healthz"), (200, "ok\n".to_owned()));
    wait_ready(&addr);
    assert_eq!(get(&addr, "/readyz").1, "ready\n");
    let (status, metrics) = get(&addr, "/metrics");
    assert_eq!(status, 200);
    for line in ["cup_ready 1", "cup_sessions 0", "cup_sessions_max 1"] {
        assert!(metrics.lines().any(|l| l == line), "{line} in:\n{metrics}");
    }
    let (status, body) = get(&addr, "/nowhere");
    assert!(status == 404 && body.contains("/mcp"), "{status} {body}");
    // No token, no MCP.
    assert_eq!(get(&addr, "/mcp").0, 401);
    // The env file: the desktop, with its cookie, private to its owner.
    let env = std::fs::read_to_string(&env_file).unwrap_or_default();
    let mode = std::fs::metadata(&env_file)
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777);
    assert_eq!(mode.ok(), Some(0o600));
    let value = |name: &str| {
        env.lines()
            .find_map(|l| l.strip_prefix(&format!("export {name}=")))
            .unwrap_or_else(|| panic!("{name} missing in:\n{env}"))
            .trim_matches('\'')
            .to_owned()
    };
    let display = value("DISPLAY");
    assert!(std::path::Path::new(&value("XAUTHORITY")).exists());
    assert!(value("AT_SPI_BUS_ADDRESS").starts_with("unix:"));
    assert!(!sandbox_processes(&display).is_empty());
    // The lifetime ends it: exit 0, the env file and the desktop gone.
    let status = exit_of(&mut child, Duration::from_secs(40));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(!env_file.exists(), "the env file is removed");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        sandbox_processes(&display),
        Vec::<u32>::new(),
        "processes left on {display}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_idle_timeout_ends_a_server_nobody_uses() {
    let (mut child, addr) = serve(&["--idle-timeout", "2"]);
    let started = wait_ready(&addr);
    // Probes are no MCP requests: they do not keep it alive.
    let status = exit_of(&mut child, Duration::from_secs(30));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(started.elapsed() >= Duration::from_secs(1));
}

#[test]
fn bad_options_and_a_desktop_that_cannot_start_are_one_line_errors() {
    let no_token: &[(String, String)] = &[("CUP_MCP_TOKEN".into(), String::new())];
    for (args, needle) in [
        (&["serve", "--listen", "0.0.0.0:0"][..], "token"),
        (&["serve", "--max-sessions", "0"][..], "--max-sessions"),
        (&["serve", "--app", "gedit 'unclosed"][..], "unclosed quote"),
        (&["serve", "--size", "10x10"][..], "--size"),
        (&["serve", "--listen", "nowhere"][..], "--listen"),
        (
            &["serve", "--token-file", "/nonexistent/token"][..],
            "--token-file",
        ),
    ] {
        let out = cup(args, no_token);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle) && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    // The desktop cannot start: exit 1, one line naming the program, and
    // the desktop that was started is stopped again.
    let out = cup(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--app",
            "no-such-program-for-cup",
        ],
        no_token,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no-such-program-for-cup") && err.trim().lines().count() == 1,
        "{err}"
    );
}

#[test]
fn a_desktop_that_dies_ends_the_server_with_exit_1() {
    let (mut child, addr) = serve(&[]);
    wait_ready(&addr);
    // Its X server, a child of the server.
    let me = child.id().to_string();
    let xvfb: Vec<String> = std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|pid| {
                    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                        s.contains("(Xvfb)")
                            && s.rsplit(')')
                                .next()
                                .and_then(|r| r.split_whitespace().nth(1))
                                == Some(me.as_str())
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(xvfb.len(), 1, "the server's Xvfb: {xvfb:?}");
    let _ = Command::new("kill").args(["-KILL", &xvfb[0]]).status();
    let status = exit_of(&mut child, Duration::from_secs(30));
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{status:?}");
}

#[test]
fn sigterm_lets_the_call_in_flight_finish_then_exits_0() {
    let (mut child, addr) = serve(&[]);
    wait_ready(&addr);
    let url = format!("http://{addr}/mcp");
    let mut client = crate::mcp::Client::start(
        &["http".into(), url, "serve-test-token".into(), "1".into()],
        &[],
    );
    // A call of 2.5 s, and SIGTERM once the server has it in flight (its
    // metrics say so; the client may take a while to start on a loaded
    // machine).
    client.post(&serde_json::json!({"op": "call", "tool": "wait", "args": {"ms": 2500}}));
    let until = Instant::now() + Duration::from_secs(30);
    while !get(&addr, "/metrics")
        .1
        .lines()
        .any(|l| l == "cup_tool_calls_in_flight 1")
    {
        assert!(
            Instant::now() < until,
            "the call was not in flight within 30 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let term = Instant::now();
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    // Shutting down: not ready any more, no new session.
    let until = Instant::now() + Duration::from_secs(10);
    while get(&addr, "/readyz").0 != 503 {
        assert!(Instant::now() < until, "still ready 10 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
    let answer = client.read(Duration::from_secs(30));
    assert_eq!(
        answer.get("is_error"),
        Some(&serde_json::json!(false)),
        "{answer}"
    );
    assert!(
        term.elapsed() >= Duration::from_millis(1500),
        "the call was not waited for"
    );
    let status = exit_of(&mut child, Duration::from_secs(15));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(
        term.elapsed() < Duration::from_secs(10),
        "longer than the grace period"
    );
    assert_eq!(
        get(&addr, "/healthz").0,
        0,
        "still listening after the exit"
    );
}
