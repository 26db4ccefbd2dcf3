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

/// The leases recorded now that `keymap` still carries.
pub(crate) fn leases(link: &Link, keymap: &super::keymap::Keymap) -> Result<Leases, InputError> {
    let mut leases = read_leases(link)?;
    leases.keep_valid(keymap);
    Ok(leases)
}

/// Notes that `in_use` keycodes were used now, where they are leases (so
/// no other call takes them back while their events may be unread).
pub(crate) fn touch(link: &mut Link, in_use: &[Keycode]) -> Result<(), InputError> {
    if in_use.is_empty()
        || !read_leases(link)?
            .iter()
            .any(|l| in_use.contains(&l.keycode))
    {
        return Ok(());
    }
    {
        let _grab = Grab::new(link.conn())?;
        let mut leases = read_leases(link)?;
        if leases.touch(in_use, now_ms()) {
            write_leases(link, &leases)?;
        }
    }
    link.sync()
}

/// What [`lend`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Lent {
    /// The change written (bindings and lazy restores).
    pub change: Change,
}

/// Binds as many of `wanted` as keycodes allow, in one change, taking back
/// leases past their hold on the way; `in_use` keycodes are never taken
/// and are noted as used, `read` ones may be taken at once. Errors of the
/// change are reported before any key is sent.
pub(crate) fn lend(
    link: &mut Link,
    wanted: &[Keysym],
    in_use: &[Keycode],
    read: &[Keycode],
    hold_ms: u64,
    short_hold_ms: u64,
) -> Result<Lent, InputError> {
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
    Ok(Lent { change })
}
