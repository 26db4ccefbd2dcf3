//! XTest's [`Input`] as the device the pixel-level gestures run on.

use std::time::Duration;

use async_trait::async_trait;
use cup::{AdapterError, Button, Direction, Point};
use cup_linux_display::device::GestureDevice;
use cup_protocol::keys::Modifier;

use crate::input::{self, Input, InputError};

fn platform(e: InputError) -> AdapterError {
    match e {
        InputError::OutOfScreen { .. } | InputError::InvalidArgument(_) => {
            AdapterError::Invalid(e.to_string())
        }
        e => AdapterError::Platform(e.to_string()),
    }
}

fn x11_button(b: Button) -> input::Button {
    match b {
        Button::Left => input::Button::Left,
        Button::Middle => input::Button::Middle,
        Button::Right => input::Button::Right,
        Button::Back => input::Button::Back,
        Button::Forward => input::Button::Forward,
    }
}

#[async_trait]
impl GestureDevice for Input {
    fn reads_pointer(&self) -> bool {
        true
    }

    async fn move_pointer(&self, to: Point) -> Result<Option<Point>, AdapterError> {
        self.move_to(to).await.map_err(platform)?;
        let now = self.cursor_position().await.map_err(platform)?;
        Ok(Some(now))
    }

    async fn click(
        &self,
        at: Point,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        Input::click(self, at, x11_button(button), count, modifiers)
            .await
            .map_err(platform)
    }

    async fn button(
        &self,
        at: Option<Point>,
        button: Button,
        down: bool,
    ) -> Result<(), AdapterError> {
        if down {
            self.button_down(x11_button(button), at).await
        } else {
            self.button_up(x11_button(button), at).await
        }
        .map_err(platform)
    }

    async fn drag(
        &self,
        path: &[Point],
        button: Button,
        duration: Duration,
        steps: Option<u32>,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        Input::drag(self, path, x11_button(button), duration, steps, modifiers)
            .await
            .map_err(platform)
    }

    async fn scroll(
        &self,
        at: Option<Point>,
        direction: Direction,
        amount: u32,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        Input::scroll(self, at, direction, amount, modifiers)
            .await
            .map_err(platform)
    }

    async fn write(&self, text: &str) -> Result<(), AdapterError> {
        Input::type_text(self, text).await.map_err(platform)
    }

    async fn pointer(&self) -> Result<Point, AdapterError> {
        self.cursor_position()
            .await
            .map_err(|e| AdapterError::Platform(e.to_string()))
    }
}
