//! Real sandboxes: Xvfb, dbus-daemon, at-spi2-core, GTK/Qt/Chromium apps.
//! Nothing is mocked, and nothing is skipped: a missing program fails the
//! test with the package to install (see scripts/install-deps.sh).
//! Timings are printed to stderr (visible with `--nocapture`).

#![allow(clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cup_sandbox::{
    Browser, BrowserOptions, LaunchOptions, Sandbox, SandboxError, SandboxOptions, MARKER_ENV,
};

fn start() -> Sandbox {
    start_with(SandboxOptions::default())
}

fn start_with(options: SandboxOptions) -> Sandbox {
    match Sandbox::start(options) {
        Ok(sandbox) => sandbox,
        Err(e) => panic!("sandbox did not start: {e}"),
    }
}

fn launch(sandbox: &Sandbox, program: &str, args: &[&str]) -> cup_sandbox::App {
    match sandbox.launch(program, args) {
        Ok(app) => app,
        Err(e) => panic!("launching {program} failed: {e}"),
    }
}

/// A fresh directory for a test's own files.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cup-sandbox-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// `/proc/PID/stat` state letter, `None` once the pid is gone.
fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.get(stat.rfind(')')? + 1..)?;
    after.split_whitespace().next()?.chars().next()
}

/// Waits until none of `pids` exists any more, not even as a zombie.
/// Processes reparented to PID 1 (the registry daemon, the children of a
/// sandbox started by another process) are reaped by PID 1, which takes
/// up to ~1.5 s on the test machine; hence the generous deadline.
fn assert_all_gone(pids: &[u32], what: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left: Vec<String> = pids
            .iter()
            .filter_map(|&pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let tasks: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/task"))
                    .map(|d| {
                        d.filter_map(|t| {
                            let t = t.ok()?;
                            let s = std::fs::read_to_string(t.path().join("stat")).ok()?;
                            Some(s.split(' ').take(3).collect::<Vec<_>>().join(" "))
                        })
                        .collect()
                    })
                    .unwrap_or_default();
                Some(format!("{} tasks {tasks:?}", stat.trim_end()))
            })
            .collect();
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: processes still present (/proc/PID/stat): {left:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Processes whose environment carries `CUP_SANDBOX_ID=<id>`.
fn marked_processes(id: &str) -> Vec<u32> {
    let entry = format!("{MARKER_ENV}={id}").into_bytes();
    std::fs::read_dir("/proc")
        .expect("read /proc")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| proc_state(*pid).is_some_and(|s| s != 'Z'))
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|b| b.split(|&c| c == 0).any(|e| e == entry))
        })
        .collect()
}

fn xprop_root(sandbox: &Sandbox, property: &str) -> String {
    let output = sandbox
        .command("xprop")
        .args(["-root", property])
        .output()
        .expect("xprop runs (apt-get install x11-utils)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn two_sandboxes_at_once_launch_and_stop_everything() {
    let t0 = Instant::now();
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(start);
        let b = s.spawn(start);
        (a.join().expect("start a"), b.join().expect("start b"))
    });
    let started = t0.elapsed();
    assert_ne!(a.display(), b.display());
    assert_ne!(a.session_bus_address(), b.session_bus_address());
    assert_ne!(a.a11y_address(), b.a11y_address());
    assert_ne!(a.state_dir(), b.state_dir());
    assert!(a.display().starts_with(':'));
    for sandbox in [&a, &b] {
        let env = sandbox.env();
        let get = |name: &str| {
            env.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{name} missing from env()"))
        };
        assert_eq!(get("DISPLAY"), sandbox.display());
        assert_eq!(get("AT_SPI_BUS_ADDRESS"), sandbox.a11y_address());
        assert_eq!(get("QT_ACCESSIBILITY"), "1");
        let runtime = PathBuf::from(get("XDG_RUNTIME_DIR"));
        assert!(runtime.starts_with(sandbox.state_dir()));
        let mode = std::fs::metadata(&runtime)
            .expect("runtime dir")
            .permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o700
        );
        // Every recorded process runs: Xvfb, 2 dbus-daemons, launcher, registry.
        let pids = sandbox.pids();
        assert_eq!(pids.len(), 5, "recorded pids {pids:?}");
        for pid in pids {
            assert!(
                proc_state(pid).is_some_and(|s| s != 'Z'),
                "pid {pid} not running"
            );
        }
    }

    let t1 = Instant::now();
    let app = launch(&a, "gtk3-widget-factory", &[]);
    let launched = t1.elapsed();
    assert!(app.bus_name.starts_with(':'), "bus name {}", app.bus_name);
    assert_eq!(app.a11y_pid, app.pid);
    assert_eq!(app.name, "gtk3-widget-factory");
    assert!(a.pids().contains(&app.pid));
    assert_eq!(a.apps(), vec![app.clone()]);
    // The other sandbox does not see it.
    assert!(b.apps().is_empty());

    let mut pids = a.pids();
    pids.extend(b.pids());
    let dirs = [a.state_dir().to_owned(), b.state_dir().to_owned()];
    let (id_a, id_b) = (a.id().to_owned(), b.id().to_owned());
    let t2 = Instant::now();
    a.stop().expect("stop a");
    b.stop().expect("stop b");
    let stopped = t2.elapsed();
    assert_all_gone(&pids, "after stop");
    for dir in &dirs {
        assert!(!dir.exists(), "{} still exists", dir.display());
    }
    assert!(marked_processes(&id_a).is_empty());
    assert!(marked_processes(&id_b).is_empty());
    eprintln!(
        "timings: 2 parallel starts {started:?}, gtk3-widget-factory visible {launched:?}, 2 stops {stopped:?}"
    );
}

