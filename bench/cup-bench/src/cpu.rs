//! CPU time of this process, to report beside wall time: what a capture
//! costs the machine, not only how long it takes (a busy-polling app or a
//! spinning client shows up here).

use std::fs;

/// CPU time (user + system) of this process's live threads so far, in
/// milliseconds, from `/proc/self/task/*/schedstat` (nanoseconds on the
/// CPU); `None` where that is not readable.
pub fn process_ms() -> Option<f64> {
    let mut total_ns: u128 = 0;
    for entry in fs::read_dir("/proc/self/task").ok()? {
        let path = entry.ok()?.path().join("schedstat");
        // A thread may end between the listing and the read.
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        total_ns += text.split_whitespace().next()?.parse::<u128>().ok()?;
    }
    Some(total_ns as f64 / 1e6)
}

/// Measures the CPU time spent between `start` and `stop` calls.
#[derive(Debug, Clone, Copy)]
pub struct Clock(Option<f64>);

impl Clock {
    /// Starts counting.
    pub fn start() -> Clock {
        Clock(process_ms())
    }

    /// CPU milliseconds since [`Clock::start`], if both reads worked.
    pub fn stop(self) -> Option<f64> {
        Some(process_ms()? - self.0?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spinning_advances_the_clock() {
        // Other tests run in this process at the same time and the machine
        // may be loaded: spin until this process has used 20 ms of CPU, or
        // give up after 10 s of wall time.
        let c = Clock::start();
        let t = std::time::Instant::now();
        let mut x = 0u64;
        let mut used = 0.0;
        while used < 20.0 && t.elapsed().as_secs() < 10 {
            for _ in 0..100_000 {
                x = x.wrapping_add(std::hint::black_box(1));
            }
            used = c.stop().unwrap_or(0.0);
        }
        assert!(
            used >= 20.0,
            "{used} ms of CPU after {:?} ({x})",
            t.elapsed()
        );
    }
}
