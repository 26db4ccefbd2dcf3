//! What WebDriverAgent (WDA) says of the screen and of each element,
//! unmapped: the native facts cup keeps (`cup snapshot --native-dump` on
//! iOS, the fixtures of the tests).
//!
//! An element is one object of `GET /source?format=json`, as WDA's
//! `XCUIApplication+FBHelpers.m` writes it: `type` (`Button`; the XML
//! source's `XCUIElementTypeButton` is read too), `rawIdentifier`, `name`
//! (the identifier, else the label), `label`, `value`, `rect` (points),
//! `isEnabled`/`isVisible`/`isAccessible`/`isFocused` (WDA writes `"1"` and
//! `"0"`; booleans and numbers are read too), `traits` (`"Button,
//! Selected"` or a list), `customActions`, `placeholderValue` (text
//! inputs), `minValue`/`maxValue` (sliders, steppers) and `children`.
//! Reading is tolerant: a missing, `null` or oddly typed field is simply
//! absent, and the whole reply may still carry WDA's `{"value": ...,
//! "sessionId": ...}` wrapper.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// The prefix XCTest's element type names carry (`XCUIElementTypeButton`).
pub const TYPE_PREFIX: &str = "XCUIElementType";

/// An element's frame in points, as WDA's `rect` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct WdaRect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl WdaRect {
    /// The centre, where a tap lands.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// No area (or a broken, non-finite or NaN size).
    pub fn is_empty(&self) -> bool {
        let area = self.width > 0.0
            && self.height > 0.0
            && self.right().is_finite()
            && self.bottom().is_finite();
        !area
    }

    /// The part of this rectangle inside `other` (empty when apart).
    pub fn intersect(&self, other: &WdaRect) -> WdaRect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        WdaRect {
            x,
            y,
            width: (self.right().min(other.right()) - x).max(0.0),
            height: (self.bottom().min(other.bottom()) - y).max(0.0),
        }
    }

    fn from_value(v: &Value) -> Option<WdaRect> {
        let o = v.as_object()?;
        Some(WdaRect {
            x: number(o.get("x"))?,
            y: number(o.get("y"))?,
            width: number(o.get("width"))?,
            height: number(o.get("height"))?,
        })
    }
}

/// One element of WDA's JSON source.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WdaElement {
    /// The XCUIElementType without its prefix (`Button`, `StaticText`,
    /// `Other`).
    #[serde(rename = "type")]
    pub element_type: String,
    /// The accessibility identifier the app set (newer WDA only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_identifier: Option<String>,
    /// WDA's `name`: the identifier when there is one, else the label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The accessibility label (what VoiceOver reads).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// WDA's `value`: the accessibility value; a static text's label when
    /// it has none, `"1"` for a selected button, `"1"`/`"0"` for a switch,
    /// the placeholder of an empty text input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The placeholder of a text input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder_value: Option<String>,
    /// Its frame in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rect: Option<WdaRect>,
    /// `isEnabled`.
    #[serde(rename = "isEnabled", skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `isVisible`: on screen and not hidden (WDA's own check).
    #[serde(rename = "isVisible", skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
    /// `isAccessible`: an accessibility element itself, not a container.
    #[serde(rename = "isAccessible", skip_serializing_if = "Option::is_none")]
    pub accessible: Option<bool>,
    /// `isFocused` (also read as `hasFocus`).
    #[serde(rename = "isFocused", skip_serializing_if = "Option::is_none")]
    pub focused: Option<bool>,
    /// `isSelected`, where the source has it.
    #[serde(rename = "isSelected", skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    /// UIAccessibilityTraits names (`Button`, `Selected`, `Header`,
    /// `Adjustable`, `NotEnabled`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<String>,
    /// Names of the element's custom accessibility actions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub custom_actions: Vec<String>,
    /// Minimum of a slider or stepper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_value: Option<f64>,
    /// Maximum of a slider or stepper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_value: Option<f64>,
    /// Its children, in the source's order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<WdaElement>,
}

impl<'de> Deserialize<'de> for WdaElement {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(WdaElement::from_value(&v))
    }
}

