//! The applications the benchmark captures, and how to start them.

use std::path::Path;

/// One application under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppSpec {
    /// Short name for `--apps`.
    pub key: &'static str,
    /// Name in the report.
    pub label: &'static str,
    /// The program to launch.
    pub program: &'static str,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gtk,
    Chromium,
    Firefox,
    Writer,
    /// LibreOffice Calc with a 5,000 x 20 CSV (`osworld-capture`).
    Calc,
    /// LibreOffice Impress, a new empty deck (`osworld-capture`).
    Impress,
    /// VLC 3 (Qt 5), run as root through a preload (`osworld-capture`).
    Vlc,
    /// GIMP 2.10 (GTK 2 with the ATK bridge) (`osworld-capture`).
    Gimp,
    /// Nautilus on a folder of 500 files (`osworld-capture`).
    Nautilus,
    /// gnome-terminal (its launcher hands the window to
    /// gnome-terminal-server and exits; the sandbox follows it).
    Terminal,
    /// Thunderbird on a local Inbox of 200 messages (`osworld-capture`).
    ThunderbirdInbox,
    /// Thunderbird's account set-up, a fresh profile (`osworld-capture`).
    ThunderbirdSetup,
}

/// Every application, in report order.
pub const ALL: [AppSpec; 5] = [
    AppSpec {
        key: "gtk3",
        label: "gtk3-widget-factory",
        program: "gtk3-widget-factory",
        kind: Kind::Gtk,
    },
    AppSpec {
        key: "gtk4",
        label: "gtk4-demo",
        program: "gtk4-demo",
        kind: Kind::Gtk,
    },
    AppSpec {
        key: "chromium",
        label: "Chromium (AT-SPI)",
        program: "chromium",
        kind: Kind::Chromium,
    },
    AppSpec {
        key: "firefox",
        label: "Firefox ESR (AT-SPI)",
        program: "firefox-esr",
        kind: Kind::Firefox,
    },
    AppSpec {
        key: "writer",
        label: "LibreOffice Writer",
        program: "soffice",
        kind: Kind::Writer,
    },
];

/// The app with this key.
pub fn by_key(key: &str) -> Option<AppSpec> {
    ALL.iter().copied().find(|a| a.key == key)
}

/// OSWorld's Linux app set (`osworld-capture`), in report order. Writer,
/// Chromium and Firefox are the same as in [`ALL`].
pub const OSWORLD: [AppSpec; 11] = [
    AppSpec {
        key: "calc",
        label: "LibreOffice Calc (100,000 cells)",
        program: "soffice",
        kind: Kind::Calc,
    },
    AppSpec {
        key: "impress",
        label: "LibreOffice Impress",
        program: "soffice",
        kind: Kind::Impress,
    },
    ALL[4],
    AppSpec {
        key: "vlc",
        label: "VLC",
        program: "vlc",
        kind: Kind::Vlc,
    },
    AppSpec {
        key: "gimp",
        label: "GIMP",
        program: "gimp",
        kind: Kind::Gimp,
    },
    AppSpec {
        key: "nautilus",
        label: "Nautilus (500 files)",
        program: "nautilus",
        kind: Kind::Nautilus,
    },
    AppSpec {
        key: "terminal",
        label: "gnome-terminal",
        program: "gnome-terminal",
        kind: Kind::Terminal,
    },
    AppSpec {
        key: "thunderbird",
        label: "Thunderbird (Inbox of 200 messages)",
        program: cup_sandbox::thunderbird::THUNDERBIRD,
        kind: Kind::ThunderbirdInbox,
    },
    AppSpec {
        key: "thunderbird-setup",
        label: "Thunderbird (account set-up)",
        program: cup_sandbox::thunderbird::THUNDERBIRD,
        kind: Kind::ThunderbirdSetup,
    },
    ALL[2],
    ALL[3],
];

/// The app of [`OSWORLD`] with this key.
pub fn osworld_by_key(key: &str) -> Option<AppSpec> {
    OSWORLD.iter().copied().find(|a| a.key == key)
}

