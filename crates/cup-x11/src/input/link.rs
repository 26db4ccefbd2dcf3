//! The blocking side of an [`Input`](super::Input): one X11 connection,
//! XTest fake input, the round trip that delivers it, and the cached
//! keymap, dropped when a `MappingNotify` says it changed.

use std::sync::Arc;

use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::xproto::{
    Atom, ChangeWindowAttributesAux, ConnectionExt as _, EventMask, Window,
};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;

use super::keymap::{Keycode, Keymap, Modmap, Shifters};
use super::lease::Leases;
use super::{InputError, Point};

/// The keyboard tables of the server.
#[derive(Debug, Clone)]
pub(crate) struct Maps {
    pub keymap: Keymap,
    pub modmap: Modmap,
    pub shifters: Shifters,
}

/// XTest event types.
pub(crate) mod fake {
    pub const KEY_PRESS: u8 = 2;
    pub const KEY_RELEASE: u8 = 3;
    pub const BUTTON_PRESS: u8 = 4;
    pub const BUTTON_RELEASE: u8 = 5;
    pub const MOTION: u8 = 6;
}

/// Atoms the keyboard needs (interned once per connection).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Atoms {
    pub wm_protocols: Atom,
    pub net_wm_ping: Atom,
    pub wm_state: Atom,
    pub leases: Atom,
}