/// A JSON value as text: strings as they are, numbers and booleans as WDA
/// prints them (`1`, `0.5`; `true` as `"1"`), `null` and empty as absent.
fn text(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if *b { "1" } else { "0" }.to_owned(),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

/// A flag as WDA writes it (`"1"`/`"0"`), or a boolean, a number, `"true"`.
fn flag(v: Option<&Value>) -> Option<bool> {
    match v? {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|f| f != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" => Some(true),
            "0" | "false" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A finite number, or a string holding one.
fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

/// A list of names: a comma-separated string (WDA's `"Button, Selected"`)
/// or an array of strings.
fn list(v: Option<&Value>) -> Vec<String> {
    let items: Vec<String> = match v {
        Some(Value::String(s)) => s.split(',').map(str::to_owned).collect(),
        Some(Value::Array(a)) => a.iter().filter_map(|i| text(Some(i))).collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty() && s != "None")
        .collect()
}

impl WdaElement {
    /// Reads an element from WDA's JSON, tolerating missing, `null` and
    /// oddly typed fields (they are left absent).
    pub fn from_value(v: &Value) -> WdaElement {
        let empty = Map::new();
        let o = v.as_object().unwrap_or(&empty);
        let get = |k: &str| o.get(k);
        let ty = text(get("type")).unwrap_or_default();
        WdaElement {
            element_type: ty
                .strip_prefix(TYPE_PREFIX)
                .map_or_else(|| ty.clone(), str::to_owned),
            raw_identifier: text(get("rawIdentifier")),
            name: text(get("name")),
            label: text(get("label")),
            value: text(get("value")),
            placeholder_value: text(get("placeholderValue")),
            rect: get("rect").and_then(WdaRect::from_value),
            enabled: flag(get("isEnabled")),
            visible: flag(get("isVisible")),
            accessible: flag(get("isAccessible")),
            focused: flag(get("isFocused")).or_else(|| flag(get("hasFocus"))),
            selected: flag(get("isSelected")),
            traits: list(get("traits")),
            custom_actions: list(get("customActions")),
            min_value: number(get("minValue")),
            max_value: number(get("maxValue")),
            children: match get("children") {
                Some(Value::Array(a)) => a.iter().map(WdaElement::from_value).collect(),
                _ => Vec::new(),
            },
        }
    }

    /// Whether it has the UIAccessibilityTraits `name`.
    pub fn has_trait(&self, name: &str) -> bool {
        self.traits.iter().any(|t| t.eq_ignore_ascii_case(name))
    }

    /// This element and every descendant.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(WdaElement::count).sum::<usize>()
    }

    /// The element at `path` (child indices from this one).
    pub fn at(&self, path: &[usize]) -> Option<&WdaElement> {
        path.iter().try_fold(self, |el, &i| el.children.get(i))
    }
}

/// WDA's reply without its `{"value": ..., "sessionId": ...}` wrapper (an
/// element, which has a `type`, is returned as it is).
pub fn unwrap_reply(v: Value) -> Value {
    match v {
        Value::Object(mut o) if !o.contains_key("type") && o.contains_key("value") => {
            o.remove("value").unwrap_or(Value::Null)
        }
        other => other,
    }
}

/// The root element of a `GET /source?format=json` reply.
///
/// # Errors
///
/// The reply is not an element (a string: the XML source; anything else).
pub fn source_tree(reply: Value) -> Result<WdaElement, String> {
    match unwrap_reply(reply) {
        Value::Object(o) if o.contains_key("type") => Ok(WdaElement::from_value(&Value::Object(o))),
        Value::String(_) => Err(
            "WebDriverAgent sent its source as text, not JSON; update WebDriverAgent (format=json needs a 2019 or later build)"
                .to_owned(),
        ),
        other => Err(format!(
            "WebDriverAgent's source is not an element tree (it begins {}); is this port really WebDriverAgent?",
            cup_protocol::text::cap(&other.to_string(), 60)
        )),
    }
}

/// The screen in points and its scale (device pixels per point).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScreenFacts {
    /// Width in points (as the app is oriented).
    pub width_points: f64,
    /// Height in points.
    pub height_points: f64,
    /// Device pixels per point (2 or 3 on iPhones).
    pub scale: f64,
}

impl ScreenFacts {
    /// The screen as a rectangle in points.
    pub fn rect(&self) -> WdaRect {
        WdaRect {
            x: 0.0,
            y: 0.0,
            width: self.width_points,
            height: self.height_points,
        }
    }

    /// Width in device pixels.
    pub fn width_pixels(&self) -> i64 {
        (self.width_points * self.scale).round() as i64
    }

    /// Height in device pixels.
    pub fn height_pixels(&self) -> i64 {
        (self.height_points * self.scale).round() as i64
    }

    /// Reads `GET /wda/screen`'s value (`screenSize` in points, `scale`);
    /// `window` is `GET /window/size`'s value, the size where the screen's
    /// reply has none (older WDA).
    ///
    /// # Errors
    ///
    /// Neither reply gives a size.
    pub fn from_replies(screen: &Value, window: Option<&Value>) -> Result<ScreenFacts, String> {
        let screen = screen.get("value").unwrap_or(screen);
        let size = |v: Option<&Value>| -> Option<(f64, f64)> {
            let v = v?;
            let v = v.get("value").unwrap_or(v);
            Some((number(v.get("width"))?, number(v.get("height"))?))
                .filter(|(w, h)| *w > 0.0 && *h > 0.0)
        };
        let (width_points, height_points) = size(screen.get("screenSize"))
            .or_else(|| size(window))
            .ok_or_else(|| {
                "WebDriverAgent gave no screen size (neither /wda/screen nor /window/size)"
                    .to_owned()
            })?;
        let scale = number(screen.get("scale"))
            .filter(|s| *s > 0.0)
            .unwrap_or(1.0);
        Ok(ScreenFacts {
            width_points,
            height_points,
            scale,
        })
    }

    /// Whether `/wda/screen`'s value has the size itself.
    pub fn has_size(screen: &Value) -> bool {
        let screen = screen.get("value").unwrap_or(screen);
        screen
            .get("screenSize")
            .and_then(|s| number(s.get("width")))
            .is_some_and(|w| w > 0.0)
    }
}

/// The app in front, from `GET /wda/activeAppInfo`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AppFacts {
    /// Its bundle id (`com.apple.Preferences`).
    pub bundle_id: String,
    /// WDA's `name` (XCTest's identifier of the app; often empty).
    pub name: String,
    /// Its process id.
    pub pid: Option<u32>,
}

