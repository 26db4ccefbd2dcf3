//! The device layer: the adb commands cup runs on a phone, and the pure
//! readers of what they print (`wm size`, `wm density`, `dumpsys window`,
//! `cmd package query-activities`, `pidof`). It only makes calls and fills
//! the plain facts of [`crate::facts`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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

/// The focused window of `dumpsys window`, else the focused app.
///
/// `mCurrentFocus=` prints a `WindowState` (`WindowState.toString`,
/// Android 4.2 to 16):
/// `Window{HASH uUSER TITLE[ EXITING]}`, where an app window's title is
/// its component (`com.android.settings/com.android.settings.Settings`),
/// a system window's a name (`NotificationShade`, `StatusBar`,
/// `PopupWindow:1a2b`) and a starting window's `Splash Screen PACKAGE`;
/// `null` when nothing has the focus. `mFocusedApp=` prints an
/// `ActivityRecord{HASH u0 com.x/.Main t12}` (Android 11+) or an
/// `AppWindowToken{… token=Token{… ActivityRecord{… u0 com.x/.Main t12}}}`
/// (Android 10 and before). Since Android 10 each
/// display's dump has its own pair (`DisplayContent.dump`); the first
/// focused one is taken.
pub fn parse_focus(text: &str) -> Option<Focus> {
    let component = |c: &str| {
        let (package, activity) = c.split_once('/')?;
        let activity = match activity.strip_prefix('.') {
            Some(short) => format!("{package}.{short}"),
            None => activity.to_owned(),
        };
        Some(Focus {
            package: package.to_owned(),
            activity,
        })
    };
    let window = |l: &str| {
        let rest = l.trim().strip_prefix("mCurrentFocus=")?;
        let inner = rest.strip_prefix("Window{")?;
        let inner = inner.rsplit_once('}').map_or(inner, |(i, _)| i);
        // `<hash> u<user> <title…>[ EXITING]`
        let mut words = inner.split_whitespace();
        words.next()?;
        let user = words.next()?;
        let mut title: Vec<&str> = if user.starts_with('u') && user[1..].parse::<u32>().is_ok() {
            words.collect()
        } else {
            std::iter::once(user).chain(words).collect()
        };
        if title.last() == Some(&"EXITING") {
            title.pop();
        }
        if let Some(c) = title.iter().find(|w| w.contains('/')) {
            return component(c);
        }
        if let ["Splash", "Screen", package] = title[..] {
            return Some(Focus {
                package: package.to_owned(),
                activity: String::new(),
            });
        }
        let title = title.join(" ");
        (!title.is_empty()).then(|| Focus {
            package: String::new(),
            activity: title,
        })
    };
    let app = |l: &str| {
        let rest = l.trim().strip_prefix("mFocusedApp=")?;
        rest.split(|c: char| c.is_whitespace() || c == '{' || c == '}')
            .find(|w| w.contains('/'))
            .and_then(component)
    };
    text.lines()
        .find_map(window)
        .or_else(|| text.lines().find_map(app))
}

/// `cmd package query-activities --brief …`: the launchable components
/// (`com.android.settings/.Settings`), one per package, in order. With
/// `--brief` and without `--components`, `PackageManagerShellCommand`
/// prints `N activities found:`, then per match `  Activity #i:`, a
/// `priority=… preferredOrder=… match=0x… specificIndex=… isDefault=…`
/// line and the component (`ComponentName.flattenToShortString`), each
/// indented; `No activities found` when none.
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

