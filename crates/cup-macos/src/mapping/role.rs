//! `AXRole` and `AXSubrole` → CUP role (the spec's `mappings.json`, with
//! the context its `?` entries ask for: the parent's role, the element's
//! name).

use cup_protocol::Role;

use crate::facts::AxElement;

/// The parent's role and subrole (empty at a window's root).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Context<'a> {
    /// The parent's `AXRole`.
    pub parent_role: &'a str,
    /// The parent's `AXSubrole`.
    pub parent_subrole: &'a str,
}

/// Subroles of `AXGroup` that name an ARIA landmark or live region (web
/// content in Safari and Chromium).
fn group_subrole(subrole: &str) -> Option<Role> {
    Some(match subrole {
        "AXApplicationAlert" => Role::Alert,
        "AXApplicationAlertDialog" => Role::AlertDialog,
        "AXApplicationDialog" => Role::Dialog,
        "AXApplicationLog" => Role::Log,
        "AXApplicationMarquee" => Role::Marquee,
        "AXApplicationStatus" => Role::Status,
        "AXApplicationTimer" => Role::Timer,
        "AXLandmarkBanner" => Role::Banner,
        "AXLandmarkComplementary" => Role::Complementary,
        "AXLandmarkContentInfo" => Role::ContentInfo,
        "AXLandmarkMain" => Role::Main,
        "AXLandmarkNavigation" => Role::Navigation,
        "AXLandmarkRegion" => Role::Region,
        "AXLandmarkSearch" => Role::Search,
        "AXLandmarkForm" => Role::Form,
        "AXTabPanel" => Role::TabPanel,
        "AXDocument" | "AXDocumentArticle" | "AXDocumentNote" => Role::Group,
        _ => return None,
    })
}

