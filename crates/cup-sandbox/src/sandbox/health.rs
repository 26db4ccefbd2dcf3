//! Whether a running sandbox really answers, part by part: Xvfb takes a
//! client with the cookie and answers a request, the session bus and the
//! accessibility bus answer, the registry lists its apps, and every
//! launched app still runs and is registered. For readiness probes
//! (`cup serve`'s `/readyz`): each check has a deadline, so a hung
//! component makes the answer "not ready", never a hung probe.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;

use super::*;

/// One part's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// `x`, `session-bus`, `a11y-registry`, `app:<program>`.
    pub component: String,
    /// Whether it answered in time.
    pub ok: bool,
    /// Why not (empty when it answered).
    pub detail: String,
}

/// The answers of every part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Health {
    pub checks: Vec<Check>,
}

impl Health {
    /// Every part answered.
    pub fn ok(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|c| c.ok)
    }

    /// The parts that did not answer, one line.
    pub fn failures(&self) -> String {
        let failed: Vec<String> = self
            .checks
            .iter()
            .filter(|c| !c.ok)
            .map(|c| format!("{}: {}", c.component, c.detail))
            .collect();
        failed.join("; ")
    }
}

fn check(component: &str, result: Result<(), String>) -> Check {
    Check {
        component: component.to_owned(),
        ok: result.is_ok(),
        detail: result.err().unwrap_or_default(),
    }
}

