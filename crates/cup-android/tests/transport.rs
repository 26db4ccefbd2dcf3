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
    /// Whether the selected input method is bound yet, and how many
    /// `dumpsys input_method` reads until it is.
    ime_bound: bool,
    bind_after: u32,
    /// `ro.build.version.sdk`.
    sdk: u32,
    /// The display's rotation.
    rotation: u8,
    /// An adbd from before Android 7: `exec:` has no terminal.
    old_adbd: bool,
    /// The front app is a Flutter screen without semantics: its text is
    /// only in its pixels (`fixtures/pixels`), and a tap on its button
    /// places the order.
    pixels: bool,
    placed: bool,
}

/// Where the rendered block of `fixtures/pixels` sits on the screen, and
/// its button there.
const PIXELS_TOP: u32 = 600;
const ORDER_BUTTON: (i64, i64, i64, i64) = (60, 980, 382, 104);

/// The Flutter screen's tree as uiautomator dumps it with the app's
/// semantics off: the DecorView's layouts and one `View`, nothing named.
fn flutter_xml() -> String {
    let node = |class: &str, id: &str, inner: &str| {
        let attrs = format!(
            r#"index="0" text="" resource-id="{id}" class="{class}" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]""#
        );
        if inner.is_empty() {
            format!("<node {attrs} />")
        } else {
            format!("<node {attrs}>{inner}</node>")
        }
    };
    format!(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">{}</hierarchy>",
        node(
            "android.widget.FrameLayout",
            "",
            &node(
                "android.widget.LinearLayout",
                "",
                &node(
                    "android.widget.FrameLayout",
                    "android:id/content",
                    &node("android.view.View", "", "")
                )
            )
        )
    )
}

/// The phone's whole screen: white, with the order block (rendered by
/// `fixtures/pixels/render.sh`) at `PIXELS_TOP`.
fn flutter_screen(placed: bool) -> Vec<u8> {
    static SCREENS: std::sync::OnceLock<[Vec<u8>; 2]> = std::sync::OnceLock::new();
    SCREENS.get_or_init(|| [compose(false), compose(true)])[usize::from(placed)].clone()
}

