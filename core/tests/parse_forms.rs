//! Every input form the parser accepts — uiautomator XML (single-line, pretty, wrapped),
//! several windows, rotations, entities, Appium, UTF-16 — read into the expected tree.
//! The JSON forms are in `parse_json_forms.rs`.

mod common;

use common::{
    ALL_FIXTURES, fixture_path, fixture_text, id_with_desc, id_with_text, node_with_text,
    parse_fixture,
};
use tapscope_core::{DumpFormat, Flags, Rect, Size, Tree, WindowKind, parse};

#[test]
fn single_line_uiautomator_dump() {
    let text = fixture_text("uiautomator_single_line.xml");
    assert_eq!(
        text.lines().count(),
        1,
        "the fixture must stay on one line, as `uiautomator dump` writes it"
    );
    let tree = parse_fixture("uiautomator_single_line.xml");
    assert_eq!(tree.format, DumpFormat::Uiautomator);
    assert_eq!(tree.nodes.len(), 4);
    assert_eq!(tree.rotation, 0);
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(tree.app, "com.example.mail");
    assert_eq!(tree.windows.len(), 1);
    assert_eq!(tree.windows[0].kind, WindowKind::App);
    assert_eq!(tree.windows[0].roots, vec![0]);
    assert_eq!(tree.nodes[0].children, vec![1, 2, 3]);

    let inbox = node_with_text(&tree, "Inbox");
    assert_eq!(inbox.resource_id, "com.example.mail:id/title");
    assert_eq!(inbox.class, "android.widget.TextView");
    assert_eq!(inbox.bounds, Rect::new(48, 100, 400, 180));
    assert_eq!(inbox.flags, Flags::ENABLED);
    assert_eq!((inbox.parent, inbox.depth), (Some(0), 1));

    let menu = &tree.nodes[id_with_desc(&tree, "Open navigation drawer")];
    assert_eq!(
        menu.flags,
        Flags::ENABLED | Flags::CLICKABLE | Flags::FOCUSABLE
    );
    let compose = node_with_text(&tree, "Compose");
    assert_eq!(
        compose.flags,
        Flags::ENABLED | Flags::CLICKABLE | Flags::LONG_CLICKABLE | Flags::FOCUSABLE
    );
    assert_eq!(compose.bounds, Rect::new(700, 2200, 1040, 2340));
    // The offset of each node points at its own element in the text.
    let at = compose
        .source_offset
        .expect("XML nodes have a source offset");
    assert!(
        text[at..].starts_with(r#"<node index="2" text="Compose""#),
        "{}",
        &text[at..at + 40]
    );
}

#[test]
fn uiautomator2_pretty_dump_with_drawing_order_visibility_and_hint() {
    let tree = parse_fixture("uiautomator2_pretty.xml");
    assert_eq!(tree.format, DumpFormat::Uiautomator);
    assert_eq!(tree.nodes.len(), 5);
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );

    let search = &tree.nodes[1];
    assert_eq!(search.class, "android.widget.EditText");
    assert_eq!(search.hint, "Search notes");
    assert_eq!(search.text, "");
    assert!(
        search.has(Flags::EDITABLE),
        "EditText is editable by its class"
    );
    assert!(!search.has(Flags::HIDDEN));

    let hidden = node_with_text(&tree, "Draft in trash");
    assert!(
        hidden.has(Flags::HIDDEN),
        "visible-to-user=\"false\" must mark the node hidden"
    );
    assert!(!node_with_text(&tree, "Groceries").has(Flags::HIDDEN));

    let fab = &tree.nodes[id_with_desc(&tree, "New note")];
    assert!(fab.has(Flags::SELECTED) && fab.has(Flags::CLICKABLE));
    assert_eq!(fab.bounds, Rect::new(880, 2160, 1040, 2320));
    // `drawing-order` is not document order: nodes stay in the order the file lists them.
    let order: Vec<&str> = tree.nodes.iter().map(|n| n.resource_id.as_str()).collect();
    assert_eq!(
        order[1..3],
        [
            "com.example.notes:id/search",
            "com.example.notes:id/note_title"
        ]
    );
}

#[test]
fn attributes_wrapped_over_several_lines() {
    let text = fixture_text("wrapped_attributes.xml");
    let tree = parse_fixture("wrapped_attributes.xml");
    assert_eq!(tree.nodes.len(), 3);
    let pay = node_with_text(&tree, "Pay now");
    assert_eq!(pay.desc, "Pay 12.50 EUR");
    assert_eq!(pay.resource_id, "com.example.pay:id/pay");
    assert_eq!(pay.bounds, Rect::new(100, 2000, 980, 2200));
    assert!(pay.has(Flags::CLICKABLE));
    let pay_line = text[..pay.source_offset.expect("offset")]
        .matches('\n')
        .count()
        + 1;
    assert_eq!(
        pay_line, 5,
        "the node starts at its `<node` line, not where its attributes end"
    );
    // Tab separators, tabs inside a value (folded to a space) and spaces around `=`.
    let total = node_with_text(&tree, "Total: 12.50 EUR");
    assert_eq!(total.bounds, Rect::new(100, 1800, 980, 1900));
    assert_eq!(total.class, "android.widget.TextView");
}

