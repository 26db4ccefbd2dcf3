//! GNOME (mutter / gnome-shell) under Wayland: what cup knows without
//! talking to it. GNOME has no public API for where windows are, so cup
//! ships a small GNOME Shell extension ([`extension_files`]) that serves
//! `org.cup.Shell` on the session bus: the windows with pid, rectangles,
//! stacking and focus (the JSON of [`super::reported`]), activation, and
//! screenshots of an area (PNG, through the shell's own `Shell.Screenshot`).
//! Input goes through mutter's `org.gnome.Mutter.RemoteDesktop`
//! ([`super::mutter`]); the monitors come from
//! `org.gnome.Mutter.DisplayConfig` ([`monitors_of`]).
//!
//! The extension comes in the two module formats GNOME has used: GNOME
//! 43–44 load `imports`-style extensions, GNOME 45 and later ES modules.
//! GNOME on Wayland loads a newly installed extension only at the next
//! login: `cup setup gnome` says so.

pub mod shell;

use std::path::{Path, PathBuf};

use cup::Monitor;
use cup_protocol::Rect;
use serde::{Deserialize, Serialize};

/// The extension's UUID (its folder's name).
pub const UUID: &str = "cup-windows@cup-rs";

/// The version of the extension's D-Bus interface this cup speaks; an
/// older extension is refused with the line that updates it.
pub const EXTENSION_VERSION: u32 = 1;

/// The bus name, object path and interface the extension serves.
pub const BUS_NAME: &str = "org.cup.Shell";
/// The extension's object.
pub const PATH: &str = "/org/cup/Shell";

/// The line that installs the extension and tells what comes next.
pub const SETUP_LINE: &str = "run `cup setup gnome` as the desktop's user, then log out and back in (GNOME loads a new extension at login)";

/// The D-Bus interface, as the extension declares it.
const INTERFACE_XML: &str = r#"<node><interface name="org.cup.Shell">
<method name="Version"><arg type="s" direction="out"/></method>
<method name="Windows"><arg type="s" direction="out"/></method>
<method name="Activate"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
<method name="Pointer"><arg type="i" direction="out"/><arg type="i" direction="out"/></method>
<method name="Screenshot"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="ay" direction="out"/></method>
</interface></node>"#;

/// The body both module formats share: the object behind the interface.
/// `Main` and the `gi` modules are bound by the format's own imports.
const BODY: &str = r#"
const TYPES = [Meta.WindowType.NORMAL, Meta.WindowType.DIALOG, Meta.WindowType.MODAL_DIALOG, Meta.WindowType.UTILITY];

class CupShell {
    Version() {
        return JSON.stringify({ extension: VERSION, shell: String(Config.PACKAGE_VERSION) });
    }

    Windows() {
        const focus = global.display.focus_window;
        const box = r => [r.x, r.y, r.width, r.height];
        const out = [];
        global.get_window_actors().forEach((actor, i) => {
            const w = actor.meta_window;
            if (!w || !TYPES.includes(w.get_window_type())) {
                return;
            }
            out.push({
                id: String(w.get_id()),
                pid: w.get_pid(),
                title: w.get_title() || "",
                app_id: w.get_gtk_application_id() || w.get_wm_class() || "",
                frame: box(w.get_frame_rect()),
                buffer: box(w.get_buffer_rect()),
                client: null,
                active: w === focus || w.has_focus(),
                minimized: !!w.minimized,
                stacking: i,
                x11: w.get_client_type() === Meta.WindowClientType.X11,
            });
        });
        return JSON.stringify(out);
    }

    Pointer() {
        const [x, y] = global.get_pointer();
        return [x, y];
    }

    Activate(id) {
        for (const actor of global.get_window_actors()) {
            const w = actor.meta_window;
            if (w && String(w.get_id()) === id) {
                Main.activateWindow(w);
                return true;
            }
        }
        return false;
    }

    ScreenshotAsync(params, invocation) {
        const [x, y, width, height] = params;
        if (width <= 0 || height <= 0) {
            invocation.return_dbus_error("org.cup.Shell.Error.InvalidArgs", "an empty area");
            return;
        }
        const stream = Gio.MemoryOutputStream.new_resizable();
        const shot = new Shell.Screenshot();
        shot.screenshot_area(x, y, width, height, stream, (source, result) => {
            try {
                source.screenshot_area_finish(result);
                stream.close(null);
                const png = stream.steal_as_bytes();
                invocation.return_value(GLib.Variant.new_tuple(
                    [GLib.Variant.new_from_bytes(new GLib.VariantType("ay"), png, true)]));
            } catch (e) {
                invocation.return_dbus_error("org.cup.Shell.Error.Failed", String(e));
            }
        });
    }
}

