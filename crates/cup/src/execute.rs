//! The session's actions: element actions with validation, key presses,
//! screenshots, app launch and batches. Every failure is a one-line error
//! that says what to do next.

use std::time::Duration;

use cup_protocol::keys::parse_combo;
use cup_protocol::{Action, Node};
use serde_json::Value;

use crate::action::{ActionParams, ActionResult, Direction, Effect, Target};
use crate::adapter::{AppEntry, Check, Launched, Shot, ShotTarget};
use crate::input::{Gesture, Point};
use crate::session::{Session, SessionError};

/// Verbs done with the pointer at the element's centre when the toolkit has
/// no equivalent: allowed on any element that has bounds.
const POINTER_VERBS: [Action; 4] = [
    Action::DoubleClick,
    Action::RightClick,
    Action::LongPress,
    Action::Scroll,
];

/// Errors of actions that could not even start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ActionError {
    /// Not one of the 15 CUP verbs.
    #[error("Unknown action '{0}'; valid: {valid}", valid = valid_actions())]
    UnknownAction(String),
    /// The id is not in the latest snapshot.
    #[error("element '{id}' not found in the current snapshot ({count} elements, ids up to e{last}); take a new snapshot and use its ids")]
    UnknownId {
        /// The id asked for.
        id: String,
        /// Elements in the snapshot.
        count: usize,
        /// Highest id number (ids may have gaps: a web page's nodes keep
        /// their ids from one snapshot to the next).
        last: usize,
    },
    /// An element action before any snapshot.
    #[error("element '{0}' not found: there is no snapshot yet; take a snapshot and use its ids")]
    NoSnapshot(String),
    /// The element does not offer this verb.
    #[error("{id} ({role} \"{name}\") does not support {action}; it supports: {supported}")]
    Unsupported {
        /// The id.
        id: String,
        /// Its role.
        role: String,
        /// Its name.
        name: String,
        /// The verb asked for.
        action: String,
        /// What it offers.
        supported: String,
    },
    /// A required parameter is missing or wrong.
    #[error("{0}")]
    BadParams(String),
}

