//! UI Automation event handlers for an action's evidence: property changes
//! ([`crate::events::PROPERTIES`]) and structure changes in one window's
//! subtree, and focus changes anywhere, each with its sender's properties cached at the time (the
//! worker's one-element cache request). The handlers only store what
//! arrives; the worker that registered them reads it ([`Listener::take`])
//! and removes them when dropped. What it means is decided in
//! [`crate::events`].

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use windows::Win32::System::Com::SAFEARRAY;
use windows::Win32::System::Variant::VARIANT;
use windows::Win32::UI::Accessibility::{
    IUIAutomationElement, IUIAutomationFocusChangedEventHandler,
    IUIAutomationFocusChangedEventHandler_Impl, IUIAutomationPropertyChangedEventHandler,
    IUIAutomationPropertyChangedEventHandler_Impl, IUIAutomationStructureChangedEventHandler,
    IUIAutomationStructureChangedEventHandler_Impl, StructureChangeType, TreeScope_Subtree,
    UIA_PROPERTY_ID,
};
use windows_core::{implement, Ref};

use crate::events::{EventKind, Seen, MAX_EVENTS, PROPERTIES};
use crate::os::call_error;
use crate::os::uia::Uia;

/// An event's sender, handed from UIA's event thread to the worker.
struct Sender(IUIAutomationElement);

// SAFETY: the handlers and the worker are all in the multithreaded
// apartment, where a UIA element's interface pointer may be used from any
// thread (UIA's client objects are free-threaded).
unsafe impl Send for Sender {}

/// What the handlers received, not yet read.
#[derive(Default)]
struct Inbox {
    events: Mutex<Vec<(EventKind, Option<Sender>)>>,
    arrived: Condvar,
}

impl Inbox {
    fn push(&self, kind: EventKind, sender: Option<IUIAutomationElement>) {
        let mut events = self.events.lock().unwrap_or_else(PoisonError::into_inner);
        if events.len() < MAX_EVENTS {
            events.push((kind, sender.map(Sender)));
        }
        self.arrived.notify_all();
    }
}

#[implement(IUIAutomationPropertyChangedEventHandler)]
struct PropertyHandler(Arc<Inbox>);

impl IUIAutomationPropertyChangedEventHandler_Impl for PropertyHandler_Impl {
    fn HandlePropertyChangedEvent(
        &self,
        sender: Ref<'_, IUIAutomationElement>,
        propertyid: UIA_PROPERTY_ID,
        _newvalue: &VARIANT,
    ) -> windows_core::Result<()> {
        self.0
            .push(EventKind::Property(propertyid.0), sender.cloned());
        Ok(())
    }
}

#[implement(IUIAutomationStructureChangedEventHandler)]
struct StructureHandler(Arc<Inbox>);

impl IUIAutomationStructureChangedEventHandler_Impl for StructureHandler_Impl {
    fn HandleStructureChangedEvent(
        &self,
        sender: Ref<'_, IUIAutomationElement>,
        changetype: StructureChangeType,
        _runtimeid: *const SAFEARRAY,
    ) -> windows_core::Result<()> {
        self.0
            .push(EventKind::Structure(changetype.0), sender.cloned());
        Ok(())
    }
}

#[implement(IUIAutomationFocusChangedEventHandler)]
struct FocusHandler(Arc<Inbox>);

impl IUIAutomationFocusChangedEventHandler_Impl for FocusHandler_Impl {
    fn HandleFocusChangedEvent(
        &self,
        sender: Ref<'_, IUIAutomationElement>,
    ) -> windows_core::Result<()> {
        self.0.push(EventKind::Focus, sender.cloned());
        Ok(())
    }
}

/// Handlers registered on one window's subtree (and the focus), removed
/// on drop.
pub struct Listener<'a> {
    uia: &'a Uia,
    window: IUIAutomationElement,
    property: Option<IUIAutomationPropertyChangedEventHandler>,
    structure: Option<IUIAutomationStructureChangedEventHandler>,
    focus: Option<IUIAutomationFocusChangedEventHandler>,
    inbox: Arc<Inbox>,
}

