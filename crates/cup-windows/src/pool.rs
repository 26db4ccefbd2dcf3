//! Worker threads for blocking, cross-process calls (COM in its
//! multithreaded apartment), each with per-thread state made once (the
//! apartment, the `IUIAutomation` object). A job has a deadline: when it
//! passes, the caller gets an error at once while the worker stays with
//! the hung call; the worker rejoins the pool if the call ever returns, and
//! a new worker serves the next jobs meanwhile, up to a limit of threads.

use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use tokio::sync::oneshot;

/// A job: runs with the worker's state (or its setup error) and says
/// whether its caller took the result (else the caller gave up on it).
type Job<S> = Box<dyn FnOnce(Result<&mut S, &str>) -> bool + Send>;
type Factory<S> = Arc<dyn Fn() -> Result<S, String> + Send + Sync>;

/// Why a job did not give its result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PoolError {
    /// The deadline passed (the job is abandoned).
    #[error("no answer within {0} ms")]
    Deadline(u128),
    /// Every worker is stuck in a call that does not return.
    #[error("all {0} worker threads are stuck in calls to apps that do not answer; restart cup")]
    Exhausted(usize),
    /// The worker's state could not be made (e.g. COM did not start).
    #[error("{0}")]
    Setup(String),
}

struct Shared<S> {
    idle: Vec<Sender<Job<S>>>,
    threads: usize,
}

/// A pool of workers with state `S`.
pub struct Pool<S> {
    shared: Arc<Mutex<Shared<S>>>,
    factory: Factory<S>,
    max_threads: usize,
    name: &'static str,
}

impl<S> std::fmt::Debug for Pool<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("name", &self.name)
            .field("max_threads", &self.max_threads)
            .finish_non_exhaustive()
    }
}

