//! The desktop `cup serve` runs: a sandbox (Xvfb with its cookie, private
//! buses, AT-SPI), the apps and the browser it was asked for; whether all
//! of it answers (readiness); and its end.

use std::time::Duration;

use cup_linux::Desktop;
use cup_sandbox::{Browser, BrowserOptions, LaunchOptions, Sandbox, SandboxOptions};

/// What to start.
#[derive(Debug, Clone)]
pub struct Plan {
    pub size: (u32, u32),
    pub window_manager: bool,
    /// Each app: program and arguments.
    pub apps: Vec<Vec<String>>,
    /// The browser's first page.
    pub browser: Option<String>,
}

/// The running desktop.
#[derive(Debug)]
pub struct Running {
    pub sandbox: Sandbox,
    pub browser: Option<Browser>,
}

/// Splits an `--app` value into words: blanks separate them, single or
/// double quotes keep blanks inside one, a backslash takes the next
/// character as it is.
pub fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (q, '\\') if q != Some('\'') => {
                let next = chars
                    .next()
                    .ok_or_else(|| format!("--app {line:?} ends with a backslash"))?;
                word.get_or_insert_with(String::new).push(next);
            }
            (None, c) if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    out.push(w);
                }
            }
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("--app {line:?} has an unclosed quote"));
    }
    out.extend(word);
    if out.is_empty() {
        return Err("--app needs a program, e.g. --app gtk3-widget-factory".into());
    }
    Ok(out)
}

/// Starts the sandbox, then each app (waiting for its window on the
/// accessibility bus), then the browser. On an error, what was started is
/// stopped again (dropping the sandbox stops it).
pub fn start(plan: &Plan) -> Result<Running, String> {
    let sandbox = Sandbox::start(SandboxOptions {
        width: plan.size.0,
        height: plan.size.1,
        with_window_manager: plan.window_manager,
        ..SandboxOptions::default()
    })
    .map_err(|e| format!("cannot start the desktop: {e}"))?;
    for app in &plan.apps {
        let (program, args) = app.split_first().ok_or("an --app without a program")?;
        sandbox
            .launch_with(program, args, &LaunchOptions::default())
            .map_err(|e| format!("cannot start --app {program}: {e}"))?;
    }
    let browser = match &plan.browser {
        Some(url) => Some(
            Browser::start(&BrowserOptions {
                headless: false,
                url: Some(url.clone()),
                window_size: plan.size,
                env: sandbox.env(),
                ..BrowserOptions::default()
            })
            .map_err(|e| format!("cannot start the browser: {e}"))?,
        ),
        None => None,
    };
    Ok(Running { sandbox, browser })
}

impl Running {
    /// The addresses cup's adapter uses (with the display's cookie).
    pub fn desktop(&self) -> Desktop {
        Desktop {
            display: Some(self.sandbox.display().to_owned()),
            session_bus: Some(self.sandbox.session_bus_address().to_owned()),
            a11y_bus: Some(self.sandbox.a11y_address().to_owned()),
            xauthority: Some(self.sandbox.xauthority()),
            ..Desktop::default()
        }
    }

    /// Whether every part answers, each within `timeout`; the parts that
    /// did not, one line.
    pub fn ready(&self, timeout: Duration) -> Result<(), String> {
        let health = self.sandbox.health(timeout);
        let mut failures = Vec::new();
        if !health.ok() {
            failures.push(health.failures());
        }
        if let Some(b) = &self.browser {
            if !b.answers() {
                failures.push(format!(
                    "browser: DevTools on port {} does not answer",
                    b.port()
                ));
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures.join("; "))
        }
    }

    /// Writes the desktop's environment to `path` (shell lines, mode 0600,
    /// replaced atomically).
    pub fn write_env(&self, path: &std::path::Path) -> Result<(), String> {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        let text = crate::commands::sandbox::env_lines(&self.sandbox);
        let partial = path.with_extension("partial");
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&partial)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .and_then(|()| std::fs::rename(&partial, path));
        written.map_err(|e| format!("--env-file {}: {e}; give a writable path", path.display()))
    }

    /// The pids of the desktop's processes (X server, buses, apps,
    /// browser).
    pub fn pids(&self) -> Vec<u32> {
        let mut pids = self.sandbox.pids();
        pids.extend(self.browser.as_ref().map(Browser::pid));
        pids
    }

    /// Ends the browser, then the sandbox (every process by pid, its
    /// directory removed).
    pub fn stop(self) -> Result<(), String> {
        if let Some(b) = self.browser {
            b.stop();
        }
        self.sandbox
            .stop()
            .map_err(|e| format!("stopping the desktop: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_lines_split_like_a_shell() {
        let w = |s: &str| words(s).unwrap_or_else(|e| vec![format!("ERR {e}")]);
        assert_eq!(w("gtk3-widget-factory"), ["gtk3-widget-factory"]);
        assert_eq!(
            w(r#"  gedit --new-window "my file.txt" 'a b' c\ d"#),
            ["gedit", "--new-window", "my file.txt", "a b", "c d"]
        );
        assert_eq!(w(r#"x """#), ["x", ""]);
        assert!(words("  ").is_err());
        assert!(words("a 'b").is_err());
        assert!(words("a \\").is_err());
    }
}
