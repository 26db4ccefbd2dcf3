//! The XTest [`Input`] as the actions' pointer and keyboard.

use std::time::Duration;

use async_trait::async_trait;
use cup::{AdapterError, Direction};
use cup_protocol::keys::Combo;

use crate::input::{Button, Input, InputError, Point};
use cup_linux_display::device::InputOps;

fn platform(e: InputError) -> AdapterError {
    AdapterError::Platform(e.to_string())
}

fn button(number: u8) -> Button {
    match number {
        1 => Button::Left,
        2 => Button::Middle,
        3 => Button::Right,
        8 => Button::Back,
        9 => Button::Forward,
        n => Button::Other(n),
    }
}

#[async_trait]
impl InputOps for Input {
    async fn click_at(&self, x: i64, y: i64, number: u8, count: u8) -> Result<(), AdapterError> {
        self.click(Point::new(x, y), button(number), count, &[])
            .await
            .map_err(platform)
    }

    async fn hold_at(
        &self,
        x: i64,
        y: i64,
        number: u8,
        hold: Duration,
    ) -> Result<(), AdapterError> {
        let at = Some(Point::new(x, y));
        self.button_down(button(number), at)
            .await
            .map_err(platform)?;
        // The hold is the gesture itself (a long press), not a settle wait.
        tokio::time::sleep(hold).await;
        self.button_up(button(number), at).await.map_err(platform)
    }

    async fn wheel_at(
        &self,
        x: i64,
        y: i64,
        direction: Direction,
        amount: u32,
    ) -> Result<(), AdapterError> {
        self.scroll(Some(Point::new(x, y)), direction, amount, &[])
            .await
            .map_err(platform)
    }

    async fn keys(&self, combo: &Combo) -> Result<(), AdapterError> {
        self.press_combo(combo).await.map_err(platform)
    }

    async fn type_text(&self, text: &str) -> Result<(), AdapterError> {
        Input::type_text(self, text).await.map_err(platform)
    }
}
