//! The sandbox itself: its options, processes and environment, and start-up
//! (the services in `services`, apps in `launch`, the state directory and
//! file in `state`, the end in `shutdown`).

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::bus;
use crate::error::SandboxError;
use crate::procfs;

mod bus_config;
mod gnome;
mod health;
mod kwin;
mod launch;
mod locale;
mod mounts;
mod service;
mod services;
mod shutdown;
mod state;
mod wayland;

pub use health::{Check, Health};
use shutdown::kill_group;
use state::{prepare_state_dir, state_dir_error};

/// Environment variable that every process of a sandbox inherits, set to
/// the sandbox's [`Sandbox::id`]. [`Sandbox::stop`] also ends processes that
/// carry it (bus-activated services, helpers that left their process group).
pub const MARKER_ENV: &str = "CUP_SANDBOX_ID";

/// Variables removed from the environment of everything started in a
/// sandbox: a stale accessibility bus address, switches that turn the
/// accessibility bridge off, and pointers to the caller's own desktop
/// (Wayland, session manager, forced toolkit back-ends).
pub const REMOVED_ENV: &[&str] = &[
    "AT_SPI_BUS_ADDRESS",
    "NO_AT_BRIDGE",
    "GTK_A11Y",
    "WAYLAND_DISPLAY",
    "WAYLAND_SOCKET",
    "SWAYSOCK",
    "SESSION_MANAGER",
    "DBUS_SESSION_BUS_PID",
    "DBUS_SESSION_BUS_WINDOWID",
    "DESKTOP_STARTUP_ID",
    "GDK_BACKEND",
    "QT_QPA_PLATFORM",
];

/// Variables that make GTK, Qt and others expose their accessibility tree.
const A11Y_ENV: &[(&str, &str)] = &[
    ("QT_ACCESSIBILITY", "1"),
    ("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1"),
    ("ACCESSIBILITY_ENABLED", "1"),
];

/// Name of the file, inside the state directory, that holds the sandbox id;
/// a directory without it is never removed.
const DIR_MARKER: &str = ".cup-sandbox";
const STATE_FORMAT: u32 = 1;
/// The Xauthority file Xvfb reads (in the state directory).
const SERVER_XAUTHORITY: &str = "xauth-server";
/// The Xauthority file clients get in `XAUTHORITY` (in the state directory).
const CLIENT_XAUTHORITY: &str = "Xauthority";
/// How long processes get to exit after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// Where the accessibility bus launcher lives on Debian/Ubuntu, Fedora, Arch.
const BUS_LAUNCHERS: &[&str] = &[
    "/usr/libexec/at-spi-bus-launcher",
    "/usr/lib/at-spi2-core/at-spi-bus-launcher",
    "/usr/lib/at-spi-bus-launcher",
];

/// How to start a [`Sandbox`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxOptions {
    /// Screen width in pixels (default 1920: a smaller screen cuts off
    /// e.g. gtk3-widget-factory's title bar buttons).
    pub width: u32,
    /// Screen height in pixels (default 1080).
    pub height: u32,
    /// Colour depth in bits (default 24).
    pub depth: u8,
    /// Start the `openbox` window manager (default `false`). Without one,
    /// windows have no decorations, sit at 0,0, there is no
    /// `_NET_ACTIVE_WINDOW`, and keyboard focus follows the pointer.
    pub with_window_manager: bool,
    /// The sandbox's own directory (logs, runtime directory, session bus
    /// socket); it is removed by [`Sandbox::stop`]. It must not exist or be
    /// empty. `None` (the default) creates `$TMPDIR/cup-sandbox-<id>`.
    pub state_dir: Option<PathBuf>,
    /// Deadline for the whole start-up (default 45 s, sized for a loaded 2-core machine; it takes ~0.3 s).
    pub start_timeout: Duration,
    /// A Wayland desktop instead of an X11 one (default `false`): a
    /// headless sway on a private runtime directory, no X server. sway
    /// refuses to run as root, so when the caller is root the compositor,
    /// the buses and the apps run as `nobody` (uid and gid 65534); the
    /// session bus admits root too, for cup.
    pub wayland: bool,
    /// Which compositor a Wayland desktop runs (default sway).
    pub compositor: Compositor,
    /// GNOME Shell extensions to install and enable (GNOME only).
    pub shell_extensions: Vec<ShellExtension>,
}

