//! The device layer: the adb commands cup runs on a phone, and the pure
//! readers of what they print (`wm size`, `wm density`, `dumpsys window`,
//! `cmd package query-activities`, `pidof`). It only makes calls and fills
//! the plain facts of [`crate::facts`].

use std::time::Duration;

use crate::adb::{quote, AdbError, AdbServer, ShellOutput};
use crate::facts::{Device, Focus};

/// Deadline of a quick command (`wm size`, `input tap`).
pub const QUICK: Duration = Duration::from_secs(10);
/// Deadline of a UI dump (a busy app takes seconds to go idle).
pub const DUMP: Duration = Duration::from_secs(20);

/// `wm size`: the override size when one is set, else the physical one.
pub fn parse_wm_size(text: &str) -> Option<(u32, u32)> {
    let read = |prefix: &str| {
        text.lines().find_map(|l| {
            let (w, h) = l.trim().strip_prefix(prefix)?.trim().split_once('x')?;
            Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
        })
    };
    read("Override size:").or_else(|| read("Physical size:"))
}

/// `wm density`: the override density when one is set, else the physical.
pub fn parse_wm_density(text: &str) -> Option<u32> {
    let read = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix)?.trim().parse().ok())
    };
    read("Override density:").or_else(|| read("Physical density:"))
}

/// The focused window of `dumpsys window` (`mCurrentFocus=Window{4f1c u0
/// com.android.settings/com.android.settings.Settings}`), else the
/// focused app (`mFocusedApp=ActivityRecord{… u0 com.x/.Main t12}`).
pub fn parse_focus(text: &str) -> Option<Focus> {
    let from = |key: &str| {
        text.lines().find_map(|l| {
            let rest = l.trim().strip_prefix(key)?;
            let inner = rest.split_once('{')?.1.split('}').next()?;
            // `<hash> u0 <component> [t12]`
            let words: Vec<&str> = inner.split_whitespace().collect();
            let component = words.iter().find(|w| w.contains('/')).copied();
            match component {
                Some(c) => {
                    let (package, activity) = c.split_once('/')?;
                    let activity = if let Some(short) = activity.strip_prefix('.') {
                        format!("{package}.{short}")
                    } else {
                        activity.to_owned()
                    };
                    Some(Focus {
                        package: package.to_owned(),
                        activity,
                    })
                }
                // A system window: `Window{… u0 NotificationShade}`.
                None => words.last().filter(|w| !w.starts_with('u')).map(|w| Focus {
                    package: String::new(),
                    activity: (*w).to_owned(),
                }),
            }
        })
    };
    from("mCurrentFocus=")
        .filter(|f| !f.package.is_empty() || !f.activity.is_empty())
        .or_else(|| from("mFocusedApp="))
}

/// `cmd package query-activities --brief …`: the launchable components
/// (`com.android.settings/.Settings`), one per package, in order.
pub fn parse_launchables(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let Some((package, activity)) = line.split_once('/') else {
            continue;
        };
        if line.contains(' ') || package.is_empty() || activity.is_empty() {
            continue;
        }
        if !out.iter().any(|(p, _)| p == package) {
            out.push((package.to_owned(), activity.to_owned()));
        }
    }
    out
}

/// `pidof`'s first pid.
pub fn parse_pid(text: &str) -> Option<u32> {
    text.split_whitespace().next()?.parse().ok()
}

/// The rotation in `dumpsys input` (`SurfaceOrientation: 1`).
pub fn parse_rotation(text: &str) -> Option<u8> {
    text.lines().find_map(|l| {
        l.trim()
            .strip_prefix("SurfaceOrientation:")?
            .trim()
            .parse()
            .ok()
    })
}

/// Whether an `input`/`am`/`monkey` run failed though its exit code (or
/// its lack of one, without `shell_v2`) says nothing: Android's shell
/// tools print exceptions and `Error:` lines and still exit 0 on some
/// versions.
pub fn failure(out: &ShellOutput) -> Option<String> {
    if let Some(code) = out.exit.filter(|c| *c != 0) {
        let err = String::from_utf8_lossy(&out.stderr);
        let text = if err.trim().is_empty() {
            out.text()
        } else {
            err.into_owned()
        };
        return Some(format!(
            "exit code {code}: {}",
            text.lines().next().unwrap_or_default().trim()
        ));
    }
    let all = format!("{}{}", out.text(), String::from_utf8_lossy(&out.stderr));
    all.lines()
        .map(str::trim)
        .find(|l| {
            l.starts_with("Error:")
                || l.starts_with("Exception")
                || l.contains("Exception:")
                || l.starts_with("** No activities found")
        })
        .map(str::to_owned)
}

