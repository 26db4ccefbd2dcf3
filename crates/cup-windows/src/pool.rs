//! Worker threads for blocking, cross-process calls (COM in its
//! multithreaded apartment), each with per-thread state made once (the
//! apartment, the `IUIAutomation` object). A job has a deadline: when it
//! passes, the caller gets an error at once while the worker stays with
//! the hung call (it is *stuck*); the worker rejoins the pool if the call
//! ever returns, and a new worker serves the next jobs meanwhile, up to a
//! limit of threads. When every thread is busy (a full snapshot of more
//! windows than threads), a job waits for the first one that is free,
//! within its deadline; only when every thread is stuck does it fail at
//! once with [`PoolError::Exhausted`].

use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use tokio::sync::{oneshot, Notify};
use tokio::time::Instant;

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
    /// Threads in a job whose caller gave up (past its deadline).
    stuck: usize,
}

/// A pool of workers with state `S`.
pub struct Pool<S> {
    shared: Arc<Mutex<Shared<S>>>,
    /// Wakes the jobs that wait for a worker when one is free again.
    freed: Arc<Notify>,
    factory: Factory<S>,
    max_threads: usize,
    name: &'static str,
}

/// What [`Pool::worker`] found.
enum Found<S> {
    /// A worker to send the job to.
    Worker(Sender<Job<S>>),
    /// Every thread is busy, not all of them stuck: wait for one.
    Busy,
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
                stuck: 0,
            })),
            freed: Arc::new(Notify::new()),
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

    /// Threads stuck in a job whose caller gave up.
    pub fn stuck(&self) -> usize {
        self.shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stuck
    }

    fn worker(&self) -> Result<Found<S>, PoolError> {
        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = shared.idle.pop() {
            return Ok(Found::Worker(tx));
        }
        if shared.threads >= self.max_threads {
            return if shared.stuck >= shared.threads {
                Err(PoolError::Exhausted(shared.threads))
            } else {
                Ok(Found::Busy)
            };
        }
        let (tx, rx) = channel::<Job<S>>();
        let factory = Arc::clone(&self.factory);
        let back = Arc::clone(&self.shared);
        let freed = Arc::clone(&self.freed);
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
                        let mut shared = back.lock().unwrap_or_else(PoisonError::into_inner);
                        shared.stuck = shared.stuck.saturating_sub(1);
                        shared.idle.push(me.clone());
                        drop(shared);
                        freed.notify_one();
                    }
                }
                let mut shared = back.lock().unwrap_or_else(PoisonError::into_inner);
                shared.threads = shared.threads.saturating_sub(1);
                drop(shared);
                // A waiting job may start a thread in its place.
                freed.notify_one();
            });
        match spawned {
            Ok(_) => {
                shared.threads += 1;
                Ok(Found::Worker(tx))
            }
            Err(e) => Err(PoolError::Setup(format!(
                "cannot start a worker thread: {e}"
            ))),
        }
    }

    /// A worker for a job that must start by `until`: a free one, a new
    /// thread, or (every thread busy) the first one freed.
    async fn worker_by(
        &self,
        until: Instant,
        deadline: Duration,
    ) -> Result<Sender<Job<S>>, PoolError> {
        loop {
            // Registered before the look, so a worker freed in between
            // still wakes this job.
            let freed = self.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            if let Found::Worker(w) = self.worker()? {
                return Ok(w);
            }
            if tokio::time::timeout_at(until, freed).await.is_err() {
                return Err(PoolError::Deadline(deadline.as_millis()));
            }
        }
    }

    /// Runs `job` on a worker and waits at most `deadline` for its result
    /// (the wait for a free worker included).
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: Duration,
        job: impl FnOnce(&mut S) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        let until = Instant::now() + deadline;
        let (tx, mut rx) = oneshot::channel();
        let worker = self.worker_by(until, deadline).await?;
        let sent = worker.send(Box::new(move |s: Result<&mut S, &str>| {
            tx.send(s.map(job).map_err(str::to_owned)).is_ok()
        }));
        if sent.is_err() {
            return Err(PoolError::Setup("a worker thread ended".into()));
        }
        let got = match tokio::time::timeout_at(until, &mut rx).await {
            Ok(got) => got,
            Err(_) => {
                // The worker counts as stuck from now: counted before the
                // result is refused, since the worker, once its send is
                // refused, counts itself free again (it rejoins the pool).
                self.shared
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .stuck += 1;
                rx.close();
                match rx.try_recv() {
                    // A result that came just now is taken: the worker
                    // was not stuck after all.
                    Ok(got) => {
                        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
                        shared.stuck = shared.stuck.saturating_sub(1);
                        Ok(got)
                    }
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
                self.freed.notify_one();
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
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::Receiver;
    use std::sync::Condvar;
    use std::task::Poll;
    use std::time::Instant;

    /// A deadline for the jobs whose deadline is not under test: ample on
    /// the busiest machine, so only what a test checks can fail it.
    const AMPLE: Duration = Duration::from_secs(60);

    /// How long a test waits for what must happen by a short deadline:
    /// far longer than a busy machine takes, far shorter than never.
    const BOUND: Duration = Duration::from_secs(20);

    /// A job's call that does not return until the test lets it: the job
    /// blocks on the receiver, the test holds the sender and lets it go by
    /// dropping it (a failing test drops it too, so no thread stays
    /// blocked).
    fn held() -> (Sender<()>, Receiver<()>) {
        channel()
    }

    /// `call` (a job's run, its deadline short or its job let go), which
    /// must end: a run that ignores its deadline fails the test at
    /// `BOUND` instead of hanging it.
    async fn by<T>(call: impl Future<Output = T>) -> T {
        tokio::time::timeout(BOUND, call)
            .await
            .unwrap_or_else(|_| panic!("the run did not end within {BOUND:?}"))
    }

    /// Waits until `done` holds, at most `BOUND`.
    async fn until(what: &str, done: impl Fn() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(start.elapsed() < BOUND, "{what}: not within {BOUND:?}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Polls `f` once.
    async fn poll_once<F: Future + Unpin>(f: &mut F) -> Poll<F::Output> {
        std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut *f).poll(cx))).await
    }

    #[tokio::test]
    async fn jobs_run_on_a_worker_with_its_state_made_once() {
        let made = Arc::new(AtomicUsize::new(0));
        let m = Arc::clone(&made);
        let pool = Pool::new("t", 4, move || {
            m.fetch_add(1, Ordering::SeqCst);
            Ok(10_u32)
        });
        for i in 0..5 {
            let got = pool.run(AMPLE, move |s| {
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
        // Hung until the end of the test: only the deadline ends the run.
        let (release, hold) = held();
        let hung = by(pool.run(Duration::from_millis(100), move |_| {
            let _ = hold.recv();
        }))
        .await;
        assert_eq!(hung, Err(PoolError::Deadline(100)));
        assert_eq!(pool.run(AMPLE, |_| 7).await, Ok(7));
        assert_eq!(pool.threads(), 2, "the hung worker is not reused");
        drop(release);
    }

    #[tokio::test]
    async fn stuck_workers_exhaust_the_pool_with_advice() {
        let pool = Pool::new("t", 2, || Ok(()));
        let mut releases = Vec::new();
        for _ in 0..2 {
            let (release, hold) = held();
            releases.push(release);
            let r = by(pool.run(Duration::from_millis(20), move |_| {
                let _ = hold.recv();
            }))
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
        let (release, hold) = held();
        let r = by(pool.run(Duration::from_millis(20), move |_| {
            let _ = hold.recv();
        }))
        .await;
        assert!(matches!(r, Err(PoolError::Deadline(_))));
        // The call returns, late.
        drop(release);
        until("the late worker rejoins", || pool.stuck() == 0).await;
        assert_eq!(by(pool.run(AMPLE, |_| 3)).await, Ok(3));
        assert_eq!(pool.threads(), 1);
    }

    /// Jobs that wait inside until `n` of them are in at once (or, giving
    /// up for all, `wait` has passed), counting the most at once.
    struct Crowd {
        /// Jobs inside now, the most at once so far, and whether one gave
        /// up waiting.
        inside: Mutex<(usize, usize, bool)>,
        full: Condvar,
        n: usize,
        wait: Duration,
    }

    impl Crowd {
        fn job(&self) {
            let mut inside = self.inside.lock().unwrap_or_else(PoisonError::into_inner);
            inside.0 += 1;
            inside.1 = inside.1.max(inside.0);
            self.full.notify_all();
            let (mut inside, waited) = self
                .full
                .wait_timeout_while(inside, self.wait, |(_, most, gave_up)| {
                    *most < self.n && !*gave_up
                })
                .unwrap_or_else(PoisonError::into_inner);
            if waited.timed_out() {
                inside.2 = true;
                self.full.notify_all();
            }
            inside.0 -= 1;
        }

        fn most(&self) -> usize {
            self.inside.lock().unwrap_or_else(PoisonError::into_inner).1
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn twenty_windows_on_eight_threads_all_get_their_answer() {
        // A full snapshot of 20 windows: each job waits for a free worker
        // (none is stuck), none fails with "restart cup". The first jobs
        // stay until eight are in at once: a pool that ran fewer at a time
        // would keep them `wait` (then let all through, to fail the count).
        let pool = Arc::new(Pool::new("t", 8, || Ok(())));
        let crowd = Arc::new(Crowd {
            inside: Mutex::new((0, 0, false)),
            full: Condvar::new(),
            n: 8,
            wait: BOUND,
        });
        let jobs: Vec<_> = (0..20)
            .map(|i| {
                let (pool, crowd) = (Arc::clone(&pool), Arc::clone(&crowd));
                tokio::spawn(async move {
                    pool.run(AMPLE, move |_| {
                        crowd.job();
                        i
                    })
                    .await
                })
            })
            .collect();
        let mut got = Vec::new();
        for job in jobs {
            got.push(
                job.await
                    .unwrap_or(Err(PoolError::Setup("the task panicked".into()))),
            );
        }
        assert_eq!(got, (0..20).map(Ok).collect::<Vec<_>>());
        assert!(pool.threads() <= 8, "{}", pool.threads());
        assert_eq!(crowd.most(), 8, "eight at a time");
        assert_eq!(pool.stuck(), 0);
    }

    #[tokio::test]
    async fn a_job_waiting_for_a_busy_pool_keeps_its_deadline() {
        let pool = Arc::new(Pool::new("t", 1, || Ok(())));
        let (entered_tx, entered) = oneshot::channel();
        let (release, hold) = held();
        let long = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                pool.run(AMPLE, move |_| {
                    let _ = entered_tx.send(());
                    let _ = hold.recv();
                })
                .await
            })
        };
        entered.await.expect("the long job started");
        // The only worker is busy until this job's deadline has passed.
        let waited = by(pool.run(Duration::from_millis(100), |_| 1)).await;
        assert_eq!(waited, Err(PoolError::Deadline(100)));
        drop(release);
        assert!(matches!(by(long).await, Ok(Ok(()))));
        // Not counted as stuck: it never reached a worker.
        assert_eq!(pool.stuck(), 0);
        assert_eq!(by(pool.run(AMPLE, |_| 2)).await, Ok(2));
    }

    #[tokio::test]
    async fn one_stuck_and_one_busy_worker_make_a_job_wait_not_fail() {
        let pool = Arc::new(Pool::new("t", 2, || Ok(())));
        let (_release_stuck, hold) = held();
        let r = by(pool.run(Duration::from_millis(20), move |_| {
            let _ = hold.recv();
        }))
        .await;
        assert!(matches!(r, Err(PoolError::Deadline(_))));
        assert_eq!(pool.stuck(), 1);
        let (entered_tx, entered) = oneshot::channel();
        let (release_busy, hold) = held();
        let busy = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                pool.run(AMPLE, move |_| {
                    let _ = entered_tx.send(());
                    let _ = hold.recv();
                })
                .await
            })
        };
        entered.await.expect("the busy job started");
        // Both threads taken, one of them only busy: this job waits for it.
        let mut waits = std::pin::pin!(pool.run(AMPLE, |_| 5));
        let first = poll_once(&mut waits).await;
        assert!(first.is_pending(), "{first:?}");
        drop(release_busy);
        assert_eq!(by(waits).await, Ok(5));
        assert!(matches!(by(busy).await, Ok(Ok(()))));
        assert_eq!(pool.threads(), 2);
    }

    #[tokio::test]
    async fn a_stuck_worker_that_returns_is_counted_free_again() {
        let pool = Pool::new("t", 1, || Ok(()));
        let (release, hold) = held();
        let r = by(pool.run(Duration::from_millis(20), move |_| {
            let _ = hold.recv();
        }))
        .await;
        assert!(matches!(r, Err(PoolError::Deadline(_))));
        assert_eq!(pool.stuck(), 1);
        assert_eq!(
            pool.run(Duration::from_millis(50), |_| 1).await,
            Err(PoolError::Exhausted(1)),
            "its only thread is stuck"
        );
        // The call returns, late.
        drop(release);
        until("the returned worker is counted free", || pool.stuck() == 0).await;
        assert_eq!(by(pool.run(AMPLE, |_| 4)).await, Ok(4));
    }

    #[tokio::test]
    async fn a_caller_that_stops_waiting_leaves_the_worker_to_rejoin() {
        // An Invoke past its grace: the caller drops its wait; the worker
        // finishes the call later and serves the next job.
        let pool = Pool::new("t", 1, || Ok(()));
        let (entered_tx, entered) = oneshot::channel();
        let (release, hold) = held();
        {
            let call = pool.run(AMPLE, move |_| {
                let _ = entered_tx.send(());
                let _ = hold.recv();
            });
            // The caller gives up once the call is under way.
            tokio::select! {
                r = call => panic!("the call is held, yet it ended: {r:?}"),
                _ = entered => {}
            }
        }
        assert_eq!(pool.stuck(), 0, "never counted stuck");
        drop(release);
        assert_eq!(by(pool.run(AMPLE, |_| 6)).await, Ok(6));
        assert_eq!(pool.threads(), 1);
    }

    #[tokio::test]
    async fn a_failed_setup_is_the_jobs_error() {
        let pool: Pool<()> = Pool::new("t", 2, || Err("CoInitializeEx failed: 0x80004005".into()));
        let r = pool.run(AMPLE, |_| 1).await;
        assert_eq!(
            r,
            Err(PoolError::Setup("CoInitializeEx failed: 0x80004005".into()))
        );
    }
}
