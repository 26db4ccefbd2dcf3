//! Unit tests of the capture module: node references and frame trees.

use super::*;

#[test]
fn refs_round_trip() {
    let r = node_ref("PAGE1", "FRAME1", &NodeKey::Backend(42));
    assert_eq!(
        parse_ref(&r),
        Some(("PAGE1", "FRAME1", NodeKey::Backend(42)))
    );
    let key = NodeKey::Walker {
        frame: "F2".into(),
        id: 7,
    };
    let r = node_ref("PAGE1", "FRAME1", &key);
    assert_eq!(r, "PAGE1/FRAME1/F2:7");
    assert_eq!(parse_ref(&r), Some(("PAGE1", "FRAME1", key)));
    assert_eq!(parse_ref("nonsense"), None);
    assert_eq!(parse_ref("P/F/:3"), None);
    assert_eq!(parse_ref("P/F/x:y"), None);
}

#[test]
fn frames_of_a_frame_tree() {
    let tree = json!({"frame": {"id": "A"}, "childFrames": [
        {"frame": {"id": "B"}, "childFrames": [{"frame": {"id": "C"}}]},
        {"frame": {"id": "D"}}
    ]});
    let mut out = Vec::new();
    child_frames(&tree, &mut out);
    assert_eq!(
        out,
        vec![
            ("B".to_owned(), "A".to_owned()),
            ("C".to_owned(), "B".to_owned()),
            ("D".to_owned(), "A".to_owned())
        ]
    );
}
