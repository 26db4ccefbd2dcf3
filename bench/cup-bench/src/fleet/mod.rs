//! A fleet of `cup serve` desktops on one host, each sealed the way a
//! container would seal it: its own network namespace (reached from the
//! host over a veth pair, never from another desktop), its own memory
//! cgroup, its own `/tmp` (a private mount namespace), run as an
//! unprivileged user (uid 65534). The run starts them all at once, times
//! start → `/readyz`, reads each cgroup's memory, checks isolation (a
//! foreign token gets 401, one namespace cannot reach another's desktop,
//! an X client without the cookie is refused, a second MCP session is
//! refused, each tree holds only its own app), drives one MCP client per
//! desktop in parallel (snapshots for a while), then SIGTERMs every server
//! and checks nothing is left: no process in any cgroup, no namespace, no
//! temp dir. Needs root (namespaces, cgroups, setpriv).

pub mod host;
pub mod mcp;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;

/// The app every other desktop runs.
pub const APP: &str = "gtk3-widget-factory";
/// The unprivileged user the desktops run as.
const UID: &str = "65534";
const PORT: u16 = 8765;

/// How to run the fleet.
#[derive(Debug, Clone)]
pub struct Options {
    /// Desktops; odd ones (1, 3, ...) run [`APP`].
    pub n: usize,
    /// Seconds of snapshots per client.
    pub seconds: u64,
    /// The `cup` binary.
    pub cup: PathBuf,
}

/// What one desktop showed.
#[derive(Debug, Clone, Default)]
pub struct Desk {
    pub index: usize,
    pub app: bool,
    /// Start → `/readyz` 200.
    pub ready: Option<Duration>,
    /// Cgroup memory once ready, bytes.
    pub memory: u64,
    /// Latencies of the snapshot calls.
    pub calls: Vec<Duration>,
    /// Errors of any kind (failed calls, wrong trees).
    pub errors: Vec<String>,
    /// SIGTERM → exit, and the exit status.
    pub exit: Option<(Duration, String)>,
}

/// The whole run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub desks: Vec<Desk>,
    /// Isolation checks: (what, passed, detail).
    pub checks: Vec<(String, bool, String)>,
    /// Wall time of the load phase.
    pub load: Duration,
    /// What was left after the stop (processes, namespaces, dirs).
    pub leftovers: Vec<String>,
}

impl Report {
    /// Every check passed, no call failed, nothing was left.
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.1)
            && self.leftovers.is_empty()
            && self.desks.iter().all(|d| {
                d.ready.is_some()
                    && d.errors.is_empty()
                    && d.exit.as_ref().is_some_and(|(_, s)| s == "exit status: 0")
            })
    }
}

/// Nearest-rank percentile `p` (0–100) of `values`.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil().max(1.0) as usize;
    v.get(rank.min(v.len()) - 1).copied()
}

/// One running member of the fleet.
struct Member {
    index: usize,
    app: bool,
    ns: host::Netns,
    cgroup: host::Cgroup,
    token: String,
    child: Child,
    started: Instant,
}

impl Member {
    fn addr(&self) -> SocketAddr {
        SocketAddr::from((self.ns.ip, PORT))
    }
}

fn token(index: usize) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "fleet-{index}-{:x}",
        nanos ^ (u128::from(std::process::id()) << 64)
    )
}

/// The shell line run in the namespace: wait until the host has put it
/// in its cgroup (a line on stdin: `ip netns exec` hides the host's
/// cgroup file system), mount a private `/tmp`, drop to the unprivileged
/// user, start `cup serve`.
fn launch_script(cup: &Path, listen: &str, app: bool) -> String {
    let app = if app {
        format!(" --app {APP}")
    } else {
        String::new()
    };
    format!(
        "read placed && exec </dev/null && mount -t tmpfs -o mode=1777,size=512m cup-tmp /tmp && \
         exec setpriv --reuid {UID} --regid {UID} --clear-groups \
         env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp TMPDIR=/tmp CUP_MCP_TOKEN=\"$CUP_FLEET_TOKEN\" \
         '{}' serve --listen {listen} --grace 5{app}",
        cup.display()
    )
}

