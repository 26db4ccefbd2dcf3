//! Reading a UI dump's XML, in any of its three shapes, into
//! [`Dump`] (see the crate's documentation for the shapes).

use crate::facts::{AndroidNode, Bounds, Dump, Shape};

/// Why a dump could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DumpError {
    /// Not XML.
    #[error("the device's UI dump is not XML ({0}); run `cup snapshot --native-dump` again and attach it to a bug report if it persists")]
    Xml(String),
    /// XML, but not a UI dump.
    #[error("the device's answer is not a UI dump (its root is <{0}>, not <hierarchy>)")]
    NotADump(String),
    /// The dump tool's own error (`ERROR: null root node returned by
    /// UiTestAutomationBridge`, while an animation runs or the screen is
    /// off).
    #[error("the device returned no UI tree ({0}); wake the screen, wait for animations to end, and retry")]
    NoTree(String),
}

/// `[l,t][r,b]` as [`Bounds`].
pub fn bounds(text: &str) -> Option<Bounds> {
    let numbers: Vec<i64> = text
        .split(['[', ']', ','])
        .filter(|p| !p.is_empty())
        .map(|p| p.trim().parse().ok())
        .collect::<Option<Vec<i64>>>()?;
    match numbers.as_slice() {
        [left, top, right, bottom] => Some(Bounds {
            left: *left,
            top: *top,
            right: *right,
            bottom: *bottom,
        }),
        _ => None,
    }
}

/// Reads a dump. Text before `<?xml` (what `uiautomator dump /dev/tty`
/// prints around it) and after the root's end is ignored.
///
/// # Errors
///
/// [`DumpError`]: the dump tool's error text, XML that does not parse, or
/// a root other than `<hierarchy>`.
pub fn parse(text: &str) -> Result<Dump, DumpError> {
    if let Some(line) = text.lines().find(|l| l.trim_start().starts_with("ERROR:")) {
        if !text.contains("<hierarchy") {
            return Err(DumpError::NoTree(line.trim().to_owned()));
        }
    }
    let start = text
        .find("<?xml")
        .or_else(|| text.find("<hierarchy"))
        .ok_or_else(|| DumpError::Xml("no XML in the answer".into()))?;
    let end = text
        .rfind("</hierarchy>")
        .map_or(text.len(), |i| i + "</hierarchy>".len());
    let xml = &text[start..end.max(start)];
    let doc = roxmltree::Document::parse(xml).map_err(|e| DumpError::Xml(e.to_string()))?;
    let root = doc.root_element();
    if root.tag_name().name() != "hierarchy" {
        return Err(DumpError::NotADump(root.tag_name().name().to_owned()));
    }
    let rotation = root
        .attribute("rotation")
        .and_then(|r| r.parse().ok())
        .unwrap_or(0);
    let size = root
        .attribute("width")
        .zip(root.attribute("height"))
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
    let elements: Vec<roxmltree::Node<'_, '_>> = root
        .children()
        .filter(roxmltree::Node::is_element)
        .collect();
    let appium = root.attribute("class") == Some("hierarchy")
        || elements.iter().any(|e| e.tag_name().name() != "node");
    let androidx = !appium
        && root
            .descendants()
            .any(|n| n.attribute("visible-to-user").is_some());
    let shape = if appium {
        Shape::Appium
    } else if androidx {
        Shape::Androidx
    } else {
        Shape::Aosp
    };
    let roots = elements.into_iter().map(node).collect();
    Ok(Dump {
        shape,
        rotation,
        size,
        roots,
    })
}

