//! The sandbox itself: start, launch, save/attach, stop.

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
    /// Deadline for the whole start-up (default 15 s; it takes ~0.3 s).
    pub start_timeout: Duration,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        Self {
            width: 1920,
            height: 1080,
            depth: 24,
            with_window_manager: false,
            state_dir: None,
            start_timeout: Duration::from_secs(15),
        }
    }
}

/// How to [`Sandbox::launch_with`] a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchOptions {
    /// How long to wait for a showing window on the accessibility bus
    /// (default 20 s; gtk3-widget-factory takes ~0.6 s, gtk4-demo 1.5 s,
    /// Chromium ~1 s).
    pub timeout: Duration,
    /// Extra environment variables for the program (applied last).
    pub env: Vec<(String, String)>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(20),
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
    SessionBus,
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

/// The JSON state file written by [`Sandbox::save`].
#[derive(Debug, Serialize, Deserialize)]
struct StateFile {
    format: u32,
    id: String,
    display: String,
    session_bus_address: String,
    a11y_address: String,
    state_dir: PathBuf,
    width: u32,
    height: u32,
    depth: u8,
    processes: Vec<ProcRecord>,
    apps: Vec<App>,
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

fn state_dir_error(path: &Path, reason: impl Into<String>) -> SandboxError {
    SandboxError::StateDir {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

/// Creates the state directory (0700), its marker file and `runtime/`.
fn prepare_state_dir(requested: Option<&Path>, id: &str) -> Result<PathBuf, SandboxError> {
    let dir = match requested {
        Some(dir) => dir.to_owned(),
        None => std::env::temp_dir().join(format!("cup-sandbox-{id}")),
    };
    let dir = if dir.is_relative() {
        std::env::current_dir()
            .map_err(SandboxError::io("reading the current directory"))?
            .join(dir)
    } else {
        dir
    };
    // The accessibility bus socket ends up at runtime/at-spi/bus_<display>;
    // a unix socket path holds at most 107 bytes.
    let longest = dir.as_os_str().len() + "/runtime/at-spi/bus_65535".len();
    if longest > 107 {
        return Err(state_dir_error(
            &dir,
            format!("path too long for the unix sockets placed in it ({longest} > 107 bytes); choose a shorter state directory"),
        ));
    }
    if dir.exists() {
        let mut entries = std::fs::read_dir(&dir)
            .map_err(|e| state_dir_error(&dir, format!("{e}; it must be a directory")))?;
        if entries.next().is_some() {
            return Err(state_dir_error(
                &dir,
                "exists and is not empty; it would be removed at stop, so give a new or empty directory",
            ));
        }
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| state_dir_error(&dir, e.to_string()))?;
    } else {
        std::fs::DirBuilder::new()
            .recursive(requested.is_some())
            .mode(0o700)
            .create(&dir)
            .map_err(|e| state_dir_error(&dir, format!("cannot create it: {e}")))?;
    }
    std::fs::write(dir.join(DIR_MARKER), id)
        .map_err(|e| state_dir_error(&dir, format!("cannot write in it: {e}")))?;
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(dir.join("runtime"))
        .map_err(|e| state_dir_error(&dir, format!("cannot create runtime/ in it: {e}")))?;
    Ok(dir)
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
    /// bus (`at-spi-bus-launcher`) with `org.a11y.Status.IsEnabled` set,
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
        let xvfb = require("Xvfb")?;
        let dbus_daemon = require("dbus-daemon")?;
        let launcher = BUS_LAUNCHERS
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or_else(|| missing("/usr/libexec/at-spi-bus-launcher"))?;
        require("kill")?;
        let window_manager = if options.with_window_manager {
            Some((require("openbox")?, require("xprop")?))
        } else {
            None
        };

        let id = new_id();
        let state_dir = prepare_state_dir(options.state_dir.as_deref(), &id)?;
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
            detached: false,
            stopped: false,
        };
        // From here on an early return drops `sandbox`, which stops what
        // was started so far.
        let timeout = options.start_timeout;
        sandbox.start_xvfb(&xvfb, deadline, timeout)?;
        sandbox.start_session_bus(&dbus_daemon, deadline, timeout)?;
        sandbox.start_a11y(&launcher, deadline, timeout)?;
        if let Some((openbox, xprop)) = window_manager {
            sandbox.start_window_manager(&openbox, &xprop, deadline, timeout)?;
        }
        tracing::info!(
            display = %sandbox.display,
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
            .chain(&["DISPLAY", "DBUS_SESSION_BUS_ADDRESS"])
        {
            command.env_remove(name);
        }
        command.envs(self.env());
        command.stdin(Stdio::null());
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

    fn start_xvfb(
        &mut self,
        xvfb: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, _, log_path) = self.log_file("xvfb.log")?;
        let screen = format!("{}x{}x{}", self.width, self.height, self.depth);
        // -displayfd 1: Xvfb picks a free display, writes its number to
        // stdout once it accepts connections, then closes that fd.
        let mut command = self.base_command(xvfb.as_os_str());
        command
            .args(["-displayfd", "1", "-screen", "0", &screen])
            .args(["-nolisten", "tcp", "-noreset"])
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = Self::spawn(&mut command, "Xvfb")?;
        let pid = child.id();
        let stdout = child.stdout.take();
        self.adopt(Role::Xvfb, child);
        let Some(stdout) = stdout else {
            return Err(SandboxError::io("reading Xvfb's stdout")(
                std::io::ErrorKind::BrokenPipe.into(),
            ));
        };
        match first_line(stdout, deadline) {
            FirstLine::Line(line, _) => match line.parse::<u32>() {
                Ok(number) => {
                    self.display = format!(":{number}");
                    tracing::debug!(display = %self.display, pid, "Xvfb ready");
                    Ok(())
                }
                Err(_) => Err(SandboxError::NotReady {
                    component: "Xvfb".into(),
                    timeout,
                    detail: format!("it printed {line:?} instead of a display number"),
                }),
            },
            FirstLine::Timeout => Err(SandboxError::NotReady {
                component: "Xvfb".into(),
                timeout,
                detail: format!("it reported no display number; see {}", log_path.display()),
            }),
            FirstLine::Eof | FirstLine::Failed => {
                let status = self.wait_exit(pid);
                Err(Self::exited_error("Xvfb", status, &log_path))
            }
        }
    }

    /// Waits (briefly) for our child `pid` to exit and describes how.
    fn wait_exit(&self, pid: u32) -> String {
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            if let Some(status) = self.child_exit(pid) {
                return status;
            }
            if Instant::now() >= until {
                return "still running, but it closed its output".into();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn start_session_bus(
        &mut self,
        dbus_daemon: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, _, log_path) = self.log_file("session-bus.log")?;
        let address = format!("unix:path={}", self.state_dir.join("bus").display());
        let mut command = self.base_command(dbus_daemon.as_os_str());
        command
            .args(["--session", "--nofork", "--nosyslog", "--print-address=1"])
            .arg(format!("--address={address}"))
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = Self::spawn(&mut command, "dbus-daemon")?;
        let pid = child.id();
        let stdout = child.stdout.take();
        self.adopt(Role::SessionBus, child);
        let Some(stdout) = stdout else {
            return Err(SandboxError::io("reading dbus-daemon's stdout")(
                std::io::ErrorKind::BrokenPipe.into(),
            ));
        };
        match first_line(stdout, deadline) {
            FirstLine::Line(line, pipe) if line.starts_with("unix:") => {
                self.session_bus_address = line;
                // dbus-daemon keeps its stdout; keep the read end open too.
                self.pipes.push(pipe);
                tracing::debug!(address = %self.session_bus_address, pid, "session bus ready");
                Ok(())
            }
            FirstLine::Line(line, _) => Err(SandboxError::NotReady {
                component: "session dbus-daemon".into(),
                timeout,
                detail: format!("it printed {line:?} instead of its address"),
            }),
            FirstLine::Timeout => Err(SandboxError::NotReady {
                component: "session dbus-daemon".into(),
                timeout,
                detail: format!("it printed no address; see {}", log_path.display()),
            }),
            FirstLine::Eof | FirstLine::Failed => {
                let status = self.wait_exit(pid);
                Err(Self::exited_error("session dbus-daemon", status, &log_path))
            }
        }
    }

    fn start_a11y(
        &mut self,
        launcher: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, log2, log_path) = self.log_file("a11y-bus.log")?;
        let mut command = self.base_command(launcher.as_os_str());
        command.arg("--launch-immediately").stdout(log).stderr(log2);
        let child = Self::spawn(&mut command, "at-spi-bus-launcher")?;
        let launcher_pid = child.id();
        self.adopt(Role::A11yBusLauncher, child);

        let this = &*self;
        let found = bus::block_on(bus::wait_a11y_bus(
            &this.session_bus_address,
            deadline,
            timeout,
            || this.child_exit(launcher_pid),
        ))
        .and_then(|found| found);
        let found = match found {
            Ok(found) => found,
            Err(SandboxError::ComponentExited { status, .. }) => {
                return Err(Self::exited_error("at-spi-bus-launcher", status, &log_path))
            }
            Err(SandboxError::NotReady {
                component, detail, ..
            }) => {
                return Err(SandboxError::NotReady {
                    component,
                    timeout,
                    detail: format!("{detail}; see {}", log_path.display()),
                })
            }
            Err(e) => return Err(e),
        };
        self.a11y_address = found.address;
        // The bus itself is a dbus-daemon child of the launcher.
        for process in procfs::all() {
            if process.ppid == launcher_pid && process.is_live() {
                if let Some(record) = ProcRecord::capture(Role::A11yBus, process.pid) {
                    self.processes.push(record);
                }
            }
        }
        // The registry was D-Bus-activated and reparented to PID 1: it has
        // to be ended explicitly.
        if let Some(record) = ProcRecord::capture(Role::Registry, found.registry_pid) {
            self.processes.push(record);
        }
        tracing::debug!(address = %self.a11y_address, registry = found.registry_pid, "accessibility bus ready");
        Ok(())
    }

    fn start_window_manager(
        &mut self,
        openbox: &Path,
        xprop: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, log2, log_path) = self.log_file("window-manager.log")?;
        let mut command = self.base_command(openbox.as_os_str());
        command.arg("--sm-disable").stdout(log).stderr(log2);
        let child = Self::spawn(&mut command, "openbox")?;
        let pid = child.id();
        self.adopt(Role::WindowManager, child);
        // Ready once it advertises itself on the root window (EWMH).
        loop {
            let output = self
                .base_command(xprop.as_os_str())
                .args(["-root", "_NET_SUPPORTING_WM_CHECK"])
                .stderr(Stdio::null())
                .output()
                .map_err(|source| SandboxError::Spawn {
                    program: "xprop".into(),
                    source,
                })?;
            if String::from_utf8_lossy(&output.stdout).contains("window id") {
                tracing::debug!(pid, "window manager ready");
                return Ok(());
            }
            if let Some(status) = self.child_exit(pid) {
                return Err(Self::exited_error("openbox", status, &log_path));
            }
            if Instant::now() >= deadline {
                return Err(SandboxError::NotReady {
                    component: "openbox".into(),
                    timeout,
                    detail: format!(
                        "it never set _NET_SUPPORTING_WM_CHECK on the root window; see {}",
                        log_path.display()
                    ),
                });
            }
            std::thread::sleep(bus::POLL);
        }
    }

