//! Limits and odd geometry: nesting 100,000 levels deep (XML and JSON), inputs over
//! 64 MiB, inverted, negative and off-display bounds. Refused with a typed error or kept
//! exactly, never a stack overflow or a panic.

mod common;

use std::io::Read;

use common::{assert_lossless, parse_err, prune_fixed};
use tapscope_core::prune::{Anchor, PruneRules};
use tapscope_core::{Error, InputSize, Rect, WindowKind, parse, render};

fn nested_xml(levels: usize, closed: bool) -> String {
    let open = "<node class=\"android.widget.FrameLayout\" bounds=\"[0,0][1080,2400]\">";
    let mut text = String::with_capacity(levels * (open.len() + 8) + 32);
    text.push_str("<hierarchy rotation=\"0\">\n");
    for _ in 0..levels {
        text.push_str(open);
    }
    if closed {
        text.push_str(&"</node>".repeat(levels));
        text.push_str("</hierarchy>");
    }
    text
}

#[test]
fn xml_nested_100000_levels_is_too_deep_without_overflowing() {
    for closed in [true, false] {
        let err = parse_err(&nested_xml(100_000, closed));
        assert!(
            matches!(
                err,
                Error::TooDeep {
                    limit: parse::MAX_DEPTH,
                    ref at,
                } if at == "line 2"
            ),
            "{err:?}"
        );
        let shown = err.to_string();
        assert!(
            shown.contains(&format!("deeper than {} levels", parse::MAX_DEPTH)),
            "{shown}"
        );
        assert!(shown.contains("at line 2"), "{shown}");
    }
}

#[test]
fn deep_but_allowed_nesting_prunes_and_renders_without_recursion() {
    let mut text = nested_xml(1000, false);
    text.push_str("<node text=\"Bottom\" clickable=\"true\" bounds=\"[10,10][100,100]\"/>");
    text.push_str(&"</node>".repeat(1000));
    text.push_str("</hierarchy>");
    let tree = parse::parse_str(&text).expect("1000 levels are allowed");
    assert_eq!(tree.nodes.len(), 1001);
    assert_eq!(tree.nodes[1000].depth, 1000);
    let pruned = prune_fixed(&tree, &PruneRules::default());
    assert!(render::yaml(&pruned).contains("\n[1] \"Bottom\"\n"));
    assert_lossless(&tree, &pruned);
    // With every rule off, every level is printed, indented one step deeper each time.
    let raw = prune_fixed(&tree, &PruneRules::all_off());
    assert_eq!(raw.nodes.len(), 1001);
    assert!(
        render::yaml(&raw)
            .lines()
            .last()
            .expect("lines")
            .starts_with(&"  ".repeat(1000))
    );
    let _ = render::json(&raw);
}

/// A Rico hierarchy `levels` deep, one labelled view per level.
fn nested_rico(levels: usize) -> String {
    format!(
        "{{\"activity\": {{\"root\": {}{}}}}}",
        "{\"text\": \"x\", \"bounds\": [0,0,10,10], \"children\": [".repeat(levels),
        "]}".repeat(levels)
    )
}

/// A droidrun element list `levels` deep, one labelled element per level.
fn nested_droidrun(levels: usize) -> String {
    format!(
        "[{}{}]",
        "{\"className\": \"V\", \"text\": \"x\", \"bounds\": [0,0,10,10], \"children\": ["
            .repeat(levels),
        "]}".repeat(levels)
    )
}

#[test]
fn json_nested_deeply_is_a_clear_error_without_overflowing() {
    for text in [nested_rico(100_000), nested_droidrun(100_000)] {
        let err = parse_err(&text);
        let shown = err.to_string();
        match err {
            Error::TooDeep { .. } => assert!(
                shown.contains("deeper than 256 levels (at line 1)"),
                "{shown}"
            ),
            other => panic!("expected a depth error, got {other:?}"),
        }
    }
}

#[test]
fn nested_json_reads_far_deeper_than_real_screens() {
    for (format, text) in [
        ("rico", nested_rico(200)),
        ("droidrun", nested_droidrun(200)),
    ] {
        let tree = parse::parse_str(&text).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(tree.nodes.len(), 200, "{format}");
        assert_eq!(tree.nodes[199].depth, 199, "{format}");
    }
}