/// Runs the fleet; `say` gets progress lines.
pub fn run(options: &Options, say: &dyn Fn(&str)) -> Result<Report, String> {
    let tag = format!("{}", std::process::id() % 10_000);
    // The binary where uid 65534 can run it, outside the private /tmp.
    let dir = PathBuf::from(format!("/var/tmp/cup-fleet-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let cup = dir.join("cup");
    std::fs::copy(&options.cup, &cup)
        .map_err(|e| format!("copying {}: {e}; build it first", options.cup.display()))?;
    host::run(
        "chmod",
        &["0755", &dir.to_string_lossy(), &cup.to_string_lossy()],
    )?;

    let mut members: Vec<Member> = Vec::new();
    let mut report = Report::default();
    let result = fleet(options, &tag, &dir, &cup, &mut members, &mut report, say);
    // Stop and clean up whatever happened.
    stop(&mut members, &mut report, say);
    let _ = std::fs::remove_dir_all(&dir);
    if dir.exists() {
        report
            .leftovers
            .push(format!("{} not removed", dir.display()));
    }
    result.map(|()| report)
}

fn fleet(
    options: &Options,
    tag: &str,
    dir: &Path,
    cup: &Path,
    members: &mut Vec<Member>,
    report: &mut Report,
    say: &dyn Fn(&str),
) -> Result<(), String> {
    // Namespaces and cgroups first, then every desktop at once.
    let mut prepared = Vec::new();
    for index in 0..options.n {
        let name = format!("cupfleet-{tag}-{index}");
        let ns = host::Netns::create(&name, index, tag)?;
        let cgroup = match host::Cgroup::create(&name) {
            Ok(c) => c,
            Err(e) => {
                let _ = ns.remove();
                return Err(e);
            }
        };
        prepared.push((index, ns, cgroup));
    }
    say(&format!(
        "{} namespaces and cgroups made; starting every desktop at once",
        options.n
    ));
    for (index, ns, cgroup) in prepared {
        let app = index % 2 == 1;
        let token = token(index);
        let listen = format!("{}:{PORT}", ns.ip);
        let log = std::fs::File::create(dir.join(format!("serve-{index}.log")))
            .map_err(|e| e.to_string())?;
        let log2 = log.try_clone().map_err(|e| e.to_string())?;
        let script = launch_script(cup, &listen, app);
        let started = Instant::now();
        let mut child = Command::new("ip")
            .args([
                "netns",
                "exec",
                &ns.name,
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                &script,
            ])
            .env("CUP_FLEET_TOKEN", &token)
            .stdin(Stdio::piped())
            .stdout(log)
            .stderr(log2)
            .spawn()
            .map_err(|e| format!("ip netns exec: {e}"))?;
        // Into the cgroup before it starts anything (it waits for the line).
        let placed = std::fs::write(cgroup.procs_file(), child.id().to_string())
            .map_err(|e| format!("joining {}: {e}", cgroup.dir.display()));
        let go = child
            .stdin
            .take()
            .map(|mut stdin| std::io::Write::write_all(&mut stdin, b"go\n"));
        if let Err(e) = placed {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        if !matches!(go, Some(Ok(()))) {
            return Err(format!(
                "desktop {index}: its start-up script did not take the go line"
            ));
        }
        members.push(Member {
            index,
            app,
            ns,
            cgroup,
            token,
            child,
            started,
        });
    }
    report.desks = members
        .iter()
        .map(|m| Desk {
            index: m.index,
            app: m.app,
            ..Desk::default()
        })
        .collect();

    // Start → /readyz: each desktop polled by a thread of its own (a
    // sequential poll would add the others' answer times to each).
    let deadline = Instant::now() + Duration::from_secs(90);
    let polled: Vec<Result<Duration, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = members
            .iter()
            .map(|m| {
                let (addr, started) = (m.addr(), m.started);
                s.spawn(move || loop {
                    let ready =
                        mcp::request(addr, "GET", "/readyz", &[], "", Duration::from_secs(2))
                            .is_ok_and(|a| a.status == 200);
                    if ready {
                        return Ok(started.elapsed());
                    }
                    if Instant::now() >= deadline {
                        return Err("not ready after 90 s".to_owned());
                    }
                    std::thread::sleep(Duration::from_millis(20));
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("the poll panicked".into())))
            .collect()
    });
    for ((m, d), ready) in members.iter_mut().zip(report.desks.iter_mut()).zip(polled) {
        match ready {
            Ok(t) => d.ready = Some(t),
            Err(e) => {
                let exited = m.child.try_wait().ok().flatten();
                let log = std::fs::read_to_string(dir.join(format!("serve-{}.log", m.index)))
                    .unwrap_or_default();
                return Err(format!(
                    "desktop {}: {e} (exited: {exited:?}): {}",
                    m.index,
                    log.trim().lines().last().unwrap_or("no output")
                ));
            }
        }
    }
    for (m, d) in members.iter().zip(report.desks.iter_mut()) {
        d.memory = m.cgroup.memory();
    }
    say("every desktop ready; checking isolation");
    isolation(members, report);

    // Load: one client per desktop, in parallel.
    say(&format!(
        "{} MCP clients taking snapshots for {} s",
        members.len(),
        options.seconds
    ));
    let started = Instant::now();
    let until = started + Duration::from_secs(options.seconds);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for m in members.iter() {
            let tx = tx.clone();
            let (addr, token, app, index) = (m.addr(), m.token.clone(), m.app, m.index);
            s.spawn(move || {
                let _ = tx.send((index, drive(addr, &token, app, index == 0, until)));
            });
        }
    });
    drop(tx);
    report.load = started.elapsed();
    for (index, (calls, errors, second)) in rx {
        if let Some(d) = report.desks.get_mut(index) {
            d.calls = calls;
            d.errors = errors;
        }
        if let Some(second) = second {
            report.checks.push(second);
        }
    }
    // The server counted what the client saw.
    for (m, d) in members.iter().zip(&report.desks) {
        let metrics = mcp::request(m.addr(), "GET", "/metrics", &[], "", Duration::from_secs(5))
            .map(|a| String::from_utf8_lossy(&a.body).into_owned())
            .unwrap_or_default();
        // Answered snapshots, whatever their outcome.
        let counted: usize = metrics
            .lines()
            .filter(|l| l.starts_with("cup_tool_calls_total{tool=\"snapshot\","))
            .filter_map(|l| l.rsplit(' ').next()?.trim().parse::<usize>().ok())
            .sum();
        if counted != d.calls.len() {
            report.checks.push((
                format!("desktop {}: /metrics counts the client's calls", m.index),
                false,
                format!("server {counted}, client {}", d.calls.len()),
            ));
        }
    }
    Ok(())
}

/// One client's loop: open a session (desktop 0 also tries a second one,
/// which must be refused), snapshot until `until`, checking the tree
/// holds only this desktop's app; (latencies, errors, second-session check).
#[allow(clippy::type_complexity)]
fn drive(
    addr: SocketAddr,
    token: &str,
    app: bool,
    try_second: bool,
    until: Instant,
) -> (Vec<Duration>, Vec<String>, Option<(String, bool, String)>) {
    let mut calls = Vec::new();
    let mut errors = Vec::new();
    let mut client = mcp::Client::new(addr, token, Duration::from_secs(30));
    match client.initialize() {
        Ok(200) => {}
        other => {
            errors.push(format!("initialize: {other:?}"));
            return (calls, errors, None);
        }
    }
    let second = try_second.then(|| {
        let mut other = mcp::Client::new(addr, token, Duration::from_secs(10));
        let status = other.initialize();
        (
            "a second MCP session on a busy desktop is refused (409)".to_owned(),
            status == Ok(409),
            format!("{status:?}"),
        )
    });
    while Instant::now() < until {
        let t = Instant::now();
        match client.call("snapshot", json!({})) {
            Ok((is_error, text)) => {
                calls.push(t.elapsed());
                if let Some(wrong) = wrong_tree(app, is_error, &text) {
                    errors.push(wrong);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    match client.close() {
        Ok(s) if (200..300).contains(&s) => {}
        other => errors.push(format!("closing the session: {other:?}")),
    }
    (calls, errors, second)
}

/// What is wrong with a snapshot's answer, if anything: a desktop with
/// the app shows exactly its one window; a bare one answers that no
/// window is open (an error result that says what to do).
pub fn wrong_tree(app: bool, is_error: bool, text: &str) -> Option<String> {
    let windows = text.lines().filter(|l| l.starts_with("[e")).count();
    let fine = if app {
        !is_error && windows == 1 && text.contains(APP)
    } else {
        is_error && text.contains("no window is open") && !text.contains(APP)
    };
    (!fine).then(|| {
        format!(
            "expected {}; the answer (error: {is_error}): {}",
            if app {
                "the app's one window"
            } else {
                "no window"
            },
            text.lines().take(6).collect::<Vec<_>>().join(" | ")
        )
    })
}

fn isolation(members: &[Member], report: &mut Report) {
    let (Some(a), Some(b)) = (members.first(), members.get(1)) else {
        return;
    };
    // A foreign token.
    let mut foreign = mcp::Client::new(a.addr(), &b.token, Duration::from_secs(10));
    let status = foreign.initialize();
    report.checks.push((
        "another desktop's token gets 401".into(),
        status == Ok(401),
        format!("{status:?}"),
    ));
    // Namespaces: a's own desktop answers inside a, b's does not.
    let curl = |ns: &str, ip: &str| {
        Command::new("ip")
            .args([
                "netns",
                "exec",
                ns,
                "curl",
                "-s",
                "-o",
                "/dev/null",
                "--max-time",
                "2",
            ])
            .arg(format!("http://{ip}:{PORT}/healthz"))
            .status()
            .is_ok_and(|s| s.success())
    };
    let own = curl(&a.ns.name, &a.ns.ip.to_string());
    let other = curl(&a.ns.name, &b.ns.ip.to_string());
    report.checks.push((
        "one namespace cannot reach another's desktop".into(),
        own && !other,
        format!("own desktop reached: {own}; the other reached: {other}"),
    ));
    // X without the cookie, from inside the desktop's namespace (the
    // display's abstract socket is per network namespace).
    let x = Command::new("ip")
        .args([
            "netns",
            "exec",
            &a.ns.name,
            "env",
            "-i",
            "HOME=/nonexistent",
            "xdpyinfo",
            "-display",
            ":0",
        ])
        .output();
    let (refused, detail) = match x {
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            let refused = !out.status.success()
                && (err.contains("Authorization required")
                    || err.contains("No protocol specified"));
            (refused, err.trim().lines().next().unwrap_or("").to_owned())
        }
        Err(e) => (false, format!("xdpyinfo: {e} (apt-get install x11-utils)")),
    };
    report.checks.push((
        "an X client without the cookie is refused".into(),
        refused,
        detail,
    ));
}

fn stop(members: &mut [Member], report: &mut Report, say: &dyn Fn(&str)) {
    if members.is_empty() {
        return;
    }
    say("SIGTERM to every server");
    let sent = Instant::now();
    for m in members.iter() {
        let _ = Command::new("kill")
            .args(["-TERM", &m.child.id().to_string()])
            .status();
    }
    let deadline = sent + Duration::from_secs(15);
    for m in members.iter_mut() {
        let status = loop {
            match m.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => break None,
            }
        };
        let exit = match status {
            Some(s) => (sent.elapsed(), s.to_string()),
            None => {
                let _ = m.child.kill();
                let _ = m.child.wait();
                (sent.elapsed(), "still running after 15 s: killed".into())
            }
        };
        if let Some(d) = report.desks.get_mut(m.index) {
            d.exit = Some(exit);
        }
    }
    // Nothing of theirs is left.
    std::thread::sleep(Duration::from_millis(200));
    for m in members.iter() {
        let left = m.cgroup.pids();
        if !left.is_empty() {
            report.leftovers.push(format!(
                "desktop {}: processes {left:?} outlived it",
                m.index
            ));
            for pid in &left {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        if let Err(e) = m.cgroup.remove() {
            report.leftovers.push(e);
        }
        if let Err(e) = m.ns.remove() {
            report.leftovers.push(e);
        }
        if m.ns.exists() {
            report
                .leftovers
                .push(format!("namespace {} left", m.ns.name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tree_must_hold_only_its_own_app() {
        let app = "# CUP 0.1.0\n[e0] win \"gtk3-widget-factory\"\n  [e1] btn \"Close\"";
        assert_eq!(wrong_tree(true, false, app), None);
        assert!(wrong_tree(false, false, app).is_some());
        let none = "no window is open; start an app (cup open APP) and try again";
        assert_eq!(wrong_tree(false, true, none), None);
        assert!(wrong_tree(true, true, none).is_some());
        let two = format!("{app}\n[e9] win \"other\"");
        assert!(wrong_tree(true, false, &two).is_some());
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), Some(10.0));
        assert_eq!(percentile(&v, 95.0), Some(19.0));
        assert_eq!(percentile(&[3.0], 95.0), Some(3.0));
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn the_launch_line_seals_the_desktop() {
        let s = launch_script(Path::new("/var/tmp/x/cup"), "10.231.1.2:8765", true);
        assert!(s.starts_with("read placed && exec </dev/null && mount -t tmpfs"));
        assert!(s.contains("setpriv --reuid 65534 --regid 65534 --clear-groups"));
        assert!(s.contains(
            "'/var/tmp/x/cup' serve --listen 10.231.1.2:8765 --grace 5 --app gtk3-widget-factory"
        ));
    }
}