impl AppFacts {
    /// Reads the reply (wrapped or not).
    pub fn from_reply(v: &Value) -> AppFacts {
        let v = v.get("value").filter(|x| x.is_object()).unwrap_or(v);
        AppFacts {
            bundle_id: text(v.get("bundleId")).unwrap_or_default(),
            name: text(v.get("name")).unwrap_or_default(),
            pid: number(v.get("pid")).filter(|p| *p > 0.0).map(|p| p as u32),
        }
    }
}

/// The facts of one capture: the `--native-dump` format of iOS.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NativeDump {
    /// Always `ios`.
    pub platform: String,
    /// Where the facts come from (recorded by cup, or how a fixture was
    /// built).
    pub source: String,
    /// The screen.
    pub screen: ScreenFacts,
    /// The app in front, when WDA said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_id: Option<String>,
    /// WDA's source: the application element.
    pub tree: WdaElement,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wda_strings_lists_and_wrappers_are_read() {
        let reply = json!({
            "sessionId": "S",
            "value": {
                "type": "Application", "name": "Settings", "label": "Settings",
                "value": null, "rawIdentifier": null,
                "rect": {"x": 0, "y": 0, "width": 390, "height": 844},
                "frame": "{{0, 0}, {390, 844}}",
                "isEnabled": "1", "isVisible": "1", "isAccessible": "0", "isFocused": "0",
                "traits": "", "customActions": null,
                "children": [{
                    "type": "XCUIElementTypeButton", "name": "backButton", "label": "Back",
                    "rawIdentifier": "backButton", "value": "1",
                    "rect": {"x": "8", "y": 47.5, "width": 80, "height": 44},
                    "isEnabled": true, "isVisible": 0, "hasFocus": "true",
                    "traits": "Button, Selected", "customActions": ["Delete", "Share"],
                    "minValue": "0", "maxValue": 1
                }, {"label": 5, "children": "none"}]
            }
        });
        let root = source_tree(reply).expect("a tree");
        assert_eq!(root.element_type, "Application");
        assert_eq!(root.label.as_deref(), Some("Settings"));
        assert_eq!(
            (root.value.clone(), root.raw_identifier.clone()),
            (None, None)
        );
        assert_eq!(
            (root.enabled, root.visible, root.accessible, root.focused),
            (Some(true), Some(true), Some(false), Some(false))
        );
        assert!(root.traits.is_empty() && root.custom_actions.is_empty());
        let b = &root.children[0];
        assert_eq!(b.element_type, "Button");
        assert_eq!(
            b.rect,
            Some(WdaRect {
                x: 8.0,
                y: 47.5,
                width: 80.0,
                height: 44.0
            })
        );
        assert_eq!(
            (b.enabled, b.visible, b.focused),
            (Some(true), Some(false), Some(true))
        );
        assert_eq!(b.traits, ["Button", "Selected"]);
        assert!(b.has_trait("selected"));
        assert_eq!(b.custom_actions, ["Delete", "Share"]);
        assert_eq!((b.min_value, b.max_value), (Some(0.0), Some(1.0)));
        let odd = &root.children[1];
        assert_eq!(odd.element_type, "");
        assert_eq!(odd.label.as_deref(), Some("5"));
        assert!(odd.children.is_empty() && odd.rect.is_none());
        assert_eq!(root.count(), 3);
        assert_eq!(
            root.at(&[0]).map(|e| e.label.as_deref()),
            Some(Some("Back"))
        );
        assert!(root.at(&[2]).is_none());
    }

    #[test]
    fn a_dump_round_trips_and_other_replies_say_what_is_wrong() {
        let dump = NativeDump {
            platform: "ios".into(),
            source: "test".into(),
            screen: ScreenFacts {
                width_points: 390.0,
                height_points: 844.0,
                scale: 3.0,
            },
            bundle_id: Some("com.apple.Preferences".into()),
            tree: WdaElement {
                element_type: "Application".into(),
                label: Some("Settings".into()),
                enabled: Some(true),
                traits: vec!["Header".into()],
                children: vec![WdaElement {
                    element_type: "Window".into(),
                    ..WdaElement::default()
                }],
                ..WdaElement::default()
            },
        };
        let text = serde_json::to_string(&dump).expect("json");
        assert!(text.contains(r#""isEnabled":true"#), "{text}");
        let back: NativeDump = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, dump);
        assert!(source_tree(json!({"value": "<?xml version=\"1.0\"?>"}))
            .expect_err("xml")
            .contains("JSON"));
        assert!(source_tree(json!([1, 2])).is_err());
    }

    #[test]
    fn screen_and_app_replies() {
        let s = ScreenFacts::from_replies(
            &json!({"value": {"statusBarSize": {"width": 390, "height": 47}, "scale": 3,
                "screenSize": {"width": 390, "height": 844}}, "sessionId": null}),
            None,
        )
        .expect("screen");
        assert_eq!(
            (s.width_pixels(), s.height_pixels(), s.scale),
            (1170, 2532, 3.0)
        );
        let old = json!({"statusBarSize": {"width": 375, "height": 20}, "scale": 2});
        assert!(!ScreenFacts::has_size(&old));
        let s =
            ScreenFacts::from_replies(&old, Some(&json!({"value": {"width": 375, "height": 667}})))
                .expect("from the window size");
        assert_eq!((s.width_pixels(), s.height_pixels()), (750, 1334));
        assert!(ScreenFacts::from_replies(&old, None).is_err());
        let app = AppFacts::from_reply(
            &json!({"value": {"pid": 4242, "bundleId": "com.apple.mobilesafari",
            "name": "", "processArguments": {"env": {}, "args": []}}, "sessionId": "X"}),
        );
        assert_eq!(
            app,
            AppFacts {
                bundle_id: "com.apple.mobilesafari".into(),
                name: String::new(),
                pid: Some(4242)
            }
        );
    }
}
