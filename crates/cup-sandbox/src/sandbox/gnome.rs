//! A GNOME sandbox: GNOME Shell headless (`gnome-shell --headless
//! --wayland --no-x11 --virtual-monitor WxH`, mutter inside) on the
//! sandbox's private runtime directory and session bus, no X server, run
//! as `nobody` when the caller is root (like sway and KWin).
//!
//! What the shell needs besides (measured on GNOME 43):
//! - a system bus: with `/run/systemd/seats` present it asks logind and
//!   dies without one; a second private `dbus-daemon` stands in for it
//!   (only the shell is told its address);
//! - PipeWire and WirePlumber: mutter's screen-cast streams, which its
//!   RemoteDesktop input (cup's pointer and keys) hangs off;
//! - settings: read from a key file in the sandbox's home
//!   (`GSETTINGS_BACKEND=keyfile`), never the caller's dconf, which is
//!   also where the extensions to load are enabled, new windows are
//!   centred and animations are off.
//!
//! The session bus starts services (the desktop portal and its GNOME
//! backend, whose dialogs are GTK windows on this desktop) with
//! `XDG_CURRENT_DESKTOP=GNOME` and the display, as a GNOME session does.
//!
//! The shell opens its overview when it starts; once it says it is ready
//! (`READY=1` on `NOTIFY_SOCKET`, after its start-up animation), start-up
//! closes it (`org.gnome.Shell.OverviewActive`), so windows show as they
//! are.
//!
//! Extensions asked for ([`ShellExtension`]) are written into the
//! sandbox's home before the shell starts; start-up waits for the bus
//! name each one owns.

use super::*;

/// The socket name the shell is told to listen on.
const SOCKET: &str = "wayland-cup";

/// How long the overview must stay closed before start-up is over.
const OVERVIEW_SETTLE: Duration = Duration::from_millis(600);

/// Mutter's input service: owned once the compositor is up.
const REMOTE_DESKTOP: &str = "org.gnome.Mutter.RemoteDesktop";

/// The programs a GNOME sandbox runs.
#[derive(Debug, Clone)]
pub(super) struct Programs {
    shell: PathBuf,
    pipewire: PathBuf,
    wireplumber: PathBuf,
}

impl Programs {
    /// Finds them on PATH, or says which package to install.
    pub(super) fn find() -> Result<Programs, SandboxError> {
        Ok(Programs {
            shell: require("gnome-shell")?,
            pipewire: require("pipewire")?,
            wireplumber: require("wireplumber")?,
        })
    }
}

/// The settings key file that enables `uuids`, centres new windows (so
/// they open at non-zero origins, as on a real desktop) and turns
/// animations off (windows and the overview settle at once).
pub(super) fn settings_keyfile(uuids: &[&str]) -> String {
    let quoted: Vec<String> = uuids.iter().map(|u| format!("'{u}'")).collect();
    format!(
        "[org/gnome/shell]\nenabled-extensions=[{}]\ndisable-user-extensions=false\nwelcome-dialog-last-shown-version='999'\n\n[org/gnome/mutter]\ncenter-new-windows=true\n\n[org/gnome/desktop/interface]\nenable-animations=false\n",
        quoted.join(", ")
    )
}

