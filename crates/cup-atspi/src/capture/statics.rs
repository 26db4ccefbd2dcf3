//! Facts of an accessible that do not change while it lives, kept across
//! captures: its role, its interfaces and the names of its actions.
//!
//! GTK (2, 3 through at-spi2-atk, and 4) derives all three from the
//! widget's class: the interfaces from the `GType`'s ATK interfaces (or
//! GTK 4's accessible role), the role when the accessible is created, the
//! action names from a per-class table. An object path is never handed to
//! another accessible while the app runs (both bridges number objects with
//! a growing counter), and an app that restarts gets a new bus name. So a
//! second capture of a GTK window need not ask again: on
//! gtk3-widget-factory that is the `GetActions` of every control and the
//! `GetRole` + `GetInterfaces` of every tree-view cell (the cells are not
//! in `Cache.GetItems`), about a third of the calls, each one a trip
//! through the app's main loop.
//!
//! GTK 2 (GIMP 2.10; its bridge names the toolkit GAIL) is the same but
//! for its tree-view cells' actions ([`Statics::keeps_actions`]).
//!
//! The labels of a control GTK left unnamed are kept too: GTK makes its
//! `LABELLED_BY` relation from the label's mnemonic widget (or the UI
//! file's relation), set when the window is built; the label's name is
//! read afresh every time.
//!
//! Other toolkits are always asked: Qt's action names follow the widget's
//! state (checkable, expandable) and web content's roles follow the page.
//! Names, states, extents, values and text are never kept.

use std::collections::HashMap;
use std::sync::Mutex;

use atspi::{InterfaceSet, Role as AtspiRole};

use crate::atspi_calls::ObjRef;

/// Objects kept per app; past it the app's entries start over (an app that
/// keeps creating accessibles, such as a long-running list view).
const MAX_PER_APP: usize = 50_000;
/// Apps kept; past it every other app's entries are dropped (apps that
/// quit leave entries behind under bus names never seen again).
const MAX_APPS: usize = 64;

/// What is known of one object.
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// Role and interfaces.
    pub kind: Option<(AtspiRole, InterfaceSet)>,
    /// Action names.
    pub actions: Option<Vec<String>>,
    /// The objects that label it (`LABELLED_BY`), asked only of a control
    /// with neither name nor description (see `labels`).
    pub labels: Option<Vec<ObjRef>>,
    /// Whether GTK made it (LibreOffice's VCL widgets say no toolkit: see
    /// `vcl_offset`).
    pub made_by_gtk: Option<bool>,
}

/// Static facts by app (bus name) and object path.
#[derive(Debug, Default)]
pub struct Statics {
    apps: Mutex<HashMap<String, HashMap<String, Known>>>,
}

impl Statics {
    /// Whether facts of the toolkit's objects are kept (see the module):
    /// GTK's, and GTK 2's under the name its bridge gives (GAIL).
    pub fn keeps(toolkit: &str) -> bool {
        toolkit.eq_ignore_ascii_case("gtk") || toolkit.eq_ignore_ascii_case("gail")
    }

    /// Whether the action names of a node of role `role` are kept: not
    /// those of GTK 2's tree-view cells, to which GAIL adds and removes
    /// "expand or contract" as their row gains and loses children (GTK 3's
    /// cells always name the same actions).
    pub fn keeps_actions(toolkit: &str, role: AtspiRole) -> bool {
        Self::keeps(toolkit)
            && !(toolkit.eq_ignore_ascii_case("gail") && role == AtspiRole::TableCell)
    }

    /// What is known of `obj`.
    pub fn get(&self, obj: &ObjRef) -> Known {
        self.apps
            .lock()
            .ok()
            .and_then(|apps| apps.get(&obj.bus)?.get(&obj.path).cloned())
            .unwrap_or_default()
    }

    /// Records `obj`'s role and interfaces; not for a document's text
    /// blocks, whose role follows their style (LibreOffice, through the
    /// GTK bridge, turns a paragraph into a heading in place).
    pub fn put_kind(&self, obj: &ObjRef, role: AtspiRole, interfaces: InterfaceSet) {
        if matches!(role, AtspiRole::Paragraph | AtspiRole::Heading) {
            return;
        }
        self.update(obj, |k| k.kind = Some((role, interfaces)));
    }

    /// Records `obj`'s action names.
    pub fn put_actions(&self, obj: &ObjRef, actions: &[String]) {
        self.update(obj, |k| k.actions = Some(actions.to_vec()));
    }

    /// Records the objects that label `obj`.
    pub fn put_labels(&self, obj: &ObjRef, labels: &[ObjRef]) {
        self.update(obj, |k| k.labels = Some(labels.to_vec()));
    }

