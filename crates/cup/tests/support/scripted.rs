//! A scripted adapter: windows, a desktop surface and their element trees
//! given as data, behind the [`Adapter`] trait, with every call it
//! receives recorded. The capture numbers the elements as a platform
//! adapter does (ids pre-order across the captured windows, the native
//! reference of every id in `refs`, the node cap making the capture
//! partial), so tests of the facade, and contract tests of anything built
//! on a [`cup::Session`], need no desktop. It touches no platform: a
//! macOS or Windows adapter's tests can script the same kind of provider
//! (`Scripted::with_platform`).
//!
//! Include it with `#[path = "../support/scripted.rs"] mod scripted;`.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;
use cup::protocol::keys::Combo;
use cup::protocol::{Action, Node, PlatformId, Rect, Role, State, WindowInfo};
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, Capture, CaptureLimits, Effect, Gesture,
    Launched, Monitor, Partial, ScreenInfo, Target, WindowHandle,
};

/// One scripted element: what a platform would expose, under its native
/// reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// The adapter's reference to it (what `refs` maps its id to).
    pub native: String,
    /// CUP role.
    pub role: Role,
    /// Accessible name.
    pub name: String,
    /// Value (text boxes, sliders).
    pub value: Option<String>,
    /// Screen rectangle.
    pub bounds: Option<Rect>,
    /// States.
    pub states: Vec<State>,
    /// Verbs it offers.
    pub actions: Vec<Action>,
    /// Children, in order.
    pub children: Vec<Element>,
}

impl Element {
    /// An element without value, bounds, states, actions or children.
    pub fn new(native: impl Into<String>, role: Role, name: impl Into<String>) -> Element {
        Element {
            native: native.into(),
            role,
            name: name.into(),
            value: None,
            bounds: None,
            states: Vec::new(),
            actions: Vec::new(),
            children: Vec::new(),
        }
    }

    /// With a value.
    pub fn value(mut self, value: impl Into<String>) -> Element {
        self.value = Some(value.into());
        self
    }

    /// With bounds.
    pub fn bounds(mut self, x: i64, y: i64, w: u64, h: u64) -> Element {
        self.bounds = Some(Rect::new(x, y, w, h));
        self
    }

    /// With states.
    pub fn states(mut self, states: &[State]) -> Element {
        self.states = states.to_vec();
        self
    }

    /// With verbs.
    pub fn actions(mut self, actions: &[Action]) -> Element {
        self.actions = actions.to_vec();
        self
    }

    /// With children appended.
    pub fn children(mut self, children: impl IntoIterator<Item = Element>) -> Element {
        self.children.extend(children);
        self
    }

    /// The element whose native reference is `native`, in this subtree.
    pub fn find_mut(&mut self, native: &str) -> Option<&mut Element> {
        if self.native == native {
            return Some(self);
        }
        self.children.iter_mut().find_map(|c| c.find_mut(native))
    }
}

/// A scripted top-level window (or desktop surface): its handle and its
/// tree (the root's native reference is the window's).
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// What `windows()` lists.
    pub handle: WindowHandle,
    /// Its tree.
    pub root: Element,
}

impl Window {
    /// A background window titled `title` of process `pid`.
    pub fn new(title: impl Into<String>, pid: i64, root: Element) -> Window {
        Window {
            handle: WindowHandle {
                info: WindowInfo {
                    title: title.into(),
                    pid: Some(pid),
                    foreground: false,
                    bounds: root.bounds,
                    url: None,
                    extra: serde_json::Map::new(),
                },
                native: root.native.clone(),
            },
            root,
        }
    }

    /// Flagged as the foreground window.
    pub fn foreground(mut self) -> Window {
        self.handle.info.foreground = true;
        self
    }
}

/// A call the adapter received, with what it was given.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `screen()`.
    Screen,
    /// `windows()`.
    Windows,
    /// `windows_for_capture()`.
    WindowsForCapture,
    /// `desktop()`.
    Desktop,
    /// `capture()` of these windows (native references, in order).
    Capture {
        /// The windows' native references.
        windows: Vec<String>,
        /// The limits asked for.
        limits: CaptureLimits,
    },
    /// `act()`.
    Act {
        /// The target's id.
        id: String,
        /// The native reference the session resolved the id to.
        native: String,
        /// The native reference of the target's window root.
        window: String,
        /// The verb.
        action: Action,
        /// Its parameters.
        params: ActionParams,
        /// Ids in the `refs` the adapter was handed.
        refs: usize,
    },
    /// `press()` of a combo (canonical form).
    Press {
        /// E.g. `ctrl+s`.
        combo: String,
    },
    /// `input()`.
    Input {
        /// The gesture.
        gesture: Gesture,
    },
    /// `open_app()`.
    OpenApp {
        /// The name asked for.
        name: String,
    },
}

