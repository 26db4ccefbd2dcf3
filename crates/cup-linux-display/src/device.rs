//! The pointer and keyboard of a display server, as the actions use them:
//! [`InputOps`] (what an AT-SPI action falls back to) and
//! [`GestureDevice`] (the driver tools' pixel-level gestures). XTest's
//! device (cup-x11) and the Wayland compositors' (cup-wayland) implement
//! both; cup-atspi performs gestures over them.

use std::time::Duration;

use async_trait::async_trait;
use cup::{AdapterError, Button, Direction, Point};
use cup_protocol::keys::{Combo, Modifier};

/// Synthetic input at screen coordinates (XTest on X11).
#[async_trait]
pub trait InputOps: Send + Sync + std::fmt::Debug {
    /// Moves the pointer to (x, y) and clicks `button` (1 left, 2 middle,
    /// 3 right) `count` times.
    async fn click_at(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), AdapterError>;
    /// Presses `button` at (x, y), holds it for `hold`, releases it.
    async fn hold_at(&self, x: i64, y: i64, button: u8, hold: Duration)
        -> Result<(), AdapterError>;
    /// Turns the wheel at (x, y).
    async fn wheel_at(
        &self,
        x: i64,
        y: i64,
        direction: Direction,
        amount: u32,
    ) -> Result<(), AdapterError>;
    /// Makes the keyboard ready before the first key, where a device
    /// must (GNOME's remote desktop: see `MutterInput::prime_keyboard`);
    /// true when it did just now, and apps may be taking the keyboard's
    /// focus.
    async fn prime_keyboard(&self) -> Result<bool, AdapterError> {
        Ok(false)
    }
    /// Presses a key combo.
    async fn keys(&self, combo: &Combo) -> Result<(), AdapterError>;
    /// Types text (newlines as Return, tabs as Tab).
    async fn type_text(&self, text: &str) -> Result<(), AdapterError>;
}

/// A pointer and keyboard that performs gestures.
#[async_trait]
pub trait GestureDevice: InputOps {
    /// The device reads the pointer's position back (X11; not Wayland).
    fn reads_pointer(&self) -> bool;
    /// Moves the pointer to `to`. A device that can read the pointer back
    /// returns where it is then (the move is confirmed by it); one that
    /// cannot (Wayland) returns `None`, and the move is observed like any
    /// gesture.
    async fn move_pointer(&self, to: Point) -> Result<Option<Point>, AdapterError>;
    /// Clicks `button` `count` times at `at` with `modifiers` held.
    async fn click(
        &self,
        at: Point,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError>;
    /// Presses (`down`) or releases `button`, after moving to `at` if given.
    async fn button(
        &self,
        at: Option<Point>,
        button: Button,
        down: bool,
    ) -> Result<(), AdapterError>;
    /// Drags along `path` with `button` in `steps` moves over `duration`.
    async fn drag(
        &self,
        path: &[Point],
        button: Button,
        duration: Duration,
        steps: Option<u32>,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError>;
    /// Turns the wheel `amount` notches towards `direction`, at `at` or
    /// where the pointer is.
    async fn scroll(
        &self,
        at: Option<Point>,
        direction: Direction,
        amount: u32,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError>;
    /// Types `text` as keys.
    async fn write(&self, text: &str) -> Result<(), AdapterError>;
    /// Where the pointer is (on Wayland: where cup last put it).
    async fn pointer(&self) -> Result<Point, AdapterError>;
}
