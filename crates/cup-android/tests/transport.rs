//! The Android adapter end to end over Debian's real adb server, with a
//! device of the tests' own (tests/support: no Android runs here). What
//! is checked is what reaches the device — the exact service strings —
//! and what cup reports back.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cup::adapter::{Adapter, CaptureLimits, ShotTarget};
use cup::{ActionParams, Effect, Target};
use cup_android::AndroidAdapter;
use cup_protocol::{Action, Direction, Node, Rect, Role, State};
use support::{AdbServerProcess, FakeDevice, Reply, Script};

/// What the phone shows; actions change it.
#[derive(Debug, Default)]
struct Phone {
    wifi: bool,
    search: String,
    front: String,
    keyboard: bool,
    ime: String,
}

fn bool_attr(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

fn node(class: &str, text: &str, id: &str, flags: &str, bounds: &str) -> String {
    format!(
        r#"<node index="0" text="{text}" resource-id="{id}" class="{class}" package="com.android.settings" content-desc="" {flags} enabled="true" bounds="{bounds}" />"#
    )
}

fn xml(p: &Phone) -> String {
    let text = p
        .search
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" enabled="true" bounds="[0,0][1080,2400]">{}{}<node index="2" text="" resource-id="com.android.settings:id/list" class="androidx.recyclerview.widget.RecyclerView" package="com.android.settings" content-desc="" scrollable="true" enabled="true" bounds="[0,450][1080,2200]">{}</node>{}</node></hierarchy>"#,
        node(
            "android.widget.EditText",
            &text,
            "com.android.settings:id/search",
            r#"hint="Search settings" clickable="true" focusable="true" focused="true""#,
            "[40,150][1040,250]"
        ),
        node(
            "android.widget.Switch",
            "Wi-Fi",
            "android:id/switch_widget",
            &format!(
                r#"checkable="true" checked="{}" clickable="true""#,
                bool_attr(p.wifi)
            ),
            "[0,300][1080,450]"
        ),
        node(
            "android.widget.TextView",
            "Network",
            "android:id/title",
            "",
            "[40,500][1040,600]"
        ),
        node(
            "android.widget.Button",
            "OK",
            "com.android.settings:id/ok",
            r#"clickable="true" long-clickable="true""#,
            "[340,2220][740,2380]"
        ),
    )
}

fn png() -> Vec<u8> {
    let rgb: Vec<u8> = (0..4 * 6).flat_map(|i| [i as u8, 100, 200]).collect();
    cup::image::png_from_rgb(&rgb, 4, 6).unwrap()
}

