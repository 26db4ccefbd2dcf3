//! Evidence that the client receiving the keys has handled every event
//! sent to it so far: a `_NET_WM_PING` (EWMH) to its top-level window,
//! answered in the order of its event queue.
//!
//! A keymap change reaches clients as a `MappingNotify`, and a client
//! translates keys with the keymap it had when it handled that
//! notification; some translate keys while still reading events off the
//! connection (Tk 8.6 runs its input method then, before it handles the
//! queued notification), so a key sent right behind a change can be read
//! with the old keymap. After a change cup waits for the ping's answer
//! before the first key; a client that does not take pings (Tk, xterm,
//! plain Xlib programs) gets [`InputOptions::notice_gap`](super::InputOptions)
//! instead.

use std::time::{Duration, Instant};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConnectionExt as _, EventMask, InputFocus, Window,
};

use super::link::{x11, Link};
use super::InputError;

/// What showed that the client noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notice {
    /// The client answered a ping sent after the events.
    Answered,
    /// The client takes no pings (or has no window): the gap was waited.
    Waited,
    /// The client takes pings but did not answer within the limit (busy or
    /// hung); the gap was waited too.
    Unanswered,
}

/// The depth of window trees searched for a client window.
const MAX_DEPTH: usize = 32;

/// The top-level client window (the one with `WM_STATE`, below a window
/// manager's frame, or the root's child itself) that keys go to now: the
/// focus window's, or with the focus on `PointerRoot` the one under the
/// pointer. `None` when keys go nowhere in particular.
pub(crate) fn focused_client(link: &Link) -> Result<Option<Window>, InputError> {
    let conn = link.conn();
    let root = link.root();
    let focus = x11!(
        "GetInputFocus",
        x11!("GetInputFocus", conn.get_input_focus())?.reply()
    )?
    .focus;
    // Focus on the root window (or PointerRoot) sends keys to the window
    // under the pointer.
    let start =
        if focus == u32::from(InputFocus::POINTER_ROOT) || focus == x11rb::NONE || focus == root {
            x11!(
                "QueryPointer",
                x11!("QueryPointer", conn.query_pointer(root))?.reply()
            )?
            .child
        } else {
            focus
        };
    if start == x11rb::NONE || start == root {
        return Ok(None);
    }
    // Up to the root's child.
    let mut top = start;
    for _ in 0..MAX_DEPTH {
        let tree = x11!(
            "QueryTree",
            x11!("QueryTree", conn.query_tree(top))?.reply()
        )?;
        if tree.parent == root || tree.parent == x11rb::NONE {
            break;
        }
        top = tree.parent;
    }
    // The client window: the top itself, or a descendant with WM_STATE
    // (a reparenting window manager's frame holds it), breadth first.
    let wm_state = link.atoms().wm_state;
    let mut level = vec![top];
    for _ in 0..3 {
        let mut next = Vec::new();
        for &w in &level {
            let state = x11!(
                "GetProperty WM_STATE",
                x11!(
                    "GetProperty WM_STATE",
                    conn.get_property(false, w, wm_state, AtomEnum::ANY, 0, 0)
                )?
                .reply()
            )?;
            if state.type_ != x11rb::NONE {
                return Ok(Some(w));
            }
            let tree = x11!("QueryTree", x11!("QueryTree", conn.query_tree(w))?.reply())?;
            next.extend(tree.children);
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    Ok(Some(top))
}

/// Whether `window` lists `_NET_WM_PING` in its `WM_PROTOCOLS`.
pub(crate) fn takes_pings(link: &Link, window: Window) -> Result<bool, InputError> {
    let atoms = link.atoms();
    let reply = x11!(
        "GetProperty WM_PROTOCOLS",
        x11!(
            "GetProperty WM_PROTOCOLS",
            link.conn()
                .get_property(false, window, atoms.wm_protocols, AtomEnum::ATOM, 0, 64)
        )?
        .reply()
    )?;
    Ok(reply
        .value32()
        .is_some_and(|mut atoms_listed| atoms_listed.any(|a| a == atoms.net_wm_ping)))
}

/// Pings `window` and waits for the answer until `limit` passes.
pub(crate) fn ping(link: &mut Link, window: Window, limit: Duration) -> Result<bool, InputError> {
    let atoms = link.atoms();
    let stamp = link.next_stamp();
    let event = ClientMessageEvent::new(
        32,
        window,
        atoms.wm_protocols,
        [atoms.net_wm_ping, stamp, window, 0, 0],
    );
    x11!(
        "SendEvent _NET_WM_PING",
        link.conn()
            .send_event(false, window, EventMask::NO_EVENT, event)
    )?;
    x11!("flush", link.conn().flush())?;
    link.wait_ping(stamp, Instant::now() + limit)
}

/// After a keymap change: waits until the client keys go to has handled
/// it (its ping answered), or the gap for clients that take no pings.
pub(crate) fn notice(
    link: &mut Link,
    gap: Duration,
    limit: Duration,
) -> Result<Notice, InputError> {
    link.sync()?;
    let client = focused_client(link)?;
    tracing::debug!(?client, "notice: the client keys go to");
    if let Some(window) = client {
        if takes_pings(link, window)? {
            if ping(link, window, limit)? {
                return Ok(Notice::Answered);
            }
            std::thread::sleep(gap);
            return Ok(Notice::Unanswered);
        }
    }
    std::thread::sleep(gap);
    Ok(Notice::Waited)
}