function exportShell() {
    const object = Gio.DBusExportedObject.wrapJSObject(IFACE, new CupShell());
    object.export(Gio.DBus.session, PATH);
    const owner = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME,
        Gio.BusNameOwnerFlags.NONE, null, null);
    return { object, owner };
}

function unexportShell(exported) {
    if (exported) {
        exported.object.unexport();
        Gio.bus_unown_name(exported.owner);
    }
}
"#;

/// The constants every format starts with.
fn constants() -> String {
    format!(
        "const IFACE = {iface};\nconst VERSION = {EXTENSION_VERSION};\nconst PATH = {path};\nconst BUS_NAME = {name};\n",
        iface = js_string(INTERFACE_XML),
        path = js_string(PATH),
        name = js_string(BUS_NAME),
    )
}

fn js_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// `extension.js` for GNOME 43 and 44 (`imports`, `init()`).
pub fn extension_js_legacy() -> String {
    format!(
        "// cup's GNOME Shell extension (GNOME 43-44): windows, activation and screenshots over D-Bus for cup.\n\
         const {{ Gio, GLib, Meta, Shell }} = imports.gi;\n\
         const Main = imports.ui.main;\n\
         const Config = imports.misc.config;\n\
         {}{BODY}\n\
         class Extension {{\n    enable() {{ this._exported = exportShell(); }}\n    disable() {{ unexportShell(this._exported); this._exported = null; }}\n}}\n\n\
         function init() {{\n    return new Extension();\n}}\n",
        constants()
    )
}

/// `extension.js` for GNOME 45 and later (ES modules, a default class).
pub fn extension_js_modules() -> String {
    format!(
        "// cup's GNOME Shell extension (GNOME 45+): windows, activation and screenshots over D-Bus for cup.\n\
         import Gio from \"gi://Gio\";\n\
         import GLib from \"gi://GLib\";\n\
         import Meta from \"gi://Meta\";\n\
         import Shell from \"gi://Shell\";\n\
         import * as Main from \"resource:///org/gnome/shell/ui/main.js\";\n\
         import * as Config from \"resource:///org/gnome/shell/misc/config.js\";\n\
         import {{ Extension }} from \"resource:///org/gnome/shell/extensions/extension.js\";\n\
         {}{BODY}\n\
         export default class CupExtension extends Extension {{\n    enable() {{ this._exported = exportShell(); }}\n    disable() {{ unexportShell(this._exported); this._exported = null; }}\n}}\n",
        constants()
    )
}

/// The major version of a `gnome-shell --version` line (`GNOME Shell
/// 43.9` → 43).
pub fn shell_major(version_line: &str) -> Option<u32> {
    let number = version_line.split_whitespace().last()?;
    number.split('.').next()?.parse().ok()
}

/// The major version of the GNOME Shell installed here (`gnome-shell
/// --version`), or why there is none.
///
/// # Errors
///
/// gnome-shell cannot be run, or prints no version.
pub fn installed_shell_major() -> Result<u32, String> {
    let out = std::process::Command::new("gnome-shell")
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "cannot run gnome-shell --version ({e}): this is for GNOME desktops (install gnome-shell)"
            )
        })?;
    let line = String::from_utf8_lossy(&out.stdout);
    shell_major(&line).ok_or_else(|| {
        format!(
            "gnome-shell --version printed {:?}, not a version",
            line.trim()
        )
    })
}

/// The extension's files (name, text) for the GNOME Shell installed here.
///
/// # Errors
///
/// No GNOME Shell is installed (see [`installed_shell_major`]).
pub fn installed_extension_files() -> Result<Vec<(String, String)>, String> {
    Ok(extension_files(installed_shell_major()?)
        .into_iter()
        .map(|(n, t)| (n.to_owned(), t))
        .collect())
}

