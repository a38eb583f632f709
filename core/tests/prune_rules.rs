//! Each pruning rule in `PruneRules`, switched off or changed, changes the rendered
//! pseudo-YAML in the expected way; the default rules stay lossless on every fixture.

mod common;

use common::{
    ALL_FIXTURES, assert_line, assert_lossless, assert_no_line_with, parse_fixture, prune_fixed,
    yaml_of,
};
use tapscope_core::prune::{Fate, KeyboardMode, PruneRules};
use tapscope_core::{Flags, recall};

fn rules(change: impl FnOnce(&mut PruneRules)) -> PruneRules {
    let mut rules = PruneRules::default();
    change(&mut rules);
    rules
}

/// The fixture pruned with `rules` must lose nothing.
#[track_caller]
fn assert_lossless_with(name: &str, rules: &PruneRules) {
    let tree = parse_fixture(name);
    assert_lossless(&tree, &prune_fixed(&tree, rules));
}

#[test]
fn default_rules_lose_nothing_on_any_fixture() {
    for name in ALL_FIXTURES {
        let tree = parse_fixture(name);
        let pruned = prune_fixed(&tree, &PruneRules::default());
        let recall = recall::check(&tree, &pruned);
        assert!(recall.lost.is_empty(), "{name}: {:#?}", recall.lost);
        assert!(
            !recall.semantic.is_empty(),
            "{name} has something to read or do"
        );
    }
}

#[test]
fn flatten_shells() {
    let on = yaml_of("feed.xml", &PruneRules::default());
    assert_line(&on, "- \"Feed\"");
    assert_no_line_with(&on, "#toolbar");
    let off = yaml_of("feed.xml", &rules(|r| r.flatten_shells = false));
    // The shells come back, and what was inside them moves one level down.
    assert_line(&off, "  - (LinearLayout) #toolbar");
    assert_line(&off, "    - \"Feed\"");
    assert_line(&off, "    - i: 1 \"Search\" click pos: top-right");
    assert_line(&off, "  - (LinearLayout) #bottom_nav");
    assert_line(&off, "    - i: 9 \"Home\" click selected pos: bottom-left");
    // An unlabelled image now has a line of its own, so its card no longer merges.
    assert_line(&off, "    - i: 4 click pos: center");
    assert_line(&off, "      - \"Rust in 100 seconds\"");
    assert!(off.lines().any(|l| l.starts_with("      - image")), "{off}");
    assert!(off.lines().count() > on.lines().count() + 4);
    assert_lossless_with("feed.xml", &rules(|r| r.flatten_shells = false));
}

#[test]
fn merge_clickable_text() {
    let on = yaml_of("feed.xml", &PruneRules::default());
    assert_line(
        &on,
        "  - i: 3 \"How I built a 3-axis CNC · 12K views\" click long pos: top-center",
    );
    // The description joins too, when it adds to the text.
    assert_line(
        &on,
        "  - i: 4 \"Rust in 100 seconds · 3K views · 3 thousand views\" click pos: center",
    );
    // Texts inside an actionable child stay with the card; the child keeps its own line.
    assert_line(
        &on,
        "  - i: 5 \"Cat compilation 2024\" click pos: bottom-center",
    );
    assert_line(&on, "    - i: 6 \"Like\" click pos: center-right");

    let off = yaml_of("feed.xml", &rules(|r| r.merge_clickable_text = false));
    assert_line(&off, "  - i: 3 click long pos: top-center");
    assert_line(&off, "    - \"How I built a 3-axis CNC\"");
    assert_line(&off, "    - \"12K views\"");
    assert_line(&off, "    - \"3K views\" desc: \"3 thousand views\"");
    assert_line(&off, "  - i: 5 click pos: bottom-center");
    assert_line(&off, "    - \"Cat compilation 2024\"");
    assert_lossless_with("feed.xml", &rules(|r| r.merge_clickable_text = false));
}

#[test]
fn max_merged_texts() {
    let one = rules(|r| r.max_merged_texts = 1);
    let yaml = yaml_of("feed.xml", &one);
    // Two texts are more than one: nothing merges. One text still merges.
    assert_line(&yaml, "  - i: 3 click long pos: top-center");
    assert_line(&yaml, "    - \"How I built a 3-axis CNC\"");
    assert_line(
        &yaml,
        "  - i: 7 \"Sourdough for beginners\" click pos: bottom-center",
    );
    let two = yaml_of("feed.xml", &rules(|r| r.max_merged_texts = 2));
    assert_line(
        &two,
        "  - i: 3 \"How I built a 3-axis CNC · 12K views\" click long pos: top-center",
    );
    assert_lossless_with("feed.xml", &one);
}