#[test]
fn droidbot_parent_chain_100000_long_is_too_deep() {
    // Flat JSON, deep tree: each view is the only child of the one before it.
    let views: Vec<String> = (0..100_000)
        .map(|i| {
            let parent = if i == 0 { -1 } else { i as i64 - 1 };
            format!(
                r#"{{"parent": {parent}, "children": [{}], "bounds": [[0,0],[10,10]]}}"#,
                i + 1
            )
        })
        .collect();
    let mut text = format!("{{\"views\": [{}]}}", views.join(","));
    text = text.replace("\"children\": [100000]", "\"children\": []");
    let err = parse_err(&text);
    assert!(
        matches!(
            err,
            Error::TooDeep {
                limit: parse::MAX_DEPTH,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn input_over_64_mib_is_too_large() {
    let limit = parse::MAX_INPUT_BYTES;
    assert_eq!(limit, 64 * 1024 * 1024);
    let big = vec![b' '; limit as usize + 1];
    let err = parse::parse_bytes(&big).expect_err("too large");
    assert!(
        matches!(
            &err,
            Error::TooLarge { input, size: InputSize::Exactly(size), limit: l }
                if input == "the input" && *size == limit + 1 && *l == limit
        ),
        "{err:?}"
    );
    let shown = err.to_string();
    assert!(
        shown.contains(&format!(
            "the input is {} bytes, over the {limit}-byte limit",
            limit + 1
        )),
        "{shown}"
    );
    drop(big);

    let err = parse::read_limited(std::io::repeat(b' ').take(limit + 1)).expect_err("too large");
    assert!(
        matches!(err, Error::TooLarge { size: InputSize::MoreThan(l), .. } if l == limit),
        "{err:?}"
    );
    // Only what was read is known of a stream: the message does not pretend it is the size.
    assert!(
        err.to_string()
            .starts_with(&format!("standard input is more than {limit} bytes")),
        "{err}"
    );
    let exact = parse::read_limited(std::io::repeat(b' ').take(limit)).expect("exactly the limit");
    assert_eq!(exact.len() as u64, limit);
}

#[test]
fn a_file_over_the_limit_is_named_with_its_real_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("huge.xml");
    let size = 3 * parse::MAX_INPUT_BYTES;
    std::fs::File::create(&path)
        .and_then(|file| file.set_len(size))
        .expect("sparse file");
    let err = parse::read_file(&path).expect_err("too large");
    let shown = err.to_string();
    assert!(
        shown.starts_with(&format!(
            "{} is {size} bytes, over the {}-byte limit",
            path.display(),
            parse::MAX_INPUT_BYTES
        )),
        "{shown}"
    );
}

#[test]
fn a_folder_given_as_a_dump_is_said_to_be_one_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let err = parse::read_file(dir.path()).expect_err("a folder");
    let shown = err.to_string();
    assert_eq!(
        shown,
        format!(
            "{} is a folder: give a dump file (.xml or .json); `tapscope stats` and \
             `tapscope open` take folders",
            dir.path().display()
        )
    );
    assert!(std::error::Error::source(&err).is_none());
}

const STRANGE_BOUNDS: &str = r#"<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="com.example.odd" bounds="[0,0][1080,2400]">
    <node class="android.widget.Button" text="Inverted" clickable="true" bounds="[900,500][100,300]"/>
    <node class="android.widget.Button" text="Negative" clickable="true" bounds="[-200,-100][300,200]"/>
    <node class="android.widget.Button" text="Off right" clickable="true" bounds="[1200,100][1500,300]"/>
    <node class="android.widget.Button" text="Huge" clickable="true" bounds="[-2147483648,-2147483648][2147483647,2147483647]"/>
    <node class="android.widget.TextView" text="Zero" bounds="[10,10][10,10]"/>
  </node>
</hierarchy>"#;

#[test]
fn inverted_negative_and_off_display_bounds_are_kept_exactly() {
    let tree = parse::parse_str(STRANGE_BOUNDS).expect("odd bounds parse");
    let bounds: Vec<Rect> = tree.nodes[1..].iter().map(|n| n.bounds).collect();
    assert_eq!(
        bounds,
        [
            Rect::new(900, 500, 100, 300),
            Rect::new(-200, -100, 300, 200),
            Rect::new(1200, 100, 1500, 300),
            Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX),
            Rect::new(10, 10, 10, 10),
        ]
    );
    for rules in [PruneRules::default(), PruneRules::all_off()] {
        let pruned = prune_fixed(&tree, &rules);
        let display = tree.display_rect();
        for node in &pruned.nodes {
            assert_eq!(
                node.bounds, tree.nodes[node.raw].bounds,
                "bounds are the raw ones"
            );
            assert!(
                display.contains_rect(&node.visible),
                "{:?} outside the display",
                node.visible
            );
            assert!(
                !node.visible.is_empty(),
                "printed with nothing visible: {node:?}"
            );
            assert_eq!(node.pos, Anchor::of(&node.visible, tree.display));
        }
        let _ = render::json(&pruned);
        let yaml = render::yaml(&pruned);
        assert!(
            yaml.contains("\"Negative\"") && yaml.contains("\"Huge\""),
            "{yaml}"
        );
        assert!(
            !yaml.contains("Inverted") && !yaml.contains("Off right"),
            "{yaml}"
        );
    }
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let yaml = render::yaml(&pruned);
    assert!(yaml.contains("\n[1] \"Negative\"\n"), "{yaml}");
    assert!(yaml.contains("\n[2] \"Huge\"\n"), "{yaml}");
    // The anchors, when printed, are those of the parts on the display.
    let anchored = render::yaml(&prune_fixed(
        &tree,
        &PruneRules {
            anchors: true,
            ..PruneRules::default()
        },
    ));
    assert!(
        anchored.contains("\n[1] \"Negative\" pos: top-left\n"),
        "{anchored}"
    );
    assert!(
        anchored.contains("\n[2] \"Huge\" pos: center\n"),
        "{anchored}"
    );
    let negative = pruned
        .nodes
        .iter()
        .find(|n| n.label == "Negative")
        .expect("printed");
    assert_eq!(negative.visible, Rect::new(0, 0, 300, 200));
    assert_lossless(&tree, &pruned);
}

#[test]
fn extreme_bounds_on_a_system_ui_window_do_not_overflow() {
    // A full-screen system UI window is not a bar, whatever its (absurd) size.
    let xml = r#"<hierarchy rotation="0">
      <node class="android.widget.FrameLayout" package="com.android.systemui" bounds="[-2147483648,-2147483648][2147483647,2147483647]">
        <node class="android.widget.TextView" package="com.android.systemui" text="Shade" bounds="[0,0][100,100]"/>
      </node></hierarchy>"#;
    let tree = parse::parse_str(xml).expect("parses");
    assert_eq!(tree.windows[0].kind, WindowKind::App);
    let pruned = prune_fixed(&tree, &PruneRules::default());
    assert_lossless(&tree, &pruned);
}