/// One phone, reached through an adb server.
#[derive(Debug, Clone)]
pub struct Phone {
    /// The server.
    pub server: AdbServer,
    /// Its serial.
    pub serial: String,
    /// Its model, as `adb devices -l` lists it.
    pub model: String,
    /// Whether it speaks shell protocol v2 (exit codes, stderr apart).
    pub v2: bool,
}

impl Phone {
    /// The phone `wanted` names (or `ANDROID_SERIAL`), else the only one
    /// connected.
    pub async fn open(server: AdbServer, wanted: Option<&str>) -> Result<Phone, AdbError> {
        let env = std::env::var("ANDROID_SERIAL")
            .ok()
            .filter(|s| !s.trim().is_empty());
        let wanted = wanted.map(str::to_owned).or(env);
        let entry = server.choose(wanted.as_deref()).await?;
        let features = server.features(&entry.serial).await.unwrap_or_default();
        Ok(Phone {
            v2: features.iter().any(|f| f == "shell_v2"),
            serial: entry.serial,
            model: entry.model,
            server,
        })
    }

    /// Runs `cmd` in its shell.
    pub async fn sh(&self, cmd: &str, deadline: Duration) -> Result<ShellOutput, AdbError> {
        self.server
            .shell(&self.serial, cmd, self.v2, deadline)
            .await
    }

    /// Runs `cmd` and fails (one line) when it did.
    pub async fn run(&self, cmd: &str, deadline: Duration) -> Result<String, AdbError> {
        let out = self.sh(cmd, deadline).await?;
        if let Some(why) = failure(&out) {
            return Err(AdbError::Refused(format!(
                "`{cmd}` failed on {}: {why}",
                self.serial
            )));
        }
        Ok(out.text())
    }

    /// Screen size, density and model.
    pub async fn device(&self) -> Result<Device, AdbError> {
        let size = self.run("wm size", QUICK).await?;
        let (width, height) = parse_wm_size(&size).ok_or_else(|| {
            AdbError::Io(format!(
                "`wm size` on {} printed no size: {}",
                self.serial,
                size.trim()
            ))
        })?;
        let density = parse_wm_density(&self.run("wm density", QUICK).await?).unwrap_or(160);
        Ok(Device {
            serial: self.serial.clone(),
            model: self.model.clone(),
            width,
            height,
            density,
        })
    }

    /// The current rotation, from `dumpsys input` (0, with a warning,
    /// when the device does not say).
    pub async fn rotation(&self) -> u8 {
        match self
            .run("dumpsys input | grep -m 1 SurfaceOrientation", QUICK)
            .await
        {
            Ok(text) => parse_rotation(&text).unwrap_or(0),
            Err(e) => {
                tracing::warn!(
                    "the rotation of {} is unknown ({e}); taken as 0",
                    self.serial
                );
                0
            }
        }
    }

    /// The foreground app.
    pub async fn focus(&self) -> Result<Option<Focus>, AdbError> {
        Ok(parse_focus(&self.run("dumpsys window", QUICK).await?))
    }