/// The compositor of a Wayland sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compositor {
    /// A headless sway (wlroots).
    #[default]
    Sway,
    /// KWin (KDE Plasma) with its virtual backend (`kwin_wayland
    /// --virtual`).
    KWin,
    /// GNOME Shell headless (`gnome-shell --headless`, mutter inside),
    /// with PipeWire, WirePlumber and a stand-in system bus.
    Gnome,
}

/// A GNOME Shell extension the sandbox installs and enables before the
/// shell starts (GNOME loads extensions only when it starts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellExtension {
    /// Its UUID (its folder's name).
    pub uuid: String,
    /// Its files: name and text (`metadata.json`, `extension.js`).
    pub files: Vec<(String, String)>,
    /// A bus name it owns once it runs: start-up waits for it.
    pub bus_name: Option<String>,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        Self {
            width: 1920,
            height: 1080,
            depth: 24,
            with_window_manager: false,
            state_dir: None,
            start_timeout: Duration::from_secs(45),
            wayland: false,
            compositor: Compositor::Sway,
            shell_extensions: Vec::new(),
        }
    }
}

/// How to [`Sandbox::launch_with`] a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchOptions {
    /// How long to wait for a showing window on the accessibility bus
    /// (default 60 s, sized for a loaded 2-core machine; gtk3-widget-factory takes ~0.6 s, gtk4-demo 1.5 s,
    /// Chromium ~1 s).
    pub timeout: Duration,
    /// Extra environment variables for the program (applied last).
    pub env: Vec<(String, String)>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(60),
            env: Vec::new(),
        }
    }
}

impl LaunchOptions {
    /// The default options with another deadline.
    #[must_use]
    pub fn with_timeout(timeout: Duration) -> Self {
        Self {
            timeout,
            ..Self::default()
        }
    }
}

/// A program started by [`Sandbox::launch`] that shows a window on the
/// accessibility bus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct App {
    /// The program as given to `launch`.
    pub program: String,
    /// The pid of the spawned process; it leads its own process group.
    pub pid: u32,
    /// The pid that owns the application's accessibility bus connection:
    /// `pid` itself, or a descendant for wrapper scripts that fork.
    pub a11y_pid: u32,
    /// Its unique name on the accessibility bus, e.g. `:1.4`.
    pub bus_name: String,
    /// The name of its application accessible (often the program name).
    pub name: String,
    /// The file that receives its stdout and stderr.
    pub log: PathBuf,
}

/// What a recorded process is, in the state file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Role {
    Xvfb,
    Compositor,
    SessionBus,
    /// A service a desktop needs (GNOME's PipeWire and WirePlumber, its
    /// stand-in system bus).
    Service,
    A11yBusLauncher,
    A11yBus,
    Registry,
    WindowManager,
    App,
}

/// One process the sandbox started, named for good by pid + start time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct ProcRecord {
    role: Role,
    pid: u32,
    /// `/proc/PID/stat` field 22: tells this process from a later one that
    /// got the same pid.
    start_time: u64,
    /// `argv[0]`'s file name when it was recorded.
    program: String,
}

impl ProcRecord {
    fn capture(role: Role, pid: u32) -> Option<Self> {
        let stat = procfs::stat(pid)?;
        Some(Self {
            role,
            pid,
            start_time: stat.start_time,
            program: procfs::program_name(pid).unwrap_or_default(),
        })
    }

    /// Same pid, same start time, same program, not a zombie.
    fn is_running(&self) -> bool {
        procfs::is_running(self.pid, self.start_time)
            && procfs::program_name(self.pid).is_some_and(|p| p == self.program)
    }
}

