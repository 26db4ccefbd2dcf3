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
    if p.starts_with("chrom") || p == "electron" || p == "code" || p.ends_with("-electron") {
        return Some(
            "Chromium and Electron apps expose their tree only when asked: restart it with --force-renderer-accessibility",
        );
    }
    if p == "java" || p.starts_with("java-") {
        return Some(
            "Java apps speak AT-SPI through the ATK wrapper: install libatk-wrapper-java and restart it with -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
        );
    }
    if p.starts_with("wish") || p.starts_with("tclsh") {
        return Some(
            "Tk has no accessibility support: cup reads the window's text from its pixels (snapshot ocr=auto)",
        );
    }
    if p.contains("qt") {
        return Some(
            "Qt apps expose their tree when accessibility is on: restart it with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
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

    #[test]
    fn chromium_java_tk_and_qt_get_the_way_to_turn_accessibility_on() {
        assert!(
            for_program("chromium").is_some_and(|a| a.contains("--force-renderer-accessibility"))
        );
        assert!(for_program("code").is_some_and(|a| a.contains("--force-renderer-accessibility")));
        assert!(for_program("java").is_some_and(|a| a.contains("AtkWrapper")));
        assert!(for_program("wish8.6").is_some_and(|a| a.contains("ocr")));
        assert!(for_program("qtcreator")
            .is_some_and(|a| a.contains("QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1")));
    }
}
