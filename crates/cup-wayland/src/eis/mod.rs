//! Input through EIS, libei's protocol (GNOME 45 and later through
//! mutter's or the portal's `ConnectToEIS`, KWin 6.1 and later through the
//! portal), spoken by the pure-Rust `reis` crate over the socket the
//! desktop hands cup.
//!
//! cup is a sender: after the handshake it binds the seat's absolute
//! pointer, button, scroll, keyboard and text capabilities, waits until
//! the server resumes its devices, and then for each gesture starts
//! emulating on the device, sends the events and a frame. Pointer motion
//! is in the layout's logical pixels and must fall in one of the device's
//! regions. Text goes through `ei_text` (libei 1.6: UTF-8 as is, so any
//! script) where the server offers it; else through the keyboard by US
//! keycode, only when the server's keymap is a US one (a keycode means
//! another character on another layout: refused in one line, never typed
//! wrong). Keys of a combo go as keysyms through `ei_text` where offered.
//!
//! A background task reads the server's events (pings, pauses, resumes,
//! disconnection) for as long as cup holds the connection. Every wait is
//! bounded.

use std::os::fd::OwnedFd;
use std::time::Duration;

use enumflags2::BitFlags;
use futures::StreamExt as _;
use reis::ei;
use reis::event::{DeviceCapability, EiEvent};

use super::client::WaylandError;
use super::fakeinput::{button_code, us_key, SHIFT};

/// Longest the handshake and the first devices may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// The capabilities cup binds.
pub fn wanted() -> BitFlags<DeviceCapability> {
    DeviceCapability::PointerAbsolute
        | DeviceCapability::Button
        | DeviceCapability::Scroll
        | DeviceCapability::Keyboard
        | DeviceCapability::Text
}

/// A device's region: where its absolute coordinates are valid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    /// Left, in logical pixels.
    pub x: u32,
    /// Top.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// Whether `(x, y)` lies in one of `regions` (a device without regions
/// takes any point).
pub fn in_regions(regions: &[Region], x: i64, y: i64) -> bool {
    regions.is_empty()
        || regions.iter().any(|r| {
            x >= i64::from(r.x)
                && y >= i64::from(r.y)
                && x < i64::from(r.x) + i64::from(r.width)
                && y < i64::from(r.y) + i64::from(r.height)
        })
}

/// Whether an XKB keymap (its text, as the server sends it) is a US
/// layout: its `xkb_symbols` include `us` with no variant and no second
/// layout. Keycodes then type what cup's US table says.
pub fn keymap_is_us(keymap: &str) -> bool {
    let Some(start) = keymap.find("xkb_symbols") else {
        return false;
    };
    let head = &keymap[start..];
    let line = head.lines().next().unwrap_or_default();
    // `xkb_symbols "pc+us+inet(evdev)"` (as xkbcomp names it), or an
    // `include "pc+us+inet(evdev)"` in its body.
    let names = line
        .split('"')
        .nth(1)
        .map(str::to_owned)
        .or_else(|| {
            head.lines()
                .find(|l| l.trim_start().starts_with("include"))
                .and_then(|l| l.split('"').nth(1))
                .map(str::to_owned)
        })
        .unwrap_or_default();
    let layouts: Vec<&str> = names
        .split('+')
        .filter(|p| {
            let base = p.split(['(', ':']).next().unwrap_or_default();
            !matches!(
                base,
                "pc" | "inet"
                    | "group"
                    | "level3"
                    | "compose"
                    | "ctrl"
                    | "altwin"
                    | "terminate"
                    | ""
            )
        })
        .collect();
    layouts == ["us"]
}

/// The keys (`(code, shift)`) that type `text` by keycode on a US
/// keymap, or the one-line refusal.
///
/// # Errors
///
/// A character the US layout has no key for, or a keymap that is not US.
pub fn keycode_text(text: &str, us: bool) -> Result<Vec<(u32, bool)>, WaylandError> {
    if !us {
        return Err(WaylandError::Unsupported(
            "unsupported: typing through this desktop's EIS keyboard: its keymap is not a US one and it offers no ei_text, so a keycode could type another character; use the element's type or set_value action (AT-SPI, any script)".into(),
        ));
    }
    text.chars()
        .map(|c| {
            us_key(c).ok_or_else(|| {
                WaylandError::Unsupported(format!(
                    "unsupported: typing {c:?} through this desktop's EIS keyboard (it offers no ei_text, and the US layout has no key for it); use the element's type or set_value action, which writes the text through AT-SPI in any script"
                ))
            })
        })
        .collect()
}

