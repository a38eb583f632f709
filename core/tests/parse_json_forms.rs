//! The JSON dump forms — droidbot (current and 2016), Rico, droidrun nested and early
//! portal lists, flat element lists — read into the expected tree.

mod common;

use common::{id_with_desc, node_with_text, parse_fixture};
use tapscope_core::{DumpFormat, Flags, Rect, Size, WindowKind};

#[test]
fn droidbot_state_rebuilds_the_tree_from_indexes() {
    let tree = parse_fixture("droidbot_state.json");
    assert_eq!(tree.format, DumpFormat::Droidbot);
    assert_eq!(tree.nodes.len(), 6);
    assert_eq!(
        tree.app, "com.example.weather/.ui.MainActivity",
        "from foreground_activity"
    );
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(tree.windows.len(), 1);
    assert_eq!(tree.windows[0].kind, WindowKind::App);
    assert_eq!(tree.windows[0].package, "com.example.weather");

    let root = &tree.nodes[0];
    assert_eq!(root.text, "", "null text reads as empty");
    assert_eq!(root.children.len(), 3);
    let today = &tree.nodes[root.children[0]];
    assert_eq!(today.resource_id, "com.example.weather:id/today");
    assert!(today.has(Flags::CLICKABLE));
    assert_eq!(today.bounds, Rect::new(0, 200, 1080, 800));
    let texts: Vec<&str> = today
        .children
        .iter()
        .map(|&c| tree.nodes[c].text.as_str())
        .collect();
    assert_eq!(texts, ["Berlin", "21°C"]);

    let temperature = node_with_text(&tree, "21°C");
    assert_eq!(
        temperature.desc, "21 degrees Celsius",
        "content_description"
    );
    assert_eq!(temperature.depth, 2);
    let refresh = &tree.nodes[id_with_desc(&tree, "Refresh")];
    assert_eq!(refresh.resource_id, "com.example.weather:id/refresh");
    assert_eq!(refresh.bounds, Rect::new(940, 80, 1060, 180));
    let search = &tree.nodes[root.children[2]];
    assert!(
        search.has(Flags::EDITABLE)
            && search.has(Flags::FOCUSED)
            && search.has(Flags::LONG_CLICKABLE)
    );
    assert!(!search.has(Flags::PASSWORD) && !search.has(Flags::HIDDEN));
}

#[test]
fn droidbot_2016_state_with_string_booleans_and_hyphenated_keys() {
    let tree = parse_fixture("droidbot_2016.json");
    assert_eq!(tree.format, DumpFormat::Droidbot);
    assert_eq!(tree.nodes.len(), 4);
    assert_eq!(tree.app, "com.example.bank/.activity.LoginActivity");
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 1776
        }
    );
    assert_eq!(tree.nodes[0].parent, None, "\"parent\": null is a root");
    assert_eq!(
        tree.nodes[0].flags,
        Flags::ENABLED,
        "\"false\" strings are false"
    );

    let greeting = node_with_text(&tree, "Welcome back");
    assert_eq!(greeting.resource_id, "com.example.bank:id/greeting");
    let pin = &tree.nodes[id_with_desc(&tree, "PIN")];
    assert!(pin.has(Flags::PASSWORD), "\"password\": \"true\"");
    assert!(pin.has(Flags::EDITABLE) && pin.has(Flags::FOCUSED) && pin.has(Flags::CLICKABLE));
    assert_eq!(pin.bounds, Rect::new(60, 400, 1020, 520));
    let login = node_with_text(&tree, "Log in");
    assert!(login.has(Flags::CLICKABLE));
    assert!(!login.has(Flags::ENABLED), "\"enabled\": \"false\"");
}

#[test]
fn rico_hierarchy_with_list_descriptions_and_visibility() {
    let tree = parse_fixture("rico.json");
    assert_eq!(tree.format, DumpFormat::Rico);
    assert_eq!(tree.nodes.len(), 6, "the null child is skipped");
    assert_eq!(
        tree.app, "com.example.news/com.example.news.FeedActivity",
        "from activity_name"
    );
    assert_eq!(
        tree.display,
        Size {
            width: 1440,
            height: 2560
        }
    );
    assert_eq!(tree.windows.len(), 1);

    let root = &tree.nodes[0];
    assert_eq!(root.desc, "", "content-desc [null] reads as empty");
    assert_eq!(root.bounds, Rect::new(0, 0, 1440, 2560));
    let list = &tree.nodes[1];
    assert_eq!(list.class, "android.widget.ListView");
    assert!(list.has(Flags::SCROLLABLE), "scrollable-vertical");
    assert_eq!(list.children.len(), 2);
    let storm = node_with_text(&tree, "Storm closes harbour");
    assert_eq!(storm.parent, Some(1));
    assert_eq!(
        storm.bounds,
        Rect::new(0, 200, 1440, 600),
        "bounds [l,t,r,b]"
    );
    assert!(storm.has(Flags::CLICKABLE));

    let share = &tree.nodes[id_with_desc(&tree, "Share")];
    assert_eq!(
        share.resource_id, "com.example.news:id/share",
        "content-desc [\"Share\"]"
    );
    assert!(!share.has(Flags::HIDDEN));
    assert!(
        node_with_text(&tree, "Breaking: hidden banner").has(Flags::HIDDEN),
        "visibility gone"
    );
}

