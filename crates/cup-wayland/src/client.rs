//! The Wayland protocol client of the Wayland backend: one connection to a
//! compositor by the absolute path of its socket, the registry's globals,
//! and the outputs with their logical place in the layout (`xdg-output`).
//!
//! The client is the pure-Rust `wayland-client` backend (no libwayland).
//! A [`Client`] is blocking: the async front ends ([`super::vinput`],
//! [`super::screencopy`]) run it on a blocking thread. Every wait for the
//! compositor (a roundtrip, a captured frame) is bounded by a deadline
//! ([`DEFAULT_TIMEOUT`] unless told otherwise): the socket is polled with
//! a timeout, so a hung compositor gives [`WaylandError::Timeout`], never
//! a hang.

use std::os::fd::BorrowedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};
use wayland_client::backend::WaylandError as BackendError;
use wayland_client::protocol::{wl_callback, wl_output, wl_registry, wl_seat, wl_shm};
use wayland_client::{Connection, Dispatch, EventQueue, Proxy, QueueHandle, WEnum};
use wayland_protocols::xdg::xdg_output::zv1::client::{zxdg_output_manager_v1, zxdg_output_v1};

/// How long one wait for the compositor may take unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a new connection's first waits (the globals, the outputs) may
/// take at the least, once. KWin rendering in software beside a busy app
/// has taken over 2 s to answer a new client (1 time in 6 in the KDE
/// test), and every `cup` command is a new client.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why talking to the Wayland compositor failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WaylandError {
    /// The socket could not be connected to.
    #[error(
        "cannot connect to the Wayland socket {}: {source} (is the compositor running, \
         and is the socket path right?)",
        path.display()
    )]
    Connect {
        /// The socket's path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The compositor did not answer in time.
    #[error(
        "the Wayland compositor did not answer within {} ms while {what} \
         (it may be hung or overloaded: retry, or restart it)",
        timeout.as_millis()
    )]
    Timeout {
        /// What was waited for.
        what: String,
        /// The deadline that passed.
        timeout: Duration,
    },
    /// The connection broke: the compositor closed it or reported a
    /// protocol error.
    #[error("the Wayland connection failed while {what}: {detail} (reconnect to retry)")]
    Connection {
        /// What was being done.
        what: String,
        /// The backend's error.
        detail: String,
    },
    /// The compositor lacks a protocol or feature (see [`unsupported`]).
    #[error("{0}")]
    Unsupported(String),
    /// The request cannot be carried out as asked (a point outside every
    /// output, an unknown button, a character without a keysym).
    #[error("{0}")]
    Invalid(String),
    /// A compositor's D-Bus service (mutter's RemoteDesktop) failed or did
    /// not answer in time; the text says which call.
    #[error("{0}")]
    Bus(String),
    /// A screen capture failed.
    #[error("screen capture failed: {0}")]
    Capture(String),
    /// A local file or memory operation failed.
    #[error("{what} failed: {source} (check free memory and file descriptors)")]
    Io {
        /// The operation.
        what: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// The blocking worker thread ended abnormally.
    #[error("the Wayland worker thread failed: {0} (retry; report it if it persists)")]
    Worker(String),
}

/// The error for a protocol or feature the compositor does not offer:
/// `unsupported: {what} (compositor offers: a, b, c)`.
pub fn unsupported(what: &str, globals: &Globals) -> WaylandError {
    WaylandError::Unsupported(format!(
        "unsupported: {what} (compositor offers: {})",
        globals.names().join(", ")
    ))
}

/// One global of the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Global {
    /// The registry's numeric name of the global.
    pub name: u32,
    /// The interface (`wl_output`, `zwlr_screencopy_manager_v1`, ...).
    pub interface: String,
    /// The highest version the compositor offers.
    pub version: u32,
}

/// The globals a compositor offers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Globals {
    /// Every global, in the order the registry announced them.
    pub list: Vec<Global>,
}

impl Globals {
    /// Whether the compositor offers `interface`.
    pub fn has(&self, interface: &str) -> bool {
        self.list.iter().any(|g| g.interface == interface)
    }

    /// The highest version of `interface` on offer.
    #[cfg(test)]
    pub fn version(&self, interface: &str) -> Option<u32> {
        self.list
            .iter()
            .filter(|g| g.interface == interface)
            .map(|g| g.version)
            .max()
    }