fn failed(what: &str, e: impl std::fmt::Display) -> WaylandError {
    WaylandError::Bus(format!("EIS: {what}: {e}"))
}

/// One thing the worker sends.
#[derive(Debug)]
enum Command {
    Motion(i64, i64),
    Button(u32, bool),
    Scroll(i32, i32),
    /// A key by keysym (`ei_text`) or, without it, by US keycode.
    Key(u32, bool),
    /// Text as UTF-8 (`ei_text`).
    Utf8(String),
    /// Keys by keycode, with Shift where the flag says.
    Keycodes(Vec<(u32, bool)>),
}

type Reply = tokio::sync::oneshot::Sender<Result<(), WaylandError>>;

/// An EIS sender connection. The protocol's objects live on a worker
/// thread of their own (they are not `Send`); calls reach it through a
/// channel, each answered.
#[derive(Debug)]
pub struct EisInput {
    commands: tokio::sync::mpsc::UnboundedSender<(Command, Reply)>,
    /// Whether the keyboard's keymap is a US one.
    us_keymap: bool,
    /// Whether a device offers `ei_text`.
    text: bool,
    lock: tokio::sync::Mutex<()>,
}

/// The worker's state: devices and serials as the server tells them.
struct Worker {
    connection: reis::event::Connection,
    devices: Vec<reis::event::Device>,
    resumed: Vec<reis::event::Device>,
    /// Devices cup started emulating on (until paused).
    emulating: Vec<reis::event::Device>,
    sequence: u32,
    last_serial: u32,
    /// Why the server ended the connection.
    gone: Option<String>,
}

/// Microseconds on the monotonic clock (EIS frame times).
fn now_us() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000 + u64::try_from(t.tv_nsec).unwrap_or(0) / 1000
}

impl Worker {
    /// Applies one server event.
    fn apply(&mut self, event: EiEvent) {
        match event {
            EiEvent::SeatAdded(e) => {
                e.seat.bind_capabilities(wanted());
                let _ = self.connection.flush();
            }
            EiEvent::DeviceAdded(e) => self.devices.push(e.device),
            EiEvent::DeviceRemoved(e) => {
                self.devices.retain(|d| d != &e.device);
                self.resumed.retain(|d| d != &e.device);
                self.emulating.retain(|d| d != &e.device);
            }
            EiEvent::DeviceResumed(e) => {
                self.last_serial = e.serial;
                if !self.resumed.contains(&e.device) {
                    self.resumed.push(e.device);
                }
            }
            EiEvent::DevicePaused(e) => {
                self.last_serial = e.serial;
                self.resumed.retain(|d| d != &e.device);
                self.emulating.retain(|d| d != &e.device);
            }
            EiEvent::Disconnected(e) => {
                self.gone = Some(format!(
                    "the desktop ended cup's EIS connection ({:?}{})",
                    e.reason,
                    e.explanation.map(|x| format!(": {x}")).unwrap_or_default()
                ));
            }
            _ => {}
        }
    }

    fn has(&self, capability: DeviceCapability) -> bool {
        self.resumed.iter().any(|d| d.has_capability(capability))
    }