fn valid_actions() -> String {
    Action::ALL
        .iter()
        .map(|a| a.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Session {
    /// Performs `action` (a CUP verb name) on element `id` of the latest
    /// snapshot and reports the observed effect.
    pub async fn action(
        &mut self,
        id: &str,
        action: &str,
        params: &ActionParams,
    ) -> Result<ActionResult, SessionError> {
        let verb = check_request(action, params)?;
        let last = self
            .last
            .as_ref()
            .ok_or_else(|| ActionError::NoSnapshot(id.to_owned()))?;
        let (window, node) =
            find_node(&last.envelope.tree, id).ok_or_else(|| ActionError::UnknownId {
                id: id.to_owned(),
                count: last.envelope.node_count(),
                last: last
                    .envelope
                    .nodes()
                    .filter_map(|n| n.id.strip_prefix('e')?.parse::<usize>().ok())
                    .max()
                    .unwrap_or(0),
            })?;
        check_supported(id, node, verb)?;
        if crate::pixel_act::is_pixel_action(node, verb) {
            // Read from pixels: no element behind it, the pointer and the
            // keyboard act, the pixels tell the effect.
            let holder = if node.is_from_pixels() {
                parent_of(window, id).unwrap_or(window)
            } else {
                node
            };
            let region = holder
                .bounds
                .ok_or_else(|| ActionError::BadParams(format!("{id} has no bounds")))?;
            let target = crate::pixel_act::PixelTarget {
                id: id.to_owned(),
                node: node.clone(),
                region,
                region_id: holder.id.clone(),
                window: window.clone(),
                window_native: last.refs.get(&window.id).cloned().unwrap_or_default(),
            };
            return self.act_on_pixels(target, verb, params).await;
        }
        let native = last.refs.get(id).cloned().unwrap_or_default();
        let target = Target {
            id,
            native: &native,
            node,
            window,
        };
        let mut result = self.adapter.act(&target, verb, params, &last.refs).await?;
        result.changes = crate::action::condense(std::mem::take(&mut result.changes), Some(id));
        Ok(result)
    }

    /// Presses a key combo (`ctrl+s`, `alt+f4`, `shift`).
    pub async fn press(&mut self, combo: &str) -> Result<ActionResult, SessionError> {
        let parsed = parse_combo(combo)
            .map_err(|e| ActionError::BadParams(format!("keys {combo:?}: {e}")))?;
        let refs = self
            .last
            .as_ref()
            .map(|l| l.refs.clone())
            .unwrap_or_default();
        let mut result = self.adapter.press(&parsed, &refs).await?;
        result.changes = crate::action::condense(std::mem::take(&mut result.changes), None);
        Ok(result)
    }

    /// A PNG screenshot.
    pub async fn screenshot(&mut self, target: &ShotTarget) -> Result<Shot, SessionError> {
        Ok(self.adapter.screenshot(target).await?)
    }

    /// Performs a pixel-level gesture and reports the observed effect.
    pub async fn input(&mut self, gesture: &Gesture) -> Result<ActionResult, SessionError> {
        check_gesture(gesture)?;
        let refs = self
            .last
            .as_ref()
            .map(|l| l.refs.clone())
            .unwrap_or_default();
        let mut result = self.adapter.input(gesture, &refs).await?;
        result.changes = crate::action::condense(std::mem::take(&mut result.changes), None);
        Ok(result)
    }

    /// Where the pointer is.
    pub async fn cursor(&self) -> Result<Point, SessionError> {
        Ok(self.adapter.cursor().await?)
    }

    /// Installed and running applications.
    pub async fn apps(&self) -> Result<Vec<AppEntry>, SessionError> {
        Ok(self.adapter.apps().await?)
    }

    /// What the adapter needs, checked.
    pub async fn check(&self) -> Vec<Check> {
        self.adapter.check().await
    }

    /// What the adapter needs, checked, after asking the OS to show its
    /// prompts for missing permissions when `prompt` (macOS).
    pub async fn check_prompting(&self, prompt: bool) -> Vec<Check> {
        self.adapter.check_prompting(prompt).await
    }

    /// Launches an installed app by name and waits for its window.
    pub async fn open_app(&mut self, name: &str) -> Result<Launched, SessionError> {
        if name.trim().is_empty() {
            return Err(ActionError::BadParams(
                "app name must not be empty; give part of its name, e.g. \"calculator\"".into(),
            )
            .into());
        }
        Ok(self.adapter.open_app(name.trim()).await?)
    }

    /// Like [`Session::open_app`], with arguments for the app (files,
    /// URLs, flags).
    pub async fn open_app_with(
        &mut self,
        name: &str,
        args: &[String],
    ) -> Result<Launched, SessionError> {
        if name.trim().is_empty() {
            return Err(ActionError::BadParams(
                "app name must not be empty; give part of its name, e.g. \"calculator\"".into(),
            )
            .into());
        }
        Ok(self.adapter.open_app_with(name.trim(), args).await?)
    }

    /// Gen-1 name of [`Session::action`].
    pub async fn execute(
        &mut self,
        id: &str,
        action: &str,
        params: &ActionParams,
    ) -> Result<ActionResult, SessionError> {
        self.action(id, action, params).await
    }

    /// Gen-1 name of [`Session::press`].
    pub async fn press_keys(&mut self, combo: &str) -> Result<ActionResult, SessionError> {
        self.press(combo).await
    }

    /// Gen-1 name of [`Session::open_app`].
    pub async fn launch_app(&mut self, name: &str) -> Result<Launched, SessionError> {
        self.open_app(name).await
    }

    /// Gen-1 name of [`Session::batch`].
    pub async fn batch_execute(&mut self, steps: &[Value]) -> Vec<ActionResult> {
        self.batch(steps).await
    }

    /// Gen-1 name of [`Session::find`].
    pub fn find_elements(
        &self,
        query: &cup_protocol::search::FindQuery,
    ) -> Result<Vec<Node>, SessionError> {
        self.find(query)
    }

    /// Gen-1 name of [`Session::snapshot`].
    pub async fn capture(
        &mut self,
        req: &crate::SnapshotRequest,
    ) -> Result<&crate::Snapshot, SessionError> {
        self.snapshot(req).await
    }

    /// Runs steps in order and stops at the first failure (whose result is
    /// included). Each step is an object with `action` and its parameters:
    /// an element verb with `element_id` (and `value`, `direction`),
    /// `press` with `keys`, `wait` with `ms` (50–5000), `open_app` with
    /// `name`, `snapshot` (with `scope`), `find` (with `query`, `role`,
    /// `name`, `state`, `limit`: the matching lines in `message`). The
    /// Gen-1 names `execute` (with `verb`), `press_keys`, `launch_app`,
    /// `capture`, `find_elements` are accepted.
    pub async fn batch(&mut self, steps: &[Value]) -> Vec<ActionResult> {
        let mut results = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            let result = match self.batch_step(step).await {
                Ok(r) => r,
                Err(e) => ActionResult::failed(format!("step {}: {e}", i + 1)),
            };
            let failed = !result.success;
            results.push(result);
            if failed {
                break;
            }
        }
        results
    }

    async fn batch_step(&mut self, step: &Value) -> Result<ActionResult, SessionError> {
        let obj = step.as_object().ok_or_else(|| {
            ActionError::BadParams(format!(
                "a step must be an object like {{\"action\":\"click\",\"element_id\":\"e3\"}}, got {step}"
            ))
        })?;
        let text = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_owned);
        let action = text("action")
            .ok_or_else(|| ActionError::BadParams("a step needs \"action\"".into()))?;
        match action.as_str() {
            "wait" => {
                let ms = obj
                    .get("ms")
                    .and_then(Value::as_u64)
                    .unwrap_or(500)
                    .clamp(50, 5000);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                Ok(ActionResult {
                    success: true,
                    message: format!("Waited {ms}ms"),
                    error: None,
                    effect: Effect::Unverified,
                    changes: Vec::new(),
                })
            }
            "press" | "press_keys" => {
                let keys = text("keys").or_else(|| text("combo")).ok_or_else(|| {
                    ActionError::BadParams("press needs \"keys\", e.g. \"ctrl+s\"".into())
                })?;
                self.press(&keys).await
            }
            "open_app" | "launch_app" => {
                let name = text("name")
                    .or_else(|| text("app"))
                    .ok_or_else(|| ActionError::BadParams("open_app needs \"name\"".into()))?;
                let launched = self.open_app(&name).await?;
                Ok(ActionResult::launched(&launched))
            }
            "find" | "find_elements" => {
                let state = text("state")
                    .map(|st| {
                        cup_protocol::State::from_name(st.trim()).ok_or_else(|| {
                            ActionError::BadParams(format!(
                                "find: unknown state {st:?}; use a CUP state such as focused, checked, disabled"
                            ))
                        })
                    })
                    .transpose()?;
                let query = cup_protocol::search::FindQuery {
                    query: text("query"),
                    role: text("role"),
                    name: text("name"),
                    state,
                    limit: obj
                        .get("limit")
                        .and_then(Value::as_u64)
                        .and_then(|l| usize::try_from(l).ok())
                        .unwrap_or(0),
                };
                let found = self.find(&query)?;
                let lines: Vec<String> = found
                    .iter()
                    .map(cup_protocol::compact::format_line)
                    .collect();
                Ok(ActionResult {
                    success: true,
                    message: if lines.is_empty() {
                        "No matches".to_owned()
                    } else {
                        format!("{} matches:\n{}", lines.len(), lines.join("\n"))
                    },
                    error: None,
                    effect: Effect::Unverified,
                    changes: Vec::new(),
                })
            }
            "snapshot" | "capture" => {
                let scope = text("scope").unwrap_or_else(|| "foreground".into());
                let req = crate::SnapshotRequest {
                    scope: scope
                        .parse()
                        .map_err(|e| ActionError::BadParams(format!("snapshot scope: {e}")))?,
                    app: text("app"),
                    ..crate::SnapshotRequest::default()
                };
                let snap = self.snapshot(&req).await?;
                Ok(ActionResult {
                    success: true,
                    message: snap.text.clone(),
                    error: None,
                    effect: Effect::Unverified,
                    changes: Vec::new(),
                })
            }
            verb => {
                let verb = if verb == "execute" {
                    text("verb")
                        .or_else(|| text("type_action"))
                        .ok_or_else(|| {
                            ActionError::BadParams("execute needs the verb in \"verb\"".into())
                        })?
                } else {
                    verb.to_owned()
                };
                let id = text("element_id").ok_or_else(|| {
                    ActionError::BadParams(format!("element action '{verb}' needs \"element_id\""))
                })?;
                let params = ActionParams {
                    value: text("value"),
                    direction: text("direction")
                        .map(|d| d.trim().to_ascii_lowercase().parse::<Direction>())
                        .transpose()
                        .map_err(|e| ActionError::BadParams(format!("direction: {e}")))?,
                    amount: obj
                        .get("amount")
                        .and_then(Value::as_u64)
                        .and_then(|a| u32::try_from(a).ok()),
                };
                self.action(&id, &verb, &params).await
            }
        }
    }
}