#[test]
fn drop_cleans_up_after_a_panic() {
    let seen = std::sync::Mutex::new(None);
    let result = std::panic::catch_unwind(|| {
        let sandbox = start();
        let app = launch(&sandbox, "gtk3-demo", &[]);
        // A process the sandbox did not launch itself, only gave its env.
        let helper = sandbox
            .command("sleep")
            .arg("300")
            .spawn()
            .expect("spawn sleep");
        *seen.lock().expect("lock") = Some((
            sandbox.pids(),
            sandbox.state_dir().to_owned(),
            sandbox.id().to_owned(),
            app,
            helper,
        ));
        panic!("deliberate panic with a running sandbox");
    });
    assert!(result.is_err());
    let (pids, dir, id, app, mut helper) = seen
        .into_inner()
        .expect("lock")
        .expect("the closure ran up to the panic");
    assert!(pids.contains(&app.pid));
    assert_all_gone(&pids, "after drop during a panic");
    assert!(!dir.exists(), "{} still exists", dir.display());
    // The helper carried the sandbox marker, so it was ended too.
    let status = helper.wait().expect("wait for sleep");
    assert!(!status.success(), "sleep was not killed: {status}");
    assert!(marked_processes(&id).is_empty());
}

// Saving, attaching and stopping across processes is tested through the
// real `cup sandbox start|run|stop` commands: crates/cup-cli/tests/cli/sandbox.rs.

#[test]
fn launch_of_a_program_that_never_registers_times_out_and_kills_it() {
    let sandbox = start();
    let t = Instant::now();
    let error = sandbox
        .launch_with(
            "sleep",
            &["31.5"],
            &LaunchOptions::with_timeout(Duration::from_millis(1500)),
        )
        .expect_err("sleep never shows a window");
    let elapsed = t.elapsed();
    let message = error.to_string();
    assert!(
        matches!(error, SandboxError::LaunchTimeout { .. }),
        "unexpected error: {message}"
    );
    assert!(
        message.starts_with(
            "sleep did not register on the accessibility bus within 1.5 s; no application with pid"
        ),
        "message: {message}"
    );
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    eprintln!("timeout error after {elapsed:?}: {message}");
    // It was killed and reaped: no `sleep 31.5` of this sandbox is left.
    assert!(marked_processes(sandbox.id()).iter().all(|pid| {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        cmdline != b"sleep\x0031.5\x00"
    }));
    assert!(sandbox.apps().is_empty());

    // A program that exits at once fails fast, with its exit status.
    let t = Instant::now();
    let error = sandbox
        .launch("false", &[] as &[&str])
        .expect_err("false exits");
    assert!(matches!(error, SandboxError::AppExited { .. }), "{error}");
    assert!(error.to_string().contains("exit code 1"), "{error}");
    assert!(t.elapsed() < Duration::from_secs(3));

    // An unknown program says so before anything starts.
    let error = sandbox
        .launch("no-such-program-cup-sandbox", &[] as &[&str])
        .expect_err("not installed");
    assert!(
        matches!(error, SandboxError::MissingProgram { .. }),
        "{error}"
    );
    let error = sandbox
        .launch("gtk4-demo-not-here", &[] as &[&str])
        .expect_err("x");
    assert!(error.to_string().contains("not found"), "{error}");
    sandbox.stop().expect("stop");
}