/// The phone's answers to what cup asks.
fn script(phone: Arc<Mutex<Phone>>, dump: Option<Reply>) -> Script {
    Arc::new(move |cmd: &str| {
        let mut p = phone.lock().unwrap();
        let ok = || Reply::text("");
        if cmd == "wm size" {
            return Reply::text("Physical size: 1080x2400\n");
        }
        if cmd == "wm density" {
            return Reply::text("Physical density: 420\n");
        }
        if cmd == "dumpsys window" {
            return Reply::text(&format!("  mCurrentFocus=Window{{4f1c u0 {}}}\n", p.front));
        }
        if cmd == "dumpsys input | grep -m 1 SurfaceOrientation" {
            return Reply::text("    SurfaceOrientation: 0\n");
        }
        if cmd.starts_with("uiautomator dump") {
            if let Some(d) = &dump {
                return d.clone();
            }
            return Reply::text(&format!("{}UI hierchary dumped to: /dev/tty\n", xml(&p)));
        }
        if cmd == "screencap -p" {
            return Reply::Out {
                stdout: png(),
                stderr: Vec::new(),
                exit: 0,
            };
        }
        if cmd == "input tap 540 375" {
            p.wifi = !p.wifi;
            return ok();
        }
        if let Some(t) = cmd.strip_prefix("input text ") {
            let t = t.trim_matches('\'').replace("%s", " ");
            p.search.push_str(&t);
            return ok();
        }
        if cmd.starts_with("input ") {
            return ok();
        }
        if cmd == "ime list -s" {
            let mut s = String::from(
                "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n",
            );
            if p.keyboard {
                s.push_str("com.android.adbkeyboard/.AdbIME\n");
            }
            return Reply::text(&s);
        }
        if cmd == "settings get secure default_input_method" {
            return Reply::text(&format!("{}\n", p.ime));
        }
        if let Some(rest) = cmd.strip_prefix("ime set ") {
            p.ime = rest.rsplit(' ').next().unwrap_or_default().to_owned();
            return Reply::text(&format!("Input method {} selected for user #0\n", p.ime));
        }
        if cmd.starts_with("ime enable") {
            p.ime = "com.android.adbkeyboard/.AdbIME".into();
            return Reply::text(
                "Input method com.android.adbkeyboard/.AdbIME selected for user #0\n",
            );
        }
        if let Some(b64) = cmd.strip_prefix("am broadcast -a ADB_INPUT_B64 --es msg ") {
            use base64::Engine as _;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.trim_matches('\''))
                .unwrap();
            assert_eq!(
                p.ime, "com.android.adbkeyboard/.AdbIME",
                "the text went to another keyboard"
            );
            p.search.push_str(&String::from_utf8(bytes).unwrap());
            return Reply::text("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n");
        }
        if cmd.starts_with("cmd package query-activities") {
            return Reply::text("com.android.settings/.Settings\ncom.android.chrome/com.google.android.apps.chrome.Main\n");
        }
        if let Some(rest) = cmd.strip_prefix("monkey -p ") {
            let package = rest.split(' ').next().unwrap_or_default();
            p.front = format!("{package}/{package}.Main");
            return Reply::text("  bash arg: -p\nEvents injected: 1\n");
        }
        if cmd.starts_with("pidof ") {
            return Reply::text("4242\n");
        }
        Reply::Out {
            stdout: Vec::new(),
            stderr: format!("/system/bin/sh: {cmd}: not found\n").into_bytes(),
            exit: 127,
        }
    })
}

struct Rig {
    _server: AdbServerProcess,
    device: FakeDevice,
    phone: Arc<Mutex<Phone>>,
    adapter: AndroidAdapter,
}

async fn rig(features: &str, dump: Option<Reply>) -> Rig {
    let server = AdbServerProcess::start();
    let phone = Arc::new(Mutex::new(Phone {
        front: "com.android.settings/com.android.settings.Settings".into(),
        ime: "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME".into(),
        ..Phone::default()
    }));
    let device = FakeDevice::start(features, script(phone.clone(), dump)).await;
    let serial = server.adopt(device.addr).await;
    let adapter = AndroidAdapter::new(server.client(), Some(serial));
    Rig {
        _server: server,
        device,
        phone,
        adapter,
    }
}

fn find<'a>(tree: &'a [Node], role: Role, name: &str) -> &'a Node {
    let mut stack: Vec<&Node> = tree.iter().collect();
    while let Some(n) = stack.pop() {
        if n.role == role && n.name == name {
            return n;
        }
        stack.extend(n.children.iter());
    }
    panic!("no {role:?} {name:?} in {tree:#?}")
}

