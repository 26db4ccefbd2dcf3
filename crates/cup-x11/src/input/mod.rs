//! X11 keyboard and pointer input through XTest, pure Rust (x11rb).
//!
//! An [`Input`] keeps one connection to a display and the keyboard mapping
//! it read, so an action costs a few requests and one round trip (the
//! `GetInputFocus` that makes the server deliver the events before the
//! call returns). Every call runs the blocking X11 work on a blocking
//! thread under a deadline ([`InputOptions::timeout`]).
//!
//! * Keys: [`Input::press`] takes a combo (`ctrl+s`, `alt+f4`, `super`,
//!   `shift`, `kp_add`, `ctrl+é`), [`Input::type_text`] any Unicode text.
//!   A keysym is looked up on the keymap with Shift, level 3
//!   (ISO_Level3_Shift, AltGr) and Mode_switch; one the keymap lacks is
//!   lent a spare (empty) keycode ([`lease`]): every such keysym of a call
//!   in one keymap change, the first key sent only once the receiving
//!   client answered a `_NET_WM_PING` sent after the change (or, for a
//!   client that takes no pings, [`InputOptions::notice_gap`] later), the
//!   binding kept afterwards for later calls and taken back lazily once
//!   [`InputOptions::lease_hold`] passed. Text arrives code point for code
//!   point, whatever the lock state and however slowly the client reads.
//! * Modifiers held down through XTest (by this or another client, e.g. a
//!   `keydown` of another tool) are released while a combo is pressed or
//!   text is typed, and pressed again afterwards; Caps Lock is turned off
//!   while text with letters is typed, and on again afterwards (a
//!   physical keyboard would flip the case; cup types the exact text). XTest
//!   cannot release a key held on a physical keyboard (the server ignores
//!   the release), so such a key is left alone and may still shift what is
//!   typed; latched modifiers (sticky keys) are not lifted either.
//! * Pointer: the real pointer moves (XTest motion); clicks of any button,
//!   1–3 times; drags along a path; the wheel in four directions; each
//!   with modifiers held.

mod barrier;
mod bind;
mod held;
mod keyboard;
pub mod keymap;
pub use cup_linux_display::keysym;
mod gesture;
pub mod lease;
mod link;
mod ops;
pub mod pointer;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, TryLockError};

use keyboard::Lending;
use std::time::Duration;

use cup_protocol::{parse_combo, Combo, Direction, Key, KeyError, Modifier};

pub use keymap::{Keycode, Keymap, Level, Place};
pub use keysym::Keysym;

use link::Link;

/// A point on the screen, in pixels from the top left of the root window
/// (the facade's point: gestures need no conversion).
pub use cup::Point;

/// A pointer button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    /// Button 1.
    Left,
    /// Button 2.
    Middle,
    /// Button 3.
    Right,
    /// Button 8 (back).
    Back,
    /// Button 9 (forward).
    Forward,
    /// Any other X button number (1–255).
    Other(u8),
}

impl Button {
    /// The X11 button number.
    pub fn number(self) -> Result<u8, InputError> {
        Ok(match self {
            Button::Left => 1,
            Button::Middle => 2,
            Button::Right => 3,
            Button::Back => 8,
            Button::Forward => 9,
            Button::Other(0) => {
                return Err(InputError::InvalidArgument(
                    "button 0 does not exist; give a button from 1 (left) to 255".to_owned(),
                ))
            }
            Button::Other(n) => n,
        })
    }
}

