//! Stopping the sandbox: everything it started ends, by pid, and its
//! directory is removed.

use super::*;

impl Sandbox {
    /// Ends everything the sandbox started, by pid: the apps' process
    /// groups, processes carrying [`MARKER_ENV`] (bus-activated services),
    /// the window manager, the registry, the accessibility bus, the session
    /// bus and Xvfb; SIGTERM first, SIGKILL after a 2 s grace; reaps its
    /// children; detaches what services mounted in the state directory (the
    /// document portal's FUSE mount) and removes it, and the pipes its
    /// LibreOffice instances left in `/tmp`. Takes ~0.1 s.
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

    pub(super) fn shutdown(&mut self) -> Result<(), SandboxError> {
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
        // LibreOffice's apps, ended by a signal, leave their pipes in /tmp.
        if let Ok(since) =
            std::fs::metadata(self.state_dir.join(DIR_MARKER)).and_then(|m| m.modified())
        {
            let removed = crate::libreoffice::sweep_stale_pipes(since);
            tracing::debug!(removed, "LibreOffice pipes left behind removed");
        }
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
            Ok(id) if id == self.id => {
                mounts::detach_all(dir)?;
                std::fs::remove_dir_all(dir)
                    .map_err(|e| state_dir_error(dir, format!("cannot remove it: {e}")))
            }
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

/// SIGTERM to an app's process group, SIGKILL after a grace, reap.
pub(super) fn kill_group(pgid: u32, child: &mut Child) {
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
