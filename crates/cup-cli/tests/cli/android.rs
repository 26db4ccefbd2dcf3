//! `cup --platform android` (and ios): the binary drives a phone through Debian's
//! real adb server. The phone is a device of the tests' own (the
//! cup-android tests' support: no Android runs on this machine).

use std::sync::{Arc, Mutex};

#[path = "../../../cup-android/tests/support/mod.rs"]
pub(crate) mod adb_support;

use adb_support::{AdbServerProcess, FakeDevice, Reply};

use crate::common::{cup, line_with, text};

pub(crate) fn dump(checked: bool) -> String {
    format!(
        r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.notes" content-desc="" enabled="true" bounds="[0,0][720,1600]"><node index="0" text="Sync" resource-id="com.example.notes:id/sync" class="androidx.appcompat.widget.SwitchCompat" package="com.example.notes" content-desc="" checkable="true" checked="{checked}" clickable="true" enabled="true" bounds="[0,200][720,320]" /><node index="1" text="" resource-id="com.example.notes:id/title" class="android.widget.EditText" package="com.example.notes" content-desc="" hint="Title" clickable="true" focusable="true" enabled="true" bounds="[20,400][700,500]" /></node></hierarchy>UI hierchary dumped to: /dev/tty
"#
    )
}

/// A notes app with a "Sync" switch (a tap at its centre toggles it) and
/// a title field, on a phone of the tests' own adopted by a real adb
/// server: the server, the phone and its serial.
pub(crate) async fn notes_phone() -> (AdbServerProcess, FakeDevice, String) {
    let server = AdbServerProcess::start();
    let on = Arc::new(Mutex::new(false));
    let device = FakeDevice::start(
        "shell_v2,cmd",
        Arc::new(move |cmd: &str| {
            let mut on = on.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match cmd {
                "wm size" => Reply::text("Physical size: 720x1600\n"),
                "wm density" => Reply::text("Physical density: 320\n"),
                "dumpsys window" => Reply::text(
                    "mCurrentFocus=Window{1 u0 com.example.notes/com.example.notes.Main}\n",
                ),
                "uiautomator dump /dev/tty" => Reply::text(&dump(*on)),
                "input tap 360 260" => {
                    *on = !*on;
                    Reply::text("")
                }
                "pidof com.example.notes" => Reply::text("777\n"),
                c if c.starts_with("input ") => Reply::text(""),
                _ => Reply::Out {
                    stdout: Vec::new(),
                    stderr: b"not found\n".to_vec(),
                    exit: 127,
                },
            }
        }),
    )
    .await;
    let serial = server.adopt(device.addr).await;
    (server, device, serial)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_snapshots_and_acts_on_a_phone() {
    let (server, device, serial) = notes_phone().await;
    let dir = std::env::temp_dir().join(format!("cup-cli-android-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let env = vec![
        (
            "ANDROID_ADB_SERVER_PORT".to_owned(),
            server.port.to_string(),
        ),
        (
            "CUP_SNAPSHOT_STATE".to_owned(),
            dir.join("state.json").display().to_string(),
        ),
    ];
    let run = |args: &[&str]| {
        let mut all = vec!["--platform", "android", "--serial", serial.as_str()];
        all.extend_from_slice(args);
        let out = tokio::task::block_in_place(|| cup(&all, &env));
        assert!(
            out.status.success(),
            "cup {args:?}: {} {}",
            text(&out.stderr),
            text(&out.stdout)
        );
        text(&out.stdout)
    };
    let native = dir.join("native.json");
    let snap = run(&["snapshot", "--native-dump", native.to_str().expect("path")]);
    assert!(snap.contains("android"), "{snap}");
    let sync = line_with(&snap, &["\"Sync\""]);
    assert!(sync.contains("0,200 720x120"), "{sync}");
    let id = sync
        .trim_start()
        .trim_start_matches('[')
        .split(']')
        .next()
        .expect("id")
        .to_owned();
    let title = line_with(&snap, &["\"Title\""]);
    assert!(
        title.contains("tbx") || title.contains("textbox"),
        "{title}"
    );
    let dumped = std::fs::read_to_string(&native).expect("native dump");
    assert!(
        dumped.contains("\"platform\": \"android\"") || dumped.contains("\"platform\":\"android\""),
        "{dumped}"
    );
    assert!(
        dumped.contains("uiautomator") || dumped.contains("hierarchy"),
        "{dumped}"
    );

    let acted = run(&["action", &id, "toggle"]);
    assert!(acted.contains("confirmed"), "{acted}");
    assert!(acted.contains("checked"), "{acted}");
    assert!(
        device
            .asked()
            .contains(&"shell,v2,raw:input tap 360 260".to_owned()),
        "{:?}",
        device.asked()
    );
    // Nothing on this phone reacts to Back: reported as no change (exit 1).
    let mut all = vec![
        "--platform",
        "android",
        "--serial",
        serial.as_str(),
        "press",
        "back",
    ];
    all.truncate(6);
    let out = tokio::task::block_in_place(|| cup(&all, &env));
    let pressed = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{pressed}");
    assert!(
        pressed.contains("[no_change] Pressed browser_back"),
        "{pressed}"
    );
    assert!(device
        .asked()
        .contains(&"shell,v2,raw:input keyevent 4".to_owned()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cup --platform ios`: no iPhone here; what cup says without one.
#[test]
fn the_cli_says_what_ios_needs_in_one_line() {
    let unused = std::net::TcpListener::bind("127.0.0.1:0").expect("port");
    let url = format!("http://{}", unused.local_addr().expect("addr"));
    drop(unused);
    let out = cup(&["--platform", "ios", "--wda-url", &url, "snapshot"], &[]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("no WebDriverAgent answers at {url}")),
        "{err}"
    );
    assert!(err.contains("forward port 8100"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = cup(
        &[
            "--platform",
            "ios",
            "--wda-url",
            "https://phone",
            "snapshot",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "bad usage");
    assert!(text(&out.stderr).contains("WebDriverAgent serves plain http"));
}
