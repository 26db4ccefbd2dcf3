//! Lending keycodes on the server: the leases ([`super::lease`]) are read,
//! planned and written back under a short server grab, so two cup
//! processes typing on one display (an MCP server and `cup call`) never
//! lend one keycode twice or take back each other's.

use std::time::{SystemTime, UNIX_EPOCH};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, PropMode};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::keymap::Keycode;
use super::keysym::Keysym;
use super::lease::{self, Ask, Change, Leases};
use super::link::{x11, Link};
use super::InputError;

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The server grabbed until dropped (the ungrab is sent and flushed on
/// every path).
struct Grab<'a> {
    conn: &'a RustConnection,
}

impl<'a> Grab<'a> {
    fn new(conn: &'a RustConnection) -> Result<Grab<'a>, InputError> {
        x11!("GrabServer", conn.grab_server())?;
        Ok(Grab { conn })
    }
}

impl Drop for Grab<'_> {
    fn drop(&mut self) {
        let _ = self.conn.ungrab_server();
        let _ = self.conn.flush();
    }
}

/// Words of the lease property read at most (a lease is four words).
const MAX_WORDS: u32 = 4 * 256 + 1;

/// The leases as the root window records them.
fn read_leases(link: &Link) -> Result<Leases, InputError> {
    let reply = x11!(
        "GetProperty _CUP_KEY_LEASES",
        x11!(
            "GetProperty _CUP_KEY_LEASES",
            link.conn().get_property(
                false,
                link.root(),
                link.atoms().leases,
                AtomEnum::CARDINAL,
                0,
                MAX_WORDS
            )
        )?
        .reply()
    )?;
    let words: Vec<u32> = reply.value32().map(Iterator::collect).unwrap_or_default();
    Ok(Leases::decode(&words))
}

fn write_leases(link: &Link, leases: &Leases) -> Result<(), InputError> {
    let conn = link.conn();
    if leases.is_empty() {
        x11!(
            "DeleteProperty _CUP_KEY_LEASES",
            conn.delete_property(link.root(), link.atoms().leases)
        )?;
    } else {
        x11!(
            "ChangeProperty _CUP_KEY_LEASES",
            conn.change_property32(
                PropMode::REPLACE,
                link.root(),
                link.atoms().leases,
                AtomEnum::CARDINAL,
                &leases.encode(),
            )
        )?;
    }
    Ok(())
}

/// The leases recorded now that `keymap` (the link's) still carries:
/// read once, then kept by the link until the property or the keymap
/// changes, so a press or a typed text costs no extra round trip.
pub(crate) fn leases(
    link: &mut Link,
    keymap: &super::keymap::Keymap,
) -> Result<Leases, InputError> {
    if let Some(leases) = link.cached_leases() {
        return Ok(leases.clone());
    }
    let mut leases = read_leases(link)?;
    leases.keep_valid(keymap);
    link.cache_leases(Some(leases.clone()));
    Ok(leases)
}

/// Notes that `in_use` keycodes were used now, where they are leases (so
/// no other call takes them back while their events may be unread); the
/// caller has seen that some are.
pub(crate) fn touch(link: &mut Link, in_use: &[Keycode]) -> Result<(), InputError> {
    {
        let _grab = Grab::new(link.conn())?;
        let mut leases = read_leases(link)?;
        if leases.touch(in_use, now_ms()) {
            write_leases(link, &leases)?;
        }
    }
    link.cache_leases(None);
    link.sync()
}

/// Binds as many of `wanted` as keycodes allow, in one change, taking back
/// leases past their hold on the way; `in_use` keycodes are never taken
/// and are noted as used, `read` ones may be taken at once. Returns the
/// change written (bindings and lazy restores); its errors are reported
/// before any key is sent.
pub(crate) fn lend(
    link: &mut Link,
    wanted: &[Keysym],
    in_use: &[Keycode],
    read: &[Keycode],
    hold_ms: u64,
    short_hold_ms: u64,
) -> Result<Change, InputError> {
    let maps = link.maps()?;
    let change = {
        let _grab = Grab::new(link.conn())?;
        // Under the grab the keymap is read afresh: another client may have
        // changed it since this link's copy.
        let keymap = link.read_keymap()?;
        let mut leases = read_leases(link)?;
        leases.keep_valid(&keymap);
        let now = now_ms();
        let change = lease::plan(
            &keymap,
            &maps.modmap,
            &leases,
            Ask {
                wanted,
                in_use,
                read,
                now_ms: now,
                hold_ms,
                short_hold_ms,
            },
        );
        for (first, rows) in change.runs(&keymap) {
            let per = keymap.remap_row(0).len();
            let count = u8::try_from(rows.len() / per.max(1)).unwrap_or(u8::MAX);
            let per = u8::try_from(per).unwrap_or(u8::MAX);
            x11!(
                "ChangeKeyboardMapping",
                link.conn()
                    .change_keyboard_mapping(count, first, per, &rows)
            )?;
        }
        leases.apply(&change, now);
        leases.touch(in_use, now);
        write_leases(link, &leases)?;
        change
    };
    // The round trip reports a refused change before any key is sent.
    link.sync()?;
    link.forget_maps();
    link.cache_leases(None);
    Ok(change)
}
