//! Actions: what an agent asks for, and what it gets back — including the
//! effect the adapter actually observed. No "success" without evidence:
//! `effect` is `confirmed` only when a change was seen.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What the adapter saw after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// A change was observed on the target or around it.
    Confirmed,
    /// Nothing observable changed within the settle time.
    NoChange,
    /// The effect could not be observed (e.g. the target is gone or the
    /// change is not exposed).
    Unverified,
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Effect::Confirmed => "confirmed",
            Effect::NoChange => "no_change",
            Effect::Unverified => "unverified",
        })
    }
}

/// One observed difference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// What changed: an element id of the snapshot (`e12`), `focus`,
    /// `windows`, or a native reference for elements outside the snapshot.
    pub target: String,
    /// `states`, `value`, `name`, `text`, `focus`, `windows`, `children`.
    pub field: String,
    /// Before the action (absent when unknown or new).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// After the action (absent when gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// The result of an action, press, open_app or batch step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionResult {
    /// The action was delivered (and not refused by the toolkit); whether
    /// it changed anything is `effect`.
    pub success: bool,
    /// What happened, e.g. `Toggled (checked)`.
    pub message: String,
    /// Why it failed, with what to do next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What was observed.
    pub effect: Effect,
    /// The observed differences.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
}

impl ActionResult {
    /// A result from what was observed: `no_change` is not a success.
    /// The action was delivered; `effect` says what was seen.
    pub fn observed(message: impl Into<String>, effect: Effect, changes: Vec<Change>) -> Self {
        ActionResult {
            success: true,
            message: message.into(),
            error: None,
            effect,
            changes,
        }
    }

    /// A failure before anything was done.
    pub fn failed(error: impl Into<String>) -> Self {
        ActionResult {
            success: false,
            message: String::new(),
            error: Some(error.into()),
            effect: Effect::Unverified,
            changes: Vec::new(),
        }
    }
}

pub use cup_protocol::Direction;

/// Parameters of an element action.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActionParams {
    /// Text for `type` and `setvalue`.
    pub value: Option<String>,
    /// Direction for `scroll`.
    pub direction: Option<Direction>,
    /// Wheel steps for `scroll` (default 3).
    pub amount: Option<u32>,
}

/// The element an action targets, as the latest snapshot knows it.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// Its id in the snapshot.
    pub id: &'a str,
    /// The adapter's native reference.
    pub native: &'a str,
    /// The node (role, name, states, actions, bounds).
    pub node: &'a cup_protocol::Node,
    /// The window root the node belongs to.
    pub window: &'a cup_protocol::Node,
}
