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
                Ok(vec![
                    "--force-renderer-accessibility".to_owned(),
                    "--no-sandbox".to_owned(),
                    "--no-first-run".to_owned(),
                    "--disable-gpu".to_owned(),
                    "--disable-background-networking".to_owned(),
                    "--disable-component-update".to_owned(),
                    "--disable-sync".to_owned(),
                    format!("--user-data-dir={}", profile.display()),
                    "--window-size=1200,900".to_owned(),
                    format!("file://{}", page.display()),
                ])
            }
        }
    }

    /// Text that is in cup's compact output once the app's content is
    /// there (a web page loads after its window shows).
    pub fn wait_for(&self) -> Option<&'static str> {
        match self.kind {
            Kind::Gtk => None,
            Kind::Chromium | Kind::Firefox => Some("\"Shipping details\""),
            // The document window (the start centre may show first).
            Kind::Writer => Some("LibreOffice Document"),
        }
    }

    /// Environment the program needs (LibreOffice's GTK 3 front end, the
    /// one that speaks AT-SPI).
    pub fn env(&self) -> Vec<(String, String)> {
        match self.kind {
            Kind::Writer => vec![("SAL_USE_VCLPLUGIN".to_owned(), "gtk3".to_owned())],
            Kind::Firefox => vec![("MOZ_CRASHREPORTER_DISABLE".to_owned(), "1".to_owned())],
            Kind::Gtk | Kind::Chromium => Vec::new(),
        }
    }
}
