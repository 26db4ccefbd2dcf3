//! Busy-polling the runtime while a capture waits for replies.
//!
//! A capture is a long chain of short waits: cup asks, the app answers in
//! about 0.1 ms, cup asks again. Between them cup's thread would sleep, and
//! on a virtual machine a sleeping CPU costs a wake-up through the
//! hypervisor (measured on a 2-CPU VM: a pipe ping-pong took 0.05 ms on one
//! CPU and 0.06-0.11 ms across two). A GTK 3 app suffers most: each of its
//! `GetExtents` answers makes an X round trip, which took 0.35-0.45 ms with
//! both CPUs idle and 0.09 ms with one kept busy, as the scheduler then runs
//! the app and the X server side by side on the other. gtk3-widget-factory's
//! capture went from 72-81 ms to 49-50 ms.
//!
//! It is no general win: GTK 4 and Chromium answer on two or more busy
//! threads, which then share one CPU. gtk4-demo took 130-165 ms with it
//! against 116-128 ms without, Chromium 68-83 ms against 61-69 ms. So the
//! capture asks for it only for apps that answer on one thread
//! ([`crate::facts::is_gtk_before_4`]), and not for LibreOffice, whose GTK 3
//! front end reports GTK but answers extents from its own geometry: on
//! 2026-11-30, 4 alternating runs of 5 captures each, Writer 63.5-67.4 ms
//! with it against 61.0-67.2 without, Calc 311-324 against 322-346,
//! Impress 58.6-67.0 against 55.4-60.0, while it turned 10-13 ms of cup's
//! CPU per Writer capture into 60-62 ms. GIMP (GTK 2) still gains, 52.9-54.9
//! against 58.3-63.9 ms; gtk3-widget-factory 7.2-12.7 against 9.5-13.9 ms.
//!
//! It waits [`START_AFTER`] before it spins: a capture that short gains
//! nothing from it and loses to it. gnome-terminal's (48 nodes, 15 reads
//! once its actions are known) took 2.9-4.0 ms median with the poller from
//! the start against 1.8-2.4 ms without it, on 2026-12-01 (3 alternating
//! rounds of 30 captures; the 90th centile 5.6-7.1 against 2.3-5.8 ms),
//! and 2.1-2.2 ms with it started after 2 ms. gtk3-widget-factory (154
//! nodes) kept its gain: 7.9-8.1 ms against 7.7-9.6 started at once and
//! 13.8-16.0 without (one round of the three gave 17.7).
//!
//! It costs CPU: the poller keeps one core busy for the capture's length,
//! so CPU equals wall time (gtk3-widget-factory: 8-12 ms of CPU for 150
//! nodes with it, 3.5-4.1 ms without). On a host of many desktops that
//! core is taken from the others: `CUP_BUSY_POLL=0` gives it back.
//!
//! While it runs, a task keeps the runtime polling its sockets
//! (`epoll_wait` with no timeout) instead of sleeping. It stops when the
//! capture ends, at the latest after [`MAX_SPIN`], and never runs on a
//! machine with a single CPU, where it would take the CPU from the app it
//! waits for. `CUP_BUSY_POLL=0` turns it off, `CUP_BUSY_POLL=1` on for
//! every app (to compare).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest a busy poll runs, whatever the capture's deadline.
pub const MAX_SPIN: Duration = Duration::from_secs(3);
/// How long a capture runs before the poller starts (see the module).
pub const START_AFTER: Duration = Duration::from_millis(2);

/// Keeps the runtime busy-polling until dropped.
#[derive(Debug)]
pub struct BusyPoll {
    state: Arc<State>,
}

#[derive(Debug, Default)]
struct State {
    stop: AtomicBool,
    /// Times the poller ran (each: one look at the sockets).
    spins: AtomicU64,
}

impl BusyPoll {
    /// Starts polling on the current tokio runtime for at most `limit`,
    /// when it `helps` (the caller knows the peers) and more than one CPU
    /// is available to this process; `CUP_BUSY_POLL` overrides `helps`.
    pub fn start(limit: Duration, helps: bool) -> Option<Self> {
        if !enabled(
            std::env::var("CUP_BUSY_POLL").ok().as_deref(),
            cpus_available(),
            helps,
        ) {
            return None;
        }
        let handle = tokio::runtime::Handle::try_current().ok()?;
        Some(Self::spawn(&handle, START_AFTER, limit.min(MAX_SPIN)))
    }

    /// Starts polling on `runtime` after `delay`, until `limit` from now,
    /// whatever the CPUs. (Every capture runs under `timeout_at`, so the
    /// runtime has its timer.)
    fn spawn(runtime: &tokio::runtime::Handle, delay: Duration, limit: Duration) -> Self {
        let state = Arc::new(State::default());
        let shared = state.clone();
        let until = Instant::now() + limit;
        runtime.spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            while !shared.stop.load(Ordering::Relaxed) && Instant::now() < until {
                shared.spins.fetch_add(1, Ordering::Relaxed);
                tokio::task::yield_now().await;
            }
        });
        Self { state }
    }

    /// Times the poller has run so far.
    pub fn spins(&self) -> u64 {
        self.state.spins.load(Ordering::Relaxed)
    }
}

