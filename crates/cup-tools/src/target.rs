//! Which UI a front end acts on: this machine's desktop, a browser over
//! CDP, or a phone (Android over adb, iOS over WebDriverAgent), from
//! options (command line, Python arguments) and the environment
//! (`CUP_PLATFORM`, `CUP_CDP_URL`, `CUP_CDP_HOST`, `CUP_CDP_PORT`,
//! `CUP_AX_SOURCE`, `ANDROID_SERIAL`, `ANDROID_ADB_SERVER_PORT`,
//! `CUP_WDA_URL`). The
//! `cup` binary and the bindings choose their adapter here, so both say
//! the same things about a bad choice.

/// Platform names a front end accepts.
pub const PLATFORMS: [&str; 7] = [
    "desktop", "linux", "windows", "macos", "web", "android", "ios",
];

/// The target options; all optional (the environment fills the gaps).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Target {
    /// `desktop`, `linux`, `windows`, `macos`, `web`, `android` or `ios`.
    pub platform: Option<String>,
    /// The Android device's adb serial (else `ANDROID_SERIAL`, else the
    /// only device connected).
    pub serial: Option<String>,
    /// WebDriverAgent's URL for iOS (else `CUP_WDA_URL`, else
    /// `http://127.0.0.1:8100`).
    pub wda_url: Option<String>,
    /// DevTools port of the browser.
    pub cdp_port: Option<u16>,
    /// DevTools host of the browser.
    pub cdp_host: Option<String>,
    /// The browser's DevTools address as a URL.
    pub cdp_url: Option<String>,
    /// Where web captures read accessibility facts: `walker` (cup's page
    /// walker, the default) or `chromium` (Chromium's getFullAXTree).
    pub ax_source: Option<String>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// This machine's desktop platform name.
pub fn here() -> &'static str {
    if cfg!(windows) {
        "windows"
    } else if cfg!(target_os = "macos") {
        "macos"
    } else {
        std::env::consts::OS
    }
}

impl Target {
    /// The platform the options or `CUP_PLATFORM` name, lowercase.
    fn named_platform(&self) -> Option<String> {
        self.platform
            .clone()
            .or_else(|| env("CUP_PLATFORM"))
            .map(|p| p.trim().to_ascii_lowercase())
    }

    /// Whether the target is a browser.
    pub fn is_web(&self) -> bool {
        match self.named_platform() {
            Some(p) => p == "web",
            None => self.cdp_port.is_some() || self.cdp_host.is_some() || self.cdp_url.is_some(),
        }
    }