    /// The interfaces on offer, sorted, each once.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.list.iter().map(|g| g.interface.clone()).collect();
        names.sort();
        names.dedup();
        names
    }
}

/// An output (monitor) and its place in the compositor's layout.
#[derive(Debug, Clone)]
pub struct Output {
    /// The connector name (`HEADLESS-1`, `eDP-1`); empty when the
    /// compositor names none.
    pub name: String,
    /// Left edge in the global layout, in logical pixels.
    pub x: i32,
    /// Top edge in the global layout, in logical pixels.
    pub y: i32,
    /// Width in logical pixels.
    pub width: i32,
    /// Height in logical pixels.
    pub height: i32,
    /// The integer scale (`wl_output.scale`): buffer pixels per logical
    /// pixel, rounded up for fractional scales.
    pub scale: i32,
    /// The `wl_output.transform` of the output (0 normal, 1–3 rotated by
    /// 90°, 180°, 270° counter-clockwise, 4–7 the same after a flip).
    pub transform: u32,
    /// Its `wl_output`.
    pub(crate) proxy: wl_output::WlOutput,
}

impl Output {
    /// The output's logical rectangle `(x, y, width, height)` in the
    /// layout.
    pub fn rect(&self) -> LayoutRect {
        (
            i64::from(self.x),
            i64::from(self.y),
            i64::from(self.width),
            i64::from(self.height),
        )
    }
}

/// A rectangle `(x, y, width, height)` in layout pixels.
pub type LayoutRect = (i64, i64, i64, i64);

/// The bounding box of the outputs' logical rectangles, or `None` without
/// outputs of any size.
pub fn layout_box(outputs: &[Output]) -> Option<LayoutRect> {
    bounding_box(outputs.iter().map(Output::rect))
}

/// The bounding box of the non-empty rectangles among `rects`.
pub fn bounding_box(rects: impl IntoIterator<Item = LayoutRect>) -> Option<LayoutRect> {
    let mut rects = rects.into_iter().filter(|&(_, _, w, h)| w > 0 && h > 0);
    let (mut x0, mut y0, w, h) = rects.next()?;
    let (mut x1, mut y1) = (x0 + w, y0 + h);
    for (x, y, w, h) in rects {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x + w);
        y1 = y1.max(y + h);
    }
    Some((x0, y0, x1 - x0, y1 - y0))
}

/// The intersection of two rectangles, if not empty.
pub fn intersect(a: LayoutRect, b: LayoutRect) -> Option<LayoutRect> {
    let x0 = a.0.max(b.0);
    let y0 = a.1.max(b.1);
    let x1 = (a.0 + a.2).min(b.0 + b.2);
    let y1 = (a.1 + a.3).min(b.1 + b.3);
    (x1 > x0 && y1 > y0).then_some((x0, y0, x1 - x0, y1 - y0))
}

/// What the client knows of one `wl_output` (events arrive piecemeal).
#[derive(Debug)]
struct OutputState {
    global: u32,
    proxy: wl_output::WlOutput,
    xdg: Option<zxdg_output_v1::ZxdgOutputV1>,
    wl_name: Option<String>,
    xdg_name: Option<String>,
    geometry: (i32, i32),
    mode: (i32, i32),
    scale: i32,
    transform: u32,
    logical_position: Option<(i32, i32)>,
    logical_size: Option<(i32, i32)>,
}

impl OutputState {
    /// The output, once its size is known. Without `xdg-output` the
    /// logical size is derived from the current mode, scale and transform.
    fn output(&self) -> Option<Output> {
        let (x, y) = self.logical_position.unwrap_or(self.geometry);
        let (width, height) = match self.logical_size {
            Some(size) => size,
            None => {
                let scale = self.scale.max(1);
                let (w, h) = (self.mode.0 / scale, self.mode.1 / scale);
                if self.transform % 2 == 1 {
                    (h, w)
                } else {
                    (w, h)
                }
            }
        };
        (width > 0 && height > 0).then(|| Output {
            name: self
                .xdg_name
                .clone()
                .or_else(|| self.wl_name.clone())
                .unwrap_or_default(),
            x,
            y,
            width,
            height,
            scale: self.scale.max(1),
            transform: self.transform,
            proxy: self.proxy.clone(),
        })
    }
}