impl Drop for BusyPoll {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::Relaxed);
        tracing::trace!(spins = self.spins(), "busy poll ends");
    }
}

/// CPUs this process may use, asked once (the answer reads cgroup files,
/// which cost more than a capture's worth of polling decisions).
fn cpus_available() -> usize {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Whether busy-polling helps the capture of an app with this toolkit
/// (name, version) and program (`/proc/PID/comm`, when known): GTK 2 and 3
/// apps, which answer on one thread with an X round trip per extents read,
/// except LibreOffice (see the module's figures).
pub fn helps(toolkit: &str, version: &str, program: Option<&str>) -> bool {
    let office = program.is_some_and(|p| {
        let p = p.to_ascii_lowercase();
        p.starts_with("soffice") || p.starts_with("libreoffice")
    });
    crate::facts::is_gtk_before_4(toolkit, version) && !office
}

/// Whether to busy-poll, given `CUP_BUSY_POLL`, the CPUs available and
/// whether it helps the peers.
fn enabled(setting: Option<&str>, cpus: usize, helps: bool) -> bool {
    let wanted = match setting.map(str::trim) {
        Some("0" | "off" | "false" | "no") => false,
        Some("1" | "on" | "true" | "yes") => true,
        _ => helps,
    };
    wanted && cpus >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_two_cpus_and_a_peer_it_helps() {
        assert!(enabled(None, 2, true));
        assert!(!enabled(None, 2, false));
        assert!(!enabled(None, 1, true));
        assert!(enabled(Some("1"), 8, false));
        assert!(!enabled(Some("1"), 1, false));
        assert!(!enabled(Some("0"), 4, true));
        assert!(!enabled(Some(" off "), 4, true));
        assert!(enabled(Some("bogus"), 4, true));
    }

    #[test]
    fn helps_gtk_2_and_3_but_not_libreoffice() {
        assert!(helps("GTK", "3.24.38", Some("gtk3-widget-fact")));
        assert!(helps("GTK", "2.24.33", Some("gimp-2.10")));
        // GTK 2's bridge names its toolkit GAIL (GIMP 2.10).
        assert!(helps("GAIL", "2.24.33", Some("gimp-2.10")));
        assert!(helps("gtk", "3.24.38", None));
        assert!(!helps("GTK", "3.24.38", Some("soffice.bin")));
        assert!(!helps("GTK", "3.24.38", Some("libreoffice")));
        assert!(!helps("GTK", "4.8.3", Some("gtk4-demo")));
        assert!(!helps("Qt", "5.15.8", Some("vlc")));
        assert!(!helps("Chromium", "", Some("chromium")));
    }

    /// `start` polls exactly when [`enabled`] says so for this machine and
    /// environment: on one CPU it must refuse even when asked.
    #[tokio::test(flavor = "current_thread")]
    async fn starts_only_when_enabled_here() {
        let setting = std::env::var("CUP_BUSY_POLL").ok();
        let cpus = cpus_available();
        for helps in [true, false] {
            let want = enabled(setting.as_deref(), cpus, helps);
            let got = BusyPoll::start(Duration::from_secs(1), helps);
            assert_eq!(
                got.is_some(),
                want,
                "helps {helps}, {cpus} CPU(s), CUP_BUSY_POLL={setting:?}"
            );
            if cpus < 2 {
                assert!(got.is_none(), "busy poll started on one CPU");
            }
        }
    }

    /// Yields the test task `times` times: on a current-thread runtime the
    /// poller runs only then.
    async fn turns(times: usize) {
        for _ in 0..times {
            tokio::task::yield_now().await;
        }
    }

    /// On a current-thread runtime the poller runs only while the test
    /// task yields, so its count is checked without a clock (its limit, an
    /// hour, is never reached): it spins while held and never again once
    /// dropped.
    #[tokio::test(flavor = "current_thread")]
    async fn polls_until_dropped() {
        let hour = Duration::from_secs(3600);
        let guard = BusyPoll::spawn(&tokio::runtime::Handle::current(), Duration::ZERO, hour);
        assert_eq!(guard.spins(), 0, "ran before the runtime got a turn");
        turns(1000).await;
        let during = guard.spins();
        assert!(during >= 10, "polled {during} times in 1000 turns");
        let state = guard.state.clone();
        drop(guard);
        turns(100).await;
        assert_eq!(
            state.spins.load(Ordering::Relaxed),
            during,
            "polled after it was dropped"
        );
    }

    /// A limit already reached: the poller never spins, though held.
    #[tokio::test(flavor = "current_thread")]
    async fn stops_at_its_limit() {
        let guard = BusyPoll::spawn(
            &tokio::runtime::Handle::current(),
            Duration::ZERO,
            Duration::ZERO,
        );
        turns(100).await;
        assert_eq!(guard.spins(), 0);
    }

    /// Before its delay the poller does not spin, however often the
    /// runtime turns (the delay, an hour, is never reached).
    #[tokio::test(flavor = "current_thread")]
    async fn waits_for_its_delay() {
        let hour = Duration::from_secs(3600);
        let guard = BusyPoll::spawn(&tokio::runtime::Handle::current(), hour, 2 * hour);
        turns(1000).await;
        assert_eq!(guard.spins(), 0, "spun before its delay");
    }
}
