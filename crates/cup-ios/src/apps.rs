//! Which app `open_app` means. WebDriverAgent cannot list the apps
//! installed on a device, so a name is matched against Apple's own apps
//! (their documented bundle ids) and the apps cup has seen in front; a
//! bundle id (`com.example.app`) is used as it is.

use cup::apps::{best, App};

/// Apple's apps that come with iOS: display name and bundle id.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("App Store", "com.apple.AppStore"),
    ("Books", "com.apple.iBooks"),
    ("Calculator", "com.apple.calculator"),
    ("Calendar", "com.apple.mobilecal"),
    ("Camera", "com.apple.camera"),
    ("Clock", "com.apple.mobiletimer"),
    ("Compass", "com.apple.compass"),
    ("Contacts", "com.apple.MobileAddressBook"),
    ("FaceTime", "com.apple.facetime"),
    ("Files", "com.apple.DocumentsApp"),
    ("Find My", "com.apple.findmy"),
    ("Fitness", "com.apple.Fitness"),
    ("Health", "com.apple.Health"),
    ("Home", "com.apple.Home"),
    ("Mail", "com.apple.mobilemail"),
    ("Maps", "com.apple.Maps"),
    ("Measure", "com.apple.measure"),
    ("Messages", "com.apple.MobileSMS"),
    ("Music", "com.apple.Music"),
    ("News", "com.apple.news"),
    ("Notes", "com.apple.mobilenotes"),
    ("Phone", "com.apple.mobilephone"),
    ("Photos", "com.apple.mobileslideshow"),
    ("Podcasts", "com.apple.podcasts"),
    ("Reminders", "com.apple.reminders"),
    ("Safari", "com.apple.mobilesafari"),
    ("Settings", "com.apple.Preferences"),
    ("Shortcuts", "com.apple.shortcuts"),
    ("Stocks", "com.apple.stocks"),
    ("Tips", "com.apple.tips"),
    ("Translate", "com.apple.Translate"),
    ("TV", "com.apple.tv"),
    ("Voice Memos", "com.apple.VoiceMemos"),
    ("Wallet", "com.apple.Passbook"),
    ("Watch", "com.apple.Bridge"),
    ("Weather", "com.apple.weather"),
];

/// Whether `s` is written like a bundle id (`com.example.app`).
pub fn is_bundle_id(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

/// The app `query` names: (display name, bundle id). `seen` are apps met
/// in front before (display name, bundle id), matched first.
pub fn resolve(query: &str, seen: &[(String, String)]) -> Option<(String, String)> {
    let q = query.trim();
    if is_bundle_id(q) {
        let name = seen
            .iter()
            .find(|(_, b)| b.eq_ignore_ascii_case(q))
            .map(|(n, _)| n.clone())
            .or_else(|| {
                BUILT_IN
                    .iter()
                    .find(|(_, b)| b.eq_ignore_ascii_case(q))
                    .map(|(n, _)| (*n).to_owned())
            })
            .unwrap_or_else(|| q.to_owned());
        return Some((name, q.to_owned()));
    }
    let apps: Vec<App> = seen
        .iter()
        .map(|(n, b)| App {
            name: n.clone(),
            target: b.clone(),
        })
        .chain(BUILT_IN.iter().map(|(n, b)| App {
            name: (*n).to_owned(),
            target: (*b).to_owned(),
        }))
        .collect();
    best(q, &apps).map(|a| (a.name.clone(), a.target.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_bundle_ids() {
        assert_eq!(
            resolve("settings", &[]),
            Some(("Settings".into(), "com.apple.Preferences".into()))
        );
        assert_eq!(
            resolve("safari", &[]).map(|a| a.1),
            Some("com.apple.mobilesafari".into())
        );
        assert_eq!(
            resolve("com.example.shop", &[]),
            Some(("com.example.shop".into(), "com.example.shop".into()))
        );
        assert_eq!(
            resolve("com.apple.Preferences", &[]).map(|a| a.0),
            Some("Settings".into())
        );
        let seen = vec![("Shopper".to_owned(), "com.example.shop".to_owned())];
        assert_eq!(
            resolve("shopper", &seen).map(|a| a.1),
            Some("com.example.shop".into())
        );
        assert_eq!(resolve("photoshop express", &[]), None);
        assert!(!is_bundle_id("Voice Memos") && !is_bundle_id("Mail") && !is_bundle_id("a..b"));
    }
}