impl<'a> Listener<'a> {
    /// Listens to the subtree of window `hwnd`.
    ///
    /// # Errors
    ///
    /// When neither handler could be registered (which call, which
    /// HRESULT); one that could not is logged.
    pub fn start(uia: &'a Uia, hwnd: i64) -> Result<Listener<'a>, String> {
        let window = uia.window_element(hwnd).map_err(|e| e.to_string())?;
        let inbox = Arc::new(Inbox::default());
        let property: IUIAutomationPropertyChangedEventHandler =
            PropertyHandler(Arc::clone(&inbox)).into();
        let structure: IUIAutomationStructureChangedEventHandler =
            StructureHandler(Arc::clone(&inbox)).into();
        let focus: IUIAutomationFocusChangedEventHandler = FocusHandler(Arc::clone(&inbox)).into();
        let ids: Vec<UIA_PROPERTY_ID> = PROPERTIES.iter().map(|p| UIA_PROPERTY_ID(*p)).collect();
        // SAFETY: COM calls on live objects of this MTA thread; the
        // property array outlives the call (UIA copies it); the handlers
        // are COM objects that UIA keeps a reference to until removed.
        let p = unsafe {
            uia.automation.AddPropertyChangedEventHandlerNativeArray(
                &window,
                TreeScope_Subtree,
                &uia.event_request,
                &property,
                &ids,
            )
        };
        // SAFETY: as above.
        let s = unsafe {
            uia.automation.AddStructureChangedEventHandler(
                &window,
                TreeScope_Subtree,
                &uia.event_request,
                &structure,
            )
        };
        // SAFETY: as above.
        let f = unsafe {
            uia.automation
                .AddFocusChangedEventHandler(&uia.event_request, &focus)
        };
        let mut failed = Vec::new();
        if let Err(e) = &p {
            failed.push(call_error(
                e,
                "IUIAutomation::AddPropertyChangedEventHandlerNativeArray",
            ));
        }
        if let Err(e) = &s {
            failed.push(call_error(
                e,
                "IUIAutomation::AddStructureChangedEventHandler",
            ));
        }
        if let Err(e) = &f {
            failed.push(call_error(e, "IUIAutomation::AddFocusChangedEventHandler"));
        }
        if p.is_err() && s.is_err() && f.is_err() {
            return Err(failed.join("; "));
        }
        for f in failed {
            tracing::debug!("{f}; the other events still count");
        }
        Ok(Listener {
            uia,
            window,
            property: p.ok().map(|()| property),
            structure: s.ok().map(|()| structure),
            focus: f.ok().map(|()| focus),
            inbox,
        })
    }

    /// Waits up to `timeout` for an event not yet taken.
    pub fn wait(&self, timeout: Duration) {
        let events = self
            .inbox
            .events
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if events.is_empty() {
            let _ = self
                .inbox
                .arrived
                .wait_timeout(events, timeout)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The events that arrived since the last call, their senders' facts
    /// read from what was cached when each was raised.
    pub fn take(&self) -> Vec<Seen> {
        let raw = std::mem::take(
            &mut *self
                .inbox
                .events
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        raw.into_iter()
            .map(|(kind, sender)| Seen {
                kind,
                sender: sender.map(|s| self.uia.facts(&s.0)),
            })
            .collect()
    }
}

impl std::fmt::Debug for Listener<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("property", &self.property.is_some())
            .field("structure", &self.structure.is_some())
            .field("focus", &self.focus.is_some())
            .finish_non_exhaustive()
    }
}

impl Drop for Listener<'_> {
    fn drop(&mut self) {
        // SAFETY: COM calls on live objects, from the MTA thread that
        // registered the handlers (never from inside a handler).
        unsafe {
            if let Some(h) = &self.property {
                if let Err(e) = self
                    .uia
                    .automation
                    .RemovePropertyChangedEventHandler(&self.window, h)
                {
                    tracing::debug!(
                        "{}",
                        call_error(&e, "IUIAutomation::RemovePropertyChangedEventHandler")
                    );
                }
            }
            if let Some(h) = &self.structure {
                if let Err(e) = self
                    .uia
                    .automation
                    .RemoveStructureChangedEventHandler(&self.window, h)
                {
                    tracing::debug!(
                        "{}",
                        call_error(&e, "IUIAutomation::RemoveStructureChangedEventHandler")
                    );
                }
            }
            if let Some(h) = &self.focus {
                if let Err(e) = self.uia.automation.RemoveFocusChangedEventHandler(h) {
                    tracing::debug!(
                        "{}",
                        call_error(&e, "IUIAutomation::RemoveFocusChangedEventHandler")
                    );
                }
            }
        }
    }
}
