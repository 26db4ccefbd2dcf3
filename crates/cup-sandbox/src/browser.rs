//! A Chromium with remote debugging on a free loopback port and a fresh
//! profile, headless or on a sandbox's display; ended by its process group
//! (never by name), its profile removed. Its state can be saved to a file
//! so `cup browser stop` in another process ends exactly it.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::SandboxError;
use crate::procfs;

/// How the browser starts.
#[derive(Debug, Clone)]
pub struct BrowserOptions {
    /// `--headless` (no display needed).
    pub headless: bool,
    /// The first page (default `about:blank`).
    pub url: Option<String>,
    /// Window (and headless viewport) size.
    pub window_size: (u32, u32),
    /// Environment of a sandbox to run in (its `DISPLAY` and buses).
    pub env: Vec<(String, String)>,
    /// More arguments.
    pub args: Vec<String>,
    /// How long to wait for the DevTools endpoint (default 60 s: Chromium
    /// starts in ~1 s, but took over 20 s once on a loaded 2-core machine).
    pub timeout: Duration,
}

impl Default for BrowserOptions {
    fn default() -> Self {
        BrowserOptions {
            headless: true,
            url: None,
            window_size: (1280, 800),
            env: Vec::new(),
            args: Vec::new(),
            timeout: Duration::from_secs(60),
        }
    }
}

/// What is needed to find and stop the browser later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrowserState {
    /// Process (and process group) id.
    pub pid: u32,
    /// Its start time (so a reused pid is never signalled).
    pub start_time: u64,
    /// DevTools port on 127.0.0.1.
    pub port: u16,
    /// The profile directory (removed at stop).
    pub profile: PathBuf,
}

/// A running browser.
#[derive(Debug)]
pub struct Browser {
    state: BrowserState,
    child: Option<std::process::Child>,
    detached: bool,
}

/// Whether the unix sockets programs make in `tmpdir` as their `TMPDIR`
/// fit the 107 bytes of a socket path: the longest is Chromium's singleton
/// socket, `org.chromium.Chromium.XXXXXX/SingletonSocket`.
pub(crate) fn sockets_fit_in(tmpdir: &Path) -> bool {
    const LONGEST: &str = "/org.chromium.Chromium.XXXXXX/SingletonSocket";
    tmpdir.as_os_str().len() + LONGEST.len() <= 107
}

/// The Chromium binary: `CUP_CHROMIUM`, else `chromium`,
/// `chromium-browser`, `google-chrome` on `PATH`.
///
/// # Errors
///
/// [`SandboxError::MissingProgram`] naming the package.
pub fn chromium_binary() -> Result<PathBuf, SandboxError> {
    if let Some(p) = std::env::var_os("CUP_CHROMIUM").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return procfs::find_program(&p.to_string_lossy()).ok_or_else(|| {
            SandboxError::MissingProgram {
                program: p.display().to_string(),
                hint: "CUP_CHROMIUM names no executable; unset it or fix the path".into(),
            }
        });
    }
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .find_map(|n| procfs::find_program(n))
    .ok_or_else(|| SandboxError::MissingProgram {
        program: "chromium".into(),
        hint: "install it: apt-get install chromium (or run scripts/install-deps.sh as root)"
            .into(),
    })
}

/// A free port on 127.0.0.1 (bound and released; the browser binds it
/// next).
fn free_port() -> Result<u16, SandboxError> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(SandboxError::io("picking a free port"))?;
    let port = l
        .local_addr()
        .map_err(SandboxError::io("picking a free port"))?
        .port();
    Ok(port)
}

/// Whether `/json/version` answers on `port`.
fn devtools_answers(port: u16) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
    if s.write_all(b"GET /json/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut buf = Vec::new();
    let _ = s.take(1 << 16).read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).contains("webSocketDebuggerUrl")
}

