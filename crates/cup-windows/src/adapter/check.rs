//! The adapter's checks ([`cup::Adapter::check`]): UI Automation ready,
//! cup's integrity level, whether apps running as administrator can be
//! driven, and the input desktop.

use std::time::Duration;

use cup::Check;

use super::{blocking, WindowsAdapter};
use crate::os::win32;

impl WindowsAdapter {
    /// The checks ([`cup::Adapter::check`]).
    pub(super) async fn run_checks(&self) -> Vec<Check> {
        let checks = blocking(|| {
            let (level, ui_access, elevated) = win32::own_token();
            let desk = win32::input_desktop();
            (level, ui_access, elevated, desk)
        })
        .await;
        let Ok((level, ui_access, elevated, desk)) = checks else {
            return Vec::new();
        };
        let uia = self
            .pool
            .run(Duration::from_secs(5), |uia| {
                (uia.subtree, uia.refused.len())
            })
            .await;
        let level_name = match level {
            Some(l) if l >= 0x4000 => "system",
            Some(l) if l >= 0x3000 => "high",
            Some(l) if l >= 0x2000 => "medium",
            Some(_) => "low",
            None => "unknown",
        };
        vec![
            Check {
                name: "ui automation".into(),
                ok: uia.is_ok(),
                detail: match &uia {
                    Ok((subtree, refused)) => format!(
                        "client ready; subtree caching {}; {refused} properties refused",
                        if *subtree {
                            "on"
                        } else {
                            "off (one round trip per element)"
                        }
                    ),
                    Err(e) => e.to_string(),
                },
                fix: if uia.is_ok() {
                    String::new()
                } else {
                    "UI Automation must be available (uiautomationcore.dll); on Wine use version 10 or later".into()
                },
            },
            Check {
                name: "integrity level".into(),
                ok: true,
                detail: format!(
                    "{level_name}{}{}",
                    if elevated { ", elevated" } else { "" },
                    if ui_access { ", UIAccess" } else { "" }
                ),
                fix: String::new(),
            },
            Check {
                name: "elevated apps".into(),
                ok: elevated || ui_access,
                detail: if elevated || ui_access {
                    "cup can drive apps running as administrator".into()
                } else {
                    "apps running as administrator ignore cup's input (UIPI); cup refuses to act on them".into()
                },
                fix: if elevated || ui_access {
                    String::new()
                } else {
                    "run cup as administrator to drive elevated apps".into()
                },
            },
            Check {
                name: "input desktop".into(),
                ok: matches!(&desk, Ok(n) if n.eq_ignore_ascii_case("default")),
                detail: match &desk {
                    Ok(n) => format!("'{n}'"),
                    Err(e) => e.clone(),
                },
                fix: if matches!(&desk, Ok(n) if n.eq_ignore_ascii_case("default")) {
                    String::new()
                } else {
                    "the secure desktop (UAC prompt, lock screen) is showing; no app can be driven until it closes".into()
                },
            },
        ]
    }
}