#[tokio::test]
async fn a_phone_is_read_and_driven_through_the_adb_server() {
    let rig = rig("shell_v2,cmd,stat_v2", None).await;
    let a = &rig.adapter;
    let windows = a.windows().await.unwrap();
    assert_eq!(windows.len(), 1);
    assert!(windows[0].info.foreground);
    assert_eq!(windows[0].info.pid, Some(4242));
    let cap = a
        .capture(&windows, &CaptureLimits::default())
        .await
        .unwrap();
    let screen = a.screen().await.unwrap();
    assert_eq!(
        (screen.width, screen.height, screen.scale),
        (1080, 2400, 2.625)
    );
    let root = &cap.tree[0];
    assert_eq!(
        (root.role, root.name.as_str()),
        (Role::Window, "com.android.settings")
    );
    let wifi = find(&cap.tree, Role::Switch, "Wi-Fi").clone();
    assert_eq!(wifi.bounds, Some(Rect::new(0, 300, 1080, 150)));
    assert!(!wifi.states.contains(&State::Checked));
    let search = find(&cap.tree, Role::TextBox, "Search settings").clone();
    let list = find(&cap.tree, Role::List, "").clone();
    let ok = find(&cap.tree, Role::Button, "OK").clone();
    let refs = cap.refs.clone();
    let id_of = |n: &Node| n.id.clone();
    let target = |n: &Node| (id_of(n), refs[&n.id].clone());

    // A tap at the switch's centre, in device pixels; the dump after it
    // shows the switch checked.
    let (id, native) = target(&wifi);
    let t = Target {
        id: &id,
        native: &native,
        node: &wifi,
        window: root,
    };
    let r = a
        .act(&t, Action::Toggle, &ActionParams::default(), &refs)
        .await
        .unwrap();
    assert!(r.success);
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert_eq!(r.changes[0].target, id);
    assert_eq!(r.changes[0].after.as_deref(), Some("checked"));
    assert!(rig
        .device
        .asked()
        .contains(&"shell,v2,raw:input tap 540 375".to_owned()));

    // A long press: held 800 ms at the centre; nothing changes.
    let (id, native) = target(&ok);
    let t = Target {
        id: &id,
        native: &native,
        node: &ok,
        window: root,
    };
    let r = a
        .act(&t, Action::LongPress, &ActionParams::default(), &refs)
        .await
        .unwrap();
    assert_eq!(r.effect, Effect::NoChange);
    assert!(rig
        .device
        .asked()
        .contains(&"shell,v2,raw:input swipe 540 2300 540 2300 800".to_owned()));

    // A scroll: a swipe inside the list, from 75 % to 25 % of it.
    let (id, native) = target(&list);
    let t = Target {
        id: &id,
        native: &native,
        node: &list,
        window: root,
    };
    let down = ActionParams {
        direction: Some(Direction::Down),
        ..ActionParams::default()
    };
    a.act(&t, Action::Scroll, &down, &refs).await.unwrap();
    assert!(rig
        .device
        .asked()
        .contains(&"shell,v2,raw:input swipe 540 1762 540 887 500".to_owned()));

    // ASCII through `input text`, spaces as %s; the field shows it.
    let (id, native) = target(&search);
    let t = Target {
        id: &id,
        native: &native,
        node: &search,
        window: root,
    };
    let typed = |v: &str| ActionParams {
        value: Some(v.into()),
        ..ActionParams::default()
    };
    let r = a
        .act(&t, Action::Type, &typed("wi fi"), &refs)
        .await
        .unwrap();
    assert!(rig
        .device
        .asked()
        .contains(&"shell,v2,raw:input text wi%sfi".to_owned()));
    assert_eq!(r.changes[0].after.as_deref(), Some("wi fi"), "{r:?}");

    // Other characters without ADBKeyBoard: refused, nothing typed.
    let before = rig.device.asked().len();
    let e = a
        .act(&t, Action::Type, &typed(" café 日本"), &refs)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("install ADBKeyBoard"), "{e}");
    assert!(!e.to_string().contains('\n'));
    assert!(rig.device.asked()[before..]
        .iter()
        .all(|s| !s.contains("input text")));
    assert_eq!(rig.phone.lock().unwrap().search, "wi fi");

    // With ADBKeyBoard: exact, through its broadcast, keyboard restored.
    rig.phone.lock().unwrap().keyboard = true;
    a.act(&t, Action::Type, &typed(" café 日本"), &refs)
        .await
        .unwrap();
    {
        let p = rig.phone.lock().unwrap();
        assert_eq!(p.search, "wi fi café 日本");
        assert!(p.ime.ends_with("LatinIME"), "{}", p.ime);
    }

    // Keys are key events.
    a.press(&cup_protocol::parse_combo("enter").unwrap(), &refs)
        .await
        .unwrap();
    a.press(&cup_protocol::parse_combo("home").unwrap(), &refs)
        .await
        .unwrap();
    let asked = rig.device.asked();
    assert!(asked.contains(&"shell,v2,raw:input keyevent 66".to_owned()));
    assert!(asked.contains(&"shell,v2,raw:input keyevent 3".to_owned()));

    // Screenshots are screencap's bytes, binary-safe through exec:.
    let shot = a.screenshot(&ShotTarget::Screen).await.unwrap();
    assert_eq!(shot.png, png());
    assert_eq!((shot.width, shot.height), (4, 6));
    let cut = a
        .screenshot(&ShotTarget::Region(Rect::new(1, 2, 2, 3)))
        .await
        .unwrap();
    assert_eq!((cut.width, cut.height, cut.x, cut.y), (2, 3, 1, 2));
    assert!(rig.device.asked().contains(&"exec:screencap -p".to_owned()));

    // Apps by fuzzy name; the launch waits for the app to be in front.
    let apps = a.apps().await.unwrap();
    assert_eq!(
        apps.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        ["settings", "chrome"]
    );
    let launched = a.open_app("Chrome").await.unwrap();
    assert_eq!(launched.name, "com.android.chrome");
    assert_eq!(launched.pid, 4242);
    assert!(launched.window.is_some());
    assert!(rig.device.asked().contains(
        &"shell,v2,raw:monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1"
            .to_owned()
    ));
    let native = a.native_dump().expect("native dump");
    assert_eq!(native["platform"], "android");
    assert_eq!(native["device"]["density"], 420);
}