fn compose(placed: bool) -> Vec<u8> {
    let block: &[u8] = if placed {
        include_bytes!("fixtures/pixels/order-after.png")
    } else {
        include_bytes!("fixtures/pixels/order-before.png")
    };
    let (rgb, w, h) = cup::image::rgb_from_png(block).unwrap();
    let (width, height) = (1080_u32, 2400_u32);
    let mut screen = vec![255_u8; (width * height * 3) as usize];
    for row in 0..h.min(height - PIXELS_TOP) {
        let from = (row * w * 3) as usize;
        let to = (((row + PIXELS_TOP) * width) * 3) as usize;
        let n = (w.min(width) * 3) as usize;
        screen[to..to + n].copy_from_slice(&rgb[from..from + n]);
    }
    cup::image::png_from_rgb(&screen, width, height).unwrap()
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

/// The phone's answers to what cup asks: what the real tools print, cited
/// by their source.
fn script(phone: Arc<Mutex<Phone>>, dump: Option<Reply>) -> Script {
    Arc::new(move |cmd: &str| {
        let mut p = phone.lock().unwrap();
        let ok = || Reply::text("");
        if cmd == "getprop ro.build.version.sdk" {
            return Reply::text(&format!("{}\n", p.sdk));
        }
        // WindowManagerShellCommand.printInitialDisplaySize / density.
        if cmd == "wm size" {
            return Reply::text("Physical size: 1080x2400\n");
        }
        if cmd == "wm density" {
            return Reply::text("Physical density: 420\n");
        }
        // DisplayContent.dump: `mCurrentFocus=` a WindowState
        // (`Window{hash u0 title}`), `mFocusedApp=` an ActivityRecord.
        if cmd == "dumpsys window" {
            let (package, _) = p.front.split_once('/').unwrap();
            return Reply::text(&format!(
                "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 rootTasks=2\n  mCurrentFocus=Window{{4f1c2e1 u0 {}}}\n  mFocusedApp=ActivityRecord{{7d3e1b4 u0 {package}/.Main t12}}\n",
                p.front
            ));
        }
        // TouchInputMapper::dump on Android 14: the viewport line
        // (DisplayViewport::toString), no `SurfaceOrientation` any more.
        if cmd == "dumpsys input" {
            return Reply::text(&format!(
                "INPUT MANAGER (dumpsys input)\n\nInput Reader State (Nums of device: 1):\n  Device 3: sec_touchscreen\n    Touch Input Mapper (mode - DIRECT):\n      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation={}, logicalFrame=[0, 0, 1080, 2400], physicalFrame=[0, 0, 1080, 2400], deviceSize=[1080, 2400], isActive=[1]\n      DisplayBounds: 1080x2400\n      InputDeviceOrientation: Rotation{}\n",
                p.rotation,
                u32::from(p.rotation) * 90
            ));
        }
        if p.pixels {
            if cmd == "uiautomator dump /dev/tty" {
                return Reply::text(&format!(
                    "{}UI hierchary dumped to: /dev/tty\n",
                    flutter_xml()
                ));
            }
            if cmd == "screencap -p" {
                return Reply::Out {
                    stdout: flutter_screen(p.placed),
                    stderr: Vec::new(),
                    exit: 0,
                };
            }
            if let Some(at) = cmd.strip_prefix("input tap ") {
                let (x, y) = at.split_once(' ').unwrap();
                let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
                let (bx, by, bw, bh) = ORDER_BUTTON;
                if x >= bx && x < bx + bw && y >= by && y < by + bh {
                    p.placed = true;
                }
                return ok();
            }
        }
        // DumpCommand: the XML on the terminal, then the trailer (sic).
        // Through an old adbd's `exec:` (no terminal) only the trailer.
        if cmd == "uiautomator dump /dev/tty" {
            if let Some(d) = &dump {
                return d.clone();
            }
            if p.old_adbd {
                return Reply::text("UI hierchary dumped to: /dev/tty\n");
            }
            return Reply::text(&format!("{}UI hierchary dumped to: /dev/tty\n", xml(&p)));
        }
        if cmd == "rm -f /data/local/tmp/cup-window-dump.xml; uiautomator dump /data/local/tmp/cup-window-dump.xml >/dev/null && cat /data/local/tmp/cup-window-dump.xml; rm -f /data/local/tmp/cup-window-dump.xml" {
            return Reply::text(&xml(&p));
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
        // InputMethodManagerService's shell command: `ime list -a -s` lists
        // every installed method's id (without `-a`, the enabled ones).
        if cmd == "ime list -a -s" {
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
        if let Some(ime) = cmd.strip_prefix("ime enable ") {
            return Reply::text(&format!("Input method {ime}: now enabled for user #0\n"));
        }
        // `ime set` returns before the method is bound.
        if let Some(rest) = cmd.strip_prefix("ime set ") {
            p.ime = rest.trim_matches('\'').to_owned();
            p.ime_bound = false;
            p.bind_after = 2;
            return Reply::text(&format!("Input method {} selected for user #0\n", p.ime));
        }
        // InputMethodManagerService.dump's binding line.
        if cmd == "dumpsys input_method" {
            if p.bind_after > 0 {
                p.bind_after -= 1;
            } else {
                p.ime_bound = true;
            }
            return Reply::text(&format!(
                "Current Input Method Manager state:\n  mCurMethodId={}\n  mCurId={} mHaveConnection={} mBoundToMethod={} mVisibleBound=false\n",
                p.ime, p.ime, p.ime_bound, p.ime_bound
            ));
        }
        // `am broadcast` waits for the receivers and prints the same either
        // way; AdbIME.java commits the text only once it is the bound
        // method with a receiver, else it is lost.
        if let Some(b64) = cmd.strip_prefix("am broadcast -a ADB_INPUT_B64 --es msg ") {
            use base64::Engine as _;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.trim_matches('\''))
                .unwrap();
            if p.ime == "com.android.adbkeyboard/.AdbIME" && p.ime_bound {
                p.search.push_str(&String::from_utf8(bytes).unwrap());
            }
            return Reply::text("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n");
        }
        // PackageManagerShellCommand.runQueryIntentActivities with --brief
        // (printResolveInfo: the match line, then the short component).
        if cmd.starts_with("cmd package query-activities --brief") {
            return Reply::text("2 activities found:\n  Activity #0:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    com.android.settings/.Settings\n  Activity #1:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    com.android.chrome/com.google.android.apps.chrome.Main\n");
        }
        // The `monkey` script echoes its arguments; Monkey.java with
        // verbosity 0 then prints the events count and network stats.
        if let Some(rest) = cmd.strip_prefix("monkey -p ") {
            let package = rest.split(' ').next().unwrap_or_default();
            p.front = format!("{package}/{package}.Main");
            return Reply::text(&format!("  bash arg: -p\n  bash arg: {package}\n  bash arg: -c\n  bash arg: android.intent.category.LAUNCHER\n  bash arg: 1\nEvents injected: 1\n## Network stats: elapsed time=31ms (0ms mobile, 0ms wifi, 31ms not connected)\n"));
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

impl Rig {
    /// The tree of every window the adapter lists, captured.
    async fn tree(&self) -> Vec<Node> {
        let windows = self.adapter.windows().await.unwrap();
        let cap = self
            .adapter
            .capture(&windows, &CaptureLimits::default())
            .await
            .unwrap();
        cap.tree
    }
}

async fn rig(features: &str, dump: Option<Reply>) -> Rig {
    rig_with(features, dump, |_| {}).await
}

async fn rig_with(features: &str, dump: Option<Reply>, set: impl FnOnce(&mut Phone)) -> Rig {
    let server = AdbServerProcess::start();
    let mut p = Phone {
        front: "com.android.settings/com.android.settings.Settings".into(),
        ime: "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME".into(),
        ime_bound: true,
        sdk: 34,
        ..Phone::default()
    };
    set(&mut p);
    let phone = Arc::new(Mutex::new(p));
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
    let act = |n: &Node, action: Action, params: ActionParams| {
        let (a, refs) = (&rig.adapter, &refs);
        let (id, native) = (n.id.clone(), refs[&n.id].clone());
        let node = n.clone();
        async move {
            let t = Target {
                id: &id,
                native: &native,
                node: &node,
                window: root,
            };
            a.act(&t, action, &params, refs).await
        }
    };
    let none = ActionParams::default;
    let typed = |v: &str| ActionParams {
        value: Some(v.into()),
        ..ActionParams::default()
    };

    // A tap at the switch's centre, in device pixels; the dump after it
    // shows the switch checked.
    let r = act(&wifi, Action::Toggle, none()).await.unwrap();
    assert!(r.success);
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert_eq!(r.changes[0].target, wifi.id);
    assert_eq!(r.changes[0].after.as_deref(), Some("checked"));
    assert!(rig.was_asked("shell,v2,raw:input tap 540 375"));

    // A long press: held 800 ms at the centre; nothing changes.
    let r = act(&ok, Action::LongPress, none()).await.unwrap();
    assert_eq!(r.effect, Effect::NoChange);
    assert!(rig.was_asked("shell,v2,raw:input swipe 540 2300 540 2300 800"));

    // A scroll: a swipe inside the list, from 75 % to 25 % of it.
    let down = ActionParams {
        direction: Some(Direction::Down),
        ..ActionParams::default()
    };
    act(&list, Action::Scroll, down).await.unwrap();
    assert!(rig.was_asked("shell,v2,raw:input swipe 540 1762 540 887 500"));

    // ASCII through `input text`, spaces as %s; the field shows it.
    let r = act(&search, Action::Type, typed("wi fi")).await.unwrap();
    assert!(rig.was_asked("shell,v2,raw:input text wi%sfi"));
    assert_eq!(r.changes[0].after.as_deref(), Some("wi fi"), "{r:?}");

    // Other characters without ADBKeyBoard: refused, nothing typed.
    let before = rig.device.asked().len();
    let e = act(&search, Action::Type, typed(" café 日本"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("install ADBKeyBoard"), "{e}");
    assert!(!e.to_string().contains('\n'));
    assert!(rig.device.asked()[before..]
        .iter()
        .all(|s| !s.contains("input text")));
    assert_eq!(rig.phone.lock().unwrap().search, "wi fi");

    // With ADBKeyBoard: exact, through its broadcast once it is bound,
    // keyboard restored.
    rig.phone.lock().unwrap().keyboard = true;
    act(&search, Action::Type, typed(" café 日本"))
        .await
        .unwrap();
    {
        let p = rig.phone.lock().unwrap();
        assert_eq!(p.search, "wi fi café 日本");
        assert!(p.ime.ends_with("LatinIME"), "{}", p.ime);
    }
    let asked = rig.device.asked();
    let at = |s: &str| asked.iter().position(|a| a == s).expect(s);
    assert!(
        at("shell,v2,raw:ime set com.android.adbkeyboard/.AdbIME")
            < at("shell,v2,raw:dumpsys input_method")
    );

    // Keys are key events.
    a.press(&cup_protocol::parse_combo("enter").unwrap(), &refs)
        .await
        .unwrap();
    a.press(&cup_protocol::parse_combo("home").unwrap(), &refs)
        .await
        .unwrap();
    a.press(&cup_protocol::parse_combo("ctrl+a").unwrap(), &refs)
        .await
        .unwrap();
    let asked = rig.device.asked();
    assert!(asked.contains(&"shell,v2,raw:input keyevent 66".to_owned()));
    assert!(asked.contains(&"shell,v2,raw:input keyevent 3".to_owned()));
    assert!(asked.contains(&"shell,v2,raw:input keycombination 113 29".to_owned()));

    // Screenshots are screencap's bytes, binary-safe through exec:.
    let shot = a.screenshot(&ShotTarget::Screen).await.unwrap();
    assert_eq!(shot.png, png());
    assert_eq!((shot.width, shot.height), (4, 6));
    let cut = a
        .screenshot(&ShotTarget::Region(Rect::new(1, 2, 2, 3)))
        .await
        .unwrap();
    assert_eq!((cut.width, cut.height, cut.x, cut.y), (2, 3, 1, 2));
    assert!(rig.was_asked("exec:screencap -p"));

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
    assert_eq!(rig.tree().await.len(), 1);
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

/// Android 12 (API 31): `input keycombination` holds no modifier there, so
/// ctrl+a is refused before anything is sent; plain keys still go.
#[tokio::test]
async fn modifiers_are_refused_before_android_13() {
    let rig = rig_with("shell_v2,cmd", None, |p| p.sdk = 31).await;
    let refs = Default::default();
    let e = rig
        .adapter
        .press(&cup_protocol::parse_combo("ctrl+a").unwrap(), &refs)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("Android 13"), "{e}");
    assert!(rig
        .device
        .asked()
        .iter()
        .all(|s| !s.contains("keycombination")));
    rig.adapter
        .press(&cup_protocol::parse_combo("enter").unwrap(), &refs)
        .await
        .unwrap();
    assert!(rig.was_asked("shell,v2,raw:input keyevent 66"));
}

/// Before the first dump, the rotation comes from `dumpsys input`'s
/// viewport (Android 13+ has no `SurfaceOrientation`).
#[tokio::test]
async fn the_rotation_before_a_dump_comes_from_the_input_viewport() {
    let rig = rig_with("shell_v2,cmd", None, |p| p.rotation = 1).await;
    let screen = rig.adapter.screen().await.unwrap();
    assert_eq!((screen.width, screen.height), (2400, 1080));
    assert!(rig.was_asked("shell,v2,raw:dumpsys input"));
}

/// An adbd from before Android 7 runs `exec:` without a terminal, so
/// `/dev/tty` takes no dump: cup dumps to a file instead, from then on.
#[tokio::test]
async fn an_old_adbd_gets_its_dump_through_a_file() {
    let rig = rig_with("", None, |p| {
        p.old_adbd = true;
        p.sdk = 23;
    })
    .await;
    for _ in 0..2 {
        assert_eq!(rig.tree().await.len(), 1);
    }
    let asked = rig.device.asked();
    let tty = asked
        .iter()
        .filter(|s| *s == "exec:uiautomator dump /dev/tty")
        .count();
    assert_eq!(tty, 1, "{asked:?}");
    assert_eq!(
        asked
            .iter()
            .filter(|s| s.starts_with("exec:rm -f /data/local/tmp/cup-window-dump.xml;"))
            .count(),
        2,
        "{asked:?}"
    );
}

impl Rig {
    /// Whether the phone was asked for `service`.
    fn was_asked(&self, service: &str) -> bool {
        self.device.asked().iter().any(|s| s == service)
    }

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
    // goes there) and TMPDIR (its log): private ones, set by a wrapper
    // script.
    let wrapper = home.join("adb");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nHOME='{0}' TMPDIR='{0}' exec adb \"$@\"\n",
            home.display()
        ),
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

/// A Flutter screen without semantics (issue 51): the tree says nothing,
/// so the snapshot reads the screen's text from its pixels (Tesseract, as
/// on the desktop); a click on the button's line is a tap at its centre,
/// and its effect is the text the screen shows after it.
#[tokio::test]
async fn a_screen_without_semantics_is_read_and_tapped_from_its_pixels() {
    let rig = rig_with("shell_v2,cmd,stat_v2", None, |p| {
        p.front = "com.example.shop/com.example.shop.MainActivity".into();
        p.pixels = true;
    })
    .await;
    let mut session = cup::Session::new(Box::new(rig.adapter));
    let snap = session
        .snapshot(&cup::SnapshotRequest::default())
        .await
        .unwrap();
    let text = snap.text.clone();
    let lines: Vec<&Node> = snap
        .envelope
        .nodes()
        .filter(|n| n.is_from_pixels())
        .collect();
    let read: Vec<&str> = lines.iter().map(|n| n.name.as_str()).collect();
    for want in [
        "Your order",
        "Coffee beans, 1 kg: 24.00",
        "Total with delivery: 27.50",
        "Place order",
    ] {
        assert!(
            read.contains(&want),
            "{want:?} not read in {read:?}\n{text}"
        );
    }
    // Reading order, with the screen's coordinates.
    let at = |name: &str| lines.iter().position(|n| n.name == name).unwrap();
    assert!(at("Your order") < at("Place order"));
    let button = lines[at("Place order")];
    let b = button.bounds.unwrap();
    let (bx, by, bw, bh) = ORDER_BUTTON;
    assert!(
        b.x >= bx && b.y >= by && b.right() <= bx + bw && b.bottom() <= by + bh,
        "{b:?}"
    );
    assert!(text.contains("(ocr)"), "{text}");
    assert!(!read.iter().any(|l| l.contains("thank you")), "{read:?}");
    let id = button.id.clone();
    let (cx, cy) = b.center();

    let result = session
        .action(&id, "click", &ActionParams::default())
        .await
        .unwrap();
    let tap = format!("input tap {cx} {cy}");
    assert!(
        rig.device.asked().iter().any(|c| c.ends_with(&tap)),
        "{tap} not in {:?}",
        rig.device.asked()
    );
    assert!(rig.phone.lock().unwrap().placed);
    assert_eq!(result.effect, Effect::Confirmed, "{}", result.message);
    assert!(
        result
            .changes
            .iter()
            .any(|c| c.field == "text"
                && c.after.as_deref().is_some_and(|a| a.contains("thank you"))),
        "{:?}",
        result.changes
    );
    // The next snapshot reads what the screen shows now.
    let after = session
        .snapshot(&cup::SnapshotRequest::default())
        .await
        .unwrap();
    assert!(
        after.text.contains("Order placed: thank you"),
        "{}",
        after.text
    );
}
