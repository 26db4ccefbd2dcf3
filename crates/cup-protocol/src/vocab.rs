//! The closed CUP vocabulary: 59 roles, 16 states and 15 actions, each with
//! its canonical name (as in `cup.schema.json`) and its compact short code
//! (as in `compact.md`).
//!
//! Nothing outside these enums can be represented, so nothing outside the
//! schema can be emitted.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Error for a name or code that is not part of the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{value}'; expected one of: {expected}")]
pub struct UnknownWord {
    /// `role`, `state` or `action`.
    pub kind: &'static str,
    /// The rejected input.
    pub value: String,
    /// Comma-separated list of the accepted names.
    pub expected: String,
}

macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $ty:ident, $kind:literal, [ $( $variant:ident = $name:literal / $code:literal ),+ $(,)? ]
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $ty {
            $(
                #[doc = concat!("`", $name, "` (compact code `", $code, "`)")]
                $variant,
            )+
        }

        impl $ty {
            /// Every value, in schema (alphabetical) order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// Canonical lowercase name, as in the JSON schema.
            pub const fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }

            /// Compact-format short code.
            pub const fn code(self) -> &'static str {
                match self { $($ty::$variant => $code),+ }
            }

            /// Looks up a canonical name (exact, lowercase).
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($name => Some($ty::$variant),)+ _ => None }
            }

            /// Looks up a compact short code.
            pub fn from_code(code: &str) -> Option<Self> {
                match code { $($code => Some($ty::$variant),)+ _ => None }
            }

            fn unknown(value: &str) -> UnknownWord {
                UnknownWord {
                    kind: $kind,
                    value: value.to_owned(),
                    expected: Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", "),
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownWord;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::from_name(s).ok_or_else(|| Self::unknown(s))
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                Self::from_name(&s).ok_or_else(|| serde::de::Error::custom(Self::unknown(&s)))
            }
        }
    };
}

vocabulary! {
    /// Canonical ARIA-derived role (59).
    Role, "role", [
        Alert = "alert" / "alrt",
        AlertDialog = "alertdialog" / "adlg",
        Application = "application" / "app",
        Banner = "banner" / "bnr",
        Button = "button" / "btn",
        Cell = "cell" / "cel",
        Checkbox = "checkbox" / "chk",
        ColumnHeader = "columnheader" / "colh",
        Combobox = "combobox" / "cmb",
        Complementary = "complementary" / "cmp",
        ContentInfo = "contentinfo" / "ci",
        Dialog = "dialog" / "dlg",
        Document = "document" / "doc",
        Form = "form" / "frm",
        Generic = "generic" / "gen",
        Grid = "grid" / "grd",
        Group = "group" / "grp",
        Heading = "heading" / "hdg",
        Img = "img" / "img",
        Link = "link" / "lnk",
        List = "list" / "lst",
        ListItem = "listitem" / "li",
        Log = "log" / "log",
        Main = "main" / "main",
        Marquee = "marquee" / "mrq",
        Menu = "menu" / "mnu",
        MenuBar = "menubar" / "mnub",
        MenuItem = "menuitem" / "mi",
        MenuItemCheckbox = "menuitemcheckbox" / "mic",
        MenuItemRadio = "menuitemradio" / "mir",
        Navigation = "navigation" / "nav",
        None = "none" / "none",
        Option = "option" / "opt",
        ProgressBar = "progressbar" / "pbar",
        Radio = "radio" / "rad",
        Region = "region" / "rgn",
        Row = "row" / "row",
        RowHeader = "rowheader" / "rowh",
        ScrollBar = "scrollbar" / "sb",
        Search = "search" / "srch",
        SearchBox = "searchbox" / "sbx",
        Separator = "separator" / "sep",
        Slider = "slider" / "sld",
        SpinButton = "spinbutton" / "spn",
        Status = "status" / "sts",
        Switch = "switch" / "sw",
        Tab = "tab" / "tab",
        Table = "table" / "tbl",
        TabList = "tablist" / "tabs",
        TabPanel = "tabpanel" / "tpnl",
        Text = "text" / "txt",
        TextBox = "textbox" / "tbx",
        Timer = "timer" / "tmr",
        TitleBar = "titlebar" / "ttlb",
        Toolbar = "toolbar" / "tlbr",
        Tooltip = "tooltip" / "ttp",
        Tree = "tree" / "tre",
        TreeItem = "treeitem" / "ti",
        Window = "window" / "win",
    ]
}

vocabulary! {
    /// Active state flag (16).
    State, "state", [
        Busy = "busy" / "bsy",
        Checked = "checked" / "chk",
        Collapsed = "collapsed" / "col",
        Disabled = "disabled" / "dis",
        Editable = "editable" / "edt",
        Expanded = "expanded" / "exp",
        Focused = "focused" / "foc",
        Hidden = "hidden" / "hid",
        Mixed = "mixed" / "mix",
        Modal = "modal" / "mod",
        MultiSelectable = "multiselectable" / "msel",
        Offscreen = "offscreen" / "off",
        Pressed = "pressed" / "prs",
        ReadOnly = "readonly" / "ro",
        Required = "required" / "req",
        Selected = "selected" / "sel",
    ]
}

vocabulary! {
    /// Element-level action verb (15).
    Action, "action", [
        Click = "click" / "clk",
        Collapse = "collapse" / "col",
        Decrement = "decrement" / "dec",
        Dismiss = "dismiss" / "dsm",
        DoubleClick = "doubleclick" / "dbl",
        Expand = "expand" / "exp",
        Focus = "focus" / "foc",
        Increment = "increment" / "inc",
        LongPress = "longpress" / "lp",
        RightClick = "rightclick" / "rclk",
        Scroll = "scroll" / "scr",
        Select = "select" / "sel",
        SetValue = "setvalue" / "sv",
        Toggle = "toggle" / "tog",
        Type = "type" / "typ",
    ]
}