#[tokio::test]
async fn a_phone_without_shell_v2_gets_plain_shell_and_binary_exec() {
    let rig = rig("cmd", None).await;
    let windows = rig.adapter.windows().await.unwrap();
    let cap = rig
        .adapter
        .capture(&windows, &CaptureLimits::default())
        .await
        .unwrap();
    assert_eq!(cap.tree.len(), 1);
    let asked = rig.device.asked();
    assert!(asked.contains(&"shell:wm size".to_owned()), "{asked:?}");
    assert!(
        asked.contains(&"exec:uiautomator dump /dev/tty".to_owned()),
        "{asked:?}"
    );
    assert!(
        asked.iter().all(|s| !s.starts_with("shell,v2")),
        "{asked:?}"
    );
}

#[tokio::test]
async fn a_phone_that_vanishes_mid_dump_is_a_one_line_error_in_time() {
    let half = xml(&Phone::default()).as_bytes()[..300].to_vec();
    let rig = rig("shell_v2,cmd", Some(Reply::Vanish(half))).await;
    let started = Instant::now();
    let e = rig.adapter.windows().await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let text = e.to_string();
    assert!(!text.contains('\n'), "{text}");
    assert!(
        text.contains("stopped in the middle of its UI dump") || text.contains("disconnected"),
        "{text}"
    );
}

#[tokio::test]
async fn a_phone_that_hangs_times_out_at_the_deadline() {
    let rig = rig("shell_v2,cmd", Some(Reply::Hang)).await;
    let server = rig.adapter_server();
    let started = Instant::now();
    let e = server
        .exec(
            &rig.serial(),
            "uiautomator dump /dev/tty",
            Duration::from_millis(1500),
        )
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_secs(5),
        "{took:?}"
    );
    assert!(
        e.to_string().contains("did not finish within 1500 ms"),
        "{e}"
    );
}

impl Rig {
    fn adapter_server(&self) -> cup_android::adb::AdbServer {
        self._server.client()
    }

    fn serial(&self) -> String {
        self.device.addr.to_string()
    }
}

/// With nothing on its port, cup starts the server itself (`adb -P <port>
/// start-server`), then talks to it; the test stops it with `host:kill`.
#[tokio::test]
async fn the_server_is_started_when_nothing_listens() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let home = std::env::temp_dir().join(format!("cup-adb-start-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    // The server the client starts inherits this process's HOME (its key
    // goes there): a private one, set by a wrapper script.
    let wrapper = home.join("adb");
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\nHOME='{}' exec adb \"$@\"\n", home.display()),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let mut client =
        cup_android::adb::AdbServer::new(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    client.adb_program = Some(wrapper.display().to_string());
    let version = client.version().await;
    let listed = client.devices().await;
    let killed = client.kill().await;
    let _ = std::fs::remove_dir_all(&home);
    assert!(version.unwrap() >= 0x20, "a protocol version");
    assert_eq!(listed.unwrap(), []);
    killed.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut never = client.clone();
    never.adb_program = None;
    let e = never.version().await.unwrap_err();
    assert!(
        e.to_string().contains("start one with `adb start-server`"),
        "{e}"
    );
}
