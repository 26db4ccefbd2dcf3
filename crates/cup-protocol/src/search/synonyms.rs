//! Role synonyms: the words people use for a kind of control, mapped to the
//! CUP roles they may mean, and [`resolve_roles`], which turns a free-form
//! role word into a role filter.

use std::collections::BTreeSet;

use crate::search::tokenize::tokenize;
use crate::vocab::Role;
use crate::vocab::Role as R;

/// Explicit synonym phrases (lowercase, words separated by one space) and
/// the roles each may mean. Every canonical role name is a synonym of
/// itself as well (see [`synonym_roles`]); an entry here wins over that
/// identity (`search`, `option`, `table`).
///
/// The table is the reference SDK's, plus these additions of ours:
/// `field` → textbox, searchbox, combobox; `entry` → textbox, searchbox;
/// `label` → text; `check box` → checkbox; `text area` → textbox, document;
/// `scroll bar` → scrollbar; `title bar` → titlebar; `listbox` and
/// `list box` → list.
pub const ROLE_SYNONYMS: &[(&str, &[Role])] = &[
    (
        "input",
        &[
            R::TextBox,
            R::Combobox,
            R::SearchBox,
            R::SpinButton,
            R::Slider,
        ],
    ),
    ("text input", &[R::TextBox, R::SearchBox, R::Combobox]),
    ("text field", &[R::TextBox, R::SearchBox, R::Combobox]),
    ("text box", &[R::TextBox, R::SearchBox]),
    ("textarea", &[R::TextBox, R::Document]),
    (
        "edit",
        &[R::TextBox, R::SearchBox, R::Combobox, R::Document],
    ),
    ("editor", &[R::TextBox, R::Document]),
    ("search", SEARCHY),
    ("search bar", SEARCHY),
    ("search box", SEARCHY),
    ("search field", SEARCHY),
    ("search input", SEARCHY),
    ("btn", &[R::Button]),
    (
        "clickable",
        &[
            R::Button,
            R::Link,
            R::MenuItem,
            R::Tab,
            R::TreeItem,
            R::ListItem,
        ],
    ),
    ("hyperlink", &[R::Link]),
    ("anchor", &[R::Link]),
    ("dropdown", &[R::Combobox, R::Menu, R::List]),
    ("select", &[R::Combobox, R::List, R::ListItem]),
    ("combo", &[R::Combobox]),
    ("combo box", &[R::Combobox]),
    ("check", &[R::Checkbox, R::Switch, R::MenuItemCheckbox]),
    ("toggle", &[R::Switch, R::Checkbox]),
    ("radio button", &[R::Radio, R::MenuItemRadio]),
    (
        "option",
        &[R::Option, R::Radio, R::ListItem, R::MenuItemRadio],
    ),
    ("range", &[R::Slider, R::ProgressBar, R::SpinButton]),
    ("progress", &[R::ProgressBar]),
    ("progress bar", &[R::ProgressBar]),
    ("spinner", &[R::SpinButton]),
    // GTK's and Qt's word for it, as people write it.
    ("spin button", &[R::SpinButton]),
    ("spin box", &[R::SpinButton]),
    ("spinbox", &[R::SpinButton]),
    ("tab bar", &[R::TabList]),
    ("tab list", &[R::TabList]),
    ("tabs", &[R::TabList, R::Tab]),
    ("tab panel", &[R::TabPanel]),
    ("menu bar", &[R::MenuBar]),
    (
        "menu item",
        &[R::MenuItem, R::MenuItemCheckbox, R::MenuItemRadio],
    ),
    ("modal", &[R::Dialog, R::AlertDialog]),
    ("popup", &[R::Dialog, R::AlertDialog, R::Tooltip, R::Menu]),
    ("notification", &[R::Alert, R::Status, R::Log]),
    ("message", &[R::Alert, R::Status, R::Log]),
    ("title", &[R::Heading, R::TitleBar]),
    (
        "header",
        &[R::Heading, R::Banner, R::ColumnHeader, R::RowHeader],
    ),
    ("image", &[R::Img]),
    ("picture", &[R::Img]),
    ("icon", &[R::Img, R::Button]),
    ("tree item", &[R::TreeItem]),
    ("list item", &[R::ListItem]),
    ("table", &[R::Table, R::Grid]),
    ("nav", &[R::Navigation]),
    ("sidebar", &[R::Complementary, R::Navigation]),
    ("panel", &[R::Region, R::Group, R::TabPanel]),
    ("section", &[R::Region, R::Group, R::Main]),
    ("container", &[R::Region, R::Group, R::Generic]),
    ("divider", &[R::Separator]),
    ("scroll", &[R::ScrollBar]),
    ("status bar", &[R::Status]),
    ("tool bar", &[R::Toolbar]),
    // Additions of ours (listed in the doc comment above).
    ("field", &[R::TextBox, R::SearchBox, R::Combobox]),
    ("entry", &[R::TextBox, R::SearchBox]),
    ("label", &[R::Text]),
    ("check box", &[R::Checkbox]),
    ("text area", &[R::TextBox, R::Document]),
    ("scroll bar", &[R::ScrollBar]),
    ("title bar", &[R::TitleBar]),
    ("listbox", &[R::List]),
    ("list box", &[R::List]),
];

