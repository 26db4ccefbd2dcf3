//! Changes-only snapshots (`since`): the changed element with the lines
//! that place it, what appeared and what went, one line when nothing
//! changed, ids that stay the same along the chain (and act on the same
//! elements), and the kept snapshots `since` can name.

use cup::protocol::compact::{self, Detail};
use cup::protocol::{Role, Scope, State};
use cup::{ActionParams, SessionError, SnapshotRequest};

use crate::apps::{calculator, desk, digit, files, request, DISPLAY, LIST};
use crate::scripted::Element;

fn since(scope: Scope, base: &str) -> SnapshotRequest {
    SnapshotRequest {
        since: Some(base.to_owned()),
        ..request(scope)
    }
}

/// The id of the line that contains `needle` in `text`.
fn id_of(text: &str, needle: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle} in:\n{text}"));
    let rest = line.trim_start().trim_start_matches('[');
    rest.split(']').next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_changed_value_comes_alone_under_the_lines_that_place_it() {
    let (adapter, mut session) = desk();
    let whole = session
        .snapshot(&request(Scope::Foreground))
        .await
        .expect("whole")
        .clone();
    assert_eq!(whole.id, "s1");
    let display = id_of(&whole.text, "\"Display\"");
    adapter.edit(DISPLAY, |e| e.value = Some("42".into()));
    let changed = session
        .snapshot(&since(Scope::Foreground, "last"))
        .await
        .expect("since");
    assert_eq!(
        (changed.id.as_str(), changed.since.as_deref()),
        ("s2", Some("s1"))
    );
    let text = &changed.text;
    assert!(
        text.contains("# changes since s1 (this is s2): 1 changed, 0 appeared, 0 went"),
        "{text}"
    );
    assert_eq!(id_of(text, "\"Display\""), display, "{text}");
    assert!(text.contains("val=\"42\""), "{text}");
    assert!(
        text.contains("\"Calculator\""),
        "the window line places it:\n{text}"
    );
    assert!(
        !text.contains("\"7\""),
        "unchanged digits stay out:\n{text}"
    );
    let doc = compact::parse(text).expect("the protocol's parser reads it");
    assert_eq!(doc.nodes().count(), 2, "{text}");
}

#[tokio::test]
async fn new_elements_get_new_ids_and_the_others_keep_theirs() {
    let (adapter, mut session) = desk();
    let whole = session
        .snapshot(&request(Scope::Foreground))
        .await
        .expect("whole")
        .clone();
    let seven = id_of(&whole.text, "btn \"7\"");
    // A banner first in the window: every pre-order id after it shifts
    // in the capture.
    let mut calc = calculator();
    calc.root.children.insert(
        0,
        Element::new("calc:/banner", Role::Text, "Update ready").bounds(10, 460, 200, 20),
    );
    adapter.set_windows(vec![calc, files()]);
    let changed = session
        .snapshot(&since(Scope::Foreground, "last"))
        .await
        .expect("since")
        .clone();
    let banner = id_of(&changed.text, "\"Update ready\"");
    assert_eq!(banner, format!("e{}", whole.refs.len()), "{}", changed.text);
    assert!(
        changed.text.contains(": 0 changed, 1 appeared, 0 went"),
        "{}",
        changed.text
    );
    // The whole tree under the same ids: 7 is still what it was.
    let node = changed.node(&seven).expect("7 keeps its id");
    assert_eq!((node.role, node.name.as_str()), (Role::Button, "7"));
    assert_eq!(changed.refs.get(&seven), Some(&digit(7)));
    session
        .action(&seven, "click", &ActionParams::default())
        .await
        .expect("click by the kept id");
    let acted = adapter.acts();
    assert_eq!(acted.last().map(|a| a.1.as_str()), Some(digit(7).as_str()));
}

