//! What default pruning makes of typical screens: a feed, a self-drawn screen, settings
//! switches, a login form, several windows with a keyboard, landscape anchors.

mod common;

use common::{
    assert_line, assert_lossless, assert_no_line_with, id_with_desc, parse_fixture, prune_fixed,
    yaml_of,
};
use tapscope_core::prune::{Fate, HiddenWhy, PruneRules};
use tapscope_core::{parse, render};

/// The whole pruned feed, as the agent reads it.
const FEED_YAML: &str = r#"version: "0123456789ab"
app: com.example.feed
display: 1080x2400
"Feed"
[1] "Search"
[2] list #list scroll
  [3] "How I built a 3-axis CNC · 12K views" long
  [4] "Rust in 100 seconds · 3K views · 3 thousand views"
  [5] "Cat compilation 2024"
    [6] "Like"
  [7] "Sourdough for beginners"
  more: [3 below: "Gardening tips for small", "Why the sky is", …]
[8] "New post"
[9] "Home" selected
[10] "Profile"
"#;

/// The same feed under the rule `anchors = true`: every handle with its 3×3 cell.
const FEED_ANCHORED_YAML: &str = r#"version: "0123456789ab"
app: com.example.feed
display: 1080x2400
"Feed"
[1] "Search" pos: top-right
[2] list #list scroll pos: center
  [3] "How I built a 3-axis CNC · 12K views" long pos: top-center
  [4] "Rust in 100 seconds · 3K views · 3 thousand views" pos: center
  [5] "Cat compilation 2024" pos: bottom-center
    [6] "Like" pos: center-right
  [7] "Sourdough for beginners" pos: bottom-center
  more: [3 below: "Gardening tips for small", "Why the sky is", …]
[8] "New post" pos: bottom-right
[9] "Home" selected pos: bottom-left
[10] "Profile" pos: bottom-right
"#;

#[test]
fn feed_golden() {
    assert_eq!(yaml_of("feed.xml", &PruneRules::default()), FEED_YAML);
    let anchored = PruneRules {
        anchors: true,
        ..PruneRules::default()
    };
    assert_eq!(yaml_of("feed.xml", &anchored), FEED_ANCHORED_YAML);
}