#[test]
fn window_manager_state_dir_qt_and_chromium() {
    let scratch = scratch_dir("options");
    // A non-empty state directory is refused (it would be removed at stop).
    std::fs::write(scratch.join("precious"), "keep me").expect("write");
    match Sandbox::start(SandboxOptions {
        state_dir: Some(scratch.clone()),
        ..SandboxOptions::default()
    }) {
        Err(SandboxError::StateDir { reason, .. }) => assert!(reason.contains("not empty")),
        other => panic!("non-empty state dir accepted: {other:?}"),
    }
    assert!(scratch.join("precious").exists());
    // A directory too long for the unix sockets placed in it is refused
    // before anything starts.
    let long = scratch.join("d".repeat(100));
    match Sandbox::start(SandboxOptions {
        state_dir: Some(long.clone()),
        ..SandboxOptions::default()
    }) {
        Err(SandboxError::StateDir { reason, .. }) => assert!(reason.contains("too long")),
        other => panic!("overlong state dir accepted: {other:?}"),
    }
    assert!(!long.exists());

    let state_dir = scratch.join("desktop");
    let sandbox = start_with(SandboxOptions {
        width: 1280,
        height: 800,
        with_window_manager: true,
        state_dir: Some(state_dir.clone()),
        ..SandboxOptions::default()
    });
    assert_eq!(sandbox.state_dir(), state_dir.as_path());
    assert_eq!(sandbox.screen_size(), (1280, 800));
    assert_eq!(sandbox.pids().len(), 6, "with openbox");
    assert!(xprop_root(&sandbox, "_NET_SUPPORTING_WM_CHECK").contains("window id"));
    let dimensions = sandbox
        .command("xdpyinfo")
        .output()
        .expect("xdpyinfo runs (apt-get install x11-utils)");
    assert!(String::from_utf8_lossy(&dimensions.stdout).contains("1280x800 pixels"));

    // Qt5 registers only with org.a11y.Status.IsEnabled set.
    let qt = qt_example();
    let app = launch(&sandbox, qt.to_str().expect("utf-8 path"), &[]);
    assert_eq!(app.a11y_pid, app.pid);
    // With a window manager there is an active window (openbox sets it
    // shortly after the window maps; poll).
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let active = xprop_root(&sandbox, "_NET_ACTIVE_WINDOW");
        if active.contains("window id") && !active.trim_end().ends_with(" 0x0") {
            break;
        }
        assert!(Instant::now() < deadline, "no active window: {active}");
        std::thread::sleep(Duration::from_millis(50));
    }

    // Debian's `chromium` is a shell script that execs the browser.
    let profile = scratch.join("chromium-profile");
    let chromium = launch(
        &sandbox,
        "chromium",
        &[
            "--no-sandbox",
            "--force-renderer-accessibility",
            "--no-first-run",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            "about:blank",
        ],
    );
    assert!(chromium.bus_name.starts_with(':'));
    assert_eq!(sandbox.apps().len(), 2);
    // Chromium's singleton socket lives in a folder of TMPDIR, which it
    // leaves behind when killed: TMPDIR is the sandbox's own.
    let socket = std::fs::read_link(profile.join("SingletonSocket")).expect("SingletonSocket link");
    assert!(
        socket.starts_with(state_dir.join("tmp")),
        "{}",
        socket.display()
    );
    let made = sandbox
        .command("mktemp")
        .output()
        .expect("mktemp runs (apt-get install coreutils)");
    let made = PathBuf::from(String::from_utf8_lossy(&made.stdout).trim());
    assert!(
        made.starts_with(state_dir.join("tmp")),
        "{}",
        made.display()
    );

    let pids = sandbox.pids();
    sandbox.stop().expect("stop");
    assert_all_gone(&pids, "after stop with window manager and apps");
    assert!(!state_dir.exists());
    let _ = std::fs::remove_dir_all(&scratch);
}

/// A Qt5 widgets example from qtbase5-examples.
fn qt_example() -> PathBuf {
    let root = Path::new("/usr/lib/x86_64-linux-gnu/qt5/examples/widgets");
    let candidates = [
        "widgets/calculator/calculator",
        "richtext/textedit/textedit",
    ];
    candidates
        .iter()
        .map(|c| root.join(c))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "no Qt5 example under {}; install it: apt-get install qtbase5-examples (or run scripts/install-deps.sh)",
                root.display()
            )
        })
}

