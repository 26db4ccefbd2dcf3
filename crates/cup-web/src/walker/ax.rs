//! A walker node as Chromium's `AXNode` would give it: its state bits,
//! level, range, URL and ARIA attributes as the properties the shared
//! mapping reads.

use serde_json::Value;

use super::{flag, WalkNode};
use crate::mapping::AxNode;

impl WalkNode {
    pub(super) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub(super) fn has(&self, bit: u32) -> bool {
        self.flags & bit != 0
    }

    /// The node as Chromium's `AXNode` would give it (what
    /// [`crate::mapping::map`] reads).
    pub fn ax_node(&self) -> AxNode {
        use flag as F;
        let mut props: Vec<(String, Value)> = Vec::new();
        let mut yes = |k: &str| props.push((k.to_owned(), Value::Bool(true)));
        for (bit, name) in [
            (F::FOCUSABLE, "focusable"),
            (F::FOCUSED, "focused"),
            (F::DISABLED, "disabled"),
            (F::READONLY, "readonly"),
            (F::REQUIRED, "required"),
            (F::BUSY, "busy"),
            (F::MODAL, "modal"),
            (F::MULTISELECTABLE, "multiselectable"),
            (F::MULTILINE, "multiline"),
        ] {
            if self.has(bit) {
                yes(name);
            }
        }
        if self.has(F::SELECTABLE) {
            props.push(("selected".into(), Value::Bool(self.has(F::SELECTED))));
        }
        if self.has(F::INVALID) {
            props.push(("invalid".into(), Value::String("true".into())));
        }
        if self.has(F::EDITABLE) {
            let kind = if self.has(F::RICH) {
                "richtext"
            } else {
                "plaintext"
            };
            props.push(("editable".into(), Value::String(kind.into())));
        }
        if self.has(F::CHECKABLE) || self.has(F::CHECKED) || self.has(F::MIXED) {
            let v = if self.has(F::MIXED) {
                "mixed"
            } else if self.has(F::CHECKED) {
                "true"
            } else {
                "false"
            };
            props.push(("checked".into(), Value::String(v.into())));
        }
        if self.has(F::EXPANDED) {
            props.push(("expanded".into(), Value::Bool(true)));
        } else if self.has(F::COLLAPSED) {
            props.push(("expanded".into(), Value::Bool(false)));
        }
        if self.has(F::TOGGLE) {
            let v = if self.has(F::PRESSED_MIXED) {
                "mixed"
            } else if self.has(F::PRESSED) {
                "true"
            } else {
                "false"
            };
            props.push(("pressed".into(), Value::String(v.into())));
        }
        if self.level > 0 {
            props.push(("level".into(), Value::from(self.level)));
        }
        if let Some(v) = self.valuemin {
            props.push(("valuemin".into(), Value::from(v)));
        }
        if let Some(v) = self.valuemax {
            props.push(("valuemax".into(), Value::from(v)));
        }
        if let Some(u) = &self.url {
            props.push(("url".into(), Value::String(u.clone())));
        }
        // ARIA properties Chromium passes on: keywords lower-cased (as
        // Chromium reports them), free text as written.
        for (attr, prop, keyword) in [
            ("aria-orientation", "orientation", true),
            ("aria-autocomplete", "autocomplete", true),
            ("aria-live", "live", true),
            ("aria-keyshortcuts", "keyshortcuts", false),
            ("aria-roledescription", "roledescription", false),
            ("aria-valuetext", "valuetext", false),
        ] {
            if let Some(v) = self.attr(attr).map(str::trim).filter(|v| !v.is_empty()) {
                let v = if keyword {
                    v.to_ascii_lowercase()
                } else {
                    v.to_owned()
                };
                props.push((prop.to_owned(), Value::String(v)));
            }
        }
        for (attr, prop) in [
            ("aria-posinset", "posinset"),
            ("aria-setsize", "setsize"),
            ("aria-rowindex", "rowindex"),
            ("aria-colindex", "colindex"),
            ("aria-rowcount", "rowcount"),
            ("aria-colcount", "colcount"),
        ] {
            if let Some(v) = self.attr(attr).and_then(|v| v.trim().parse::<i64>().ok()) {
                props.push((prop.to_owned(), Value::from(v)));
            }
        }
        let valued = self.has(F::EDITABLE)
            || matches!(
                self.role.as_str(),
                "slider" | "spinbutton" | "progressbar" | "scrollbar" | "combobox" | "meter"
            );
        AxNode {
            id: String::new(),
            ignored: false,
            role: self.role.clone(),
            name: self.name.clone(),
            description: Some(self.description.clone()).filter(|d| !d.is_empty()),
            value: (valued || !self.value.is_empty()).then(|| self.value.clone()),
            props,
            child_ids: Vec::new(),
            backend_id: None,
        }
    }
}
