//! What each action, key and gesture becomes on the device, planned
//! without I/O: `input tap`, `input swipe`, `input keyevent`, `input
//! text`. Coordinates are device pixels (a snapshot's bounds), clipped to
//! the screen.
//!
//! Text is typed exactly or refused: `input text` carries printable ASCII
//! only (Android's `InputShellCommand` fails on anything else), so other
//! characters are a [`Step::Unicode`] the adapter sends through an input
//! method that takes text (ADBKeyBoard) or refuses with what to install.

use cup::input::{Button, Gesture, Point};
use cup::ActionParams;
use cup_protocol::keys::{Combo, Key, Modifier, NamedKey};
use cup_protocol::{Action, Direction, Node, Rect, Role, State};

use crate::adb::quote;

/// A long press's hold, in milliseconds: `input swipe x y x y 800` puts
/// the finger down, moves it nowhere for 800 ms and lifts it
/// (`sendSwipe`: DOWN, MOVEs until the duration, UP), longer than the
/// 400–500 ms `ViewConfiguration.getLongPressTimeout()`. The duration
/// argument exists since Android 4.4's Input.java.
pub const LONG_PRESS_MS: u32 = 800;
/// A scroll swipe's duration, in milliseconds (slow enough not to fling).
pub const SWIPE_MS: u32 = 500;

/// One thing to do on the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A shell command line.
    Shell(String),
    /// Text with characters `input text` cannot carry, for an input
    /// method that takes any text.
    Unicode(String),
}

/// An action planned: its steps and what to say once done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// What was done (`Tapped e5 at 540,860`).
    pub message: String,
}

pub use cup::plan::PlanError;

/// Android key codes (`KeyEvent.KEYCODE_*`) of CUP's named keys. `home`
/// is the Home button (a phone's home, not the start of a line), `back`
/// and `browser_back` the Back button.
pub fn keycode(key: &Key) -> Option<u32> {
    let code = match key {
        Key::Named(k) => match k {
            NamedKey::Enter | NamedKey::KpEnter => 66,
            NamedKey::Tab => 61,
            NamedKey::Space => 62,
            NamedKey::Backspace => 67,
            NamedKey::Delete => 112,
            NamedKey::Escape => 111,
            NamedKey::Insert => 124,
            NamedKey::Home | NamedKey::BrowserHome => 3,
            NamedKey::End => 123,
            NamedKey::PageUp => 92,
            NamedKey::PageDown => 93,
            NamedKey::Up => 19,
            NamedKey::Down => 20,
            NamedKey::Left => 21,
            NamedKey::Right => 22,
            NamedKey::Menu => 82,
            NamedKey::VolumeUp => 24,
            NamedKey::VolumeDown => 25,
            NamedKey::VolumeMute => 164,
            NamedKey::MediaPlayPause => 85,
            NamedKey::MediaNext => 87,
            NamedKey::MediaPrevious => 88,
            NamedKey::MediaStop => 86,
            NamedKey::BrowserBack => 4,
            NamedKey::BrowserForward => 125,
            NamedKey::BrowserRefresh => 285,
            NamedKey::BrightnessUp => 221,
            NamedKey::BrightnessDown => 220,
            NamedKey::Sleep => 223,
            NamedKey::Power => 26,
            NamedKey::CapsLock => 115,
            NamedKey::NumLock => 143,
            NamedKey::ScrollLock => 116,
            NamedKey::Print => 120,
            NamedKey::Pause => 121,
            other => {
                let name = other.name();
                if let Some(n) = name.strip_prefix('f').and_then(|n| n.parse::<u32>().ok()) {
                    // KEYCODE_F1 = 131 … F12 = 142; Android has no F13+.
                    return (1..=12).contains(&n).then_some(130 + n);
                }
                if let Some(d) = name.strip_prefix("kp_").and_then(|d| d.parse::<u32>().ok()) {
                    return Some(144 + d);
                }
                return None;
            }
        },
        Key::Char(c) => match c {
            'a'..='z' => 29 + (*c as u32 - 'a' as u32),
            '0'..='9' => 7 + (*c as u32 - '0' as u32),
            ' ' => 62,
            ',' => 55,
            '.' => 56,
            '`' => 68,
            '-' => 69,
            '=' => 70,
            '[' => 71,
            ']' => 72,
            '\\' => 73,
            ';' => 74,
            '\'' => 75,
            '/' => 76,
            '@' => 77,
            '+' => 81,
            _ => return None,
        },
    };
    Some(code)
}