/// The API is synchronous, but must also work inside an async test (as in
/// cup-linux): the D-Bus calls run on their own thread and runtime.
#[tokio::test(flavor = "current_thread")]
async fn works_inside_a_tokio_runtime() {
    let sandbox = start();
    let app = launch(&sandbox, "gtk3-widget-factory", &[]);
    assert!(app.bus_name.starts_with(':'));
    let pids = sandbox.pids();
    drop(sandbox);
    assert_all_gone(&pids, "after drop inside a tokio runtime");
}

/// Runs `xdpyinfo` on the sandbox's display with `xauthority` (or none) as
/// its `XAUTHORITY`; whether it got in, and what it printed.
fn xdpyinfo(sandbox: &Sandbox, xauthority: Option<&Path>, uid: Option<u32>) -> (bool, String) {
    let mut command = sandbox.command("xdpyinfo");
    command.env_remove("XAUTHORITY");
    // No ~/.Xauthority of the caller's either.
    command.env("HOME", "/nonexistent");
    if let Some(file) = xauthority {
        command.env("XAUTHORITY", file);
    }
    if let Some(uid) = uid {
        std::os::unix::process::CommandExt::uid(&mut command, uid);
    }
    let output = command
        .output()
        .expect("xdpyinfo runs (apt-get install x11-utils)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn the_display_takes_only_clients_with_its_cookie() {
    let sandbox = start();
    let file = sandbox.xauthority();
    let mode = std::fs::metadata(&file)
        .expect("Xauthority file")
        .permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
    assert!(sandbox
        .env()
        .iter()
        .any(|(k, v)| k == "XAUTHORITY" && Path::new(v) == file));
    // With the cookie: in.
    let (ok, text) = xdpyinfo(&sandbox, Some(&file), None);
    assert!(ok, "{text}");
    // Without it, or with another display's: refused.
    let (ok, text) = xdpyinfo(&sandbox, None, None);
    assert!(!ok && text.contains("unable to open display"), "{text}");
    let other = start();
    let (ok, text) = xdpyinfo(&sandbox, Some(&other.xauthority()), None);
    assert!(!ok, "another sandbox's cookie let a client in: {text}");
    // Another user that can reach the socket cannot read the cookie
    // (mode 0600 in the 0700 state directory), and gets no further.
    if running_as_root() {
        let (ok, text) = xdpyinfo(&sandbox, Some(&file), Some(65534));
        assert!(!ok, "uid 65534 got in: {text}");
    }
}

/// Whether this process runs as root (only root can run a client as
/// another user).
fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            == Some("0")
    })
}

/// Mount points under `dir` in this process's mount namespace.
fn mounts_under(dir: &Path) -> Vec<String> {
    std::fs::read_to_string("/proc/self/mountinfo")
        .expect("read /proc/self/mountinfo")
        .lines()
        .filter_map(|line| line.split(' ').nth(4).map(str::to_owned))
        .filter(|point| Path::new(point).starts_with(dir))
        .collect()
}

/// `dbus-send` a call to `name` on the sandbox's session bus: the exit
/// status and what it printed on stderr.
fn call_on_session_bus(sandbox: &Sandbox, name: &str, path: &str, method: &str) -> (bool, String) {
    let reply = sandbox
        .command("dbus-send")
        .args(["--session", "--print-reply", "--reply-timeout=10000"])
        .arg(format!("--dest={name}"))
        .args([path, method])
        .output()
        .expect("dbus-send runs (apt-get install dbus-bin)");
    (
        reply.status.success(),
        String::from_utf8_lossy(&reply.stderr).trim().to_owned(),
    )
}

/// The programs of xdg-desktop-portal's package.
fn portal_program(name: &str) -> PathBuf {
    let path = Path::new("/usr/libexec").join(name);
    assert!(
        path.is_file(),
        "{} missing (apt-get install xdg-desktop-portal)",
        path.display()
    );
    path
}