/// The extension's files for GNOME Shell `major`: `metadata.json` and
/// `extension.js` in the format that version loads.
pub fn extension_files(major: u32) -> Vec<(&'static str, String)> {
    let versions: Vec<String> = if major >= 45 {
        (45..=major.max(50)).map(|v| v.to_string()).collect()
    } else {
        vec!["43".into(), "44".into()]
    };
    let metadata = serde_json::json!({
        "uuid": UUID,
        "name": "cup",
        "description": "Lets cup (Computer Use Protocol) read where windows are, activate them and take screenshots, over D-Bus on the session bus.",
        "shell-version": versions,
        "version": EXTENSION_VERSION,
    });
    let js = if major >= 45 {
        extension_js_modules()
    } else {
        extension_js_legacy()
    };
    vec![
        (
            "metadata.json",
            serde_json::to_string_pretty(&metadata).unwrap_or_default(),
        ),
        ("extension.js", js),
    ]
}

/// Writes the extension for GNOME Shell `major` into `data_home`
/// (`$XDG_DATA_HOME`, else `~/.local/share`); returns its folder.
///
/// # Errors
///
/// The folder or a file cannot be written.
pub fn install_extension(data_home: &Path, major: u32) -> std::io::Result<PathBuf> {
    let dir = data_home.join("gnome-shell/extensions").join(UUID);
    std::fs::create_dir_all(&dir)?;
    for (name, text) in extension_files(major) {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(dir)
}

/// The `enabled-extensions` list with cup's added (a GVariant text list,
/// as `gsettings get org.gnome.shell enabled-extensions` prints it:
/// `@as []` or `['a@b', 'c@d']`).
///
/// # Errors
///
/// The text is not such a list.
pub fn with_extension_enabled(list: &str) -> Result<String, String> {
    let text = list.trim().trim_start_matches("@as").trim();
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("not a list of extensions: {list:?}"))?;
    let mut uuids: Vec<String> = inner
        .split(',')
        .map(|s| s.trim().trim_matches(|c| c == '\'' || c == '"').to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    if !uuids.iter().any(|u| u == UUID) {
        uuids.push(UUID.to_owned());
    }
    let quoted: Vec<String> = uuids.iter().map(|u| format!("'{u}'")).collect();
    Ok(format!("[{}]", quoted.join(", ")))
}

/// What the extension says of itself (`Version()`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ExtensionVersion {
    /// Its interface version ([`EXTENSION_VERSION`]).
    pub extension: u32,
    /// GNOME Shell's version.
    pub shell: String,
}

/// One logical monitor as `org.gnome.Mutter.DisplayConfig.GetCurrentState`
/// gives it, with its first monitor's connector and current mode: the
/// native facts cup reads.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct LogicalMonitor {
    /// The connector of its (first) monitor, e.g. `Meta-0`, `DP-1`.
    pub connector: String,
    /// Its top-left in the layout.
    pub x: i32,
    /// Its top.
    pub y: i32,
    /// Its scale.
    pub scale: f64,
    /// Its rotation (0 normal, 1–3 turned by 90°, 4–7 flipped).
    pub transform: u32,
    /// The primary monitor.
    pub primary: bool,
    /// The current mode's size in device pixels.
    pub mode: (i32, i32),
}

/// The monitors of a `GetCurrentState` answer, in layout coordinates.
/// `logical_layout`: the layout is in logical pixels (the answer's
/// `layout-mode` 1; mode sizes are divided by the scale), else physical
/// (2; GNOME without fractional scaling: the layout counts device
/// pixels).
pub fn monitors_of(logical: &[LogicalMonitor], logical_layout: bool) -> Vec<(Monitor, String)> {
    logical
        .iter()
        .map(|l| {
            let (mut w, mut h) = (f64::from(l.mode.0), f64::from(l.mode.1));
            if l.transform % 2 == 1 {
                std::mem::swap(&mut w, &mut h);
            }
            if logical_layout && l.scale > 0.0 {
                w /= l.scale;
                h /= l.scale;
            }
            (
                Monitor {
                    name: l.connector.clone(),
                    rect: Rect::new(
                        i64::from(l.x),
                        i64::from(l.y),
                        w.round().max(0.0) as u64,
                        h.round().max(0.0) as u64,
                    ),
                    primary: l.primary,
                    scale: if l.scale > 0.0 { l.scale } else { 1.0 },
                },
                l.connector.clone(),
            )
        })
        .collect()
}

