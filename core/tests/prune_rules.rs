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
    assert_line(&on, "\"Feed\"");
    assert_no_line_with(&on, "#toolbar");
    let off = yaml_of("feed.xml", &rules(|r| r.flatten_shells = false));
    // The shells come back, and what was inside them moves one level down.
    assert_line(&off, "(FrameLayout)");
    assert_line(&off, "  (LinearLayout) #toolbar");
    assert_line(&off, "    \"Feed\"");
    assert_line(&off, "    [1] \"Search\"");
    assert_line(&off, "  (LinearLayout) #bottom_nav");
    assert_line(&off, "    [9] \"Home\" selected");
    // An unlabelled image now has a line of its own, so its card no longer merges.
    assert_line(&off, "    [4]");
    assert_line(&off, "      \"Rust in 100 seconds\"");
    assert!(off.lines().any(|l| l.starts_with("      image")), "{off}");
    assert!(off.lines().count() > on.lines().count() + 4);
    assert_lossless_with("feed.xml", &rules(|r| r.flatten_shells = false));
}

#[test]
fn merge_clickable_text() {
    let on = yaml_of("feed.xml", &PruneRules::default());
    assert_line(&on, "  [3] \"How I built a 3-axis CNC · 12K views\" long");
    // The description joins too, when it adds to the text.
    assert_line(
        &on,
        "  [4] \"Rust in 100 seconds · 3K views · 3 thousand views\"",
    );
    // Texts inside an actionable child stay with the card; the child keeps its own line.
    assert_line(&on, "  [5] \"Cat compilation 2024\"");
    assert_line(&on, "    [6] \"Like\"");

    let off = yaml_of("feed.xml", &rules(|r| r.merge_clickable_text = false));
    assert_line(&off, "  [3] long");
    assert_line(&off, "    \"How I built a 3-axis CNC\"");
    assert_line(&off, "    \"12K views\"");
    assert_line(&off, "    \"3K views\" desc: \"3 thousand views\"");
    assert_line(&off, "    \"Cat compilation 2024\"");
    // Cards 4, 5 and 7 now read the same, a bare handle: their anchors tell them apart.
    assert_line(&off, "  [4] pos: center");
    assert_line(&off, "  [5] pos: bottom-center");
    assert_line(&off, "  [7] pos: bottom-center");
    assert_lossless_with("feed.xml", &rules(|r| r.merge_clickable_text = false));
}

#[test]
fn max_merged_texts() {
    let one = rules(|r| r.max_merged_texts = 1);
    let yaml = yaml_of("feed.xml", &one);
    // Two texts are more than one: nothing merges. One text still merges.
    assert_line(&yaml, "  [3] long");
    assert_line(&yaml, "    \"How I built a 3-axis CNC\"");
    assert_line(&yaml, "  [7] \"Sourdough for beginners\"");
    let two = yaml_of("feed.xml", &rules(|r| r.max_merged_texts = 2));
    assert_line(&two, "  [3] \"How I built a 3-axis CNC · 12K views\" long");
    assert_lossless_with("feed.xml", &one);
}

#[test]
fn keep_id_containers() {
    let yaml = yaml_of("feed.xml", &rules(|r| r.keep_id_containers = true));
    assert_line(&yaml, "#toolbar");
    assert_line(&yaml, "  \"Feed\"");
    assert_line(&yaml, "  [1] \"Search\"");
    assert_line(&yaml, "#bottom_nav");
    assert_line(&yaml, "  [10] \"Profile\"");
    // The root has no id: still flattened.
    assert!(!yaml.contains("FrameLayout"), "{yaml}");
    assert_lossless_with("feed.xml", &rules(|r| r.keep_id_containers = true));
}

