//! A KDE sandbox: KWin's virtual backend (`kwin_wayland --virtual`) on the
//! sandbox's private runtime directory and session bus, no X server, run
//! as `nobody` when the caller is root (like sway).
//!
//! Debian's `kwin_wayland` carries the file capability `cap_sys_resource`;
//! where the process's bounding set lacks it (containers), executing it
//! fails with "Operation not permitted". A copy in the state directory has
//! no capability and runs.
//!
//! KWin offers its fake-input protocol (cup's pointer and keys there) only
//! to programs a desktop file allows: `cup setup kde`, run as the
//! sandbox's user with its `HOME`, writes one.

use super::*;

/// The socket name KWin is told to listen on.
const SOCKET: &str = "wayland-cup";

/// KWin's name on the session bus.
const KWIN: &str = "org.kde.KWin";

impl Sandbox {
    /// Starts KWin's virtual backend and waits until its Wayland socket is
    /// there and it owns `org.kde.KWin` on the session bus.
    pub(super) fn start_kwin(
        &mut self,
        kwin: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, log2, log_path) = self.log_file("kwin.log")?;
        // A copy without the file capability (see the module's note).
        let copy = self.state_dir.join("kwin_wayland");
        std::fs::copy(kwin, &copy)
            .map_err(SandboxError::io(format!("copying {}", kwin.display())))?;
        if let Some((uid, gid)) = self.user {
            std::os::unix::fs::chown(&copy, Some(uid), Some(gid))
                .map_err(SandboxError::io(format!("chown {}", copy.display())))?;
        }
        let mut command = self.base_command(copy.as_os_str());
        // KWin reads the desktop files that allow its restricted protocols
        // from this home, whoever the caller is (never the caller's own).
        let home = self.home();
        std::fs::create_dir_all(&home)
            .map_err(SandboxError::io(format!("creating {}", home.display())))?;
        command
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .args(["--virtual", "--no-lockscreen", "--socket", SOCKET])
            .arg("--width")
            .arg(self.width.to_string())
            .arg("--height")
            .arg(self.height.to_string())
            .stdout(log)
            .stderr(log2);
        let child = Self::spawn(&mut command, "kwin_wayland")?;
        let pid = child.id();
        self.adopt(Role::Compositor, child);
        let socket = self.runtime_dir().join(SOCKET);
        loop {
            if socket.exists() && self.name_answers(KWIN, Duration::from_millis(500)).is_ok() {
                tracing::debug!(pid, socket = %socket.display(), "kwin ready");
                self.wayland = Some(wayland::Session {
                    socket,
                    ipc: None,
                    service: Some(KWIN.to_owned()),
                });
                return Ok(());
            }
            if let Some(status) = self.child_exit(pid) {
                return Err(Self::exited_error("kwin_wayland", status, &log_path));
            }
            if Instant::now() >= deadline {
                return Err(SandboxError::NotReady {
                    component: "kwin_wayland".into(),
                    timeout,
                    detail: format!(
                        "no socket {} or org.kde.KWin on the session bus; see {}",
                        socket.display(),
                        log_path.display()
                    ),
                });
            }
            std::thread::sleep(bus::POLL);
        }
    }

    /// Whether `name` has an owner on the sandbox's session bus (asked
    /// within `timeout`).
    pub(super) fn name_answers(&self, name: &str, timeout: Duration) -> Result<(), String> {
        let address = self.session_bus_address.clone();
        let asked = name.to_owned();
        let owned = bus::block_on(async move {
            tokio::time::timeout(timeout, bus::name_has_owner(&address, &asked)).await
        })
        .map_err(|e| e.to_string())?;
        match owned {
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(format!("{name} is not on the session bus")),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!(
                "the session bus did not answer within {} ms",
                timeout.as_millis()
            )),
        }
    }
}
