//! Properties over generated envelopes:
//! - `parse(render(tree))` returns exactly the fields the text shows, for
//!   every detail level, including clip hints and fold lines;
//! - every generated envelope validates against `cup.schema.json` with a real
//!   JSON Schema validator, and survives a JSON round trip unchanged.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::num::NonZeroU32;

use cup_protocol::compact::{
    parse, prune, render, Detail, Line, LineFields, Pruned, RenderOptions,
};
use cup_protocol::node::{Attributes, Orientation, PlatformLinux};
use cup_protocol::{
    Action, AppInfo, Envelope, Node, PlatformId, Rect, Role, Scope, Screen, State, WindowInfo,
};
use proptest::prelude::*;
use proptest::sample::subsequence;

/// Text with the characters that stress escaping and cutting.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just(String::new()),
        5 => "[a-zA-Z0-9 ]{1,12}",
        3 => proptest::collection::vec(
            prop_oneof![
                Just('"'), Just('\\'), Just('\n'), Just('\r'), Just('\t'), Just(' '), Just('é'),
                Just('日'), Just('—'), Just('('), Just(')'), Just('['), Just('{'), Just('#'), Just('x'), Just('\u{1}'),
            ],
            1..20
        ).prop_map(|v| v.into_iter().collect()),
        1 => "[a-z]{70,130}",
    ]
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-1000i32..1000).prop_map(f64::from),
        (-1e6f64..1e6f64),
        Just(0.5),
        Just(100.5)
    ]
}

fn attributes() -> impl Strategy<Value = Attributes> {
    (
        proptest::option::of(1u32..7),
        proptest::option::of(text()),
        proptest::option::of(prop_oneof![
            Just(Orientation::Horizontal),
            Just(Orientation::Vertical)
        ]),
        proptest::option::of(number()),
        proptest::option::of(number()),
        proptest::option::of("https://[a-z]{1,8}\\.test/[a-z]{0,6}"),
        proptest::option::of(0u32..50),
    )
        .prop_map(
            |(level, placeholder, orientation, value_min, value_max, url, set_size)| Attributes {
                level: level.and_then(NonZeroU32::new),
                placeholder,
                orientation,
                value_min,
                value_max,
                url,
                set_size,
                ..Attributes::default()
            },
        )
}

fn rect() -> impl Strategy<Value = Rect> {
    (-100i64..1400, -100i64..1000, 0u64..600, 0u64..400)
        .prop_map(|(x, y, w, h)| Rect::new(x, y, w, h))
}