#[test]
fn keep_id_containers() {
    let yaml = yaml_of("feed.xml", &rules(|r| r.keep_id_containers = true));
    assert_line(&yaml, "- #toolbar");
    assert_line(&yaml, "  - \"Feed\"");
    assert_line(&yaml, "  - i: 1 \"Search\" click pos: top-right");
    assert_line(&yaml, "- #bottom_nav");
    assert_line(&yaml, "  - i: 10 \"Profile\" click pos: bottom-right");
    // The root has no id: still flattened.
    assert!(!yaml.contains("FrameLayout"), "{yaml}");
    assert_lossless_with("feed.xml", &rules(|r| r.keep_id_containers = true));
}

#[test]
fn omit_false_flags() {
    let on = yaml_of("login_form.xml", &PruneRules::default());
    assert_line(&on, "- i: 3 \"Sign in\" click disabled pos: center");
    assert_line(&on, "- \"Sign in to Example\"");
    let off = yaml_of("login_form.xml", &rules(|r| r.omit_false_flags = false));
    assert_line(
        &off,
        "- i: 3 \"Sign in\" clickable=true long-clickable=false scrollable=false checked=false \
         selected=false focused=false password=false enabled=false pos: center",
    );
    assert_line(
        &off,
        "- \"Sign in to Example\" clickable=false long-clickable=false scrollable=false \
         checked=false selected=false focused=false password=false enabled=true",
    );
    assert_no_line_with(&off, " disabled");
    assert_lossless_with("login_form.xml", &rules(|r| r.omit_false_flags = false));
}

#[test]
fn index_all() {
    let tree = parse_fixture("feed.xml");
    let pruned = prune_fixed(&tree, &rules(|r| r.index_all = true));
    let yaml = tapscope_core::render::yaml(&pruned);
    // Text-only lines get an index and a position too, and every later index shifts.
    assert_line(&yaml, "- i: 1 \"Feed\" pos: top-left");
    assert_line(&yaml, "- i: 2 \"Search\" click pos: top-right");
    assert_eq!(pruned.handles.len(), pruned.nodes.len());
    assert!(pruned.nodes.iter().all(|n| n.i.is_some()));
    let default = prune_fixed(&tree, &PruneRules::default());
    assert!(default.handles.len() < default.nodes.len());
    assert_lossless(&tree, &pruned);
}

#[test]
fn anchors() {
    let off = yaml_of("login_form.xml", &rules(|r| r.anchors = false));
    assert_line(
        &off,
        "- i: 1 edit hint: \"Email address\" #email click long focused",
    );
    assert_line(&off, "- i: 3 \"Sign in\" click disabled");
    assert_no_line_with(&off, "pos:");
    // The position is still in the data model, for actions and the workbench.
    let tree = parse_fixture("login_form.xml");
    let pruned = prune_fixed(&tree, &rules(|r| r.anchors = false));
    assert_eq!(pruned.resolve(1).expect("i 1").pos.name(), "top-center");
    assert_lossless(&tree, &pruned);
}