impl Browser {
    /// Starts Chromium and waits until its DevTools endpoint answers.
    ///
    /// # Errors
    ///
    /// Chromium missing, not starting, or not answering in time (with the
    /// tail of its log).
    pub fn start(options: &BrowserOptions) -> Result<Browser, SandboxError> {
        let binary = chromium_binary()?;
        let profile = std::env::temp_dir().join(format!(
            "cup-browser-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos() ^ u128::from(free_port()?)
        ));
        std::fs::create_dir_all(&profile).map_err(SandboxError::io(format!(
            "creating the profile {}",
            profile.display()
        )))?;
        // Chromium's singleton socket folder goes in TMPDIR and stays there
        // when Chromium is killed: TMPDIR is in the profile, removed at
        // stop, when the socket's path fits (107 bytes at most).
        let tmp = Some(profile.join("tmp")).filter(|tmp| sockets_fit_in(tmp));
        if let Some(tmp) = &tmp {
            std::fs::create_dir(tmp)
                .map_err(SandboxError::io(format!("creating {}", tmp.display())))?;
        }
        let log_path = profile.join("chromium.log");
        let log = std::fs::File::create(&log_path)
            .map_err(SandboxError::io(format!("creating {}", log_path.display())))?;
        let log_err = log
            .try_clone()
            .map_err(SandboxError::io("opening the browser log"))?;
        let mut last_error = String::new();
        // The port is free when picked; another process may take it first,
        // so try a few.
        for _ in 0..3 {
            let port = free_port()?;
            let mut command = Command::new(&binary);
            if let Some(tmp) = &tmp {
                command.env("TMPDIR", tmp);
            }
            for (k, v) in &options.env {
                command.env(k, v);
            }
            if options.headless {
                command.arg("--headless");
            }
            command
                .args([
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--no-default-browser-check",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-features=Translate,MediaRouter",
                    "--remote-debugging-address=127.0.0.1",
                    "--force-renderer-accessibility",
                ])
                .arg(format!("--remote-debugging-port={port}"))
                .arg(format!("--user-data-dir={}", profile.display()))
                .arg(format!(
                    "--window-size={},{}",
                    options.window_size.0, options.window_size.1
                ))
                .args(&options.args)
                .arg(options.url.as_deref().unwrap_or("about:blank"))
                .stdin(Stdio::null())
                .stdout(log.try_clone().map_err(SandboxError::io("browser log"))?)
                .stderr(
                    log_err
                        .try_clone()
                        .map_err(SandboxError::io("browser log"))?,
                );
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
            let mut child = command.spawn().map_err(|source| SandboxError::Spawn {
                program: binary.display().to_string(),
                source,
            })?;
            let pid = child.id();
            let start_time = procfs::stat(pid).map_or(0, |s| s.start_time);
            let deadline = Instant::now() + options.timeout;
            loop {
                if devtools_answers(port) {
                    return Ok(Browser {
                        state: BrowserState {
                            pid,
                            start_time,
                            port,
                            profile,
                        },
                        child: Some(child),
                        detached: false,
                    });
                }
                if let Ok(Some(status)) = child.try_wait() {
                    last_error = format!(
                        "chromium exited ({status}): {}",
                        procfs::log_tail(&log_path, 3)
                    );
                    break;
                }
                if Instant::now() >= deadline {
                    kill_group(pid, start_time);
                    let _ = child.wait();
                    let _ = std::fs::remove_dir_all(&profile);
                    return Err(SandboxError::NotReady {
                        component: "chromium's DevTools endpoint".into(),
                        timeout: options.timeout,
                        detail: procfs::log_tail(&log_path, 3),
                    });
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = std::fs::remove_dir_all(&profile);
        Err(SandboxError::NotReady {
            component: "chromium".into(),
            timeout: options.timeout,
            detail: last_error,
        })
    }

    /// Whether the DevTools endpoint answers (within about 0.7 s).
    pub fn answers(&self) -> bool {
        devtools_answers(self.state.port)
    }

    /// The DevTools port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.state.port
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.state.pid
    }

    /// What [`Browser::stop_state`] needs.
    pub fn state(&self) -> &BrowserState {
        &self.state
    }

    /// Writes the state to `path` (0600) and leaves the browser running
    /// when this value is dropped.
    ///
    /// # Errors
    ///
    /// When the file cannot be written.
    pub fn save_and_detach(mut self, path: &Path) -> Result<BrowserState, SandboxError> {
        let json = serde_json::to_vec_pretty(&self.state)
            .map_err(|e| SandboxError::io("browser state")(std::io::Error::other(e)))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(SandboxError::io(format!("creating {}", dir.display())))?;
        }
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(path)
            .map_err(SandboxError::io(format!("writing {}", path.display())))?;
        f.write_all(&json)
            .map_err(SandboxError::io(format!("writing {}", path.display())))?;
        self.detached = true;
        Ok(self.state.clone())
    }

    /// Ends the browser of a saved state (its process group, if it is still
    /// the same process) and removes its profile.
    pub fn stop_state(state: &BrowserState) {
        kill_group(state.pid, state.start_time);
        let _ = std::fs::remove_dir_all(&state.profile);
    }

    /// Ends the browser and removes its profile.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        kill_group(self.state.pid, self.state.start_time);
        if let Some(mut c) = self.child.take() {
            let _ = c.wait();
        }
        let _ = std::fs::remove_dir_all(&self.state.profile);
        self.detached = true;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.detached {
            self.shutdown();
        }
    }
}

/// SIGTERM to the process group led by `pid` (if `pid` is still the
/// process that started at `start_time`), SIGKILL after a grace.
fn kill_group(pid: u32, start_time: u64) {
    if start_time != 0 && !procfs::is_running(pid, start_time) {
        return;
    }
    for signal in ["TERM", "KILL"] {
        let members: Vec<(u32, u64)> = procfs::all()
            .into_iter()
            .filter(|p| p.pgid == pid && p.is_live())
            .map(|p| (p.pid, p.start_time))
            .collect();
        if members.is_empty() {
            return;
        }
        let pids: Vec<u32> = members.iter().map(|m| m.0).collect();
        if procfs::signal(&pids, signal).is_err() {
            return;
        }
        if procfs::wait_gone(&members, Duration::from_secs(2), || {}).is_empty() {
            return;
        }
    }
}