    /// Records whether GTK made `obj`.
    pub fn put_made_by_gtk(&self, obj: &ObjRef, gtk: bool) {
        self.update(obj, |k| k.made_by_gtk = Some(gtk));
    }

    fn update(&self, obj: &ObjRef, set: impl FnOnce(&mut Known)) {
        let Ok(mut apps) = self.apps.lock() else {
            return;
        };
        if !apps.contains_key(&obj.bus) && apps.len() >= MAX_APPS {
            apps.clear();
        }
        let app = apps.entry(obj.bus.clone()).or_default();
        if !app.contains_key(&obj.path) && app.len() >= MAX_PER_APP {
            app.clear();
        }
        set(app.entry(obj.path.clone()).or_default());
    }

    /// Objects known across all apps.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.apps
            .lock()
            .map(|a| a.values().map(HashMap::len).sum())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use atspi::Interface;

    fn obj(bus: &str, path: usize) -> ObjRef {
        ObjRef::new(bus, format!("/org/a11y/atspi/accessible/{path}"))
    }

    #[test]
    fn a_text_blocks_role_is_not_kept() {
        let s = Statics::default();
        s.put_kind(&obj(":1.2", 7), AtspiRole::Paragraph, InterfaceSet::empty());
        s.put_kind(&obj(":1.2", 8), AtspiRole::Heading, InterfaceSet::empty());
        s.put_kind(&obj(":1.2", 9), AtspiRole::Button, InterfaceSet::empty());
        assert!(s.get(&obj(":1.2", 7)).kind.is_none());
        assert!(s.get(&obj(":1.2", 8)).kind.is_none());
        assert!(s.get(&obj(":1.2", 9)).kind.is_some());
    }

    #[test]
    fn keeps_gtk_only() {
        assert!(Statics::keeps("GTK"));
        assert!(Statics::keeps("gtk"));
        assert!(Statics::keeps("GAIL"));
        assert!(Statics::keeps_actions("GAIL", AtspiRole::MenuItem));
        assert!(!Statics::keeps_actions("GAIL", AtspiRole::TableCell));
        assert!(Statics::keeps_actions("gtk", AtspiRole::TableCell));
        assert!(!Statics::keeps_actions("Qt", AtspiRole::Button));
        assert!(!Statics::keeps("Qt"));
        assert!(!Statics::keeps("Chromium"));
        assert!(!Statics::keeps(""));
    }

    #[test]
    fn labels_are_kept_apart_from_the_rest() {
        let s = Statics::default();
        let field = obj(":1.5", 12);
        assert!(s.get(&field).labels.is_none());
        // No label is an answer too: it is not asked again.
        s.put_labels(&field, &[]);
        assert_eq!(s.get(&field).labels, Some(Vec::new()));
        s.put_labels(&field, &[obj(":1.5", 11)]);
        s.put_actions(&field, &["activate".to_owned()]);
        assert_eq!(s.get(&field).labels, Some(vec![obj(":1.5", 11)]));
        assert!(s.get(&obj(":1.6", 12)).labels.is_none());
    }

    #[test]
    fn remembers_kind_and_actions_separately() {
        let s = Statics::default();
        let a = obj(":1.5", 7);
        assert!(s.get(&a).kind.is_none() && s.get(&a).actions.is_none());
        s.put_actions(&a, &["click".to_owned()]);
        assert_eq!(
            s.get(&a).actions.as_deref(),
            Some(&["click".to_owned()][..])
        );
        assert!(s.get(&a).kind.is_none());
        let ifaces = InterfaceSet::new(Interface::Accessible | Interface::Action);
        s.put_kind(&a, AtspiRole::TableCell, ifaces);
        let k = s.get(&a);
        assert_eq!(k.kind, Some((AtspiRole::TableCell, ifaces)));
        assert!(k.actions.is_some());
        // Same path, other app: unknown.
        assert!(s.get(&obj(":1.6", 7)).actions.is_none());
    }

    #[test]
    fn bounded_per_app_and_in_apps() {
        let s = Statics::default();
        for i in 0..MAX_PER_APP {
            s.put_actions(&obj(":1.1", i), &[]);
        }
        assert_eq!(s.len(), MAX_PER_APP);
        // One more object: the app starts over with it alone.
        s.put_actions(&obj(":1.1", MAX_PER_APP), &[]);
        assert_eq!(s.len(), 1);
        // Known objects update in place at the cap.
        for b in 2..=MAX_APPS {
            s.put_actions(&obj(&format!(":1.{b}"), 0), &[]);
        }
        assert_eq!(s.len(), MAX_APPS);
        s.put_actions(&obj(":1.1", MAX_PER_APP), &["x".to_owned()]);
        assert_eq!(s.len(), MAX_APPS);
        // A new app past the cap: the others are dropped.
        s.put_actions(&obj(":1.999", 0), &[]);
        assert_eq!(s.len(), 1);
    }
}