#[test]
fn more_summaries() {
    let on = yaml_of("feed.xml", &PruneRules::default());
    assert_line(
        &on,
        "  more: [3 below: \"Gardening tips for small\", \"Why the sky is\", …]",
    );
    let tree = parse_fixture("feed.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let gardening = common::id_with_text(&tree, "Gardening tips for small balconies");
    assert!(
        matches!(pruned.fates[gardening], Fate::Summarised { .. }),
        "{:?}",
        pruned.fates[gardening]
    );

    let off = yaml_of("feed.xml", &rules(|r| r.more_summaries = false));
    assert_no_line_with(&off, "more:");
    assert_no_line_with(&off, "Gardening");
    let pruned = prune_fixed(&tree, &rules(|r| r.more_summaries = false));
    assert!(
        matches!(pruned.fates[gardening], Fate::NotVisible { .. }),
        "{:?}",
        pruned.fates[gardening]
    );
}

#[test]
fn more_samples() {
    let none = yaml_of("feed.xml", &rules(|r| r.more_samples = 0));
    assert_line(&none, "  more: [3 below]");
    let one = yaml_of("feed.xml", &rules(|r| r.more_samples = 1));
    assert_line(&one, "  more: [3 below: \"Gardening tips for small\", …]");
    let all = yaml_of("feed.xml", &rules(|r| r.more_samples = 3));
    assert_line(
        &all,
        "  more: [3 below: \"Gardening tips for small\", \"Why the sky is\", \"Chess openings explained\"]",
    );
    let more = yaml_of("feed.xml", &rules(|r| r.more_samples = 9));
    assert_eq!(all, more, "there are only three items to quote");
}

#[test]
fn more_words() {
    let one = yaml_of("feed.xml", &rules(|r| r.more_words = 1));
    assert_line(&one, "  more: [3 below: \"Gardening\", \"Why\", …]");
    let six = yaml_of("feed.xml", &rules(|r| r.more_words = 6));
    assert_line(
        &six,
        "  more: [3 below: \"Gardening tips for small balconies\", \"Why the sky is blue\", …]",
    );
}

#[test]
fn max_text_chars() {
    let short = rules(|r| r.max_text_chars = 10);
    let yaml = yaml_of("feed.xml", &short);
    assert_line(
        &yaml,
        "  - i: 3 \"How I buil… · 12K views\" click long pos: top-center",
    );
    assert_line(&yaml, "  - i: 7 \"Sourdough…\" click pos: bottom-center");
    assert_line(
        &yaml,
        "  more: [3 below: \"Gardening…\", \"Why the sk…\", …]",
    );
    // A cut text still counts as printed: the recall check accepts its prefix.
    assert_lossless_with("feed.xml", &short);
    let login = yaml_of("login_form.xml", &rules(|r| r.max_text_chars = 5));
    assert_line(
        &login,
        "- i: 1 edit hint: \"Email…\" #email click long focused pos: top-center",
    );
}

#[test]
fn ids() {
    let on = yaml_of("settings_switches.xml", &PruneRules::default());
    assert_line(
        &on,
        "    - i: 3 switch #switch_widget checked pos: top-right",
    );
    assert_line(&on, "    - i: 5 switch #switch_widget pos: top-right");
    assert_line(&on, "- i: 1 list #recycler_view scroll pos: center");
    let off = yaml_of("settings_switches.xml", &rules(|r| r.ids = false));
    assert_line(&off, "    - i: 3 switch checked pos: top-right");
    assert_line(&off, "- i: 1 list scroll pos: center");
    assert_no_line_with(&off, "#");
    // A node with text never shows its id.
    assert_line(
        &on,
        "  - i: 7 checkbox \"Data saver\" click checked pos: center",
    );
}

#[test]
fn version_header() {
    let on = yaml_of("login_form.xml", &PruneRules::default());
    assert_eq!(on.lines().next(), Some("version: \"0123456789ab\""));
    let off = yaml_of("login_form.xml", &rules(|r| r.version_header = false));
    assert_eq!(off.lines().next(), Some("app: com.example.login"));
    assert_no_line_with(&off, "version");
    assert_eq!(
        on.lines().skip(1).collect::<Vec<_>>(),
        off.lines().collect::<Vec<_>>()
    );
}

#[test]
fn keyboard_keys_or_collapse() {
    let keys = yaml_of("chat_keyboard.xml", &PruneRules::default());
    assert_line(&keys, "keyboard: open");
    assert_line(&keys, "- window: keyboard");
    assert_line(&keys, "  - i: 2 \"q · 1\" click long pos: bottom-left");
    assert_line(&keys, "  - i: 4 \"Send\" click pos: bottom-right");

    let collapse = rules(|r| r.keyboard = KeyboardMode::Collapse);
    let tree = parse_fixture("chat_keyboard.xml");
    let pruned = prune_fixed(&tree, &collapse);
    let yaml = tapscope_core::render::yaml(&pruned);
    assert_line(&yaml, "keyboard: open");
    assert_no_line_with(&yaml, "window: keyboard");
    assert_no_line_with(&yaml, "Space");
    assert_eq!(
        pruned.handles.len(),
        1,
        "only the edit field keeps an index"
    );
    // Collapsing is a deliberate loss: the recall check names exactly the keyboard's nodes.
    let keyboard = tree
        .windows
        .iter()
        .position(|w| w.package.contains("inputmethod"))
        .expect("keyboard");
    let lost = recall::check(&tree, &pruned).lost;
    assert_eq!(lost.len(), 4, "{lost:#?}");
    for node in &lost {
        assert_eq!(tree.nodes[node.node].window, keyboard);
        assert!(matches!(pruned.fates[node.node], Fate::Collapsed));
        assert!(
            node.reason.contains("keyboard = collapse"),
            "{}",
            node.reason
        );
    }
    // The app's nodes under the keyboard stay covered either way.
    assert_no_line_with(&yaml, "Attach");
    assert!(
        tree.nodes
            .iter()
            .any(|n| n.text == "Attach" && n.has(Flags::CLICKABLE))
    );
}

#[test]
fn every_rule_off_is_still_lossless() {
    for name in ALL_FIXTURES {
        let tree = parse_fixture(name);
        let raw = prune_fixed(&tree, &PruneRules::all_off());
        assert_lossless(&tree, &raw);
        let default = prune_fixed(&tree, &PruneRules::default());
        assert!(raw.nodes.len() >= default.nodes.len(), "{name}");
    }
}