#[tokio::test]
async fn what_went_is_named_and_no_change_is_one_line() {
    let (adapter, mut session) = desk();
    let whole = session
        .snapshot(&request(Scope::Foreground))
        .await
        .expect("whole")
        .clone();
    let scientific = id_of(&whole.text, "\"Scientific\"");
    let unchanged = session
        .snapshot(&since(Scope::Foreground, "last"))
        .await
        .expect("since")
        .clone();
    assert_eq!(
        unchanged.text,
        "# no change since s1 (this is s2); its lines stand\n"
    );
    let mut calc = calculator();
    calc.root
        .children
        .retain(|c| c.native != "calc:/scientific");
    adapter.set_windows(vec![calc, files()]);
    let went = session
        .snapshot(&since(Scope::Foreground, "s2"))
        .await
        .expect("since s2");
    assert!(
        went.text.contains(": 0 changed, 0 appeared, 1 went")
            && went.text.contains(&format!("# went: {scientific}\n")),
        "{}",
        went.text
    );
    // The state changes of a checkbox are a change of its line.
    adapter.set_windows(vec![calculator(), files()]);
    let back = session
        .snapshot(&since(Scope::Foreground, "last"))
        .await
        .expect("back")
        .clone();
    let again = id_of(&back.text, "\"Scientific\"");
    assert_ne!(again, scientific, "a new element, a new id");
    adapter.edit("calc:/scientific", |e| e.states = vec![State::Checked]);
    let checked = session
        .snapshot(&since(Scope::Foreground, "last"))
        .await
        .expect("checked");
    assert_eq!(id_of(&checked.text, "\"Scientific\""), again);
    assert!(checked.text.contains(": 1 changed"), "{}", checked.text);
}

#[tokio::test]
async fn a_one_control_change_is_its_line_and_its_ancestors_only() {
    let (adapter, mut session) = desk();
    let full = |since: Option<&str>| SnapshotRequest {
        app: Some("Files".into()),
        detail: Detail::Full,
        since: since.map(str::to_owned),
        ..request(Scope::Full)
    };
    let whole = session.snapshot(&full(None)).await.expect("whole").clone();
    adapter.edit(&format!("{LIST}/3"), |e| e.states = vec![State::Selected]);
    let changed = session.snapshot(&full(Some("last"))).await.expect("since");
    let doc = compact::parse(&changed.text).expect("parsed");
    // The window, the list, the item: 3 of the 42 lines.
    assert_eq!(doc.nodes().count(), 3, "{}", changed.text);
    assert_eq!(
        compact::parse(&whole.text).expect("parsed").nodes().count(),
        42
    );
    assert!(changed.text.contains("doc-03.txt"), "{}", changed.text);
}

#[tokio::test]
async fn since_names_only_kept_snapshots() {
    let (_, mut session) = desk();
    let err = session
        .snapshot(&since(Scope::Foreground, "last"))
        .await
        .expect_err("nothing to compare with");
    assert!(
        matches!(&err, SessionError::Since(m) if m.contains("no snapshot yet")),
        "{err}"
    );
    for _ in 0..6 {
        session
            .snapshot(&request(Scope::Foreground))
            .await
            .expect("whole");
    }
    let err = session
        .snapshot(&since(Scope::Foreground, "s1"))
        .await
        .expect_err("s1 is no longer kept");
    let said = err.to_string();
    assert!(
        said.contains("since s1: not a kept snapshot (kept: s3, s4, s5, s6")
            && said.contains("without since"),
        "{said}"
    );
    session
        .snapshot(&since(Scope::Foreground, "s4"))
        .await
        .expect("s4 is kept");
}

#[tokio::test]
async fn an_overview_is_always_whole() {
    let (_, mut session) = desk();
    session
        .snapshot(&request(Scope::Foreground))
        .await
        .expect("whole");
    let overview = session
        .snapshot(&since(Scope::Overview, "last"))
        .await
        .expect("overview");
    assert!(overview.text.contains("Calculator"), "{}", overview.text);
}