/// The key codes of the modifiers: the left ones, which
/// `InputShellCommand`'s `MODIFIER` table turns into the meta state of
/// the keys after them (`KEYCODE_CTRL_LEFT` 113 → `META_CTRL_ON`, …).
fn modifier_code(m: Modifier) -> u32 {
    match m {
        Modifier::Ctrl => 113,
        Modifier::Shift => 59,
        Modifier::Alt => 57,
        Modifier::Meta => 117,
    }
}

/// The API level from which `input keycombination` holds modifiers.
/// `input keycombination` first came (Android 12's `InputShellCommand`)
/// with every key's meta state 0, so an app saw ctrl+a as a plain `a`;
/// the `MODIFIER` table that sets `META_CTRL_ON` etc. on the keys after a
/// modifier, and the `-t` option, came with Android 13 (the Android 13
/// copy in fairphone-mirror/platform_frameworks_base has both). Before
/// Android 12 the command does not exist: `input` prints `Error: Unknown
/// command: keycombination` (Input.java) and Android 12 prints `Unknown
/// command: keycombination` and exits 0 (`handleDefaultCommands`).
pub const KEYCOMBINATION_SDK: u32 = 33;

/// The API level from which `input keyevent` takes several key codes in
/// one call and `input swipe` a duration (`keyevent [--longpress] <key
/// code number or name> ...` and `swipe <x1> <y1> <x2> <y2>
/// [duration(ms)]` in Input.java's usage since Android 4.4; the Jelly
/// Bean copies print `input keyevent <key code number or name>` and
/// `input swipe <x1> <y1> <x2> <y2>`).
pub const MULTI_KEYEVENT_SDK: u32 = 19;

/// The shell command that presses `combo`: `input keyevent K…` for plain
/// keys, `input keycombination M… K` (Android 13+, see
/// [`KEYCOMBINATION_SDK`]) with modifiers.
pub fn press(combo: &Combo) -> Result<String, PlanError> {
    if combo.keys.is_empty() {
        return Err(PlanError(format!(
            "`{combo}` presses only modifiers; Android needs a key with them (e.g. ctrl+a)"
        )));
    }
    let mut keys = Vec::new();
    for key in &combo.keys {
        keys.push(keycode(key).ok_or_else(|| {
            PlanError(format!(
                "Android has no key for `{key}`; keys it has: letters, digits, enter, tab, space, backspace, delete, escape, home (the Home button), back, menu, arrows, page up/down, volume and media keys, power"
            ))
        })?);
    }
    let codes = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    if combo.modifiers.is_empty() {
        return Ok(format!("input keyevent {}", codes(&keys)));
    }
    let mut mods: Vec<u32> = combo.modifiers.iter().map(|m| modifier_code(*m)).collect();
    if keys.len() > 1 {
        return Err(PlanError(format!(
            "`{combo}` holds modifiers over several keys; press one key with them at a time"
        )));
    }
    mods.extend(keys);
    Ok(format!("input keycombination {}", codes(&mods)))
}