#[test]
fn windows_line_endings_parse_to_the_same_nodes() {
    let unix = fixture_text("wrapped_attributes.xml");
    let windows = unix.replace('\n', "\r\n");
    let a = parse::parse_str(&unix).expect("LF");
    let b = parse::parse_str(&windows).expect("CRLF");
    let strip = |t: &Tree| {
        t.nodes
            .iter()
            .map(|n| (n.text.clone(), n.desc.clone(), n.bounds, n.flags))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(a.windows, b.windows);
}

#[test]
fn several_top_level_windows_get_their_kinds() {
    let tree = parse_fixture("multi_window.xml");
    assert_eq!(tree.nodes.len(), 16);
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(
        tree.app, "com.example.chat",
        "the app is the largest application window"
    );
    let kinds: Vec<(WindowKind, &str)> = tree
        .windows
        .iter()
        .map(|w| (w.kind, w.package.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (WindowKind::App, "com.example.chat"),
            (WindowKind::Keyboard, "com.google.android.inputmethod.latin"),
            (WindowKind::Overlay, "com.facebook.orca"),
            (WindowKind::SystemBar, "com.android.systemui"),
        ]
    );
    assert_eq!(tree.windows[1].bounds, Rect::new(0, 1500, 1080, 2400));
    assert_eq!(tree.windows[3].bounds, Rect::new(0, 0, 1080, 80));
    // Every node belongs to the window of its root, and depth restarts in each window.
    for (index, window) in tree.windows.iter().enumerate() {
        for &root in &window.roots {
            assert_eq!(tree.nodes[root].depth, 0);
            assert_eq!(tree.nodes[root].parent, None);
            for id in tree.descendants(root) {
                assert_eq!(tree.nodes[id].window, index, "node {id}");
                assert_eq!(tree.nodes[id].package, window.package, "node {id}");
            }
        }
    }
    let key = &tree.nodes[id_with_desc(&tree, "Delete")];
    assert_eq!(tree.windows[key.window].kind, WindowKind::Keyboard);
    assert!(key.has(Flags::LONG_CLICKABLE));
    let clock = node_with_text(&tree, "12:30");
    assert_eq!(tree.windows[clock.window].kind, WindowKind::SystemBar);
    let bubble = &tree.nodes[id_with_desc(&tree, "Chat head: Ben")];
    assert_eq!(tree.windows[bubble.window].kind, WindowKind::Overlay);
}

#[test]
fn a_system_ui_window_covering_the_screen_is_not_a_bar() {
    // The notification shade is com.android.systemui too, but it fills the display.
    let xml = r#"<hierarchy rotation="0">
      <node class="android.widget.FrameLayout" package="com.android.systemui" bounds="[0,0][1080,2400]">
        <node class="android.widget.TextView" package="com.android.systemui" text="No notifications" bounds="[0,1000][1080,1100]"/>
      </node></hierarchy>"#;
    let tree = parse::parse_str(xml).expect("shade");
    assert_eq!(tree.windows[0].kind, WindowKind::App);
    assert_eq!(tree.app, "com.android.systemui");
}

#[test]
fn rotation_one_and_three_are_landscape() {
    let one = parse_fixture("rotation_1.xml");
    assert_eq!(one.rotation, 1);
    assert_eq!(
        one.display,
        Size {
            width: 2400,
            height: 1080
        }
    );
    assert_eq!(one.nodes.len(), 5);
    let exit = &one.nodes[id_with_desc(&one, "Exit full screen")];
    assert_eq!(exit.bounds, Rect::new(2260, 940, 2380, 1060));

    let three = parse_fixture("rotation_3.xml");
    assert_eq!(three.rotation, 3);
    assert_eq!(
        three.display,
        Size {
            width: 2340,
            height: 1080
        }
    );
    assert_eq!(three.nodes.len(), 3);
    assert_eq!(three.app, "com.example.camera");
}

#[test]
fn out_of_range_rotation_wraps_to_a_quarter_turn() {
    let xml = r#"<hierarchy rotation="5"><node text="x" bounds="[0,0][10,10]"/></hierarchy>"#;
    assert_eq!(parse::parse_str(xml).expect("rotation 5").rotation, 1);
    let xml =
        r#"<hierarchy rotation="sideways"><node text="x" bounds="[0,0][10,10]"/></hierarchy>"#;
    assert_eq!(
        parse::parse_str(xml).expect("unreadable rotation").rotation,
        0
    );
}

#[test]
fn character_entities_and_literal_unicode_decode() {
    let tree = parse_fixture("entities.xml");
    assert_eq!(tree.nodes.len(), 7);
    let texts: Vec<&str> = tree.nodes[1..].iter().map(|n| n.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Tom & Jerry",
            "She said \"hi\" & left",
            "line one\nline two",
            "smile 😀 and 😀",
            "😀 你好，世界 Привет",
            r"C:\path\to",
        ]
    );
    assert_eq!(tree.nodes[2].desc, "it's <b>bold</b>");
    assert_eq!(tree.nodes[5].desc, "日本語のボタン");
}