impl Sandbox {
    /// Starts the stand-in system bus, PipeWire, WirePlumber and GNOME
    /// Shell, and waits until its Wayland socket is there, mutter's
    /// RemoteDesktop is on the session bus and every extension's bus name
    /// is owned.
    pub(super) fn start_gnome(
        &mut self,
        programs: &Programs,
        dbus_daemon: &Path,
        extensions: &[ShellExtension],
        (deadline, timeout): (Instant, Duration),
    ) -> Result<(), SandboxError> {
        let system_bus = self.start_bus(
            dbus_daemon,
            (
                "system-bus",
                "system-bus.log",
                "stand-in system dbus-daemon",
            ),
            Role::Service,
            (deadline, timeout),
        )?;
        let home = self.home();
        let config = home.join(".config");
        let data = home.join(".local/share");
        self.install_extensions(extensions, &config, &data)?;
        for (program, name, log) in [
            (&programs.pipewire, "pipewire", "pipewire.log"),
            (&programs.wireplumber, "wireplumber", "wireplumber.log"),
        ] {
            let (out, err, log_path) = self.log_file(log)?;
            let mut command = self.base_command(program.as_os_str());
            command.env("HOME", &home).env("XDG_CONFIG_HOME", &config);
            command.stdout(out).stderr(err);
            let child = Self::spawn(&mut command, name)?;
            let pid = child.id();
            self.adopt(Role::Service, child);
            if name == "pipewire" {
                // WirePlumber exits when PipeWire is not listening yet
                // (seen once in a test's start-up): it waits for the
                // socket.
                let socket = self.runtime_dir().join("pipewire-0");
                while !socket.exists() {
                    if let Some(status) = self.child_exit(pid) {
                        return Err(Self::exited_error("pipewire", status, &log_path));
                    }
                    if Instant::now() >= deadline {
                        return Err(SandboxError::NotReady {
                            component: "pipewire".into(),
                            timeout,
                            detail: format!(
                                "no socket {}; see {}",
                                socket.display(),
                                log_path.display()
                            ),
                        });
                    }
                    std::thread::sleep(bus::POLL);
                }
            }
        }
        // The shell says READY=1 here (sd_notify) once its start-up
        // animation is over: the overview it opens then can be closed.
        let notify_path = self.state_dir.join("gnome-shell.notify");
        let notify = std::os::unix::net::UnixDatagram::bind(&notify_path).map_err(
            SandboxError::io(format!("binding {}", notify_path.display())),
        )?;
        notify
            .set_nonblocking(true)
            .map_err(SandboxError::io("a non-blocking notify socket"))?;
        if let Some((uid, gid)) = self.user {
            std::os::unix::fs::chown(&notify_path, Some(uid), Some(gid))
                .map_err(SandboxError::io(format!("chown {}", notify_path.display())))?;
        }
        // Services the bus starts from now on (the desktop portal and its
        // GNOME backend, which apps ask at start-up) find the desktop.
        let socket = self.runtime_dir().join(SOCKET);
        let address = self.session_bus_address.clone();
        let display = socket.to_string_lossy().into_owned();
        bus::block_on(async move {
            bus::update_activation_environment(
                &address,
                &[
                    ("XDG_CURRENT_DESKTOP", "GNOME"),
                    ("XDG_SESSION_DESKTOP", "gnome"),
                    ("WAYLAND_DISPLAY", &display),
                    ("GDK_BACKEND", "wayland"),
                ],
            )
            .await
        })??;
        let (log, log2, log_path) = self.log_file("gnome-shell.log")?;
        let mut command = self.base_command(programs.shell.as_os_str());
        command
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", &config)
            .env("XDG_DATA_HOME", &data)
            .env("GSETTINGS_BACKEND", "keyfile")
            .env("DBUS_SYSTEM_BUS_ADDRESS", &system_bus)
            .env("NOTIFY_SOCKET", &notify_path)
            .args(["--headless", "--wayland", "--no-x11"])
            .arg(format!("--wayland-display={SOCKET}"))
            .arg("--virtual-monitor")
            .arg(format!("{}x{}", self.width, self.height))
            .stdout(log)
            .stderr(log2);
        let child = Self::spawn(&mut command, "gnome-shell")?;
        let pid = child.id();
        self.adopt(Role::Compositor, child);
        let names: Vec<&str> = std::iter::once(REMOTE_DESKTOP)
            .chain(extensions.iter().filter_map(|e| e.bus_name.as_deref()))
            .collect();
        let mut ready = false;
        // Since when the overview has been read closed (after READY=1).
        let mut closed_since: Option<Instant> = None;
        let mut buffer = [0u8; 512];
        loop {
            while let Ok(n) = notify.recv(&mut buffer) {
                ready |= String::from_utf8_lossy(&buffer[..n])
                    .lines()
                    .any(|l| l == "READY=1");
            }
            let waiting = names
                .iter()
                .find(|n| self.name_answers(n, Duration::from_millis(500)).is_err());
            if socket.exists() && waiting.is_none() && ready {
                closed_since = if self.overview_closed() {
                    closed_since.or_else(|| Some(Instant::now()))
                } else {
                    None
                };
            }
            // Closed and staying closed: a hide asked for while the
            // start-up animation still runs is undone by it.
            if closed_since.is_some_and(|t| t.elapsed() >= OVERVIEW_SETTLE) {
                tracing::debug!(pid, socket = %socket.display(), "gnome-shell ready");
                self.wayland = Some(wayland::Session {
                    socket,
                    ipc: None,
                    service: Some(REMOTE_DESKTOP.to_owned()),
                });
                return Ok(());
            }
            if let Some(status) = self.child_exit(pid) {
                return Err(Self::exited_error("gnome-shell", status, &log_path));
            }
            if Instant::now() >= deadline {
                return Err(SandboxError::NotReady {
                    component: "gnome-shell".into(),
                    timeout,
                    detail: format!(
                        "no socket {}, no owner of {} on the session bus, or no READY=1 from the shell ({}); see {}",
                        socket.display(),
                        waiting.copied().unwrap_or(REMOTE_DESKTOP),
                        if ready { "it said it" } else { "not said yet" },
                        log_path.display()
                    ),
                });
            }
            std::thread::sleep(bus::POLL);
        }
    }