/// `cmd` (a shell step, `a && b && …`) made fit for a device of API level
/// `sdk` (unknown: taken as recent): before Android 4.4 an `input
/// keyevent` with several codes becomes one call per code, and `input
/// swipe` loses its duration (the Jelly Bean copies of Input.java take
/// `swipe <x1> <y1> <x2> <y2>` only and refuse a fifth argument with
/// `Error: Invalid arguments`), so a long press, a swipe that stays put,
/// is refused there; before Android 13 an `input keycombination` is
/// refused, since no `input` there holds a modifier (see
/// [`KEYCOMBINATION_SDK`]).
pub fn for_sdk(cmd: &str, sdk: Option<u32>) -> Result<String, PlanError> {
    let Some(sdk) = sdk else {
        return Ok(cmd.to_owned());
    };
    let mut parts = Vec::new();
    // Text steps carry no spaces (`%s`), so ` && ` only joins commands.
    for part in cmd.split(" && ") {
        if part.starts_with("input keycombination ") && sdk < KEYCOMBINATION_SDK {
            return Err(PlanError(format!(
                "this phone runs Android API {sdk}; keys held with a modifier (ctrl, shift, alt, meta) need Android 13 (API {KEYCOMBINATION_SDK}) or later, whose `input keycombination` sets their meta state; nothing was pressed"
            )));
        }
        if sdk >= MULTI_KEYEVENT_SDK {
            parts.push(part.to_owned());
        } else if let Some(codes) = part.strip_prefix("input keyevent ") {
            parts.extend(
                codes
                    .split_whitespace()
                    .map(|c| format!("input keyevent {c}")),
            );
        } else if let Some(args) = part.strip_prefix("input swipe ") {
            match args.split_whitespace().collect::<Vec<_>>()[..] {
                [x0, y0, x1, y1, _] if x0 == x1 && y0 == y1 => {
                    return Err(PlanError(format!(
                        "this phone runs Android API {sdk}; a long press needs `input swipe` with a duration, which came with Android 4.4 (API {MULTI_KEYEVENT_SDK}); nothing was pressed"
                    )))
                }
                [x0, y0, x1, y1, _] => parts.push(format!("input swipe {x0} {y0} {x1} {y1}")),
                _ => parts.push(part.to_owned()),
            }
        } else {
            parts.push(part.to_owned());
        }
    }
    Ok(parts.join(" && "))
}

/// Whether `input text` can type `c`: printable ASCII.
fn plain(c: char) -> bool {
    (' '..='~').contains(&c)
}

/// The steps that type `text` exactly: runs of printable ASCII through
/// `input text`, newlines and tabs as their keys, anything else as a
/// [`Step::Unicode`] run. Consecutive shell steps are joined with `&&`
/// (one round trip; the first failure stops the rest).
///
/// What reaches `input text` (`InputShellCommand.sendText`, Input.java
/// before Android 12): its one argument (`getNextArgRequired`; Input.java
/// wants exactly one), whose `%s` becomes a space, every other character
/// typed through the virtual keyboard's key map, which has all printable
/// ASCII and nothing else (anything else: `NullPointerException`). So the
/// argument is single-quoted for the device's `sh -c` (the only layer that
/// reads quotes, `$`, `` ` ``, `\`, `&`, `;`, `(`, …; the `input` wrapper
/// passes `"$@"` on), spaces are sent as `%s` (one word even where a
/// wrapper re-splits), and a literal `%s` is split between two calls.
/// `%` followed by anything else, or `%%s` (`% ` typed), is kept.
pub fn type_text(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut shell: Vec<String> = Vec::new();
    let mut ascii = String::new();
    let mut other = String::new();
    let flush_ascii = |ascii: &mut String, shell: &mut Vec<String>| {
        if ascii.is_empty() {
            return;
        }
        // `%s` means a space to `input text`: type `%` and `s` apart.
        for (i, piece) in ascii.split("%s").enumerate() {
            if i > 0 {
                shell.push("input text %".into());
                shell.push(format!(
                    "input text {}",
                    quote(&format!("s{}", piece.replace(' ', "%s")))
                ));
                continue;
            }
            if !piece.is_empty() {
                shell.push(format!("input text {}", quote(&piece.replace(' ', "%s"))));
            }
        }
        ascii.clear();
    };
    let flush_shell = |shell: &mut Vec<String>, steps: &mut Vec<Step>| {
        if !shell.is_empty() {
            steps.push(Step::Shell(shell.join(" && ")));
            shell.clear();
        }
    };
    for c in text.chars() {
        if plain(c) || c == '\n' || c == '\t' {
            if !other.is_empty() {
                steps.push(Step::Unicode(std::mem::take(&mut other)));
            }
            match c {
                '\n' => {
                    flush_ascii(&mut ascii, &mut shell);
                    shell.push("input keyevent 66".into());
                }
                '\t' => {
                    flush_ascii(&mut ascii, &mut shell);
                    shell.push("input keyevent 61".into());
                }
                _ => ascii.push(c),
            }
        } else {
            flush_ascii(&mut ascii, &mut shell);
            flush_shell(&mut shell, &mut steps);
            other.push(c);
        }
    }
    flush_ascii(&mut ascii, &mut shell);
    flush_shell(&mut shell, &mut steps);
    if !other.is_empty() {
        steps.push(Step::Unicode(other));
    }
    steps
}

