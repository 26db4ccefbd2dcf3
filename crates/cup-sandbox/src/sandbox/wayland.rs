//! A Wayland sandbox: a headless sway on the sandbox's private runtime
//! directory, no X server. sway refuses to run as root ("Unable to drop
//! root"), so when the caller is root every process of the sandbox runs
//! as `nobody`, and the session bus admits root as well (for cup; the
//! accessibility bus's own configuration already does).

use std::io::{Read as _, Write as _};
use std::os::unix::net::UnixStream;

use super::*;

/// The uid and gid of `nobody`.
pub(super) const NOBODY: u32 = 65534;

/// Variables that make toolkits use the compositor: GTK and Qt on
/// Wayland, GTK 4 drawn with cairo (no GPU, and its GL renderer never
/// mapped a window on a headless sway here), SDL and Clutter too.
pub(super) const CLIENT_ENV: &[(&str, &str)] = &[
    ("GDK_BACKEND", "wayland"),
    ("QT_QPA_PLATFORM", "wayland"),
    ("GSK_RENDERER", "cairo"),
    ("SDL_VIDEODRIVER", "wayland"),
    ("CLUTTER_BACKEND", "wayland"),
    ("XDG_SESSION_TYPE", "wayland"),
];

/// The compositor's sockets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Session {
    /// The Wayland socket (absolute path; clients take it as
    /// `WAYLAND_DISPLAY`).
    pub socket: PathBuf,
    /// sway's IPC socket (`SWAYSOCK`); none under KWin and GNOME.
    #[serde(default)]
    pub ipc: Option<PathBuf>,
    /// The session-bus name that answers for a compositor without sway's
    /// IPC (`org.kde.KWin`, `org.gnome.Mutter.RemoteDesktop`).
    #[serde(default)]
    pub service: Option<String>,
}

/// The process runs as root (its `/proc/self` belongs to uid 0).
pub(super) fn caller_is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// sway's configuration: one headless output of the sandbox's size at
/// (0, 0), no XWayland.
fn sway_config(width: u32, height: u32) -> String {
    format!(
        "output HEADLESS-1 resolution {width}x{height} position 0 0\n\
         xwayland disable\n\
         focus_on_window_activation focus\n"
    )
}

/// Asks sway's IPC for its version within `timeout`.
pub(super) fn sway_answers(ipc: &Path, timeout: Duration) -> Result<(), String> {
    let mut stream = UnixStream::connect(ipc)
        .map_err(|e| format!("cannot reach sway's IPC at {}: {e}", ipc.display()))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    // i3-ipc, payload length 0, type 7 (GET_VERSION).
    let mut message = b"i3-ipc".to_vec();
    message.extend_from_slice(&0_u32.to_ne_bytes());
    message.extend_from_slice(&7_u32.to_ne_bytes());
    stream.write_all(&message).map_err(|e| e.to_string())?;
    let mut header = [0_u8; 14];
    stream.read_exact(&mut header).map_err(|e| {
        format!(
            "sway's IPC did not answer within {} ms: {e}",
            timeout.as_millis()
        )
    })?;
    if &header[..6] == b"i3-ipc" {
        Ok(())
    } else {
        Err("sway's IPC answered without the i3-ipc header".into())
    }
}

impl Sandbox {
    /// The sandbox user's home (its processes' `HOME`).
    pub fn home(&self) -> PathBuf {
        self.state_dir.join("home")
    }

    /// Where the desktop is, for messages: `display :3` or `Wayland
    /// socket /tmp/…/runtime/wayland-1`.
    pub fn location(&self) -> String {
        match &self.wayland {
            Some(session) => format!("Wayland socket {}", session.socket.display()),
            None => format!("display {}", self.display),
        }
    }

    /// Starts sway headless and waits until its IPC answers and its
    /// Wayland socket is there.
    pub(super) fn start_sway(
        &mut self,
        sway: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, log2, log_path) = self.log_file("sway.log")?;
        let config = self.state_dir.join("sway.conf");
        std::fs::write(&config, sway_config(self.width, self.height))
            .map_err(SandboxError::io(format!("writing {}", config.display())))?;
        let runtime = self.runtime_dir();
        let ipc = runtime.join("sway-ipc.sock");
        let mut command = self.base_command(sway.as_os_str());
        command
            .arg("-c")
            .arg(&config)
            .env("WLR_BACKENDS", "headless")
            .env("WLR_LIBINPUT_NO_DEVICES", "1")
            .env("WLR_RENDERER", "pixman")
            .env("SWAYSOCK", &ipc)
            .stdout(log)
            .stderr(log2);
        let child = Self::spawn(&mut command, "sway")?;
        let pid = child.id();
        self.adopt(Role::Compositor, child);
        loop {
            let socket = std::fs::read_dir(&runtime).ok().and_then(|entries| {
                entries.flatten().map(|e| e.path()).find(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("wayland-") && !n.ends_with(".lock"))
                })
            });
            if let Some(socket) = socket {
                if sway_answers(&ipc, Duration::from_millis(500)).is_ok() {
                    tracing::debug!(pid, socket = %socket.display(), "sway ready");
                    self.wayland = Some(Session {
                        socket,
                        ipc: Some(ipc),
                        service: None,
                    });
                    return Ok(());
                }
            }
            if let Some(status) = self.child_exit(pid) {
                return Err(Self::exited_error("sway", status, &log_path));
            }
            if Instant::now() >= deadline {
                return Err(SandboxError::NotReady {
                    component: "sway".into(),
                    timeout,
                    detail: format!(
                        "no Wayland socket or IPC answer in {}; see {}",
                        runtime.display(),
                        log_path.display()
                    ),
                });
            }
            std::thread::sleep(bus::POLL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sway_config_has_one_headless_output_of_the_sandboxs_size() {
        let config = sway_config(1280, 800);
        assert!(config.contains("output HEADLESS-1 resolution 1280x800 position 0 0"));
        assert!(config.contains("xwayland disable"));
    }
}
