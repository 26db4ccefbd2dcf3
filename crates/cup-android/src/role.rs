//! A node's CUP role from its class: the exact classes of the spec's
//! `mappings.json` android column first, then the subclasses real apps use
//! (AppCompat, Material, RecyclerView, …) by their simple name. Compose's
//! plain `android.view.View` gets its role later, from its flags
//! ([`crate::map`]).

use std::collections::HashMap;
use std::sync::OnceLock;

use cup_protocol::mappings::Mappings;
use cup_protocol::{PlatformId, Role};

/// Exact class → role, from `mappings.json`.
fn exact() -> &'static HashMap<String, Role> {
    static TABLE: OnceLock<HashMap<String, Role>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out = HashMap::new();
        for (role, platforms) in &Mappings::get().roles {
            if let Some(Some(m)) = platforms.get(&PlatformId::Android) {
                for class in &m.alternatives {
                    out.entry(class.clone()).or_insert(*role);
                }
            }
        }
        out
    })
}

/// Simple-name endings → role, checked in order (the first that ends the
/// simple name wins, so `RadioButton` comes before `Button`, `SeekBar`
/// before `ProgressBar`).
const ENDINGS: &[(&str, Role)] = &[
    ("RadioButton", Role::Radio),
    ("ToggleButton", Role::Switch),
    ("CompoundButton", Role::Checkbox),
    ("Button", Role::Button),
    ("Chip", Role::Button),
    ("CheckBox", Role::Checkbox),
    ("CheckedTextView", Role::Checkbox),
    ("Switch", Role::Switch),
    ("SwitchCompat", Role::Switch),
    ("SwitchMaterial", Role::Switch),
    ("SearchAutoComplete", Role::SearchBox),
    ("SearchView", Role::SearchBox),
    ("EditText", Role::TextBox),
    ("AutoCompleteTextView", Role::TextBox),
    ("TextView", Role::Text),
    ("ImageView", Role::Img),
    ("Image", Role::Img),
    ("RecyclerView", Role::List),
    ("ListView", Role::List),
    ("GridView", Role::Grid),
    ("TabLayout", Role::TabList),
    ("TabWidget", Role::TabList),
    ("TabView", Role::Tab),
    ("Tab", Role::Tab),
    ("Toolbar", Role::Toolbar),
    ("ActionBar", Role::Toolbar),
    ("SeekBar", Role::Slider),
    ("Slider", Role::Slider),
    ("RatingBar", Role::Slider),
    ("ProgressBar", Role::ProgressBar),
    ("ProgressIndicator", Role::ProgressBar),
    ("Spinner", Role::Combobox),
    ("WebView", Role::Document),
    ("NumberPicker", Role::SpinButton),
    ("AlertDialog", Role::AlertDialog),
    ("Dialog", Role::Dialog),
    ("Layout", Role::Group),
    ("ViewGroup", Role::Group),
    ("ScrollView", Role::Group),
    ("ViewPager", Role::Group),
    ("ViewPager2", Role::Group),
    ("CardView", Role::Group),
    ("Picker", Role::Group),
    ("CalendarView", Role::Group),
    ("View", Role::Generic),
];

/// The role a class names: an exact class of `mappings.json`, else the
/// first matching ending of its simple name (the part after the last `.`
/// or `$`), else generic.
pub fn of_class(class: &str) -> Role {
    if let Some(role) = exact().get(class) {
        return *role;
    }
    let simple = class.rsplit(['.', '$']).next().unwrap_or(class);
    ENDINGS
        .iter()
        .find(|(ending, _)| simple.ends_with(ending))
        .map_or(Role::Generic, |(_, role)| *role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_classes_then_subclasses_by_their_simple_name() {
        for (class, role) in [
            ("android.widget.Button", Role::Button),
            ("android.widget.EditText", Role::TextBox),
            ("android.view.ViewGroup", Role::Group),
            ("android.view.View", Role::Generic),
            ("android.widget.Switch", Role::Switch),
            ("android.webkit.WebView", Role::Document),
            ("androidx.appcompat.widget.AppCompatButton", Role::Button),
            (
                "com.google.android.material.button.MaterialButton",
                Role::Button,
            ),
            (
                "com.google.android.material.floatingactionbutton.FloatingActionButton",
                Role::Button,
            ),
            ("android.widget.ImageButton", Role::Button),
            ("android.widget.RadioButton", Role::Radio),
            (
                "androidx.appcompat.widget.AppCompatCheckBox",
                Role::Checkbox,
            ),
            (
                "com.google.android.material.switchmaterial.SwitchMaterial",
                Role::Switch,
            ),
            ("androidx.appcompat.widget.SwitchCompat", Role::Switch),
            (
                "com.google.android.material.textfield.TextInputEditText",
                Role::TextBox,
            ),
            (
                "android.widget.SearchView$SearchAutoComplete",
                Role::SearchBox,
            ),
            ("androidx.recyclerview.widget.RecyclerView", Role::List),
            ("androidx.appcompat.widget.Toolbar", Role::Toolbar),
            ("com.google.android.material.tabs.TabLayout", Role::TabList),
            (
                "com.google.android.material.tabs.TabLayout$TabView",
                Role::Tab,
            ),
            ("android.widget.SeekBar", Role::Slider),
            ("androidx.appcompat.app.ActionBar$Tab", Role::Tab),
            ("androidx.appcompat.app.ActionBar.Tab", Role::Tab),
            ("android.widget.Image", Role::Img),
            ("android.widget.ProgressBar", Role::ProgressBar),
            ("android.widget.LinearLayout", Role::Group),
            (
                "androidx.constraintlayout.widget.ConstraintLayout",
                Role::Group,
            ),
            ("androidx.core.widget.NestedScrollView", Role::Group),
            ("android.widget.NumberPicker", Role::SpinButton),
            ("com.example.Thing", Role::Generic),
            ("", Role::Generic),
        ] {
            assert_eq!(of_class(class), role, "{class}");
        }
    }
}