    /// The phone platform named, if any (`android`, `ios`).
    fn phone(&self) -> Option<&'static str> {
        match self.named_platform().as_deref() {
            Some("android") => Some("android"),
            Some("ios") => Some("ios"),
            _ => None,
        }
    }

    /// The platform name of the adapter [`Target::adapter`] makes
    /// (`web`, `android`, `ios`, or this machine's OS).
    pub fn platform_name(&self) -> &'static str {
        if let Some(phone) = self.phone() {
            phone
        } else if self.is_web() {
            "web"
        } else {
            here()
        }
    }

    /// WebDriverAgent's URL: the option, else `CUP_WDA_URL`, else
    /// `http://127.0.0.1:8100`.
    pub fn wda_url(&self) -> String {
        self.wda_url
            .clone()
            .or_else(|| env("CUP_WDA_URL"))
            .unwrap_or_else(|| "http://127.0.0.1:8100".to_owned())
    }

    /// The browser's DevTools endpoint: the options, else the environment.
    pub fn endpoint(&self) -> Result<cup_web::Endpoint, String> {
        if let Some(url) = &self.cdp_url {
            return cup_web::Endpoint::parse(url);
        }
        let from_env = cup_web::Endpoint::from_env()?;
        let (env_host, env_port) = match &from_env {
            cup_web::Endpoint::Http { host, port } => (host.clone(), *port),
            cup_web::Endpoint::WebSocket(_)
                if self.cdp_host.is_none() && self.cdp_port.is_none() =>
            {
                return Ok(from_env)
            }
            cup_web::Endpoint::WebSocket(_) => {
                ("127.0.0.1".to_owned(), cup_web::endpoint::DEFAULT_PORT)
            }
        };
        Ok(cup_web::Endpoint::Http {
            host: self.cdp_host.clone().unwrap_or(env_host),
            port: self.cdp_port.unwrap_or(env_port),
        })
    }

    /// A key naming the UI this target sees (to keep snapshots apart).
    pub fn key(&self) -> String {
        match self.phone() {
            Some("android") => {
                let serial = self.serial.clone().or_else(|| env("ANDROID_SERIAL"));
                return format!("android|{}", serial.unwrap_or_default());
            }
            Some(_) => return format!("ios|{}", self.wda_url()),
            None => {}
        }
        if self.is_web() {
            return self
                .endpoint()
                .map_or_else(|_| "web".into(), |e| format!("web|{}", e.describe()));
        }
        let var = |n: &str| std::env::var(n).unwrap_or_default();
        format!(
            "{}|{}|{}",
            var("DISPLAY"),
            var("DBUS_SESSION_BUS_ADDRESS"),
            var("AT_SPI_BUS_ADDRESS")
        )
    }

    /// The web accessibility source the options or `CUP_AX_SOURCE` name.
    pub fn ax_source(&self) -> Result<cup_web::AxSource, String> {
        match self.ax_source.clone().or_else(|| env("CUP_AX_SOURCE")) {
            None => Ok(cup_web::AxSource::default()),
            Some(s) => cup_web::AxSource::parse(&s),
        }
    }

    /// Checks the platform name without making anything.
    pub fn check(&self) -> Result<(), String> {
        let Some(p) = self.named_platform() else {
            return Ok(());
        };
        if !PLATFORMS.contains(&p.as_str()) {
            return Err(format!(
                "No adapter available for platform '{p}'; use desktop (this machine: {}), web (a Chromium over the DevTools protocol), android (a phone over adb) or ios (WebDriverAgent)",
                here()
            ));
        }
        if !matches!(p.as_str(), "web" | "desktop" | "android" | "ios") && p != here() {
            return Err(format!(
                "No adapter available for platform '{p}': this cup runs on {}; use desktop (or {}) for this machine, or web for a browser",
                here(),
                here()
            ));
        }
        Ok(())
    }

    /// The adapter of the target. Nothing is connected yet: adapters
    /// connect on first use.
    pub fn adapter(&self) -> Result<Box<dyn cup::Adapter>, String> {
        self.check()?;
        match self.phone() {
            Some("android") => {
                return Ok(Box::new(cup_android::AndroidAdapter::new(
                    cup_android::adb::AdbServer::from_env(),
                    self.serial.clone(),
                )))
            }
            Some(_) => {
                return cup_ios::IosAdapter::new(&self.wda_url())
                    .map(|a| Box::new(a) as Box<dyn cup::Adapter>)
                    .map_err(|e| e.to_string());
            }
            None => {}
        }
        if self.is_web() {
            return Ok(Box::new(
                cup_web::WebAdapter::new(self.endpoint()?).with_ax_source(self.ax_source()?),
            ));
        }
        #[cfg(target_os = "linux")]
        {
            Ok(Box::new(cup_linux::LinuxAdapter::new()))
        }
        #[cfg(windows)]
        {
            Ok(Box::new(cup_windows::WindowsAdapter::new()))
        }
        #[cfg(target_os = "macos")]
        {
            Ok(Box::new(cup_macos::MacAdapter::new()))
        }
        #[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
        {
            Err("desktop capture is implemented for Linux, Windows and macOS; use platform web for a browser".into())
        }
    }
}

/// A single-threaded tokio runtime. cup's work is I/O: hundreds of D-Bus
/// or CDP calls in flight, whose replies wake their callers on the thread
/// that read them; with worker threads, each reply is a hop between threads
/// (a gtk3-widget-factory capture: median 118 -> 102 ms, 30 % less system
/// CPU). CPU-heavy steps (screenshot encoding, freeing big trees) run on
/// the blocking pool.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_foreign_platforms_are_refused_in_one_line() {
        let t = |p: &str| Target {
            platform: Some(p.into()),
            ..Target::default()
        };
        let e = t("nintendo").check().expect_err("unknown");
        assert!(
            e.starts_with("No adapter available for platform 'nintendo'"),
            "{e}"
        );
        let foreign = if here() == "linux" {
            "windows"
        } else {
            "linux"
        };
        let e = t(foreign).check().expect_err("foreign");
        assert!(e.contains("this cup runs on"), "{e}");
        assert!(t("desktop").check().is_ok());
        assert!(t("WEB").check().is_ok());
        assert!(t("WEB").is_web());
        assert_eq!(t(here()).platform_name(), here());
        assert_eq!(t("Android").platform_name(), "android");
        assert_eq!(t("ios").platform_name(), "ios");
        assert!(t("android").check().is_ok());
        let serial = Target {
            platform: Some("android".into()),
            serial: Some("emulator-5554".into()),
            ..Target::default()
        };
        assert_eq!(serial.key(), "android|emulator-5554");
    }
}