/// The event-dispatch state of a [`Client`].
#[derive(Debug, Default)]
pub struct State {
    globals: Globals,
    outputs: Vec<OutputState>,
    xdg_manager: Option<zxdg_output_manager_v1::ZxdgOutputManagerV1>,
    /// The highest `wl_display.sync` serial answered.
    synced: u64,
    /// The capabilities of the bound `wl_seat` (`wl_seat.capability` bits),
    /// once announced.
    seat_capabilities: Option<u32>,
}

impl State {
    /// Asks for the `xdg-output` of an output, when the manager is bound.
    fn add_xdg_output(&mut self, index: usize, qh: &QueueHandle<State>) {
        let (Some(manager), Some(out)) = (&self.xdg_manager, self.outputs.get_mut(index)) else {
            return;
        };
        if out.xdg.is_none() {
            out.xdg = Some(manager.get_xdg_output(&out.proxy, qh, out.global));
        }
    }

    /// The capabilities of the bound `wl_seat` (`wl_seat.capability`
    /// bits: 1 pointer, 2 keyboard, 4 touch), once announced.
    pub(crate) fn seat_capabilities(&self) -> Option<u32> {
        self.seat_capabilities
    }

    fn output_mut(&mut self, global: u32) -> Option<&mut OutputState> {
        self.outputs.iter_mut().find(|o| o.global == global)
    }
}

/// A blocking connection to a compositor.
#[derive(Debug)]
pub struct Client {
    conn: Connection,
    queue: EventQueue<State>,
    qh: QueueHandle<State>,
    registry: wl_registry::WlRegistry,
    state: State,
    timeout: Duration,
    next_sync: u64,
}

impl Client {
    /// Connects to the compositor listening on `socket` (an absolute path),
    /// reads its globals and outputs. Those waits are bounded by
    /// [`CONNECT_TIMEOUT`] (or `timeout` if longer), every later one by
    /// `timeout`.
    pub fn connect(socket: &Path, timeout: Duration) -> Result<Client, WaylandError> {
        let connect_err = |source| WaylandError::Connect {
            path: socket.to_path_buf(),
            source,
        };
        let stream = UnixStream::connect(socket).map_err(connect_err)?;
        let conn = Connection::from_socket(stream)
            .map_err(|e| connect_err(std::io::Error::other(e.to_string())))?;
        let queue = conn.new_event_queue();
        let qh = queue.handle();
        let registry = conn.display().get_registry(&qh, ());
        let mut client = Client {
            conn,
            queue,
            qh,
            registry,
            state: State::default(),
            timeout: timeout.max(CONNECT_TIMEOUT),
            next_sync: 0,
        };
        client.roundtrip("listing the globals")?;
        if client
            .state
            .globals
            .has(zxdg_output_manager_v1::ZxdgOutputManagerV1::interface().name)
        {
            let manager: zxdg_output_manager_v1::ZxdgOutputManagerV1 = client.bind(3)?;
            client.state.xdg_manager = Some(manager);
            for i in 0..client.state.outputs.len() {
                client.state.add_xdg_output(i, &client.qh);
            }
        }
        client.roundtrip("reading the outputs")?;
        client.timeout = timeout;
        Ok(client)
    }

    /// Whether the compositor's seat has a keyboard now (`wl_seat`'s
    /// keyboard capability). A headless GNOME has none until a
    /// remote-desktop session makes one.
    pub fn seat_has_keyboard(mut self) -> Result<bool, WaylandError> {
        if !self.state.globals.has(wl_seat::WlSeat::interface().name) {
            return Err(unsupported("wl_seat (seat)", &self.state.globals));
        }
        let _seat: wl_seat::WlSeat = self.bind(1)?;
        self.roundtrip("reading the seat")?;
        Ok(self.seat_capabilities().unwrap_or(0) & 2 != 0)
    }

    /// The deadline of one wait.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The globals the compositor offers.
    pub fn globals(&self) -> &Globals {
        &self.state.globals
    }

