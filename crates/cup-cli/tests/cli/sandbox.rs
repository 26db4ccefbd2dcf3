//! `cup sandbox start|run|env|stop` and `cup snapshot` across processes, on
//! a real private desktop: each command is its own process, as a user (or
//! an agent in a container) runs them.

use crate::common::{cup, exports, path_str, state_file, text};

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().starts_with('Z'))
        })
        .is_some_and(|zombie| !zombie)
}

/// Pids of processes carrying this sandbox's marker.
fn marked(id: &str) -> Vec<u32> {
    let needle = format!("CUP_SANDBOX_ID={id}");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == needle.as_bytes()))
        })
        .filter(|pid| alive(*pid))
        .collect()
}

#[test]
fn start_run_snapshot_stop_across_processes() {
    let state = state_file("cycle");
    let s = path_str(&state.0);

    let started = cup(&["sandbox", "start", "--state", s], &[]);
    assert!(started.status.success(), "start: {}", text(&started.stderr));
    let env = exports(&text(&started.stdout));
    let get = |k: &str| {
        env.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {k} in {env:?}"))
    };
    assert!(get("DISPLAY").starts_with(':'));
    assert!(get("AT_SPI_BUS_ADDRESS").starts_with("unix:path="));
    assert_eq!(get("CUP_SANDBOX_STATE"), s);
    let id = get("CUP_SANDBOX_ID");
    let mode = std::fs::metadata(&state.0)
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777)
        .ok();
    assert_eq!(mode, Some(0o600), "state file mode");
    // The start process has exited; its desktop runs on.
    let infrastructure = marked(&id);
    assert!(
        infrastructure.len() >= 4,
        "sandbox processes: {infrastructure:?}"
    );

    // A second start on the same state refuses and says what to do.
    let twice = cup(&["sandbox", "start", "--state", s], &[]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        text(&twice.stderr).contains("cup sandbox stop"),
        "{}",
        text(&twice.stderr)
    );

    let run = cup(
        &["sandbox", "run", "--state", s, "--", "gtk3-widget-factory"],
        &[],
    );
    assert!(run.status.success(), "run: {}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("gtk3-widget-factory pid "),
        "{}",
        text(&run.stdout)
    );

    let snap = cup(&["snapshot"], &env);
    assert!(snap.status.success(), "snapshot: {}", text(&snap.stderr));
    let out = text(&snap.stdout);
    assert!(
        out.starts_with("# CUP 0.1.0 | linux | 1920x1080\n"),
        "{out}"
    );
    assert!(out.contains("[e0] win \"gtk3-widget-factory\""), "{out}");
    assert!(out.contains("chk \"checkbutton\""), "{out}");

    let overview = cup(&["snapshot", "--scope", "overview"], &env);
    assert!(
        text(&overview.stdout).contains("* [fg] gtk3-widget-factory"),
        "{}",
        text(&overview.stdout)
    );

    let json = cup(&["snapshot", "--json"], &env);
    let envelope: serde_json::Value =
        serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("--json: {e}"));
    assert!(cup_protocol::schema::is_valid(&envelope));

    let again = cup(&["sandbox", "env", "--state", s], &[]);
    assert_eq!(exports(&text(&again.stdout)), env);

    let with_app = marked(&id);
    let stopped = cup(&["sandbox", "stop", "--state", s], &[]);
    assert!(stopped.status.success(), "stop: {}", text(&stopped.stderr));
    assert!(!state.0.exists(), "state file removed");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while with_app.iter().any(|p| alive(*p)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let left: Vec<u32> = with_app.into_iter().filter(|p| alive(*p)).collect();
    assert!(left.is_empty(), "still running after stop: {left:?}");

    // Nothing left to use: clear errors.
    let env_after = cup(&["sandbox", "env", "--state", s], &[]);
    assert!(!env_after.status.success());
    assert!(
        text(&env_after.stderr).contains("cup sandbox start"),
        "{}",
        text(&env_after.stderr)
    );
}

#[test]
fn bad_usage_is_one_clear_line() {
    let state = state_file("usage");
    let s = path_str(&state.0);
    let bad_size = cup(&["sandbox", "start", "--state", s, "--size", "big"], &[]);
    assert_eq!(bad_size.status.code(), Some(2));
    assert!(
        text(&bad_size.stderr).contains("WIDTHxHEIGHT"),
        "{}",
        text(&bad_size.stderr)
    );
    let no_sandbox = cup(
        &["sandbox", "run", "--state", s, "--", "gtk3-widget-factory"],
        &[],
    );
    assert!(!no_sandbox.status.success());
    let err = text(&no_sandbox.stderr);
    assert!(
        err.contains("cup sandbox start") && err.lines().count() == 1,
        "{err}"
    );
    let no_desktop = cup(
        &["snapshot"],
        &[
            ("DISPLAY".into(), String::new()),
            ("DBUS_SESSION_BUS_ADDRESS".into(), String::new()),
            ("XDG_RUNTIME_DIR".into(), "/nonexistent".into()),
        ],
    );
    assert!(!no_desktop.status.success());
    let err = text(&no_desktop.stderr);
    assert!(
        err.contains("cup sandbox start") && err.lines().count() == 1,
        "{err}"
    );
}
