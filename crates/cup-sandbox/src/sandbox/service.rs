//! A helper process of the desktop's own: started as the desktop's user
//! with its environment, ready when it prints a line, stopped with the
//! desktop (cup's pointer keeper on a headless KWin).

use std::ffi::OsString;

use super::*;

impl Sandbox {
    /// Starts `program` with `args` as the desktop's user, with its
    /// environment (stderr to `NAME.log` in the state directory), and waits
    /// until it prints its first line on stdout (its readiness), at most
    /// `timeout`. The process is then one of the desktop's and
    /// [`Sandbox::stop`] ends it; save the state after this.
    ///
    /// # Errors
    ///
    /// [`SandboxError::Spawn`]; [`SandboxError::ComponentExited`] when it
    /// ends first, [`SandboxError::NotReady`] when it prints nothing in
    /// time (it is stopped then).
    pub fn start_service(
        &mut self,
        name: &str,
        program: &Path,
        args: &[OsString],
        timeout: Duration,
    ) -> Result<u32, SandboxError> {
        let (_, log, log_path) = self.log_file(&format!("{name}.log"))?;
        let mut command = self.base_command(program.as_os_str());
        command
            .args(args)
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = Self::spawn(&mut command, name)?;
        let pid = child.id();
        let Some(stdout) = child.stdout.take() else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SandboxError::NotReady {
                component: name.into(),
                timeout,
                detail: "its stdout was not a pipe".into(),
            });
        };
        match first_line(stdout, Instant::now() + timeout) {
            FirstLine::Line(line, pipe) => {
                tracing::debug!(pid, name, %line, "service ready");
                self.pipes.push(pipe);
                self.adopt(Role::Service, child);
                Ok(pid)
            }
            FirstLine::Eof | FirstLine::Failed => {
                let status = child
                    .wait()
                    .map_or_else(|e| e.to_string(), exit_status_text);
                Err(Self::exited_error(name, status, &log_path))
            }
            FirstLine::Timeout => {
                let _ = child.kill();
                let _ = child.wait();
                Err(SandboxError::NotReady {
                    component: name.into(),
                    timeout,
                    detail: format!("it printed nothing; see {}", log_path.display()),
                })
            }
        }
    }
}