/// The keysyms that type `text` through mutter's `NotifyKeyboardKeysym`:
/// printable ASCII (every Latin keyboard layout has it), Return and Tab.
/// Mutter types only keysyms its active layout has and drops the rest
/// without a word, so anything else is refused in one line naming the
/// route that types any script.
///
/// # Errors
///
/// The one-line refusal naming the first character without a key.
pub fn text_keysyms(text: &str) -> Result<Vec<u32>, String> {
    text.chars()
        .map(|c| match c {
            '\n' => Ok(0xff0d),
            '\t' => Ok(0xff09),
            ' '..='~' => Ok(u32::from(c)),
            _ => Err(format!(
                "unsupported: typing {c:?} on GNOME (mutter types only the keys of the active layout and drops the rest); use the element's type or set_value action, which writes the text through AT-SPI in any script"
            )),
        })
        .collect()
}

/// Why windows have no place on screen when the extension is not
/// answering, in one line.
pub fn missing_extension(detail: &str) -> String {
    format!("cup's GNOME Shell extension is not running ({detail}): {SETUP_LINE}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_gnome_gets_the_module_format_it_loads() {
        let old = extension_files(43);
        assert_eq!(old[0].0, "metadata.json");
        let meta: serde_json::Value = serde_json::from_str(&old[0].1).expect("json");
        assert_eq!(meta["uuid"], UUID);
        assert_eq!(meta["shell-version"], serde_json::json!(["43", "44"]));
        assert!(old[1].1.contains("imports.gi"));
        assert!(old[1].1.contains("function init()"));
        assert!(!old[1].1.contains("export default"));
        let new = extension_files(47);
        let meta: serde_json::Value = serde_json::from_str(&new[0].1).expect("json");
        let versions = meta["shell-version"].as_array().expect("list");
        assert!(versions.contains(&serde_json::json!("47")));
        assert!(new[1]
            .1
            .contains("export default class CupExtension extends Extension"));
        assert!(!new[1].1.contains("imports.gi"));
        // Both carry the same interface and body.
        for (_, js) in [&old[1], &new[1]] {
            assert!(js.contains("org.cup.Shell"));
            assert!(js.contains("ScreenshotAsync"));
            assert!(js.contains(&format!("const VERSION = {EXTENSION_VERSION};")));
        }
    }

    #[test]
    fn versions_and_enabled_lists_are_read() {
        assert_eq!(shell_major("GNOME Shell 43.9"), Some(43));
        assert_eq!(shell_major("GNOME Shell 46.rc"), Some(46));
        assert_eq!(shell_major("nothing"), None);
        assert_eq!(
            with_extension_enabled("@as []").as_deref(),
            Ok("['cup-windows@cup-rs']")
        );
        assert_eq!(
            with_extension_enabled("['a@b', 'cup-windows@cup-rs']").as_deref(),
            Ok("['a@b', 'cup-windows@cup-rs']")
        );
        assert!(with_extension_enabled("nonsense").is_err());
    }

    #[test]
    fn monitors_in_logical_and_physical_layouts() {
        let l = vec![
            LogicalMonitor {
                connector: "Meta-0".into(),
                x: 0,
                y: 0,
                scale: 1.0,
                transform: 0,
                primary: true,
                mode: (1280, 800),
            },
            LogicalMonitor {
                connector: "Meta-1".into(),
                x: 1280,
                y: 0,
                scale: 2.0,
                transform: 1,
                primary: false,
                mode: (2560, 1600),
            },
        ];
        let logical = monitors_of(&l, true);
        assert_eq!(logical[0].0.rect, Rect::new(0, 0, 1280, 800));
        // Turned by 90°: width and height swap, then the scale divides.
        assert_eq!(logical[1].0.rect, Rect::new(1280, 0, 800, 1280));
        assert_eq!(logical[1].1, "Meta-1");
        let physical = monitors_of(&l, false);
        assert_eq!(physical[1].0.rect, Rect::new(1280, 0, 1600, 2560));
        assert!((physical[1].0.scale - 2.0).abs() < f64::EPSILON);
    }

    #[test]
    fn text_outside_ascii_is_refused_not_dropped() {
        assert_eq!(text_keysyms("a Z\n"), Ok(vec![0x61, 0x20, 0x5a, 0xff0d]));
        let refused = text_keysyms("héllo").expect_err("é");
        assert!(refused.starts_with("unsupported: typing 'é' on GNOME"));
        assert!(missing_extension("no owner of org.cup.Shell").contains("cup setup gnome"));
    }
}
