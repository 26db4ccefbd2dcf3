//! The persistent settings: get_config / set_config across servers and
//! `cup call`, and what they change.

use super::*;

#[test]
fn config_persists_across_servers_and_shapes_get_window_state() {
    let (state, env, _pid) = desktop("mcp-config");
    let file = state
        .0
        .parent()
        .unwrap_or_else(|| panic!("no parent"))
        .join("config.json");
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);
    let shown = c.call("get_config", json!({}));
    ok_text(&shown, "get_config");
    assert_eq!(
        shown["structured"]["config"]["capture_mode"],
        json!("som"),
        "{shown}"
    );
    assert_eq!(
        shown["structured"]["config"]["snapshot"]["deadline_ms"],
        json!(3000),
        "{shown}"
    );
    assert!(!file.exists(), "reading the config must not write it");

    // som (default): tree and image.
    let both = c.call("get_window_state", json!({}));
    assert!(ok_text(&both, "som").contains("chk \"checkbutton\""));
    assert_eq!(both["images"][0]["png"], json!(true), "{both}");
    // ax: the tree only.
    ok_text(
        &c.call("set_config", json!({"key": "capture_mode", "value": "ax"})),
        "set ax",
    );
    let ax = c.call("get_window_state", json!({}));
    assert!(ok_text(&ax, "ax").contains("chk \"checkbutton\""));
    assert!(
        ax["images"].as_array().is_none_or(Vec::is_empty),
        "ax returned an image: {ax}"
    );
    // vision: the image only, no tree walk; the call can still ask for
    // the tree.
    ok_text(
        &c.call(
            "set_config",
            json!({"key": "capture_mode", "value": "vision"}),
        ),
        "set vision",
    );
    let vision = c.call("get_window_state", json!({}));
    let vision_text = ok_text(&vision, "vision");
    assert!(
        vision_text.starts_with("# capture_mode vision"),
        "{vision_text}"
    );
    assert!(!vision_text.contains("checkbutton"), "{vision_text}");
    assert_eq!(vision["images"][0]["png"], json!(true), "{vision}");
    let tree = c.call("get_window_state", json!({"include_screenshot": false}));
    assert!(ok_text(&tree, "vision without image").contains("chk \"checkbutton\""));

    // Snapshot defaults: detail full keeps what compact prunes.
    let compact = ok_text(&c.call("snapshot", json!({})), "compact snapshot");
    ok_text(
        &c.call(
            "set_config",
            json!({"key": "snapshot.detail", "value": "full"}),
        ),
        "set detail",
    );
    let full = ok_text(&c.call("snapshot", json!({})), "full snapshot");
    assert!(
        full.lines().count() > compact.lines().count() + 20,
        "{full}"
    );

    // Refused values change nothing, in one line each.
    let saved = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("config: {e}"));
    for (key, value) in [
        ("capture_mode", json!("pixels")),
        ("snapshot.deadline_ms", json!(5)),
        ("no.such.key", json!(1)),
    ] {
        let msg = error_text(
            &c.call("set_config", json!({"key": key, "value": value})),
            key,
        );
        assert!(!msg.contains('\n'), "{msg}");
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        saved,
        "a refused value must not touch the file"
    );
    drop(c);

    // Another server, and `cup call`, read the same settings.
    let mut other = Client::start(&stdio_args(&["mcp"]), &env);
    let again = other.call("get_config", json!({}));
    assert_eq!(
        again["structured"]["config"]["capture_mode"],
        json!("vision"),
        "{again}"
    );
    assert_eq!(
        again["structured"]["config"]["snapshot"]["detail"],
        json!("full")
    );
    drop(other);
    let cli = cup(&["call", "get_config"], &env);
    assert!(
        text(&cli.stdout).contains("\"vision\""),
        "{}",
        text(&cli.stdout)
    );

    // A broken file: the defaults are used and said so; set_config will
    // not overwrite it.
    std::fs::write(&file, "{broken").unwrap_or_else(|e| panic!("{e}"));
    let broken = cup(&["call", "get_config"], &env);
    assert!(
        text(&broken.stdout).contains("defaults are in effect"),
        "{}",
        text(&broken.stdout)
    );
    let refused = cup(
        &[
            "call",
            "set_config",
            r#"{"key": "capture_mode", "value": "ax"}"#,
        ],
        &env,
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused.stdout).contains("fix or remove the file"),
        "{}",
        text(&refused.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "{broken"
    );
}