/// The operations a failure can be scripted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `screen()`.
    Screen,
    /// `windows()` and `windows_for_capture()`.
    Windows,
    /// `desktop()`.
    Desktop,
    /// `capture()`.
    Capture,
    /// `act()`.
    Act,
    /// `press()`.
    Press,
    /// `input()`.
    Input,
    /// `open_app()`.
    OpenApp,
}

#[derive(Debug)]
struct Script {
    platform: PlatformId,
    screen: ScreenInfo,
    windows: Vec<Window>,
    desktop: Option<Window>,
    notes: Vec<String>,
    calls: Vec<Call>,
    failures: HashMap<Op, VecDeque<AdapterError>>,
    results: HashMap<String, VecDeque<ActionResult>>,
}

impl Script {
    /// Records `call` and answers the next failure scripted for `op`.
    fn enter(&mut self, call: Call, op: Op) -> Result<(), AdapterError> {
        self.calls.push(call);
        match self.failures.get_mut(&op).and_then(VecDeque::pop_front) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn window(&self, native: &str) -> Option<&Window> {
        self.windows
            .iter()
            .chain(self.desktop.iter())
            .find(|w| w.handle.native == native)
    }
}

/// The scripted adapter. Clones share one script: give one to the
/// `Session`, keep one to change the script and read the calls.
#[derive(Debug, Clone)]
pub struct Scripted {
    script: Arc<Mutex<Script>>,
}

impl Scripted {
    /// A Linux-like desktop of 1920x1080 with `windows` and no desktop
    /// surface.
    pub fn new(windows: Vec<Window>) -> Scripted {
        Scripted::with_platform(PlatformId::Linux, windows)
    }

