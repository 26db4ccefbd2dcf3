//! Apps on Windows: the installed ones (Start menu shortcuts, the Apps
//! folder, the system's own programs) with the running ones joined in,
//! and opening one, waiting for its window.

use std::time::{Duration, Instant};

use cup::{Adapter, AdapterError, AppEntry, Launched};

use super::{blocking, WindowsAdapter};
use crate::apps::{self, App};
use crate::os::win32;
use crate::toplevel::{app_windows, hwnd_of};

impl WindowsAdapter {
    async fn installed(&self) -> Result<Vec<App>, AdapterError> {
        let folder = self
            .pool
            .run(Duration::from_secs(10), |_| win32::apps_folder())
            .await
            .unwrap_or_default();
        blocking(move || installed_apps(folder)).await
    }

    /// Installed and running apps ([`cup::Adapter::apps`]).
    pub(super) async fn list_apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        let installed = self.installed().await?;
        let running = blocking(|| win32::top_level(true)).await?;
        let mut out = cup::installed::entries(&installed);
        for h in app_windows(&running, 0) {
            let process = h
                .info
                .extra
                .get("app")
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_owned();
            let pid = h.info.pid.and_then(|p| u32::try_from(p).ok());
            let stem = process.trim_end_matches(".exe").to_lowercase();
            let entry = out
                .iter_mut()
                .find(|e| !stem.is_empty() && e.id.to_lowercase().contains(&stem));
            match entry {
                Some(e) => {
                    e.pids.extend(pid);
                    e.windows.push(h.info.title.clone());
                }
                None => out.push(AppEntry {
                    name: process.clone(),
                    id: process,
                    pids: pid.into_iter().collect(),
                    windows: vec![h.info.title.clone()],
                    installed: false,
                }),
            }
        }
        Ok(out)
    }

    /// Opens the app `name` with `args` and waits for its window
    /// ([`cup::Adapter::open_app_with`]).
    pub(super) async fn launch_app(
        &self,
        name: &str,
        args: &[String],
    ) -> Result<Launched, AdapterError> {
        let installed = self.installed().await?;
        let app = cup::installed::pick(name, &installed)?;
        let before: Vec<i64> = self
            .windows()
            .await?
            .iter()
            .filter_map(|w| hwnd_of(&w.native))
            .collect();
        let target = app.target.clone();
        let joined = args
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("\"{a}\"")
                } else {
                    a.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let pid = blocking(move || win32::launch(&target, &joined))
            .await?
            .map_err(AdapterError::Platform)?;
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let now = self.windows().await?;
            let new = now.into_iter().find(|w| {
                let fresh = hwnd_of(&w.native).is_some_and(|h| !before.contains(&h));
                let mine = pid.is_some_and(|p| w.info.pid == Some(i64::from(p)));
                fresh
                    && (mine
                        || pid.is_none()
                        || apps::score(
                            &app.name,
                            &App {
                                name: w.info.title.clone(),
                                target: String::new(),
                            },
                        ) > 0)
            });
            if let Some(w) = new {
                let wpid = w.info.pid.and_then(|p| u32::try_from(p).ok());
                return Ok(Launched {
                    name: app.name,
                    pid: pid.or(wpid).unwrap_or(0),
                    window: Some(w),
                });
            }
            if Instant::now() >= end {
                return Err(AdapterError::Platform(format!(
                    "started '{}'{} but no window of it appeared within 20 s; it may run in the background or need a sign-in",
                    app.name,
                    pid.map(|p| format!(" (pid {p})")).unwrap_or_default()
                )));
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }
}

/// Start menu shortcuts of all users and this user, then the Apps folder's
/// (packaged apps; the shortcuts again by the same names) and the system's
/// own programs, each name once.
fn installed_apps(folder: Vec<App>) -> Vec<App> {
    let pd = std::env::var("ProgramData").ok();
    let ad = std::env::var("APPDATA").ok();
    let mut out: Vec<App> = apps::start_menu_dirs(pd.as_deref(), ad.as_deref())
        .iter()
        .flat_map(|d| apps::scan(d))
        .collect();
    let system = apps::SYSTEM_PROGRAMS.iter().map(|(name, exe)| App {
        name: (*name).into(),
        target: (*exe).into(),
    });
    for app in folder.into_iter().chain(system) {
        if !out.iter().any(|a| a.name.eq_ignore_ascii_case(&app.name)) {
            out.push(app);
        }
    }
    out
}