/// The window root and the node with this id.
/// The node whose children hold `id`, under `root`.
fn parent_of<'a>(root: &'a Node, id: &str) -> Option<&'a Node> {
    root.iter().find(|n| n.children.iter().any(|c| c.id == id))
}

fn find_node<'a>(tree: &'a [Node], id: &str) -> Option<(&'a Node, &'a Node)> {
    tree.iter()
        .find_map(|root| root.iter().find(|n| n.id == id).map(|n| (root, n)))
}

/// Checks an element action's verb name and parameters, before any element
/// is looked up (the checks every front end makes first, in this order).
///
/// # Errors
///
/// [`ActionError::UnknownAction`] for a name that is not a CUP verb,
/// [`ActionError::BadParams`] for a missing `value` or `direction`.
pub fn check_request(action: &str, params: &ActionParams) -> Result<Action, ActionError> {
    let verb = Action::from_name(action.trim())
        .ok_or_else(|| ActionError::UnknownAction(action.to_owned()))?;
    check_params(verb, params)?;
    Ok(verb)
}

fn check_params(verb: Action, params: &ActionParams) -> Result<(), ActionError> {
    match verb {
        Action::Type | Action::SetValue if params.value.is_none() => {
            Err(ActionError::BadParams(format!(
                "action '{verb}' requires a 'value' parameter (the text to put in the element)"
            )))
        }
        Action::Scroll if params.direction.is_none() => Err(ActionError::BadParams(
            "action 'scroll' requires 'direction': up, down, left or right".into(),
        )),
        _ => Ok(()),
    }
}

