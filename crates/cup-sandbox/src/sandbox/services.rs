//! The sandbox's services, started in order: Xvfb, the session bus, the
//! accessibility bus and registry, optionally the window manager.

use super::*;
use crate::xauth;

impl Sandbox {
    pub(super) fn start_xvfb(
        &mut self,
        xvfb: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        let (log, _, log_path) = self.log_file("xvfb.log")?;
        let screen = format!("{}x{}x{}", self.width, self.height, self.depth);
        // The cookie: only clients that hold it get in (module `xauth`).
        let cookie = xauth::new_cookie()
            .map_err(SandboxError::io("reading /dev/urandom for the X cookie"))?;
        let server_auth = self.state_dir.join(SERVER_XAUTHORITY);
        xauth::write_private(&server_auth, &xauth::entry("", &cookie)).map_err(
            SandboxError::io(format!("writing {}", server_auth.display())),
        )?;
        // -displayfd 1: Xvfb picks a free display, writes its number to
        // stdout once it accepts connections, then closes that fd.
        let mut command = self.base_command(xvfb.as_os_str());
        command
            .arg("-auth")
            .arg(&server_auth)
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
                    let client_auth = self.xauthority();
                    xauth::write_private(&client_auth, &xauth::entry(&number.to_string(), &cookie))
                        .map_err(SandboxError::io(format!(
                            "writing {}",
                            client_auth.display()
                        )))?;
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

    pub(super) fn start_session_bus(
        &mut self,
        dbus_daemon: &Path,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), SandboxError> {
        self.session_bus_address = self.start_bus(
            dbus_daemon,
            ("bus", "session-bus.log", "session dbus-daemon"),
            Role::SessionBus,
            (deadline, timeout),
        )?;
        Ok(())
    }

    /// Starts a private `dbus-daemon` listening on `names.0` in the state
    /// directory (its log `names.1`, called `names.2` in errors) and
    /// returns its address once it prints it.
    pub(super) fn start_bus(
        &mut self,
        dbus_daemon: &Path,
        names: (&str, &str, &str),
        role: Role,
        (deadline, timeout): (Instant, Duration),
    ) -> Result<String, SandboxError> {
        let (socket, log_name, component) = names;
        let (log, _, log_path) = self.log_file(log_name)?;
        let address = format!("unix:path={}", self.state_dir.join(socket).display());
        let config = self.session_bus_config_file()?;
        let mut command = self.base_command(dbus_daemon.as_os_str());
        command
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--nosyslog", "--print-address=1"])
            .arg(format!("--address={address}"))
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = Self::spawn(&mut command, "dbus-daemon")?;
        let pid = child.id();
        let stdout = child.stdout.take();
        self.adopt(role, child);
        let Some(stdout) = stdout else {
            return Err(SandboxError::io("reading dbus-daemon's stdout")(
                std::io::ErrorKind::BrokenPipe.into(),
            ));
        };
        match first_line(stdout, deadline) {
            FirstLine::Line(line, pipe) if line.starts_with("unix:") => {
                // dbus-daemon keeps its stdout; keep the read end open too.
                self.pipes.push(pipe);
                tracing::debug!(address = %line, pid, component, "bus ready");
                Ok(line)
            }
            FirstLine::Line(line, _) => Err(SandboxError::NotReady {
                component: component.into(),
                timeout,
                detail: format!("it printed {line:?} instead of its address"),
            }),
            FirstLine::Timeout => Err(SandboxError::NotReady {
                component: component.into(),
                timeout,
                detail: format!("it printed no address; see {}", log_path.display()),
            }),
            FirstLine::Eof | FirstLine::Failed => {
                let status = self.wait_exit(pid);
                Err(Self::exited_error(component, status, &log_path))
            }
        }
    }

    pub(super) fn start_a11y(
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

    pub(super) fn start_window_manager(
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
}