#[test]
fn omit_false_flags() {
    let on = yaml_of("login_form.xml", &PruneRules::default());
    // The handle says the button can be tapped: `click` is not printed again.
    assert_line(&on, "[3] \"Sign in\" disabled");
    assert_line(&on, "\"Sign in to Example\"");
    assert_no_line_with(&on, "click");
    let off = yaml_of("login_form.xml", &rules(|r| r.omit_false_flags = false));
    // Every flag is spelled out, clickable=true too.
    assert_line(
        &off,
        "[3] \"Sign in\" clickable=true long-clickable=false scrollable=false checked=false \
         selected=false focused=false password=false enabled=false",
    );
    assert_line(
        &off,
        "\"Sign in to Example\" clickable=false long-clickable=false scrollable=false \
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
    // Text-only lines get an index too, and every later index shifts. A handle no longer
    // says the node can be tapped, so `click` is printed.
    assert_line(&yaml, "[1] \"Feed\"");
    assert_line(&yaml, "[2] \"Search\" click");
    assert_line(
        &yaml,
        "  [4] \"How I built a 3-axis CNC · 12K views\" click long",
    );
    // With anchors, the text-only lines get a position as well.
    let anchored = yaml_of(
        "feed.xml",
        &rules(|r| {
            r.index_all = true;
            r.anchors = true;
        }),
    );
    assert_line(&anchored, "[1] \"Feed\" pos: top-left");
    assert_line(&anchored, "[2] \"Search\" click pos: top-right");
    assert_eq!(pruned.handles.len(), pruned.nodes.len());
    assert!(pruned.nodes.iter().all(|n| n.i.is_some()));
    let default = prune_fixed(&tree, &PruneRules::default());
    assert!(default.handles.len() < default.nodes.len());
    assert_lossless(&tree, &pruned);
}

#[test]
fn anchors() {
    assert!(!PruneRules::default().anchors);
    let on = yaml_of("login_form.xml", &rules(|r| r.anchors = true));
    assert_line(
        &on,
        "[1] edit hint: \"Email address\" #email long focused pos: top-center",
    );
    assert_line(&on, "[3] \"Sign in\" disabled pos: center");
    assert_line(&on, "[4] \"Forgot password?\" pos: center-left");
    // Only nodes with a handle have an anchor.
    assert_line(&on, "\"Sign in to Example\"");
    assert_lossless_with("login_form.xml", &rules(|r| r.anchors = true));

    let off = yaml_of("login_form.xml", &rules(|r| r.anchors = false));
    assert_line(&off, "[1] edit hint: \"Email address\" #email long focused");
    assert_line(&off, "[3] \"Sign in\" disabled");
    assert_no_line_with(&off, "pos:");
    // The position is still in the data model, for actions and the workbench.
    let tree = parse_fixture("login_form.xml");
    let pruned = prune_fixed(&tree, &rules(|r| r.anchors = false));
    assert_eq!(pruned.resolve(1).expect("i 1").pos.name(), "top-center");
    assert_lossless(&tree, &pruned);
}

#[test]
fn without_anchors_only_siblings_that_read_the_same_get_one() {
    let xml = r#"<hierarchy rotation="0">
      <node class="android.widget.FrameLayout" package="com.example.mail" bounds="[0,0][1080,2400]">
        <node class="android.widget.Button" package="com.example.mail" text="Delete" clickable="true" bounds="[0,200][540,400]"/>
        <node class="android.widget.Button" package="com.example.mail" text="Delete" clickable="true" focusable="true" bounds="[540,200][1080,400]"/>
        <node class="android.widget.Button" package="com.example.mail" text="Delete" clickable="true" long-clickable="true" bounds="[0,1100][540,1300]"/>
        <node class="android.widget.Button" package="com.example.mail" text="Archive" clickable="true" bounds="[0,2200][540,2400]"/>
        <node class="android.widget.ListView" package="com.example.mail" scrollable="true" bounds="[540,1000][1080,2000]">
          <node class="android.widget.Button" package="com.example.mail" text="Delete" clickable="true" bounds="[540,1000][1080,1200]"/>
        </node>
      </node></hierarchy>"#;
    let tree = tapscope_core::parse::parse_str(xml).expect("parses");
    let yaml = tapscope_core::render::yaml(&prune_fixed(&tree, &PruneRules::default()));
    assert_eq!(
        yaml.lines().skip(3).collect::<Vec<_>>(),
        [
            // Two sibling buttons with the same label (one also focusable, which no word
            // prints): only their anchors tell them apart.
            "[1] \"Delete\" pos: top-left",
            "[2] \"Delete\" pos: top-right",
            // The same label with another flag, a lone label, and the same label under
            // another parent all read apart already.
            "[3] \"Delete\" long",
            "[4] \"Archive\"",
            "[5] list scroll",
            "  [6] \"Delete\"",
        ],
        "{yaml}"
    );
    // Under the rule, every node with a handle has its anchor.
    let all = tapscope_core::render::yaml(&prune_fixed(&tree, &rules(|r| r.anchors = true)));
    assert_line(&all, "[4] \"Archive\" pos: bottom-left");
    assert_line(&all, "  [6] \"Delete\" pos: center-right");
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
    assert_line(&yaml, "  [3] \"How I buil… · 12K views\" long");
    assert_line(&yaml, "  [7] \"Sourdough…\"");
    assert_line(
        &yaml,
        "  more: [3 below: \"Gardening…\", \"Why the sk…\", …]",
    );
    // A cut text still counts as printed: the recall check accepts its prefix.
    assert_lossless_with("feed.xml", &short);
    let login = yaml_of("login_form.xml", &rules(|r| r.max_text_chars = 5));
    assert_line(&login, "[1] edit hint: \"Email…\" #email long focused");
}

#[test]
fn ids() {
    let on = yaml_of("settings_switches.xml", &PruneRules::default());
    assert_line(&on, "    [3] switch #switch_widget checked");
    assert_line(&on, "    [5] switch #switch_widget");
    assert_line(&on, "[1] list #recycler_view scroll");
    let off = yaml_of("settings_switches.xml", &rules(|r| r.ids = false));
    assert_line(&off, "    [3] switch checked");
    assert_line(&off, "[1] list scroll");
    assert_no_line_with(&off, "#");
    // A node with text never shows its id.
    assert_line(&on, "  [7] checkbox \"Data saver\" checked");
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
    assert_line(&keys, "window: keyboard");
    assert_line(&keys, "  [2] \"q · 1\" long");
    assert_line(&keys, "  [4] \"Send\"");

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