    fn us_keymap(&self) -> bool {
        self.devices
            .iter()
            .find_map(|d| d.keymap())
            .and_then(|k| {
                // From the start, whatever the shared offset (the server
                // may have written it through the same description).
                use std::os::unix::fs::FileExt as _;
                let file = std::fs::File::from(k.fd.try_clone().ok()?);
                let mut bytes = vec![0u8; usize::try_from(k.size).ok()?.min(1 << 20)];
                let mut read = 0;
                while read < bytes.len() {
                    match file.read_at(&mut bytes[read..], read as u64) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => read += n,
                    }
                }
                bytes.truncate(read);
                Some(keymap_is_us(&String::from_utf8_lossy(&bytes)))
            })
            .unwrap_or(false)
    }

    /// Runs `send` on the resumed device with `capability` (started
    /// emulating on first use), then frames and flushes.
    fn on_device(
        &mut self,
        capability: DeviceCapability,
        what: &str,
        send: impl FnOnce(&reis::event::Device) -> Result<(), WaylandError>,
    ) -> Result<(), WaylandError> {
        if let Some(gone) = &self.gone {
            return Err(WaylandError::Unsupported(format!("unsupported: {gone}")));
        }
        let device = self
            .resumed
            .iter()
            .find(|d| d.has_capability(capability))
            .cloned()
            .ok_or_else(|| {
                WaylandError::Unsupported(format!(
                    "unsupported: {what} through this desktop's EIS server: it has no resumed device with {capability:?}"
                ))
            })?;
        let serial = self.last_serial;
        if !self.emulating.contains(&device) {
            self.sequence += 1;
            device.device().start_emulating(serial, self.sequence);
            self.emulating.push(device.clone());
        }
        send(&device)?;
        device.device().frame(serial, now_us());
        self.connection.flush().map_err(|e| failed(what, e))
    }

    fn run(&mut self, command: Command) -> Result<(), WaylandError> {
        match command {
            Command::Motion(x, y) => self.on_device(
                DeviceCapability::PointerAbsolute,
                "moving the pointer",
                |d| {
                    let regions: Vec<Region> = d
                        .regions()
                        .iter()
                        .map(|r| Region {
                            x: r.x,
                            y: r.y,
                            width: r.width,
                            height: r.height,
                        })
                        .collect();
                    if !in_regions(&regions, x, y) {
                        return Err(WaylandError::Invalid(format!(
                            "{x},{y} is in no region of the desktop's EIS pointer"
                        )));
                    }
                    let pointer = d
                        .interface::<ei::PointerAbsolute>()
                        .ok_or_else(|| failed("moving the pointer", "no ei_pointer_absolute"))?;
                    pointer.motion_absolute(x as f32, y as f32);
                    Ok(())
                },
            ),
            Command::Button(code, down) => {
                self.on_device(DeviceCapability::Button, "pressing a button", |d| {
                    let button = d
                        .interface::<ei::Button>()
                        .ok_or_else(|| failed("pressing a button", "no ei_button"))?;
                    button.button(
                        code,
                        if down {
                            ei::button::ButtonState::Press
                        } else {
                            ei::button::ButtonState::Released
                        },
                    );
                    Ok(())
                })
            }
            Command::Scroll(dx, dy) => self.on_device(DeviceCapability::Scroll, "scrolling", |d| {
                let scroll = d
                    .interface::<ei::Scroll>()
                    .ok_or_else(|| failed("scrolling", "no ei_scroll"))?;
                scroll.scroll_discrete(dx.saturating_mul(120), dy.saturating_mul(120));
                Ok(())
            }),
            Command::Key(keysym, down) => {
                let state = key_state(down);
                if self.has(DeviceCapability::Text) {
                    return self.on_device(DeviceCapability::Text, "pressing a key", |d| {
                        let text = d
                            .interface::<ei::Text>()
                            .ok_or_else(|| failed("pressing a key", "no ei_text"))?;
                        text.keysym(keysym, state);
                        Ok(())
                    });
                }
                keycode_text("", self.us_keymap())?;
                let code = super::device::us_keycode(keysym, "this desktop's EIS keyboard")?;
                self.on_device(DeviceCapability::Keyboard, "pressing a key", |d| {
                    let keyboard = d
                        .interface::<ei::Keyboard>()
                        .ok_or_else(|| failed("pressing a key", "no ei_keyboard"))?;
                    keyboard.key(code, state);
                    Ok(())
                })
            }
            Command::Utf8(text) => self.on_device(DeviceCapability::Text, "typing", |d| {
                let t = d
                    .interface::<ei::Text>()
                    .ok_or_else(|| failed("typing", "no ei_text"))?;
                t.utf8(&text);
                Ok(())
            }),
            Command::Keycodes(keys) => self.on_device(DeviceCapability::Keyboard, "typing", |d| {
                let keyboard = d
                    .interface::<ei::Keyboard>()
                    .ok_or_else(|| failed("typing", "no ei_keyboard"))?;
                for (code, shift) in keys {
                    if shift {
                        keyboard.key(SHIFT, key_state(true));
                    }
                    keyboard.key(code, key_state(true));
                    keyboard.key(code, key_state(false));
                    if shift {
                        keyboard.key(SHIFT, key_state(false));
                    }
                }
                Ok(())
            }),
        }
    }
}

