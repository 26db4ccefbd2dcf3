//! `cup --platform android mcp` over stdio: the MCP server on a phone,
//! through Debian's real adb server and a device of the tests' own.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_phone_snapshot_toggle_and_press() {
    let (server, device, serial) = crate::android::notes_phone().await;
    let env = vec![(
        "ANDROID_ADB_SERVER_PORT".to_owned(),
        server.port.to_string(),
    )];
    tokio::task::block_in_place(|| {
        let mut c = Client::start(
            &stdio_args(&["--platform", "android", "--serial", &serial, "mcp"]),
            &env,
        );
        let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
        assert!(
            snap.starts_with("# CUP 0.1.0 | android | 720x1600"),
            "{snap}"
        );
        let sync = id_of(&snap, &["sw \"Sync\""]);
        let acted = c.call("action", json!({"element_id": sync, "action": "toggle"}));
        let acted_text = ok_text(&acted, "toggle Sync");
        assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
        assert!(acted_text.contains("checked"), "{acted_text}");
        let after = ok_text(&c.call("snapshot", json!({})), "snapshot after");
        assert!(
            line_of(&after, &id_of(&after, &["sw \"Sync\""])).contains("{chk}"),
            "{after}"
        );
        let pressed = c.call("press_key", json!({"key": "home"}));
        assert!(pressed.get("structured").is_some(), "{pressed}");
        assert!(device
            .asked()
            .contains(&"shell,v2,raw:input keyevent 3".to_owned()));
    });
}