/// The point a tap on `bounds` lands on: its centre, inside the screen.
fn centre(bounds: Rect, screen: (u32, u32)) -> (i64, i64) {
    let clip = bounds.intersect(&Rect::new(0, 0, u64::from(screen.0), u64::from(screen.1)));
    let r = if clip.is_empty() { bounds } else { clip };
    let (w, h) = (
        i64::try_from(r.w).unwrap_or(0),
        i64::try_from(r.h).unwrap_or(0),
    );
    (r.x + w / 2, r.y + h / 2)
}

/// A swipe inside `r` that moves its content towards `direction`'s
/// opposite (scrolling down = the finger goes up), from 75 % to 25 % of
/// the element.
fn swipe_in(r: Rect, direction: Direction) -> String {
    let (w, h) = (
        i64::try_from(r.w).unwrap_or(0),
        i64::try_from(r.h).unwrap_or(0),
    );
    let (cx, cy) = (r.x + w / 2, r.y + h / 2);
    let (near_y, far_y) = (r.y + h / 4, r.y + h * 3 / 4);
    let (near_x, far_x) = (r.x + w / 4, r.x + w * 3 / 4);
    let (x0, y0, x1, y1) = match direction {
        Direction::Down => (cx, far_y, cx, near_y),
        Direction::Up => (cx, near_y, cx, far_y),
        Direction::Right => (far_x, cy, near_x, cy),
        Direction::Left => (near_x, cy, far_x, cy),
    };
    format!("input swipe {x0} {y0} {x1} {y1} {SWIPE_MS}")
}

/// The name of `d` (`down`).
fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

