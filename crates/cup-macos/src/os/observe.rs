//! An `AXObserver` on one app for the span of an action: the
//! notifications of [`crate::events::NOTIFICATIONS`], registered on the app
//! element (they come from all its elements), delivered through this
//! thread's run loop while [`Observer::pump`] runs it. Each is recorded
//! with its element, read when it arrives. An observer lives on the thread
//! that made it and is removed when dropped.

use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::time::Duration;

use objc2_application_services::{AXError, AXObserver, AXUIElement};
use objc2_core_foundation::{
    kCFRunLoopDefaultMode, CFRetained, CFRunLoop, CFRunLoopSource, CFString, CFType,
};

use crate::events::{Seen, MAX_EVENTS, NOTIFICATIONS};
use crate::os::ax::{self, AxReads};

/// What the callback sees.
struct Context {
    target: Option<CFRetained<AXUIElement>>,
    reads: AxReads,
    seen: RefCell<Vec<Seen>>,
}

/// An observer of one app.
pub struct Observer {
    observer: CFRetained<AXObserver>,
    app: CFRetained<AXUIElement>,
    source: CFRetained<CFRunLoopSource>,
    run_loop: CFRetained<CFRunLoop>,
    registered: Vec<CFRetained<CFString>>,
    // Boxed: the callback holds its address until the notifications are
    // removed (in `drop`, before the box goes).
    context: Box<Context>,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer")
            .field("registered", &self.registered.len())
            .finish_non_exhaustive()
    }
}

unsafe extern "C-unwind" fn callback(
    _observer: NonNull<AXObserver>,
    element: NonNull<AXUIElement>,
    notification: NonNull<CFString>,
    refcon: *mut c_void,
) {
    if refcon.is_null() {
        return;
    }
    // SAFETY: `refcon` is the boxed Context of the Observer that
    // registered this callback; it outlives the registration, and the
    // callback runs on the observer's own thread (its run loop), so there
    // is no other access at the same time.
    let ctx = unsafe { &*refcon.cast::<Context>() };
    // SAFETY: AX passes live objects for the duration of the call.
    let (element, notification) = unsafe { (element.as_ref(), notification.as_ref()) };
    if ctx.seen.borrow().len() >= MAX_EVENTS {
        return;
    }
    let name = notification.to_string();
    let is_target = ctx.target.as_ref().is_some_and(|t| {
        let (a, b): (&CFType, &CFType) = (t, element);
        a == b
    });
    let facts = if name == "AXUIElementDestroyed" {
        None
    } else {
        ctx.reads.facts(element).ok()
    };
    ctx.seen.borrow_mut().push(Seen {
        notification: name,
        element: facts,
        is_target,
    });
}

impl Observer {
    /// Observes app `pid`; `target` is the action's element (its
    /// notifications name it by its id).
    ///
    /// # Errors
    ///
    /// The observer could not be made, or the app took no notification.
    pub fn start(pid: i32, target: Option<CFRetained<AXUIElement>>) -> Result<Observer, String> {
        let mut raw: *mut AXObserver = std::ptr::null_mut();
        // SAFETY: `callback` has the AXObserverCallback signature; `raw`
        // is a valid place for the created (+1) observer.
        let e = unsafe { AXObserver::create(pid, Some(callback), NonNull::from(&mut raw)) };
        if e != AXError::Success {
            return Err(format!("AXObserverCreate failed: AXError {}", e.0));
        }
        let observer = NonNull::new(raw)
            // SAFETY: a Create function's result is ours to release.
            .map(|p| unsafe { CFRetained::from_raw(p) })
            .ok_or("AXObserverCreate gave no observer")?;
        let run_loop = CFRunLoop::current().ok_or("this thread has no run loop")?;
        // SAFETY: a live observer.
        let source = unsafe { observer.run_loop_source() };
        // SAFETY: the framework's constant mode name.
        let mode = unsafe { kCFRunLoopDefaultMode };
        run_loop.add_source(Some(&source), mode);
        let context = Box::new(Context {
            target,
            reads: AxReads::new(),
            seen: RefCell::new(Vec::new()),
        });
        let app = ax::app(pid);
        let mut me = Observer {
            observer,
            app,
            source,
            run_loop,
            registered: Vec::new(),
            context,
        };
        let refcon: *const Context = &*me.context;
        for n in NOTIFICATIONS {
            let name = CFString::from_str(n);
            // SAFETY: live observer and element; `refcon` points to the
            // boxed Context, which lives until the notification is removed.
            let e = unsafe {
                me.observer
                    .add_notification(&me.app, &name, refcon.cast_mut().cast())
            };
            if e == AXError::Success {
                me.registered.push(name);
            }
        }
        if me.registered.is_empty() {
            return Err("the app accepted no AX notification".into());
        }
        Ok(me)
    }

    /// Runs this thread's run loop for `d`, delivering notifications.
    pub fn pump(&self, d: Duration) {
        // SAFETY: the framework's constant mode name.
        let mode = unsafe { kCFRunLoopDefaultMode };
        let _ = CFRunLoop::run_in_mode(mode, d.as_secs_f64(), false);
    }

    /// The notifications recorded so far (taken).
    pub fn take(&self) -> Vec<Seen> {
        std::mem::take(&mut *self.context.seen.borrow_mut())
    }
}

impl Drop for Observer {
    fn drop(&mut self) {
        for name in &self.registered {
            // SAFETY: live observer and element; the notification was
            // registered on this element.
            let _ = unsafe { self.observer.remove_notification(&self.app, name) };
        }
        // SAFETY: the framework's constant mode name.
        let mode = unsafe { kCFRunLoopDefaultMode };
        self.run_loop.remove_source(Some(&self.source), mode);
    }
}