/// The X connection set-up request (little-endian, protocol 11.0) with
/// the cookie, and a `GetInputFocus` request after it.
fn x_setup(name: &[u8], data: &[u8]) -> Vec<u8> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let mut out = vec![b'l', 0, 11, 0, 0, 0];
    // Both lengths are far below 64 KiB.
    out.extend_from_slice(&u16::try_from(name.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&u16::try_from(data.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(name);
    out.extend(std::iter::repeat_n(0, pad(name.len())));
    out.extend_from_slice(data);
    out.extend(std::iter::repeat_n(0, pad(data.len())));
    out
}

/// Connects to display `number`'s socket, presents the cookie in
/// `xauthority` and reads the server's answer to the set-up: accepted
/// (status byte 1) or why not.
fn x_answers(number: &str, xauthority: &Path, timeout: Duration) -> Result<(), String> {
    let bytes = std::fs::read(xauthority)
        .map_err(|e| format!("cannot read {}: {e}", xauthority.display()))?;
    let (name, data) = crate::xauth::cookie_of(&bytes)
        .ok_or_else(|| format!("no cookie in {}", xauthority.display()))?;
    let socket = format!("/tmp/.X11-unix/X{number}");
    let mut stream =
        UnixStream::connect(&socket).map_err(|e| format!("cannot connect to {socket}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(&x_setup(&name, &data))
        .map_err(|e| format!("cannot send the set-up request: {e}"))?;
    let mut status = [0u8; 8];
    stream.read_exact(&mut status).map_err(|e| {
        format!(
            "no answer to the set-up request within {} ms: {e}",
            timeout.as_millis()
        )
    })?;
    match status[0] {
        1 => Ok(()),
        0 => Err("the X server refused the cookie".into()),
        n => Err(format!("the X server answered the set-up with status {n}")),
    }
}

impl Sandbox {
    /// The core processes that are gone (a cheap check, no I/O but
    /// `/proc`): `Xvfb`, `session bus`, `accessibility bus launcher`,
    /// `accessibility bus`. Any of them gone means the desktop is dead.
    pub fn exited(&self) -> Vec<&'static str> {
        // By pid and start time only: a child recorded between its fork
        // and its exec (the bus the launcher starts) carries the parent's
        // program name.
        self.processes
            .iter()
            .filter(|p| !procfs::is_running(p.pid, p.start_time))
            .filter_map(|p| match p.role {
                Role::Xvfb => Some("Xvfb"),
                Role::Compositor => Some("the compositor"),
                Role::SessionBus => Some("the session bus"),
                Role::Service => Some("a desktop service"),
                Role::A11yBusLauncher => Some("the accessibility bus launcher"),
                Role::A11yBus => Some("the accessibility bus"),
                Role::Registry | Role::WindowManager | Role::App => None,
            })
            .collect()
    }

    /// Asks every part of the sandbox whether it answers, each within
    /// `timeout`: Xvfb (a connection set-up with the cookie), the session
    /// bus, the accessibility bus and its registry, and each launched app
    /// (still running, still registered with the registry).
    pub fn health(&self, timeout: Duration) -> Health {
        let mut checks = Vec::new();
        let xvfb_runs = self
            .processes
            .iter()
            .filter(|p| p.role == Role::Xvfb)
            .all(ProcRecord::is_running);
        if let Some(session) = &self.wayland {
            let runs = self
                .processes
                .iter()
                .filter(|p| p.role == Role::Compositor)
                .all(ProcRecord::is_running);
            let answers = match (&session.ipc, runs) {
                (_, false) => Err("the compositor is not running".into()),
                (Some(ipc), true) => wayland::sway_answers(ipc, timeout),
                (None, true) => self.name_answers(
                    session.service.as_deref().unwrap_or("org.kde.KWin"),
                    timeout,
                ),
            };
            checks.push(check("compositor", answers));
        } else {
            let x = if xvfb_runs {
                x_answers(
                    self.display.trim_start_matches(':'),
                    &self.xauthority(),
                    timeout,
                )
            } else {
                Err("Xvfb is not running".into())
            };
            checks.push(check("x", x));
        }
        let apps = self.apps();
        let records = self.live().app_records.clone();
        let late = |what: &str| format!("{what} did not answer within {} ms", timeout.as_millis());
        let answers = bus::block_on(async {
            let session = match tokio::time::timeout(
                timeout,
                bus::connect(&self.session_bus_address, "session bus"),
            )
            .await
            {
                Ok(Ok(_connection)) => Ok(()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err(late("the session bus")),
            };
            let registered = tokio::time::timeout(timeout, async {
                let a11y = bus::connect(&self.a11y_address, "accessibility bus").await?;
                bus::registry_children(&a11y).await
            })
            .await;
            let registered = match registered {
                Ok(Ok(children)) => Ok(children.into_iter().map(|(bus, _)| bus).collect()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err(late("the AT-SPI registry")),
            };
            (session, registered)
        });
        let (session, registered): (Result<(), String>, Result<Vec<String>, String>) =
            answers.unwrap_or_else(|e| (Err(e.to_string()), Err(e.to_string())));
        checks.push(check("session-bus", session));
        checks.push(check(
            "a11y-registry",
            registered.as_ref().map(|_| ()).map_err(Clone::clone),
        ));
        for app in &apps {
            let runs = records
                .iter()
                .find(|r| r.pid == app.pid)
                .is_none_or(ProcRecord::is_running);
            let result = if !runs {
                Err(format!("pid {} exited; see {}", app.pid, app.log.display()))
            } else {
                match &registered {
                    Ok(buses) if buses.contains(&app.bus_name) => Ok(()),
                    Ok(_) => Err(format!("{} left the accessibility bus", app.bus_name)),
                    Err(_) => Err("the registry did not answer".into()),
                }
            };
            checks.push(check(&format!("app:{}", app.program), result));
        }
        Health { checks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_request_is_padded_to_four_bytes() {
        let req = x_setup(b"MIT-MAGIC-COOKIE-1", &[7; 16]);
        // 12 header bytes, name 18 (+2 padding), data 16.
        assert_eq!(req.len(), 12 + 20 + 16);
        assert_eq!(&req[..4], &[b'l', 0, 11, 0]);
        assert_eq!(u16::from_le_bytes([req[6], req[7]]), 18);
        assert_eq!(u16::from_le_bytes([req[8], req[9]]), 16);
    }

    #[test]
    fn health_is_ok_only_when_every_part_answers() {
        let mut h = Health::default();
        assert!(!h.ok(), "no checks is no answer");
        h.checks.push(check("x", Ok(())));
        assert!(h.ok());
        h.checks
            .push(check("app:gtk3-widget-factory", Err("pid 7 exited".into())));
        assert!(!h.ok());
        assert_eq!(h.failures(), "app:gtk3-widget-factory: pid 7 exited");
    }
}