    /// Like [`Scripted::new`], reporting `platform`.
    pub fn with_platform(platform: PlatformId, windows: Vec<Window>) -> Scripted {
        let rect = Rect::new(0, 0, 1920, 1080);
        Scripted {
            script: Arc::new(Mutex::new(Script {
                platform,
                screen: ScreenInfo {
                    width: 1920,
                    height: 1080,
                    scale: 1.0,
                    monitors: vec![Monitor {
                        name: "screen".into(),
                        rect,
                        primary: true,
                        scale: 1.0,
                    }],
                },
                windows,
                desktop: None,
                notes: Vec::new(),
                calls: Vec::new(),
                failures: HashMap::new(),
                results: HashMap::new(),
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Script> {
        self.script.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A boxed clone, for `Session::new`.
    pub fn boxed(&self) -> Box<dyn Adapter> {
        Box::new(self.clone())
    }

    /// Sets the desktop surface (`None`: the platform has none).
    pub fn set_desktop(&self, desktop: Option<Window>) {
        self.lock().desktop = desktop;
    }

    /// Replaces the open windows.
    pub fn set_windows(&self, windows: Vec<Window>) {
        self.lock().windows = windows;
    }

    /// Changes the tree of the element `native` (in any window), as the
    /// app would between two captures. Panics when there is none.
    pub fn edit(&self, native: &str, change: impl FnOnce(&mut Element)) {
        let mut script = self.lock();
        let Script {
            windows, desktop, ..
        } = &mut *script;
        let element = windows
            .iter_mut()
            .chain(desktop.iter_mut())
            .find_map(|w| w.root.find_mut(native))
            .unwrap_or_else(|| panic!("no scripted element {native}"));
        change(element);
    }

    /// Notes every capture returns (advice for the agent).
    pub fn set_notes(&self, notes: Vec<String>) {
        self.lock().notes = notes;
    }

    /// The next call of `op` fails with `error` (queued: one per call).
    pub fn fail_next(&self, op: Op, error: AdapterError) {
        self.lock().failures.entry(op).or_default().push_back(error);
    }

    /// The next action on `native` answers `result` (queued); without one,
    /// an action is confirmed with the message `"{verb} {native}"`.
    pub fn answer_next(&self, native: &str, result: ActionResult) {
        self.lock()
            .results
            .entry(native.to_owned())
            .or_default()
            .push_back(result);
    }

    /// The calls received so far, in order.
    pub fn calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// The calls received so far, forgotten.
    pub fn take_calls(&self) -> Vec<Call> {
        std::mem::take(&mut self.lock().calls)
    }

    /// The `Act` calls received so far: (id, native reference, verb).
    pub fn acts(&self) -> Vec<(String, String, Action)> {
        self.lock()
            .calls
            .iter()
            .filter_map(|c| match c {
                Call::Act {
                    id, native, action, ..
                } => Some((id.clone(), native.clone(), *action)),
                _ => None,
            })
            .collect()
    }
}

/// Numbers `element` (at `depth`) and its subtree pre-order from `*next`,
/// within `limits`; `*cut` counts the subtrees the node cap left out.
fn number(
    element: &Element,
    depth: usize,
    limits: &CaptureLimits,
    next: &mut usize,
    refs: &mut HashMap<String, String>,
    cut: &mut usize,
) -> Option<Node> {
    if *next >= limits.max_nodes {
        *cut += 1;
        return None;
    }
    let id = format!("e{next}");
    *next += 1;
    refs.insert(id.clone(), element.native.clone());
    let mut node = Node::new(id, element.role, element.name.clone());
    node.value = element.value.clone();
    node.bounds = element.bounds;
    node.states = element.states.clone();
    node.actions = element.actions.clone();
    if depth < limits.max_depth {
        node.children = element
            .children
            .iter()
            .filter_map(|c| number(c, depth + 1, limits, next, refs, cut))
            .collect();
    }
    Some(node)
}

#[async_trait]
impl Adapter for Scripted {
    fn platform(&self) -> PlatformId {
        self.lock().platform
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        let mut s = self.lock();
        s.enter(Call::Screen, Op::Screen)?;
        Ok(s.screen.clone())
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        let mut s = self.lock();
        s.enter(Call::Windows, Op::Windows)?;
        Ok(s.windows.iter().map(|w| w.handle.clone()).collect())
    }

    async fn windows_for_capture(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        let mut s = self.lock();
        s.enter(Call::WindowsForCapture, Op::Windows)?;
        Ok(s.windows.iter().map(|w| w.handle.clone()).collect())
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        let mut s = self.lock();
        s.enter(Call::Desktop, Op::Desktop)?;
        Ok(s.desktop.as_ref().map(|d| d.handle.clone()))
    }

    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let mut s = self.lock();
        s.enter(
            Call::Capture {
                windows: windows.iter().map(|w| w.native.clone()).collect(),
                limits: limits.clone(),
            },
            Op::Capture,
        )?;
        let mut out = Capture {
            notes: s.notes.clone(),
            ..Capture::default()
        };
        let (mut next, mut cut) = (0, 0);
        for handle in windows {
            let window = s.window(&handle.native).ok_or_else(|| {
                AdapterError::NotFound(format!("window {} is gone", handle.native))
            })?;
            if let Some(root) = number(&window.root, 0, limits, &mut next, &mut out.refs, &mut cut)
            {
                out.tree.push(root);
            }
        }
        if cut > 0 {
            out.partial = Some(Partial {
                reason: format!("node cap of {} reached", limits.max_nodes),
                missing: cut,
            });
        }
        Ok(out)
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let mut s = self.lock();
        s.enter(
            Call::Act {
                id: target.id.to_owned(),
                native: target.native.to_owned(),
                window: refs.get(&target.window.id).cloned().unwrap_or_default(),
                action,
                params: params.clone(),
                refs: refs.len(),
            },
            Op::Act,
        )?;
        let scripted = s
            .results
            .get_mut(target.native)
            .and_then(VecDeque::pop_front);
        Ok(scripted.unwrap_or_else(|| {
            ActionResult::observed(
                format!("{action} {}", target.native),
                Effect::Confirmed,
                Vec::new(),
            )
        }))
    }

    async fn press(
        &self,
        combo: &Combo,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let _ = refs;
        let mut s = self.lock();
        s.enter(
            Call::Press {
                combo: combo.to_string(),
            },
            Op::Press,
        )?;
        Ok(ActionResult::observed(
            format!("Pressed {combo}"),
            Effect::Unverified,
            Vec::new(),
        ))
    }

    async fn input(
        &self,
        gesture: &Gesture,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let _ = refs;
        let mut s = self.lock();
        s.enter(
            Call::Input {
                gesture: gesture.clone(),
            },
            Op::Input,
        )?;
        Ok(ActionResult::observed(
            gesture.to_string(),
            Effect::Unverified,
            Vec::new(),
        ))
    }

    async fn open_app(&self, name: &str) -> Result<Launched, AdapterError> {
        let mut s = self.lock();
        s.enter(
            Call::OpenApp {
                name: name.to_owned(),
            },
            Op::OpenApp,
        )?;
        let found = s
            .windows
            .iter()
            .find(|w| {
                w.handle
                    .info
                    .title
                    .to_lowercase()
                    .contains(&name.to_lowercase())
            })
            .map(|w| w.handle.clone());
        Ok(Launched {
            name: name.to_owned(),
            pid: 4242,
            window: found,
        })
    }
}
