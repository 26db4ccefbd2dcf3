use super::*;

#[test]
fn regions_bound_the_pointer() {
    let r = [Region {
        x: 0,
        y: 0,
        width: 1280,
        height: 800,
    }];
    assert!(in_regions(&r, 0, 0));
    assert!(in_regions(&r, 1279, 799));
    assert!(!in_regions(&r, 1280, 10));
    assert!(!in_regions(&r, -1, 10));
    assert!(in_regions(&[], 5000, 5000));
}

#[test]
fn us_keymaps_are_told_from_others() {
    assert!(keymap_is_us(
        "xkb_keymap {\nxkb_keycodes \"evdev+aliases(qwerty)\" {};\nxkb_symbols \"pc+us+inet(evdev)\" {\n};\n};"
    ));
    assert!(!keymap_is_us(
        "xkb_keymap {\nxkb_symbols \"pc+de+inet(evdev)\" {\n};\n};"
    ));
    assert!(!keymap_is_us(
        "xkb_keymap {\nxkb_symbols \"pc+us+ru:2+inet(evdev)\" {\n};\n};"
    ));
    assert!(keymap_is_us(
        "xkb_keymap {\nxkb_symbols {\n include \"pc+us+inet(evdev)\"\n};\n};"
    ));
    assert!(!keymap_is_us("nothing"));
    assert_eq!(
        keycode_text("Hi", true).ok(),
        Some(vec![(35, true), (23, false)])
    );
    assert!(keycode_text("é", true).is_err());
    assert!(keycode_text("a", false)
        .expect_err("not US")
        .to_string()
        .contains("not a US one"));
}

/// A scripted EIS server of the test's own (reis's server side) on one
/// end of a socket pair: no compositor with EIS runs here (libei is
/// not in Debian 12; GNOME 45+ and Plasma 6.1+ are not either). It
/// speaks the protocol as its definition says a compositor does: the
/// handshake, a seat with the capabilities `caps`, on bind an absolute
/// pointer (region 0,0 1280x800, with buttons and scroll), a keyboard
/// with `keymap` and, when offered, a text device, all resumed; and
/// it writes down every request cup sends.
fn serve(
    socket: std::os::unix::net::UnixStream,
    caps: BitFlags<DeviceCapability>,
    keymap: &'static str,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    use reis::eis;
    use reis::request::{EisRequest, EisRequestConverter};
    let Ok(context) = eis::Context::new(socket) else {
        return;
    };
    let mut handshaker = reis::handshake::EisHandshaker::new(&context, 0);
    let mut converter: Option<EisRequestConverter> = None;
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let note = |line: String| log.lock().expect("log").push(line);
    while std::time::Instant::now() < until {
        match context.read() {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(_) => return,
        }
        while let Some(result) = context.pending_request() {
            let reis::PendingRequestResult::Request(request) = result else {
                continue;
            };
            match &mut converter {
                None => {
                    if let Ok(Some(resp)) = handshaker.handle_request(request) {
                        note(format!("handshake {:?}", resp.name));
                        let c = EisRequestConverter::new(&context, resp, 1);
                        let _seat = c.handle().add_seat(Some("seat0"), caps);
                        converter = Some(c);
                    }
                }
                Some(c) => {
                    let _ = c.handle_request(request);
                    while let Some(r) = c.next_request() {
                        match r {
                            EisRequest::Bind(b) => {
                                note(format!("bind {:?}", b.capabilities));
                                let pointer = b.seat.add_device(
                                    Some("pointer"),
                                    eis::device::DeviceType::Virtual,
                                    DeviceCapability::PointerAbsolute
                                        | DeviceCapability::Button
                                        | DeviceCapability::Scroll,
                                    |d| d.device().region(0, 0, 1280, 800, 1.0),
                                );
                                pointer.resumed();
                                let keyboard = b.seat.add_device(
                                    Some("keyboard"),
                                    eis::device::DeviceType::Virtual,
                                    DeviceCapability::Keyboard.into(),
                                    |d| {
                                        let Some(k) = d.interface::<eis::Keyboard>() else {
                                            return;
                                        };
                                        let Ok(fd) = rustix::fs::memfd_create(
                                            "keymap",
                                            rustix::fs::MemfdFlags::CLOEXEC,
                                        ) else {
                                            return;
                                        };
                                        let _ = rustix::io::write(&fd, keymap.as_bytes());
                                        k.keymap(
                                            eis::keyboard::KeymapType::Xkb,
                                            u32::try_from(keymap.len()).unwrap_or(0),
                                            std::os::fd::AsFd::as_fd(&fd),
                                        );
                                    },
                                );
                                keyboard.resumed();
                                if caps.contains(DeviceCapability::Text) {
                                    let text = b.seat.add_device(
                                        Some("text"),
                                        eis::device::DeviceType::Virtual,
                                        DeviceCapability::Text.into(),
                                        |_| {},
                                    );
                                    text.resumed();
                                }
                            }
                            EisRequest::DeviceStartEmulating(e) => {
                                note(format!("start {:?}", e.device.name()));
                            }
                            EisRequest::PointerMotionAbsolute(e) => {
                                note(format!("motion {} {}", e.dx_absolute, e.dy_absolute));
                            }
                            EisRequest::Button(e) => {
                                note(format!("button {:#x} {:?}", e.button, e.state));
                            }
                            EisRequest::ScrollDiscrete(e) => {
                                note(format!("scroll {} {}", e.discrete_dx, e.discrete_dy));
                            }
                            EisRequest::KeyboardKey(e) => {
                                note(format!("key {} {:?}", e.key, e.state));
                            }
                            EisRequest::TextKeysym(e) => {
                                note(format!("keysym {:#x} {:?}", e.keysym, e.state));
                            }
                            EisRequest::TextUtf8(e) => note(format!("utf8 {}", e.text)),
                            EisRequest::Frame(_) => note("frame".into()),
                            EisRequest::Disconnect => return,
                            _ => {}
                        }
                    }
                }
            }
        }
        let _ = context.flush();
    }
}