fn key_state(down: bool) -> ei::keyboard::KeyState {
    if down {
        ei::keyboard::KeyState::Press
    } else {
        ei::keyboard::KeyState::Released
    }
}

/// What the worker found once the devices were there.
struct Ready {
    us_keymap: bool,
    text: bool,
}

/// The worker thread's life: the handshake, the devices, then events and
/// commands until cup drops its end or the server goes.
async fn work(
    socket: OwnedFd,
    ready: tokio::sync::oneshot::Sender<Result<Ready, WaylandError>>,
    mut commands: tokio::sync::mpsc::UnboundedReceiver<(Command, Reply)>,
) {
    let started = async {
        let stream = std::os::unix::net::UnixStream::from(socket);
        let context = ei::Context::new(stream).map_err(|e| failed("the socket", e))?;
        let (connection, events) = tokio::time::timeout(
            TIMEOUT,
            context.handshake_tokio("cup", ei::handshake::ContextType::Sender),
        )
        .await
        .map_err(|_| failed("the handshake", "no answer within 2 s"))?
        .map_err(|e| failed("the handshake", e))?;
        Ok::<_, WaylandError>((connection, events))
    }
    .await;
    let (connection, mut events) = match started {
        Ok(v) => v,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let mut worker = Worker {
        connection,
        devices: Vec::new(),
        resumed: Vec::new(),
        emulating: Vec::new(),
        sequence: 0,
        last_serial: 0,
        gone: None,
    };
    // Until a device with a pointer or keys is resumed (and a moment for
    // the devices announced with it).
    let until = tokio::time::Instant::now() + TIMEOUT;
    let mut settle: Option<tokio::time::Instant> = None;
    loop {
        if let Some(gone) = &worker.gone {
            let _ = ready.send(Err(WaylandError::Unsupported(format!(
                "unsupported: {gone}"
            ))));
            return;
        }
        let usable = worker.has(DeviceCapability::PointerAbsolute)
            || worker.has(DeviceCapability::Keyboard)
            || worker.has(DeviceCapability::Text);
        if usable && settle.is_none() {
            settle = Some(tokio::time::Instant::now() + Duration::from_millis(50));
        }
        let deadline = settle.unwrap_or(until);
        match tokio::time::timeout_at(deadline, events.next()).await {
            Ok(Some(Ok(event))) => worker.apply(event),
            Ok(Some(Err(e))) => {
                let _ = ready.send(Err(failed("reading its events", e)));
                return;
            }
            Ok(None) => {
                let _ = ready.send(Err(failed(
                    "reading its events",
                    "the desktop closed the connection",
                )));
                return;
            }
            Err(_) if settle.is_some() => break,
            Err(_) => {
                let _ = ready.send(Err(WaylandError::Unsupported(
                    "unsupported: the desktop's EIS server offered no pointer or keyboard within 2 s"
                        .into(),
                )));
                return;
            }
        }
    }
    let found = Ready {
        us_keymap: worker.us_keymap(),
        text: worker.has(DeviceCapability::Text),
    };
    if ready.send(Ok(found)).is_err() {
        return;
    }
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some((command, reply)) => {
                    let _ = reply.send(worker.run(command));
                }
                None => return,
            },
            event = events.next() => match event {
                Some(Ok(e)) => worker.apply(e),
                Some(Err(e)) => {
                    worker.gone = Some(format!("reading its events failed: {e}"));
                }
                None => {
                    if worker.gone.is_none() {
                        worker.gone = Some("the desktop closed cup's EIS connection".into());
                    }
                    // Answer what comes with why, until cup drops its end.
                    while let Some((_, reply)) = commands.recv().await {
                        let gone = worker.gone.clone().unwrap_or_default();
                        let _ = reply.send(Err(WaylandError::Unsupported(format!("unsupported: {gone}"))));
                    }
                    return;
                }
            },
        }
    }
}