/// Outside GNOME and KDE the desktop portal is not activated: a GTK 3 app
/// asks for it at start, and would bring six processes with it.
#[test]
fn an_x11_sandbox_does_not_start_the_desktop_portal() {
    portal_program("xdg-desktop-portal");
    let sandbox = start();
    let id = sandbox.id().to_owned();
    let app = launch(&sandbox, "gtk3-widget-factory", &[]);
    let (ok, error) = call_on_session_bus(
        &sandbox,
        "org.freedesktop.portal.Desktop",
        "/org/freedesktop/portal/desktop",
        "org.freedesktop.DBus.Peer.Ping",
    );
    assert!(!ok, "the portal answered on an X11 sandbox's bus");
    // Refused, not left to time out (dbus-send's own timeout says "Did
    // not receive a reply" and names no service).
    assert!(
        error.contains("org.freedesktop.portal.Desktop"),
        "not an activation failure: {error}"
    );
    let names: Vec<String> = marked_processes(&id)
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).ok())
        .map(|c| c.trim().to_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("gtk3-widget")),
        "{names:?}"
    );
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("xdg-") || n == "fusermount3"),
        "portal processes in the sandbox: {names:?}"
    );
    let pids = sandbox.pids();
    assert!(pids.contains(&app.pid));
    sandbox.stop().expect("stop");
    assert_all_gone(&pids, "after stop");
}

/// Waits until `name` answers `org.freedesktop.DBus.Peer.Ping` on the
/// sandbox's bus; the last error on timeout.
fn wait_for_name(sandbox: &Sandbox, name: &str, path: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (ok, error) =
            call_on_session_bus(sandbox, name, path, "org.freedesktop.DBus.Peer.Ping");
        if ok {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(error);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether this kernel lets a FUSE file system be served: `/dev/fuse`
/// opens read-write (a container may lack the device, or the host the
/// module).
/// A machine without FUSE: the test fails (a defect in stop's FUSE path
/// would pass unseen otherwise), unless `CUP_TEST_NO_FUSE=1` is set, when
/// it says on stderr that it did not run.
fn no_fuse(why: &str) {
    if std::env::var("CUP_TEST_NO_FUSE").is_ok_and(|v| v == "1") {
        eprintln!("NOT RUN (CUP_TEST_NO_FUSE=1): {why}");
    } else {
        panic!(
            "{why}: give the machine FUSE (modprobe fuse; a container needs --device /dev/fuse --cap-add SYS_ADMIN), or set CUP_TEST_NO_FUSE=1 to run without this test"
        );
    }
}

fn fuse_device() -> Result<(), String> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/fuse")
        .map(drop)
        .map_err(|e| format!("/dev/fuse: {e}"))
}

/// Mounts left in the state directory by anything (here tmpfs, one point
/// mounted over twice and one inside it) are detached, top first, and the
/// directory removed.
#[test]
fn mounts_left_in_the_state_directory_are_detached_on_stop() {
    assert!(
        running_as_root(),
        "mounting tmpfs needs root; run the tests as root"
    );
    let sandbox = start();
    let dir = sandbox.state_dir().to_owned();
    let point = dir.join("runtime").join("left");
    std::fs::create_dir_all(&point).expect("create mount point");
    let mount = |target: &Path| {
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "cup-test"])
            .arg(target)
            .output()
            .expect("mount runs (apt-get install mount)");
        assert!(
            out.status.success(),
            "mount -t tmpfs {}: {}",
            target.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    };
    mount(&point);
    mount(&point);
    let inner = point.join("inner");
    std::fs::create_dir(&inner).expect("create inner mount point");
    mount(&inner);
    std::fs::write(inner.join("file"), b"kept open").expect("write in tmpfs");
    assert_eq!(mounts_under(&dir).len(), 3, "{:?}", mounts_under(&dir));

    if let Err(e) = sandbox.stop() {
        panic!("stop failed with mounts in the state directory: {e}");
    }
    assert!(
        mounts_under(&dir).is_empty(),
        "mounts left: {:?}",
        mounts_under(&dir)
    );
    assert!(!dir.exists(), "{} still exists", dir.display());
}