    /// The UI dump's XML. `uiautomator dump` streams it through
    /// `/dev/tty`; it fails while an animation runs (`could not get idle
    /// state`, `null root node`), so it is retried until the deadline.
    pub async fn dump(&self, deadline: Duration) -> Result<String, AdbError> {
        let until = tokio::time::Instant::now() + deadline;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            let raw = self
                .server
                .exec(&self.serial, "uiautomator dump /dev/tty", left)
                .await?;
            let text = String::from_utf8_lossy(&raw).into_owned();
            if text.contains("</hierarchy>") {
                return Ok(text);
            }
            if text.contains("<hierarchy") {
                return Err(AdbError::Device(format!(
                    "device {} stopped in the middle of its UI dump (disconnected?); check `adb devices` and retry",
                    self.serial
                )));
            }
            let transient = text.contains("null root node") || text.contains("idle state");
            if !transient || tokio::time::Instant::now() + Duration::from_millis(300) >= until {
                let line = text
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .unwrap_or(
                    "nothing (is uiautomator on the device? it is part of every Android since 4.1)",
                );
                return Err(AdbError::Device(format!(
                    "device {} gave no UI dump: {line}; wake the screen, wait for animations to end, and retry",
                    self.serial
                )));
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// A PNG of the screen (`screencap -p`; `display` picks a display on
    /// phones with several).
    pub async fn screencap(&self, display: Option<u32>) -> Result<Vec<u8>, AdbError> {
        let cmd = match display {
            Some(d) => format!("screencap -p -d {d}"),
            None => "screencap -p".to_owned(),
        };
        let png = self.server.exec(&self.serial, &cmd, DUMP).await?;
        if !png.starts_with(b"\x89PNG") {
            let text = String::from_utf8_lossy(&png);
            return Err(AdbError::Device(format!(
                "`screencap` on {} gave no PNG: {}",
                self.serial,
                text.lines().next().unwrap_or("nothing").trim()
            )));
        }
        Ok(png)
    }

    /// The launchable apps: (package, activity).
    pub async fn launchables(&self) -> Result<Vec<(String, String)>, AdbError> {
        let text = self
            .run(
                "cmd package query-activities --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER",
                QUICK,
            )
            .await?;
        Ok(parse_launchables(&text))
    }

    /// Starts `package`'s launcher activity.
    pub async fn launch(&self, package: &str) -> Result<(), AdbError> {
        self.run(
            &format!(
                "monkey -p {} -c android.intent.category.LAUNCHER 1",
                quote(package)
            ),
            QUICK,
        )
        .await
        .map(|_| ())
    }

    /// The pid of `package`'s process, when it runs.
    pub async fn pid(&self, package: &str) -> Option<u32> {
        let out = self
            .sh(&format!("pidof {}", quote(package)), QUICK)
            .await
            .ok()?;
        parse_pid(&out.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_answers_are_read_with_overrides_first() {
        assert_eq!(
            parse_wm_size("Physical size: 1080x2400\n"),
            Some((1080, 2400))
        );
        assert_eq!(
            parse_wm_size("Physical size: 1440x3120\nOverride size: 1080x2340\n"),
            Some((1080, 2340))
        );
        assert_eq!(parse_wm_size("nothing"), None);
        assert_eq!(parse_wm_density("Physical density: 420\n"), Some(420));
        assert_eq!(
            parse_wm_density("Physical density: 560\nOverride density: 480\n"),
            Some(480)
        );
    }

    #[test]
    fn focus_comes_from_dumpsys_window() {
        let text = "  mCurrentFocus=Window{4f1c2e1 u0 com.android.settings/com.android.settings.Settings}\n  mFocusedApp=ActivityRecord{a u0 com.android.settings/.Settings t12}\n";
        assert_eq!(
            parse_focus(text),
            Some(Focus {
                package: "com.android.settings".into(),
                activity: "com.android.settings.Settings".into()
            })
        );
        let short = "mCurrentFocus=Window{1 u0 com.example/.Main}";
        assert_eq!(
            parse_focus(short).expect("focus").activity,
            "com.example.Main"
        );
        let shade = "mCurrentFocus=Window{9 u0 NotificationShade}\nmFocusedApp=ActivityRecord{a u0 com.x/.Y t3}";
        assert_eq!(
            parse_focus(shade).expect("focus").activity,
            "NotificationShade"
        );
        assert_eq!(
            parse_focus("mCurrentFocus=null\nmFocusedApp=ActivityRecord{a u0 com.x/.Y t3}")
                .expect("app")
                .package,
            "com.x"
        );
    }

    #[test]
    fn launchables_pids_rotation_and_failures() {
        let text = "com.android.settings/.Settings\ncom.android.chrome/com.google.android.apps.chrome.Main\ncom.android.settings/.Other\nNo activities\n";
        assert_eq!(
            parse_launchables(text),
            [
                ("com.android.settings".to_owned(), ".Settings".to_owned()),
                (
                    "com.android.chrome".to_owned(),
                    "com.google.android.apps.chrome.Main".to_owned()
                )
            ]
        );
        assert_eq!(parse_pid("1234 99\n"), Some(1234));
        assert_eq!(parse_pid(""), None);
        assert_eq!(parse_rotation("  SurfaceOrientation: 1\n"), Some(1));
        let npe = ShellOutput {
            stdout: b"Exception occurred while executing 'text':\njava.lang.NullPointerException"
                .to_vec(),
            exit: Some(0),
            ..ShellOutput::default()
        };
        assert!(failure(&npe).expect("failed").starts_with("Exception"));
        let bad = ShellOutput {
            stderr: b"Error: Unknown command: tapp\n".to_vec(),
            exit: Some(1),
            ..ShellOutput::default()
        };
        assert_eq!(
            failure(&bad).expect("failed"),
            "exit code 1: Error: Unknown command: tapp"
        );
        assert_eq!(
            failure(&ShellOutput {
                exit: Some(0),
                ..ShellOutput::default()
            }),
            None
        );
    }
}