/// Errors of [`Input`]; each message says what to do next.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The display cannot be opened.
    #[error(
        "cannot open the X11 display {display}: {reason}; check DISPLAY and that the X server runs"
    )]
    Connect {
        /// The display name.
        display: String,
        /// Why.
        reason: String,
    },
    /// The server lacks the XTEST extension.
    #[error("the X server of {display} lacks the XTEST extension; run an X server with XTEST (Xvfb and Xorg enable it by default)")]
    NoXTest {
        /// The display name.
        display: String,
    },
    /// The server did not answer within the deadline.
    #[error("the X server did not finish {what} within {ms} ms; check that it still runs, then retry or open a new Input")]
    Timeout {
        /// The action.
        what: &'static str,
        /// The deadline in milliseconds.
        ms: u128,
    },
    /// An X11 request failed.
    #[error("X11 {what} failed: {reason}; check that the X server still runs, then retry")]
    X11 {
        /// The request.
        what: String,
        /// The error.
        reason: String,
    },
    /// The combo does not parse.
    #[error(transparent)]
    Combo(#[from] KeyError),
    /// A control character that no key types.
    #[error("cannot type the control character U+{code:04X}; remove it from the text (\\n, \\t, backspace, escape and delete are typed as keys)")]
    Untypable {
        /// Its code point.
        code: u32,
    },
    /// No key of the keymap acts as the modifier.
    #[error("the keymap has no key for the {modifier} modifier; load a keymap with one (e.g. setxkbmap us) and retry")]
    NoModifierKey {
        /// The modifier.
        modifier: Modifier,
    },
    /// A keysym the keymap lacks, and no empty keycode to lend it.
    #[error("{what} needs a key the keymap lacks, and the keymap has no empty keycode to lend; free a keycode (e.g. setxkbmap us) and retry")]
    NoSpareKeycode {
        /// The action.
        what: String,
    },
    /// A point off the screen.
    #[error("point {x},{y} lies outside the {width}x{height} screen; give coordinates inside it")]
    OutOfScreen {
        /// X.
        x: i64,
        /// Y.
        y: i64,
        /// Screen width.
        width: u16,
        /// Screen height.
        height: u16,
    },
    /// An earlier call timed out and still waits for the server.
    #[error("an earlier call still waits for the X server of {display}; check that it runs, then open a new Input")]
    Stuck {
        /// The display name.
        display: String,
    },
    /// A bad argument (the message says which and what is allowed).
    #[error("{0}")]
    InvalidArgument(String),
    /// The worker thread failed.
    #[error("the input worker failed: {0}; retry, or open a new Input")]
    Worker(String),
}

/// How an [`Input`] works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputOptions {
    /// Deadline of one call (a drag adds its duration, typing the waits
    /// its keymap changes may need). Default 2 s.
    pub timeout: Duration,
    /// After a keymap change, how long a client that takes no
    /// `_NET_WM_PING` (Tk, xterm, plain Xlib programs) gets to notice it
    /// before the first key. Default 50 ms; paid only when a call lends a
    /// keycode to a new keysym.
    pub notice_gap: Duration,
    /// Longest wait for a client's answer to a ping. Default 500 ms.
    pub ping_limit: Duration,
    /// How long after its last use a lent keycode stays lent before a
    /// later call may take it back or lend it to another keysym. Default
    /// 5 s.
    pub lease_hold: Duration,
    /// When keycodes to lend run short (one call, or calls in a row, need
    /// more keysyms than there are empty keycodes): how long after its
    /// last key a keycode waits before it is lent to another keysym, if
    /// no ping answered behind it. Default 500 ms.
    pub rebind_wait: Duration,
    /// Pause between the clicks of a double or triple click. Default 10 ms.
    pub click_gap: Duration,
}

impl Default for InputOptions {
    fn default() -> Self {
        InputOptions {
            timeout: Duration::from_secs(2),
            notice_gap: Duration::from_millis(50),
            ping_limit: Duration::from_millis(500),
            lease_hold: Duration::from_secs(5),
            rebind_wait: Duration::from_millis(500),
            click_gap: Duration::from_millis(10),
        }
    }
}

/// How a key is produced on the current keymap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resolution {
    /// A key of the keymap, at a level.
    Key {
        /// The keysym.
        keysym: Keysym,
        /// Where it sits.
        place: Place,
    },
    /// A spare keycode to be lent to it.
    Remap {
        /// The keysym.
        keysym: Keysym,
        /// The keycode that would be lent first.
        spare: Keycode,
    },
}

/// Keyboard and pointer input on one X11 display. Cheap to share (`&self`
/// methods); calls on one `Input` run one at a time.
#[derive(Debug)]
pub struct Input {
    display: String,
    options: InputOptions,
    link: Arc<Mutex<Link>>,
    /// A call timed out; its blocking work may still hold the link.
    stuck: AtomicBool,
}

impl Input {
    /// Opens `display` (e.g. `:0`) with default options.
    ///
    /// # Errors
    ///
    /// [`InputError::Connect`], [`InputError::NoXTest`],
    /// [`InputError::Timeout`].
    pub async fn open(display: &str) -> Result<Input, InputError> {
        Input::open_with(display, InputOptions::default()).await
    }

    /// Opens `display` with `options`.
    ///
    /// # Errors
    ///
    /// As [`Input::open`].
    pub async fn open_with(display: &str, options: InputOptions) -> Result<Input, InputError> {
        let name = display.to_owned();
        let task = tokio::task::spawn_blocking(move || Link::connect(&name));
        let link = finish(task, "opening the display", options.timeout).await?;
        Ok(Input {
            display: display.to_owned(),
            options,
            link: Arc::new(Mutex::new(link)),
            stuck: AtomicBool::new(false),
        })
    }

    /// The display name.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The options.
    pub fn options(&self) -> &InputOptions {
        &self.options
    }