/// The display's rotation (0–3) in `dumpsys input`. Where each Android
/// says it (frameworks/native `InputReader`'s `TouchInputMapper` dump):
/// - `Viewport INTERNAL: displayId=0, uniqueId=…, port=…, orientation=1,
///   logicalFrame=[…], …, isActive=[1]` (`DisplayViewport::toString`,
///   Android 9+; `Viewport: displayId=0, orientation=1, …` before), the
///   display's own rotation, taken first (display 0, active);
/// - `SurfaceOrientation: 1` (up to Android 12; gone from 13 on, so a
///   `grep SurfaceOrientation` finds nothing there);
/// - `InputDeviceOrientation: Rotation90` (Android 14+; `ROTATION_90`
///   or a digit in some builds).
pub fn parse_rotation(text: &str) -> Option<u8> {
    let digit = |v: &str| -> Option<u8> {
        let v = v.trim();
        let v = v
            .strip_prefix("ROTATION_")
            .or_else(|| v.strip_prefix("Rotation"))
            .map_or(v, |d| d);
        let n: u32 = v
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .ok()?;
        match n {
            0..=3 => u8::try_from(n).ok(),
            90 => Some(1),
            180 => Some(2),
            270 => Some(3),
            _ => None,
        }
    };
    let viewport = |l: &str| -> Option<(bool, u8)> {
        let l = l.trim();
        if !l.starts_with("Viewport") || l.contains("isActive=[0]") {
            return None;
        }
        let o = digit(l.split("orientation=").nth(1)?)?;
        Some((l.contains("displayId=0,"), o))
    };
    let viewports: Vec<(bool, u8)> = text.lines().filter_map(viewport).collect();
    if let Some((_, o)) = viewports
        .iter()
        .find(|(zero, _)| *zero)
        .or(viewports.first())
    {
        return Some(*o);
    }
    let after = |key: &str| {
        text.lines()
            .find_map(|l| digit(l.trim().strip_prefix(key)?))
    };
    after("SurfaceOrientation:").or_else(|| after("InputDeviceOrientation:"))
}

/// Whether the input method `ime` is bound, from `dumpsys input_method`:
/// `  mCurId=<ime id> mHaveConnection=true mBoundToMethod=true` (one
/// line, `InputMethodManagerService.dump`; `mHaveConnect=` before Android
/// 10). `ime set` returns before the system has bound the new method, and
/// ADBKeyBoard only registers its broadcast receiver in `onCreate`
/// (`AdbIME.java`): text sent before it is bound is lost. `None` when the
/// dump says nothing of it.
pub fn parse_ime_bound(text: &str, ime: &str) -> Option<bool> {
    let line = text.lines().find(|l| l.contains("mBoundToMethod="))?;
    let bound = line
        .split("mBoundToMethod=")
        .nth(1)?
        .trim_start()
        .starts_with("true");
    let current = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("mCurId="));
    Some(bound && current.is_none_or(|c| c == ime))
}

/// The line of an Android shell tool's output that says it failed, though
/// its exit code (or its lack of one, without `shell_v2`) may say nothing:
/// - `Error: …` (`input` before Android 12, `am`, `wm`);
/// - `Exception occurred while executing '…':` and a stack trace
///   (`ShellCommand` of every `cmd` service, e.g. `input text` with a
///   character the keyboard map lacks);
/// - `Unknown command: keycombination` (`ShellCommand.handleDefaultCommands`;
///   `InputShellCommand.onCommand` still returns 0, so Android 12's `input`
///   exits 0 on a command it lacks);
/// - `Unknown input method … cannot be enabled/selected for user #0`
///   (`ime enable`/`ime set`, exit 0 before Android 13);
/// - `** No activities found to run, monkey aborted.` (`Monkey.java`).
fn failure_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|l| {
        l.starts_with("Error:")
            || l.starts_with("Exception")
            || l.contains("Exception:")
            || l.starts_with("Unknown command:")
            || l.starts_with("Unknown input method")
            || l.starts_with("** No activities found")
    })
}

