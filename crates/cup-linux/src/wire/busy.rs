//! Busy-polling the runtime while a capture waits for replies.
//!
//! A capture is a long chain of short waits: cup asks, the app answers in
//! about 0.1 ms, cup asks again. Between them cup's thread would sleep, and
//! on a virtual machine every sleep of a CPU costs a wake-up through the
//! hypervisor (measured on a 2-CPU VM: 0.2 ms for a wake-up across CPUs,
//! against 0.05 ms on the same one). Worse, the app's own round trips to
//! the X server (one per GTK 3 extents read) then cross CPUs as well: an X
//! round trip took 0.35-0.45 ms with both CPUs idle and 0.09 ms when one was
//! kept busy, as the scheduler then runs the app and the X server side by
//! side on the other.
//!
//! So while a capture runs, a task keeps the runtime polling its sockets
//! (`epoll_wait` with no timeout) instead of sleeping. It stops when the
//! capture ends, at the latest after [`MAX_SPIN`], and never runs on a
//! machine with a single CPU, where it would take the CPU from the app it
//! waits for. `CUP_BUSY_POLL=0` turns it off.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest a busy poll runs, whatever the capture's deadline.
pub const MAX_SPIN: Duration = Duration::from_secs(3);

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
    /// Starts polling on the current tokio runtime, if it may help: more than
    /// one CPU is available to this process, and `CUP_BUSY_POLL` is not `0`.
    pub fn start(limit: Duration) -> Option<Self> {
        if !enabled(
            std::env::var("CUP_BUSY_POLL").ok().as_deref(),
            cpus_available(),
        ) {
            return None;
        }
        let handle = tokio::runtime::Handle::try_current().ok()?;
        let state = Arc::new(State::default());
        let shared = state.clone();
        let until = Instant::now() + limit.min(MAX_SPIN);
        handle.spawn(async move {
            while !shared.stop.load(Ordering::Relaxed) && Instant::now() < until {
                shared.spins.fetch_add(1, Ordering::Relaxed);
                tokio::task::yield_now().await;
            }
        });
        Some(Self { state })
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

fn cpus_available() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Whether to busy-poll, given `CUP_BUSY_POLL` and the CPUs available.
fn enabled(setting: Option<&str>, cpus: usize) -> bool {
    let off = matches!(setting.map(str::trim), Some("0" | "off" | "false" | "no"));
    !off && cpus >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_two_cpus_and_no_opt_out() {
        assert!(enabled(None, 2));
        assert!(enabled(Some("1"), 8));
        assert!(!enabled(None, 1));
        assert!(!enabled(Some("0"), 4));
        assert!(!enabled(Some(" off "), 4));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn polls_until_dropped() {
        let Some(guard) = BusyPoll::start(Duration::from_secs(2)) else {
            assert!(!enabled(None, cpus_available()));
            return;
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let during = guard.spins();
        assert!(during > 10, "polled {during} times in 20 ms");
        let state = guard.state.clone();
        drop(guard);
        tokio::time::sleep(Duration::from_millis(5)).await;
        let after = state.spins.load(Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(state.spins.load(Ordering::Relaxed), after);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn stops_at_its_limit() {
        let Some(guard) = BusyPoll::start(Duration::from_millis(20)) else {
            return;
        };
        tokio::time::sleep(Duration::from_millis(40)).await;
        let at_limit = guard.spins();
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(guard.spins(), at_limit);
    }
}