/// Plans `action` on the element `id` (`node` as the snapshot has it) on
/// a screen of `screen` device pixels.
pub fn action(
    id: &str,
    node: &Node,
    action: Action,
    params: &ActionParams,
    screen: (u32, u32),
) -> Result<Plan, PlanError> {
    let bounds = node.bounds.filter(|b| !b.is_empty()).ok_or_else(|| {
        PlanError(format!(
            "{id} has no place on the screen (Android reported it zero-size); scroll it into view and take a snapshot"
        ))
    })?;
    let on_screen = !bounds
        .intersect(&Rect::new(0, 0, u64::from(screen.0), u64::from(screen.1)))
        .is_empty();
    if !on_screen || node.states.contains(&State::Offscreen) {
        return Err(PlanError(format!(
            "{id} is off the screen; scroll its container to bring it into view, then take a snapshot"
        )));
    }
    let (x, y) = centre(bounds, screen);
    let tap = format!("input tap {x} {y}");
    let plan = |steps: Vec<Step>, message: String| Ok(Plan { steps, message });
    match action {
        Action::Click | Action::Toggle | Action::Select | Action::Expand | Action::Collapse => {
            let verb = match action {
                Action::Toggle => "Toggled",
                Action::Select => "Selected",
                Action::Expand => "Expanded",
                Action::Collapse => "Collapsed",
                _ => "Tapped",
            };
            plan(vec![Step::Shell(tap)], format!("{verb} {id} (tap at {x},{y})"))
        }
        Action::Focus => {
            if node.states.contains(&State::Focused) {
                return plan(Vec::new(), format!("{id} already has the focus"));
            }
            plan(vec![Step::Shell(tap)], format!("Focused {id} (tap at {x},{y})"))
        }
        Action::DoubleClick => plan(
            vec![Step::Shell(format!("{tap} && {tap}"))],
            format!("Double-tapped {id} at {x},{y} (two taps; each `input tap` takes 50-300 ms, which some apps read as two taps)"),
        ),
        Action::LongPress | Action::RightClick => plan(
            vec![Step::Shell(format!("input swipe {x} {y} {x} {y} {LONG_PRESS_MS}"))],
            format!(
                "Long-pressed {id} at {x},{y} for {LONG_PRESS_MS} ms{}",
                if action == Action::RightClick { " (Android's context menu is a long press)" } else { "" }
            ),
        ),
        Action::Scroll => {
            let direction = params.direction.unwrap_or(Direction::Down);
            let times = params.amount.unwrap_or(1).clamp(1, 20);
            let one = swipe_in(bounds, direction);
            let line = vec![one; times as usize].join(" && ");
            plan(
                vec![Step::Shell(line)],
                format!("Scrolled {id} {} ({times} swipe{})", direction_name(direction), if times == 1 { "" } else { "s" }),
            )
        }
        Action::Type | Action::SetValue => {
            let text = cup::plan::need_value(action, params.value.as_deref())?;
            let mut steps = Vec::new();
            if !node.states.contains(&State::Focused) {
                steps.push(Step::Shell(tap.clone()));
            }
            if action == Action::SetValue {
                // Clear what is there: to the end, then one delete per
                // character (a password's length is the dots the dump
                // showed; 64 when unknown).
                let len = node
                    .value
                    .as_deref()
                    .map_or(64, |v| v.chars().count());
                if len > 0 {
                    let dels = vec!["67"; len].join(" ");
                    steps.push(Step::Shell(format!("input keyevent 123 {dels}")));
                }
            }
            steps.extend(type_text(&text));
            let verb = if action == Action::SetValue { "Set" } else { "Typed into" };
            plan(steps, format!("{verb} {id}: {} characters", text.chars().count()))
        }
        Action::Increment | Action::Decrement => {
            let up = action == Action::Increment;
            match node.role {
                Role::SpinButton => {
                    // A NumberPicker shows the next value below its
                    // centre and the previous one above.
                    let h = i64::try_from(bounds.h).unwrap_or(0);
                    let ty = if up { bounds.y + h * 5 / 6 } else { bounds.y + h / 6 };
                    plan(
                        vec![Step::Shell(format!("input tap {x} {ty}"))],
                        format!("{} {id} (tap at {x},{ty})", if up { "Incremented" } else { "Decremented" }),
                    )
                }
                _ if node.states.contains(&State::Focused) => plan(
                    vec![Step::Shell(format!("input keyevent {}", if up { 22 } else { 21 }))],
                    format!("{} {id} (arrow key)", if up { "Incremented" } else { "Decremented" }),
                ),
                _ => Err(PlanError(format!(
                    "{id} must have the focus to step its value; focus it first (a tap moves a slider's thumb to where it lands), or set it with setvalue"
                ))),
            }
        }
        Action::Dismiss => plan(
            vec![Step::Shell("input keyevent 4".into())],
            format!("Dismissed {id} (Back)"),
        ),
    }
}