/// A session service that mounts FUSE in the sandbox's runtime directory
/// (the document portal, as it runs in a GNOME or KDE sandbox) and is then
/// killed leaves a mount nobody serves; stop must still remove everything.
/// Needs a kernel with FUSE: without one the test fails, unless
/// `CUP_TEST_NO_FUSE=1` says the machine has none on purpose (see
/// CONTRIBUTING.md; the tmpfs test above covers the same stop path but for
/// the `fusermount3` call).
#[test]
fn a_mount_left_by_a_killed_document_portal_is_detached_on_stop() {
    if let Err(e) = fuse_device() {
        no_fuse(&format!(
            "this kernel serves no FUSE file system here ({e}), so no document portal can leave a mount"
        ));
        return;
    }
    let sandbox = start();
    let dir = sandbox.state_dir().to_owned();
    let id = sandbox.id().to_owned();
    let logs = scratch_dir("portal");
    // Started by hand: this sandbox's bus does not activate portals (an
    // activation runs /bin/false). The store first: the document portal
    // exits at once when the store's name has no owner.
    let spawn = |name: &str| {
        let log = std::fs::File::create(logs.join(name)).expect("create log");
        sandbox
            .command(portal_program(name))
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {name}: {e}"))
    };
    let log_of = |name: &str| std::fs::read_to_string(logs.join(name)).unwrap_or_default();
    let mut services = vec![spawn("xdg-permission-store")];
    if let Err(e) = wait_for_name(
        &sandbox,
        "org.freedesktop.impl.portal.PermissionStore",
        "/org/freedesktop/impl/portal/PermissionStore",
    ) {
        panic!(
            "the permission store did not answer on the sandbox's bus: {e}; it printed: {}",
            log_of("xdg-permission-store").trim()
        );
    }
    services.push(spawn("xdg-document-portal"));
    // The portal mounts FUSE at start; it exits when it cannot.
    let deadline = Instant::now() + Duration::from_secs(10);
    while mounts_under(&dir).is_empty() {
        let exited = services[1].try_wait().ok().flatten();
        if exited.is_some() || Instant::now() >= deadline {
            let printed = log_of("xdg-document-portal");
            if printed.contains("fuse init failed") {
                // /dev/fuse opened, yet the kernel or the container refused
                // the mount itself: no portal can leave one here either.
                sandbox.stop().expect("stop");
                let _ = std::fs::remove_dir_all(&logs);
                no_fuse(&format!(
                    "the document portal cannot mount FUSE here: {}",
                    printed.trim()
                ));
                return;
            }
            panic!(
                "the document portal mounted nothing under {} ({}); it printed: {}",
                dir.display(),
                exited.map_or("still running".to_owned(), |s| s.to_string()),
                printed.trim()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // What stop's SIGTERM to every marked process can do when the
    // auto-unmount helper (fusermount3, started by the portal) goes first:
    // the helper, then the portal, are killed, and the mount stays with
    // nobody serving it.
    let named = |name: &str| -> Vec<u32> {
        marked_processes(&id)
            .into_iter()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == name)
            })
            .collect()
    };
    for name in ["fusermount3", "xdg-document-po"] {
        let pids = named(name);
        if pids.is_empty() {
            assert_ne!(
                name, "xdg-document-po",
                "no xdg-document-portal process carries the sandbox marker"
            );
            continue;
        }
        let status = std::process::Command::new("kill")
            .arg("-KILL")
            .args(pids.iter().map(u32::to_string))
            .status()
            .expect("kill runs");
        assert!(status.success());
        // Gone or a zombie (the portal does not reap its helper).
        let deadline = Instant::now() + Duration::from_secs(5);
        while !named(name).is_empty() {
            assert!(Instant::now() < deadline, "{name} outlived SIGKILL");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert!(
        !mounts_under(&dir).is_empty(),
        "the mount went with the portal; nothing left to test"
    );

    if let Err(e) = sandbox.stop() {
        panic!("stop failed with a dead mount in the state directory: {e}");
    }
    for mut child in services {
        let _ = child.wait();
    }
    assert!(
        mounts_under(&dir).is_empty(),
        "mounts left: {:?}",
        mounts_under(&dir)
    );
    assert!(!dir.exists(), "{} still exists", dir.display());
    assert!(marked_processes(&id).is_empty());
    let _ = std::fs::remove_dir_all(&logs);
}

/// Chromium keeps its singleton socket in a folder of TMPDIR and leaves the
/// folder behind when it is killed; a browser cup starts keeps TMPDIR in
/// its profile, which stop removes.
#[test]
fn a_browser_keeps_its_temporary_files_in_its_profile() {
    let browser = match Browser::start(&BrowserOptions::default()) {
        Ok(browser) => browser,
        Err(e) => panic!("chromium did not start: {e}"),
    };
    let profile = browser.state().profile.clone();
    let deadline = Instant::now() + Duration::from_secs(10);
    let socket = loop {
        if let Ok(target) = std::fs::read_link(profile.join("SingletonSocket")) {
            break target;
        }
        assert!(
            Instant::now() < deadline,
            "no SingletonSocket in {}",
            profile.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        socket.starts_with(profile.join("tmp")),
        "{}",
        socket.display()
    );
    browser.stop();
    assert!(!profile.exists(), "{} still exists", profile.display());
}