/// The CUP role of `el` under a parent of `ctx`.
pub fn map_role(el: &AxElement, ctx: Context<'_>) -> Role {
    let subrole = el.subrole.as_deref().unwrap_or("");
    let named = el.title.as_deref().is_some_and(|t| !t.trim().is_empty())
        || el
            .description
            .as_deref()
            .is_some_and(|t| !t.trim().is_empty());
    match el.role.as_str() {
        "AXApplication" => Role::Application,
        "AXWindow" => match subrole {
            "AXDialog" | "AXSystemDialog" => Role::Dialog,
            _ if el.modal == Some(true) => Role::Dialog,
            _ => Role::Window,
        },
        "AXSheet" | "AXPopover" => Role::Dialog,
        "AXDrawer" => Role::Group,
        "AXButton" | "AXMenuButton" | "AXColorWell" | "AXDockItem" => Role::Button,
        "AXDisclosureTriangle" => Role::Button,
        "AXPopUpButton" | "AXComboBox" => Role::Combobox,
        "AXCheckBox" => match subrole {
            "AXSwitch" => Role::Switch,
            "AXToggle" => Role::Button,
            _ => Role::Checkbox,
        },
        "AXRadioButton" => {
            if subrole == "AXTabButton" || ctx.parent_role == "AXTabGroup" {
                Role::Tab
            } else {
                Role::Radio
            }
        }
        "AXRadioGroup" => Role::Group,
        "AXTabGroup" => Role::TabList,
        "AXTextField" => match subrole {
            "AXSearchField" => Role::SearchBox,
            _ => Role::TextBox,
        },
        "AXSecureTextField" | "AXTextArea" | "AXDateField" | "AXTimeField" => Role::TextBox,
        "AXStaticText" => {
            if matches!(ctx.parent_role, "AXList" | "AXComboBox")
                && ctx.parent_subrole != "AXContentList"
            {
                Role::Option
            } else {
                Role::Text
            }
        }
        "AXHeading" => Role::Heading,
        "AXLink" => Role::Link,
        "AXImage" => Role::Img,
        "AXWebArea" => Role::Document,
        "AXGroup" => {
            if let Some(r) = group_subrole(subrole) {
                r
            } else if ctx.parent_role == "AXList" {
                Role::ListItem
            } else if named {
                Role::Group
            } else {
                Role::Generic
            }
        }
        "AXList" => Role::List,
        "AXTable" | "AXGrid" => {
            if subrole == "AXGrid" || el.role == "AXGrid" {
                Role::Grid
            } else {
                Role::Table
            }
        }
        "AXOutline" | "AXBrowser" => Role::Tree,
        "AXRow" => match subrole {
            "AXOutlineRow" => Role::TreeItem,
            _ if ctx.parent_role == "AXOutline" => Role::TreeItem,
            _ => Role::Row,
        },
        "AXColumn" => Role::ColumnHeader,
        "AXCell" => Role::Cell,
        "AXMenuBar" => Role::MenuBar,
        "AXMenu" => Role::Menu,
        "AXMenuBarItem" => Role::MenuItem,
        "AXMenuItem" => {
            if el.mark_char.as_deref().is_some_and(|m| !m.is_empty()) {
                Role::MenuItemCheckbox
            } else {
                Role::MenuItem
            }
        }
        "AXProgressIndicator" | "AXBusyIndicator" | "AXLevelIndicator" | "AXRelevanceIndicator" => {
            Role::ProgressBar
        }
        "AXSlider" => Role::Slider,
        "AXIncrementor" | "AXStepper" => Role::SpinButton,
        "AXScrollBar" => Role::ScrollBar,
        "AXSplitter" => Role::Separator,
        "AXToolbar" => Role::Toolbar,
        "AXHelpTag" => Role::Tooltip,
        "AXScrollArea" | "AXSplitGroup" | "AXLayoutArea" | "AXLayoutItem" => {
            if named {
                Role::Group
            } else {
                Role::Generic
            }
        }
        _ => Role::Generic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(role: &str, subrole: Option<&str>) -> AxElement {
        AxElement {
            role: role.into(),
            subrole: subrole.map(Into::into),
            ..AxElement::default()
        }
    }

    #[test]
    fn mappings_json_pairs() {
        let none = Context::default();
        for (role, subrole, want) in [
            ("AXGroup", Some("AXApplicationAlert"), Role::Alert),
            (
                "AXGroup",
                Some("AXApplicationAlertDialog"),
                Role::AlertDialog,
            ),
            ("AXApplication", None, Role::Application),
            ("AXButton", None, Role::Button),
            ("AXCell", None, Role::Cell),
            ("AXCheckBox", None, Role::Checkbox),
            ("AXCheckBox", Some("AXSwitch"), Role::Switch),
            ("AXColumn", None, Role::ColumnHeader),
            ("AXComboBox", None, Role::Combobox),
            ("AXWindow", Some("AXDialog"), Role::Dialog),
            ("AXWebArea", None, Role::Document),
            ("AXHeading", None, Role::Heading),
            ("AXImage", None, Role::Img),
            ("AXLink", None, Role::Link),
            ("AXList", None, Role::List),
            ("AXMenu", None, Role::Menu),
            ("AXMenuBar", None, Role::MenuBar),
            ("AXMenuItem", None, Role::MenuItem),
            ("AXGroup", Some("AXLandmarkNavigation"), Role::Navigation),
            ("AXProgressIndicator", None, Role::ProgressBar),
            ("AXRadioButton", None, Role::Radio),
            ("AXGroup", Some("AXLandmarkRegion"), Role::Region),
            ("AXRow", None, Role::Row),
            ("AXScrollBar", None, Role::ScrollBar),
            ("AXGroup", Some("AXLandmarkSearch"), Role::Search),
            ("AXTextField", Some("AXSearchField"), Role::SearchBox),
            ("AXSplitter", None, Role::Separator),
            ("AXSlider", None, Role::Slider),
            ("AXIncrementor", None, Role::SpinButton),
            ("AXTable", None, Role::Table),
            ("AXTabGroup", None, Role::TabList),
            ("AXStaticText", None, Role::Text),
            ("AXTextField", None, Role::TextBox),
            ("AXTextArea", None, Role::TextBox),
            ("AXToolbar", None, Role::Toolbar),
            ("AXHelpTag", None, Role::Tooltip),
            ("AXOutline", None, Role::Tree),
            ("AXWindow", None, Role::Window),
            ("AXSheet", None, Role::Dialog),
            ("AXUnknown", None, Role::Generic),
        ] {
            assert_eq!(
                map_role(&el(role, subrole), none),
                want,
                "{role} {subrole:?}"
            );
        }
    }

    #[test]
    fn context_decides_the_question_marks() {
        let tabs = Context {
            parent_role: "AXTabGroup",
            parent_subrole: "",
        };
        assert_eq!(map_role(&el("AXRadioButton", None), tabs), Role::Tab);
        let outline = Context {
            parent_role: "AXOutline",
            parent_subrole: "",
        };
        assert_eq!(map_role(&el("AXRow", None), outline), Role::TreeItem);
        let list = Context {
            parent_role: "AXList",
            parent_subrole: "",
        };
        assert_eq!(map_role(&el("AXGroup", None), list), Role::ListItem);
        assert_eq!(map_role(&el("AXStaticText", None), list), Role::Option);
        // A plain group is generic unless named.
        let mut g = el("AXGroup", None);
        assert_eq!(map_role(&g, Context::default()), Role::Generic);
        g.title = Some("Sidebar".into());
        assert_eq!(map_role(&g, Context::default()), Role::Group);
        let mut item = el("AXMenuItem", None);
        item.mark_char = Some("✓".into());
        assert_eq!(map_role(&item, Context::default()), Role::MenuItemCheckbox);
        let mut w = el("AXWindow", Some("AXStandardWindow"));
        w.modal = Some(true);
        assert_eq!(map_role(&w, Context::default()), Role::Dialog);
    }
}
