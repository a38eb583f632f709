//! The contract with the agent: fresh 12-hex versions, dense handles that resolve to exact
//! bounds, the JSON rendering's fields, and a recall check that does catch a loss.

mod common;

use common::{ALL_FIXTURES, id_with_text, parse_fixture, prune_fixed};
use serde_json::Value;
use tapscope_core::prune::{Fate, LineKind, PruneRules, prune};
use tapscope_core::{Rect, recall, render};

#[test]
fn versions_are_fresh_12_digit_lowercase_hex() {
    let tree = parse_fixture("feed.xml");
    let a = prune(&tree, &PruneRules::default());
    let b = prune(&tree, &PruneRules::default());
    for version in [&a.version, &b.version] {
        assert_eq!(version.len(), 12, "{version}");
        assert!(
            version
                .bytes()
                .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')),
            "{version}"
        );
    }
    assert_ne!(a.version, b.version, "two snapshots share a version");
    // Apart from the version, the same tree prunes the same way.
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.lines, b.lines);
    let yaml = render::yaml(&a);
    assert_eq!(
        yaml.lines().next(),
        Some(format!("version: \"{}\"", a.version).as_str())
    );
}

#[test]
fn handles_are_dense_and_resolve_to_their_node_and_exact_bounds() {
    for name in ALL_FIXTURES {
        let tree = parse_fixture(name);
        for rules in [PruneRules::default(), PruneRules::all_off()] {
            let pruned = prune_fixed(&tree, &rules);
            let n = pruned.handles.len();
            let indexed: Vec<usize> = pruned.nodes.iter().filter_map(|p| p.i).collect();
            let mut sorted = indexed.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (1..=n).collect::<Vec<_>>(),
                "{name}: handles are 1..=n, once each"
            );
            assert_eq!(indexed, sorted, "{name}: indices grow in line order");
            for i in 1..=n {
                let node = pruned
                    .resolve(i)
                    .unwrap_or_else(|| panic!("{name}: i {i} does not resolve"));
                assert_eq!(node.i, Some(i), "{name}");
                assert_eq!(
                    node.bounds, tree.nodes[node.raw].bounds,
                    "{name}: exact bounds"
                );
                assert!(
                    matches!(pruned.fates[node.raw], Fate::Printed { .. }),
                    "{name}"
                );
            }
            assert!(pruned.resolve(0).is_none(), "{name}");
            assert!(pruned.resolve(n + 1).is_none(), "{name}");
        }
    }
}