impl EisInput {
    /// Speaks EIS on `socket` (from `ConnectToEIS`): the handshake, the
    /// seat's capabilities bound, and at least one resumed device with an
    /// absolute pointer or keys, all within [`TIMEOUT`].
    pub async fn connect(socket: OwnedFd) -> Result<EisInput, WaylandError> {
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("cup-eis".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = ready_tx.send(Err(failed("its worker", e)));
                        return;
                    }
                };
                runtime.block_on(work(socket, ready_tx, rx));
            })
            .map_err(|e| failed("starting its worker", e))?;
        let ready = tokio::time::timeout(TIMEOUT * 2, ready_rx)
            .await
            .map_err(|_| failed("the start", "no devices within 4 s"))?
            .map_err(|_| failed("the start", "its worker ended"))??;
        Ok(EisInput {
            commands: tx,
            us_keymap: ready.us_keymap,
            text: ready.text,
            lock: tokio::sync::Mutex::new(()),
        })
    }

    /// Whether a device offers `ei_text` (any script typed as is).
    #[cfg(test)]
    pub fn has_text(&self) -> bool {
        self.text
    }

    async fn send(&self, command: Command) -> Result<(), WaylandError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.commands
            .send((command, tx))
            .map_err(|_| failed("sending", "its worker ended"))?;
        tokio::time::timeout(TIMEOUT, rx)
            .await
            .map_err(|_| failed("sending", "no answer within 2 s"))?
            .map_err(|_| failed("sending", "its worker ended"))?
    }

    /// Moves the pointer to `(x, y)` on the screen.
    pub async fn move_to(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        self.send(Command::Motion(x, y)).await
    }

    /// Presses (`down`) or releases `button` at `(x, y)`.
    pub async fn button(&self, x: i64, y: i64, button: u8, down: bool) -> Result<(), WaylandError> {
        let code = button_code(button)?;
        let _one = self.lock.lock().await;
        self.send(Command::Motion(x, y)).await?;
        tokio::time::sleep(super::mutter::POINTER_SETTLE).await;
        self.send(Command::Button(code, down)).await
    }

    /// Clicks `button` `count` times at `(x, y)`.
    pub async fn click(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), WaylandError> {
        if !(1..=3).contains(&count) {
            return Err(WaylandError::Invalid(format!(
                "a click count of {count} is not 1, 2 or 3"
            )));
        }
        let code = button_code(button)?;
        let _one = self.lock.lock().await;
        self.send(Command::Motion(x, y)).await?;
        tokio::time::sleep(super::mutter::POINTER_SETTLE).await;
        for _ in 0..count {
            self.send(Command::Button(code, true)).await?;
            self.send(Command::Button(code, false)).await?;
        }
        Ok(())
    }

    /// Turns the wheel at `(x, y)` by `dx`, `dy` notches (positive: right,
    /// down); 120 units a notch, as EIS counts them.
    pub async fn scroll(&self, x: i64, y: i64, dx: i32, dy: i32) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        self.send(Command::Motion(x, y)).await?;
        tokio::time::sleep(super::mutter::POINTER_SETTLE).await;
        self.send(Command::Scroll(dx, dy)).await
    }

    /// Presses `keysyms` in order and releases them in reverse; every key
    /// that went down goes up.
    pub async fn keys(&self, keysyms: &[u32]) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        let mut down = Vec::new();
        let mut result = Ok(());
        for &k in keysyms {
            result = self.send(Command::Key(k, true)).await;
            if result.is_err() {
                break;
            }
            down.push(k);
        }
        for &k in down.iter().rev() {
            result = result.and(self.send(Command::Key(k, false)).await);
        }
        result
    }

    /// Presses (`down`) or releases `keysyms`.
    pub async fn hold(&self, keysyms: &[u32], down: bool) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        if down {
            for &k in keysyms {
                self.send(Command::Key(k, true)).await?;
            }
            Ok(())
        } else {
            let mut result = Ok(());
            for &k in keysyms.iter().rev() {
                result = result.and(self.send(Command::Key(k, false)).await);
            }
            result
        }
    }

    /// Types `text`: as UTF-8 through `ei_text` where offered (any
    /// script), else by US keycode (see [`keycode_text`]).
    pub async fn type_text(&self, text: &str) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        if self.text {
            return self.send(Command::Utf8(text.to_owned())).await;
        }
        let keys = keycode_text(text, self.us_keymap)?;
        self.send(Command::Keycodes(keys)).await
    }
}

#[cfg(test)]
mod tests;
