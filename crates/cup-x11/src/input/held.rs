//! What an action holds on the server, undone on every path: keys and
//! buttons it pressed, the user's modifiers it released and Caps Lock it
//! turned off. [`Held::finish`] undoes them and reports errors; dropping a
//! `Held` (an error on the way) undoes them as well as it can. Keycodes
//! lent to keysyms are not held: they stay lent ([`super::lease`]).

use super::keymap::Keycode;
use super::keysym;
use super::link::{Link, Maps};
use super::InputError;

/// The pressed and changed state of one action.
#[derive(Debug)]
pub(crate) struct Held<'a> {
    link: &'a mut Link,
    /// Keys we pressed, in order.
    keys: Vec<Keycode>,
    /// Buttons we pressed.
    buttons: Vec<u8>,
    /// The user's modifier keys we released, pressed again at the end.
    user_keys: Vec<Keycode>,
    /// The Caps Lock key we tapped to turn Caps Lock off.
    caps_lock: Option<Keycode>,
}

impl<'a> Held<'a> {
    pub fn new(link: &'a mut Link) -> Held<'a> {
        Held {
            link,
            keys: Vec::new(),
            buttons: Vec::new(),
            user_keys: Vec::new(),
            caps_lock: None,
        }
    }

    pub fn link(&mut self) -> &mut Link {
        self.link
    }

    /// Presses `keycode` unless we hold it already.
    pub fn key_down(&mut self, keycode: Keycode) -> Result<(), InputError> {
        if !self.keys.contains(&keycode) {
            self.link.key(keycode, true)?;
            self.keys.push(keycode);
        }
        Ok(())
    }

    /// Releases `keycode` if we hold it.
    pub fn key_up(&mut self, keycode: Keycode) -> Result<(), InputError> {
        if let Some(i) = self.keys.iter().position(|&k| k == keycode) {
            self.keys.remove(i);
            self.link.key(keycode, false)?;
        }
        Ok(())
    }

    /// Whether we hold `keycode`.
    pub fn holds(&self, keycode: Keycode) -> bool {
        self.keys.contains(&keycode)
    }

    /// Presses a pointer button.
    pub fn button_down(&mut self, button: u8) -> Result<(), InputError> {
        if !self.buttons.contains(&button) {
            self.link.button(button, true)?;
            self.buttons.push(button);
        }
        Ok(())
    }

    /// Releases a pointer button we pressed.
    pub fn button_up(&mut self, button: u8) -> Result<(), InputError> {
        if let Some(i) = self.buttons.iter().position(|&b| b == button) {
            self.buttons.remove(i);
            self.link.button(button, false)?;
        }
        Ok(())
    }

    /// Releases the modifier keys that are down, to press them again at
    /// the end, and turns Caps Lock off when `caps_matters`. Returns the
    /// modifier state left.
    ///
    /// XTest can release only keys its own device pressed (held through
    /// XTest by this or another client); the server ignores the release of
    /// a key held on a physical keyboard. So the state is read again after
    /// the releases, and only keys that went up are pressed again at the
    /// end — pressing a physically held key through XTest would leave it
    /// stuck once the user lets go.
    pub fn release_user_modifiers(
        &mut self,
        maps: &Maps,
        caps_matters: bool,
    ) -> Result<u16, InputError> {
        let (keys, mut mask) = self.link.key_state()?;
        let down = |keys: &[u8; 32], kc: Keycode| {
            keys.get(usize::from(kc / 8))
                .is_some_and(|byte| byte & (1 << (kc % 8)) != 0)
        };
        let mut released = Vec::new();
        for kc in maps.modmap.held_modifier_keycodes() {
            let row = maps.keymap.row(kc);
            if down(&keys, kc) && !row.iter().any(|&k| keysym::is_lock(k)) {
                self.link.key(kc, false)?;
                released.push(kc);
            }
        }
        if !released.is_empty() {
            let (keys, now) = self.link.key_state()?;
            mask = now;
            self.user_keys = released
                .into_iter()
                .filter(|&kc| !down(&keys, kc))
                .collect();
        }
        const LOCK_MASK: u16 = 1 << super::keymap::LOCK_INDEX;
        if caps_matters && mask & LOCK_MASK != 0 {
            if let Some(kc) = maps.shifters.caps_lock {
                self.link.key(kc, true)?;
                self.link.key(kc, false)?;
                self.caps_lock = Some(kc);
                mask &= !LOCK_MASK;
            }
        }
        Ok(mask)
    }

    /// Undoes everything, then a round trip so it is all delivered.
    pub fn finish(mut self) -> Result<(), InputError> {
        self.undo_presses()?;
        self.link.sync()
    }

    fn undo_presses(&mut self) -> Result<(), InputError> {
        while let Some(kc) = self.keys.pop() {
            self.link.key(kc, false)?;
        }
        while let Some(b) = self.buttons.pop() {
            self.link.button(b, false)?;
        }
        if let Some(kc) = self.caps_lock.take() {
            self.link.key(kc, true)?;
            self.link.key(kc, false)?;
        }
        for kc in std::mem::take(&mut self.user_keys) {
            self.link.key(kc, true)?;
        }
        Ok(())
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if self.keys.is_empty()
            && self.buttons.is_empty()
            && self.user_keys.is_empty()
            && self.caps_lock.is_none()
        {
            return;
        }
        let _ = self.undo_presses();
        let _ = self.link.sync();
    }
}