/// Whether an `input`/`am`/`monkey`/`ime` run failed (see
/// `failure_line`), in one line.
pub fn failure(out: &ShellOutput) -> Option<String> {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let all = format!("{}\n{err}", out.text());
    if let Some(code) = out.exit.filter(|c| *c != 0) {
        let last = |t: &str| {
            t.lines()
                .map(str::trim)
                .rfind(|l| !l.is_empty())
                .map(str::to_owned)
        };
        let why = failure_line(&all)
            .map(str::to_owned)
            .or_else(|| last(&err))
            .or_else(|| last(&out.text()))
            .unwrap_or_default();
        return Some(format!("exit code {code}: {why}"));
    }
    failure_line(&all).map(str::to_owned)
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
    /// Its API level (`ro.build.version.sdk`), when it says.
    pub sdk: Option<u32>,
    /// Set once `uiautomator dump /dev/tty` gave no XML: the dump then goes
    /// through a file (see [`Phone::dump`]).
    dump_to_file: Arc<AtomicBool>,
}

/// Where the dump goes when `/dev/tty` cannot take it.
const DUMP_FILE: &str = "/data/local/tmp/cup-window-dump.xml";

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
        let v2 = features.iter().any(|f| f == "shell_v2");
        let sdk = server
            .shell(&entry.serial, "getprop ro.build.version.sdk", v2, QUICK)
            .await
            .ok()
            .and_then(|o| o.text().trim().parse().ok());
        Ok(Phone {
            v2,
            sdk,
            serial: entry.serial,
            model: entry.model,
            server,
            dump_to_file: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Runs `cmd` in its shell.
    pub async fn sh(&self, cmd: &str, deadline: Duration) -> Result<ShellOutput, AdbError> {
        self.server
            .shell(&self.serial, cmd, self.v2, deadline)
            .await
    }

    /// Runs a command that only reads (`wm size`, `dumpsys …`, `settings
    /// get`) and fails on a non-zero exit code only: its output is data,
    /// where a word like `Exception:` may well appear.
    pub async fn read(&self, cmd: &str, deadline: Duration) -> Result<String, AdbError> {
        let out = self.sh(cmd, deadline).await?;
        if let Some(code) = out.exit.filter(|c| *c != 0) {
            let err = String::from_utf8_lossy(&out.stderr);
            let text = if err.trim().is_empty() {
                out.text()
            } else {
                err.into_owned()
            };
            let line = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default()
                .to_owned();
            return Err(AdbError::Refused(format!(
                "`{cmd}` failed on {}: exit code {code}: {line}",
                self.serial
            )));
        }
        Ok(out.text())
    }

    /// Runs a command that acts and fails (one line) when it did, by its
    /// exit code or its output ([`failure`]).
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
        let size = self.read("wm size", QUICK).await?;
        let (width, height) = parse_wm_size(&size).ok_or_else(|| {
            AdbError::Io(format!(
                "`wm size` on {} printed no size: {}",
                self.serial,
                size.trim()
            ))
        })?;
        let density = parse_wm_density(&self.read("wm density", QUICK).await?).unwrap_or(160);
        Ok(Device {
            serial: self.serial.clone(),
            model: self.model.clone(),
            width,
            height,
            density,
        })
    }

    /// The current rotation, from `dumpsys input` (0, with a warning,
    /// when the device does not say). The whole dump is read: the key
    /// differs between Android versions ([`parse_rotation`]), and a `grep`
    /// that finds nothing exits 1.
    pub async fn rotation(&self) -> u8 {
        match self.read("dumpsys input", QUICK).await {
            Ok(text) => parse_rotation(&text).unwrap_or_else(|| {
                tracing::warn!(
                    "`dumpsys input` on {} names no rotation; taken as 0",
                    self.serial
                );
                0
            }),
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
        Ok(parse_focus(&self.read("dumpsys window", QUICK).await?))
    }

    /// The UI dump's XML. `uiautomator dump /dev/tty` writes it to the
    /// command's terminal, then prints `UI hierchary dumped to: /dev/tty`
    /// (sic; `DumpCommand.java`). Through `exec:` that terminal exists
    /// since Android 7: adbd runs a command without the shell protocol on
    /// a PTY in raw mode (`StartSubprocess` in adbd's `shell_service.cpp`).
    /// Older adbd runs `exec:` on a socketpair after `setsid()`
    /// (`create_subproc_raw`), so `/dev/tty` cannot be opened, the dumper
    /// logs the error and the trailer comes alone: then, and from then on,
    /// the dump goes through a file in `/data/local/tmp`.
    ///
    /// It fails while an animation runs (`ERROR: could not get idle
    /// state.`, `ERROR: null root node returned by UiTestAutomationBridge.`
    /// on stderr, exit code 0), so it is retried until the deadline.
    pub async fn dump(&self, deadline: Duration) -> Result<String, AdbError> {
        let until = tokio::time::Instant::now() + deadline;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            let to_file = self.dump_to_file.load(Ordering::Relaxed);
            let cmd = if to_file {
                format!(
                    "rm -f {DUMP_FILE}; uiautomator dump {DUMP_FILE} >/dev/null && cat {DUMP_FILE}; rm -f {DUMP_FILE}"
                )
            } else {
                "uiautomator dump /dev/tty".to_owned()
            };
            let raw = self.server.exec(&self.serial, &cmd, left).await?;
            let text = String::from_utf8_lossy(&raw).into_owned();
            if text.contains("</hierarchy>") {
                return Ok(text);
            }
            if !to_file && !text.contains("<hierarchy") && text.contains("dumped to:") {
                tracing::info!(
                    "{} gives no UI dump through /dev/tty (adbd before Android 7); dumping to {DUMP_FILE}",
                    self.serial
                );
                self.dump_to_file.store(true, Ordering::Relaxed);
                continue;
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

    /// Whether the input method `ime` is bound, from `dumpsys input_method`
    /// ([`parse_ime_bound`]).
    pub async fn ime_bound(&self, ime: &str) -> Result<Option<bool>, AdbError> {
        Ok(parse_ime_bound(
            &self.read("dumpsys input_method", QUICK).await?,
            ime,
        ))
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

    /// The formats of Android 10–16: per-display pairs (the first focused
    /// one wins), `EXITING`, a splash screen, a system window with spaces,
    /// Android 10's `AppWindowToken` around the `ActivityRecord`.
    #[test]
    fn focus_reads_every_format() {
        let two = "  Display: mDisplayId=2\n  mCurrentFocus=null\n  mFocusedApp=null\n  Display: mDisplayId=0\n  mCurrentFocus=Window{9a1 u0 com.android.chrome/com.google.android.apps.chrome.Main EXITING}\n";
        assert_eq!(
            parse_focus(two),
            Some(Focus {
                package: "com.android.chrome".into(),
                activity: "com.google.android.apps.chrome.Main".into()
            })
        );
        let splash = "mCurrentFocus=Window{5c1 u0 Splash Screen com.example.app}";
        assert_eq!(
            parse_focus(splash).expect("splash").package,
            "com.example.app"
        );
        let system = "mCurrentFocus=Window{77 u0 Volume Dialog EXITING}";
        assert_eq!(
            parse_focus(system).expect("system").activity,
            "Volume Dialog"
        );
        let q = "  mCurrentFocus=null\n  mFocusedApp=AppWindowToken{e3 token=Token{a2 ActivityRecord{51 u0 com.android.settings/.Settings t7}}}\n";
        assert_eq!(
            parse_focus(q),
            Some(Focus {
                package: "com.android.settings".into(),
                activity: "com.android.settings.Settings".into()
            })
        );
        assert_eq!(parse_focus("mCurrentFocus=null\nmFocusedApp=null"), None);
    }

    /// `dumpsys input` of Android 12 (`SurfaceOrientation` after the
    /// viewport), 13 (viewport only), 14+ (`InputDeviceOrientation`).
    #[test]
    fn rotation_reads_every_android() {
        let a12 = "      Viewport INTERNAL: displayId=0, uniqueId=local:0, port=0, orientation=1, logicalFrame=[0, 0, 2400, 1080], physicalFrame=[0, 0, 2400, 1080], deviceSize=[1080, 2400], isActive=[1]\n      SurfaceOrientation: 1\n";
        assert_eq!(parse_rotation(a12), Some(1));
        // An inactive viewport (a folded inner screen) is not the display's.
        let fold = "Viewport INTERNAL: displayId=0, uniqueId=local:1, port=1, orientation=0, logicalFrame=[0, 0, 0, 0], isActive=[0]\nViewport INTERNAL: displayId=0, uniqueId=local:2, port=2, orientation=3, logicalFrame=[0, 0, 2400, 1080], isActive=[1]\n";
        assert_eq!(parse_rotation(fold), Some(3));
        assert_eq!(parse_rotation("  SurfaceOrientation: 2\n"), Some(2));
        assert_eq!(
            parse_rotation("      InputDeviceOrientation: Rotation270\n"),
            Some(3)
        );
        assert_eq!(
            parse_rotation("      InputDeviceOrientation: ROTATION_90\n"),
            Some(1)
        );
        assert_eq!(parse_rotation("INPUT MANAGER (dumpsys input)\n"), None);
    }

    #[test]
    fn the_keyboard_is_bound_when_the_dump_says_so() {
        let ime = "com.android.adbkeyboard/.AdbIME";
        let dump = |id: &str, bound: bool| {
            format!("  mCurMethodId={id}\n  mCurId={id} mHaveConnection={bound} mBoundToMethod={bound} mVisibleBound=false\n")
        };
        assert_eq!(parse_ime_bound(&dump(ime, false), ime), Some(false));
        assert_eq!(parse_ime_bound(&dump(ime, true), ime), Some(true));
        assert_eq!(
            parse_ime_bound(&dump("com.other/.Ime", true), ime),
            Some(false)
        );
        // Before Android 10: `mHaveConnect=`.
        assert_eq!(
            parse_ime_bound(
                &format!("  mCurId={ime} mHaveConnect=true mBoundToMethod=true\n"),
                ime
            ),
            Some(true)
        );
        assert_eq!(parse_ime_bound("nothing\n", ime), None);
    }

    #[test]
    fn launchables_pids_rotation_and_failures() {
        // `--brief` without `--components` (PackageManagerShellCommand).
        let text = "3 activities found:\n  Activity #0:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    com.android.settings/.Settings\n  Activity #1:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    com.android.chrome/com.google.android.apps.chrome.Main\n  Activity #2:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    com.android.settings/.Other\n";
        assert!(parse_launchables("No activities found\n").is_empty());
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
        // Android 12's `input` on a command it lacks: exit 0.
        let unknown = ShellOutput {
            stdout: b"Unknown command: keycombination\n".to_vec(),
            exit: Some(0),
            ..ShellOutput::default()
        };
        assert_eq!(
            failure(&unknown).expect("failed"),
            "Unknown command: keycombination"
        );
        // `ime set` of a method the system does not know.
        let ime = ShellOutput {
            stderr: b"Unknown input method com.android.adbkeyboard/.AdbIME cannot be selected for user #0\n".to_vec(),
            exit: Some(255),
            ..ShellOutput::default()
        };
        assert!(failure(&ime)
            .expect("failed")
            .starts_with("exit code 255: Unknown input method"));
        // Monkey: its script's echo first, the reason last.
        let monkey = ShellOutput {
            stdout: b"  bash arg: -p\n  bash arg: com.nope\n** No activities found to run, monkey aborted.\n".to_vec(),
            exit: Some(252),
            ..ShellOutput::default()
        };
        assert_eq!(
            failure(&monkey).expect("failed"),
            "exit code 252: ** No activities found to run, monkey aborted."
        );
    }
}
