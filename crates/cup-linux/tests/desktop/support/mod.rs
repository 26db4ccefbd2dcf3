//! A private desktop per test: its own Xvfb, session bus and AT-SPI bus
//! (cup-sandbox), real apps, and a `Session` over a `LinuxAdapter` bound to
//! that desktop (so tests run in parallel without sharing environment
//! variables). A missing program fails the test with the package to install.

#![allow(dead_code)]

pub mod firefox;

use std::path::{Path, PathBuf};

use cup::{Session, Snapshot, SnapshotRequest};
use cup_linux::{Desktop, LinuxAdapter};
use cup_protocol::{Node, Role, Scope, State};
use cup_sandbox::{App, Sandbox, SandboxOptions};

/// A running private desktop.
pub struct Desk {
    pub sandbox: Sandbox,
}

impl Desk {
    /// Starts a 1920×1080 desktop without a window manager.
    pub fn start() -> Desk {
        Desk::start_with(SandboxOptions::default())
    }

    pub fn start_with(options: SandboxOptions) -> Desk {
        let sandbox = Sandbox::start(options).unwrap_or_else(|e| {
            panic!("cannot start the sandbox: {e} (install the desktop packages: scripts/install-deps.sh)")
        });
        // cup's X connections to this display present its cookie.
        cup_linux::setup::register_x_cookie(sandbox.display(), &sandbox.xauthority());
        Desk { sandbox }
    }

    /// Launches `program` and waits until its window is on the bus.
    pub fn launch(&self, program: &str, args: &[&str]) -> App {
        self.sandbox.launch(program, args).unwrap_or_else(|e| {
            panic!("cannot launch {program}: {e} (scripts/install-deps.sh installs the test apps)")
        })
    }

    /// Launches LibreOffice's `module` (`--calc`, `--impress`) with a
    /// profile in `dir` that shows no first-run dialog, its GTK 3 front end
    /// and `args` after, and waits until its window is on the bus.
    pub fn launch_office(&self, dir: &TempDir, module: &str, args: &[&str]) -> App {
        let install = cup_sandbox::libreoffice::write_quiet_profile(&dir.path().join("profile"))
            .unwrap_or_else(|e| panic!("LibreOffice profile: {e}"));
        let options = cup_sandbox::LaunchOptions {
            // LibreOffice's first start makes its profile: slow on a
            // loaded 2-core machine.
            timeout: std::time::Duration::from_secs(90),
            env: vec![("SAL_USE_VCLPLUGIN".into(), "gtk3".into())],
        };
        let mut all = vec![module, "--norestore", "--nologo", install.as_str()];
        all.extend_from_slice(args);
        self.sandbox
            .launch_with("soffice", &all, &options)
            .unwrap_or_else(|e| {
                panic!("cannot launch soffice {module}: {e} (apt-get install libreoffice-calc libreoffice-impress libreoffice-gtk3, or scripts/install-deps.sh)")
            })
    }

    /// The addresses of this desktop.
    pub fn desktop(&self) -> Desktop {
        Desktop::from_pairs(&self.sandbox.env())
    }

    /// A session on this desktop.
    pub fn session(&self) -> Session {
        Session::new(Box::new(LinuxAdapter::for_desktop(self.desktop())))
    }
}

/// Takes a snapshot, checks the envelope against the CUP schema and every
/// bound against the screen, and returns it.
pub async fn snapshot(session: &mut Session, req: &SnapshotRequest) -> Snapshot {
    let snap = session
        .snapshot(req)
        .await
        .unwrap_or_else(|e| panic!("snapshot {:?} failed: {e}", req.scope))
        .clone();
    assert_schema_valid(&snap);
    snap
}

/// Like [`snapshot`], until a capture is complete (at most 30 s): the
/// first capture of a freshly started app may reach the capture deadline
/// on a loaded machine (toolkits create their accessibles on first use),
/// which the partial capture says; tests of content want the whole tree.
pub async fn complete_snapshot(session: &mut Session, req: &SnapshotRequest) -> Snapshot {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let snap = snapshot(session, req).await;
        if !snap.text.contains("# partial capture") {
            return snap;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "every capture for 30 s was partial; the last:\n{}",
            snap.text
        );
    }
}

pub fn request(scope: Scope) -> SnapshotRequest {
    SnapshotRequest {
        scope,
        ..SnapshotRequest::default()
    }
}

pub fn assert_schema_valid(snap: &Snapshot) {
    let json = serde_json::to_value(&snap.envelope).unwrap_or_else(|e| panic!("serialize: {e}"));
    let violations = cup_protocol::schema::validate(&json);
    assert!(
        violations.is_empty(),
        "envelope violates the CUP schema: {violations:?}"
    );
}