/// What changes after start-up: launched apps and the children to reap.
#[derive(Debug, Default)]
struct Live {
    apps: Vec<App>,
    app_records: Vec<ProcRecord>,
    children: Vec<Child>,
    launches: u32,
}

/// A private headless desktop: Xvfb on a display of its own, a private
/// session bus, accessibility bus and registry, optionally a window manager.
///
/// Start one with [`Sandbox::start`], start programs in it with
/// [`Sandbox::launch`] (or [`Sandbox::command`]), end it with
/// [`Sandbox::stop`]. Dropping a started sandbox stops it too (also while a
/// test panics) unless it was [`Sandbox::detach`]ed. Everything is ended by
/// pid, never by name: another sandbox, or the caller's desktop, is never
/// touched.
///
/// ```no_run
/// use cup_sandbox::{Sandbox, SandboxOptions};
/// let sandbox = Sandbox::start(SandboxOptions::default())?;
/// let app = sandbox.launch("gtk3-widget-factory", &[] as &[&str])?;
/// println!("{} is {} on {}", app.program, app.bus_name, sandbox.a11y_address());
/// sandbox.stop()?;
/// # Ok::<(), cup_sandbox::SandboxError>(())
/// ```
#[derive(Debug)]
pub struct Sandbox {
    id: String,
    display: String,
    session_bus_address: String,
    a11y_address: String,
    state_dir: PathBuf,
    width: u32,
    height: u32,
    depth: u8,
    /// Xvfb, buses, registry, window manager.
    processes: Vec<ProcRecord>,
    live: Mutex<Live>,
    /// The stdout pipes of daemons that printed their address, kept open.
    pipes: Vec<ChildStdout>,
    /// The Wayland compositor's socket and sway's IPC socket (Wayland
    /// sandboxes).
    wayland: Option<wayland::Session>,
    /// The user the sandbox's processes run as (uid, gid), when not the
    /// caller's.
    user: Option<(u32, u32)>,
    /// Whether the desktop portal may run (GNOME and KDE sessions, whose
    /// input and screen-cast routes go through it); elsewhere its
    /// activation is refused ([`bus_config`]).
    portals: bool,
    detached: bool,
    stopped: bool,
}

/// The "not found" error for a program, with the package that provides it.
pub(crate) fn missing(program: &str) -> SandboxError {
    let name = procfs::basename(program);
    let package = match name.as_str() {
        "Xvfb" => Some("xvfb"),
        "dbus-daemon" => Some("dbus"),
        "at-spi-bus-launcher" | "at-spi2-registryd" => Some("at-spi2-core"),
        "gdbus" => Some("libglib2.0-bin"),
        "xprop" | "xdpyinfo" | "xwininfo" => Some("x11-utils"),
        "kill" => Some("procps"),
        "openbox" => Some("openbox"),
        "sway" => Some("sway"),
        "kwin_wayland" => Some("kwin-wayland"),
        "gnome-shell" => Some("gnome-shell"),
        "pipewire" => Some("pipewire"),
        "wireplumber" => Some("wireplumber"),
        "gtk3-widget-factory" | "gtk3-demo" => Some("gtk-3-examples"),
        "gtk4-demo" | "gtk4-widget-factory" => Some("gtk-4-examples"),
        "chromium" => Some("chromium"),
        "xdotool" => Some("xdotool"),
        "gnome-calculator" => Some("gnome-calculator"),
        _ => None,
    };
    let hint = match package {
        Some(package) => format!(
            "install it: apt-get install {package} (or run scripts/install-deps.sh as root)"
        ),
        None => {
            "check the name, or install the package that provides it and make sure it is on PATH"
                .into()
        }
    };
    SandboxError::MissingProgram {
        program: program.into(),
        hint,
    }
}

fn require(program: &str) -> Result<PathBuf, SandboxError> {
    procfs::find_program(program).ok_or_else(|| missing(program))
}

fn new_id() -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{}-{}-{:05x}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        nanos & 0xf_ffff
    )
}

/// What came out of a daemon's stdout.
enum FirstLine {
    Line(String, ChildStdout),
    Eof,
    Failed,
    Timeout,
}

