//! What to tell the user about an app window without an accessibility
//! tree, by the program behind it: some apps expose their tree only when
//! started a certain way.

/// Advice for the program named `program` (its `/proc/PID/comm`), when
/// cup knows why such a program shows no tree.
pub fn for_program(program: &str) -> Option<&'static str> {
    let p = program.to_ascii_lowercase();
    if p.starts_with("firefox") || p.starts_with("thunderbird") || p == "librewolf" {
        return Some(
            "Gecko apps expose their tree only when accessibility is on at their start: restart it with GNOME_ACCESSIBILITY=1 (or turn accessibility on first: gsettings set org.gnome.desktop.interface toolkit-accessibility true)",
        );
    }
    if p.starts_with("soffice") || p.starts_with("libreoffice") || p == "oosplash" {
        return Some(
            "LibreOffice speaks AT-SPI only through its GTK front end: restart it with SAL_USE_VCLPLUGIN=gtk3 (Debian package libreoffice-gtk3)",
        );
    }
    None
}

/// Advice for the window of process `pid` (see [`for_program`]).
pub fn for_pid(pid: u32) -> Option<&'static str> {
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    for_program(comm.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gecko_and_libreoffice_get_their_advice() {
        assert!(for_program("firefox-esr").is_some_and(|a| a.contains("GNOME_ACCESSIBILITY=1")));
        assert!(for_program("thunderbird-bin").is_some());
        assert!(for_program("soffice.bin").is_some_and(|a| a.contains("SAL_USE_VCLPLUGIN=gtk3")));
        assert_eq!(for_program("xterm"), None);
    }
}
