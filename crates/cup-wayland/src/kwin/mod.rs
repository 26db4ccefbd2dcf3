//! KWin (KDE Plasma) under Wayland: the windows, their places, pids and
//! stacking, and activation, through KWin's scripting API. KWin has no
//! window-list protocol for ordinary clients; a script it runs can read
//! every window and call back over D-Bus.
//!
//! cup loads a small script ([`script`]) through `org.kde.kwin.Scripting`
//! on the session bus, runs it, and the script calls cup's own connection
//! back (`callDBus`) with a JSON list of the windows ([`super::reported::windows_of`]);
//! then cup unloads it. Each exchange is bounded by a deadline. The
//! script reads both script APIs: Plasma 5's `workspace.clientList()` /
//! `activeClient` and Plasma 6's `workspace.windowList()` /
//! `activeWindow`.
//!
//! A window's `bufferGeometry` is its surface on the screen, the box its
//! toolkit's window-relative extents start at (a GTK 3 window's shadow
//! included): so its origin is exact, with no inset to guess.

pub mod eis;
pub mod script;
pub mod shot;

/// The D-Bus interface cup serves for the scripts' answers.
pub const REPORT_INTERFACE: &str = "org.cup.KWinReport";
/// Its object path.
pub const REPORT_PATH: &str = "/org/cup/KWinReport";

/// The script that lists the windows and sends them to `service` (cup's
/// unique bus name) with `token`. Every value it sends is read defensively
/// (a property a KWin version lacks is `undefined`).
pub fn script(service: &str, token: &str) -> String {
    format!(
        r#"(function () {{
    var list = (typeof workspace.windowList === "function") ? workspace.windowList() : workspace.clientList();
    var active = (workspace.activeWindow !== undefined) ? workspace.activeWindow : workspace.activeClient;
    var box = function (g) {{ return g ? [g.x, g.y, g.width, g.height] : null; }};
    var out = [];
    for (var i = 0; i < list.length; i++) {{
        var w = list[i];
        if (!w.normalWindow && !w.dialog) {{ continue; }}
        out.push({{
            id: String(w.internalId),
            pid: w.pid,
            title: String(w.caption),
            app_id: String(w.resourceClass || ""),
            desktop_file: String(w.desktopFileName || ""),
            frame: box(w.frameGeometry),
            buffer: box(w.bufferGeometry),
            client: box(w.clientGeometry),
            active: w === active,
            minimized: !!w.minimized,
            stacking: (typeof w.stackingOrder === "number") ? w.stackingOrder : i
        }});
    }}
    callDBus({service}, "{REPORT_PATH}", "{REPORT_INTERFACE}", "Report", {token}, JSON.stringify(out));
}})();
"#,
        service = js_string(service),
        token = js_string(token),
    )
}

/// The script that activates the window whose `internalId` is `id` and
/// answers `true` when it found it.
pub fn activate_script(service: &str, token: &str, id: &str) -> String {
    format!(
        r#"(function () {{
    var list = (typeof workspace.windowList === "function") ? workspace.windowList() : workspace.clientList();
    var found = false;
    for (var i = 0; i < list.length; i++) {{
        if (String(list[i].internalId) === {id}) {{
            if (workspace.activeWindow !== undefined) {{ workspace.activeWindow = list[i]; }} else {{ workspace.activeClient = list[i]; }}
            found = true;
        }}
    }}
    callDBus({service}, "{REPORT_PATH}", "{REPORT_INTERFACE}", "Report", {token}, JSON.stringify(found));
}})();
"#,
        service = js_string(service),
        token = js_string(token),
        id = js_string(id),
    )
}

/// The script that sends the size of the whole desktop (every output's
/// layout rectangle together) as `[width, height]`: Plasma 6's
/// `workspace.virtualScreenSize`, Plasma 5's `workspace.displaySize`.
/// Asking KWin this needs no Wayland connection, which KWin makes costly
/// for a client it allows restricted interfaces (about a second of its
/// main thread per connection, measured on Plasma 5.27).
pub fn screen_script(service: &str, token: &str) -> String {
    format!(
        r#"(function () {{
    var s = (workspace.virtualScreenSize !== undefined) ? workspace.virtualScreenSize : workspace.displaySize;
    var out = s ? [s.width, s.height] : null;
    callDBus({service}, "{REPORT_PATH}", "{REPORT_INTERFACE}", "Report", {token}, JSON.stringify(out));
}})();
"#,
        service = js_string(service),
        token = js_string(token),
    )
}

/// The desktop's size from [`screen_script`]'s answer.
pub fn screen_size(json: &str) -> Result<(u32, u32), String> {
    let v: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| format!("KWin's screen size is not JSON ({e}): {json}"))?;
    let dim = |i: usize| {
        v.get(i)
            .and_then(serde_json::Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n > 0)
    };
    match (dim(0), dim(1)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("KWin gave no screen size: {json}")),
    }
}

/// `s` as a JavaScript string literal.
fn js_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_quote_what_they_are_given() {
        let s = script(":1.42", "t\"1");
        assert!(
            s.contains(r#"callDBus(":1.42", "/org/cup/KWinReport""#),
            "{s}"
        );
        assert!(s.contains(r#""t\"1""#), "{s}");
        let a = activate_script(":1.42", "t", "{dc35}");
        assert!(a.contains(r#"=== "{dc35}""#), "{a}");
        let z = screen_script(":1.42", "t");
        assert!(
            z.contains("virtualScreenSize") && z.contains("displaySize"),
            "{z}"
        );
    }

    #[test]
    fn the_screen_size_is_read_defensively() {
        assert_eq!(screen_size("[1280, 800]"), Ok((1280, 800)));
        for bad in ["null", "[0, 800]", "[1280]", "{}", "not json", "[-1, 5]"] {
            assert!(screen_size(bad).is_err(), "{bad}");
        }
    }
}