/// Reads the first line a daemon prints on `stdout`, waiting until
/// `deadline`. The reading thread ends when the daemon closes the pipe.
fn first_line(stdout: ChildStdout, deadline: Instant) -> FirstLine {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let outcome = match reader.read_line(&mut line) {
            Ok(0) => FirstLine::Eof,
            Ok(_) => FirstLine::Line(line.trim().to_owned(), reader.into_inner()),
            Err(_) => FirstLine::Failed,
        };
        // The receiver is gone after a timeout; nothing to do then.
        let _ = tx.send(outcome);
    });
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
        .unwrap_or(FirstLine::Timeout)
}

/// Milliseconds since `start`, for logs.
fn millis(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

fn exit_status_text(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => status.to_string(),
    }
}

impl Sandbox {
    /// Starts a sandbox: Xvfb on a free display that Xvfb picks itself, a
    /// private session bus, a private `XDG_RUNTIME_DIR`, the accessibility
    /// bus (`at-spi-bus-launcher`) with `org.a11y.Status.IsEnabled` and `ScreenReaderEnabled` set,
    /// the AT-SPI registry, and `openbox` if asked for. Returns once all of
    /// them answer (~0.3 s); there are no fixed sleeps.
    ///
    /// On any error, whatever was already started is stopped again.
    ///
    /// # Errors
    ///
    /// [`SandboxError::MissingProgram`] (with the package to install),
    /// [`SandboxError::StateDir`], and [`SandboxError::NotReady`] or
    /// [`SandboxError::ComponentExited`] naming the component and its log.
    pub fn start(options: SandboxOptions) -> Result<Self, SandboxError> {
        let started = Instant::now();
        let deadline = started + options.start_timeout;
        let xvfb = if options.wayland {
            None
        } else {
            Some(require("Xvfb")?)
        };
        let sway = if options.wayland && options.compositor == Compositor::Sway {
            Some(require("sway")?)
        } else {
            None
        };
        let kwin = if options.wayland && options.compositor == Compositor::KWin {
            Some(require("kwin_wayland")?)
        } else {
            None
        };
        let gnome = if options.wayland && options.compositor == Compositor::Gnome {
            Some(gnome::Programs::find()?)
        } else {
            None
        };
        let dbus_daemon = require("dbus-daemon")?;
        let launcher = BUS_LAUNCHERS
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or_else(|| missing("/usr/libexec/at-spi-bus-launcher"))?;
        require("kill")?;
        let window_manager = if options.with_window_manager && !options.wayland {
            Some((require("openbox")?, require("xprop")?))
        } else {
            None
        };

        let id = new_id();
        let user = (options.wayland && wayland::caller_is_root())
            .then_some((wayland::NOBODY, wayland::NOBODY));
        let state_dir = prepare_state_dir(options.state_dir.as_deref(), &id, user)?;
        let mut sandbox = Self {
            id,
            display: String::new(),
            session_bus_address: String::new(),
            a11y_address: String::new(),
            state_dir,
            width: options.width,
            height: options.height,
            depth: options.depth,
            processes: Vec::new(),
            live: Mutex::new(Live::default()),
            pipes: Vec::new(),
            wayland: None,
            user,
            portals: options.wayland && options.compositor != Compositor::Sway,
            detached: false,
            stopped: false,
        };
        // From here on an early return drops `sandbox`, which stops what
        // was started so far.
        let timeout = options.start_timeout;
        if let Some(xvfb) = &xvfb {
            sandbox.start_xvfb(xvfb, deadline, timeout)?;
        }
        sandbox.start_session_bus(&dbus_daemon, deadline, timeout)?;
        sandbox.start_a11y(&launcher, deadline, timeout)?;
        if let Some((openbox, xprop)) = window_manager {
            sandbox.start_window_manager(&openbox, &xprop, deadline, timeout)?;
        }
        if let Some(sway) = &sway {
            sandbox.start_sway(sway, deadline, timeout)?;
        }
        if let Some(kwin) = &kwin {
            sandbox.start_kwin(kwin, deadline, timeout)?;
        }
        if let Some(programs) = &gnome {
            sandbox.start_gnome(
                programs,
                &dbus_daemon,
                &options.shell_extensions,
                (deadline, timeout),
            )?;
        }
        tracing::info!(
            display = %sandbox.display,
            wayland = sandbox.wayland.is_some(),
            state_dir = %sandbox.state_dir.display(),
            elapsed_ms = millis(started),
            "sandbox started"
        );
        Ok(sandbox)
    }