/// Plans a pixel gesture (device pixels).
pub fn gesture(g: &Gesture) -> Result<Plan, PlanError> {
    let one = |steps: Vec<Step>, message: String| Ok(Plan { steps, message });
    match g {
        Gesture::Click {
            at,
            button,
            count,
            modifiers,
        } => {
            if !modifiers.is_empty() {
                return Err(PlanError("Android taps cannot hold modifier keys".into()));
            }
            let Point { x, y } = *at;
            match button {
                Button::Left => {
                    let taps =
                        vec![format!("input tap {x} {y}"); usize::from((*count).clamp(1, 3))];
                    one(vec![Step::Shell(taps.join(" && "))], format!("{g}"))
                }
                Button::Right => one(
                    vec![Step::Shell(format!(
                        "input swipe {x} {y} {x} {y} {LONG_PRESS_MS}"
                    ))],
                    format!("Long-pressed {x},{y} (Android's context menu is a long press)"),
                ),
                Button::Back => one(
                    vec![Step::Shell("input keyevent 4".into())],
                    "Pressed Back".into(),
                ),
                other => Err(PlanError(format!(
                    "Android has no {other} button; use left (tap), right (long press) or back"
                ))),
            }
        }
        Gesture::Drag { path, duration, .. } => {
            let (Some(first), Some(last)) = (path.first(), path.last()) else {
                return Err(PlanError("a drag needs at least two points".into()));
            };
            if path.len() > 2 {
                return Err(PlanError(
                    "Android's `input swipe` goes in a straight line: give a drag two points"
                        .into(),
                ));
            }
            let ms = duration.as_millis().clamp(100, 10_000);
            one(
                vec![Step::Shell(format!(
                    "input swipe {} {} {} {} {ms}",
                    first.x, first.y, last.x, last.y
                ))],
                format!("{g}"),
            )
        }
        Gesture::Scroll {
            at,
            direction,
            amount,
            ..
        } => {
            let Some(at) = at else {
                return Err(PlanError(
                    "a scroll on Android needs a point to swipe at".into(),
                ));
            };
            // A swipe of 600 px around the point per step.
            let r = Rect::new(at.x - 400, at.y - 600, 800, 1200);
            let times = (*amount).clamp(1, 20) as usize;
            one(
                vec![Step::Shell(
                    vec![swipe_in(r, *direction); times].join(" && "),
                )],
                format!("{g}"),
            )
        }
        Gesture::Type { text, .. } => one(
            type_text(text),
            format!("Typed {} characters", text.chars().count()),
        ),
        Gesture::Move { .. } | Gesture::Down { .. } | Gesture::Up { .. } => Err(PlanError(
            "a touch screen has no pointer to move or hold; use click, drag or scroll".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::parse_combo;

    fn shells(steps: &[Step]) -> Vec<&str> {
        steps
            .iter()
            .map(|s| match s {
                Step::Shell(s) => s.as_str(),
                Step::Unicode(u) => u.as_str(),
            })
            .collect()
    }

    #[test]
    fn text_goes_exactly_ascii_by_input_text_the_rest_apart() {
        assert_eq!(
            type_text("hello world"),
            [Step::Shell("input text hello%sworld".into())]
        );
        assert_eq!(
            type_text("it's $HOME\nok"),
            [Step::Shell(
                r"input text 'it'\''s%s$HOME' && input keyevent 66 && input text ok".into()
            )]
        );
        assert_eq!(
            type_text("100%sure"),
            [Step::Shell(
                "input text 100 && input text % && input text sure".into()
            )]
        );
        // Shell metacharacters stay literal inside single quotes; `%`
        // before a space is typed (`%%s` → `% `).
        assert_eq!(
            type_text(r#"a\b"c;(d)|`e`* 5% off"#),
            [Step::Shell(
                r#"input text 'a\b"c;(d)|`e`*%s5%%soff'"#.into()
            )]
        );
        assert_eq!(
            type_text("naïve 日本"),
            [
                Step::Shell("input text na".into()),
                Step::Unicode("ï".into()),
                Step::Shell("input text ve%s".into()),
                Step::Unicode("日本".into()),
            ]
        );
    }

    #[test]
    fn keys_are_android_key_codes() {
        let p = |s: &str| press(&parse_combo(s).expect("combo"));
        assert_eq!(p("enter").expect("enter"), "input keyevent 66");
        assert_eq!(p("home").expect("home"), "input keyevent 3");
        assert_eq!(p("browser_back").expect("back"), "input keyevent 4");
        assert_eq!(p("ctrl+a").expect("ctrl+a"), "input keycombination 113 29");
        assert_eq!(p("f5").expect("f5"), "input keyevent 135");
        assert!(p("f20")
            .expect_err("f20")
            .to_string()
            .contains("no key for `f20`"));
        assert!(p("ctrl").is_err());
    }

    #[test]
    fn commands_fit_the_android_version() {
        let dels = "input tap 50 50 && input keyevent 123 67 67";
        // Android 4.4+ takes several codes at once; unknown: as recent.
        assert_eq!(for_sdk(dels, Some(19)).expect("kitkat"), dels);
        assert_eq!(for_sdk(dels, None).expect("unknown"), dels);
        assert_eq!(
            for_sdk(dels, Some(18)).expect("jelly bean"),
            "input tap 50 50 && input keyevent 123 && input keyevent 67 && input keyevent 67"
        );
        // Jelly Bean's swipe takes no duration: scrolls lose it, a long
        // press (a swipe that stays put) cannot be done.
        assert_eq!(
            for_sdk("input swipe 540 1600 540 800 500", Some(18)).expect("scroll"),
            "input swipe 540 1600 540 800"
        );
        assert!(for_sdk("input swipe 250 250 250 250 800", Some(18))
            .expect_err("long press")
            .to_string()
            .contains("Android 4.4"));
        // Modifiers are held from Android 13 on; before, refused.
        let ctrl_a = "input keycombination 113 29";
        assert_eq!(for_sdk(ctrl_a, Some(33)).expect("13"), ctrl_a);
        let e = for_sdk(ctrl_a, Some(31)).expect_err("12");
        assert!(e.to_string().contains("Android 13"), "{e}");
        // Text is never split: its spaces are %s.
        let text = type_text("a && b");
        assert_eq!(text, [Step::Shell("input text 'a%s&&%sb'".into())]);
    }

    fn button(bounds: Rect) -> Node {
        let mut n = Node::new("e5", Role::Button, "OK");
        n.bounds = Some(bounds);
        n
    }

    #[test]
    fn actions_tap_the_centre_and_swipe_inside_the_element() {
        let screen = (1080, 2400);
        let b = button(Rect::new(100, 200, 300, 100));
        let a = |act, params: &ActionParams| action("e5", &b, act, params, screen);
        let none = ActionParams::default();
        assert_eq!(
            shells(&a(Action::Click, &none).expect("click").steps),
            ["input tap 250 250"]
        );
        assert_eq!(
            shells(&a(Action::LongPress, &none).expect("lp").steps),
            ["input swipe 250 250 250 250 800"]
        );
        let down = ActionParams {
            direction: Some(Direction::Down),
            amount: Some(2),
            ..ActionParams::default()
        };
        let list = button(Rect::new(0, 400, 1080, 1600));
        assert_eq!(
            shells(
                &action("e9", &list, Action::Scroll, &down, screen)
                    .expect("scroll")
                    .steps
            ),
            ["input swipe 540 1600 540 800 500 && input swipe 540 1600 540 800 500"]
        );
        let typed = ActionParams {
            value: Some("ab".into()),
            ..ActionParams::default()
        };
        let mut field = button(Rect::new(0, 0, 100, 100));
        field.value = Some("xyz".into());
        assert_eq!(
            shells(
                &action("e2", &field, Action::SetValue, &typed, screen)
                    .expect("sv")
                    .steps
            ),
            [
                "input tap 50 50",
                "input keyevent 123 67 67 67",
                "input text ab"
            ]
        );
        let off = button(Rect::new(0, 2500, 100, 100));
        assert!(action("e3", &off, Action::Click, &none, screen)
            .expect_err("off")
            .to_string()
            .contains("off the screen"));
        let mut slider = button(Rect::new(0, 0, 100, 10));
        slider.role = Role::Slider;
        assert!(action("e4", &slider, Action::Increment, &none, screen).is_err());
        slider.states.push(State::Focused);
        assert_eq!(
            shells(
                &action("e4", &slider, Action::Increment, &none, screen)
                    .expect("inc")
                    .steps
            ),
            ["input keyevent 22"]
        );
    }
}
