//! Capture on Windows ([`cup::Adapter::capture`]): each window walked on a
//! pool worker within its share of the deadline (a Chromium or Electron
//! window walked again once), the trees assembled into one capture and
//! kept as the native dump.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cup::refs::window_ref;
use cup::{AdapterError, Capture, CaptureLimits, WindowHandle};
use cup_protocol::Rect;

use super::{blocking, WindowsAdapter};
use crate::assemble::{assemble, Limits};
use crate::facts::{NativeDump, WindowTree};
use crate::os::uia::UiaReads;
use crate::os::win32;
use crate::screen::ltrb;
use crate::toplevel::hwnd_of;
use crate::walk::{walk, WalkLimits};

impl WindowsAdapter {
    /// Captures `windows` within `limits` ([`cup::Adapter::capture`]).
    pub(super) async fn capture_windows(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let start = Instant::now();
        let screen = blocking(win32::screen).await?;
        let per_window = limits.deadline.saturating_sub(start.elapsed());
        let mut tasks = tokio::task::JoinSet::new();
        for (i, w) in windows.iter().enumerate() {
            let hwnd = window_ref(&w.native, "a Windows window reference", hwnd_of)?;
            let pool = Arc::clone(&self.pool);
            let (max_nodes, max_depth) = (limits.max_nodes, limits.max_depth);
            let title = w.info.title.clone();
            // The process name was read when the window was listed.
            let app = w
                .info
                .extra
                .get("app")
                .and_then(|a| a.as_str())
                .unwrap_or("")
                .to_owned();
            tasks.spawn(async move {
                let job = pool.run(per_window + Duration::from_millis(200), move |uia| {
                    let mut facts = win32::window_facts(win32::hwnd(hwnd));
                    facts.process_name = app;
                    let deadline = Instant::now() + per_window;
                    let l = WalkLimits {
                        max_nodes,
                        max_depth,
                        deadline,
                        tries: 3,
                        retry_wait: Duration::from_millis(50),
                    };
                    let mut reads = UiaReads {
                        uia,
                        per_element: false,
                    };
                    let first = walk(&mut reads, &facts, l);
                    // Chromium/Electron build their web tree once a client
                    // asks: such a window is walked again, once, a moment
                    // later.
                    if crate::walk::wants_second_walk(&first)
                        && Instant::now() + crate::walk::SECOND_WALK_AFTER < deadline
                    {
                        std::thread::sleep(crate::walk::SECOND_WALK_AFTER);
                        let mut reads = UiaReads {
                            uia,
                            per_element: false,
                        };
                        return walk(&mut reads, &facts, l);
                    }
                    first
                });
                let tree = match job.await {
                    Ok(t) => t,
                    Err(e) => WindowTree {
                        window: crate::facts::WindowFacts {
                            hwnd,
                            title,
                            ..Default::default()
                        },
                        root: None,
                        error: Some(format!("{e} (the app did not answer UI Automation)")),
                    },
                };
                (i, tree)
            });
        }
        let mut trees: Vec<(usize, WindowTree)> = Vec::new();
        while let Some(done) = tasks.join_next().await {
            trees.push(
                done.map_err(|e| AdapterError::Platform(format!("a capture task failed: {e}")))?,
            );
        }
        trees.sort_by_key(|(i, _)| *i);
        let trees: Vec<WindowTree> = trees.into_iter().map(|(_, t)| t).collect();
        let monitors: Vec<Rect> = screen.monitors.iter().map(|m| ltrb(m.rect)).collect();
        let capture = assemble(
            &trees,
            &monitors,
            Limits {
                max_depth: limits.max_depth,
                max_nodes: limits.max_nodes,
            },
        );
        self.last.keep(NativeDump {
            platform: "windows".into(),
            source: "recorded by cup snapshot --native-dump".into(),
            screen,
            foreground: blocking(win32::foreground).await.unwrap_or(0),
            trees,
        });
        Ok(capture)
    }
}