    /// The X display, e.g. `:3`.
    pub fn display(&self) -> &str {
        &self.display
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
    /// `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`, `AT_SPI_BUS_ADDRESS`,
    /// `QT_ACCESSIBILITY=1`, `QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1`,
    /// `ACCESSIBILITY_ENABLED=1` and [`MARKER_ENV`]. The variables in
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
        set("DBUS_SESSION_BUS_ADDRESS", &self.session_bus_address);
        set("XDG_RUNTIME_DIR", &self.runtime_dir().to_string_lossy());
        set("AT_SPI_BUS_ADDRESS", &self.a11y_address);
        for (name, value) in A11Y_ENV {
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

    /// Starts `program` in its own process group with the sandbox
    /// environment, and waits (up to 20 s) until it shows a window on the
    /// accessibility bus. See [`Sandbox::launch_with`].
    ///
    /// # Errors
    ///
    /// As [`Sandbox::launch_with`].
    pub fn launch<S: AsRef<OsStr>>(&self, program: &str, args: &[S]) -> Result<App, SandboxError> {
        self.launch_with(program, args, &LaunchOptions::default())
    }

    /// Starts `program` with `args` in its own process group with the
    /// sandbox environment (stdout and stderr to a log file in the state
    /// directory), then waits until an application registered with the
    /// AT-SPI registry whose pid is the spawned one or a descendant (or in
    /// its process group: wrapper scripts) has a child with the SHOWING
    /// state.
    ///
    /// Chromium needs `--force-renderer-accessibility` to expose its tree
    /// (and `--no-sandbox` as root); gtk4-widget-factory never registers
    /// (use gtk4-demo).
    ///
    /// On timeout, or if the program exits first, everything spawned is
    /// killed and the error says what was missing.
    ///
    /// # Errors
    ///
    /// [`SandboxError::MissingProgram`], [`SandboxError::LaunchTimeout`]
    /// (saying whether the program never registered or showed no window),
    /// [`SandboxError::AppExited`], [`SandboxError::Bus`].
    pub fn launch_with<S: AsRef<OsStr>>(
        &self,
        program: &str,
        args: &[S],
        options: &LaunchOptions,
    ) -> Result<App, SandboxError> {
        let path = procfs::find_program(program).ok_or_else(|| missing(program))?;
        let sequence = {
            let mut live = self.live();
            live.launches += 1;
            live.launches
        };
        let (out, err, log) =
            self.log_file(&format!("app-{sequence}-{}.log", procfs::basename(program)))?;
        let mut command = self.base_command(path.as_os_str());
        command
            .args(args)
            .envs(options.env.iter().map(|(k, v)| (k, v)))
            .process_group(0)
            .stdout(out)
            .stderr(err);
        let started = Instant::now();
        let mut child = Self::spawn(&mut command, program)?;
        let pid = child.id();
        let start_time = procfs::stat(pid).map(|s| s.start_time);
        let deadline = started + options.timeout;

        let outcome = bus::block_on(wait_for_window(
            &self.a11y_address,
            pid,
            deadline,
            &mut child,
        ))
        .unwrap_or_else(|e| Err(WaitFailure::Error(e)));
        match outcome {
            Ok(found) => {
                tracing::info!(
                    program,
                    pid,
                    bus_name = %found.bus_name,
                    elapsed_ms = millis(started),
                    "app visible"
                );
                let app = App {
                    program: program.to_owned(),
                    pid,
                    a11y_pid: found.a11y_pid,
                    bus_name: found.bus_name,
                    name: found.name,
                    log,
                };
                let mut live = self.live();
                if let Some(start_time) = start_time {
                    live.app_records.push(ProcRecord {
                        role: Role::App,
                        pid,
                        start_time,
                        // After a wrapper's exec: what /proc shows now.
                        program: procfs::program_name(pid).unwrap_or_default(),
                    });
                }
                live.apps.push(app.clone());
                live.children.push(child);
                Ok(app)
            }
            Err(failure) => {
                kill_group(pid, &mut child);
                let tail = match procfs::log_tail(&log, 5) {
                    t if t.is_empty() => t,
                    t => format!(": {t}"),
                };
                Err(match failure {
                    WaitFailure::Exited(status) => SandboxError::AppExited {
                        program: program.to_owned(),
                        status,
                        tail,
                        log,
                    },
                    WaitFailure::Missing(missing) => SandboxError::LaunchTimeout {
                        program: program.to_owned(),
                        timeout: options.timeout,
                        missing,
                        log,
                        tail,
                    },
                    WaitFailure::Error(e) => e,
                })
            }
        }
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

    /// Writes the sandbox's state (pids with their start times and
    /// programs, display, bus addresses, state directory, apps) as JSON to
    /// `path` (mode 0600, replaced atomically), for [`Sandbox::attach`] and
    /// [`Sandbox::stop_from_file`]. Save again after launching apps that a
    /// later `stop_from_file` should end.
    ///
    /// # Errors
    ///
    /// [`SandboxError::StateFile`] when the file cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), SandboxError> {
        let path = path.as_ref();
        let live = self.live();
        let state = StateFile {
            format: STATE_FORMAT,
            id: self.id.clone(),
            display: self.display.clone(),
            session_bus_address: self.session_bus_address.clone(),
            a11y_address: self.a11y_address.clone(),
            state_dir: self.state_dir.clone(),
            width: self.width,
            height: self.height,
            depth: self.depth,
            processes: self
                .processes
                .iter()
                .chain(&live.app_records)
                .cloned()
                .collect(),
            apps: live.apps.clone(),
        };
        drop(live);
        let file_error = |reason: String| SandboxError::StateFile {
            path: path.to_owned(),
            reason,
        };
        let json = serde_json::to_vec_pretty(&state).map_err(|e| file_error(e.to_string()))?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| file_error(format!("cannot create its directory: {e}")))?;
        }
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            use std::os::unix::fs::OpenOptionsExt;
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&temporary)?;
            file.write_all(&json)?;
            file.sync_all()?;
            std::fs::rename(&temporary, path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            file_error(format!("cannot write it: {e}"))
        })
    }

    fn load(path: &Path) -> Result<Self, SandboxError> {
        let file_error = |reason: String| SandboxError::StateFile {
            path: path.to_owned(),
            reason,
        };
        let bytes = std::fs::read(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                file_error(
                    "not found: no sandbox was saved there (start one with `cup sandbox start`)"
                        .into(),
                )
            } else {
                file_error(format!("cannot read it: {e}"))
            }
        })?;
        let state: StateFile = serde_json::from_slice(&bytes)
            .map_err(|e| file_error(format!("not a cup sandbox state file: {e}")))?;
        if state.format != STATE_FORMAT {
            return Err(file_error(format!(
                "format {} is not supported (expected {STATE_FORMAT}); it was written by another version of cup",
                state.format
            )));
        }
        let (app_records, processes) = state
            .processes
            .into_iter()
            .partition(|r| r.role == Role::App);
        Ok(Self {
            id: state.id,
            display: state.display,
            session_bus_address: state.session_bus_address,
            a11y_address: state.a11y_address,
            state_dir: state.state_dir,
            width: state.width,
            height: state.height,
            depth: state.depth,
            processes,
            live: Mutex::new(Live {
                launches: u32::try_from(state.apps.len()).unwrap_or(u32::MAX),
                apps: state.apps,
                app_records,
                children: Vec::new(),
            }),
            pipes: Vec::new(),
            detached: true,
            stopped: false,
        })
    }

    /// Opens a sandbox saved with [`Sandbox::save`] (by this or another
    /// process) after checking that its Xvfb and buses still run. The
    /// returned value is detached: dropping it leaves the desktop running;
    /// call [`Sandbox::stop`] to end it.
    ///
    /// # Errors
    ///
    /// [`SandboxError::StateFile`] when the file is missing, unreadable, of
    /// another format, or when the sandbox it records is no longer running.
    pub fn attach(path: impl AsRef<Path>) -> Result<Self, SandboxError> {
        let path = path.as_ref();
        let sandbox = Self::load(path)?;
        let dead: Vec<String> = sandbox
            .processes
            .iter()
            .filter(|r| matches!(r.role, Role::Xvfb | Role::SessionBus | Role::A11yBus))
            .filter(|r| !r.is_running())
            .map(|r| format!("{} (pid {})", r.program, r.pid))
            .collect();
        if !dead.is_empty() {
            return Err(SandboxError::StateFile {
                path: path.to_owned(),
                reason: format!(
                    "the sandbox on display {} is no longer running ({} gone); clean up with `cup sandbox stop` and start a new one",
                    sandbox.display,
                    dead.join(", ")
                ),
            });
        }
        Ok(sandbox)
    }

    /// Stops the sandbox saved in `path` (see [`Sandbox::stop`]): ends
    /// only processes whose pid, start time and program still match the
    /// record (pids get reused) or that carry the sandbox's
    /// [`MARKER_ENV`], removes its state directory, then the state file.
    /// Works when the desktop already died, to clean up what is left.
    ///
    /// # Errors
    ///
    /// [`SandboxError::StateFile`] when there is no readable state file
    /// (nothing to stop), else as [`Sandbox::stop`].
    pub fn stop_from_file(path: impl AsRef<Path>) -> Result<(), SandboxError> {
        let path = path.as_ref();
        let sandbox = Self::load(path)?;
        sandbox.stop()?;
        match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(SandboxError::StateFile {
                path: path.to_owned(),
                reason: format!("the sandbox stopped, but the file could not be removed: {e}"),
            }),
        }
    }

    /// Ends everything the sandbox started, by pid: the apps' process
    /// groups, processes carrying [`MARKER_ENV`] (bus-activated services),
    /// the window manager, the registry, the accessibility bus, the session
    /// bus and Xvfb; SIGTERM first, SIGKILL after a 2 s grace; reaps its
    /// children; removes the state directory. Takes ~0.1 s.
    ///
    /// # Errors
    ///
    /// [`SandboxError::Survivors`] when processes outlive SIGKILL,
    /// [`SandboxError::StateDir`] when the directory cannot be removed (or
    /// lacks the sandbox's marker file), [`SandboxError::MissingProgram`]
    /// without `kill` (procps).
    pub fn stop(mut self) -> Result<(), SandboxError> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), SandboxError> {
        if self.stopped {
            return Ok(());
        }
        self.stopped = true;
        let started = Instant::now();
        let protected = procfs::self_and_ancestors(std::process::id());
        let marker = format!("{MARKER_ENV}={}", self.id).into_bytes();
        let (groups, launcher) = {
            let live = self.live();
            // An app's process group is still the one it created while some
            // process is in it (the kernel does not hand out a pid that is
            // in use as a process group id), unless its leader's pid was
            // reused after the group emptied: then the start time differs.
            let groups: Vec<u32> = live
                .app_records
                .iter()
                .filter(|r| procfs::stat(r.pid).is_none_or(|s| s.start_time == r.start_time))
                .map(|r| r.pid)
                .collect();
            let launcher = self
                .processes
                .iter()
                .find(|r| r.role == Role::A11yBusLauncher)
                .map(|r| (r.pid, r.start_time));
            (groups, launcher)
        };
        let ours = |spare_launcher: bool| -> Vec<(u32, u64)> {
            procfs::all()
                .into_iter()
                .filter(|p| p.is_live() && !protected.contains(&p.pid))
                .filter(|p| !(spare_launcher && launcher == Some((p.pid, p.start_time))))
                .filter(|p| {
                    groups.contains(&p.pgid)
                        || self.processes.iter().any(|r| {
                            r.pid == p.pid && r.start_time == p.start_time && r.is_running()
                        })
                        || procfs::environ_has(p.pid, &marker)
                })
                .map(|p| (p.pid, p.start_time))
                .collect()
        };
        let reap = || {
            for child in &mut self.live().children {
                let _ = child.try_wait();
            }
        };
        let pids = |targets: &[(u32, u64)]| targets.iter().map(|t| t.0).collect::<Vec<_>>();

        // The bus launcher last: it reaps the accessibility dbus-daemon
        // when that exits; killed first, it would leave it to PID 1.
        let first = ours(true);
        procfs::signal(&pids(&first), "TERM")?;
        procfs::wait_gone(&first, TERM_GRACE, reap);
        let second = ours(false);
        procfs::signal(&pids(&second), "TERM")?;
        procfs::wait_gone(&second, TERM_GRACE, reap);
        let last = ours(false);
        if !last.is_empty() {
            tracing::warn!(pids = ?pids(&last), "still running after SIGTERM; sending SIGKILL");
            procfs::signal(&pids(&last), "KILL")?;
            let left = procfs::wait_gone(&last, TERM_GRACE, reap);
            if !left.is_empty() {
                return Err(SandboxError::Survivors { pids: pids(&left) });
            }
        }
        self.reap_children();
        self.pipes.clear();
        self.remove_x_lock();
        self.remove_state_dir()?;
        tracing::info!(
            display = %self.display,
            elapsed_ms = millis(started),
            "sandbox stopped"
        );
        Ok(())
    }

    /// Reaps every child (also those that exited on their own earlier);
    /// waits up to 2 s for any that is still exiting.
    fn reap_children(&self) {
        let deadline = Instant::now() + TERM_GRACE;
        let mut live = self.live();
        loop {
            let mut running = 0;
            for child in &mut live.children {
                if let Ok(None) = child.try_wait() {
                    running += 1;
                }
            }
            if running == 0 {
                return;
            }
            if Instant::now() >= deadline {
                tracing::warn!(running, "children of the sandbox still running after stop");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Xvfb removes its lock file on SIGTERM, not on SIGKILL.
    fn remove_x_lock(&self) {
        let Some(number) = self.display.strip_prefix(':') else {
            return;
        };
        let Some(xvfb) = self.processes.iter().find(|r| r.role == Role::Xvfb) else {
            return;
        };
        let lock = PathBuf::from(format!("/tmp/.X{number}-lock"));
        let holder = std::fs::read_to_string(&lock)
            .ok()
            .and_then(|text| text.trim().parse::<u32>().ok());
        if holder == Some(xvfb.pid) && procfs::stat(xvfb.pid).is_none_or(|s| !s.is_live()) {
            let _ = std::fs::remove_file(&lock);
            let _ = std::fs::remove_file(format!("/tmp/.X11-unix/X{number}"));
        }
    }

    fn remove_state_dir(&self) -> Result<(), SandboxError> {
        let dir = &self.state_dir;
        match std::fs::read_to_string(dir.join(DIR_MARKER)) {
            Ok(id) if id == self.id => std::fs::remove_dir_all(dir)
                .map_err(|e| state_dir_error(dir, format!("cannot remove it: {e}"))),
            Ok(_) => Err(state_dir_error(
                dir,
                "belongs to another sandbox (its .cup-sandbox id differs); not removing it",
            )),
            Err(_) if !dir.exists() => Ok(()),
            Err(_) => Err(state_dir_error(
                dir,
                "has no .cup-sandbox marker, so it is not a sandbox directory; not removing it",
            )),
        }
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

/// SIGTERM to an app's process group, SIGKILL after a grace, reap.
fn kill_group(pgid: u32, child: &mut Child) {
    let members = |pgid: u32| -> Vec<(u32, u64)> {
        procfs::all()
            .into_iter()
            .filter(|p| p.pgid == pgid && p.is_live())
            .map(|p| (p.pid, p.start_time))
            .collect()
    };
    let mut reap = || {
        let _ = child.try_wait();
    };
    for signal in ["TERM", "KILL"] {
        let targets = members(pgid);
        if targets.is_empty() {
            break;
        }
        let pids: Vec<u32> = targets.iter().map(|t| t.0).collect();
        if procfs::signal(&pids, signal).is_err() {
            break;
        }
        if procfs::wait_gone(&targets, Duration::from_secs(1), &mut reap).is_empty() {
            break;
        }
    }
    reap();
}

/// What [`Sandbox::launch_with`] found on the accessibility bus.
#[derive(Debug)]
struct Found {
    bus_name: String,
    a11y_pid: u32,
    name: String,
}

/// Why an app was not found.
#[derive(Debug)]
enum WaitFailure {
    /// The spawned process exited, and nothing is left in its group.
    Exited(String),
    /// The deadline passed; what was missing.
    Missing(String),
    Error(SandboxError),
}

/// Whether the process `pid` (owner of an a11y connection) belongs to the
/// program spawned as `spawned` (leader of its own process group).
fn belongs(pid: u32, spawned: u32) -> bool {
    pid == spawned
        || procfs::stat(pid).is_some_and(|s| s.pgid == spawned)
        || procfs::descends_from(pid, spawned)
}

/// Polls the registry until an app of `spawned` shows a window.
async fn wait_for_window(
    a11y_address: &str,
    spawned: u32,
    deadline: Instant,
    child: &mut Child,
) -> Result<Found, WaitFailure> {
    let a11y = bus::connect(a11y_address, "accessibility bus")
        .await
        .map_err(WaitFailure::Error)?;
    let mut pids: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let mut missing;
    loop {
        match bus::registry_children(&a11y).await {
            Ok(apps) => {
                let mut mine = None;
                for (bus_name, path) in &apps {
                    let pid = match pids.get(bus_name) {
                        Some(&pid) => pid,
                        None => match bus::connection_pid(&a11y, bus_name).await {
                            Ok(pid) => {
                                pids.insert(bus_name.clone(), pid);
                                pid
                            }
                            Err(_) => continue,
                        },
                    };
                    if belongs(pid, spawned) {
                        mine = Some((bus_name, path, pid));
                        break;
                    }
                }
                match mine {
                    None => {
                        let others: Vec<String> = apps
                            .iter()
                            .filter_map(|(name, _)| {
                                pids.get(name).map(|pid| format!("{name} (pid {pid})"))
                            })
                            .collect();
                        missing = format!(
                            "no application with pid {spawned} or a descendant registered (registered: {}); \
                             is it a GUI program with accessibility on? (Chromium needs \
                             --force-renderer-accessibility; gtk4-widget-factory never registers)",
                            if others.is_empty() { "none".into() } else { others.join(", ") }
                        );
                    }
                    Some((bus_name, path, pid)) => {
                        let windows = bus::children(&a11y, bus_name, path.as_str()).await;
                        let windows = windows.unwrap_or_default();
                        for (window_bus, window_path) in &windows {
                            if bus::is_showing(&a11y, window_bus, window_path.as_str())
                                .await
                                .unwrap_or(false)
                            {
                                return Ok(Found {
                                    bus_name: bus_name.clone(),
                                    a11y_pid: pid,
                                    name: bus::name(&a11y, bus_name, path.as_str()).await,
                                });
                            }
                        }
                        missing = format!(
                            "it registered as {bus_name} (pid {pid}) but none of its {} windows has the SHOWING state",
                            windows.len()
                        );
                    }
                }
            }
            Err(e) => missing = format!("the registry did not answer: {e}"),
        }
        if let Ok(Some(status)) = child.try_wait() {
            // A wrapper may have forked the real program and exited.
            let group_alive = procfs::all()
                .iter()
                .any(|p| p.pgid == spawned && p.is_live());
            if !group_alive {
                return Err(WaitFailure::Exited(exit_status_text(status)));
            }
        }
        if Instant::now() >= deadline {
            return Err(WaitFailure::Missing(missing));
        }
        tokio::time::sleep(bus::POLL).await;
    }
}