    fn live(&self) -> MutexGuard<'_, Live> {
        // A panic while holding the lock leaves consistent data behind.
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn runtime_dir(&self) -> PathBuf {
        self.state_dir.join("runtime")
    }

    /// A command with the sandbox environment as known so far.
    fn base_command(&self, program: &OsStr) -> Command {
        let mut command = Command::new(program);
        for name in REMOVED_ENV
            .iter()
            .chain(&["DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS"])
        {
            command.env_remove(name);
        }
        command.envs(self.env());
        command.stdin(Stdio::null());
        if let Some((uid, gid)) = self.user {
            // The caller's home is not the sandbox user's to write in;
            // std drops the supplementary groups along with root.
            command.uid(uid).gid(gid).env("HOME", self.home());
        }
        command
    }

    /// Opens `name` in the state directory for a child's stdout and stderr.
    fn log_file(&self, name: &str) -> Result<(File, File, PathBuf), SandboxError> {
        let path = self.state_dir.join(name);
        let file = File::create(&path)
            .map_err(SandboxError::io(format!("creating {}", path.display())))?;
        let clone = file
            .try_clone()
            .map_err(SandboxError::io(format!("duplicating {}", path.display())))?;
        Ok((file, clone, path))
    }

    fn spawn(command: &mut Command, what: &str) -> Result<Child, SandboxError> {
        command.spawn().map_err(|source| SandboxError::Spawn {
            program: what.into(),
            source,
        })
    }

    /// Records a started daemon and keeps its `Child` for reaping.
    fn adopt(&mut self, role: Role, child: Child) {
        if let Some(record) = ProcRecord::capture(role, child.id()) {
            self.processes.push(record);
        }
        self.live().children.push(child);
    }

    /// The exit status of our child `pid`, once it has exited.
    fn child_exit(&self, pid: u32) -> Option<String> {
        let mut live = self.live();
        let child = live.children.iter_mut().find(|c| c.id() == pid)?;
        match child.try_wait() {
            Ok(Some(status)) => Some(exit_status_text(status)),
            Ok(None) => None,
            Err(e) => Some(format!("unknown status: {e}")),
        }
    }

    fn exited_error(component: &str, status: String, log: &Path) -> SandboxError {
        SandboxError::ComponentExited {
            component: component.into(),
            status,
            detail: format!("its log {}: {}", log.display(), procfs::log_tail(log, 5)),
        }
    }

    /// The X display, e.g. `:3` (empty in a Wayland sandbox).
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The Wayland compositor's socket (absolute), in a Wayland sandbox.
    pub fn wayland_socket(&self) -> Option<&Path> {
        self.wayland.as_ref().map(|s| s.socket.as_path())
    }

    /// sway's IPC socket, in a Wayland sandbox.
    pub fn sway_socket(&self) -> Option<&Path> {
        self.wayland.as_ref().and_then(|s| s.ipc.as_deref())
    }

    /// The Xauthority file with the display's cookie (clients get it in
    /// `XAUTHORITY`; Xvfb refuses clients without the cookie).
    pub fn xauthority(&self) -> PathBuf {
        self.state_dir.join(CLIENT_XAUTHORITY)
    }

    /// The address of the sandbox's session bus.
    pub fn session_bus_address(&self) -> &str {
        &self.session_bus_address
    }

    /// The address of the sandbox's accessibility (AT-SPI) bus.
    pub fn a11y_address(&self) -> &str {
        &self.a11y_address
    }