/// Rows and columns of Calc's sheet: 100,000 filled cells.
const CALC_ROWS: usize = 5_000;
const CALC_COLUMNS: usize = 20;
/// Files in Nautilus's folder.
const NAUTILUS_FILES: usize = 500;
/// Messages in Thunderbird's Inbox.
const THUNDERBIRD_MESSAGES: usize = 200;

/// The CSV Calc opens: `CALC_ROWS` rows of `CALC_COLUMNS` cells, a text
/// column and numbers.
fn write_calc_csv(path: &Path) -> std::io::Result<()> {
    use std::fmt::Write as _;

    let mut csv = String::with_capacity(CALC_ROWS * CALC_COLUMNS * 8);
    for row in 0..CALC_ROWS {
        for column in 0..CALC_COLUMNS {
            if column > 0 {
                csv.push(',');
            }
            if column == 0 {
                let _ = write!(csv, "item {row}");
            } else {
                let _ = write!(csv, "{}", row * CALC_COLUMNS + column);
            }
        }
        csv.push('\n');
    }
    std::fs::write(path, csv)
}

/// Chromium's arguments for a window with its accessibility tree on
/// (AT-SPI), a fresh `profile` and no first-run or background work,
/// showing `url`.
pub fn chromium_args(profile: &Path, url: &str) -> Vec<String> {
    vec![
        "--force-renderer-accessibility".to_owned(),
        "--no-sandbox".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        format!("--user-data-dir={}", profile.display()),
        "--window-size=1200,900".to_owned(),
        url.to_owned(),
    ]
}

/// `crates/cup-linux/tests/desktop/support/nonroot.c` compiled into
/// `out`: the preload that lets VLC start as root.
///
/// # Errors
///
/// `cc` is missing or fails.
pub fn build_nonroot_preload(out: &Path) -> std::io::Result<()> {
    let source = crate::workspace_root()
        .join("crates")
        .join("cup-linux")
        .join("tests")
        .join("desktop")
        .join("support")
        .join("nonroot.c");
    let built = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(out)
        .arg(&source)
        .arg("-ldl")
        .output()
        .map_err(|e| std::io::Error::other(format!("cannot run cc: {e}")))?;
    if built.status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "cc {} failed: {}",
            source.display(),
            String::from_utf8_lossy(&built.stderr).trim()
        )))
    }
}