impl<S: 'static> Pool<S> {
    /// A pool whose threads (at most `max_threads`, named `name`) each make
    /// their state with `factory` first.
    pub fn new(
        name: &'static str,
        max_threads: usize,
        factory: impl Fn() -> Result<S, String> + Send + Sync + 'static,
    ) -> Self {
        Pool {
            shared: Arc::new(Mutex::new(Shared {
                idle: Vec::new(),
                threads: 0,
            })),
            factory: Arc::new(factory),
            max_threads: max_threads.max(1),
            name,
        }
    }

    /// Threads started so far (stuck ones included).
    pub fn threads(&self) -> usize {
        self.shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .threads
    }

    fn worker(&self) -> Result<Sender<Job<S>>, PoolError> {
        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = shared.idle.pop() {
            return Ok(tx);
        }
        if shared.threads >= self.max_threads {
            return Err(PoolError::Exhausted(shared.threads));
        }
        let (tx, rx) = channel::<Job<S>>();
        let factory = Arc::clone(&self.factory);
        let back = Arc::clone(&self.shared);
        let me = tx.clone();
        let spawned = thread::Builder::new()
            .name(self.name.to_owned())
            .spawn(move || {
                let mut state = factory();
                while let Ok(job) = rx.recv() {
                    let delivered = match &mut state {
                        Ok(s) => job(Ok(s)),
                        Err(e) => {
                            job(Err(e.as_str()));
                            break;
                        }
                    };
                    // A caller that took the result gives the worker back
                    // itself; one that gave up cannot, so it rejoins here.
                    if !delivered {
                        back.lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .idle
                            .push(me.clone());
                    }
                }
                let mut shared = back.lock().unwrap_or_else(PoisonError::into_inner);
                shared.threads = shared.threads.saturating_sub(1);
            });
        match spawned {
            Ok(_) => {
                shared.threads += 1;
                Ok(tx)
            }
            Err(e) => Err(PoolError::Setup(format!(
                "cannot start a worker thread: {e}"
            ))),
        }
    }

    /// Runs `job` on a worker and waits at most `deadline` for its result.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: Duration,
        job: impl FnOnce(&mut S) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        let (tx, mut rx) = oneshot::channel();
        let worker = self.worker()?;
        let sent = worker.send(Box::new(move |s: Result<&mut S, &str>| {
            tx.send(s.map(job).map_err(str::to_owned)).is_ok()
        }));
        if sent.is_err() {
            return Err(PoolError::Setup("a worker thread ended".into()));
        }
        let got = match tokio::time::timeout(deadline, &mut rx).await {
            Ok(got) => got,
            Err(_) => {
                // Refuse a later result (the worker then rejoins the pool
                // itself), but take one that came just now.
                rx.close();
                match rx.try_recv() {
                    Ok(got) => Ok(got),
                    Err(_) => return Err(PoolError::Deadline(deadline.as_millis())),
                }
            }
        };
        match got {
            Ok(Ok(v)) => {
                self.shared
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .idle
                    .push(worker);
                Ok(v)
            }
            // The worker's state could not be made (it has ended).
            Ok(Err(e)) => Err(PoolError::Setup(e)),
            Err(_) => Err(PoolError::Setup("a worker thread ended".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Instant;

    #[tokio::test]
    async fn jobs_run_on_a_worker_with_its_state_made_once() {
        let made = Arc::new(AtomicUsize::new(0));
        let m = Arc::clone(&made);
        let pool = Pool::new("t", 4, move || {
            m.fetch_add(1, Ordering::SeqCst);
            Ok(10_u32)
        });
        for i in 0..5 {
            let got = pool.run(Duration::from_secs(5), move |s| {
                *s += 1;
                *s + i
            });
            assert_eq!(got.await, Ok(11 + i * 2));
        }
        assert_eq!(made.load(Ordering::SeqCst), 1, "one worker, reused");
        assert_eq!(pool.threads(), 1);
    }

    #[tokio::test]
    async fn a_hung_job_times_out_and_a_new_worker_serves_the_next() {
        let pool = Pool::new("t", 3, || Ok(()));
        let start = Instant::now();
        let hung = pool
            .run(Duration::from_millis(100), |_| {
                thread::sleep(Duration::from_secs(3))
            })
            .await;
        assert_eq!(hung, Err(PoolError::Deadline(100)));
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(pool.run(Duration::from_secs(5), |_| 7).await, Ok(7));
        assert_eq!(pool.threads(), 2, "the hung worker is not reused");
    }

    #[tokio::test]
    async fn stuck_workers_exhaust_the_pool_with_advice() {
        let pool = Pool::new("t", 2, || Ok(()));
        for _ in 0..2 {
            let r = pool
                .run(Duration::from_millis(20), |_| {
                    thread::sleep(Duration::from_secs(2))
                })
                .await;
            assert!(matches!(r, Err(PoolError::Deadline(_))));
        }
        let r = pool.run(Duration::from_secs(1), |_| 1).await;
        let e = r.expect_err("both workers are stuck");
        assert_eq!(e, PoolError::Exhausted(2));
        assert!(e.to_string().contains("restart cup"));
    }

    #[tokio::test]
    async fn a_worker_that_returns_late_rejoins_the_pool() {
        let pool = Pool::new("t", 1, || Ok(()));
        let r = pool
            .run(Duration::from_millis(20), |_| {
                thread::sleep(Duration::from_millis(200))
            })
            .await;
        assert!(matches!(r, Err(PoolError::Deadline(_))));
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(pool.run(Duration::from_secs(1), |_| 3).await, Ok(3));
        assert_eq!(pool.threads(), 1);
    }

    #[tokio::test]
    async fn a_failed_setup_is_the_jobs_error() {
        let pool: Pool<()> = Pool::new("t", 2, || Err("CoInitializeEx failed: 0x80004005".into()));
        let r = pool.run(Duration::from_secs(1), |_| 1).await;
        assert_eq!(
            r,
            Err(PoolError::Setup("CoInitializeEx failed: 0x80004005".into()))
        );
    }
}