    /// The outputs whose size is known, in announcement order. Up to date
    /// as of the last dispatch (every roundtrip dispatches).
    pub fn outputs(&self) -> Vec<Output> {
        self.state
            .outputs
            .iter()
            .filter_map(OutputState::output)
            .collect()
    }

    /// The capabilities of the bound `wl_seat` (`wl_seat.capability`
    /// bits: 1 pointer, 2 keyboard, 4 touch), once announced.
    pub(crate) fn seat_capabilities(&self) -> Option<u32> {
        self.state.seat_capabilities()
    }

    /// The registry (to bind a global with user data of its own).
    pub(crate) fn registry(&self) -> &wl_registry::WlRegistry {
        &self.registry
    }

    /// The queue handle new objects are created on.
    pub(crate) fn qh(&self) -> &QueueHandle<State> {
        &self.qh
    }

    /// Binds the global of interface `I` at its offered version, at most
    /// `max_version`; the [`unsupported`] error when there is none.
    pub(crate) fn bind<I>(&self, max_version: u32) -> Result<I, WaylandError>
    where
        I: Proxy + 'static,
        State: Dispatch<I, ()>,
    {
        let interface = I::interface().name;
        let global = self
            .state
            .globals
            .list
            .iter()
            .find(|g| g.interface == interface)
            .ok_or_else(|| unsupported(interface, &self.state.globals))?;
        Ok(self.registry.bind::<I, (), State>(
            global.name,
            global.version.min(max_version),
            &self.qh,
            (),
        ))
    }

    /// Sends the queued requests (waiting up to the deadline when the
    /// socket is full).
    pub fn flush(&mut self, what: &str) -> Result<(), WaylandError> {
        let deadline = Instant::now() + self.timeout;
        self.flush_until(what, deadline)
    }

    /// Sends what the socket takes now, without waiting (for `Drop`).
    pub fn flush_now(&self) {
        let _ = self.conn.flush();
    }

    fn flush_until(&mut self, what: &str, deadline: Instant) -> Result<(), WaylandError> {
        loop {
            match self.conn.flush() {
                Ok(()) => return Ok(()),
                Err(BackendError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let fd = self
                        .conn
                        .backend()
                        .poll_fd()
                        .try_clone_to_owned()
                        .map_err(|e| WaylandError::Io {
                            what: "duplicating the Wayland socket",
                            source: e,
                        })?;
                    wait_fd(
                        std::os::fd::AsFd::as_fd(&fd),
                        PollFlags::OUT,
                        deadline,
                        what,
                        self.timeout,
                    )?;
                }
                Err(e) => return Err(connection_error(what, &e)),
            }
        }
    }

    /// Sends the queued requests and waits until the compositor has handled
    /// them (`wl_display.sync`), dispatching the events that came before.
    pub fn roundtrip(&mut self, what: &str) -> Result<(), WaylandError> {
        self.next_sync += 1;
        let serial = self.next_sync;
        let _callback = self.conn.display().sync(&self.qh, serial);
        let deadline = Instant::now() + self.timeout;
        self.dispatch_until(what, deadline, |s| s.synced >= serial)
    }

    /// Dispatches events until `done` holds, reading the socket as needed,
    /// up to `deadline`.
    pub(crate) fn dispatch_until(
        &mut self,
        what: &str,
        deadline: Instant,
        mut done: impl FnMut(&State) -> bool,
    ) -> Result<(), WaylandError> {
        loop {
            self.queue
                .dispatch_pending(&mut self.state)
                .map_err(|e| connection_error(what, &e))?;
            if done(&self.state) {
                return Ok(());
            }
            self.flush_until(what, deadline)?;
            let Some(guard) = self.queue.prepare_read() else {
                continue;
            };
            wait_fd(
                guard.connection_fd(),
                PollFlags::IN,
                deadline,
                what,
                self.timeout,
            )?;
            match guard.read() {
                Ok(_) => {}
                Err(BackendError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(connection_error(what, &e)),
            }
        }
    }
}

/// Waits until `fd` is ready for `flags`, up to `deadline`.
fn wait_fd(
    fd: BorrowedFd<'_>,
    flags: PollFlags,
    deadline: Instant,
    what: &str,
    timeout: Duration,
) -> Result<(), WaylandError> {
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(WaylandError::Timeout {
                what: what.to_owned(),
                timeout,
            });
        }
        let ts = Timespec::try_from(remaining).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        let mut fds = [PollFd::from_borrowed_fd(fd, flags)];
        match rustix::event::poll(&mut fds, Some(&ts)) {
            Ok(0) => {}
            // Readable, writable, or hung up/errored (the read or write
            // that follows reports which).
            Ok(_) => return Ok(()),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => {
                return Err(WaylandError::Io {
                    what: "polling the Wayland socket",
                    source: e.into(),
                })
            }
        }
    }
}