#[test]
fn resolve_gives_the_exact_bounds_of_the_node() {
    let tree = parse_fixture("login_form.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let sign_in = pruned.resolve(3).expect("i 3");
    assert_eq!(sign_in.raw, id_with_text(&tree, "Sign in"));
    assert_eq!(sign_in.bounds, Rect::new(60, 1100, 1020, 1240));
    assert_eq!(sign_in.visible, sign_in.bounds);
    assert_eq!(sign_in.label, "Sign in");
    assert_eq!(pruned.printed_as(sign_in.raw), Some(sign_in));
}

#[test]
fn json_rendering_has_every_field_per_node() {
    let tree = parse_fixture("login_form.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let json: Value = serde_json::from_str(&render::json(&pruned)).expect("valid JSON");
    assert_eq!(json["version"], "0123456789ab");
    assert_eq!(json["app"], "com.example.login");
    assert_eq!(
        json["display"],
        serde_json::json!({"width": 1080, "height": 2400})
    );
    assert_eq!(json["fallback"], false);
    let nodes = json["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), pruned.nodes.len());
    for (node, printed) in nodes.iter().zip(&pruned.nodes) {
        for key in [
            "i", "role", "text", "desc", "id", "flags", "pos", "bounds", "raw",
        ] {
            assert!(node.get(key).is_some(), "{key} missing in {node}");
        }
        assert_eq!(node["raw"], printed.raw);
        assert_eq!(node["text"], printed.label.as_str());
    }
    let email = &nodes[1];
    assert_eq!(email["i"], 1);
    assert_eq!(email["role"], "edit");
    assert_eq!(email["text"], "");
    assert_eq!(email["hint"], "Email address");
    assert_eq!(email["id"], "email");
    assert_eq!(
        email["flags"],
        serde_json::json!(["click", "long", "focused"])
    );
    assert_eq!(email["pos"], "top-center");
    assert_eq!(
        email["bounds"],
        serde_json::json!({"left": 60, "top": 600, "right": 1020, "bottom": 740})
    );
    assert_eq!(email["raw"], 2);
    let heading = &nodes[0];
    assert_eq!(heading["i"], Value::Null);
    assert_eq!(heading["role"], Value::Null);
    assert_eq!(heading["text"], "Sign in to Example");
    assert_eq!(nodes[3]["flags"], serde_json::json!(["click", "disabled"]));
    assert_eq!(
        nodes[2]["flags"],
        serde_json::json!(["click", "long", "password"])
    );
}

#[test]
fn json_rendering_keeps_nesting_windows_and_more() {
    let tree = parse_fixture("feed.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let json: Value = serde_json::from_str(&render::json(&pruned)).expect("valid JSON");
    let nodes = json["nodes"].as_array().expect("nodes");
    let list = nodes
        .iter()
        .position(|n| n["role"] == "list")
        .expect("list");
    let card = nodes.iter().find(|n| n["i"] == 3).expect("card");
    assert_eq!(card["parent"], list);
    assert_eq!(card["text"], "How I built a 3-axis CNC · 12K views");
    assert_eq!(card["merged"].as_array().expect("merged").len(), 2);
    let more = json["more"].as_array().expect("more");
    assert_eq!(more.len(), 1);
    assert_eq!(more[0]["of"], list);
    assert_eq!(more[0]["groups"][0]["count"], 3);
    assert_eq!(more[0]["groups"][0]["direction"], "below");

    let tree = parse_fixture("multi_window.xml");
    let json: Value =
        serde_json::from_str(&render::json(&prune_fixed(&tree, &PruneRules::default())))
            .expect("JSON");
    let window_of = |text: &str| {
        let node = json["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .find(|n| n["text"] == text)
            .expect(text);
        node["window"].clone()
    };
    assert_eq!(
        window_of("Send"),
        Value::Null,
        "the app's nodes name no window"
    );
    assert_eq!(window_of("Delete"), "keyboard");
    assert_eq!(window_of("Chat head: Ben"), "overlay");
    assert_eq!(window_of("12:30"), "system-bar");
    assert_eq!(json["keyboard"], true);
}

#[test]
fn recall_reports_a_cleared_label() {
    let tree = parse_fixture("feed.xml");
    let mut pruned = prune_fixed(&tree, &PruneRules::default());
    assert!(recall::check(&tree, &pruned).lost.is_empty());
    // Text merged into a card: clearing the card's label loses the text node.
    let sourdough = id_with_text(&tree, "Sourdough for beginners");
    let Fate::Merged { into } = pruned.fates[sourdough] else {
        panic!("expected a merge, got {:?}", pruned.fates[sourdough]);
    };
    pruned.nodes[into].label.clear();
    let lost = recall::check(&tree, &pruned).lost;
    assert_eq!(lost.iter().map(|l| l.node).collect::<Vec<_>>(), [sourdough]);
    assert_eq!(lost[0].text, "Sourdough for beginners");
    assert!(
        lost[0]
            .reason
            .contains("its text is not printed on the line of i 7"),
        "{}",
        lost[0].reason
    );
    // A text-only line cut short loses its node too.
    let feed = id_with_text(&tree, "Feed");
    let Fate::Printed { at } = pruned.fates[feed] else {
        panic!("Feed is printed")
    };
    pruned.nodes[at].label = "Fe".into();
    let lost: Vec<usize> = recall::check(&tree, &pruned)
        .lost
        .iter()
        .map(|l| l.node)
        .collect();
    assert_eq!(lost, [feed, sourdough]);
}

#[test]
fn recall_reports_a_removed_or_crossed_handle() {
    let tree = parse_fixture("feed.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let last = pruned.resolve(10).expect("i 10").raw;
    let mut removed = pruned.clone();
    removed.handles.pop();
    let lost = recall::check(&tree, &removed).lost;
    assert_eq!(lost.iter().map(|l| l.node).collect::<Vec<_>>(), [last]);
    assert_eq!(lost[0].desc, "Profile");
    assert!(
        lost[0].reason.contains("no i of its own resolves to it"),
        "{}",
        lost[0].reason
    );

    let mut crossed = pruned.clone();
    crossed.handles.swap(0, 1);
    let lost: Vec<usize> = recall::check(&tree, &crossed)
        .lost
        .iter()
        .map(|l| l.node)
        .collect();
    let (first, second) = (
        pruned.resolve(1).expect("i 1").raw,
        pruned.resolve(2).expect("i 2").raw,
    );
    assert_eq!(lost, [first, second]);
}

#[test]
fn recall_reports_a_node_whose_fate_was_changed() {
    let tree = parse_fixture("login_form.xml");
    let mut pruned = prune_fixed(&tree, &PruneRules::default());
    let email = pruned.resolve(1).expect("i 1").raw;
    pruned.fates[email] = Fate::Flattened;
    let lost = recall::check(&tree, &pruned).lost;
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].node, email);
    assert_eq!(lost[0].bounds, Rect::new(60, 600, 1020, 740));
    assert!(
        lost[0].reason.starts_with("flatten_shells"),
        "{}",
        lost[0].reason
    );
    // Removing the line's node altogether is caught as well.
    let mut truncated = prune_fixed(&tree, &PruneRules::default());
    truncated.nodes.truncate(1);
    truncated
        .lines
        .retain(|l| !matches!(l.kind, LineKind::Node { at } if at >= 1));
    let lost = recall::check(&tree, &truncated).lost;
    assert_eq!(lost.len(), 4, "{lost:#?}");
}