/// One connection to a display.
pub(crate) struct Link {
    conn: RustConnection,
    display: String,
    root: Window,
    width: u16,
    height: u16,
    maps: Option<Arc<Maps>>,
    atoms: Atoms,
    /// The last `_NET_WM_PING` stamp sent.
    stamp: u32,
    /// Ping answers seen (stamps), read by [`Link::wait_ping`].
    answers: Vec<u32>,
    /// The leases on the root window, as last read; dropped when the
    /// property or the keymap changes (their `PropertyNotify` and
    /// `MappingNotify` reach this link).
    leases: Option<Leases>,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("display", &self.display)
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

/// An X11 error of request `what`.
pub(crate) fn x11_err(what: &str, e: impl std::fmt::Display) -> InputError {
    InputError::X11 {
        what: what.to_owned(),
        reason: e.to_string(),
    }
}

/// `$e` with its error as [`InputError::X11`] of request `$what`.
macro_rules! x11 {
    ($what:expr, $e:expr) => {
        $e.map_err(|e| $crate::input::link::x11_err($what, e))
    };
}
pub(crate) use x11;

/// Interns the [`Atoms`] in one round trip.
fn intern(conn: &RustConnection) -> Result<Atoms, InputError> {
    let names: [&[u8]; 4] = [
        b"WM_PROTOCOLS",
        b"_NET_WM_PING",
        b"WM_STATE",
        super::lease::PROPERTY.as_bytes(),
    ];
    let cookies = names
        .iter()
        .map(|name| x11!("InternAtom", conn.intern_atom(false, name)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut atoms = [0; 4];
    for (atom, cookie) in atoms.iter_mut().zip(cookies) {
        *atom = x11!("InternAtom", cookie.reply())?.atom;
    }
    Ok(Atoms {
        wm_protocols: atoms[0],
        net_wm_ping: atoms[1],
        wm_state: atoms[2],
        leases: atoms[3],
    })
}

impl Link {
    /// Connects and checks for XTest.
    pub fn connect(display: &str) -> Result<Link, InputError> {
        let (conn, screen_num) =
            crate::xauth::connect(display).map_err(|e| InputError::Connect {
                display: display.to_owned(),
                reason: e.to_string(),
            })?;
        let screen = conn
            .setup()
            .roots
            .get(screen_num)
            .ok_or_else(|| InputError::Connect {
                display: display.to_owned(),
                reason: format!("the server has no screen {screen_num}"),
            })?;
        let (root, width, height) = (screen.root, screen.width_in_pixels, screen.height_in_pixels);
        let has_xtest = conn
            .extension_information(x11rb::protocol::xtest::X11_EXTENSION_NAME)
            .map_err(|e| x11_err("QueryExtension XTEST", e))?
            .is_some();
        if !has_xtest {
            return Err(InputError::NoXTest {
                display: display.to_owned(),
            });
        }
        x11!(
            "XTEST GetVersion",
            x11!("XTEST GetVersion", conn.xtest_get_version(2, 2))?.reply()
        )?;
        let atoms = intern(&conn)?;
        // Clients answer `_NET_WM_PING` by sending it to the root window
        // for SubstructureNotify listeners: the answers reach this link;
        // so do changes of the lease property (PropertyChange).
        x11!(
            "ChangeWindowAttributes",
            conn.change_window_attributes(
                root,
                &ChangeWindowAttributesAux::new()
                    .event_mask(EventMask::SUBSTRUCTURE_NOTIFY | EventMask::PROPERTY_CHANGE),
            )
        )?;
        let mut link = Link {
            conn,
            display: display.to_owned(),
            root,
            width,
            height,
            maps: None,
            atoms,
            // Distinct from other processes' pings on the display.
            stamp: std::process::id().wrapping_mul(7919) << 8,
            answers: Vec::new(),
            leases: None,
        };
        link.maps()?;
        Ok(link)
    }

    pub fn conn(&self) -> &RustConnection {
        &self.conn
    }

    pub fn root(&self) -> Window {
        self.root
    }

    pub fn atoms(&self) -> Atoms {
        self.atoms
    }

    /// A new ping stamp (never 0: some clients ignore `CurrentTime`).
    pub fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1).max(1);
        self.stamp
    }

    /// Waits until a client answers the ping `stamp` (true) or `deadline`
    /// passes (false), taking every other event as [`Link::begin`] does.
    pub fn wait_ping(
        &mut self,
        stamp: u32,
        deadline: std::time::Instant,
    ) -> Result<bool, InputError> {
        loop {
            self.drain()?;
            if let Some(i) = self.answers.iter().position(|&s| s == stamp) {
                self.answers.swap_remove(i);
                return Ok(true);
            }
            if std::time::Instant::now() >= deadline {
                return Ok(false);
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }

    /// Reads events that arrived since the last action: a `MappingNotify`
    /// drops the cached keymap; errors of earlier requests are reported.
    pub fn begin(&mut self) -> Result<(), InputError> {
        self.drain()
    }

    fn drain(&mut self) -> Result<(), InputError> {
        let mut error = None;
        while let Some(event) = x11!("reading events", self.conn.poll_for_event())? {
            match event {
                Event::MappingNotify(_) => {
                    self.maps = None;
                    self.leases = None;
                }
                Event::PropertyNotify(p)
                    if p.window == self.root && p.atom == self.atoms.leases =>
                {
                    self.leases = None;
                }
                Event::ClientMessage(m) if m.type_ == self.atoms.wm_protocols && m.format == 32 => {
                    let data = m.data.as_data32();
                    if data[0] == self.atoms.net_wm_ping {
                        self.answers.push(data[1]);
                        // Keep only the latest few: answers nobody waits for.
                        if self.answers.len() > 16 {
                            self.answers.remove(0);
                        }
                    }
                }
                Event::Error(e) => {
                    error.get_or_insert(InputError::X11 {
                        what: format!("request {}", e.request_name.unwrap_or("?")),
                        reason: format!("{:?}", e.error_kind),
                    });
                }
                _ => {}
            }
        }
        error.map_or(Ok(()), Err)
    }

    /// The keyboard tables, read again after a mapping change.
    pub fn maps(&mut self) -> Result<Arc<Maps>, InputError> {
        if let Some(maps) = &self.maps {
            return Ok(Arc::clone(maps));
        }
        let keymap = self.keymap_cookie()?;
        let modmap = x11!("GetModifierMapping", self.conn.get_modifier_mapping())?;
        let keymap = keymap()?;
        let modmap = x11!("GetModifierMapping", modmap.reply())?;
        let modmap = Modmap::new(
            usize::from(modmap.keycodes_per_modifier()),
            &modmap.keycodes,
        );
        let shifters = Shifters::find(&keymap, &modmap);
        let maps = Arc::new(Maps {
            keymap,
            modmap,
            shifters,
        });
        self.maps = Some(Arc::clone(&maps));
        Ok(maps)
    }

    /// Sends `GetKeyboardMapping` of every keycode; the closure waits for
    /// the reply.
    #[allow(clippy::type_complexity)]
    fn keymap_cookie(
        &self,
    ) -> Result<Box<dyn FnOnce() -> Result<Keymap, InputError> + '_>, InputError> {
        let setup = self.conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let count = max.saturating_sub(min).saturating_add(1);
        let cookie = x11!(
            "GetKeyboardMapping",
            self.conn.get_keyboard_mapping(min, count)
        )?;
        Ok(Box::new(move || {
            let reply = x11!("GetKeyboardMapping", cookie.reply())?;
            Ok(Keymap::new(min, reply.keysyms_per_keycode, reply.keysyms))
        }))
    }

    /// The server's keyboard mapping now (not the cache).
    pub fn read_keymap(&self) -> Result<Keymap, InputError> {
        (self.keymap_cookie()?)()
    }

    /// The keymap changed by us: read it again next time.
    pub fn forget_maps(&mut self) {
        self.maps = None;
    }

    /// The leases as last read, unless they changed since.
    pub fn cached_leases(&self) -> Option<&Leases> {
        self.leases.as_ref()
    }

    /// Keeps `leases` until the property or the keymap changes.
    pub fn cache_leases(&mut self, leases: Option<Leases>) {
        self.leases = leases;
    }

    /// One XTest fake event.
    pub fn fake(&self, kind: u8, detail: u8, at: Option<(i16, i16)>) -> Result<(), InputError> {
        let (x, y) = at.unwrap_or((0, 0));
        let root = if at.is_some() { self.root } else { x11rb::NONE };
        x11!(
            "XTEST FakeInput",
            self.conn.xtest_fake_input(kind, detail, 0, root, x, y, 0)
        )?;
        Ok(())
    }

    /// A key goes down or up.
    pub fn key(&self, keycode: Keycode, down: bool) -> Result<(), InputError> {
        let kind = if down {
            fake::KEY_PRESS
        } else {
            fake::KEY_RELEASE
        };
        self.fake(kind, keycode, None)
    }

    /// A pointer button goes down or up.
    pub fn button(&self, button: u8, down: bool) -> Result<(), InputError> {
        let kind = if down {
            fake::BUTTON_PRESS
        } else {
            fake::BUTTON_RELEASE
        };
        self.fake(kind, button, None)
    }

    /// Moves the pointer to `p` (checked with [`Link::check_point`]).
    pub fn motion(&self, p: (i16, i16)) -> Result<(), InputError> {
        self.fake(fake::MOTION, 0, Some(p))
    }

    /// Sends what is buffered without waiting.
    pub fn flush(&self) -> Result<(), InputError> {
        x11!("flush", self.conn.flush())
    }

    /// A round trip (`GetInputFocus`): everything sent before is processed
    /// and its events delivered; errors of earlier requests are reported.
    pub fn sync(&mut self) -> Result<(), InputError> {
        x11!(
            "GetInputFocus",
            x11!("GetInputFocus", self.conn.get_input_focus())?.reply()
        )?;
        self.drain()
    }

    /// `p` in X11 coordinates if it lies on the screen (whose size is read
    /// again before refusing, in case it changed).
    pub fn check_point(&mut self, p: Point) -> Result<(i16, i16), InputError> {
        let inside =
            |w: u16, h: u16| (0..i64::from(w)).contains(&p.x) && (0..i64::from(h)).contains(&p.y);
        if !inside(self.width, self.height) {
            self.screen_size()?;
            if !inside(self.width, self.height) {
                return Err(InputError::OutOfScreen {
                    x: p.x,
                    y: p.y,
                    width: self.width,
                    height: self.height,
                });
            }
        }
        let x = i16::try_from(p.x).unwrap_or(i16::MAX);
        let y = i16::try_from(p.y).unwrap_or(i16::MAX);
        Ok((x, y))
    }

    /// The root window's size now.
    pub fn screen_size(&mut self) -> Result<(u16, u16), InputError> {
        let geometry = x11!(
            "GetGeometry",
            x11!("GetGeometry", self.conn.get_geometry(self.root))?.reply()
        )?;
        self.width = geometry.width;
        self.height = geometry.height;
        Ok((self.width, self.height))
    }

    /// Where the pointer is, and the modifier and button state.
    pub fn query_pointer(&self) -> Result<(Point, u16), InputError> {
        let reply = x11!(
            "QueryPointer",
            x11!("QueryPointer", self.conn.query_pointer(self.root))?.reply()
        )?;
        Ok((
            Point {
                x: i64::from(reply.root_x),
                y: i64::from(reply.root_y),
            },
            u16::from(reply.mask),
        ))
    }

    /// Keys down now (`QueryKeymap`) and the modifier state
    /// (`QueryPointer`), in one round trip.
    pub fn key_state(&self) -> Result<([u8; 32], u16), InputError> {
        let keys = x11!("QueryKeymap", self.conn.query_keymap())?;
        let pointer = x11!("QueryPointer", self.conn.query_pointer(self.root))?;
        let keys = x11!("QueryKeymap", keys.reply())?.keys;
        let mask = u16::from(x11!("QueryPointer", pointer.reply())?.mask);
        Ok((keys, mask))
    }
}