#[test]
fn droidrun_nested_elements_with_camel_case_keys() {
    let tree = parse_fixture("droidrun_nested.json");
    assert_eq!(tree.format, DumpFormat::Droidrun);
    assert_eq!(tree.nodes.len(), 5);
    assert_eq!(
        tree.display,
        Size {
            width: 411,
            height: 890
        }
    );
    assert_eq!(
        tree.nodes[0].class, "androidx.appcompat.widget.ContentFrameLayout",
        "className"
    );
    assert_eq!(
        tree.nodes[0].bounds,
        Rect::new(0, 48, 411, 890),
        "bounds {{left,top,right,bottom}}"
    );
    assert_eq!(tree.nodes[1].parent, Some(0));

    let back = &tree.nodes[id_with_desc(&tree, "返回")];
    assert_eq!(back.resource_id, "view_225391533", "resourceId");
    assert_eq!(back.parent, Some(1));
    assert_eq!(back.depth, 2);
    assert!(back.has(Flags::CLICKABLE));
    assert_eq!(back.bounds, Rect::new(16, 65, 40, 89));
    let half_day = node_with_text(&tree, "Half day");
    assert!(half_day.has(Flags::CHECKABLE) && half_day.has(Flags::CHECKED));
    assert!(node_with_text(&tree, "请休假申请 (第1步)").flags == Flags::ENABLED);
}

#[test]
fn droidrun_portal_early_list_with_string_bounds_and_types() {
    let tree = parse_fixture("droidrun_portal_early.json");
    assert_eq!(tree.format, DumpFormat::Droidrun);
    assert_eq!(tree.nodes.len(), 5);
    assert_eq!(
        tree.windows.len(),
        1,
        "one screen, however many top-level elements"
    );
    assert_eq!(tree.windows[0].roots, vec![0, 1, 3, 4]);
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );

    let workspace = node_with_text(&tree, "workspace");
    assert!(workspace.has(Flags::SCROLLABLE), "type scrollable");
    assert_eq!(
        workspace.bounds,
        Rect::new(0, 0, 1080, 2400),
        "bounds \"l,t,r,b\""
    );
    let frame = &tree.nodes[1];
    assert_eq!(frame.class, "FrameLayout");
    assert_eq!(frame.text, "", "text equal to the class name is not text");
    assert!(frame.has(Flags::CLICKABLE), "type clickable");
    assert_eq!(frame.bounds, Rect::new(652, 206, 778, 413));
    assert_eq!(tree.nodes[2].text, "", "ImageView named ImageView");
    assert_eq!(tree.nodes[2].parent, Some(1));
    assert!(node_with_text(&tree, "Maps").has(Flags::CLICKABLE));
    let search = node_with_text(&tree, "Search");
    assert!(search.has(Flags::EDITABLE) && search.has(Flags::FOCUSABLE));
}

#[test]
fn flat_element_list_has_no_hierarchy() {
    let tree = parse_fixture("flat_list.json");
    assert_eq!(tree.format, DumpFormat::FlatList);
    assert_eq!(tree.nodes.len(), 4);
    assert!(
        tree.nodes
            .iter()
            .all(|n| n.parent.is_none() && n.children.is_empty() && n.depth == 0)
    );
    assert_eq!(tree.windows.len(), 1);
    assert_eq!(tree.windows[0].roots, vec![0, 1, 2, 3]);
    // No full-screen root: the display is the extent of the elements.
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2360
        }
    );
    let back = &tree.nodes[id_with_desc(&tree, "Back")];
    assert_eq!(back.bounds, Rect::new(31, 84, 157, 210));
    assert_eq!(back.resource_id, "com.example.maps:id/back");
    assert!(back.has(Flags::CLICKABLE | Flags::FOCUSABLE));
    assert!(tree.nodes[2].has(Flags::SCROLLABLE));
    assert_eq!(
        node_with_text(&tree, "Delete all").bounds,
        Rect::new(40, 2240, 1040, 2360)
    );
}