/// Every node of the snapshot, depth first.
pub fn nodes(snap: &Snapshot) -> Vec<&Node> {
    snap.envelope
        .tree
        .iter()
        .flat_map(|root| root.iter())
        .collect()
}

pub fn find<'a>(snap: &'a Snapshot, role: Role, name: &str) -> Vec<&'a Node> {
    nodes(snap)
        .into_iter()
        .filter(|n| n.role == role && n.name == name)
        .collect()
}

pub fn has(node: &Node, state: State) -> bool {
    node.states.contains(&state)
}

/// Bounds of nodes that are not offscreen lie on the screen.
pub fn assert_bounds_on_screen(snap: &Snapshot) {
    let (w, h) = (snap.envelope.screen.w, snap.envelope.screen.h);
    let mut checked = 0;
    for n in nodes(snap) {
        let Some(b) = n.bounds else { continue };
        if has(n, State::Offscreen) {
            continue;
        }
        checked += 1;
        let (x, y, bw, bh) = (
            b.x,
            b.y,
            i64::try_from(b.w).unwrap_or(i64::MAX),
            i64::try_from(b.h).unwrap_or(i64::MAX),
        );
        assert!(
            x < w && y < h && x + bw > 0 && y + bh > 0,
            "{} {:?} {:?} has bounds {b:?} off the {w}x{h} screen but is not offscreen",
            n.id,
            n.role,
            n.name
        );
    }
    assert!(checked > 0, "no node has bounds");
}

/// The first Qt5 widgets example installed by qtbase5-examples.
pub fn qt_example(name: &str) -> PathBuf {
    qt_example_in("widgets", name)
}

/// A Qt5 widgets example of group `group` (`widgets`, `dialogs`, ...)
/// installed by qtbase5-examples.
pub fn qt_example_in(group: &str, name: &str) -> PathBuf {
    let path = Path::new("/usr/lib/x86_64-linux-gnu/qt5/examples/widgets")
        .join(group)
        .join(name)
        .join(name);
    assert!(
        path.is_file(),
        "{} is missing; install it: apt-get install qtbase5-examples (or run scripts/install-deps.sh)",
        path.display()
    );
    path
}

/// A scratch directory removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "{prefix}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Snapshots until `ready` holds (an app loads, recalculates or opens a
/// dialog on its own time), at most `seconds`; with `complete`, only
/// whole captures count (a loaded machine can take a debug build past the
/// capture deadline on a large window). Fails with the last snapshot.
pub async fn until(
    session: &mut Session,
    req: &SnapshotRequest,
    what: &str,
    seconds: u64,
    complete: bool,
    ready: impl Fn(&Snapshot) -> bool,
) -> Snapshot {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        let snap = if complete {
            complete_snapshot(session, req).await
        } else {
            snapshot(session, req).await
        };
        if ready(&snap) {
            return snap;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: not seen in {seconds} s; the last snapshot:\n{}",
            snap.text
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Resident memory of `pid`, in MiB.
pub fn rss_mib(pid: i64) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("/proc/{pid}/status: {e}"));
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| kib / 1024)
        .unwrap_or_else(|| panic!("no VmRSS for pid {pid}"))
}

/// What every first snapshot of a large window must be: complete, every
/// actionable element on screen with bounds, within the default budget.
pub fn assert_read_right(snap: &Snapshot) {
    assert!(!snap.text.contains("# partial capture"), "{}", snap.text);
    assert!(
        !snap.text.contains("left out to fit the budget")
            && snap.text.len() <= cup_protocol::compact::MAX_OUTPUT_CHARS,
        "{} characters, over the default budget:\n{}",
        snap.text.len(),
        snap.text
    );
    assert_bounds_on_screen(snap);
    if let Some(n) = unbounded(snap) {
        panic!(
            "{} {:?} {:?} can be acted on ({:?}), is on screen and has no bounds: {:?}",
            n.id, n.role, n.name, n.actions, n.platform.linux
        );
    }
}

/// The first element that can be acted on, is on screen and has no
/// bounds. LibreOffice fills its sidebar's panels after the document
/// shows, and an item it has listed but not yet laid out has no extents:
/// a test waits for none (with [`until`]) before [`assert_read_right`].
pub fn unbounded(snap: &Snapshot) -> Option<&Node> {
    nodes(snap).into_iter().find(|n| {
        let shown = !n.states.contains(&State::Offscreen) && !n.states.contains(&State::Hidden);
        shown && n.has_meaningful_action() && n.bounds.is_none()
    })
}
