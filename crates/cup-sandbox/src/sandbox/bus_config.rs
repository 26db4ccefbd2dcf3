//! The configuration of the sandbox's private session bus.
//!
//! It is the system's session configuration with two additions:
//! - in a sandbox of another user (Wayland as root), root may connect, for
//!   cup itself;
//! - outside GNOME and KDE, the desktop portal cannot be activated. A GTK 3
//!   app asks for `org.freedesktop.portal.Desktop` when it starts, even on
//!   X11, and where `xdg-desktop-portal` is installed that starts six
//!   processes (the portal, its GNOME and GTK back-ends, the document
//!   portal with its FUSE mount, the permission store, `fusermount3`):
//!   about 40 MB more memory a desktop (proportional set size; 133 MB
//!   resident), for nothing an agent's desktop uses. Service files of the same names in a folder of
//!   the sandbox's own, listed before the system's folders (the first one
//!   found wins), run `/bin/false`: activation fails at once, and GTK goes
//!   on without the portal as it does where none is installed.

use std::path::{Path, PathBuf};

use super::Sandbox;
use crate::error::SandboxError;

/// The bus names whose activation a sandbox without portals refuses.
pub(super) const MASKED_SERVICES: &[&str] = &[
    "org.freedesktop.portal.Desktop",
    "org.freedesktop.portal.Documents",
    "org.freedesktop.impl.portal.PermissionStore",
];

/// The configuration text: `masked` is the folder of the masking service
/// files (listed first), `admit_root` adds root to the connect policy.
pub(super) fn session_bus_config(masked: Option<&Path>, admit_root: bool) -> String {
    let mut config = String::from(
        "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n<busconfig>\n",
    );
    if let Some(dir) = masked {
        config.push_str(&format!(
            "  <servicedir>{}</servicedir>\n",
            xml_text(&dir.display().to_string())
        ));
    }
    config.push_str("  <include>/usr/share/dbus-1/session.conf</include>\n");
    if admit_root {
        config
            .push_str("  <policy context=\"default\">\n    <allow user=\"root\"/>\n  </policy>\n");
    }
    config.push_str("</busconfig>\n");
    config
}

/// A service file that makes activating `name` fail at once.
pub(super) fn masking_service(name: &str) -> String {
    format!("[D-BUS Service]\nName={name}\nExec=/bin/false\n")
}

fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl Sandbox {
    /// Writes the session bus's `--config-file` (and the masking service
    /// files) into the state directory.
    pub(super) fn session_bus_config_file(&self) -> Result<PathBuf, SandboxError> {
        let masked = if self.portals {
            None
        } else {
            let dir = self.state_dir.join("dbus-services");
            std::fs::create_dir_all(&dir)
                .map_err(SandboxError::io(format!("creating {}", dir.display())))?;
            for name in MASKED_SERVICES {
                let file = dir.join(format!("{name}.service"));
                std::fs::write(&file, masking_service(name))
                    .map_err(SandboxError::io(format!("writing {}", file.display())))?;
            }
            Some(dir)
        };
        let path = self.state_dir.join("session-bus.conf");
        std::fs::write(
            &path,
            session_bus_config(masked.as_deref(), self.user.is_some()),
        )
        .map_err(SandboxError::io(format!("writing {}", path.display())))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_masking_folder_comes_before_the_system_configuration() {
        let config = session_bus_config(Some(Path::new("/tmp/s<1>/dbus-services")), false);
        let masked = config
            .find("<servicedir>/tmp/s&lt;1&gt;/dbus-services</servicedir>")
            .expect("the masking folder is listed");
        let system = config
            .find("<include>/usr/share/dbus-1/session.conf</include>")
            .expect("the system's session configuration is included");
        assert!(masked < system, "{config}");
        assert!(!config.contains("user=\"root\""), "{config}");
    }

    #[test]
    fn a_sandbox_of_another_user_admits_root_and_gnome_keeps_its_portal() {
        let config = session_bus_config(None, true);
        assert!(config.contains("<include>/usr/share/dbus-1/session.conf</include>"));
        assert!(config.contains(r#"<allow user="root"/>"#));
        assert!(!config.contains("<servicedir>"));
    }

    #[test]
    fn a_masking_service_names_its_bus_name_and_fails() {
        assert_eq!(
            masking_service("org.freedesktop.portal.Desktop"),
            "[D-BUS Service]\nName=org.freedesktop.portal.Desktop\nExec=/bin/false\n"
        );
    }
}