const US: &str = "xkb_keymap {\nxkb_keycodes \"evdev+aliases(qwerty)\" {};\nxkb_types \"complete\" {};\nxkb_compat \"complete\" {};\nxkb_symbols \"pc+us+inet(evdev)\" {};\n};\n";
const DE: &str = "xkb_keymap {\nxkb_symbols \"pc+de+inet(evdev)\" {};\n};\n";

/// cup against the scripted server; the server's notes once `act`
/// ran.
fn exchange<F>(caps: BitFlags<DeviceCapability>, keymap: &'static str, act: F) -> Vec<String>
where
    F: for<'a> FnOnce(
        &'a EisInput,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'a>>,
{
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().expect("a socket pair");
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let server = {
        let log = std::sync::Arc::clone(&log);
        std::thread::spawn(move || serve(theirs, caps, keymap, log))
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let input = EisInput::connect(OwnedFd::from(ours))
            .await
            .expect("connected");
        act(&input).await;
        // Let the server read the last frames.
        tokio::time::sleep(Duration::from_millis(100)).await;
        drop(input);
    });
    let _ = server.join();
    let notes = log.lock().expect("log").clone();
    notes
}

#[test]
fn eis_click_scroll_and_text_go_out_as_the_protocol_says() {
    let notes = exchange(BitFlags::all(), US, |input| {
        Box::pin(async move {
            assert!(input.has_text());
            input.click(100, 200, 1, 1).await.expect("click");
            input.scroll(10, 10, 0, 2).await.expect("scroll");
            input.type_text("héllo ✓ 日本 👍🏽 שלום").await.expect("text");
            input.keys(&[0xffe3, 0x61]).await.expect("ctrl+a");
            let outside = input.move_to(1280, 10).await.expect_err("outside");
            assert!(outside.to_string().contains("no region"), "{outside}");
        })
    });
    let joined = notes.join("\n");
    assert!(notes[0].starts_with("handshake Some(\"cup\")"), "{joined}");
    assert!(notes[1].starts_with("bind"), "{joined}");
    let want = [
        "motion 100 200",
        "frame",
        "button 0x110 Press",
        "frame",
        "button 0x110 Released",
        "frame",
        "motion 10 10",
        "frame",
        "scroll 0 240",
        "frame",
        "utf8 héllo ✓ 日本 👍🏽 שלום",
        "frame",
        "keysym 0xffe3 Press",
        "frame",
        "keysym 0x61 Press",
        "frame",
        "keysym 0x61 Released",
        "frame",
        "keysym 0xffe3 Released",
        "frame",
    ];
    let sent: Vec<&str> = notes
        .iter()
        .map(String::as_str)
        .filter(|n| {
            !n.starts_with("start") && !n.starts_with("handshake") && !n.starts_with("bind")
        })
        .collect();
    assert_eq!(sent, want, "{joined}");
    // Each device is started once before its first event.
    assert_eq!(
        notes.iter().filter(|n| n.starts_with("start")).count(),
        2,
        "{joined}"
    );
}

#[test]
fn eis_without_text_types_ascii_by_us_keycode_and_refuses_the_rest() {
    let caps = wanted() & !BitFlags::from(DeviceCapability::Text);
    let notes = exchange(caps, US, |input| {
        Box::pin(async move {
            assert!(!input.has_text());
            input.type_text("Hi").await.expect("ascii");
            let refused = input.type_text("é").await.expect_err("é");
            assert!(refused.to_string().starts_with("unsupported: typing 'é'"));
        })
    });
    let keys: Vec<&str> = notes
        .iter()
        .map(String::as_str)
        .filter(|n| n.starts_with("key "))
        .collect();
    assert_eq!(
        keys,
        [
            "key 42 Press",
            "key 35 Press",
            "key 35 Released",
            "key 42 Released",
            "key 23 Press",
            "key 23 Released"
        ]
    );
    // A German keymap without ei_text: nothing typed by keycode.
    let notes = exchange(caps, DE, |input| {
        Box::pin(async move {
            let refused = input.type_text("z").await.expect_err("not US");
            assert!(refused.to_string().contains("not a US one"), "{refused}");
        })
    });
    assert!(!notes.iter().any(|n| n.starts_with("key ")), "{notes:?}");
}
