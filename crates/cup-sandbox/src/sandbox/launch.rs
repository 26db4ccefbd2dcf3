//! Launching an app in the sandbox and waiting until it shows a window on
//! the accessibility bus.

use super::*;

impl Sandbox {
    /// Starts `program` in its own process group with the sandbox
    /// environment, and waits (up to 60 s by default) until it shows a window on the
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
        // The apps already there: a launcher that hands its window to a
        // service it activates (gnome-terminal starts gnome-terminal-server
        // over D-Bus and exits) is followed to the app that appears.
        let known: HashSet<String> = bus::block_on(async {
            let a11y = bus::connect(&self.a11y_address, "accessibility bus").await?;
            bus::registry_children(&a11y).await
        })
        .ok()
        .and_then(Result::ok)
        .map(|apps| apps.into_iter().map(|(name, _)| name).collect())
        .unwrap_or_default();
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
            &known,
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

/// Polls the registry until an app of `spawned` shows a window. Once
/// `spawned` has exited successfully with nothing left in its group (a
/// launcher that handed over to a D-Bus activated service), any app not
/// among `known` (those registered before the launch) counts.
async fn wait_for_window(
    a11y_address: &str,
    spawned: u32,
    deadline: Instant,
    child: &mut Child,
    known: &HashSet<String>,
) -> Result<Found, WaitFailure> {
    let mut handed_over = false;
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
                    if belongs(pid, spawned) || (handed_over && !known.contains(bus_name)) {
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
        if !handed_over {
            if let Ok(Some(status)) = child.try_wait() {
                // A wrapper may have forked the real program and exited.
                let group_alive = procfs::all()
                    .iter()
                    .any(|p| p.pgid == spawned && p.is_live());
                if !group_alive && status.success() {
                    // Handed over to a service: its app is the new one.
                    handed_over = true;
                    continue;
                }
                if !group_alive {
                    return Err(WaitFailure::Exited(exit_status_text(status)));
                }
            }
        }
        if Instant::now() >= deadline {
            return Err(WaitFailure::Missing(missing));
        }
        tokio::time::sleep(bus::POLL).await;
    }
}