/// A node without id (ids are assigned after the tree is built).
fn leaf() -> impl Strategy<Value = Node> {
    (
        proptest::sample::select(Role::ALL),
        text(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(rect()),
        subsequence(State::ALL, 0..4),
        subsequence(Action::ALL, 0..4),
        attributes(),
        any::<bool>(),
    )
        .prop_map(
            |(role, name, description, value, bounds, states, actions, attributes, linux)| {
                let mut n = Node::new("e0", role, name);
                n.description = description;
                n.value = value;
                n.bounds = bounds;
                n.states = states;
                n.actions = actions;
                n.attributes = attributes;
                if linux {
                    n.platform.linux = Some(PlatformLinux {
                        atspi_role: Some("push-button".into()),
                        interfaces: Some(vec!["Action".into(), "Component".into()]),
                        ..PlatformLinux::default()
                    });
                }
                n
            },
        )
}

fn tree() -> impl Strategy<Value = Node> {
    leaf().prop_recursive(5, 120, 8, |inner| {
        (leaf(), proptest::collection::vec(inner, 0..8)).prop_map(|(mut n, children)| {
            n.children = children;
            n
        })
    })
}

/// Assigns pre-order ids with gaps.
fn number_ids(nodes: &mut [Node], next: &mut u32, gaps: &mut impl Iterator<Item = u32>) {
    for n in nodes {
        n.id = format!("e{next}");
        *next += 1 + gaps.next().unwrap_or(0);
        number_ids(&mut n.children, next, gaps);
    }
}

fn envelope() -> impl Strategy<Value = Envelope> {
    (
        proptest::collection::vec(tree(), 1..4),
        proptest::collection::vec(0u32..3, 0..64),
        (200i64..3000, 200i64..2000),
        proptest::option::of(text()),
        proptest::collection::vec((text(), any::<bool>(), proptest::option::of(rect())), 0..4),
        proptest::option::of(proptest::sample::select(vec![
            Scope::Foreground,
            Scope::Full,
            Scope::Desktop,
        ])),
    )
        .prop_map(|(mut roots, gaps, (w, h), app, windows, scope)| {
            let mut gaps = gaps.into_iter().cycle();
            number_ids(&mut roots, &mut 0, &mut gaps);
            let mut env = Envelope::new(PlatformId::Linux, Screen::new(w, h), roots);
            env.timestamp = Some(1_740_067_200_000);
            env.app = app.map(|name| AppInfo {
                name: Some(name),
                pid: Some(42),
                bundle_id: None,
            });
            env.scope = scope;
            if !windows.is_empty() {
                env.windows = Some(
                    windows
                        .into_iter()
                        .map(|(title, foreground, bounds)| WindowInfo {
                            title,
                            pid: Some(7),
                            foreground,
                            bounds,
                            ..WindowInfo::default()
                        })
                        .collect(),
                );
            }
            env
        })
}

/// The lines `render` must write for a pruned tree, in order.
fn expected_lines(pruned: &[Pruned<'_>], depth: usize, out: &mut Vec<Line>) {
    for p in pruned {
        out.push(Line::Node {
            depth,
            fields: LineFields::of(p.node),
        });
        expected_lines(&p.children, depth + 1, out);
        if p.folded.items > 0 {
            out.push(Line::Fold {
                depth: depth + 1,
                container: p.node.id.clone(),
                folded: p.folded,
            });
        }
        if p.clipped.total() > 0 {
            out.push(Line::Hint {
                depth: depth + 1,
                container: p.node.id.clone(),
                clipped: p.clipped,
            });
        }
    }
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

proptest! {
    // 64 cases per property in the suite (unoptimized, ~80 ms a case);
    // PROPTEST_CASES=N asks for more.
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn parse_returns_exactly_what_render_shows(env in envelope(), detail in prop_oneof![Just(Detail::Compact), Just(Detail::Full), Just(Detail::Minimal)]) {
        let text = render(&env, &RenderOptions { detail, max_chars: 0, notes: vec![], bounds: true, tokens: None });
        let doc = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let screen = (detail == Detail::Compact).then(|| env.screen.rect());
        let pruned = prune(&env.tree, detail, screen);
        let mut want = Vec::new();
        expected_lines(&pruned, 0, &mut want);
        prop_assert_eq!(&doc.lines, &want, "{}", text);

        let h = &doc.header;
        prop_assert_eq!(&h.version, "0.1.0");
        prop_assert_eq!(&h.platform, "linux");
        prop_assert_eq!((h.screen_w, h.screen_h), (env.screen.w, env.screen.h));
        prop_assert_eq!(h.nodes_shown, Some(doc.nodes().count()));
        prop_assert_eq!(h.nodes_total, Some(env.node_count()));
        prop_assert_eq!(h.windows.len(), env.windows.as_ref().map_or(0, Vec::len));
        for (parsed, w) in h.windows.iter().zip(env.windows.iter().flatten()) {
            prop_assert_eq!(parsed.foreground, w.foreground);
        }
        prop_assert!(!h.truncated);
    }

    #[test]
    fn capped_output_parses_and_stays_within_the_cap(env in envelope(), cap in 300usize..3000) {
        let text = render(&env, &RenderOptions { max_chars: cap, ..RenderOptions::default() });
        // The header is never cut; past it, text and notice fit in the cap.
        let header = text.split_once("\n\n").map_or(0, |(h, _)| h.chars().count() + 2);
        prop_assert!(text.chars().count() <= cap.max(header + 260), "{} > {}", text.chars().count(), cap);
        let doc = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let full = render(&env, &RenderOptions { max_chars: 0, ..RenderOptions::default() });
        prop_assert_eq!(doc.header.truncated, full.chars().count() > cap);
    }

    #[test]
    fn generated_envelopes_are_schema_valid_and_round_trip(env in envelope()) {
        let value = serde_json::to_value(&env).expect("serializes");
        let violations = cup_protocol::schema::validate(&value);
        prop_assert!(violations.is_empty(), "{:?}", violations);
        let back: Envelope = serde_json::from_value(value).expect("deserializes");
        prop_assert_eq!(back, env);
    }
}