/// A broken connection's error, with the protocol error when there is one.
fn connection_error(what: &str, err: &dyn std::fmt::Display) -> WaylandError {
    WaylandError::Connection {
        what: what.to_owned(),
        detail: err.to_string().replace('\n', " "),
    }
}

impl Dispatch<wl_registry::WlRegistry, ()> for State {
    fn event(
        state: &mut Self,
        registry: &wl_registry::WlRegistry,
        event: wl_registry::Event,
        (): &(),
        _: &Connection,
        qh: &QueueHandle<Self>,
    ) {
        match event {
            wl_registry::Event::Global {
                name,
                interface,
                version,
            } => {
                if interface == wl_output::WlOutput::interface().name {
                    let proxy = registry.bind::<wl_output::WlOutput, u32, State>(
                        name,
                        version.min(4),
                        qh,
                        name,
                    );
                    state.outputs.push(OutputState {
                        global: name,
                        proxy,
                        xdg: None,
                        wl_name: None,
                        xdg_name: None,
                        geometry: (0, 0),
                        mode: (0, 0),
                        scale: 1,
                        transform: 0,
                        logical_position: None,
                        logical_size: None,
                    });
                    state.add_xdg_output(state.outputs.len() - 1, qh);
                }
                state.globals.list.push(Global {
                    name,
                    interface,
                    version,
                });
            }
            wl_registry::Event::GlobalRemove { name } => {
                state.globals.list.retain(|g| g.name != name);
                if let Some(i) = state.outputs.iter().position(|o| o.global == name) {
                    let out = state.outputs.remove(i);
                    if let Some(xdg) = out.xdg {
                        xdg.destroy();
                    }
                    if out.proxy.version() >= 3 {
                        out.proxy.release();
                    }
                }
            }
            _ => {}
        }
    }
}

impl Dispatch<wl_output::WlOutput, u32> for State {
    fn event(
        state: &mut Self,
        _: &wl_output::WlOutput,
        event: wl_output::Event,
        global: &u32,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let Some(out) = state.output_mut(*global) else {
            return;
        };
        match event {
            wl_output::Event::Geometry {
                x, y, transform, ..
            } => {
                out.geometry = (x, y);
                out.transform = match transform {
                    WEnum::Value(t) => u32::from(t),
                    WEnum::Unknown(t) => t,
                };
            }
            wl_output::Event::Mode {
                flags,
                width,
                height,
                ..
            } => {
                let current = match flags {
                    WEnum::Value(f) => f.contains(wl_output::Mode::Current),
                    WEnum::Unknown(f) => f & 1 != 0,
                };
                if current {
                    out.mode = (width, height);
                }
            }
            wl_output::Event::Scale { factor } => out.scale = factor,
            wl_output::Event::Name { name } => out.wl_name = Some(name),
            _ => {}
        }
    }
}

impl Dispatch<zxdg_output_v1::ZxdgOutputV1, u32> for State {
    fn event(
        state: &mut Self,
        _: &zxdg_output_v1::ZxdgOutputV1,
        event: zxdg_output_v1::Event,
        global: &u32,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let Some(out) = state.output_mut(*global) else {
            return;
        };
        match event {
            zxdg_output_v1::Event::LogicalPosition { x, y } => out.logical_position = Some((x, y)),
            zxdg_output_v1::Event::LogicalSize { width, height } => {
                out.logical_size = Some((width, height));
            }
            zxdg_output_v1::Event::Name { name } => out.xdg_name = Some(name),
            _ => {}
        }
    }
}

impl Dispatch<wl_callback::WlCallback, u64> for State {
    fn event(
        state: &mut Self,
        _: &wl_callback::WlCallback,
        event: wl_callback::Event,
        serial: &u64,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_callback::Event::Done { .. } = event {
            state.synced = state.synced.max(*serial);
        }
    }
}

