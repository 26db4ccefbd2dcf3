//! WDA's plain routes: the source, the screen, the app in front, a
//! screenshot, the status, a new session, launching an app, device
//! buttons, typed keys and dismissing an alert.

use serde_json::json;

use super::{Call, Method};
/// The JSON source, without the string frames WDA repeats.
pub fn source() -> Call {
    Call::get("/source?format=json&excluded_attributes=frame,nativeFrame")
}

/// The screen: `screenSize` (points, newer WDA), `statusBarSize`, `scale`.
pub fn screen() -> Call {
    Call::get("/wda/screen")
}

/// The app's window size in points (for WDA without `screenSize`).
pub fn window_size() -> Call {
    Call::get("/window/size")
}

/// The app in front: `bundleId`, `name`, `pid`.
pub fn active_app() -> Call {
    Call::get("/wda/activeAppInfo")
}

/// A PNG of the screen, base64 in `value`.
pub fn screenshot() -> Call {
    Call::get("/screenshot")
}

/// WDA's status (reachable, build, device).
pub fn status() -> Call {
    Call::get("/status")
}

/// A new session (no app: WDA then follows the app in front).
pub fn new_session() -> Call {
    Call {
        method: Method::Post,
        path: "/session".to_owned(),
        session: false,
        body: Some(json!({"capabilities": {"alwaysMatch": {}}})),
    }
}

/// Launches (or brings to the front) the app `bundle_id`.
pub fn launch(bundle_id: &str) -> Call {
    Call::session_post("/wda/apps/launch", json!({"bundleId": bundle_id}))
}

/// Presses the device button `name` (`home`, `volumeup`, `volumedown`).
pub fn press_button(name: &str) -> Call {
    Call::session_post("/wda/pressButton", json!({"name": name}))
}

/// Types `text` into what has the focus, one array item per character.
pub fn keys(text: &str) -> Call {
    let chars: Vec<String> = text.chars().map(String::from).collect();
    Call::session_post("/wda/keys", json!({"value": chars}))
}

/// Dismisses the alert or action sheet in front.
pub fn dismiss_alert() -> Call {
    Call::session_post("/alert/dismiss", json!({}))
}