impl Role {
    /// Roles whose value is printed in compact output (`val="..."`): the
    /// input-type ones, a spreadsheet's cell among them (its content:
    /// `[e12] cel "B2" … val="21"`).
    pub const fn shows_value(self) -> bool {
        matches!(
            self,
            Role::TextBox
                | Role::SearchBox
                | Role::Combobox
                | Role::SpinButton
                | Role::Slider
                | Role::Cell
        )
    }

    /// Roles on which ARIA allows `aria-readonly` (plus the CUP-only ones
    /// that stand for them): the only roles that report `readonly`.
    pub const fn allows_readonly(self) -> bool {
        matches!(
            self,
            Role::TextBox
                | Role::SearchBox
                | Role::Combobox
                | Role::SpinButton
                | Role::Slider
                | Role::Checkbox
                | Role::Radio
                | Role::Switch
                | Role::MenuItemCheckbox
                | Role::MenuItemRadio
                | Role::Grid
                | Role::Cell
                | Role::ColumnHeader
                | Role::RowHeader
                | Role::List
        )
    }
}

impl Role {
    /// Roles that a pointer click at their centre activates, for adapters
    /// whose elements name no action (patternless UIA, AX web content).
    pub const fn activated_by_click(self) -> bool {
        matches!(
            self,
            Role::Button
                | Role::Link
                | Role::MenuItem
                | Role::MenuItemCheckbox
                | Role::MenuItemRadio
                | Role::Tab
                | Role::Checkbox
                | Role::Radio
                | Role::Switch
                | Role::ListItem
                | Role::Option
                | Role::TreeItem
                | Role::Combobox
                | Role::Cell
                | Role::Row
        )
    }

    /// Roles that carry an orientation attribute (the same on every
    /// platform).
    pub const fn has_orientation(self) -> bool {
        matches!(
            self,
            Role::ScrollBar
                | Role::Slider
                | Role::Separator
                | Role::Toolbar
                | Role::TabList
                | Role::MenuBar
        )
    }
}

impl Action {
    /// `true` for every action except `focus`, which nearly every element
    /// supports and which the compact format therefore treats as noise.
    pub const fn is_meaningful(self) -> bool {
        !matches!(self, Action::Focus)
    }
}

/// Scroll direction, the parameter of the `scroll` action and of `page`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Towards the top.
    Up,
    /// Towards the bottom.
    Down,
    /// Towards the start of a row.
    Left,
    /// Towards the end of a row.
    Right,
}

impl Direction {
    /// All four, in the order clip hints list them.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// Lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Direction {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "up" => Ok(Direction::Up),
            "down" => Ok(Direction::Down),
            "left" => Ok(Direction::Left),
            "right" => Ok(Direction::Right),
            _ => Err(UnknownWord {
                kind: "direction",
                value: s.to_owned(),
                expected: "up, down, left, right".to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn counts_match_the_spec() {
        assert_eq!(Role::ALL.len(), 59);
        assert_eq!(State::ALL.len(), 16);
        assert_eq!(Action::ALL.len(), 15);
    }

    #[test]
    fn names_and_codes_are_unique_and_round_trip() {
        fn check<T: Copy + Eq + fmt::Debug>(
            all: &[T],
            name: fn(T) -> &'static str,
            code: fn(T) -> &'static str,
            from_name: fn(&str) -> Option<T>,
            from_code: fn(&str) -> Option<T>,
        ) {
            let names: HashSet<_> = all.iter().map(|v| name(*v)).collect();
            let codes: HashSet<_> = all.iter().map(|v| code(*v)).collect();
            assert_eq!(names.len(), all.len());
            assert_eq!(codes.len(), all.len());
            for v in all {
                assert_eq!(from_name(name(*v)), Some(*v));
                assert_eq!(from_code(code(*v)), Some(*v));
            }
        }
        check(
            Role::ALL,
            Role::name,
            Role::code,
            Role::from_name,
            Role::from_code,
        );
        check(
            State::ALL,
            State::name,
            State::code,
            State::from_name,
            State::from_code,
        );
        check(
            Action::ALL,
            Action::name,
            Action::code,
            Action::from_name,
            Action::from_code,
        );
    }

    #[test]
    fn unknown_word_lists_the_choices() {
        let err = "buton".parse::<Role>().expect_err("must fail");
        assert!(err
            .to_string()
            .starts_with("unknown role 'buton'; expected one of: alert,"));
    }

    #[test]
    fn schema_enums_equal_the_vocabulary() {
        let schema: serde_json::Value =
            serde_json::from_str(crate::schema::SCHEMA_JSON).expect("schema parses");
        let enum_of = |def: &str| -> Vec<String> {
            schema["$defs"][def]["enum"]
                .as_array()
                .expect("enum array")
                .iter()
                .map(|v| v.as_str().expect("string").to_owned())
                .collect()
        };
        let names = |all: Vec<&str>| all.into_iter().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            enum_of("role"),
            names(Role::ALL.iter().map(|r| r.name()).collect())
        );
        assert_eq!(
            enum_of("state"),
            names(State::ALL.iter().map(|r| r.name()).collect())
        );
        assert_eq!(
            enum_of("action"),
            names(Action::ALL.iter().map(|r| r.name()).collect())
        );
    }
}