/// `Dispatch` for objects whose events cup does not need (user data
/// `()`); every Wayland module of the backend names its own.
macro_rules! ignore_events {
    ($($proxy:ty),* $(,)?) => {$(
        impl wayland_client::Dispatch<$proxy, ()> for $crate::client::State {
            fn event(
                _: &mut Self,
                _: &$proxy,
                _: <$proxy as wayland_client::Proxy>::Event,
                (): &(),
                _: &wayland_client::Connection,
                _: &wayland_client::QueueHandle<Self>,
            ) {
            }
        }
    )*};
}
pub(crate) use ignore_events;

ignore_events!(zxdg_output_manager_v1::ZxdgOutputManagerV1, wl_shm::WlShm);

impl Dispatch<wl_seat::WlSeat, ()> for State {
    fn event(
        state: &mut Self,
        _: &wl_seat::WlSeat,
        event: wl_seat::Event,
        (): &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_seat::Event::Capabilities { capabilities } = event {
            state.seat_capabilities = Some(match capabilities {
                WEnum::Value(c) => c.bits(),
                WEnum::Unknown(c) => c,
            });
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn globals_lookup_and_the_unsupported_message() {
        let globals = Globals {
            list: vec![
                Global {
                    name: 1,
                    interface: "wl_shm".into(),
                    version: 1,
                },
                Global {
                    name: 2,
                    interface: "wl_output".into(),
                    version: 4,
                },
                Global {
                    name: 3,
                    interface: "wl_output".into(),
                    version: 3,
                },
                Global {
                    name: 4,
                    interface: "wl_compositor".into(),
                    version: 6,
                },
            ],
        };
        assert!(globals.has("wl_shm"));
        assert!(!globals.has("zwlr_screencopy_manager_v1"));
        assert_eq!(globals.version("wl_output"), Some(4));
        assert_eq!(globals.version("wl_seat"), None);
        assert_eq!(
            globals.names(),
            vec!["wl_compositor", "wl_output", "wl_shm"]
        );
        let err = unsupported("zwlr_screencopy_manager_v1 (screenshots)", &globals);
        assert_eq!(
            err.to_string(),
            "unsupported: zwlr_screencopy_manager_v1 (screenshots) \
             (compositor offers: wl_compositor, wl_output, wl_shm)"
        );
    }

    #[test]
    fn bounding_box_and_intersection() {
        assert_eq!(bounding_box([]), None);
        assert_eq!(bounding_box([(0, 0, 0, 10)]), None);
        assert_eq!(bounding_box([(0, 0, 1280, 800)]), Some((0, 0, 1280, 800)));
        // Side by side, the right one taller and lower.
        assert_eq!(
            bounding_box([(0, 0, 1280, 800), (1280, 100, 1920, 1080)]),
            Some((0, 0, 3200, 1180))
        );
        // Negative origins (an output left of and above the first).
        assert_eq!(
            bounding_box([(0, 0, 100, 100), (-50, -20, 50, 40)]),
            Some((-50, -20, 150, 120))
        );
        assert_eq!(
            intersect((0, 0, 100, 100), (50, 60, 100, 100)),
            Some((50, 60, 50, 40))
        );
        assert_eq!(intersect((0, 0, 100, 100), (100, 0, 10, 10)), None);
        assert_eq!(intersect((0, 0, 100, 100), (-10, -10, 5, 500)), None);
    }

    #[test]
    fn error_messages_are_one_line() {
        let errors = [
            WaylandError::Connect {
                path: "/run/user/1000/wayland-1".into(),
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            },
            WaylandError::Timeout {
                what: "capturing HEADLESS-1".into(),
                timeout: DEFAULT_TIMEOUT,
            },
            WaylandError::Connection {
                what: "clicking".into(),
                detail: "Broken pipe".into(),
            },
        ];
        for e in errors {
            let text = e.to_string();
            assert!(!text.contains('\n'), "{text}");
        }
        let timeout = WaylandError::Timeout {
            what: "typing".into(),
            timeout: DEFAULT_TIMEOUT,
        };
        assert!(timeout.to_string().contains("within 2000 ms while typing"));
    }
}