/// The page Chromium shows: a small order form with the usual controls.
const PAGE: &str = r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout - Example Shop</title>
<style>body{font-family:sans-serif;margin:16px} table{border-collapse:collapse} td,th{border:1px solid #999;padding:2px 6px}</style>
</head><body>
<header><nav aria-label="Main"><a href="#home">Home</a> | <a href="#shop">Shop</a> | <a href="#cart">Cart (3)</a> | <a href="#account">Account</a></nav></header>
<main>
<h1>Checkout</h1>
<p>Review your order and enter the shipping details. Orders placed before 3 pm ship the same day.</p>
<h2>Your order</h2>
<table>
<thead><tr><th>Item</th><th>Qty</th><th>Price</th></tr></thead>
<tbody>
<tr><td>Blue mug</td><td>2</td><td>$18.00</td></tr>
<tr><td>Tea towel</td><td>1</td><td>$7.50</td></tr>
<tr><td>Gift card</td><td>1</td><td>$25.00</td></tr>
</tbody></table>
<h2>Shipping details</h2>
<form onsubmit="return false">
<p><label>Full name <input name="name" value="Ada Lovelace"></label></p>
<p><label>Email <input type="email" name="email" placeholder="you@example.org" required></label></p>
<p><label>Country <select name="country"><option>France</option><option selected>Germany</option><option>Italy</option><option>Spain</option></select></label></p>
<fieldset><legend>Delivery</legend>
<label><input type="radio" name="speed" checked> Standard (3-5 days)</label>
<label><input type="radio" name="speed"> Express (1 day)</label>
</fieldset>
<p><label><input type="checkbox" checked> Gift wrap</label> <label><input type="checkbox"> Subscribe to the newsletter</label></p>
<p><label>Notes <textarea name="notes" rows="2" cols="40">Leave at the door</textarea></label></p>
<p><button type="submit">Place order</button> <button type="reset">Clear</button> <a href="#terms">Terms and conditions</a></p>
</form>
</main>
<footer><p>Need help? <a href="#support">Contact support</a></p></footer>
</body></html>
"##;

impl AppSpec {
    /// The program's arguments; writes what it needs (Chromium's page and
    /// fresh profile) into `scratch`.
    ///
    /// # Errors
    ///
    /// When the page cannot be written.
    pub fn args(&self, scratch: &Path) -> std::io::Result<Vec<String>> {
        match self.kind {
            Kind::Gtk => Ok(Vec::new()),
            Kind::Firefox => {
                let page = scratch.join("checkout.html");
                std::fs::write(&page, PAGE)?;
                let profile = scratch.join("firefox-profile");
                cup_sandbox::firefox::write_quiet_profile(&profile)?;
                Ok(vec![
                    "--no-remote".to_owned(),
                    "--new-instance".to_owned(),
                    "--profile".to_owned(),
                    profile.display().to_string(),
                    format!("file://{}", page.display()),
                ])
            }
            Kind::Writer => {
                let profile = scratch.join("libreoffice-profile");
                std::fs::create_dir_all(&profile)?;
                Ok(vec![
                    "--writer".to_owned(),
                    "--norestore".to_owned(),
                    "--nologo".to_owned(),
                    format!("-env:UserInstallation=file://{}", profile.display()),
                ])
            }
            Kind::Chromium => {
                let page = scratch.join("checkout.html");
                std::fs::write(&page, PAGE)?;
                let profile = scratch.join("chromium-profile");
                std::fs::create_dir_all(&profile)?;
                Ok(chromium_args(
                    &profile,
                    &format!("file://{}", page.display()),
                ))
            }
            Kind::Calc => {
                let csv = scratch.join("osworld-cells.csv");
                write_calc_csv(&csv)?;
                Ok(vec![
                    "--calc".to_owned(),
                    "--norestore".to_owned(),
                    "--nologo".to_owned(),
                    cup_sandbox::libreoffice::write_quiet_profile(&scratch.join("profile"))?,
                    "--infilter=CSV:44,34,76,1".to_owned(),
                    csv.display().to_string(),
                ])
            }
            Kind::Impress => Ok(vec![
                "--impress".to_owned(),
                "--norestore".to_owned(),
                "--nologo".to_owned(),
                cup_sandbox::libreoffice::write_quiet_profile(&scratch.join("profile"))?,
            ]),
            Kind::Vlc => {
                build_nonroot_preload(&scratch.join("nonroot.so"))?;
                Ok(vec![
                    "--no-qt-privacy-ask".to_owned(),
                    "--no-video-title-show".to_owned(),
                ])
            }
            Kind::Gimp => Ok(vec!["--no-splash".to_owned(), "--no-data".to_owned()]),
            Kind::Nautilus => {
                let files = scratch.join("files");
                std::fs::create_dir_all(&files)?;
                for n in 0..NAUTILUS_FILES {
                    std::fs::write(
                        files.join(format!("note-{n:03}.txt")),
                        format!("note {n}\n"),
                    )?;
                }
                Ok(vec!["--new-window".to_owned(), files.display().to_string()])
            }
            // gnome-terminal asks its server over D-Bus and exits; the
            // sandbox follows it to the server's window.
            Kind::Terminal => Ok(Vec::new()),
            Kind::ThunderbirdInbox | Kind::ThunderbirdSetup => {
                let profile = scratch.join("thunderbird-profile");
                if self.kind == Kind::ThunderbirdInbox {
                    cup_sandbox::thunderbird::write_local_folder_profile(
                        &profile,
                        THUNDERBIRD_MESSAGES,
                        true,
                    )?;
                } else {
                    cup_sandbox::thunderbird::write_setup_profile(&profile)?;
                }
                Ok(vec![
                    "--profile".to_owned(),
                    profile.display().to_string(),
                    "--no-remote".to_owned(),
                ])
            }
        }
    }

    /// Text in the window's title (or the application's name) that
    /// OSWorld's observation waits for (`observe.py --app`).
    pub fn title(&self) -> &'static str {
        match self.kind {
            Kind::Gtk => self.label,
            Kind::Chromium | Kind::Firefox => "Checkout - Example Shop",
            Kind::Writer => "LibreOffice Writer",
            Kind::Calc => "LibreOffice Calc",
            Kind::Impress => "LibreOffice Impress",
            Kind::Vlc => "VLC media player",
            Kind::Gimp => "GNU Image Manipulation Program",
            Kind::Nautilus => "files",
            Kind::Terminal => "Terminal",
            Kind::ThunderbirdInbox | Kind::ThunderbirdSetup => "Mozilla Thunderbird",
        }
    }

    /// The window title to snapshot with the full scope where the
    /// foreground scope would pick another window (GIMP's toolbox and
    /// docks are windows of their own); `None` for the foreground scope.
    pub fn full_scope_title(&self) -> Option<&'static str> {
        match self.kind {
            Kind::Gimp => Some("GNU Image Manipulation Program"),
            _ => None,
        }
    }

    /// [`AppSpec::env`] plus what depends on the scratch folder the
    /// program's [`AppSpec::args`] were made in (VLC's preload, a `HOME`
    /// of its own for VLC, GIMP and Nautilus).
    pub fn env_in(&self, scratch: &Path) -> Vec<(String, String)> {
        let mut env = self.env();
        match self.kind {
            Kind::Vlc => {
                env.push((
                    "LD_PRELOAD".to_owned(),
                    scratch.join("nonroot.so").display().to_string(),
                ));
                env.push(("HOME".to_owned(), scratch.display().to_string()));
            }
            Kind::Gimp => {
                env.push(("GTK_MODULES".to_owned(), "gail:atk-bridge".to_owned()));
                env.push(("HOME".to_owned(), scratch.display().to_string()));
            }
            // Its settings (the folder view: grid or list) are the
            // defaults, whatever the user's are.
            Kind::Nautilus => env.push(("HOME".to_owned(), scratch.display().to_string())),
            _ => {}
        }
        env
    }

    /// Text that is in cup's compact output once the app's content is
    /// there (a web page loads after its window shows).
    pub fn wait_for(&self) -> Option<&'static str> {
        match self.kind {
            Kind::Gtk => None,
            Kind::Chromium | Kind::Firefox => Some("\"Shipping details\""),
            // The document window (the start centre may show first).
            Kind::Writer => Some("LibreOffice Document"),
            Kind::Calc => Some("LibreOffice Calc"),
            Kind::Impress => Some("LibreOffice Impress"),
            Kind::Vlc => Some("VLC media player"),
            Kind::Gimp => Some("GNU Image Manipulation Program"),
            Kind::Nautilus => Some("\"files\""),
            Kind::Terminal => None,
            // The list's count, once the Inbox is indexed and shown.
            Kind::ThunderbirdInbox => Some("\"200 Messages\""),
            Kind::ThunderbirdSetup => Some("\"Email address*\""),
        }
    }

    /// Environment the program needs (LibreOffice's GTK 3 front end, the
    /// one that speaks AT-SPI).
    pub fn env(&self) -> Vec<(String, String)> {
        match self.kind {
            Kind::Writer | Kind::Calc | Kind::Impress => {
                vec![("SAL_USE_VCLPLUGIN".to_owned(), "gtk3".to_owned())]
            }
            Kind::Firefox | Kind::ThunderbirdInbox | Kind::ThunderbirdSetup => {
                vec![("MOZ_CRASHREPORTER_DISABLE".to_owned(), "1".to_owned())]
            }
            Kind::Gtk
            | Kind::Chromium
            | Kind::Vlc
            | Kind::Gimp
            | Kind::Nautilus
            | Kind::Terminal => Vec::new(),
        }
    }
}
