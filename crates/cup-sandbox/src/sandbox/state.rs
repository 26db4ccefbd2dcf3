//! The sandbox's state directory and state file: creating the one,
//! writing and reading the other, attaching to a saved sandbox.

use super::*;

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
    /// A Wayland sandbox's sockets (absent in older state files).
    #[serde(default)]
    wayland: Option<wayland::Session>,
    /// The user its processes run as (absent in older state files).
    #[serde(default)]
    user: Option<(u32, u32)>,
}

pub(super) fn state_dir_error(path: &Path, reason: impl Into<String>) -> SandboxError {
    SandboxError::StateDir {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

/// The sandbox's programs' `TMPDIR`, inside the state directory: what a
/// killed program leaves there (Chromium's singleton socket folder) goes
/// with the sandbox.
pub(super) const TMP_DIR: &str = "tmp";

/// `TMPDIR` for the sandbox's programs, when the sockets made in it fit
/// (else the caller's stays) and it exists (a sandbox saved by an older
/// cup has none).
pub(super) fn tmp_dir(state_dir: &Path) -> Option<PathBuf> {
    Some(state_dir.join(TMP_DIR)).filter(|dir| crate::browser::sockets_fit_in(dir) && dir.is_dir())
}

/// Creates the state directory (0700), its marker file, `runtime/` and
/// `tmp/`. With `user`, the directory, `runtime/`, `tmp/` and `home/` belong to that user
/// (uid, gid): the sandbox's processes run as it.
pub(super) fn prepare_state_dir(
    requested: Option<&Path>,
    id: &str,
    user: Option<(u32, u32)>,
) -> Result<PathBuf, SandboxError> {
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
    for sub in ["runtime", TMP_DIR] {
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(dir.join(sub))
            .map_err(|e| state_dir_error(&dir, format!("cannot create {sub}/ in it: {e}")))?;
    }
    if let Some((uid, gid)) = user {
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(dir.join("home"))
            .map_err(|e| state_dir_error(&dir, format!("cannot create home/ in it: {e}")))?;
        for path in [
            dir.clone(),
            dir.join("runtime"),
            dir.join(TMP_DIR),
            dir.join("home"),
        ] {
            std::os::unix::fs::chown(&path, Some(uid), Some(gid))
                .map_err(|e| state_dir_error(&path, format!("cannot give it to uid {uid}: {e}")))?;
        }
    }
    Ok(dir)
}

impl Sandbox {
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
            wayland: self.wayland.clone(),
            user: self.user,
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
            wayland: state.wayland,
            user: state.user,
            // Read only when the session bus starts, long done here.
            portals: false,
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
            .filter(|r| {
                matches!(
                    r.role,
                    Role::Xvfb
                        | Role::Compositor
                        | Role::SessionBus
                        | Role::Service
                        | Role::A11yBus
                )
            })
            .filter(|r| !r.is_running())
            .map(|r| format!("{} (pid {})", r.program, r.pid))
            .collect();
        if !dead.is_empty() {
            return Err(SandboxError::StateFile {
                path: path.to_owned(),
                reason: format!(
                    "the sandbox on {} is no longer running ({} gone); clean up with `cup sandbox stop` and start a new one",
                    sandbox.location(),
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
}