/// One element and its subtree, its attributes read in one pass.
fn node(e: roxmltree::Node<'_, '_>) -> AndroidNode {
    let mut n = AndroidNode::default();
    let mut class = None;
    for a in e.attributes() {
        let value = a.value();
        match a.name() {
            "class" => class = Some(value),
            "package" => n.package = value.to_owned(),
            "text" => n.text = value.to_owned(),
            "content-desc" => n.content_desc = value.to_owned(),
            "hint" => n.hint = value.to_owned(),
            "resource-id" => n.resource_id = value.to_owned(),
            "bounds" => n.bounds = bounds(value),
            "display-id" => n.display = value.parse().ok(),
            flag => match value {
                "true" => {
                    n.flags.insert(flag);
                }
                "false" => {
                    n.unset.insert(flag);
                }
                _ => {}
            },
        }
    }
    // Appium names the element by its class; the others say it.
    n.class = class.unwrap_or_else(|| e.tag_name().name()).to_owned();
    n.children = e
        .children()
        .filter(roxmltree::Node::is_element)
        .map(node)
        .collect();
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AOSP's shape, written from `AccessibilityNodeInfoDumper`'s
    /// attributes: a settings row with a switch, a password field, an
    /// escaped name and a node without a usable rectangle.
    const AOSP: &str = r#"UI hierchary dumped to: /dev/tty
<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2340]"><node index="0" text="Wi‑Fi &amp; network" resource-id="android:id/title" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[42,300][600,360]" /><node index="1" text="" resource-id="android:id/switch_widget" class="android.widget.Switch" package="com.android.settings" content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[900,300][1038,360]" /><node index="2" text="••••" resource-id="com.example:id/pin" class="android.widget.EditText" package="com.example" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="true" selected="false" bounds="[42,400][1038,480]" /><node NAF="true" index="3" text="" resource-id="" class="android.widget.ImageButton" package="com.example" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="junk" /></node></hierarchy>"#;

    #[test]
    fn the_aosp_shape_is_read_whole() {
        let d = parse(AOSP).expect("a dump");
        assert_eq!(d.shape, Shape::Aosp);
        assert_eq!(d.rotation, 1);
        assert_eq!(d.roots.len(), 1);
        let root = &d.roots[0];
        assert_eq!(root.count(), 5);
        assert_eq!(root.class, "android.widget.FrameLayout");
        assert_eq!(
            root.bounds,
            Some(Bounds {
                left: 0,
                top: 0,
                right: 1080,
                bottom: 2340
            })
        );
        let title = &root.children[0];
        assert_eq!(title.text, "Wi‑Fi & network");
        assert_eq!(title.resource_id, "android:id/title");
        let switch = &root.children[1];
        assert!(switch.is("checkable") && switch.is("checked") && switch.is("clickable"));
        assert!(switch.is_not("focused"));
        assert_eq!(switch.bounds.map(|b| b.centre()), Some((969, 330)));
        let pin = &root.children[2];
        assert!(pin.is("password") && pin.is("focused") && pin.is("long-clickable"));
        let naf = &root.children[3];
        assert!(naf.is("NAF"));
        assert_eq!(naf.bounds, None);
    }

    /// androidx's shape: two windows' roots, `visible-to-user`, `hint`,
    /// `display-id`.
    #[test]
    fn the_androidx_shape_has_every_window() {
        let xml = r#"<?xml version="1.0"?><hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" package="com.example" visible-to-user="true" display-id="0" bounds="[0,0][1080,2340]"><node index="0" class="android.widget.EditText" package="com.example" text="" hint="Email" visible-to-user="true" bounds="[42,200][1038,280]"/></node><node index="1" class="android.widget.FrameLayout" package="com.android.systemui" visible-to-user="false" bounds="[0,0][1080,80]"/></hierarchy>"#;
        let d = parse(xml).expect("a dump");
        assert_eq!(d.shape, Shape::Androidx);
        assert_eq!(d.roots.len(), 2);
        assert_eq!(d.roots[0].display, Some(0));
        assert_eq!(d.roots[0].children[0].hint, "Email");
        assert!(d.roots[1].is_not("visible-to-user"));
    }

    /// Appium UiAutomator2's page source: elements named by class.
    #[test]
    fn the_appium_shape_names_elements_by_class() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?><hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2340"><android.widget.FrameLayout index="0" package="com.example" class="android.widget.FrameLayout" displayed="true" bounds="[0,0][1080,2340]"><androidx.recyclerview.widget.RecyclerView index="0" package="com.example" scrollable="true" displayed="true" bounds="[0,200][1080,2340]"><android.widget.TextView index="0" text="Row 1" displayed="true" bounds="[0,200][1080,300]"/></androidx.recyclerview.widget.RecyclerView></android.widget.FrameLayout></hierarchy>"#;
        let d = parse(xml).expect("a dump");
        assert_eq!(d.shape, Shape::Appium);
        assert_eq!(d.size, Some((1080, 2340)));
        let list = &d.roots[0].children[0];
        assert_eq!(list.class, "androidx.recyclerview.widget.RecyclerView");
        assert!(list.is("scrollable") && list.is("displayed"));
        assert_eq!(list.children[0].text, "Row 1");
    }

    #[test]
    fn errors_say_what_happened() {
        let none = parse("ERROR: null root node returned by UiTestAutomationBridge.\n");
        assert!(matches!(none, Err(DumpError::NoTree(_))));
        assert!(none
            .expect_err("no tree")
            .to_string()
            .contains("wake the screen"));
        assert!(matches!(parse("<html></html>"), Err(DumpError::Xml(_))));
        assert!(matches!(
            parse("<?xml version=\"1.0\"?><plist/>"),
            Err(DumpError::NotADump(_))
        ));
        assert!(matches!(
            parse("<?xml version=\"1.0\"?><hierarchy><node"),
            Err(DumpError::Xml(_))
        ));
        assert_eq!(
            bounds("[1,2][3,4]").map(|b| (b.width(), b.height())),
            Some((2, 2))
        );
        assert_eq!(bounds("[1,2][3]"), None);
    }

    #[test]
    fn the_facts_round_trip_as_json() {
        let d = parse(AOSP).expect("a dump");
        let json = serde_json::to_string(&d).expect("json");
        let back: Dump = serde_json::from_str(&json).expect("facts");
        assert_eq!(back, d);
    }
}