#[test]
fn feed_partly_visible_card_is_printed_and_hidden_ones_summarised() {
    let tree = parse_fixture("feed.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    // The card cut by the fold is on screen: printed, with its visible part.
    let sourdough = pruned.resolve(7).expect("i 7");
    assert_eq!(
        sourdough.bounds,
        tapscope_core::Rect::new(0, 2000, 1080, 2600)
    );
    assert_eq!(
        sourdough.visible,
        tapscope_core::Rect::new(0, 2000, 1080, 2200)
    );
    // The three below the fold, and all their texts, are summarised.
    let summarised = pruned
        .fates
        .iter()
        .filter(|f| matches!(f, Fate::Summarised { .. }))
        .count();
    assert_eq!(summarised, 6);
    // The floating button over the list is a sibling of the list, not one of its items.
    assert_eq!(pruned.resolve(8).expect("FAB").label, "New post");
    assert!(!pruned.fallback);
}

#[test]
fn self_drawn_screen_falls_back_to_the_screenshot() {
    let yaml = yaml_of("self_drawn.xml", &PruneRules::default());
    assert_eq!(
        yaml,
        "version: \"0123456789ab\"\napp: com.example.game\ndisplay: 1080x2400\nfallback: screenshot\n\
         window: system-bar\n  \"12:30\"\n"
    );
    // A clickable full-screen surface is no better: there is nothing to target precisely.
    let clickable = common::fixture_text("self_drawn.xml").replace(
        r#"class="android.view.View" package="com.example.game" content-desc="" clickable="false""#,
        r#"class="android.view.View" package="com.example.game" content-desc="" clickable="true""#,
    );
    let tree = parse::parse_str(&clickable).expect("parses");
    assert!(tree.nodes[1].is_actionable());
    let pruned = prune_fixed(&tree, &PruneRules::default());
    assert!(pruned.fallback);
    assert_line(&render::yaml(&pruned), "[1]");
    // A single labelled node is enough to read the screen.
    for content in ["text=\"Tap to start\"", "content-desc=\"Game board\""] {
        let labelled = common::fixture_text("self_drawn.xml").replacen(
            "content-desc=\"\" clickable",
            &format!("{content} clickable"),
            2,
        );
        let pruned = prune_fixed(
            &parse::parse_str(&labelled).expect("parses"),
            &PruneRules::default(),
        );
        assert!(!pruned.fallback, "{content}");
    }
}

#[test]
fn settings_switches_show_their_state() {
    let yaml = yaml_of("settings_switches.xml", &PruneRules::default());
    assert_line(&yaml, "\"Network & internet\"");
    assert_line(&yaml, "  [2] \"Wi-Fi · Connected to Home\"");
    assert_line(&yaml, "    [3] switch #switch_widget checked");
    assert_line(&yaml, "  [4] \"Airplane mode\"");
    assert_line(&yaml, "    [5] switch #switch_widget");
    assert_line(&yaml, "  [6] \"Hotspot & tethering · Off\" disabled");
    assert_line(&yaml, "  [7] checkbox \"Data saver\" checked");
    let tree = parse_fixture("settings_switches.xml");
    assert_lossless(&tree, &prune_fixed(&tree, &PruneRules::default()));
}

#[test]
fn login_form_shows_hint_focus_password_and_disabled() {
    let yaml = yaml_of("login_form.xml", &PruneRules::default());
    assert_eq!(
        yaml.lines().skip(3).collect::<Vec<_>>(),
        [
            "\"Sign in to Example\"",
            "[1] edit hint: \"Email address\" #email long focused",
            "[2] edit \"••••••••\" hint: \"Password\" long password",
            "[3] \"Sign in\" disabled",
            "[4] \"Forgot password?\"",
        ]
    );
}

#[test]
fn windows_are_grouped_and_covered_nodes_hidden() {
    let tree = parse_fixture("multi_window.xml");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let yaml = render::yaml(&pruned);
    assert_eq!(
        yaml.lines().collect::<Vec<_>>(),
        [
            "version: \"0123456789ab\"",
            "app: com.example.chat",
            "display: 1080x2400",
            "keyboard: open",
            "\"Ana\"",
            "\"See you at 8?\"",
            "[1] edit hint: \"Message\" #compose focused",
            "[2] \"Send\"",
            "window: overlay com.facebook.orca",
            "  [3] \"Chat head: Ben\"",
            "window: keyboard",
            "  [4] \"q\" long",
            "  [5] \"w\" long",
            "  [6] \"Delete\" long",
            "window: system-bar",
            "  \"12:30\" desc: \"12:30 PM\"",
            "  \"Battery 80 percent.\"",
        ]
    );
    // Under the chat bubble and under the keyboard: not visible, so not semantic.
    let call = id_with_desc(&tree, "Call");
    let camera = common::id_with_text(&tree, "Camera");
    for id in [call, camera] {
        assert_eq!(
            pruned.fates[id],
            Fate::NotVisible {
                why: HiddenWhy::Covered
            }
        );
    }
    assert_lossless(&tree, &pruned);
}

#[test]
fn a_hidden_node_and_its_subtree_are_not_printed() {
    let yaml = yaml_of("uiautomator2_pretty.xml", &PruneRules::default());
    assert_no_line_with(&yaml, "Draft in trash");
    assert_line(&yaml, "[1] edit hint: \"Search notes\" #search long");
    assert_line(&yaml, "[2] \"New note\" selected");
    let rico = yaml_of("rico.json", &PruneRules::default());
    assert_no_line_with(&rico, "hidden banner");
}

#[test]
fn landscape_anchors_use_the_rotated_display() {
    let anchored = PruneRules {
        anchors: true,
        ..PruneRules::default()
    };
    let one = yaml_of("rotation_1.xml", &anchored);
    assert_line(&one, "display: 2400x1080");
    assert_line(&one, "rotation: 1");
    assert_line(&one, "[1] \"Pause\" pos: center");
    assert_line(&one, "[2] \"Exit full screen\" pos: bottom-right");
    let three = yaml_of("rotation_3.xml", &anchored);
    assert_line(&three, "rotation: 3");
    assert_line(&three, "[1] \"Take photo\" pos: center-right");
    assert_line(&three, "[2] \"Last photo\" pos: bottom-left");
    // The default rules print the rotation too, without the anchors.
    let default = yaml_of("rotation_3.xml", &PruneRules::default());
    assert_line(&default, "rotation: 3");
    assert_line(&default, "[1] \"Take photo\"");
    let portrait = yaml_of("feed.xml", &PruneRules::default());
    assert_no_line_with(&portrait, "rotation");
}

#[test]
fn quotes_backslashes_and_newlines_render_on_one_line() {
    let yaml = yaml_of("entities.xml", &PruneRules::default());
    assert_line(
        &yaml,
        r#""She said \"hi\" & left" desc: "it's <b>bold</b>""#,
    );
    assert_line(&yaml, r#""line one line two""#);
    assert_line(&yaml, r#""C:\\path\\to""#);
    assert_line(
        &yaml,
        r#"[1] "😀 你好，世界 Привет" desc: "日本語のボタン""#,
    );
}

#[test]
fn json_dumps_prune_like_xml() {
    let droidbot = yaml_of("droidbot_state.json", &PruneRules::default());
    assert_line(&droidbot, "app: com.example.weather/.ui.MainActivity");
    assert_line(&droidbot, "[1] \"Berlin · 21°C · 21 degrees Celsius\"");
    assert_line(&droidbot, "[3] edit #city_search long focused");
    let old = yaml_of("droidbot_2016.json", &PruneRules::default());
    assert_line(&old, "[1] edit \"PIN\" long focused password");
    assert_line(&old, "[2] \"Log in\" disabled");
    let rico = yaml_of("rico.json", &PruneRules::default());
    assert_line(&rico, "[1] list #feed scroll");
    assert_line(&rico, "  [2] \"Storm closes harbour\"");
    let early = yaml_of("droidrun_portal_early.json", &PruneRules::default());
    assert_line(&early, "[2]");
    assert_no_line_with(&early, "FrameLayout");
    assert_no_line_with(&early, "ImageView");
}

#[test]
fn a_visible_node_inside_an_off_viewport_item_keeps_its_line() {
    // Regression (found by properties.rs): the wrapper lies above the list's viewport, but
    // its button reaches into it. The button is printed, and must stay reachable rather
    // than be marked as summarised in the `more:` line.
    let xml = r#"<hierarchy rotation="0">
      <node class="android.widget.ListView" package="com.example.app" scrollable="true" bounds="[100,100][1000,2000]">
        <node class="android.widget.FrameLayout" package="com.example.app" bounds="[0,0][50,50]">
          <node class="android.widget.Button" package="com.example.app" text="Visible" clickable="true" bounds="[0,0][200,200]"/>
        </node>
      </node></hierarchy>"#;
    let tree = parse::parse_str(xml).expect("parses");
    let pruned = prune_fixed(&tree, &PruneRules::default());
    let button = common::id_with_text(&tree, "Visible");
    assert!(
        matches!(pruned.fates[button], Fate::Printed { .. }),
        "{:?}",
        pruned.fates[button]
    );
    assert_eq!(pruned.printed_as(button).and_then(|p| p.i), Some(2));
    assert_line(&render::yaml(&pruned), "  [2] \"Visible\"");
    assert_lossless(&tree, &pruned);
}