#[test]
fn appium_page_source_takes_classes_from_tags() {
    let tree = parse_fixture("appium_page_source.xml");
    assert_eq!(tree.format, DumpFormat::Appium);
    assert_eq!(
        tree.nodes.len(),
        6,
        "<hierarchy> is the wrapper, not a node"
    );
    let classes: Vec<&str> = tree.nodes.iter().map(|n| n.class.as_str()).collect();
    assert_eq!(
        classes,
        [
            "android.widget.FrameLayout",
            "android.widget.LinearLayout",
            "android.widget.TextView",
            "android.widget.EditText",
            "android.widget.ImageButton",
            "android.widget.TextView",
        ]
    );
    let promo = &tree.nodes[3];
    assert!(
        promo.has(Flags::EDITABLE),
        "the class from the tag makes it an edit field"
    );
    assert_eq!(promo.hint, "Promo code");
    assert!(
        node_with_text(&tree, "Out of stock").has(Flags::HIDDEN),
        "displayed=\"false\""
    );
    assert!(!node_with_text(&tree, "Cart (2)").has(Flags::HIDDEN));
    assert_eq!(
        tree.nodes[id_with_desc(&tree, "Checkout")].bounds,
        Rect::new(740, 2200, 1040, 2340)
    );
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(tree.nodes[2].parent, Some(1));
}

#[test]
fn utf16_with_byte_order_mark_parses_like_utf8() {
    for name in [
        "entities.xml",
        "multi_window.xml",
        "rico.json",
        "droidrun_nested.json",
    ] {
        let utf8 = std::fs::read(fixture_path(name)).expect("fixture");
        let text = std::str::from_utf8(&utf8).expect("fixtures are UTF-8");
        let want = parse::parse_bytes(&utf8).expect("UTF-8");
        for little in [true, false] {
            let bytes = common::utf16_with_bom(text, little);
            assert_eq!(bytes[..2], if little { [0xFF, 0xFE] } else { [0xFE, 0xFF] });
            let got = parse::parse_bytes(&bytes)
                .unwrap_or_else(|e| panic!("{name} little={little}: {e}"));
            assert_eq!(got, want, "{name} little={little}");
        }
        let with_bom = [&[0xEF, 0xBB, 0xBF][..], &utf8].concat();
        assert_eq!(
            parse::parse_bytes(&with_bom).expect("UTF-8 BOM"),
            want,
            "{name} with a UTF-8 BOM"
        );
    }
}

#[test]
fn utf16_emoji_survive_as_surrogate_pairs() {
    let tree = parse_fixture("entities.xml");
    let text = fixture_text("entities.xml");
    let from_le = parse::parse_bytes(&common::utf16_with_bom(&text, true)).expect("LE");
    let id = id_with_text(&tree, "😀 你好，世界 Привет");
    assert_eq!(from_le.nodes[id].text, "😀 你好，世界 Привет");
}

#[test]
fn every_fixture_is_listed_and_parses() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixture_path(""))
        .expect("fixtures directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = ALL_FIXTURES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "common::ALL_FIXTURES must list every fixture"
    );
    for name in ALL_FIXTURES {
        let tree = parse_fixture(name);
        assert!(!tree.nodes.is_empty(), "{name}");
        assert!(
            tree.display.width > 1 && tree.display.height > 1,
            "{name}: {:?}",
            tree.display
        );
        // Parents come before their children, and links agree both ways.
        for (id, node) in tree.nodes.iter().enumerate() {
            if let Some(p) = node.parent {
                assert!(p < id, "{name}: node {id} before its parent {p}");
                assert!(tree.nodes[p].children.contains(&id), "{name}: node {id}");
                assert_eq!(node.depth, tree.nodes[p].depth + 1, "{name}: node {id}");
            }
        }
    }
}