    fn lending(&self) -> Lending {
        Lending {
            notice_gap: self.options.notice_gap,
            ping_limit: self.options.ping_limit,
            hold: self.options.lease_hold,
            rebind_wait: self.options.rebind_wait,
        }
    }

    /// The longest a keymap change's waits take: the ping (or the gap).
    fn notice_time(&self) -> Duration {
        self.options.ping_limit + self.options.notice_gap
    }

    /// Runs `f` on the link on a blocking thread under the deadline plus
    /// `extra`.
    async fn run<T, F>(&self, what: &'static str, extra: Duration, f: F) -> Result<T, InputError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Link) -> Result<T, InputError> + Send + 'static,
    {
        if self.stuck.load(Ordering::Acquire) {
            // Refuse at once while the timed-out call still holds the link.
            if let Err(TryLockError::WouldBlock) = self.link.try_lock() {
                return Err(InputError::Stuck {
                    display: self.display.clone(),
                });
            }
            self.stuck.store(false, Ordering::Release);
        }
        let link = Arc::clone(&self.link);
        let task = tokio::task::spawn_blocking(move || {
            let mut link = link.lock().unwrap_or_else(PoisonError::into_inner);
            link.begin()?;
            f(&mut link)
        });
        let result = finish(task, what, self.options.timeout + extra).await;
        if let Err(InputError::Timeout { .. }) = result {
            self.stuck.store(true, Ordering::Release);
        }
        result
    }

    /// Presses a key combo: `ctrl+s`, `alt+f4`, `super`, `shift`,
    /// `ctrl+shift+p`, `kp_enter`, `volume_up`, `é`, `日`.
    ///
    /// # Errors
    ///
    /// [`InputError::Combo`] for a combo that does not parse; the errors
    /// of [`Input::press_combo`].
    pub async fn press(&self, combo: &str) -> Result<(), InputError> {
        let combo = parse_combo(combo)?;
        self.press_combo(&combo).await
    }

    /// Presses a parsed combo: its modifiers down in order, each key
    /// pressed and released in order, the modifiers released in reverse.
    ///
    /// # Errors
    ///
    /// [`InputError::NoModifierKey`], [`InputError::NoSpareKeycode`],
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn press_combo(&self, combo: &Combo) -> Result<(), InputError> {
        let combo = combo.clone();
        let lending = self.lending();
        self.run("pressing keys", self.notice_time(), move |link| {
            keyboard::press(link, &combo, lending)
        })
        .await
    }

    /// Types `text` code point for code point, never normalized: newlines
    /// as Return, tabs as Tab, every other character through its keysym
    /// (any Unicode character: combining marks, ZWJ sequences, astral
    /// characters), whatever the lock state. Keysyms the keymap lacks are
    /// lent keycodes ([`lease`]) so that the text arrives exactly however
    /// slowly the client reads its events.
    ///
    /// # Errors
    ///
    /// [`InputError::Untypable`] for a control character (before anything
    /// is typed); [`InputError::NoSpareKeycode`], [`InputError::X11`],
    /// [`InputError::Timeout`].
    pub async fn type_text(&self, text: &str) -> Result<(), InputError> {
        keyboard::text_keysyms(text)?;
        let text = text.to_owned();
        let lending = self.lending();
        // Each batch of lent keycodes may wait for a ping before and after
        // its keys (the client works off its backlog meanwhile): allow for
        // a batch per 16 characters, as short as batches get with the 19
        // keycodes of Xvfb's US keymap. A hang guard, not a budget.
        let batches = 1 + u32::try_from(text.chars().count() / 16).unwrap_or(u32::MAX);
        let per_batch = self.notice_time() + self.options.ping_limit + self.options.rebind_wait;
        let extra = per_batch.saturating_mul(batches);
        self.run("typing text", extra, move |link| {
            keyboard::type_text(link, &text, lending)
        })
        .await
    }

    /// How `key` is produced on the keymap now.
    ///
    /// # Errors
    ///
    /// [`InputError::Untypable`], [`InputError::NoSpareKeycode`] when it
    /// needs a remap and no keycode is free; [`InputError::X11`],
    /// [`InputError::Timeout`].
    pub async fn resolve_key(&self, key: Key) -> Result<Resolution, InputError> {
        let keysym = keyboard::key_keysym(key)?;
        self.run("reading the keymap", Duration::ZERO, move |link| {
            let maps = link.maps()?;
            if let Some(place) = keymap::locate(&maps.keymap, &maps.shifters, keysym) {
                return Ok(Resolution::Key { keysym, place });
            }
            let spare = maps
                .keymap
                .spare_keycodes(&maps.modmap)
                .first()
                .copied()
                .ok_or_else(|| InputError::NoSpareKeycode {
                    what: format!("pressing {key}"),
                })?;
            Ok(Resolution::Remap { keysym, spare })
        })
        .await
    }

    /// The server's keyboard mapping now (`GetKeyboardMapping`).
    ///
    /// # Errors
    ///
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn keyboard_mapping(&self) -> Result<Keymap, InputError> {
        self.run("reading the keymap", Duration::ZERO, |link| {
            link.read_keymap()
        })
        .await
    }

    /// Moves the pointer to `at`.
    ///
    /// # Errors
    ///
    /// [`InputError::OutOfScreen`], [`InputError::X11`],
    /// [`InputError::Timeout`].
    pub async fn move_to(&self, at: Point) -> Result<(), InputError> {
        self.run("moving the pointer", Duration::ZERO, move |link| {
            pointer::move_to(link, at)
        })
        .await
    }

    /// Moves the pointer to `at` and clicks `button` `count` times (1–3)
    /// with `modifiers` held.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidArgument`] for a count outside 1–3;
    /// [`InputError::OutOfScreen`], [`InputError::NoModifierKey`],
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn click(
        &self,
        at: Point,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), InputError> {
        let modifiers = modifiers.to_vec();
        let gap = self.options.click_gap;
        self.run("clicking", gap * 3, move |link| {
            pointer::click(link, at, button, count, &modifiers, gap)
        })
        .await
    }

    /// Presses `button` (after moving to `at` if given) and leaves it down.
    ///
    /// # Errors
    ///
    /// As [`Input::move_to`].
    pub async fn button_down(&self, button: Button, at: Option<Point>) -> Result<(), InputError> {
        self.run("pressing a button", Duration::ZERO, move |link| {
            pointer::button(link, button, at, true)
        })
        .await
    }

    /// Releases `button` (after moving to `at` if given).
    ///
    /// # Errors
    ///
    /// As [`Input::move_to`].
    pub async fn button_up(&self, button: Button, at: Option<Point>) -> Result<(), InputError> {
        self.run("releasing a button", Duration::ZERO, move |link| {
            pointer::button(link, button, at, false)
        })
        .await
    }

    /// Drags along `path`: moves to its first point, presses `button`
    /// with `modifiers` held, moves through the path in `steps` motion
    /// events (`None`: about one per 10 px; at least one per segment)
    /// spread over `duration`, and releases on the last point.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidArgument`] for an empty path;
    /// [`InputError::OutOfScreen`], [`InputError::NoModifierKey`],
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn drag(
        &self,
        path: &[Point],
        button: Button,
        duration: Duration,
        steps: Option<u32>,
        modifiers: &[Modifier],
    ) -> Result<(), InputError> {
        let path = path.to_vec();
        let modifiers = modifiers.to_vec();
        self.run("dragging", duration, move |link| {
            pointer::drag(link, &path, button, duration, steps, &modifiers)
        })
        .await
    }

    /// Turns the wheel `amount` notches (1–1000) towards `direction` (at
    /// `at` if given) with `modifiers` held: buttons 4 up, 5 down, 6 left,
    /// 7 right.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidArgument`] for an amount outside 1–1000;
    /// [`InputError::OutOfScreen`], [`InputError::NoModifierKey`],
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn scroll(
        &self,
        at: Option<Point>,
        direction: Direction,
        amount: u32,
        modifiers: &[Modifier],
    ) -> Result<(), InputError> {
        let modifiers = modifiers.to_vec();
        self.run("scrolling", Duration::ZERO, move |link| {
            pointer::scroll(link, at, direction, amount, &modifiers)
        })
        .await
    }

    /// Where the pointer is (`QueryPointer`).
    ///
    /// # Errors
    ///
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn cursor_position(&self) -> Result<Point, InputError> {
        self.run("reading the pointer", Duration::ZERO, |link| {
            link.query_pointer().map(|(p, _)| p)
        })
        .await
    }

    /// The screen's width and height in pixels.
    ///
    /// # Errors
    ///
    /// [`InputError::X11`], [`InputError::Timeout`].
    pub async fn screen_size(&self) -> Result<(u32, u32), InputError> {
        self.run("reading the screen size", Duration::ZERO, |link| {
            link.screen_size()
                .map(|(w, h)| (u32::from(w), u32::from(h)))
        })
        .await
    }
}

/// Awaits a blocking task under `deadline`.
async fn finish<T>(
    task: tokio::task::JoinHandle<Result<T, InputError>>,
    what: &'static str,
    deadline: Duration,
) -> Result<T, InputError> {
    match tokio::time::timeout(deadline, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => Err(InputError::Worker(e.to_string())),
        Err(_) => Err(InputError::Timeout {
            what,
            ms: deadline.as_millis(),
        }),
    }
}