    /// Closes the overview GNOME Shell opens when it starts (it covers
    /// the windows); true once it is closed.
    fn overview_closed(&self) -> bool {
        let address = self.session_bus_address.clone();
        bus::block_on(async move {
            tokio::time::timeout(Duration::from_secs(1), bus::gnome_overview(&address, false)).await
        })
        .is_ok_and(|r| matches!(r, Ok(Ok(true))))
    }

    /// Writes `extensions` under `data` and enables them in the settings
    /// key file under `config` (both in the sandbox's home, owned by its
    /// user).
    fn install_extensions(
        &self,
        extensions: &[ShellExtension],
        config: &Path,
        data: &Path,
    ) -> Result<(), SandboxError> {
        let settings = config.join("glib-2.0/settings");
        let mut dirs = vec![settings.clone()];
        for e in extensions {
            if e.uuid.is_empty() || e.uuid.contains('/') || e.uuid.starts_with('.') {
                return Err(SandboxError::io(format!(
                    "installing the GNOME Shell extension {:?}: not a UUID",
                    e.uuid
                ))(std::io::ErrorKind::InvalidInput.into()));
            }
            let dir = data.join("gnome-shell/extensions").join(&e.uuid);
            std::fs::create_dir_all(&dir)
                .map_err(SandboxError::io(format!("creating {}", dir.display())))?;
            for (name, text) in &e.files {
                let file = dir.join(name);
                std::fs::write(&file, text)
                    .map_err(SandboxError::io(format!("writing {}", file.display())))?;
            }
            dirs.push(dir);
        }
        std::fs::create_dir_all(&settings)
            .map_err(SandboxError::io(format!("creating {}", settings.display())))?;
        let keyfile = settings.join("keyfile");
        let uuids: Vec<&str> = extensions.iter().map(|e| e.uuid.as_str()).collect();
        std::fs::write(&keyfile, settings_keyfile(&uuids))
            .map_err(SandboxError::io(format!("writing {}", keyfile.display())))?;
        if let Some((uid, gid)) = self.user {
            // The shell runs as the sandbox's user: everything under its
            // home is that user's.
            let home = self.home();
            chown_tree(&home, uid, gid)
                .map_err(SandboxError::io(format!("chown {}", home.display())))?;
        }
        Ok(())
    }
}

/// Gives `dir` and everything under it to `uid:gid`.
fn chown_tree(dir: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
    std::os::unix::fs::chown(dir, Some(uid), Some(gid))?;
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            chown_tree(&entry?.path(), uid, gid)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_file_enables_the_extensions() {
        let text = settings_keyfile(&["a@b", "cup-windows@cup-rs"]);
        assert!(text.starts_with("[org/gnome/shell]\n"));
        assert!(text.contains("\nenabled-extensions=['a@b', 'cup-windows@cup-rs']\n"));
        assert!(settings_keyfile(&[]).contains("enabled-extensions=[]"));
    }
}