/// Most notches of one scroll.
pub const MAX_SCROLL: u32 = 1000;

fn check_gesture(gesture: &Gesture) -> Result<(), ActionError> {
    match gesture {
        Gesture::Click { count, .. } if !(1..=3).contains(count) => Err(ActionError::BadParams(
            format!("count must be 1, 2 or 3, got {count}"),
        )),
        Gesture::Drag { path, .. } if path.len() < 2 => Err(ActionError::BadParams(
            "a drag needs at least two points (from and to)".into(),
        )),
        Gesture::Scroll { amount, .. } if !(1..=MAX_SCROLL).contains(amount) => {
            Err(ActionError::BadParams(format!(
                "amount must be 1 to {MAX_SCROLL} notches, got {amount}"
            )))
        }
        Gesture::Type { text, .. } if text.is_empty() => {
            Err(ActionError::BadParams("text must not be empty".into()))
        }
        _ => Ok(()),
    }
}

fn check_supported(id: &str, node: &Node, verb: Action) -> Result<(), ActionError> {
    let listed = node.actions.contains(&verb);
    let by_pointer = POINTER_VERBS.contains(&verb) && node.bounds.is_some();
    if listed || by_pointer || verb == Action::Focus {
        return Ok(());
    }
    let mut supported: Vec<&str> = node.actions.iter().map(|a| a.name()).collect();
    if node.bounds.is_some() {
        supported.extend(
            POINTER_VERBS
                .iter()
                .filter(|v| !node.actions.contains(v))
                .map(|v| v.name()),
        );
    }
    // Every element takes focus; listed once, last (dedup only removes
    // neighbours: a node's own `focus` comes first).
    supported.retain(|v| *v != "focus");
    supported.push("focus");
    Err(ActionError::Unsupported {
        id: id.to_owned(),
        role: node.role.name().to_owned(),
        name: node.name.clone(),
        action: verb.name().to_owned(),
        supported: supported.join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::Role;

    #[test]
    fn params_are_checked() {
        let none = ActionParams::default();
        assert!(check_params(Action::Type, &none).is_err());
        assert!(check_params(Action::SetValue, &none).is_err());
        assert!(check_params(Action::Scroll, &none).is_err());
        assert!(check_params(Action::Click, &none).is_ok());
        let value = ActionParams {
            value: Some(String::new()),
            ..ActionParams::default()
        };
        assert!(check_params(Action::Type, &value).is_ok());
    }

    #[test]
    fn focus_is_listed_once() {
        let mut node = Node::new("e45", Role::Button, "Go");
        node.actions = vec![Action::Focus];
        node.bounds = Some(cup_protocol::Rect::new(1, 2, 30, 20));
        let err = check_supported("e45", &node, Action::Toggle)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(err.matches("focus").count(), 1, "{err}");
    }

    #[test]
    fn unsupported_verbs_list_what_is_supported() {
        let mut node = Node::new("e5", Role::Text, "label");
        let err = check_supported("e5", &node, Action::Toggle)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(
            err,
            "e5 (text \"label\") does not support toggle; it supports: focus"
        );
        node.actions = vec![Action::Click];
        node.bounds = Some(cup_protocol::Rect::new(0, 0, 10, 10));
        assert!(check_supported("e5", &node, Action::RightClick).is_ok());
        let err = check_supported("e5", &node, Action::Expand)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.ends_with("it supports: click, doubleclick, rightclick, longpress, scroll, focus"),
            "{err}"
        );
    }

    #[test]
    fn unknown_action_lists_the_verbs() {
        let e = ActionError::UnknownAction("press_button".into()).to_string();
        assert!(
            e.starts_with("Unknown action 'press_button'; valid: click, collapse,"),
            "{e}"
        );
    }
}