const SEARCHY: &[Role] = &[R::Search, R::SearchBox, R::TextBox, R::Combobox];

/// The roles a synonym phrase (lowercase, single spaces) stands for: the
/// explicit [`ROLE_SYNONYMS`] entry, else the role of that canonical name.
pub fn synonym_roles(phrase: &str) -> Option<&'static [Role]> {
    ROLE_SYNONYMS
        .iter()
        .find(|(key, _)| *key == phrase)
        .map(|(_, roles)| *roles)
        .or_else(|| {
            Role::ALL
                .iter()
                .find(|r| r.name() == phrase)
                .map(std::slice::from_ref)
        })
}

/// Turns a free-form role word into the set of roles it may mean, or `None`
/// for "no role filter".
///
/// In order: the whole (trimmed, lowercased) phrase as a synonym; the
/// phrase's tokens joined by single spaces as a synonym (so `Menu-Item` and
/// `menu  item` work; an addition of ours); the first token that is a
/// synonym; for phrases of at least 3 characters, every role whose name
/// contains the phrase (`bar` → menubar, progressbar, scrollbar, titlebar,
/// toolbar); else `None`.
pub fn resolve_roles(phrase: &str) -> Option<BTreeSet<Role>> {
    let q = phrase.trim().to_lowercase();
    let set = |roles: &[Role]| roles.iter().copied().collect::<BTreeSet<_>>();
    if let Some(roles) = synonym_roles(&q) {
        return Some(set(roles));
    }
    let tokens = tokenize(&q);
    if let Some(roles) = synonym_roles(&tokens.join(" ")) {
        return Some(set(roles));
    }
    if let Some(roles) = tokens.iter().find_map(|t| synonym_roles(t)) {
        return Some(set(roles));
    }
    if q.chars().count() >= 3 {
        let found: BTreeSet<Role> = Role::ALL
            .iter()
            .copied()
            .filter(|r| r.name().contains(q.as_str()))
            .collect();
        if !found.is_empty() {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(set: Option<BTreeSet<Role>>) -> Option<Vec<&'static str>> {
        set.map(|s| s.into_iter().map(Role::name).collect())
    }

    #[test]
    fn reference_vectors() {
        let cases: &[(&str, Option<&[&str]>)] = &[
            ("button", Some(&["button"])),
            (
                "search bar",
                Some(&["combobox", "search", "searchbox", "textbox"]),
            ),
            (
                "input",
                Some(&["combobox", "searchbox", "slider", "spinbutton", "textbox"]),
            ),
            ("xyznonexistent", None),
            ("Button", Some(&["button"])),
            ("combo", Some(&["combobox"])),
            ("spin button", Some(&["spinbutton"])),
            (
                "bar",
                Some(&["menubar", "progressbar", "scrollbar", "titlebar", "toolbar"]),
            ),
            ("para", Some(&["separator"])),
            (
                "menu item",
                Some(&["menuitem", "menuitemcheckbox", "menuitemradio"]),
            ),
        ];
        for (q, want) in cases {
            assert_eq!(names(resolve_roles(q)).as_deref(), *want, "query {q:?}");
        }
    }

    #[test]
    fn every_role_name_is_its_own_synonym_unless_overridden() {
        for role in Role::ALL {
            let roles = synonym_roles(role.name()).expect("role name is a key");
            assert!(roles.contains(role), "{role}");
        }
        assert_eq!(synonym_roles("table"), Some(&[R::Table, R::Grid][..]));
    }

    #[test]
    fn keys_are_normalized_and_unique() {
        let mut seen = BTreeSet::new();
        for (key, roles) in ROLE_SYNONYMS {
            assert_eq!(
                tokenize(key).join(" "),
                *key,
                "key {key:?} is not in folded form"
            );
            assert!(seen.insert(*key), "duplicate key {key:?}");
            assert!(!roles.is_empty());
        }
    }

    #[test]
    fn tokens_and_first_synonym_token() {
        assert_eq!(
            names(resolve_roles("Menu-Item")),
            Some(vec!["menuitem", "menuitemcheckbox", "menuitemradio"])
        );
        assert_eq!(names(resolve_roles("big red button")), Some(vec!["button"]));
        assert_eq!(names(resolve_roles("  LINK ")), Some(vec!["link"]));
        assert_eq!(names(resolve_roles("ba")), None);
        assert_eq!(names(resolve_roles("")), None);
    }
}