    /// The sandbox's directory: logs (`*.log`), `runtime/` (its
    /// `XDG_RUNTIME_DIR`) and the session bus socket.
    pub fn state_dir(&self) -> &Path {
        &self.state_dir
    }

    /// A unique id; every process of the sandbox has it in [`MARKER_ENV`].
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The screen size in pixels, (width, height).
    pub fn screen_size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The variables to set for programs in the sandbox: `DISPLAY`,
    /// `XAUTHORITY`, `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`,
    /// `TMPDIR` (`tmp/` in the state directory, removed at stop, unless the
    /// state directory's path is too long for sockets made in it), `AT_SPI_BUS_ADDRESS`,
    /// `QT_ACCESSIBILITY=1`, `QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1`,
    /// `ACCESSIBILITY_ENABLED=1`, [`MARKER_ENV`], and `C.UTF-8` as the
    /// locale where the caller's is not UTF-8 (`LANG`, or the `LC_ALL` or
    /// `LC_CTYPE` that overrides it). The variables in
    /// [`REMOVED_ENV`] must be unset as well ([`Sandbox::command`] does
    /// both). `HOME` stays the caller's.
    pub fn env(&self) -> Vec<(String, String)> {
        let mut env = Vec::new();
        let mut set = |name: &str, value: &str| {
            if !value.is_empty() {
                env.push((name.to_owned(), value.to_owned()));
            }
        };
        set("DISPLAY", &self.display);
        if !self.display.is_empty() {
            set("XAUTHORITY", &self.xauthority().to_string_lossy());
        }
        if let Some(session) = &self.wayland {
            set("WAYLAND_DISPLAY", &session.socket.to_string_lossy());
            if let Some(ipc) = &session.ipc {
                set("SWAYSOCK", &ipc.to_string_lossy());
            }
            for (name, value) in wayland::CLIENT_ENV {
                set(name, value);
            }
        }
        set("DBUS_SESSION_BUS_ADDRESS", &self.session_bus_address);
        set("XDG_RUNTIME_DIR", &self.runtime_dir().to_string_lossy());
        if let Some(tmp) = state::tmp_dir(&self.state_dir) {
            set("TMPDIR", &tmp.to_string_lossy());
        }
        set("AT_SPI_BUS_ADDRESS", &self.a11y_address);
        for (name, value) in A11Y_ENV {
            set(name, value);
        }
        let var = |name: &str| std::env::var(name).unwrap_or_default();
        for (name, value) in locale::utf8(&var("LC_ALL"), &var("LC_CTYPE"), &var("LANG")) {
            set(name, value);
        }
        set(MARKER_ENV, &self.id);
        env
    }

    /// A [`Command`] for `program` with the sandbox environment (see
    /// [`Sandbox::env`]) and stdin from /dev/null; the caller adds
    /// arguments and runs it. Nothing waits for a window; use
    /// [`Sandbox::launch`] for that. Processes started this way are ended by
    /// [`Sandbox::stop`] too (they carry [`MARKER_ENV`]).
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        self.base_command(program.as_ref())
    }

    /// The apps started with [`Sandbox::launch`] (also those recorded in a
    /// state file, after [`Sandbox::attach`]).
    pub fn apps(&self) -> Vec<App> {
        self.live().apps.clone()
    }

    /// The pids of every process the sandbox recorded: Xvfb, the buses,
    /// the bus launcher, the registry, the window manager and the launched
    /// apps.
    pub fn pids(&self) -> Vec<u32> {
        let live = self.live();
        self.processes
            .iter()
            .chain(&live.app_records)
            .map(|r| r.pid)
            .collect()
    }

    /// Turns off the clean-up on drop: the desktop keeps running after this
    /// value is gone (for `cup sandbox start`, after [`Sandbox::save`]).
    /// [`Sandbox::stop`] still works.
    pub fn detach(&mut self) {
        self.detached = true;
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if self.detached || self.stopped {
            return;
        }
        if let Err(e) = self.shutdown() {
            tracing::warn!(error = %e, "stopping the sandbox on drop failed");
        }
    }
}
